//! What each screen shows, as data: the one model the canvas, the text mirror and the
//! terminal all draw from.
//!
//! Every word a player reads is decided once, in the game: the status line, the stats of a
//! result, a history row's date in local time, the hints, each screen's title. Each
//! screen's part of the model is a module here (`model/results.rs` …), made by the app's
//! module of the same name (`app/results.rs`). So is each thing's colour: a [`Tone`], from
//! the model (a glyph's, the clock's, the picked row's), never decided by a renderer; and
//! the results chart ([`Chart`]). A renderer only places the words and marks, and maps each
//! tone to a colour of its own. Two models that are equal look the same, so a shell redraws
//! when the model changed, or while its own animation (the canvas's gliding caret) runs.

use typepper_engine::Mode;

mod boards;
mod devices;
mod history;
mod keys;
mod link;
mod menu;
mod play;
mod profile;
mod results;
mod room;
mod settings;
mod text;

pub use self::boards::{BoardLine, Boards};
pub use self::devices::{CodeCard, DeviceLine, Devices};
pub use self::history::{History, HistoryRow};
pub use self::keys::{KeyCap, Keys, QWERTY, Worst};
pub use self::link::Link;
pub use self::menu::{Menu, MenuItem};
pub use self::play::{Clock, Ghost, Play, Width, Word};
pub use self::profile::{Profile, ProfileLine};
pub use self::results::{Race, Results, Stat, Versus, headline, signed};
pub use self::room::{Room, RoomRow};
pub use self::settings::SettingsList;
pub use self::text::TextEntry;
pub use crate::chart::Chart;
use crate::input::Key;
pub use crate::palette::Tone;

/// How many words before the current one the play model carries: more than two lines of
/// the widest layout, so that a renderer can keep the lines it scrolled past on screen.
pub const WORDS_BEHIND: usize = 64;
/// How many words from the current one the play model carries: all the engine has drawn
/// ([`typepper_engine::LOOKAHEAD`]), more than three lines of the widest text column.
pub const WORDS_AHEAD: usize = typepper_engine::LOOKAHEAD + 1;

/// typepper's name as drawn: `ty`, then `pepper` in the accent.
pub const WORDMARK: [(&str, Tone); 2] = [("ty", Tone::Text), ("pepper", Tone::Accent)];

/// Which screen a model is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Pick a mode.
    Menu,
    /// Your round.
    Playing,
    /// A round being watched.
    Replay,
    /// A finished round.
    Results,
    /// Your last rounds.
    History,
    /// Choosing a name.
    Link,
    /// A linked player's devices.
    Devices,
    /// A month's board.
    Boards,
    /// Your keys.
    Keys,
    /// A player's profile.
    Profile,
    /// A live room: its lobby, countdown or results.
    Room,
    /// A text of your own, to play.
    Text,
    /// The settings.
    Settings,
}

impl Kind {
    /// Its name: `menu`, `playing`, `replay`, `results`, `history`, `link`, `devices`,
    /// `boards`, `keys`, `profile`, `room`, `text` or `settings` (the mirror's `screen`, which the tests read).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Menu => "menu",
            Kind::Playing => "playing",
            Kind::Replay => "replay",
            Kind::Results => "results",
            Kind::History => "history",
            Kind::Link => "link",
            Kind::Devices => "devices",
            Kind::Boards => "boards",
            Kind::Keys => "keys",
            Kind::Profile => "profile",
            Kind::Room => "room",
            Kind::Text => "text",
            Kind::Settings => "settings",
        }
    }

    /// A round runs on it: the screen moves by itself.
    pub const fn runs(self) -> bool {
        matches!(self, Kind::Playing | Kind::Replay)
    }
}

/// One screen's worth of what to show.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Which screen.
    pub kind: Kind,
    /// `REPLAY · BLITZ 15s` over someone else's round, `RACE · BLITZ 15s · vs ada` over
    /// a race.
    pub banner: Option<String>,
    /// A line for the player, in the tone of what it says: why a replay was refused
    /// (wrong), what became of a round, that the game is linked (accent), how to get a
    /// drill (dim).
    pub notice: Option<(String, Tone)>,
    /// The keys this screen takes, in one line.
    pub hints: &'static str,
    /// The keys a touch screen can't press, as buttons: what a renderer with a pointer
    /// draws for them (the terminal has its keyboard, and the hints).
    pub taps: &'static [Tap],
    /// The screen's own content.
    pub body: Body,
}

/// A button standing for a key: its label, and the key a tap on it presses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tap {
    /// What it says: `again`, `back`.
    pub label: &'static str,
    /// The key it presses.
    pub key: Key,
}

pub(crate) const fn tap(label: &'static str, key: Key) -> Tap {
    Tap { label, key }
}

/// The way out of a list, or of a screen a list opened.
pub(crate) const BACK: Tap = tap("back", Key::Escape);
pub(crate) const MENU: Tap = tap("menu", Key::Escape);
pub(crate) const COPY: Tap = tap("copy link", Key::Char('c'));
pub(crate) const END: Tap = tap("end", Key::Escape);
pub(crate) const LINK: Tap = tap("link", Key::Enter);
pub(crate) const LEAVE: Tap = tap("leave", Key::Escape);

impl Model {
    /// Every phrase of this screen that a player reads, as each shell draws it: the test
    /// of each shell checks that it draws them all (the text mirror says them in its
    /// own, shorter way). The round's text is not among them: it is glyphs, drawn one by
    /// one; the terminal's `q quits` is the terminal's own.
    pub fn words(&self) -> Vec<String> {
        let mut out: Vec<String> = vec![];
        let mut say = |s: &str| {
            if !s.is_empty() {
                out.push(s.to_owned());
            }
        };
        say(self.banner.as_deref().unwrap_or(""));
        say(self.notice.as_ref().map_or("", |(line, _)| line));
        say(self.hints);
        match &self.body {
            Body::Menu(m) => {
                say(m.tagline);
                for item in &m.items {
                    say(&item.text());
                    say(item.badge().unwrap_or(""));
                }
                for line in [&m.daily, &m.last_round, &m.race].into_iter().flatten() {
                    say(line);
                }
                say(&m.player);
            }
            Body::Play(p) => {
                say(&p.clock.big());
                say(&p.heat_label());
                say(&p.flame_line().unwrap_or_default());
                say(p.prompt.unwrap_or(""));
                say(p.lead.as_ref().map_or("", |(line, _)| line));
                say(p.live.as_deref().unwrap_or(""));
            }
            Body::Results(r) => {
                say(&r.headline);
                say(&r.title);
                say(r.source.as_deref().unwrap_or(""));
                for stat in &r.stats {
                    say(stat.label);
                    say(&stat.value);
                }
                say(&r.share_line().unwrap_or_default());
                if let Some(race) = &r.race {
                    say(&race.verdict);
                    for v in &race.rows {
                        say(v.label);
                        say(&v.you);
                        say(&v.against());
                        say(&v.diff);
                    }
                }
                for (label, _) in r.chart.legend() {
                    say(label);
                }
            }
            Body::History(h) => {
                say(h.title);
                say(&h.caption);
                say(h.empty.unwrap_or(""));
                for row in &h.rows {
                    for cell in [&row.date, &row.title, &row.headline, &row.accuracy] {
                        say(cell);
                    }
                    say(row.shared());
                }
            }
            Body::Link(l) => {
                say(l.title);
                say(&l.name);
                say(&l.about);
                say(&l.status);
            }
            Body::Devices(d) => {
                say(d.title);
                say(&d.status);
                say(d.say.as_ref().map_or("", |(line, _)| line));
                // A code is shown in place of the rows.
                match &d.code {
                    Some(c) => {
                        for line in [&c.code, &c.until, &c.link, c.how] {
                            say(line);
                        }
                    }
                    None => {
                        for row in &d.rows {
                            say(&row.name);
                            say(&row.detail);
                        }
                    }
                }
            }
            Body::Profile(p) => {
                say(&p.title);
                say(&p.status);
                say(&p.month);
                say(p.say.as_ref().map_or("", |(line, _)| line));
                for row in &p.rows {
                    say(row.group.unwrap_or(""));
                    for cell in [&row.title, &row.score, &row.detail] {
                        say(cell);
                    }
                }
                for line in &p.keys {
                    say(line);
                }
                if let Some(chart) = &p.chart {
                    for (label, _) in chart.legend() {
                        say(label);
                    }
                }
            }
            Body::Text(t) => {
                say(t.title);
                say(&t.count);
                say(t.about);
            }
            Body::Settings(s) => {
                say(s.title);
                for (name, value) in &s.rows {
                    say(name);
                    say(value);
                }
                say(s.about);
            }
            Body::Boards(b) => {
                say(b.title);
                say(&b.picker);
                say(&b.caption);
                say(b.say.as_ref().map_or("", |(line, _)| line));
                for row in &b.rows {
                    say(&row.rank.to_string());
                    for cell in [&row.name, &row.score, &row.accuracy] {
                        say(cell);
                    }
                }
            }
            Body::Room(r) => {
                say(&r.title);
                say(r.link.as_deref().unwrap_or(""));
                say(r.big.as_deref().unwrap_or(""));
                say(r.name.as_deref().unwrap_or(""));
                say(&r.caption);
                for row in &r.rows {
                    for cell in [&row.place, &row.name, &row.state, &row.score] {
                        say(cell);
                    }
                }
            }
            Body::Keys(k) => {
                say(k.title);
                say(k.by);
                say(&k.caption);
                // With no rounds, that is all there is to say.
                if let Some(empty) = k.empty {
                    say(empty);
                    return out;
                }
                for list in &k.lists {
                    say(list.title);
                    if list.lines.is_empty() {
                        say(list.none);
                    }
                    for line in &list.lines {
                        say(line);
                    }
                    say(list.note.as_deref().unwrap_or(""));
                }
                say(&k.trend);
                if let Some((offer, drill)) = k.offer() {
                    say(offer);
                    say(&drill);
                }
                say(k.no_drill.unwrap_or(""));
            }
        }
        out
    }

    /// In a terminal, how to leave the game from here: `q` on the menu, where it types
    /// nothing, and ctrl-c everywhere.
    pub const fn quits(&self) -> &'static str {
        match self.kind {
            Kind::Menu => "q quits",
            _ => "ctrl-c quits",
        }
    }
}

/// The content of each screen.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// Pick a mode.
    Menu(Menu),
    /// A round: yours, or one being watched.
    Play(Play),
    /// A finished round.
    Results(Results),
    /// Your last rounds.
    History(History),
    /// Choosing a name.
    Link(Link),
    /// A linked player's devices.
    Devices(Devices),
    /// A month's board.
    Boards(Boards),
    /// Your keys.
    Keys(Keys),
    /// A player's profile.
    Profile(Profile),
    /// A live room's lobby, countdown or results.
    Room(Room),
    /// A text of your own, being pasted or typed.
    Text(TextEntry),
    /// The settings.
    Settings(SettingsList),
}

/// `REPLAY · BLITZ 15s · ada`: whose round, when known.
pub(crate) fn banner(mode: Mode, who: Option<&str>) -> String {
    match who {
        Some(who) => format!("REPLAY · {mode} · {who}"),
        None => format!("REPLAY · {mode}"),
    }
}

pub(crate) fn race_banner(mode: Mode, name: &str) -> String {
    format!("RACE · {mode} · vs {name}")
}
