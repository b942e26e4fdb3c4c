//! What a round on screen shows: the clock, the heat, the words around the caret, the other carets.

use core::fmt::Write as _;

use crate::model::Tone;
use crate::race::Lead;
use typepper_engine::CharState;
use typepper_engine::Glyph;
use typepper_engine::Mode;
use typepper_engine::Tier;
use typepper_engine::WordStatus;

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
    /// Words around the caret: [`super::WORDS_BEHIND`] before it to [`super::WORDS_AHEAD`] from it.
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
    /// Mistakes aren't marked: wrong letters and extras in the text's colour, nothing
    /// underlined ([`Play::marks`]).
    pub blind: bool,
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
    /// WORDS: words done of the round's.
    Words {
        /// Done.
        done: u32,
        /// Of.
        of: u32,
    },
}

impl Clock {
    /// As it is drawn big: `15`, `lv7`, `1:05`, `7/25`.
    pub fn big(self) -> String {
        match self {
            Clock::Left(s) => s.to_string(),
            Clock::Level(level) => format!("lv{level}"),
            Clock::Elapsed(s) => format!("{}:{:02}", s / 60, s % 60),
            Clock::Words { done, of } => format!("{done}/{of}"),
        }
    }

    /// As it is said: `15 s left`, `lv7`, `65 s`, `7 of 25 words`.
    pub fn words(self) -> String {
        match self {
            Clock::Left(s) => format!("{s} s left"),
            Clock::Level(level) => format!("lv{level}"),
            Clock::Elapsed(s) => format!("{s} s"),
            Clock::Words { done, of } => format!("{done} of {of} words"),
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

    /// Whether glyph `g` is a letter skipped: it is underlined in the wrong tone.
    pub fn missed(&self, g: usize) -> bool {
        self.glyphs
            .get(g)
            .is_some_and(|gl| gl.state == CharState::Missed)
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

    /// The big number's colour: dim until the round has begun.
    pub fn clock_tone(&self) -> Tone {
        if self.started {
            Tone::Accent
        } else {
            Tone::Dim
        }
    }

    /// Whether `word`'s mistakes are marked: a missed letter's underline (`missed`), a
    /// word committed wrong underlined whole. Not while typing blind.
    pub fn marks(&self, word: &Word, missed: Option<usize>) -> bool {
        !self.blind
            && match missed {
                Some(g) => word.missed(g),
                None => word.done_wrong(),
            }
    }

    /// The heat's colour: its tier's.
    pub fn heat_tone(&self) -> Tone {
        Tone::Heat(self.tier)
    }

    /// Whether the heat is a ghost pepper's or hotter: its meter glows in its colour,
    /// where a shell can draw a glow.
    pub fn glows(&self) -> bool {
        self.tier >= Tier::Ghost
    }

    /// The colour of glyph `g` of `word`: typed right (or burnt by the flame), wrong, an
    /// extra, or not typed (skipped or still to come).
    pub fn glyph_tone(&self, word: &Word, g: usize) -> Tone {
        let Some(glyph) = word.glyphs.get(g) else {
            return Tone::Dim;
        };
        match glyph.state {
            CharState::Correct if self.burnt(word, g) => Tone::Burnt,
            CharState::Correct => Tone::Text,
            CharState::Wrong | CharState::Extra if self.blind => Tone::Text,
            CharState::Wrong => Tone::Wrong,
            CharState::Extra => Tone::Extra,
            CharState::Missed | CharState::Pending => Tone::Dim,
        }
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
