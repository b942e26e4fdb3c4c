//! A read-only look at a round at a moment: everything a renderer draws.

use core::fmt;

use crate::round::Round;
use crate::score::Hundredths;
use crate::{Mode, Tier};

/// What to draw at one moment of a round. Cheap to make; borrows the round.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    round: &'a Round,
    t: u32,
}

/// A character's state, as a renderer colours it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CharState {
    /// Typed as the text has it.
    Correct,
    /// Typed as something else.
    Wrong,
    /// Skipped: its word was committed without it.
    Missed,
    /// Typed past the word's end.
    Extra,
    /// Not typed yet.
    Pending,
}

/// One character to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Glyph {
    /// What to draw: the text's character, or the typed one for [`CharState::Extra`].
    pub ch: char,
    /// What was typed in its place, if anything.
    pub typed: Option<char>,
    /// How it fared.
    pub state: CharState,
}

/// Where a word stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WordStatus {
    /// Committed with space (or WORDS' last word, typed): `correct` if typed exactly.
    Done {
        /// Typed exactly.
        correct: bool,
    },
    /// Being typed.
    Current,
    /// Not reached yet.
    Ahead,
}

/// One word of the text with what was typed of it.
#[derive(Clone, Copy, Debug)]
pub struct WordView<'a> {
    /// Its place in the stream, from 0.
    pub index: usize,
    /// The stream offset, in characters, of its first character (one space between words).
    pub offset: u32,
    /// Where it stands.
    pub status: WordStatus,
    target: &'a str,
    typed: &'a [char],
}

impl<'a> WordView<'a> {
    /// The word as the text has it.
    pub fn target(&self) -> &'a str {
        self.target
    }

    /// What has been typed of it.
    pub fn typed(&self) -> &'a [char] {
        self.typed
    }

    /// Its characters with their states, extras after the word's own.
    pub fn glyphs(&self) -> impl Iterator<Item = Glyph> + 'a {
        let done = matches!(self.status, WordStatus::Done { .. });
        let typed = self.typed;
        let own = self.target.chars().enumerate().map(move |(i, ch)| {
            let t = typed.get(i).copied();
            let state = match t {
                Some(t) if t == ch => CharState::Correct,
                Some(_) => CharState::Wrong,
                None if done => CharState::Missed,
                None => CharState::Pending,
            };
            Glyph {
                ch,
                typed: t,
                state,
            }
        });
        let extra = typed
            .iter()
            .skip(self.target.chars().count())
            .map(|&ch| Glyph {
                ch,
                typed: Some(ch),
                state: CharState::Extra,
            });
        own.chain(extra)
    }
}

impl<'a> View<'a> {
    pub(crate) fn new(round: &'a Round, t: u32) -> View<'a> {
        View { round, t }
    }

    /// The moment this view shows.
    pub fn at(&self) -> u32 {
        self.t
    }

    /// The round's mode.
    pub fn mode(&self) -> Mode {
        self.round.mode()
    }

    /// How many words the text has, when it has an end (WORDS, a quote, a custom text).
    pub fn word_count(&self) -> Option<u32> {
        self.round.word_count()
    }

    /// Whether the clock has started (the first input arrived).
    pub fn started(&self) -> bool {
        self.round.started().is_some()
    }

    /// Whether the round is over at this moment.
    pub fn over(&self) -> bool {
        self.round.is_over(self.t)
    }

    /// The word being typed.
    pub fn current(&self) -> usize {
        self.round.current()
    }

    /// How many words are drawn so far: always [`crate::LOOKAHEAD`] past the current one.
    pub fn drawn(&self) -> usize {
        self.round.drawn()
    }

    /// Word `i`, if drawn.
    pub fn word(&self, i: usize) -> Option<WordView<'a>> {
        let round = self.round;
        if i >= round.drawn() {
            return None;
        }
        let target = round.target(i);
        let status = match i.cmp(&round.current()) {
            core::cmp::Ordering::Equal if !round.closed() => WordStatus::Current,
            core::cmp::Ordering::Less | core::cmp::Ordering::Equal => WordStatus::Done {
                correct: round.input(i).iter().copied().eq(target.chars()),
            },
            core::cmp::Ordering::Greater => WordStatus::Ahead,
        };
        Some(WordView {
            index: i,
            offset: round.offset(i),
            status,
            target,
            typed: round.input(i),
        })
    }

    /// The caret: before glyph `.1` of word `.0`.
    pub fn caret(&self) -> (usize, usize) {
        let cur = self.round.current();
        (cur, self.round.input(cur).len())
    }

    /// Time played, from the first keystroke to now or the round's end.
    pub fn elapsed_ms(&self) -> u32 {
        let Some(start) = self.round.started() else {
            return 0;
        };
        let now = match self.round.ends_at() {
            Some(end) => u64::from(self.t).min(end),
            None => self.t.into(),
        };
        u32::try_from(now.saturating_sub(start.into())).unwrap_or(u32::MAX)
    }

    /// The round so far, as the results would count it: wpm and accuracy in hundredths;
    /// `None` before the first key, or in the first second (a rate over a few keys says
    /// nothing). For the live stats while typing: no rule reads it.
    pub fn live(&self) -> Option<(u32, u16)> {
        let ms = self.elapsed_ms();
        if !self.started() || ms < 1_000 {
            return None;
        }
        Some(self.round.live(ms))
    }

    /// BLITZ and DRILL: what is left of the clock.
    pub fn time_left_ms(&self) -> Option<u32> {
        let secs = self.mode().clock_secs()?;
        Some((secs * 1000).saturating_sub(self.elapsed_ms()))
    }

    /// Heat, 0–100.
    pub fn heat(&self) -> u8 {
        self.round.heat(self.t)
    }

    /// The heat's tier.
    pub fn tier(&self) -> Tier {
        self.round.tier(self.t)
    }

    /// HOT PURSUIT: the flame's place in the stream, in thousandths of a character; word
    /// offsets ([`WordView::offset`]) are in the same units ÷ 1000.
    pub fn flame(&self) -> Option<i64> {
        self.round.flame_milli_chars(self.t)
    }

    /// HOT PURSUIT: the level.
    pub fn level(&self) -> Option<u8> {
        self.round.level()
    }
}

impl fmt::Display for View<'_> {
    /// A text rendering for golden files and screen readers' tests: a status line, then
    /// the text from the first word to three past the caret. A typed-wrong character
    /// shows as `[typed/text]`, a missed one as `(c)`, an extra one as `{c}`, the caret as
    /// `|`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {} ms", self.mode(), self.t)?;
        if let Some(left) = self.time_left_ms() {
            write!(f, ", {} s left", Hundredths(left / 10))?;
        }
        write!(f, ", heat {} {}", self.heat(), self.tier())?;
        if let (Some(flame), Some(level)) = (self.flame(), self.level()) {
            write!(f, ", lv{level}, flame at {flame}")?;
        }
        if self.over() {
            write!(f, ", over")?;
        }
        writeln!(f)?;
        let (caret_word, caret_glyph) = self.caret();
        for i in 0..=caret_word + 3 {
            let Some(word) = self.word(i) else { break };
            if i > 0 {
                f.write_str(" ")?;
            }
            for (k, g) in word.glyphs().enumerate() {
                if i == caret_word && k == caret_glyph {
                    f.write_str("|")?;
                }
                match g.state {
                    CharState::Correct | CharState::Pending => write!(f, "{}", g.ch)?,
                    CharState::Wrong => {
                        let typed = g.typed.unwrap_or('?').escape_debug();
                        write!(f, "[{typed}/{}]", g.ch)?
                    }
                    CharState::Missed => write!(f, "({})", g.ch)?,
                    CharState::Extra => write!(f, "{{{}}}", g.ch.escape_debug())?,
                }
            }
            if i == caret_word && caret_glyph >= word.glyphs().count() {
                f.write_str("|")?;
            }
        }
        writeln!(f)
    }
}
