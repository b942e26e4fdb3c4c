//! The text mirror: a screen's model as plain text fields, for what a screen reader says
//! and what the tests read. The browser puts each field in a `[data-mirror=<name>]`
//! element beside its canvas, and the screen's [`Tap`]s in it as buttons.
//!
//! Only [`Mirror::announce`] is live: it changes when something happens (a screen opens,
//! a round starts, a countdown ticks, a round ends), never with the clock or the live
//! speed, so a screen reader says what a person needs and is quiet while they type. The
//! rest is there to be read when asked.

use crate::model::{Body, Model, Tap, Word};

/// The mirror's fields, each a `[data-mirror=<name>]` element on the page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mirror {
    /// `menu`, `playing`, `replay`, `results`, `history`, `link`, `boards` or `keys`.
    pub screen: &'static str,
    /// What a screen reader says as it changes: the screen and what just happened on it
    /// (`BLITZ 15s · go`, the results); the one live field.
    pub announce: String,
    /// `REPLAY · BLITZ 15s` while watching someone's round, `RACE · BLITZ 15s · vs ada`
    /// in a race, else empty.
    pub banner: String,
    /// The mode, the clock, heat and level; on the menu, the best round `g` races.
    pub status: String,
    /// The words still to type, from the current one.
    pub words: String,
    /// What is typed of the current word.
    pub typed: String,
    /// The finished round's stats.
    pub results: String,
    /// The menu's items or the history's rows, one a line, `▸` at the selected one.
    pub list: String,
    /// A notice, such as why a replay was refused.
    pub notice: String,
    /// The finished round's share link, once it has one.
    pub share: String,
    /// In a race, the live lead in words; after it, both sides' numbers.
    pub ghost: String,
    /// In a room: its link, and each racer's name and state; in its race, the standing
    /// and each racer's lead, place and speed; after it, the finishers.
    pub room: String,
    /// The menu's other lines: its tagline, the last round, who is playing.
    pub lines: String,
    /// The keys the screen takes.
    pub hints: &'static str,
    /// The screen's buttons, which the page makes real buttons of.
    pub taps: &'static [Tap],
}

/// The field names, in the order of [`Mirror::fields`].
pub const FIELDS: [&str; 14] = [
    "screen", "announce", "banner", "status", "words", "typed", "results", "list", "notice",
    "share", "ghost", "room", "lines", "hints",
];

impl Mirror {
    /// The fields' texts, in the order of [`FIELDS`].
    pub fn fields(&self) -> [&str; 14] {
        [
            self.screen,
            &self.announce,
            &self.banner,
            &self.status,
            &self.words,
            &self.typed,
            &self.results,
            &self.list,
            &self.notice,
            &self.share,
            &self.ghost,
            &self.room,
            &self.lines,
            self.hints,
        ]
    }
}

/// How many upcoming words the mirror reads out.
const WORDS_AHEAD: usize = 24;

impl Mirror {
    /// The mirror of a screen's model.
    pub fn of(model: &Model) -> Mirror {
        let mut m = Mirror {
            screen: model.kind.name(),
            banner: model.banner.clone().unwrap_or_default(),
            notice: model.notice.clone().map(|(n, _)| n).unwrap_or_default(),
            hints: model.hints,
            taps: model.taps,
            ..Mirror::default()
        };
        m.announce = announce(model);
        match &model.body {
            Body::Menu(menu) => {
                for (i, item) in menu.items.iter().enumerate() {
                    let badge = item.badge().map_or([""; 2], |b| [" · ", b]);
                    let title = item.title();
                    line(
                        &mut m.list,
                        &[mark(i, menu.selected), &title, badge[0], badge[1]],
                    );
                }
                m.status = menu.race.clone().unwrap_or_default();
                line(&mut m.lines, &[menu.tagline]);
                if let Some(daily) = &menu.daily {
                    line(&mut m.lines, &[daily]);
                }
                if let Some(last) = &menu.last_round {
                    line(&mut m.lines, &[last]);
                }
                line(&mut m.lines, &[&menu.player]);
            }
            Body::History(h) => {
                if let Some(empty) = h.empty {
                    m.list = empty.into();
                }
                for (i, r) in h.rows.iter().enumerate() {
                    let share = r.share.as_deref().map_or([""; 2], |s| [" · ", s]);
                    let cells = [&r.date, " · ", &r.headline, " · ", &r.title];
                    line(
                        &mut m.list,
                        &[&[mark(i, h.selected)][..], &cells, &share].concat(),
                    );
                }
            }
            Body::Play(play) => {
                m.status = play.status();
                let (current, _) = play.caret;
                let words: Vec<String> = (current..current + WORDS_AHEAD)
                    .filter_map(|i| play.word(i).map(Word::target))
                    .collect();
                m.words = words.join(" ");
                m.typed = play.typed();
                match (&play.lead, &play.ghosts[..]) {
                    // A room's race: the standing, then everyone.
                    (Some((standing, _)), ghosts) if ghosts.iter().any(|g| g.tag.is_some()) => {
                        line(&mut m.room, &[standing]);
                        for g in ghosts {
                            let tag = g.tag.as_deref().unwrap_or_default();
                            line(&mut m.room, &[&g.words(), " · ", tag]);
                        }
                    }
                    (_, [g]) => m.ghost = g.words(),
                    _ => {}
                }
            }
            Body::Room(r) => {
                line(&mut m.room, &[&r.title]);
                if let Some(link) = &r.link {
                    line(&mut m.room, &["link ", link]);
                    m.share = link.clone();
                }
                if let Some(big) = &r.big {
                    line(&mut m.room, &[big]);
                }
                if let Some(name) = &r.name {
                    m.typed = name.clone();
                }
                line(&mut m.room, &[&r.caption]);
                for (i, row) in r.rows.iter().enumerate() {
                    let cells = [&row.place, &row.name, &row.state, &row.score];
                    let cells: Vec<&str> = cells
                        .into_iter()
                        .chain(&row.share)
                        .map(String::as_str)
                        .filter(|c| !c.is_empty())
                        .collect();
                    let cells = cells.join(" · ");
                    line(
                        &mut m.room,
                        &[mark(i, r.selected.unwrap_or(usize::MAX)), &cells],
                    );
                }
            }
            Body::Results(r) => {
                m.results = r.line();
                if let Some(source) = &r.source {
                    line(&mut m.lines, &[source]);
                }
                m.share = r.share.clone().unwrap_or_default();
                m.ghost = r.race.as_ref().map_or(String::new(), |race| race.line());
            }
            Body::Link(link) => {
                m.status = link.status.clone();
                m.typed = link.name.clone();
            }
            Body::Devices(d) => {
                m.status = d.status.clone();
                if let Some((say, _)) = &d.say {
                    m.notice = say.clone();
                }
                for (i, row) in d.rows.iter().enumerate() {
                    line(
                        &mut m.list,
                        &[mark(i, d.selected), &row.name, " · ", &row.detail],
                    );
                }
                // The code and where to enter it: what a person reads out to the other
                // device, and the link a test opens there.
                if let Some(c) = &d.code {
                    for text in [&c.code, &c.until, &c.link, c.how] {
                        line(&mut m.lines, &[text]);
                    }
                }
            }
            Body::Text(t) => {
                m.status = t.count.clone();
                m.typed = t.draft.clone();
                line(&mut m.lines, &[t.about]);
            }
            Body::Settings(s) => {
                m.status = s.about.into();
                for (i, (name, value)) in s.rows.iter().enumerate() {
                    line(&mut m.list, &[mark(i, s.selected), name, ": ", value]);
                }
            }
            Body::Keys(k) => {
                m.status = [k.by, &k.caption].join(" · ");
                if let Some(empty) = k.empty {
                    m.notice = empty.into();
                }
                for list in &k.lists {
                    line(&mut m.list, &[list.title, ":"]);
                    if list.lines.is_empty() {
                        line(&mut m.list, &["  ", list.none]);
                    }
                    for l in list.lines.iter().chain(&list.note) {
                        line(&mut m.list, &["  ", l]);
                    }
                }
                if let Some((offer, drill)) = k.offer() {
                    line(&mut m.list, &[offer, " ", &drill]);
                }
                if let Some(why) = k.no_drill {
                    line(&mut m.list, &[why]);
                }
                m.results = k.trend.clone();
            }
            Body::Profile(v) => {
                m.status = [&v.status, " · ", &v.month].concat();
                if let Some((say, _)) = &v.say {
                    m.notice = say.clone();
                }
                for (i, r) in v.rows.iter().enumerate() {
                    if let Some(group) = r.group {
                        line(&mut m.list, &[group, ":"]);
                    }
                    let cells = [&r.title, " · ", &r.score, " · ", &r.detail];
                    line(&mut m.list, &[&[mark(i, v.selected)][..], &cells].concat());
                }
                for k in &v.keys {
                    line(&mut m.lines, &[k]);
                }
            }
            Body::Boards(b) => {
                m.status = [b.of(), " · ", &b.caption].concat();
                // Loading, why the rows didn't come, or that there are none.
                if let Some((say, _)) = &b.say {
                    m.notice = say.clone();
                }
                for (i, r) in b.rows.iter().enumerate() {
                    let rank = r.rank.to_string();
                    let cells = [&rank, " · ", &r.name, " · ", &r.score, " · ", &r.accuracy];
                    line(&mut m.list, &[&[mark(i, b.selected)][..], &cells].concat());
                }
            }
        }
        m
    }
}

/// What the live field says of a screen: where the player is and what just happened,
/// from the parts of the model that change at moments, not by the frame. (Parts joined,
/// not `format!`ted: each `format!` costs the wasm its own code.)
fn announce(model: &Model) -> String {
    let own: String;
    let mut parts: Vec<&str> = match &model.body {
        Body::Menu(menu) => {
            own = menu
                .items
                .get(menu.selected)
                .map(|i| i.title())
                .unwrap_or_default();
            vec!["menu", &own]
        }
        Body::Play(play) => {
            own = model.banner.clone().unwrap_or_else(|| play.mode.title());
            let now = match play.prompt {
                Some(prompt) => prompt,
                None if play.started => "go",
                None => "about to start",
            };
            vec![&own, now]
        }
        Body::Results(r) => {
            own = r.line();
            vec!["results", &own]
        }
        Body::History(h) => vec![h.title, &h.caption],
        Body::Link(l) => vec![l.title, &l.status],
        Body::Devices(d) => match &d.code {
            Some(c) => vec![d.title, &c.code, &c.until],
            None => vec![d.title, &d.status],
        },
        Body::Text(t) => vec![t.title, &t.count],
        Body::Settings(s) => vec![s.title, s.about],
        Body::Keys(k) => vec![k.title, k.by],
        Body::Profile(v) => vec![&v.title, &v.status],
        Body::Boards(b) => vec![b.title, b.of(), &b.caption],
        Body::Room(r) => vec![&r.title, &r.caption],
    };
    // What follows: a race's verdict, what the board says, the countdown's number.
    let then = match &model.body {
        Body::Results(r) => r.race.as_ref().map(|race| race.verdict.as_str()),
        Body::Boards(b) => b.say.as_ref().map(|(say, _)| say.as_str()),
        Body::Profile(v) => v.say.as_ref().map(|(say, _)| say.as_str()),
        Body::Room(r) => r.big.as_deref(),
        _ => None,
    };
    if let Some(then) = then {
        parts.push(then);
    }
    parts.join(" · ")
}

/// Adds `parts`, one after another, and a newline to `out`. (Not `writeln!`: each of
/// those costs the wasm its own formatting code.)
fn line(out: &mut String, parts: &[&str]) {
    for part in parts {
        out.push_str(part);
    }
    out.push('\n');
}

/// `▸ ` at the picked row of a list.
fn mark(i: usize, selected: usize) -> &'static str {
    if i == selected { "▸ " } else { "  " }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::App;
    use crate::storage::Stored;
    use crate::zone::Fixed;

    #[test]
    fn the_menu_mirror_marks_the_selection() {
        let (app, _) = App::new(1, &Stored::default(), None);
        let m = Mirror::of(&app.model(0.0, &Fixed(0)));
        assert_eq!(m.screen, "menu");
        assert!(m.list.starts_with("▸ BLITZ 15s\n"));
        assert!(m.list.contains("  HOT PURSUIT from lv7"));
    }
}
