//! The text mirror: a screen's model as plain text fields, for what a screen reader says
//! and what the tests read. The browser puts each field in a `[data-mirror=<name>]`
//! element beside its canvas.

use core::fmt::Write as _;

use crate::model::{Body, Model, Word};

/// The mirror's fields, each a `[data-mirror=<name>]` element on the page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mirror {
    /// `menu`, `playing`, `replay`, `results`, `history`, `link`, `boards` or `keys`.
    pub screen: &'static str,
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
}

/// The field names, in the order of [`Mirror::fields`].
pub const FIELDS: [&str; 11] = [
    "screen", "banner", "status", "words", "typed", "results", "list", "notice", "share", "ghost",
    "room",
];

impl Mirror {
    /// The fields' texts, in the order of [`FIELDS`].
    pub fn fields(&self) -> [&str; 11] {
        [
            self.screen,
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
            ..Mirror::default()
        };
        match &model.body {
            Body::Menu(menu) => {
                for (i, item) in menu.items.iter().enumerate() {
                    let badge = item.badge().map_or(String::new(), |b| format!(" · {b}"));
                    let _ = writeln!(m.list, "{}{}{badge}", mark(i, menu.selected), item.title());
                }
                m.status = menu.race.clone().unwrap_or_default();
            }
            Body::History(h) => {
                if let Some(empty) = h.empty {
                    m.list = empty.into();
                }
                for (i, r) in h.rows.iter().enumerate() {
                    let share = r
                        .share
                        .as_deref()
                        .map_or(String::new(), |s| format!(" · {s}"));
                    let _ = writeln!(
                        m.list,
                        "{}{} · {} · {}{share}",
                        mark(i, h.selected),
                        r.date,
                        r.headline,
                        r.title
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
                        let _ = writeln!(m.room, "{standing}");
                        for g in ghosts {
                            let tag = g.tag.as_deref().unwrap_or_default();
                            let _ = writeln!(m.room, "{} · {tag}", g.words());
                        }
                    }
                    (_, [g]) => m.ghost = g.words(),
                    _ => {}
                }
            }
            Body::Room(r) => {
                let _ = writeln!(m.room, "{}", r.title);
                if let Some(link) = &r.link {
                    let _ = writeln!(m.room, "link {link}");
                    m.share = link.clone();
                }
                if let Some(big) = &r.big {
                    let _ = writeln!(m.room, "{big}");
                }
                if let Some(name) = &r.name {
                    m.typed = name.clone();
                }
                let _ = writeln!(m.room, "{}", r.caption);
                for (i, row) in r.rows.iter().enumerate() {
                    let cells = [&row.place, &row.name, &row.state, &row.score];
                    let share = row.share.iter();
                    let cells: Vec<&str> = cells
                        .into_iter()
                        .chain(share)
                        .map(String::as_str)
                        .filter(|c| !c.is_empty())
                        .collect();
                    let _ = writeln!(
                        m.room,
                        "{}{}",
                        mark(i, r.selected.unwrap_or(usize::MAX)),
                        cells.join(" · ")
                    );
                }
            }
            Body::Results(r) => {
                m.results = r.line();
                m.share = r.share.clone().unwrap_or_default();
                m.ghost = r.race.as_ref().map_or(String::new(), |race| race.line());
            }
            Body::Link(link) => {
                m.status = link.status.clone();
                m.typed = link.name.clone();
            }
            Body::Keys(k) => {
                m.status = format!("{} · {}", k.by, k.caption);
                if let Some(empty) = k.empty {
                    m.notice = empty.into();
                }
                for list in &k.lists {
                    let _ = writeln!(m.list, "{}:", list.title);
                    if list.lines.is_empty() {
                        let _ = writeln!(m.list, "  {}", list.none);
                    }
                    for line in list.lines.iter().chain(&list.note) {
                        let _ = writeln!(m.list, "  {line}");
                    }
                }
                if let Some((offer, drill)) = k.offer() {
                    let _ = writeln!(m.list, "{offer} {drill}");
                }
                if let Some(why) = k.no_drill {
                    let _ = writeln!(m.list, "{why}");
                }
                m.results = k.trend.clone();
            }
            Body::Boards(b) => {
                m.status = format!("{} · this month", b.mode);
                // Loading, why the rows didn't come, or that there are none.
                if let Some((say, _)) = &b.say {
                    m.notice = say.clone();
                }
                for (i, r) in b.rows.iter().enumerate() {
                    let _ = writeln!(
                        m.list,
                        "{}{} · {} · {} · {}",
                        mark(i, b.selected),
                        r.rank,
                        r.name,
                        r.score,
                        r.accuracy
                    );
                }
            }
        }
        m
    }
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
