//! A round: the rules, of whichever [`Rules`] it plays by, as a state machine fed
//! `(ms, Op)` pairs.
//!
//! Everything here follows from the inputs and their times. Heat, the flame and the
//! clock are kept as a value at a moment plus a linear rate, so looking at the round
//! (a frame, a tick) never changes it.

use core::fmt;

use crate::heat::{self, Streak, Tier};
use crate::mode::Base;
use crate::replay::{HEAD_MOST, INPUT_MOST, Input, Op, Replay, TextFault, varint_len};
use crate::score::{self, CharCounts, Sample, Score};
use crate::text::{self, Words};
use crate::{Mode, Rules};

/// Characters a word may run past its end; keys beyond are ignored.
pub const MAX_EXTRA: usize = 20;
/// Words the round keeps drawn past the caret, for renderers to lay out.
pub const LOOKAHEAD: usize = 64;
/// The chart keeps one sample a second for a round's first 8 hours.
pub const MAX_SAMPLES: usize = 8 * 3600;

/// Inputs a round takes before it counts its replay's bytes: fewer can't reach
/// `MAX_BYTES` however long the header, the text and each input (and 10 bytes of count,
/// 3 of ZEN's room to end), so most rounds never pay the three varint lengths a key that
/// counting costs (docs/PERFORMANCE.md).
const UNCOUNTED_INPUTS: usize = (crate::MAX_BYTES - HEAD_MOST - 10 - 3) / INPUT_MOST;

/// HOT PURSUIT positions count twelve thousand steps a character, so that a flame at
/// `w` wpm moves exactly `w` steps a millisecond (w × 5 chars a minute).
pub const STEPS_PER_CHAR: i64 = 12_000;
/// The flame starts this many characters behind the caret.
pub const FLAME_START_GAP: i64 = 30;
/// The flame is never further behind than this: it is dragged along, and heat is 0 here.
pub const FLAME_MAX_LEAD: i64 = 40;
/// The level rises by one every this many correct words.
pub const WORDS_PER_LEVEL: u32 = 10;

/// The flame's speed at `level`: 15 + 5 × level wpm (lv1 20 wpm, lv7 50, lv20 115).
pub const fn flame_wpm(level: u32) -> i64 {
    15 + 5 * level as i64
}

/// What an input did, for the shell to draw, play or save. Nothing here needs acting on
/// for the rules to hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// This input started the round's clock.
    pub started: bool,
    /// A keystroke was judged: `Some(true)` if correct.
    pub judged: Option<bool>,
    /// A word was committed: `Some(true)` if typed correctly.
    pub committed: Option<bool>,
    /// HOT PURSUIT rose to this level.
    pub level_up: Option<u8>,
    /// The round is over: ZEN's End, or the flame caught a caret that stepped back.
    pub finished: bool,
    /// The input changed nothing (space at a word's start, backspace into a correct
    /// word, a character past [`MAX_EXTRA`]).
    pub ignored: bool,
}

/// Why the round would not take an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// The round had already ended, at this ms.
    Late {
        /// When the round ended.
        ended_at: u64,
    },
    /// The input is earlier than the one before it.
    Backwards {
        /// The time of the input before.
        last: u32,
    },
    /// End is ZEN's; other modes end by their clock or the flame.
    EndOutsideZen,
    /// The round's replay would pass [`MAX_BYTES`](crate::MAX_BYTES), which no decoder
    /// reads: the round holds all a replay can.
    Full,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Late { ended_at } => {
                write!(f, "an input after the round ended at {ended_at} ms")
            }
            Refusal::Backwards { last } => write!(f, "an input earlier than the one at {last} ms"),
            Refusal::EndOutsideZen => f.write_str("an End outside ZEN"),
            Refusal::Full => write!(
                f,
                "the round holds all a replay can ({} bytes)",
                crate::MAX_BYTES
            ),
        }
    }
}

impl std::error::Error for Refusal {}

/// One round being played. `Clone` is a snapshot.
#[derive(Clone, Debug)]
pub struct Round {
    rules: Rules,
    mode: Mode,
    seed: u64,
    /// The stream the words are drawn from; `None` for a given text (a quote, a custom
    /// text), which is all in `text` from the start.
    words: Option<Words>,
    /// Words kept drawn past the current one: [`LOOKAHEAD`], for renderers to lay out,
    /// but none while a replay plays (every word is drawn when the caret reaches it, and
    /// the rest after).
    ahead: usize,
    /// Drawn words: word `i` is `spans[i]`, a list word or a part of `text` (the words
    /// made with marks or digits, one after another; or the given text).
    text: String,
    spans: Vec<Span>,
    /// How many words the text has, when it ends: WORDS's count, a given text's words.
    count: Option<u32>,
    /// The text has an end, and its last word is done (typed, or committed wrong with
    /// space).
    closed: bool,
    /// Every typed character of every word so far; word `i`'s input starts at
    /// `starts[i]`, and the last entry is the current word.
    typed: Vec<char>,
    starts: Vec<usize>,
    /// How many of the current word's first typed characters are its first letters: kept
    /// as keys land, so that no key reads the word over again.
    good: usize,
    /// The committed words' characters by what became of them, kept as words are
    /// committed: a word committed right counts its letters without reading them, and
    /// only a mistyped one, which may be reopened, is read (reading every word at the
    /// end was a fourteenth of a verification).
    committed: CharCounts,
    /// Inputs as recorded, for [`Round::replay`], if it `records` them: a replay scored
    /// alone has them already (and copying them was a thirtieth of a verification).
    inputs: Vec<Input>,
    records: bool,
    /// The bytes [`Round::replay`] would encode to, but for the input count's varint:
    /// counted only from [`UNCOUNTED_INPUTS`] on, when a replay could near `MAX_BYTES`.
    encoded: Option<usize>,
    started: Option<u32>,
    last: u32,
    last_stroke: Option<u32>,
    ends_at: Option<u64>,
    keys: u32,
    correct_keys: u32,
    correct_words: u32,
    /// Characters of correct words, one space each included.
    correct_word_chars: u32,
    streak: Streak,
    flame: Option<Flame>,
    /// Whether heat is the flame's closeness: VERSION 1's HOT PURSUIT. Asked three times a
    /// key, so kept.
    flame_heat: bool,
    peak_milli: i64,
    chart: Chart,
}

/// A drawn word, how many `char`s it has, and where it starts in the stream (in
/// characters, a space between words). When its `char`s are as many as its bytes (ASCII,
/// every English word), its letters are read as bytes, which keeps judging a key as cheap
/// as it was before words could be other than ASCII.
#[derive(Clone, Copy, Debug)]
struct Span {
    word: Word,
    chars: u32,
    offset: u32,
}

/// Where a drawn word is: its list's, as the list has it, or made in [`Round`]'s text.
#[derive(Clone, Copy, Debug)]
enum Word {
    Listed(&'static str),
    Made { start: u32, end: u32 },
}

/// HOT PURSUIT's flame: where it was at a moment, and its level there.
#[derive(Clone, Debug)]
struct Flame {
    pos: i64,
    at: u32,
    level: u32,
    /// The flame waits for the first keystroke.
    running: bool,
}

impl Flame {
    fn at(&self, t: u32) -> i64 {
        if !self.running {
            return self.pos;
        }
        self.pos + flame_wpm(self.level) * i64::from(t.saturating_sub(self.at))
    }
}

#[derive(Clone, Debug)]
struct Chart {
    samples: Vec<Sample>,
    /// When the second in progress closes, in ms since the start (`u64::MAX` once the
    /// chart is full): one comparison a key.
    closes: u64,
    /// The round's keystrokes and mistakes when the second in progress began: a second's
    /// own are the round's since, with nothing counted a key.
    keys_at: u32,
    errors_at: u32,
}

impl Chart {
    /// An empty chart; natively with room for a clock's samples, a second each, which
    /// spares a verification growing it five times (in the browser, the bytes count more).
    fn new(mode: Mode) -> Chart {
        let samples = if cfg!(target_arch = "wasm32") {
            Vec::new()
        } else {
            Vec::with_capacity(mode.clock_secs().map_or(0, |s| s as usize + 1))
        };
        Chart {
            samples,
            closes: 1000,
            keys_at: 0,
            errors_at: 0,
        }
    }

    /// Whether a second has closed by `elapsed` ms since the start.
    fn due(&self, elapsed: u64) -> bool {
        elapsed >= self.closes
    }

    /// Closes every whole second that ends by `elapsed`. Nothing is typed meanwhile, so
    /// the correct characters stay `correct_now` throughout, and the round's keystrokes
    /// and mistakes `keys` and `errors`.
    fn roll(&mut self, elapsed: u64, correct_now: u32, keys: u32, errors: u32) {
        while self.due(elapsed) {
            self.samples.push(Sample {
                wpm_x100: score::rate_x100(correct_now.into(), self.closes),
                raw_x100: score::rate_x100((keys - self.keys_at).into(), 1000),
                errors: errors - self.errors_at,
            });
            self.keys_at = keys;
            self.errors_at = errors;
            self.closes = if self.samples.len() < MAX_SAMPLES {
                self.closes + 1000
            } else {
                u64::MAX
            };
        }
    }
}

impl Round {
    /// A fresh round of `mode` whose text is drawn from `seed`, or is the mode's quote.
    ///
    /// # Panics
    /// If the mode's language has no list in this build yet (see
    /// [`words::install`](crate::words::install)), if it is a quote this build doesn't
    /// have (see [`quotes::install`](crate::quotes::install)), or if it is CUSTOM TEXT,
    /// whose text [`Round::custom`] takes; [`Replay::setup`] refuses instead.
    pub fn new(mode: Mode, seed: u64) -> Round {
        Round::under(Rules::NEWEST, mode, seed)
    }

    /// [`Round::new`] by `rules`: an old replay's round, played as it was recorded.
    ///
    /// # Panics
    /// As [`Round::new`].
    pub fn under(rules: Rules, mode: Mode, seed: u64) -> Round {
        Round::made(rules, mode, seed, LOOKAHEAD)
    }

    /// [`Round::under`], keeping `ahead` words drawn past the current one.
    fn made(rules: Rules, mode: Mode, seed: u64, ahead: usize) -> Round {
        match mode.base() {
            Base::Custom => panic!("a CUSTOM TEXT round is made by Round::custom"),
            Base::Quote(n) => {
                let language = mode.prose().language;
                let passage = crate::quotes::passage(language, n)
                    .unwrap_or_else(|| panic!("no quote {} in {language}", n.get()));
                Round::build(rules, mode, seed, None, passage.text, ahead)
            }
            _ => {
                let words = text::words_of(mode, seed);
                Round::build(rules, mode, seed, Some(words), "", ahead)
            }
        }
    }

    /// A fresh CUSTOM TEXT round on `text`, if it is one a round plays
    /// ([`text::check`]); `seed` is the round's, to make two rounds on one text two
    /// replays (the game's own seed, as for any round).
    pub fn custom(text: &str, seed: u64) -> Result<Round, TextFault> {
        Round::custom_in(Mode::CUSTOM, text, seed)
    }

    /// [`Round::custom`] in `mode`, CUSTOM TEXT with its strict rules, if any.
    ///
    /// # Panics
    /// If `mode` isn't CUSTOM TEXT.
    pub fn custom_in(mode: Mode, text: &str, seed: u64) -> Result<Round, TextFault> {
        Round::custom_under(Rules::NEWEST, mode, text, seed)
    }

    /// [`Round::custom_in`] by `rules`.
    ///
    /// # Panics
    /// If `mode` isn't CUSTOM TEXT.
    pub fn custom_under(
        rules: Rules,
        mode: Mode,
        text: &str,
        seed: u64,
    ) -> Result<Round, TextFault> {
        assert!(
            matches!(mode.base(), Base::Custom),
            "{mode} is no CUSTOM TEXT"
        );
        text::check(text)?;
        Ok(Round::build(rules, mode, seed, None, text, LOOKAHEAD))
    }

    fn build(
        rules: Rules,
        mode: Mode,
        seed: u64,
        words: Option<Words>,
        given: &str,
        ahead: usize,
    ) -> Round {
        let flame = match mode.base() {
            Base::Pursuit(level) => Some(Flame {
                pos: -FLAME_START_GAP * STEPS_PER_CHAR,
                at: 0,
                level: level.get().into(),
                running: false,
            }),
            _ => None,
        };
        let mut round = Round {
            rules,
            mode,
            seed,
            words,
            ahead,
            text: String::new(),
            spans: Vec::with_capacity(2 * LOOKAHEAD),
            count: mode.word_count(),
            closed: false,
            typed: Vec::with_capacity(256),
            starts: Vec::with_capacity(2 * LOOKAHEAD),
            good: 0,
            committed: CharCounts::default(),
            inputs: Vec::new(),
            records: true,
            encoded: None,
            started: None,
            last: 0,
            last_stroke: None,
            ends_at: None,
            keys: 0,
            correct_keys: 0,
            correct_words: 0,
            correct_word_chars: 0,
            streak: Streak::default(),
            flame_heat: flame.is_some() && rules.flame_is_heat(),
            flame,
            peak_milli: 0,
            chart: Chart::new(mode),
        };
        round.starts.push(0);
        if round.words.is_none() {
            round.lay_out(given);
        }
        round.draw_ahead();
        round.peak_milli = round.heat_milli(0);
        round
    }

    /// A given text's words, all at once: a checked text's words are split by single
    /// spaces.
    fn lay_out(&mut self, given: &str) {
        self.text = given.to_owned();
        let mut offset = 0;
        let mut start = 0;
        for word in given.split(' ') {
            let chars = word.chars().count() as u32;
            let end = start + word.len();
            self.spans.push(Span {
                word: Word::Made {
                    start: start as u32,
                    end: end as u32,
                },
                chars,
                offset,
            });
            offset += chars + 1;
            start = end + 1;
        }
        self.count = Some(self.spans.len() as u32);
    }

    /// How many words the text has, when it has an end: WORDS's count, or a quote's or a
    /// custom text's words.
    pub fn word_count(&self) -> Option<u32> {
        self.count
    }

    /// A custom text's text; `None` for the other modes.
    pub fn custom_text(&self) -> Option<&str> {
        matches!(self.mode.base(), Base::Custom).then_some(self.text.as_str())
    }

    /// The rules it plays by.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The round's mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The round's text seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// When the first input arrived: the clock's start.
    pub fn started(&self) -> Option<u32> {
        self.started
    }

    /// The time of the last input taken (0 before any): the next may not be earlier.
    pub fn last_input(&self) -> u32 {
        self.last
    }

    /// How many inputs it has taken.
    pub fn inputs(&self) -> usize {
        self.inputs.len()
    }

    /// When the round ends if no further input changes it: BLITZ's clock, ZEN's End, the
    /// moment the flame reaches the caret. `None` before the first input, and in ZEN
    /// until End.
    pub fn ends_at(&self) -> Option<u64> {
        self.ends_at
    }

    /// Whether the round is over at `t`.
    pub fn is_over(&self, t: u32) -> bool {
        self.ends_at.is_some_and(|end| u64::from(t) >= end)
    }

    /// The replay of every input taken so far.
    pub fn replay(&self) -> Replay {
        Replay {
            engine: self.rules.version(),
            mode: self.mode.key(),
            seed: self.seed,
            text: self.custom_text().map(str::to_owned),
            inputs: self.inputs.clone(),
        }
    }

    /// Takes one input at `t` ms since the round's start (times never go back).
    pub fn apply(&mut self, t: u32, op: Op) -> Result<Effects, Refusal> {
        self.take(t, op)
    }

    /// [`Round::apply`], inlined natively into [`Replay::play_each`]'s loop: the call, and
    /// its result through memory, were a tenth of a verification. Not in the browser, where
    /// a second copy would cost its bytes.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn take(&mut self, t: u32, op: Op) -> Result<Effects, Refusal> {
        if t < self.last {
            return Err(Refusal::Backwards { last: self.last });
        }
        if let Some(ended_at) = self.ends_at.filter(|&end| u64::from(t) >= end) {
            return Err(Refusal::Late { ended_at });
        }
        if op == Op::End && !self.mode.is_zen() {
            return Err(Refusal::EndOutsideZen);
        }
        if self.inputs.len() >= UNCOUNTED_INPUTS {
            self.count_bytes(t, op)?;
        }
        let mut fx = Effects::default();
        if self.started.is_none() {
            self.started = Some(t);
            fx.started = true;
            // BLITZ's and a drill's clock runs from the first key.
            if let Some(secs) = self.mode.clock_secs() {
                self.ends_at = Some(u64::from(t) + u64::from(secs) * 1000);
            }
            if let Some(flame) = &mut self.flame {
                flame.at = t;
                flame.running = true;
            }
        }
        if self.records {
            self.inputs.push(Input {
                dt: t - self.last,
                op,
            });
        }
        self.last = t;
        if let Some(start) = self.started {
            let elapsed = u64::from(t - start);
            if self.chart.due(elapsed) {
                let now = self.correct_chars_now();
                let (keys, errors) = (self.keys, self.keys - self.correct_keys);
                self.chart.roll(elapsed, now, keys, errors);
            }
        }
        if let Some(flame) = &mut self.flame {
            flame.pos = flame.at(t);
            flame.at = t;
        }
        if self.flame_heat {
            // The flame nears between keys: its heat may peak just before this one.
            self.peak_milli = self.peak_milli.max(self.heat_milli(t));
        }

        match op {
            Op::End => {
                self.ends_at = Some(t.into());
                fx.finished = true;
            }
            Op::Backspace => self.backspace(&mut fx),
            Op::Char(' ') => self.space(t, &mut fx),
            Op::Char(c) => self.char(t, c, &mut fx),
        }

        // A clock was set by the first key and ZEN ends by End; a text with an end closes
        // with its last word, and HOT PURSUIT when the flame catches the caret.
        if self.closed {
            self.ends_at = Some(t.into());
            fx.finished = true;
        } else if self.flame.is_some() {
            let caught = self.chase(t);
            fx.finished = caught == u64::from(t);
            self.ends_at = Some(caught);
        }
        if self.flame_heat {
            self.peak_milli = self.peak_milli.max(self.heat_milli(t));
        }
        // What is kept as keys land is what reading the word afresh gives.
        debug_assert_eq!(
            self.good,
            self.good_prefix(self.cur(), self.current_input())
        );
        Ok(fx)
    }

    /// Refuses an input that would take the replay past `MAX_BYTES`, counting its bytes.
    /// Every replay a decoder reads fits, so no recorded round is refused here: only a
    /// round fed more than any replay holds (a flood of keys) stops growing.
    fn count_bytes(&mut self, t: u32, op: Op) -> Result<(), Refusal> {
        let encoded = match self.encoded {
            Some(bytes) => bytes,
            None => {
                let replay = self.replay();
                replay.encoded_len() - varint_len(replay.inputs.len() as u64)
            }
        };
        let input = varint_len(u64::from(t - self.last)) + varint_len(op.code().into());
        let count = self.inputs.len() as u64;
        let mut after = encoded + input + varint_len(count + 1);
        if self.mode.is_zen() && op != Op::End {
            // Room kept for an End at the same ms (two bytes, and the count's growth): a
            // full ZEN round can still end.
            after += 2 + varint_len(count + 2) - varint_len(count + 1);
        }
        if after > crate::MAX_BYTES {
            self.encoded = Some(encoded);
            return Err(Refusal::Full);
        }
        self.encoded = Some(encoded + input);
        Ok(())
    }

    fn space(&mut self, t: u32, fx: &mut Effects) {
        if self.current_input().is_empty() {
            fx.ignored = true;
            return;
        }
        let correct = self.current_is_correct();
        self.judge(t, correct, fx);
        if !correct && self.mode.strict().stop {
            // Stop on error: a space before the word is done is a wrong key, not typed.
            return;
        }
        if self.is_last_word() {
            // WORDS: a space after the last word ends the round (it can only be wrong:
            // typing the last letter right already did).
            self.close(correct, fx);
        } else if correct || !self.mode.is_pursuit() {
            // HOT PURSUIT moves on only from a correct word: skipping ahead would outrun
            // the flame for free.
            self.commit(correct, fx);
        }
    }

    /// Inlined natively, as [`Round::take`] is: most inputs are a character.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn char(&mut self, t: u32, c: char, fx: &mut Effects) {
        let i = self.current_input().len();
        if i >= self.spans[self.cur()].chars as usize + MAX_EXTRA {
            fx.ignored = true;
            return;
        }
        let correct = self.letter(self.cur(), i) == Some(c);
        if !correct && self.mode.strict().stop {
            // Stop on error: judged (an error, as every wrong key is) and not typed; the
            // caret waits for the right letter.
            self.judge(t, false, fx);
            return;
        }
        self.typed.push(c);
        if correct && self.good == i {
            self.good += 1;
        }
        self.judge(t, correct, fx);
        // WORDS ends the moment its last word is typed right: no space after it.
        if correct && self.is_last_word() && self.current_is_correct() {
            self.close(true, fx);
        }
    }

    /// WORDS, a quote, a custom text: whether the caret is on the text's last word.
    fn is_last_word(&self) -> bool {
        self.count.is_some_and(|n| self.cur() + 1 == n as usize)
    }

    /// WORDS: the last word is done, so the round ends; it counts its characters
    /// without a space after, since none is typed.
    fn close(&mut self, correct: bool, fx: &mut Effects) {
        if correct {
            self.correct_words += 1;
            self.correct_word_chars += self.spans[self.cur()].chars;
        }
        self.closed = true;
        fx.committed = Some(correct);
    }

    fn backspace(&mut self, fx: &mut Effects) {
        let cur = self.cur();
        if self.mode.strict().no_backspace {
            // No backspace: kept in the replay as typed, and it does nothing.
            fx.ignored = true;
        } else if !self.current_input().is_empty() {
            // The right part of the word shrinks only if the deleted character was in it.
            if self.good == self.current_input().len() {
                self.good -= 1;
            }
            self.typed.pop();
        } else if cur > 0 && !self.word_is_correct(cur - 1) {
            // Back into a mistyped word to fix it; a correct word stays done.
            self.committed -= self.word_counts(cur - 1, true);
            self.starts.pop();
            self.good = self.good_prefix(cur - 1, self.current_input());
        } else {
            fx.ignored = true;
        }
    }

    /// Inlined natively, as [`Round::take`] is.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn judge(&mut self, t: u32, correct: bool, fx: &mut Effects) {
        self.keys += 1;
        self.correct_keys += u32::from(correct);
        if !self.flame_heat {
            self.streak.stroke(t, self.last_stroke, correct, self.rules);
            // The streak only cools between strokes, so its peak is at one: heat needs
            // looking at here alone (a third of a key's work when it was looked at
            // before and after every input; docs/PERFORMANCE.md).
            self.peak_milli = self.peak_milli.max(self.streak.milli());
        }
        self.last_stroke = Some(t);
        fx.judged = Some(correct);
    }

    fn commit(&mut self, correct: bool, fx: &mut Effects) {
        let cur = self.cur();
        if correct {
            self.correct_words += 1;
            self.correct_word_chars += self.spans[cur].chars + 1;
            self.committed.correct += self.spans[cur].chars;
        } else {
            self.committed += self.word_counts(cur, true);
        }
        self.starts.push(self.typed.len());
        self.good = 0;
        self.draw_ahead();
        fx.committed = Some(correct);
        if let Some(flame) = &mut self.flame
            && correct
            && self.correct_words.is_multiple_of(WORDS_PER_LEVEL)
        {
            flame.level += 1;
            fx.level_up = Some(u8::try_from(flame.level).unwrap_or(u8::MAX));
        }
    }

    /// Drags the flame to within [`FLAME_MAX_LEAD`] of the caret and returns when it
    /// reaches the caret if nothing else happens (`t` if it already has).
    fn chase(&mut self, t: u32) -> u64 {
        let caret = self.caret_steps();
        let Some(flame) = &mut self.flame else {
            return u64::MAX;
        };
        flame.pos = flame.pos.max(caret - FLAME_MAX_LEAD * STEPS_PER_CHAR);
        let gap = caret - flame.pos;
        if gap <= 0 {
            return t.into();
        }
        let speed = flame_wpm(flame.level);
        u64::from(t) + ((gap + speed - 1) / speed) as u64
    }

    /// The caret's place in the stream for the flame: the current word's start plus the
    /// correctly typed part of it.
    fn caret_steps(&self) -> i64 {
        (i64::from(self.spans[self.cur()].offset) + self.good as i64) * STEPS_PER_CHAR
    }

    fn cur(&self) -> usize {
        self.starts.len() - 1
    }

    fn draw_ahead(&mut self) {
        let Some(words) = &mut self.words else {
            return;
        };
        let count = self.count.map(|n| n as usize);
        let want = (self.starts.len() + self.ahead).min(count.unwrap_or(usize::MAX));
        while self.spans.len() < want {
            let offset = self.spans.last().map_or(0, |s| s.offset + s.chars + 1);
            let start = self.text.len();
            let left = count.map(|n| (n - self.spans.len()) as u32);
            let span = match words.next_word(&mut self.text, left) {
                // English's lists are a–z only: no word of theirs needs counting.
                Some(listed) if self.mode.prose().language.is_ascii() => Span {
                    word: Word::Listed(listed),
                    chars: listed.len() as u32,
                    offset,
                },
                Some(listed) => Span {
                    word: Word::Listed(listed),
                    chars: listed.chars().count() as u32,
                    offset,
                },
                None => Span {
                    word: Word::Made {
                        start: start as u32,
                        end: self.text.len() as u32,
                    },
                    chars: self.text.get(start..).unwrap_or_default().chars().count() as u32,
                    offset,
                },
            };
            self.spans.push(span);
        }
    }

    /// Word `i` of the text (drawn: `i` < `spans.len()`).
    pub(crate) fn target(&self, i: usize) -> &str {
        match self.spans[i].word {
            Word::Listed(word) => word,
            // `get`, not an index: the same word, without an index's panic in the wasm.
            Word::Made { start, end } => {
                (self.text.get(start as usize..end as usize)).unwrap_or_default()
            }
        }
    }

    /// Letter `k` of word `i`, if it has one.
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    fn letter(&self, i: usize, k: usize) -> Option<char> {
        let word = self.target(i);
        if self.spans[i].chars as usize == word.len() {
            return word.as_bytes().get(k).map(|&b| char::from(b));
        }
        nth_char(word, k)
    }

    /// How many of `input`'s first characters are word `i`'s first letters.
    fn good_prefix(&self, i: usize, input: &[char]) -> usize {
        let word = self.target(i);
        if self.spans[i].chars as usize == word.len() {
            let bytes = word.as_bytes();
            return input
                .iter()
                .zip(bytes)
                .take_while(|&(&c, &b)| c == char::from(b))
                .count();
        }
        input
            .iter()
            .zip(word.chars())
            .take_while(|&(&c, t)| c == t)
            .count()
    }

    /// The typed input of word `i` (committed or current).
    pub(crate) fn input(&self, i: usize) -> &[char] {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.typed.len());
        self.starts.get(i).map_or(&[], |&s| &self.typed[s..end])
    }

    fn current_input(&self) -> &[char] {
        self.input(self.cur())
    }

    /// Whether the current word is typed right, whole.
    fn current_is_correct(&self) -> bool {
        let typed = self.current_input().len();
        typed == self.spans[self.cur()].chars as usize && self.good == typed
    }

    fn word_is_correct(&self, i: usize) -> bool {
        let input = self.input(i);
        input.len() == self.spans[i].chars as usize && self.good_prefix(i, input) == input.len()
    }

    /// Correct word characters at this moment, counting the current word while what is
    /// typed of it is right (the round may end mid-word).
    fn correct_chars_now(&self) -> u32 {
        if self.closed {
            return self.correct_word_chars;
        }
        let typed = self.current_input().len();
        self.correct_word_chars + if self.good == typed { typed as u32 } else { 0 }
    }

    /// Heat in thousandths at `t` (no later than the round's end).
    fn heat_milli(&self, t: u32) -> i64 {
        let t = match self.ends_at {
            Some(end) if u64::from(t) > end => end as u32,
            _ => t,
        };
        match &self.flame {
            Some(flame) if self.rules.flame_is_heat() => {
                let lead = FLAME_MAX_LEAD * STEPS_PER_CHAR;
                let gap = self.caret_steps() - flame.at(t);
                ((lead - gap) * heat::MAX / lead).clamp(0, heat::MAX)
            }
            _ => self.streak.at(t, self.rules),
        }
    }

    /// Heat at `t`, 0–100.
    pub fn heat(&self, t: u32) -> u8 {
        (self.heat_milli(t) / heat::MILLI) as u8
    }

    /// The heat tier at `t`.
    pub fn tier(&self, t: u32) -> Tier {
        Tier::of(self.heat(t))
    }

    /// HOT PURSUIT's level at this moment.
    pub fn level(&self) -> Option<u8> {
        self.flame
            .as_ref()
            .map(|f| u8::try_from(f.level).unwrap_or(u8::MAX))
    }

    /// The flame's place in the stream at `t`, in thousandths of a character (negative
    /// while it is behind the first word).
    pub fn flame_milli_chars(&self, t: u32) -> Option<i64> {
        let t = match self.ends_at {
            Some(end) if u64::from(t) > end => end as u32,
            _ => t,
        };
        let steps = self.flame.as_ref()?.at(t);
        Some(steps * 1000 / STEPS_PER_CHAR)
    }

    /// The score the round ends with if no further input arrives: `None` before the first
    /// input, and in ZEN until End.
    pub fn score(&self) -> Option<Score> {
        let start = self.started?;
        let end = self.ends_at?;
        let duration = end - u64::from(start);
        let end_t = u32::try_from(end).unwrap_or(u32::MAX);
        let correct_now = self.correct_chars_now();
        // Roll a copy of the chart to the end: looking at the score changes nothing.
        let mut rest = self.chart.clone();
        let (keys, errors) = (self.keys, self.keys - self.correct_keys);
        rest.roll(duration, correct_now, keys, errors);
        let part = duration % 1000;
        if part >= 500 && rest.samples.len() < MAX_SAMPLES {
            rest.samples.push(Sample {
                wpm_x100: score::rate_x100(correct_now.into(), duration),
                raw_x100: score::rate_x100((keys - rest.keys_at).into(), part),
                errors: errors - rest.errors_at,
            });
        }
        let samples = rest.samples;
        let peak = self.peak_milli.max(self.heat_milli(end_t));
        Some(Score {
            mode: self.mode,
            wpm_x100: score::rate_x100(correct_now.into(), duration),
            raw_x100: score::rate_x100(self.keys.into(), duration),
            accuracy_x100: score::percent_x100(self.correct_keys, self.keys),
            consistency_x100: score::consistency_x100(samples.iter().map(|s| s.raw_x100)),
            chars: self.char_counts(),
            words: self.correct_words,
            keys: self.keys,
            peak_heat: (peak / heat::MILLI) as u8,
            level: self.level(),
            duration_ms: u32::try_from(duration).unwrap_or(u32::MAX),
            samples,
        })
    }

    /// wpm and accuracy (hundredths) of the keys so far, over `ms` since the first.
    pub(crate) fn live(&self, ms: u32) -> (u32, u16) {
        (
            score::rate_x100(self.correct_chars_now().into(), ms.into()),
            score::percent_x100(self.correct_keys, self.keys),
        )
    }

    /// The round's characters by what became of them: the committed words' counts, and
    /// the current word's.
    fn char_counts(&self) -> CharCounts {
        let mut c = self.committed;
        // Untyped letters of the current word are not missed: the round ended before it
        // was committed (unless it was WORDS' last, committed wrong).
        c += self.word_counts(self.cur(), self.closed);
        c
    }

    /// Word `i`'s characters by what became of them; its untyped letters are missed if it
    /// is `done`.
    fn word_counts(&self, i: usize, done: bool) -> CharCounts {
        let input = self.input(i);
        let word = self.target(i);
        let len = self.spans[i].chars as usize;
        let typed = input.len().min(len);
        // A word whose chars are its bytes (ASCII, every English word) is read as bytes.
        let right = if len == word.len() {
            let bytes = word.bytes().map(char::from);
            input.iter().zip(bytes).filter(|&(&c, t)| c == t).count()
        } else {
            input
                .iter()
                .zip(word.chars())
                .filter(|&(&c, t)| c == t)
                .count()
        };
        CharCounts {
            correct: right as u32,
            wrong: (typed - right) as u32,
            missed: if done { (len - typed) as u32 } else { 0 },
            extra: (input.len() - typed) as u32,
        }
    }

    /// What to draw at `t`.
    pub fn view(&self, t: u32) -> crate::View<'_> {
        crate::View::new(self, t)
    }

    /// How many words are drawn.
    pub(crate) fn drawn(&self) -> usize {
        self.spans.len()
    }

    /// WORDS: whether the last word is done.
    pub(crate) fn closed(&self) -> bool {
        self.closed
    }

    /// Where word `i` (drawn) starts in the stream, in characters with a space between
    /// words.
    pub(crate) fn offset(&self, i: usize) -> u32 {
        self.spans[i].offset
    }

    pub(crate) fn current(&self) -> usize {
        self.cur()
    }
}

/// Letter `k` of a word beyond ASCII: apart natively, so that [`Round::letter`]'s ASCII
/// path is small enough to inline; in the browser, where bytes count more, one function.
#[cfg_attr(not(target_arch = "wasm32"), inline(never))]
fn nth_char(word: &str, k: usize) -> Option<char> {
    word.chars().nth(k)
}

/// Why a replay could not be played to a score.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayError {
    /// Recorded by rules this engine doesn't have (a newer engine's, or none's).
    OtherRules {
        /// The version in the replay.
        engine: u32,
    },
    /// A mode this build doesn't have.
    Mode(crate::ModeError),
    /// A language whose list this build doesn't have yet (the browser fetches lists).
    Unlisted(crate::Language),
    /// A language whose quotes this build doesn't have yet (the browser fetches them).
    Unquoted(crate::Language),
    /// A quote its language's corpus doesn't have.
    NoQuote(crate::Language, crate::QuoteNo),
    /// A CUSTOM TEXT replay without its text (format 1).
    NoText,
    /// A text in a replay of a mode that has its own (only CUSTOM TEXT carries one).
    NotCustom,
    /// A custom text that is not one a round plays (a replay made by hand: a decoded one
    /// is checked as it is read).
    Text(TextFault),
    /// The round refused an input.
    Refused {
        /// Which input, from 0.
        index: usize,
        /// Its time since the round started.
        at: u64,
        /// Why.
        why: Refusal,
    },
    /// The replay ends before its round does: nothing typed, or ZEN without End.
    NotOver,
    /// The inputs' times run past `u32` milliseconds.
    Clock,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::OtherRules { engine } => write!(
                f,
                "recorded by rules VERSION {engine}, which this engine doesn't have: it plays \
                 VERSION {}",
                Rules::versions()
            ),
            PlayError::Mode(e) => e.fmt(f),
            PlayError::Unlisted(language) => write!(
                f,
                "the {} word list is not loaded, so the round can't be played yet",
                language.name()
            ),
            PlayError::Unquoted(language) => write!(
                f,
                "the {} quotes are not loaded, so the round can't be played yet",
                language.name()
            ),
            PlayError::NoQuote(language, n) => write!(
                f,
                "there is no quote #{} in {}: it has {}",
                n.get(),
                language.name(),
                crate::quotes::passages(*language).map_or(0, <[_]>::len)
            ),
            PlayError::NoText => f.write_str(
                "a CUSTOM TEXT replay carries its text (format 2), and this one has none",
            ),
            PlayError::NotCustom => {
                f.write_str("the replay carries a text, which only a CUSTOM TEXT round does")
            }
            PlayError::Text(fault) => fault.fmt(f),
            PlayError::Refused { index, at, why } => {
                write!(f, "input {index} at {at} ms was refused: {why}")
            }
            PlayError::NotOver => f.write_str(
                "the replay ends before its round does (nothing typed, or ZEN without End)",
            ),
            PlayError::Clock => f.write_str("the inputs' times run past u32 milliseconds"),
        }
    }
}

impl std::error::Error for PlayError {}

impl Replay {
    /// The rules it was recorded by, if this engine has them.
    pub fn rules(&self) -> Result<Rules, PlayError> {
        Rules::of(self.engine).ok_or(PlayError::OtherRules {
            engine: self.engine,
        })
    }

    /// Parses the mode and gives a fresh round, by the rules that recorded it, to play the
    /// inputs into. Refuses rules this engine doesn't have, a mode this build doesn't
    /// have, or one whose list it hasn't loaded.
    pub fn setup(&self) -> Result<Round, PlayError> {
        self.setup_under(self.rules()?)
    }

    /// [`Replay::setup`] by `rules`, whatever recorded it.
    pub fn setup_under(&self, rules: Rules) -> Result<Round, PlayError> {
        self.round(rules, LOOKAHEAD)
    }

    /// [`Replay::setup_under`], keeping `ahead` words drawn past the current one.
    fn round(&self, rules: Rules, ahead: usize) -> Result<Round, PlayError> {
        let mode: Mode = self.mode.parse().map_err(PlayError::Mode)?;
        let language = mode.prose().language;
        match (mode.base(), &self.text) {
            (Base::Custom, Some(text)) => {
                return Round::custom_under(rules, mode, text, self.seed).map_err(PlayError::Text);
            }
            (Base::Custom, None) => return Err(PlayError::NoText),
            (_, Some(_)) => return Err(PlayError::NotCustom),
            (Base::Quote(n), None) => {
                let passages = crate::quotes::passages(language);
                let passages = passages.ok_or(PlayError::Unquoted(language))?;
                if usize::from(n.get()) > passages.len() {
                    return Err(PlayError::NoQuote(language, n));
                }
            }
            _ if language.words().is_none() => return Err(PlayError::Unlisted(language)),
            _ => {}
        }
        Ok(Round::made(rules, mode, self.seed, ahead))
    }

    /// Plays every input through this engine, by the rules that recorded them, and
    /// scores the round. Refuses rules this engine doesn't have, unknown modes, inputs the
    /// round refuses, and replays that end before the round.
    pub fn play(&self) -> Result<(Round, Score), PlayError> {
        self.play_under(self.rules()?)
    }

    /// What the replay would score by `rules` (the newest, to show an old round "under
    /// today's rules"); the score it has is [`Replay::play`]'s, which never changes.
    pub fn play_under(&self, rules: Rules) -> Result<(Round, Score), PlayError> {
        let (mut round, score) = self.play_inputs(rules, true, |_, _, _| {})?;
        // The round as a live one would be, its renderers' words drawn.
        round.ahead = LOOKAHEAD;
        round.draw_ahead();
        Ok((round, score))
    }

    /// The score alone, by the rules that recorded it: what verifying a replay needs, and
    /// less work than [`Replay::play`], whose round is drawn for a renderer.
    pub fn score(&self) -> Result<Score, PlayError> {
        self.play_each(|_, _, _| {})
    }

    /// [`Replay::score`], telling `each` what every input did as it lands: its time since
    /// the round started, the op, and its [`Effects`]. One pass gives the score and
    /// whatever a caller reads off the keystrokes (which were judged, which did nothing).
    pub fn play_each(&self, each: impl FnMut(u32, Op, Effects)) -> Result<Score, PlayError> {
        Ok(self.play_inputs(self.rules()?, false, each)?.1)
    }

    /// Plays the inputs into a fresh round by `rules`; the round `keeps` them if asked,
    /// and whenever it may need to count its bytes.
    fn play_inputs(
        &self,
        rules: Rules,
        keeps: bool,
        mut each: impl FnMut(u32, Op, Effects),
    ) -> Result<(Round, Score), PlayError> {
        // Words are drawn as the caret reaches them: drawing a renderer's lookahead, words
        // no key reaches, was a twentieth of a verification.
        let mut round = self.round(rules, 0)?;
        round.records = keeps || self.inputs.len() >= UNCOUNTED_INPUTS;
        // Room for every key typed, at once: growing there was a fortieth of a
        // verification.
        round.typed.reserve(self.inputs.len());
        let mut at = 0u64;
        for (index, input) in self.inputs.iter().enumerate() {
            at += u64::from(input.dt);
            let t = u32::try_from(at).map_err(|_| PlayError::Clock)?;
            let fx =
                round
                    .take(t, input.op)
                    .map_err(|why| PlayError::Refused { index, at, why })?;
            each(t, input.op, fx);
        }
        let score = round.score().ok_or(PlayError::NotOver)?;
        Ok((round, score))
    }
}
