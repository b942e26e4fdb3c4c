//! What each screen shows, as data: the one model the canvas, the text mirror and the
//! terminal all draw from.
//!
//! Every word a player reads is decided here once: the status line, the stats of a result,
//! a history row's date in local time, the hints, each screen's title. So is what each
//! colour means ([`Tone`]) and the results chart ([`Chart`]). A renderer only places the
//! words and marks, and maps each tone to a colour of its own. Two models that are equal
//! look the same, so a shell redraws when the model changed, or while its own animation
//! (the canvas's gliding caret) runs.

use core::fmt::Write as _;

use typepper_engine::{
    CharState, Decimal, Glyph, Headline, Hundredths, Mode, Score, Tier, Unit, WordStatus,
};

use crate::app::{self, App, BEST_HERE, Key, Screen};
pub use crate::chart::Chart;
pub use crate::palette::Tone;
use crate::race::{self, Lead};
use crate::room;
use crate::zone::{Zone, local_time};
use typepper_api::room::{Phase, State};

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
    /// A month's board.
    Boards,
    /// Your keys.
    Keys,
    /// A live room: its lobby, countdown or results.
    Room,
}

impl Kind {
    /// Its name: `menu`, `playing`, `replay`, `results`, `history`, `link`, `boards` or
    /// `keys` (the mirror's `screen`, which the tests read).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Menu => "menu",
            Kind::Playing => "playing",
            Kind::Replay => "replay",
            Kind::Results => "results",
            Kind::History => "history",
            Kind::Link => "link",
            Kind::Boards => "boards",
            Kind::Keys => "keys",
            Kind::Room => "room",
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

const fn tap(label: &'static str, key: Key) -> Tap {
    Tap { label, key }
}

/// The way out of a list, or of a screen a list opened.
const BACK: Tap = tap("back", Key::Escape);
const MENU: Tap = tap("menu", Key::Escape);
const COPY: Tap = tap("copy link", Key::Char('c'));
const END: Tap = tap("end", Key::Escape);
const LINK: Tap = tap("link", Key::Enter);
const LEAVE: Tap = tap("leave", Key::Escape);

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
                for line in [&m.last_round, &m.race].into_iter().flatten() {
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
            Body::Boards(b) => {
                say(b.title);
                say(&b.picker);
                say(b.caption);
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
    /// A month's board.
    Boards(Boards),
    /// Your keys.
    Keys(Keys),
    /// A live room's lobby, countdown or results.
    Room(Room),
}

/// A live room, but for its race (which is a [`Play`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Room {
    /// `room k3fq 7m2x · BLITZ 15s`.
    pub title: String,
    /// The link that joins it.
    pub link: Option<String>,
    /// Drawn big: the countdown's seconds, your place at the end.
    pub big: Option<String>,
    /// Naming yourself for it: the name so far.
    pub name: Option<String>,
    /// What happens next: `waiting for ada to start`.
    pub caption: String,
    /// Everyone in it: the lobby's racers, or the finishers, best first.
    pub rows: Vec<RoomRow>,
    /// The picked row of the results.
    pub selected: Option<usize>,
}

/// A racer in a room's list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomRow {
    /// `1st` in the results; empty in the lobby.
    pub place: String,
    /// Their name, `(you)` after yours.
    pub name: String,
    /// `waiting`, `ready`, `owner · ready`; in the results, what became of the round.
    pub state: String,
    /// The state's colour: dim, but in the results a round ranked or not stored.
    pub state_tone: Tone,
    /// In the results, `92 wpm · 97%`.
    pub score: String,
    /// In the results, the round's share link, if the server stored it.
    pub share: Option<String>,
    /// Its colour: you in the accent, the gone and the out dim.
    pub tone: Tone,
}

/// One of the keys screen's lists of the worst.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worst {
    /// `worst keys`.
    pub title: &'static str,
    /// Worst first: `e  6.0% wrong · 143 ms · p90 323 ms · 33×`, and `· then 8.1% → 4.0%`
    /// when the trend's two spans both saw it.
    pub lines: Vec<String>,
    /// What it says when it lists none: `none went wrong`, `not seen enough yet`.
    pub none: &'static str,
    /// What it leaves out and why, drawn last however short the room: `qxz: seen under
    /// 10×, too few to rank`.
    pub note: Option<String>,
}

/// Your keys: what the history says about each key and letter pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keys {
    /// `your keys`.
    pub title: &'static str,
    /// `by errors` or `by time`: what the keyboard is shaded by and the worst are picked
    /// by.
    pub by: &'static str,
    /// `from your last 12 rounds, on this device`.
    pub caption: String,
    /// QWERTY's three rows of letters, each shaded.
    pub keyboard: Vec<Vec<KeyCap>>,
    /// The worst letters, then the worst letter pairs.
    pub lists: [Worst; 2],
    /// `the last 10 rounds against the 40 before: errors 8.1% → 6.0% · median …`.
    pub trend: String,
    /// The letters `d` drills, when there are enough mistakes to pick them.
    pub drill: Option<String>,
    /// Why there is no drill, when there isn't.
    pub no_drill: Option<&'static str>,
    /// What to say when there are no rounds.
    pub empty: Option<&'static str>,
}

impl Keys {
    /// What `d` offers, when there is a drill: `d drills these:`, then `DRILL qzx`.
    pub fn offer(&self) -> Option<(&'static str, String)> {
        let letters = self.drill.as_ref()?;
        Some(("d drills these:", format!("DRILL {letters}")))
    }
}

/// A key of the keyboard picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyCap {
    /// The letter.
    pub key: char,
    /// How bad it is, 0 (best) to 100 (worst), by errors or time; `None` if never asked.
    pub shade: Option<u8>,
}

impl KeyCap {
    /// Its colour: the heat tier of its shade (the worse, the hotter), or the panel's
    /// when it was never asked.
    pub fn tone(self) -> Tone {
        self.shade.map_or(Tone::Panel, |s| Tone::Heat(Tier::of(s)))
    }
}

/// QWERTY's letter rows.
pub const QWERTY: [&str; 3] = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];

/// The menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Menu {
    /// `every round is a replay`, under the name.
    pub tagline: &'static str,
    /// The modes, in order.
    pub items: Vec<MenuItem>,
    /// The picked item.
    pub selected: usize,
    /// `last round: 92 wpm · BLITZ 15s`.
    pub last_round: Option<String>,
    /// `linked as ada`, or how to link.
    pub player: String,
    /// `g races your best here: 92 wpm`, when the history has a round of the picked mode.
    pub race: Option<String>,
}

/// A mode on the menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuItem {
    /// `BLITZ 15s`, `HOT PURSUIT`, `DRILL qzx`.
    pub label: String,
    /// HOT PURSUIT's start level, which ← → change.
    pub level: Option<u8>,
    /// The next round of this mode is on a seed the server issued: it counts.
    pub ranked: bool,
}

impl MenuItem {
    /// `HOT PURSUIT from lv7`, as the mode is titled (and read out).
    pub fn title(&self) -> String {
        match self.level {
            Some(level) => format!("{} from lv{level}", self.label),
            None => self.label.clone(),
        }
    }

    /// As drawn on the menu, the level with the arrows that change it:
    /// `HOT PURSUIT  ‹ lv7 ›`.
    pub fn text(&self) -> String {
        match self.level {
            Some(level) => format!("{}  ‹ lv{level} ›", self.label),
            None => self.label.clone(),
        }
    }

    /// `RANKED` beside a mode whose next round counts.
    pub fn badge(&self) -> Option<&'static str> {
        self.ranked.then_some("RANKED")
    }
}

/// A round on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct Play {
    /// Which round this is: a new number starts a new layout.
    pub round: u64,
    /// The mode.
    pub mode: Mode,
    /// The clock, or the level.
    pub clock: Clock,
    /// The first key has been typed (or the watched round has begun).
    pub started: bool,
    /// The heat, 0–100.
    pub heat: u8,
    /// Its tier.
    pub tier: Tier,
    /// The index in the round of `words[0]`.
    pub first: usize,
    /// Words around the caret: [`WORDS_BEHIND`] before it to [`WORDS_AHEAD`] from it.
    pub words: Vec<Word>,
    /// The caret: a word's index in the round, and the glyph it stands before.
    pub caret: (usize, usize),
    /// HOT PURSUIT: the flame's place in the text, in thousandths of a character.
    pub flame: Option<i64>,
    /// Before the first key of your own round: how it starts.
    pub prompt: Option<&'static str>,
    /// The other carets on the text: the ghost being raced, or a room's other racers.
    pub ghosts: Vec<Ghost>,
    /// The line under the text: the race's lead (`vs ada · +12 chars · +0.8 s`), or a
    /// room's standing (`2nd of 4 · 0.8 s to ada`), in the colour of who leads.
    pub lead: Option<(String, Tone)>,
    /// `72 wpm · 97%`: the round so far, from its first second on, unless the player
    /// hid it.
    pub live: Option<String>,
}

/// The ghost of a race, as the play screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ghost {
    /// Who it is: `ada`, `your best here`.
    pub name: String,
    /// In a room, their place and speed: `2nd · 72 wpm`.
    pub tag: Option<String>,
    /// Its caret: a word's index in the round, and the glyph it stands before.
    pub caret: (usize, usize),
    /// HOT PURSUIT: its level.
    pub level: Option<u8>,
    /// Its round has ended (its clock ran out, or its flame caught it): it stays.
    pub over: bool,
    /// Your lead over it.
    pub lead: Lead,
    /// Whose lead it is, when not yours: the racer a spectator follows.
    pub from: Option<String>,
}

impl Ghost {
    /// What its caret is labelled with: `ada`, `ada · 2nd · 72 wpm`.
    pub fn caret_label(&self) -> String {
        match &self.tag {
            Some(tag) => format!("{} · {tag}", self.name),
            None => self.name.clone(),
        }
    }

    /// The lead's colour: yours, theirs, or even.
    pub fn tone(&self) -> Tone {
        Tone::lead(self.lead.chars)
    }

    /// The lead as drawn beside the text: `vs ada · +12 chars · +0.8 s`, `· lv9`; a
    /// spectator's, `grace vs ada · …`.
    pub fn label(&self) -> String {
        let mut out = match &self.from {
            Some(from) => format!("{from} vs {} · {}", self.name, self.lead.short()),
            None => format!("vs {} · {}", self.name, self.lead.short()),
        };
        if let Some(level) = self.level {
            let _ = write!(out, " · lv{level}");
        }
        out
    }

    /// The lead in words, saying who is ahead: `you lead ada by 12 chars (0.8 s)`, or
    /// for a spectator `grace leads ada by 12 chars (0.8 s)`.
    pub fn words(&self) -> String {
        let mut out = self.lead.words_of(self.from.as_deref(), &self.name);
        if let Some(level) = self.level {
            let _ = write!(out, " · {} at lv{level}", self.name);
        }
        if self.over {
            let _ = write!(out, " · {}'s round is over", self.name);
        }
        out
    }
}

/// The big number of the play screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// Seconds left, rounded up.
    Left(u32),
    /// HOT PURSUIT's level.
    Level(u8),
    /// Seconds played (ZEN).
    Elapsed(u32),
}

impl Clock {
    /// As it is drawn big: `15`, `lv7`, `1:05`.
    pub fn big(self) -> String {
        match self {
            Clock::Left(s) => s.to_string(),
            Clock::Level(level) => format!("lv{level}"),
            Clock::Elapsed(s) => format!("{}:{:02}", s / 60, s % 60),
        }
    }

    /// As it is said: `15 s left`, `lv7`, `65 s`.
    pub fn words(self) -> String {
        match self {
            Clock::Left(s) => format!("{s} s left"),
            Clock::Level(level) => format!("lv{level}"),
            Clock::Elapsed(s) => format!("{s} s"),
        }
    }
}

/// A word of the round with what was typed of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// Its index in the round.
    pub index: usize,
    /// The text's offset of its first character, in characters.
    pub offset: u32,
    /// Done (right or wrong), current or ahead.
    pub status: WordStatus,
    /// Its characters, extras after its own.
    pub glyphs: Vec<Glyph>,
}

/// How many columns a shell draws a character in. The shell knows (the terminal from
/// Unicode's widths, as it draws them; the canvas by measuring), so it says.
pub type Width<'a> = &'a dyn Fn(char) -> usize;

impl Word {
    /// Committed, and not as the text has it: underlined whole.
    pub fn done_wrong(&self) -> bool {
        self.status == WordStatus::Done { correct: false }
    }

    /// How many columns it takes, each glyph as wide as `width` says.
    pub fn cols(&self, width: Width) -> usize {
        self.col_of(self.glyphs.len(), width)
    }

    /// The column glyph `g` starts at (the word's end past its last glyph).
    pub fn col_of(&self, g: usize, width: Width) -> usize {
        self.glyphs.iter().take(g).map(|gl| width(gl.ch)).sum()
    }

    /// The text's word.
    pub fn target(&self) -> String {
        self.glyphs
            .iter()
            .filter(|g| g.state != CharState::Extra)
            .map(|g| g.ch)
            .collect()
    }
}

impl Play {
    /// The status line: `BLITZ 15s · 12 s left · heat 40 SERRANO`, and in HOT PURSUIT
    /// `· flame 12 chars behind`.
    pub fn status(&self) -> String {
        let mut out = format!(
            "{} · {} · heat {} {}",
            self.mode.title(),
            self.clock.words(),
            self.heat,
            self.tier
        );
        if let Some(flame) = self.flame_line() {
            let _ = write!(out, " · {flame}");
        }
        if let Some(live) = &self.live {
            let _ = write!(out, " · {live}");
        }
        out
    }

    /// The word at round index `i`, if the model carries it.
    pub fn word(&self, i: usize) -> Option<&Word> {
        i.checked_sub(self.first).and_then(|at| self.words.get(at))
    }

    /// What is typed of the current word.
    pub fn typed(&self) -> String {
        self.word(self.caret.0).map_or(String::new(), |w| {
            w.glyphs.iter().filter_map(|g| g.typed).collect()
        })
    }

    /// The heat meter's label: `heat 40 · SERRANO`.
    pub fn heat_label(&self) -> String {
        format!("heat {} · {}", self.heat, self.tier.name())
    }

    /// HOT PURSUIT: `flame 12 chars behind`.
    pub fn flame_line(&self) -> Option<String> {
        self.flame_lead().map(|lead| format!("flame {lead} behind"))
    }

    /// HOT PURSUIT: how far the flame is behind the caret, `12 chars` (or `1 char`).
    pub fn flame_lead(&self) -> Option<String> {
        let flame = self.flame?;
        let word = self.word(self.caret.0)?;
        let caret = (i64::from(word.offset) + self.caret.1 as i64) * 1000;
        let chars = (caret - flame).max(0).div_euclid(1000);
        Some(if chars == 1 {
            "1 char".into()
        } else {
            format!("{chars} chars")
        })
    }

    /// Whether the flame has burnt glyph `g` of `word`: it is drawn burnt.
    pub fn burnt(&self, word: &Word, g: usize) -> bool {
        let at = i64::from(word.offset) + g as i64;
        self.flame.is_some_and(|f| at * 1000 <= f)
    }
}

/// A finished round.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// `92 wpm`.
    pub headline: String,
    /// `BLITZ 15s`.
    pub title: String,
    /// Every stat, in order.
    pub stats: Vec<Stat>,
    /// Its share link, once the server has it.
    pub share: Option<String>,
    /// It was someone else's round.
    pub watched: bool,
    /// It was a race: both sides.
    pub race: Option<Race>,
    /// Wpm and raw each second, the errors, and in a race the ghost's wpm.
    pub chart: Chart,
}

/// A finished race, side by side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    /// Who the ghost was.
    pub name: String,
    /// `you won by 4 wpm`, `ada won by 3 words`, `a tie at 92 wpm`.
    pub verdict: String,
    /// Your headline minus the ghost's: who won, for the verdict's colour.
    pub margin: i64,
    /// The headline, wpm and accuracy of each, with the difference.
    pub rows: Vec<Versus>,
    /// The seconds (from 1) at whose end the lead had changed hands.
    pub changes: Vec<u32>,
}

/// One number of a race's results, for you and the ghost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Versus {
    /// `score`, `wpm`, `accuracy`.
    pub label: &'static str,
    /// Yours.
    pub you: String,
    /// The ghost's.
    pub them: String,
    /// Yours minus the ghost's: `+4.4`, `−1.5%`, `±0`.
    pub diff: String,
    /// The difference's colour: ahead, behind or even.
    pub tone: Tone,
}

impl Versus {
    /// The ghost's, as drawn after yours: `vs 88 wpm`.
    pub fn against(&self) -> String {
        format!("vs {}", self.them)
    }
}

impl Race {
    /// The verdict's colour: who won.
    pub fn tone(&self) -> Tone {
        Tone::lead(self.margin)
    }

    /// The race in one line: `you won by 4 wpm · score 92 wpm vs 88 wpm (+4 wpm) · …
    /// · the lead changed hands at 3 s`.
    pub fn line(&self) -> String {
        let mut out = self.verdict.clone();
        for v in &self.rows {
            let _ = write!(out, " · {} {} vs {} ({})", v.label, v.you, v.them, v.diff);
        }
        match &self.changes[..] {
            [] => {}
            changes => {
                let at: Vec<String> = changes.iter().map(|s| format!("{s} s")).collect();
                let _ = write!(out, " · the lead changed hands at {}", at.join(", "));
            }
        }
        out
    }
}

impl Results {
    /// `share https://r.typepper.com/7Xf9qyuC`, once it has a link.
    pub fn share_line(&self) -> Option<String> {
        self.share.as_ref().map(|link| format!("share {link}"))
    }

    /// Every stat in one line: `92 wpm · BLITZ 15s · wpm 92 · raw 95 · …`.
    pub fn line(&self) -> String {
        let mut out = format!("{} · {}", self.headline, self.title);
        for s in &self.stats {
            let _ = write!(out, " · {} {}", s.label, s.value);
        }
        out
    }
}

/// One stat of a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stat {
    /// `wpm`, `accuracy`.
    pub label: &'static str,
    /// `92.50`, `98%`, `15 BELL PEPPER`.
    pub value: String,
    /// How it is coloured.
    pub tone: Tone,
}

/// Your last rounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    /// `history`.
    pub title: &'static str,
    /// Newest first.
    pub rows: Vec<HistoryRow>,
    /// The picked row.
    pub selected: usize,
    /// `your last 3 rounds, on this device`.
    pub caption: String,
    /// What to say when there are no rows.
    pub empty: Option<&'static str>,
}

/// A round of the history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryRow {
    /// When it ended, in local time: `2026-12-01 19:52`.
    pub date: String,
    /// `BLITZ 15s`.
    pub title: String,
    /// `92 wpm`.
    pub headline: String,
    /// `98.5%`.
    pub accuracy: String,
    /// Its share link, once it has one.
    pub share: Option<String>,
}

impl HistoryRow {
    /// `shared` for a round with a link, else nothing.
    pub fn shared(&self) -> &'static str {
        if self.share.is_some() { "shared" } else { "" }
    }
}

/// Choosing a name to link this game to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// `link this game`.
    pub title: &'static str,
    /// The name so far.
    pub name: String,
    /// What linking does, or who is linked now.
    pub about: String,
    /// `linked as ada` or `not linked`.
    pub status: String,
}

/// A month's board.
#[derive(Clone, Debug, PartialEq)]
pub struct Boards {
    /// `boards`.
    pub title: &'static str,
    /// The mode shown.
    pub mode: Mode,
    /// The mode with the arrows that change it: `‹ BLITZ 15s ›`.
    pub picker: String,
    /// `this month's best run per player`.
    pub caption: &'static str,
    /// Best first.
    pub rows: Vec<BoardLine>,
    /// In place of rows: `loading…`, why they didn't come, or that there are none yet.
    pub say: Option<(String, Tone)>,
    /// The picked row.
    pub selected: usize,
}

/// A row of a board, as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardLine {
    /// 1 for the best.
    pub rank: u32,
    /// The rank's colour: a medal's for the first three.
    pub medal: Tone,
    /// Who.
    pub name: String,
    /// `108 wpm`, `31 words`.
    pub score: String,
    /// `98.5%`.
    pub accuracy: String,
}

/// `ROOM k3fq7m2x · BLITZ 15s` over a room's race; `· watching` for a spectator's.
fn room_banner(live: &room::Live) -> String {
    let watching = if live.racing() { "" } else { " · watching" };
    format!(
        "ROOM {} · {}{watching}",
        live.code.as_deref().unwrap_or(""),
        live.mode.title()
    )
}

/// `1st`, `2nd`, `3rd`, `11th`, `22nd`.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A racer's name as a room lists it: `ada (you)` for yours, `ada (guest)` for a racer
/// who never linked, so that no guest passes for the player who holds the name.
fn racer_name(name: &str, you: bool, guest: bool) -> String {
    match (you, guest) {
        (true, _) => format!("{name} (you)"),
        (false, true) => format!("{name} (guest)"),
        (false, false) => name.to_owned(),
    }
}

/// A racer's state in words.
fn state_word(state: State) -> &'static str {
    match state {
        State::Waiting => "waiting",
        State::Ready => "ready",
        State::Typing => "typing",
        State::Done => "done",
        State::Gone => "gone",
        State::Out => "out",
    }
}

/// What the menu says of a player who has not linked.
const NOT_LINKED: &str = "not linked: l to link, to share and rank your rounds";

impl App {
    /// The model of the screen at monotonic time `now`, dates in `zone`.
    pub fn model(&self, now: f64, zone: &dyn Zone) -> Model {
        let mut notice = self.notice.clone();
        let (kind, banner, hints, taps, body): (_, _, _, &[Tap], _) = match &self.screen {
            Screen::Menu => (
                Kind::Menu,
                None,
                // `d` plays the last drill: offered only once there is one. `l` only to
                // a player who can link.
                match (self.drill.is_some(), self.unlinkable.is_none()) {
                    (true, true) => {
                        "↑↓ pick · ←→ level · enter play · 1 2 3 z p d quick start · g race your best here · f race friends · k your keys · h history · b boards · l link · s live stats"
                    }
                    (false, true) => {
                        "↑↓ pick · ←→ level · enter play · 1 2 3 z p quick start · g race your best here · f race friends · k your keys · h history · b boards · l link · s live stats"
                    }
                    (true, false) => {
                        "↑↓ pick · ←→ level · enter play · 1 2 3 z p d quick start · g race your best here · f race friends · k your keys · h history · b boards · s live stats"
                    }
                    (false, false) => {
                        "↑↓ pick · ←→ level · enter play · 1 2 3 z p quick start · g race your best here · f race friends · k your keys · h history · b boards · s live stats"
                    }
                },
                // The screens a letter opens, for a finger (a phone's keyboard is hidden
                // on the menu) and a pointer.
                {
                    const ROOMS: Tap = tap("rooms", Key::Char('f'));
                    const HISTORY: Tap = tap("history", Key::Char('h'));
                    const BOARDS: Tap = tap("boards", Key::Char('b'));
                    const KEYS: Tap = tap("your keys", Key::Char('k'));
                    const LINK_IT: Tap = tap("link", Key::Char('l'));
                    if self.unlinkable.is_some() {
                        &[ROOMS, HISTORY, BOARDS, KEYS]
                    } else {
                        &[ROOMS, HISTORY, BOARDS, KEYS, LINK_IT]
                    }
                },
                Body::Menu(self.menu()),
            ),
            Screen::Play(session) => {
                let watching = session.watch.is_some();
                let mode = session.round.mode();
                let ghost = session.ghost.as_ref().map(|g| g.name.as_str());
                let hints = match (watching, ghost) {
                    (true, _) if self.list.is_some() => {
                        "esc back · tab or enter play this round yourself · g race it"
                    }
                    (true, _) => "esc menu · tab or enter play this round yourself · g race it",
                    (false, Some(_)) if mode == Mode::Zen => {
                        "esc ends the round · tab start the race again"
                    }
                    (false, Some(_)) if self.list.is_some() => {
                        "tab start the race again · esc back"
                    }
                    (false, Some(_)) => "tab start the race again · esc menu",
                    (false, None) if mode == Mode::Zen => "esc ends the round · tab restart",
                    (false, None) => "tab restart · esc menu",
                };
                let who = session.watch.as_ref().and_then(|w| w.who.as_deref());
                let banner = match ghost {
                    Some(name) => Some(race_banner(mode, name)),
                    None => watching.then(|| banner(mode, who)),
                };
                (
                    if watching {
                        Kind::Replay
                    } else {
                        Kind::Playing
                    },
                    banner,
                    hints,
                    // ZEN ends with esc, which a phone's keyboard lacks.
                    match (watching, self.list.is_some()) {
                        (true, true) => &[BACK],
                        (true, false) => &[MENU],
                        (false, _) if mode == Mode::Zen => &[END],
                        // A phone has no esc: the way out of a round that ends itself.
                        (false, _) => &[MENU],
                    },
                    Body::Play(self.play_model(session, now)),
                )
            }
            Screen::Results(r) => {
                // What became of the round (sent, offline, unranked, a link copied): news,
                // not an error.
                if let Some(note) = &r.note {
                    notice = Some((note.clone(), Tone::Dim));
                }
                // Said on every round of yours, not once on the menu: the play-test's
                // read-only data dir was forgotten by the second round.
                if let Some(why) = self.unkept.as_ref().filter(|_| !r.watched) {
                    let unkept = ["not kept: ", why].concat();
                    let line = match &r.note {
                        Some(note) => [note, " · ", &unkept].concat(),
                        None => unkept,
                    };
                    notice = Some((line, Tone::Wrong));
                }
                let race_link = app::race_link(self.game_url.as_deref(), r).is_some();
                let hints = if r.watched && self.list.is_some() {
                    "tab or enter play this round yourself · r watch again · g race it · esc back"
                } else if r.watched {
                    "tab or enter play this round yourself · r watch again · g race it · esc menu"
                } else if r.race.is_some() && self.list.is_some() {
                    // A race started from a list goes back to it.
                    match (r.share.is_some(), race_link) {
                        (true, true) => {
                            "tab or enter race again · r watch yours · c copy link · C copy race link · esc back"
                        }
                        (true, false) => {
                            "tab or enter race again · r watch yours · c copy link · esc back"
                        }
                        _ => "tab or enter race again · r watch yours · esc back",
                    }
                } else if r.race.is_some() {
                    match (r.share.is_some(), race_link) {
                        (true, true) => {
                            "tab or enter race again · r watch yours · c copy link · C copy race link · esc menu"
                        }
                        (true, false) => {
                            "tab or enter race again · r watch yours · c copy link · esc menu"
                        }
                        _ => "tab or enter race again · r watch yours · h history · esc menu",
                    }
                } else {
                    match (r.share.is_some(), race_link) {
                        (true, true) => {
                            "tab or enter again · r watch it · g race it · c copy link · C copy race link · esc menu"
                        }
                        (true, false) => {
                            "tab or enter again · r watch it · g race it · c copy link · h history · esc menu"
                        }
                        _ => "tab or enter again · r watch it · g race it · h history · esc menu",
                    }
                };
                let banner = match &r.race {
                    Some(race) => Some(race_banner(r.score.mode, &race.name)),
                    None => r.watched.then(|| banner(r.score.mode, r.who.as_deref())),
                };
                let taps: &[Tap] = {
                    const AGAIN: Tap = tap("again", Key::Tab);
                    const WATCH: Tap = tap("watch", Key::Char('r'));
                    const RACE: Tap = tap("race", Key::Char('g'));
                    const PLAY: Tap = tap("play it", Key::Tab);
                    const RACE_AGAIN: Tap = tap("race again", Key::Tab);
                    match (r.watched, r.race.is_some(), r.share.is_some()) {
                        (true, ..) if self.list.is_some() => &[PLAY, WATCH, RACE, BACK],
                        (true, ..) => &[PLAY, WATCH, RACE, MENU],
                        (_, true, true) if self.list.is_some() => &[RACE_AGAIN, WATCH, COPY, BACK],
                        (_, true, false) if self.list.is_some() => &[RACE_AGAIN, WATCH, BACK],
                        (_, true, true) => &[RACE_AGAIN, WATCH, COPY, MENU],
                        (_, true, false) => &[RACE_AGAIN, WATCH, MENU],
                        (_, false, true) => &[AGAIN, WATCH, RACE, COPY, MENU],
                        (_, false, false) => &[AGAIN, WATCH, RACE, MENU],
                    }
                };
                (
                    Kind::Results,
                    banner,
                    hints,
                    taps,
                    Body::Results(results(r)),
                )
            }
            Screen::History => (
                Kind::History,
                None,
                "↑↓ pick · enter watch · g race · esc menu",
                &[BACK],
                Body::History(self.history_model(zone)),
            ),
            Screen::Link {
                name,
                error,
                waiting,
            } => {
                if let Some(e) = error {
                    notice = Some((e.clone(), Tone::Wrong));
                } else if *waiting {
                    notice = Some(("linking…".into(), Tone::Dim));
                }
                let (about, status) = match &self.player {
                    // "linked as" once, in the status.
                    Some(p) => (
                        "your rounds are sent, scored by the server, and get share links".into(),
                        format!("linked as {}", p.name),
                    ),
                    None => (
                        "pick a name: your rounds are sent, scored by the server, and get share links".into(),
                        "not linked".into(),
                    ),
                };
                let link = Link {
                    title: "link this game",
                    name: name.clone(),
                    about,
                    status,
                };
                (
                    Kind::Link,
                    None,
                    "3 to 20 letters, digits, _ or - · enter link · esc back",
                    &[LINK, BACK],
                    Body::Link(link),
                )
            }
            Screen::Keys(k) => {
                let rounds = self.history.len();
                let keys = keys_model(k, rounds, self.rounds_kept("from ", rounds));
                (
                    Kind::Keys,
                    None,
                    // `d` is offered only with something to drill.
                    if keys.drill.is_some() {
                        "t errors or time · d drill these · esc menu"
                    } else {
                        "t errors or time · esc menu"
                    },
                    if keys.drill.is_some() {
                        const DRILL: Tap = tap("drill these", Key::Char('d'));
                        &[DRILL, BACK]
                    } else {
                        &[BACK]
                    },
                    Body::Keys(keys),
                )
            }
            Screen::Room(live) => match &live.race {
                Some(race) if live.results.is_none() => {
                    let play = self.room_race(live, race, now);
                    let zen = live.mode == Mode::Zen
                        && live
                            .mine()
                            .is_some_and(|m| !m.round.is_over(app::ms_since(race.origin, now)));
                    if let Some(note) = &live.note {
                        notice = Some(note.clone());
                    }
                    (
                        if live.racing() {
                            Kind::Playing
                        } else {
                            Kind::Replay
                        },
                        Some(room_banner(live)),
                        if zen {
                            "esc ends your round"
                        } else {
                            "esc leaves the room"
                        },
                        if zen { &[END] } else { &[LEAVE] },
                        Body::Play(play),
                    )
                }
                _ => {
                    if let Some(note) = &live.note {
                        notice = Some(note.clone());
                    }
                    if let Some(error) = live.naming.as_ref().and_then(|n| n.error.as_ref()) {
                        notice = Some((error.clone(), Tone::Wrong));
                    }
                    const JOIN: Tap = tap("join", Key::Enter);
                    const START: Tap = tap("start", Key::Enter);
                    const READY: Tap = tap("ready", Key::Char('r'));
                    const COPY_ROOM: Tap = tap("copy link", Key::Char('c'));
                    const REMATCH: Tap = tap("rematch", Key::Tab);
                    const WATCH: Tap = tap("watch", Key::Enter);
                    const RACE: Tap = tap("race", Key::Char('g'));
                    let owner = live.you.is_some() && live.you == Some(live.owner);
                    let (hints, taps): (_, &[Tap]) = if live.naming.is_some() {
                        (
                            "3 to 20 letters, digits, _ or - · enter join · esc back",
                            &[JOIN, BACK],
                        )
                    } else if live.results.is_some() {
                        (
                            "tab rematch · ↑↓ pick · enter watch · g race · c copy link · esc leave",
                            &[REMATCH, WATCH, RACE, COPY_ROOM, LEAVE],
                        )
                    } else if live.phase != Phase::Lobby {
                        ("esc leave", &[LEAVE])
                    } else if owner {
                        (
                            "enter start · r ready · c copy link · esc leave",
                            &[START, READY, COPY_ROOM, LEAVE],
                        )
                    } else if live.racing() {
                        (
                            "r or enter ready · c copy link · esc leave",
                            &[READY, COPY_ROOM, LEAVE],
                        )
                    } else {
                        ("c copy link · esc leave", &[COPY_ROOM, LEAVE])
                    };
                    (
                        Kind::Room,
                        None,
                        hints,
                        taps,
                        Body::Room(self.room_model(live, now)),
                    )
                }
            },
            Screen::Boards(b) => {
                let hints = match &b.rows {
                    Some(Ok(rows)) if !rows.is_empty() => {
                        "←→ mode · ↑↓ pick · enter watch · g race · esc menu"
                    }
                    _ => "←→ mode · esc menu",
                };
                (
                    Kind::Boards,
                    None,
                    hints,
                    &[BACK],
                    Body::Boards(self.boards_model(b)),
                )
            }
        };
        Model {
            kind,
            banner,
            notice,
            hints,
            taps,
            body,
        }
    }

    fn menu(&self) -> Menu {
        let items = (0..self.menu_len())
            .filter_map(|i| self.menu_at(i))
            .map(|mode| match mode {
                // Its level is the item's own, set with ← and →.
                Mode::Pursuit(_) => MenuItem {
                    label: "HOT PURSUIT".into(),
                    level: Some(self.level),
                    ranked: self.ranked_ready(mode),
                },
                _ => MenuItem {
                    label: mode.title(),
                    level: None,
                    ranked: self.ranked_ready(mode),
                },
            })
            .collect();
        Menu {
            tagline: "every round is a replay",
            items,
            selected: self.menu_item,
            last_round: self
                .history
                .last()
                .map(|e| format!("last round: {}", headline(&e.score))),
            player: match (&self.player, self.unlinkable) {
                (Some(p), _) => format!("linked as {}", p.name),
                (None, Some(why)) => why.into(),
                (None, None) => NOT_LINKED.into(),
            },
            race: self
                .best(self.menu_mode())
                .map(|b| format!("g races {BEST_HERE}: {}", b.score.headline())),
        }
    }

    fn play_model(&self, session: &app::Session, now: f64) -> Play {
        let t = self.round_time(now);
        let watching = session.watch.is_some();
        let mut play = self.play_of(&session.round, t, watching);
        if let Some(g) = &session.ghost {
            let them = g.round.view(t);
            let ghost = Ghost {
                name: g.name.clone(),
                tag: None,
                caret: them.caret(),
                level: them.level(),
                over: them.over(),
                lead: g.lead(race::progress(&session.round), &session.trail, t),
                from: None,
            };
            play.lead = Some((ghost.label(), ghost.tone()));
            play.ghosts.push(ghost);
            if play.prompt.is_some() {
                play.prompt = Some("start typing: the race starts with your first key");
            }
        }
        play
    }

    /// `round` at round time `t` on the play screen, alone: the text, the caret, the
    /// clock and the heat. `watching` someone else's, there is no prompt.
    fn play_of(&self, round: &typepper_engine::Round, t: u32, watching: bool) -> Play {
        let view = round.view(t);
        let clock = match (view.time_left_ms(), view.level()) {
            (Some(left), _) => Clock::Left(left.div_ceil(1000)),
            (None, Some(level)) => Clock::Level(level),
            _ => Clock::Elapsed(view.elapsed_ms() / 1000),
        };
        let current = view.current();
        let first = current.saturating_sub(WORDS_BEHIND);
        let words = (first..current + WORDS_AHEAD)
            .map_while(|i| view.word(i))
            .map(|w| Word {
                index: w.index,
                offset: w.offset,
                status: w.status,
                glyphs: w.glyphs().collect(),
            })
            .collect();
        Play {
            round: self.sessions,
            mode: view.mode(),
            clock,
            started: view.started(),
            heat: view.heat(),
            tier: view.tier(),
            first,
            words,
            caret: view.caret(),
            // The flame chases the caret through the text: only where the text is words.
            flame: view.flame().filter(|_| view.mode().unit() == Unit::Words),
            prompt: (!view.started() && !watching)
                .then_some("start typing: the clock starts with your first key"),
            ghosts: vec![],
            lead: None,
            live: view
                .live()
                .filter(|_| self.live_stats)
                .map(|(wpm, acc)| format!("{} wpm · {}%", wpm / 100, acc / 100)),
        }
    }

    /// A room's race at `now`: your round with every other racer's caret on it, and the
    /// standing; a spectator follows the leader's round.
    fn room_race(&self, live: &room::Live, race: &room::Race, now: f64) -> Play {
        let t = app::ms_since(race.origin, now);
        let order = race.order(&live.out());
        // Whose text it is: yours, or the leader's.
        let Some(me) = live.you.or(order.first().map(|&(id, _)| id)) else {
            return self.play_of(&typepper_engine::Round::new(live.mode, 0), t, true);
        };
        let Some(mine) = race.of(me) else {
            return self.play_of(&typepper_engine::Round::new(live.mode, 0), t, true);
        };
        let mut play = self.play_of(&mine.round, t, !live.racing());
        if play.prompt.is_some() {
            play.prompt = Some("the race is on: start typing");
        }
        let place = |id: u32| order.iter().position(|&(o, _)| o == id);
        for rival in race.rounds.iter().filter(|r| r.id != me) {
            let them = rival.round.view(t);
            let Some(lead) = race.lead(me, rival.id, t) else {
                continue;
            };
            let place = place(rival.id).map_or_else(|| "out".into(), |at| ordinal(at + 1));
            let wpm = them.live().map_or(0, |(wpm, _)| wpm / 100);
            play.ghosts.push(Ghost {
                name: live.name_of(rival.id).to_owned(),
                tag: Some(format!("{place} · {wpm} wpm")),
                caret: them.caret(),
                level: them.level(),
                over: them.over(),
                lead,
                // A spectator follows the leader: the leads are theirs, not "yours".
                from: live.you.is_none().then(|| live.name_of(me).to_owned()),
            });
        }
        play.lead = place(me).map(|at| {
            let of = order.len();
            // Against the one just ahead; the leader, against the one just behind.
            let other = if at == 0 {
                order.get(1)
            } else {
                order.get(at - 1)
            };
            let mut line = format!("{} of {of}", ordinal(at + 1));
            let mut tone = Tone::Even;
            if let Some(&(other, _)) = other
                && let Some(lead) = race.lead(me, other, t)
            {
                let gap = race::Seconds(lead.ms.unsigned_abs());
                let name = live.name_of(other);
                let _ = if lead.chars == 0 {
                    write!(line, " · tied with {name}")
                } else if at == 0 {
                    write!(line, " · +{gap} on {name}")
                } else {
                    write!(line, " · +{gap} to {name}")
                };
                tone = Tone::lead(lead.chars);
            }
            if !live.racing() {
                line = format!("{} leads · {line}", live.name_of(me));
            }
            (line, tone)
        });
        play
    }

    /// A room, but for its race: naming yourself, its lobby and countdown, its results.
    fn room_model(&self, live: &room::Live, now: f64) -> Room {
        let title = match &live.code {
            Some(code) => format!(
                "room {} {} · {}",
                &code[..code.len() / 2],
                &code[code.len() / 2..],
                live.mode.title()
            ),
            None => format!("a room for {}", live.mode.title()),
        };
        let mut rows = vec![];
        let mut big = None;
        let mut selected = None;
        let caption;
        if let Some(naming) = &live.naming {
            caption = "pick a name for this room: 3 to 20 letters, digits, _ or -".into();
            return Room {
                title,
                link: live.link.clone(),
                big: None,
                name: Some(naming.name.clone()),
                caption,
                rows,
                selected,
            };
        }
        if let Some(finishes) = &live.results {
            for (i, f) in finishes.iter().enumerate() {
                // The score alone: a frame has no use for the round's replay.
                let scored = live
                    .race
                    .as_ref()
                    .and_then(|r| r.of(f.racer)?.round.score());
                let score = scored.map_or(live.headline(f).to_string(), |s| {
                    // The mode is the title's: each row says the racer's own numbers.
                    format!("{} · {}%", s.headline(), Decimal(s.accuracy_x100.into()))
                });
                let you = live.you == Some(f.racer);
                let (state, state_tone) = room::kept(&f.kept);
                rows.push(RoomRow {
                    place: ordinal(i + 1),
                    name: racer_name(live.name_of(f.racer), you, live.is_guest(f.racer)),
                    state,
                    state_tone,
                    score,
                    share: f.share.clone(),
                    tone: if you { Tone::Accent } else { Tone::Text },
                });
            }
            selected = Some(live.row);
            big = live
                .you
                .and_then(|you| finishes.iter().position(|f| f.racer == you))
                .map(|at| format!("{} of {}", ordinal(at + 1), finishes.len()));
            caption = if finishes.is_empty() {
                "no one finished".into()
            } else {
                "the finishers, best first".into()
            };
        } else {
            for r in &live.racers {
                let you = live.you == Some(r.id);
                let state = state_word(r.state);
                rows.push(RoomRow {
                    place: String::new(),
                    name: racer_name(&r.name, you, r.guest),
                    state: if r.id == live.owner {
                        format!("owner · {state}")
                    } else {
                        state.into()
                    },
                    state_tone: Tone::Dim,
                    score: String::new(),
                    share: None,
                    tone: match r.state {
                        State::Gone | State::Out => Tone::Dim,
                        _ if you => Tone::Accent,
                        _ => Tone::Text,
                    },
                });
            }
            if let Some(go_at) = live.go_at {
                // Whole seconds: printing a float would bring float formatting into the wasm.
                let left = ((go_at - now) / 1000.0).ceil().max(1.0) as u32;
                big = Some(left.to_string());
            }
            let owner = live.name_of(live.owner).to_owned();
            caption = match (live.phase, live.you) {
                _ if !live.connected && live.code.is_none() => "opening the room…".into(),
                (Phase::Countdown, _) => "the text comes when the count ends".into(),
                (Phase::Racing | Phase::Over, _) => "the race is on: it shows when it ends".into(),
                (_, None) if !live.connected => "joining…".into(),
                (_, None) => "you are watching: the race shows when it starts".into(),
                (_, Some(you)) if you == live.owner => {
                    "enter starts the race, or it starts once everyone is ready: send the link"
                        .into()
                }
                _ => format!("waiting for {owner} to start, or for everyone to be ready"),
            };
        }
        Room {
            title,
            link: live.link.clone(),
            big,
            name: None,
            caption,
            rows,
            selected,
        }
    }

    fn history_model(&self, zone: &dyn Zone) -> History {
        let rows = self
            .history
            .iter()
            .rev()
            .map(|e| HistoryRow {
                date: local_time(e.unix_ms, zone),
                // A room's race says so: its round was raced, not played alone.
                title: if e.room {
                    e.score.mode.title() + " · room"
                } else {
                    e.score.mode.title()
                },
                headline: e.score.headline().to_string(),
                accuracy: format!("{}%", Decimal(e.score.accuracy_x100.into())),
                share: e.share.clone(),
            })
            .collect();
        History {
            title: "history",
            rows,
            selected: self.history_row,
            caption: self.rounds_kept("", self.history.len()),
            empty: self
                .history
                .is_empty()
                .then_some("no rounds yet: esc, then play one"),
        }
    }

    fn boards_model(&self, b: &app::Boards) -> Boards {
        let mode = self.board_modes()[b.mode];
        let (rows, say) = match &b.rows {
            None => (vec![], Some(("loading…".into(), Tone::Dim))),
            Some(Err(e)) => (vec![], Some((e.clone(), Tone::Wrong))),
            Some(Ok(rows)) => (
                rows.iter()
                    .map(|r| BoardLine {
                        rank: r.rank,
                        medal: Tone::rank(r.rank),
                        name: r.name.clone(),
                        score: format!("{} {}", r.score, mode.unit()),
                        accuracy: format!("{}%", Decimal((r.accuracy * 100.0).round() as u32)),
                    })
                    .collect(),
                rows.is_empty()
                    .then(|| ("no runs this month yet: be the first".into(), Tone::Dim)),
            ),
        };
        Boards {
            title: "boards",
            mode,
            picker: format!("‹ {mode} ›"),
            caption: "this month's best run per player",
            rows,
            say,
            selected: b.row,
        }
    }
}

/// The keys screen's model.
fn keys_model(k: &app::KeysScreen, rounds: usize, caption: String) -> Keys {
    use crate::keys::{By, Stat, Trend, name, percent};
    let a = &k.all;
    let line = |what: String, s: &Stat| {
        let ms = |m: Option<u32>| m.map_or("–".into(), |m| format!("{m} ms"));
        format!(
            "{what:<5} {} wrong · {} · p90 {} · {}×",
            percent(s.error_x100()),
            ms(s.median_ms()),
            ms(s.p90_ms()),
            s.seen
        )
    };
    // Ranked by errors, a list leaves out what never went wrong; it says which it is.
    let none = |none_ranked: bool| match k.by {
        By::Errors if !none_ranked => "none went wrong",
        _ => "not seen enough yet",
    };
    // Shades: errors against 20% (a key wrong one time in five is as bad as it gets);
    // times between the fastest and the slowest median.
    let medians: Vec<u32> = QWERTY
        .iter()
        .flat_map(|r| r.chars())
        .filter_map(|c| a.key(c).and_then(Stat::median_ms))
        .collect();
    let (fast, slow) = (
        medians.iter().copied().min().unwrap_or(0),
        medians.iter().copied().max().unwrap_or(0),
    );
    let shade = |s: &Stat| -> Option<u8> {
        match k.by {
            By::Errors => Some((s.error_x100() / 20).min(100) as u8),
            By::Time => {
                let m = s.median_ms()?;
                Some(((m - fast) * 100 / (slow - fast).max(1)).min(100) as u8)
            }
        }
    };
    // Worked out once: the drill and why there is none both read it.
    let drill = a.drill();
    let keyboard = QWERTY
        .iter()
        .map(|row| {
            row.chars()
                .map(|key| KeyCap {
                    key,
                    shade: a.key(key).and_then(shade),
                })
                .collect()
        })
        .collect();
    Keys {
        title: "your keys",
        by: match k.by {
            By::Errors => "by errors",
            By::Time => "by time",
        },
        caption,
        keyboard,
        lists: [
            Worst {
                title: "worst keys",
                lines: a
                    .worst_keys(k.by, 10)
                    .iter()
                    .map(|key| {
                        let mut l = line(name(key.key), &key.stat);
                        if let Some(trend) = k.trend.key(key.key) {
                            l += &format!(" · then {trend}");
                        }
                        l
                    })
                    .collect(),
                none: none(a.worst_keys(By::Time, 1).is_empty()),
                note: {
                    let few = a.unranked();
                    (!few.is_empty()).then(|| {
                        format!(
                            "{few}: seen under {}×, too few to rank",
                            crate::keys::MIN_KEY_SEEN
                        )
                    })
                },
            },
            Worst {
                title: "worst pairs",
                lines: a
                    .worst_pairs(k.by, 10)
                    .iter()
                    .map(|p| line(format!("{}{}", p.pair[0], p.pair[1]), &p.stat))
                    .collect(),
                none: none(a.worst_pairs(By::Time, 1).is_empty()),
                note: None,
            },
        ],
        trend: {
            let last = match k.trend.recent.rounds {
                1 => "the last round".to_owned(),
                n => format!("the last {n} rounds"),
            };
            let (before, recent) = (&k.trend.before, &k.trend.recent.overall);
            // With none before, there is nothing to compare: the numbers alone.
            match before.rounds {
                0 => format!("{last}: {}", Trend::alone(Some(recent))),
                n => format!(
                    "{last} against the {n} before: {}",
                    Trend::line(Some(&before.overall), Some(recent))
                ),
            }
        },
        no_drill: (rounds > 0 && drill.is_none()).then_some(
            "nothing to drill yet: a letter is drilled once it went wrong 3 times at 1.5× your error rate, or takes 1.2× your time",
        ),
        drill,
        empty: (rounds == 0).then_some("no rounds yet: esc, then play some"),
    }
}

/// `REPLAY · BLITZ 15s · ada`: whose round, when known.
fn banner(mode: Mode, who: Option<&str>) -> String {
    match who {
        Some(who) => format!("REPLAY · {mode} · {who}"),
        None => format!("REPLAY · {mode}"),
    }
}

fn race_banner(mode: Mode, name: &str) -> String {
    format!("RACE · {mode} · vs {name}")
}

impl App {
    /// The `n` rounds a screen reads, and where they are kept: `from your last 3 rounds,
    /// on this device`, or `no rounds yet, …`.
    fn rounds_kept(&self, from: &str, n: usize) -> String {
        let rounds = match n {
            0 => "no rounds yet".into(),
            1 => [from, "your last round"].concat(),
            n => format!("{from}your last {n} rounds"),
        };
        match &self.unkept {
            // This game's rounds, and they go with it.
            Some(_) => rounds + ", until you leave: not kept",
            None => [&rounds, ", ", self.kept_on].concat(),
        }
    }
}

/// `92 wpm · BLITZ 15s`, a round's line.
pub fn headline(score: &Score) -> String {
    format!("{} · {}", score.headline(), score.mode)
}

fn results(r: &app::Results) -> Results {
    let s = &r.score;
    let c = s.chars;
    let tier = Tier::of(s.peak_heat);
    let stat = |label, value: String| Stat {
        label,
        value,
        tone: Tone::Text,
    };
    // wpm and raw to the hundredth both, so they read as the same kind of number; each
    // count of characters under its own name, so none is a bare number in a row.
    let mut stats = vec![
        stat("wpm", Hundredths(s.wpm_x100).to_string()),
        stat("raw", Hundredths(s.raw_x100).to_string()),
        stat("accuracy", format!("{}%", Decimal(s.accuracy_x100.into()))),
        stat(
            "consistency",
            format!("{}%", Decimal(s.consistency_x100.into())),
        ),
        stat("words", s.words.to_string()),
        stat("correct", c.correct.to_string()),
        stat("wrong", c.wrong.to_string()),
        stat("extra", c.extra.to_string()),
        stat("missed", c.missed.to_string()),
        Stat {
            tone: Tone::Heat(tier),
            ..stat("peak heat", format!("{} {tier}", s.peak_heat))
        },
    ];
    if let (Mode::Pursuit(_), Some(level)) = (s.mode, s.level) {
        stats.push(Stat {
            tone: Tone::Accent,
            ..stat("reached", format!("lv{level}"))
        });
    }
    stats.push(stat(
        "time",
        format!("{}.{} s", s.duration_ms / 1000, s.duration_ms % 1000 / 100),
    ));
    let race = r.race.as_deref().map(|race| versus(s, race));
    Results {
        chart: Chart::new(
            &s.samples,
            r.race.as_deref().map(|race| {
                (
                    race.name.as_str(),
                    &race.score.samples[..],
                    &race.changes[..],
                )
            }),
        ),
        headline: s.headline().to_string(),
        title: s.mode.title(),
        stats,
        share: r.share.clone(),
        watched: r.watched,
        race,
    }
}

/// Your round and the ghost's side by side.
fn versus(you: &Score, race: &app::RaceEnd) -> Race {
    let them = &race.score;
    let (a, b) = (you.headline(), them.headline());
    let unit = a.unit;
    let diff = i64::from(a.value) - i64::from(b.value);
    let verdict = match diff.signum() {
        1 => format!(
            "you won by {}",
            Headline {
                value: diff.unsigned_abs() as u32,
                unit
            }
        ),
        -1 => format!(
            "{} won by {}",
            race.name,
            Headline {
                value: diff.unsigned_abs() as u32,
                unit
            }
        ),
        _ => format!("a tie at {a}"),
    };
    // Each difference once: its text and its colour both read it.
    let wpm = i64::from(you.wpm_x100) - i64::from(them.wpm_x100);
    let accuracy = i64::from(you.accuracy_x100) - i64::from(them.accuracy_x100);
    let rows = vec![
        Versus {
            label: "score",
            you: a.to_string(),
            them: b.to_string(),
            diff: format!("{} {unit}", signed(diff * 100)),
            tone: Tone::lead(diff),
        },
        Versus {
            label: "wpm",
            you: Hundredths(you.wpm_x100).to_string(),
            them: Hundredths(them.wpm_x100).to_string(),
            diff: signed(wpm),
            tone: Tone::lead(wpm),
        },
        Versus {
            label: "accuracy",
            you: format!("{}%", Decimal(you.accuracy_x100.into())),
            them: format!("{}%", Decimal(them.accuracy_x100.into())),
            diff: format!("{}%", signed(accuracy)),
            tone: Tone::lead(accuracy),
        },
    ];
    Race {
        name: race.name.clone(),
        verdict,
        margin: diff,
        rows,
        changes: race.changes.clone(),
    }
}

/// Hundredths with their sign: `+4.4`, `−1.5`, `±0`.
pub fn signed(x100: i64) -> String {
    let abs = Decimal(u32::try_from(x100.unsigned_abs()).unwrap_or(u32::MAX));
    match x100.signum() {
        1 => format!("+{abs}"),
        -1 => format!("−{abs}"),
        _ => "±0".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Effect, Key, Now};
    use crate::storage::{self, Stored};
    use crate::zone::Fixed;
    use typepper_api::{BoardRow, Player};

    const UTC: Fixed = Fixed(0);

    fn at(mono: f64) -> Now {
        Now {
            mono,
            unix_ms: 1_796_154_720_000 + mono as u64,
        }
    }

    fn fresh() -> App {
        App::new(7, &Stored::default(), None).0
    }

    /// Types the current word and a space, 100 ms a key.
    fn type_word(app: &mut App, t: &mut f64) {
        let Body::Play(play) = app.model(*t, &UTC).body else {
            panic!("not playing")
        };
        for c in play
            .word(play.caret.0)
            .unwrap()
            .target()
            .chars()
            .chain([' '])
        {
            app.key(Key::Char(c), at(*t));
            *t += 100.0;
        }
    }

    #[test]
    fn the_menu_lists_the_modes_and_who_plays() {
        let mut app = fresh();
        let m = app.model(0.0, &UTC);
        assert_eq!((m.kind.name(), m.banner, m.notice), ("menu", None, None));
        let Body::Menu(menu) = m.body else { panic!() };
        let titles: Vec<String> = menu.items.iter().map(MenuItem::title).collect();
        assert_eq!(
            titles,
            [
                "BLITZ 15s",
                "BLITZ 30s",
                "BLITZ 60s",
                "ZEN",
                "HOT PURSUIT from lv7"
            ]
        );
        assert_eq!(menu.selected, 0);
        assert_eq!(menu.player, NOT_LINKED);
        assert_eq!(menu.last_round, None);
        app.player = Some(Player {
            name: "ada".into(),
            token: "t".into(),
        });
        app.key(Key::Down, at(0.0));
        let Body::Menu(menu) = app.model(0.0, &UTC).body else {
            panic!()
        };
        assert_eq!((menu.selected, menu.player.as_str()), (1, "linked as ada"));
    }

    #[test]
    fn the_play_model_says_the_clock_heat_and_words_and_changes_with_each_key() {
        let mut app = fresh();
        app.key(Key::Char('1'), at(0.0));
        let before = app.model(500.0, &UTC);
        assert_eq!(
            before,
            app.model(900.0, &UTC),
            "nothing moves before the first key"
        );
        assert_eq!(before.kind.name(), "playing");
        let Body::Play(play) = &before.body else {
            panic!()
        };
        assert_eq!(play.status(), "BLITZ 15s · 15 s left · heat 0 BELL PEPPER");
        assert_eq!(play.clock.big(), "15");
        assert!(play.prompt.is_some() && !play.started);
        assert_eq!((play.first, play.caret), (0, (0, 0)));
        assert!(play.words.len() >= typepper_engine::LOOKAHEAD);
        let mut t = 1000.0;
        type_word(&mut app, &mut t);
        let after = app.model(t, &UTC);
        assert_ne!(after, before);
        let Body::Play(play) = &after.body else {
            panic!()
        };
        assert_eq!(play.caret, (1, 0));
        assert!(play.started && play.prompt.is_none());
        assert_eq!(play.words[0].status, WordStatus::Done { correct: true });
        assert_eq!(play.clock, Clock::Left(15 - ((t as u32 - 1000) / 1000)));
        // A second later only the clock moved.
        let later = app.model(t + 1000.0, &UTC);
        let Body::Play(later) = &later.body else {
            panic!()
        };
        assert_eq!(later.words, play.words);
        assert_ne!(later.clock, play.clock);
    }

    #[test]
    fn d_is_offered_only_with_a_drill_saved() {
        let mut app = fresh();
        assert!(!app.model(0.0, &UTC).hints.contains(" d "));
        app.key(Key::Char('d'), at(0.0));
        let m = app.model(0.0, &UTC);
        assert_eq!(m.kind.name(), "menu");
        let (how, tone) = m.notice.unwrap();
        assert!(how.starts_with("no drill yet"));
        assert_eq!(tone, Tone::Dim, "a way to go, not an error");
        let stored = Stored {
            drill: Some("nr".into()),
            ..Stored::default()
        };
        let mut app = App::new(7, &stored, None).0;
        assert!(app.model(0.0, &UTC).hints.contains(" p d quick start"));
        app.key(Key::Char('d'), at(0.0));
        assert_eq!(app.model(0.0, &UTC).kind.name(), "playing");
    }

    fn live(app: &App, t: f64) -> Option<String> {
        let Body::Play(play) = app.model(t, &UTC).body else {
            panic!("not playing")
        };
        let live = play.live.clone()?;
        assert!(
            play.status().ends_with(&format!(" · {live}")),
            "the mirror says it too"
        );
        Some(live)
    }

    #[test]
    fn live_stats_show_while_typing_and_s_on_the_menu_hides_them() {
        let mut app = fresh();
        app.key(Key::Char('1'), at(0.0));
        let mut t = 0.0;
        app.key(Key::Char('x'), at(t));
        assert_eq!(
            live(&app, 900.0),
            None,
            "a rate over a few keys says nothing"
        );
        app.key(Key::Backspace, at(t + 100.0));
        t += 200.0;
        for _ in 0..4 {
            type_word(&mut app, &mut t);
        }
        // 10 keys a second, every word right, from the first key's 0 ms: 5 chars a
        // word-per-minute make about 120 wpm. The wrong key stays in the accuracy.
        let shown = live(&app, t).expect("live stats while typing");
        let (wpm, acc) = shown.split_once(" wpm · ").unwrap();
        let wpm: u32 = wpm.parse().unwrap();
        assert!((100..=125).contains(&wpm), "{shown}");
        assert!(acc.ends_with('%') && acc != "100%", "{shown}");

        app.key(Key::Escape, at(t));
        let fx = app.key(Key::Char('s'), at(t));
        assert!(!app.live_stats);
        assert_eq!(
            fx,
            [Effect::Save {
                key: storage::LIVE.into(),
                value: "off".into()
            }]
        );
        app.key(Key::Char('1'), at(t));
        let mut t = t + 100.0;
        for _ in 0..4 {
            type_word(&mut app, &mut t);
        }
        assert_eq!(live(&app, t), None, "hidden");
        // And kept: a game that boots on `live` = `off` hides them.
        let stored = Stored {
            live: Some("off\n".into()),
            ..Stored::default()
        };
        assert!(!App::new(7, &stored, None).0.live_stats);
        assert!(fresh().live_stats, "shown unless hidden");
    }

    #[test]
    fn the_flame_burns_what_it_passed_in_hot_pursuit_only() {
        let mut app = fresh();
        app.key(Key::Char('p'), at(0.0));
        let mut t = 0.0;
        type_word(&mut app, &mut t);
        let Body::Play(play) = app.model(t + 3_000.0, &UTC).body else {
            panic!()
        };
        assert_eq!(play.clock, Clock::Level(7));
        let flame = play.flame.expect("a flame in HOT PURSUIT");
        let Body::Play(sooner) = app.model(t + 1_000.0, &UTC).body else {
            panic!()
        };
        assert!(sooner.flame < Some(flame), "the flame moves on");
        let word = &play.words[0];
        let burnt = (0..word.glyphs.len())
            .filter(|&g| play.burnt(word, g))
            .count();
        let sooner_burnt = (0..word.glyphs.len())
            .filter(|&g| sooner.burnt(word, g))
            .count();
        assert!(burnt >= sooner_burnt);
        app.key(Key::Escape, at(t));
        app.key(Key::Char('z'), at(0.0));
        let Body::Play(zen) = app.model(0.0, &UTC).body else {
            panic!()
        };
        assert_eq!((zen.flame, zen.clock), (None, Clock::Elapsed(0)));
    }

    #[test]
    fn results_carry_every_stat_once() {
        let mut app = fresh();
        app.key(Key::Char('1'), at(0.0));
        let mut t = 0.0;
        type_word(&mut app, &mut t);
        app.key(Key::Char('x'), at(t));
        app.tick(at(20_000.0));
        let m = app.model(20_000.0, &UTC);
        assert_eq!((m.kind.name(), m.banner.as_deref()), ("results", None));
        let Body::Results(r) = m.body else { panic!() };
        let labels: Vec<&str> = r.stats.iter().map(|s| s.label).collect();
        assert_eq!(
            labels,
            [
                "wpm",
                "raw",
                "accuracy",
                "consistency",
                "words",
                "correct",
                "wrong",
                "extra",
                "missed",
                "peak heat",
                "time"
            ]
        );
        let s = &app.history.last().expect("the round is kept").score;
        assert_eq!(r.headline, s.headline().to_string());
        assert!(
            r.line()
                .starts_with(&format!("{} · BLITZ 15s · wpm ", r.headline))
        );
        assert!(r.line().ends_with(" · time 15.0 s"), "{}", r.line());
        let c = s.chars;
        let counts: Vec<&str> = r.stats[5..9].iter().map(|s| s.value.as_str()).collect();
        let want = [c.correct, c.wrong, c.extra, c.missed].map(|n| n.to_string());
        assert_eq!(counts, want);
        assert_eq!(r.stats[0].value, Hundredths(s.wpm_x100).to_string());
        assert!(
            r.stats[1].value.contains('.'),
            "raw as wpm is: {:?}",
            r.stats[1]
        );
        assert!(c.wrong + c.extra > 0, "the x counts against the round");
        assert_eq!(s.samples.len(), 15);
        assert_eq!((r.chart.seconds, r.chart.lines().count()), (15, 2));
    }

    #[test]
    fn one_round_is_your_last_round_not_your_last_1_rounds() {
        let mut app = fresh();
        let mut t = 0.0;
        app.key(Key::Char('z'), at(t));
        type_word(&mut app, &mut t);
        app.key(Key::Escape, at(t));
        t += 2_000.0;
        app.key(Key::Escape, at(t));
        app.key(Key::Char('h'), at(t));
        let Body::History(h) = app.model(t, &UTC).body else {
            panic!()
        };
        assert_eq!(h.caption, "your last round, on this device");
        app.key(Key::Escape, at(t));
        app.key(Key::Char('k'), at(t));
        let Body::Keys(k) = app.model(t, &UTC).body else {
            panic!()
        };
        assert_eq!(k.caption, "from your last round, on this device");
        // Nothing before it to compare with: its numbers alone, no "against the 0 before".
        assert!(
            k.trend.starts_with("the last round: errors ") && !k.trend.contains('→'),
            "{}",
            k.trend
        );
        let m = app.model(t, &UTC);
        assert!(!m.hints.contains("d drill"), "no drill, no d: {}", m.hints);
    }

    /// The play-test: a guest over `ssh` was offered `l link`, asked for a name, and only
    /// then told that linking needs a key.
    #[test]
    fn a_guest_is_told_at_once_that_linking_needs_a_key() {
        let mut app = fresh();
        let why = "linking needs an SSH key: connect with one to link";
        app.cannot_link(why);
        let m = app.model(0.0, &UTC);
        assert!(!m.hints.contains("l link"), "{}", m.hints);
        assert!(m.taps.iter().all(|t| t.key != Key::Char('l')));
        let Body::Menu(menu) = m.body else { panic!() };
        assert_eq!(menu.player, why);
        app.key(Key::Char('l'), at(0.0));
        assert!(matches!(app.screen(), app::Screen::Menu));
        assert_eq!(app.notice(), Some(why));
    }

    /// The play-test: the keys screen said "from your last 0 rounds", and the `ssh` game
    /// said "on this device" of a history the server keeps.
    #[test]
    fn no_rounds_are_no_rounds_and_the_server_s_history_is_on_the_server() {
        let mut app = fresh();
        app.keeps_on("on the server");
        app.key(Key::Char('k'), at(0.0));
        let Body::Keys(k) = app.model(0.0, &UTC).body else {
            panic!()
        };
        assert_eq!(k.caption, "no rounds yet, on the server");
        app.key(Key::Escape, at(0.0));
        app.key(Key::Char('h'), at(0.0));
        let Body::History(h) = app.model(0.0, &UTC).body else {
            panic!()
        };
        assert_eq!(h.caption, "no rounds yet, on the server");
    }

    #[test]
    fn history_rows_are_newest_first_in_local_time() {
        let mut app = fresh();
        let mut t = 0.0;
        for _ in 0..2 {
            app.key(Key::Char('z'), at(t));
            type_word(&mut app, &mut t);
            app.key(Key::Escape, at(t));
            t += 3_600_000.0;
            app.key(Key::Escape, at(t));
        }
        app.key(Key::Char('h'), at(t));
        let m = app.model(t, &Fixed(330));
        assert_eq!(m.kind.name(), "history");
        let Body::History(h) = m.body else { panic!() };
        assert_eq!(h.caption, "your last 2 rounds, on this device");
        assert_eq!(h.empty, None);
        // The rounds ended at 19:52 and 20:52 UTC, 01:22 and 02:22 in India.
        let dates: Vec<&str> = h.rows.iter().map(|r| r.date.as_str()).collect();
        assert_eq!(dates, ["2026-12-02 02:22", "2026-12-02 01:22"]);
        assert_eq!(h.rows[0].title, "ZEN");
        let Body::History(empty) = ({
            let mut app = fresh();
            app.key(Key::Char('h'), at(0.0));
            app.model(0.0, &UTC).body
        }) else {
            panic!()
        };
        assert!(empty.rows.is_empty() && empty.empty.is_some());
    }

    #[test]
    fn link_and_boards_say_what_is_going_on() {
        let mut app = fresh();
        app.key(Key::Char('l'), at(0.0));
        for c in "ada".chars() {
            app.key(Key::Char(c), at(0.0));
        }
        app.key(Key::Enter, at(0.0));
        let m = app.model(0.0, &UTC);
        assert_eq!(
            (m.kind.name(), m.notice.as_ref().map(|(n, _)| n.as_str())),
            ("link", Some("linking…"))
        );
        let Body::Link(link) = m.body else { panic!() };
        assert_eq!(
            (link.name.as_str(), link.status.as_str()),
            ("ada", "not linked")
        );

        app.key(Key::Escape, at(0.0));
        app.key(Key::Char('b'), at(0.0));
        let Body::Boards(b) = app.model(0.0, &UTC).body else {
            panic!()
        };
        assert_eq!(
            (b.mode, b.picker.as_str(), &b.rows[..], b.say),
            (
                Mode::BLITZ_15,
                "‹ BLITZ 15s ›",
                &[][..],
                Some(("loading…".into(), Tone::Dim))
            )
        );
        let row = BoardRow {
            rank: 1,
            name: "ada".into(),
            score: 108,
            wpm: 108.0,
            accuracy: 98.5,
            run: "7Xf9qyuC".into(),
            time: "2026-12-01T19:52:00Z".into(),
        };
        app.board_loaded("time:15", Ok(vec![row]));
        let m = app.model(0.0, &UTC);
        assert!(m.hints.contains("enter watch"));
        let Body::Boards(b) = m.body else { panic!() };
        let want = BoardLine {
            rank: 1,
            medal: Tone::Gold,
            name: "ada".into(),
            score: "108 wpm".into(),
            accuracy: "98.5%".into(),
        };
        assert_eq!((b.rows, b.say), (vec![want], None));
        app.board_loaded("time:15", Ok(vec![]));
        let Body::Boards(b) = app.model(0.0, &UTC).body else {
            panic!()
        };
        assert_eq!(
            b.say,
            Some(("no runs this month yet: be the first".into(), Tone::Dim))
        );
    }
}
