//! The modes a round can be played in, with the text keys replays carry.
//!
//! A key is a base, then options, then a language: `time:30`, `words:25/p/n@de`,
//! `zen@ru`. docs/spec/replays.md has the grammar; [`Mode::key`] writes exactly one key
//! for each mode and [`Mode::from_str`] reads only that one.

use core::fmt;
use core::str::FromStr;

pub use crate::quotes::QuoteNo;
pub use crate::words::Language;

/// The lowest and highest level HOT PURSUIT can start from.
pub const PURSUIT_LEVELS: core::ops::RangeInclusive<u8> = 1..=20;

/// How a round is played and what its text is: a [`Base`], its [`Prose`] and how
/// [`Strict`] its rules are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mode {
    base: Base,
    prose: Prose,
    strict: Strict,
}

/// Strict typing: rules a player may add to a mode, each an option of its key. Neither
/// changes what a round without it plays out to (RULES.md, "Strict typing"), so they came
/// without a new VERSION.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Strict {
    /// `/s`, stop on error: a wrong key is judged (an error) and not typed; the caret
    /// waits for the right one.
    pub stop: bool,
    /// `/b`, no backspace: backspace does nothing.
    pub no_backspace: bool,
}

impl Strict {
    /// Neither: every mode's rules before strict typing came.
    pub const NONE: Strict = Strict {
        stop: false,
        no_backspace: false,
    };
}

/// How a round is played and how it ends. The enum's order means nothing ([`Mode::key`]
/// is what a replay carries), so reordering it breaks no replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// BLITZ: type until the clock, started by the first keystroke, runs out.
    Blitz(Blitz),
    /// WORDS: type a set number of words; the round ends with the last one.
    Words(WordCount),
    /// ZEN: no clock; the round ends with [`crate::Op::End`] (esc).
    Zen,
    /// HOT PURSUIT: a flame chases the caret from this level and the round ends when it
    /// catches up.
    Pursuit(StartLevel),
    /// DRILL: 30 s on words holding these letters, scored like BLITZ. Never ranked.
    Drill(Drill),
    /// QUOTE: one real passage, by its number in its language's corpus
    /// ([`crate::quotes`]); the round ends with its last character.
    Quote(QuoteNo),
    /// CUSTOM TEXT: the player's own text, which the replay carries (format 2); the round
    /// ends with its last character. Never ranked.
    Custom,
}

/// What a round's words are like beyond its list: punctuation, numbers, a language.
/// [`Prose::PLAIN`] is VERSION 1's text: lower-case English words and spaces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Prose {
    /// Capitals starting sentences, and `, . ; : ! ? ' " - ( )` as prose places them.
    pub punctuation: bool,
    /// Numbers among the words.
    pub numbers: bool,
    /// The list the words come from.
    pub language: Language,
}

impl Prose {
    /// Lower-case English words and spaces: every mode's text before options came.
    pub const PLAIN: Prose = Prose {
        punctuation: false,
        numbers: false,
        language: Language::English,
    };

    /// Whether it is [`Prose::PLAIN`].
    pub fn is_plain(&self) -> bool {
        *self == Prose::PLAIN
    }

    /// The key's tail: `/p`, `/n`, then `@code`, each only when it applies.
    pub fn key(&self) -> String {
        Mode::tail(*self, Strict::NONE)
    }
}

impl fmt::Display for Prose {
    /// What a title adds after the base's: ` · punctuation · numbers · français`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Mode::title_tail(f, *self, Strict::NONE)
    }
}

/// The clock of a DRILL round, in seconds.
pub const DRILL_SECS: u32 = 30;

/// The most letters one drill takes.
pub const DRILL_MAX: usize = 8;

/// A drill's letters: 1 to [`DRILL_MAX`] distinct lowercase ASCII letters, in the order
/// given (`qzx` and `xqz` are two spellings of two keys, and a title shows them as given),
/// and how its words are picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Drill {
    letters: [u8; DRILL_MAX],
    len: u8,
    pool: DrillPool,
}

/// How a drill draws its words from the list (RULES.md, "DRILL"). Both are VERSION 1:
/// the second came as a mode of its own, so the first's replays play as they did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrillPool {
    /// `drill:`, the first drills: every word holding a drilled letter, each as likely.
    Any,
    /// `drill2:`: every word holding a drilled letter, as likely as the drilled letters
    /// it holds. The game plays these.
    Weighted,
}

impl Drill {
    /// The drill of `letters` the game plays ([`DrillPool::Weighted`]), if they are 1 to 8
    /// distinct lowercase letters a–z.
    pub fn new(letters: &str) -> Option<Drill> {
        Drill::with(letters, DrillPool::Weighted)
    }

    /// The drill of `letters` drawing its words as `pool` says.
    pub fn with(letters: &str, pool: DrillPool) -> Option<Drill> {
        let bytes = letters.as_bytes();
        let distinct = bytes
            .iter()
            .enumerate()
            .all(|(i, b)| !bytes[..i].contains(b));
        if bytes.is_empty()
            || bytes.len() > DRILL_MAX
            || !distinct
            || !bytes.iter().all(u8::is_ascii_lowercase)
        {
            return None;
        }
        let mut out = [0; DRILL_MAX];
        out[..bytes.len()].copy_from_slice(bytes);
        Some(Drill {
            letters: out,
            len: bytes.len() as u8,
            pool,
        })
    }

    /// How it draws its words.
    pub fn pool(&self) -> DrillPool {
        self.pool
    }

    /// How many of `word`'s letters are drilled ones, each time it holds one.
    pub fn count(&self, word: &str) -> u32 {
        word.bytes()
            .filter(|b| self.letters().as_bytes().contains(b))
            .count() as u32
    }

    /// The letters, as given.
    pub fn letters(&self) -> &str {
        // Only ASCII letters are ever stored.
        core::str::from_utf8(&self.letters[..usize::from(self.len)]).unwrap_or_default()
    }

    /// Whether `word` holds any of the letters.
    pub fn hits(&self, word: &str) -> bool {
        word.bytes().any(|b| self.letters().as_bytes().contains(&b))
    }
}

/// BLITZ's clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Blitz {
    /// 15 seconds.
    S15,
    /// 30 seconds.
    S30,
    /// 60 seconds.
    S60,
    /// 120 seconds.
    S120,
}

impl Blitz {
    /// Every clock, shortest first.
    pub const ALL: [Blitz; 4] = [Blitz::S15, Blitz::S30, Blitz::S60, Blitz::S120];

    /// The clock's length in seconds.
    pub const fn secs(self) -> u32 {
        match self {
            Blitz::S15 => 15,
            Blitz::S30 => 30,
            Blitz::S60 => 60,
            Blitz::S120 => 120,
        }
    }
}

/// How many words a WORDS round is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WordCount {
    /// 10 words.
    W10,
    /// 25 words.
    W25,
    /// 50 words.
    W50,
    /// 100 words.
    W100,
}

impl WordCount {
    /// Every length, shortest first.
    pub const ALL: [WordCount; 4] = [
        WordCount::W10,
        WordCount::W25,
        WordCount::W50,
        WordCount::W100,
    ];

    /// The number of words.
    pub const fn get(self) -> u32 {
        match self {
            WordCount::W10 => 10,
            WordCount::W25 => 25,
            WordCount::W50 => 50,
            WordCount::W100 => 100,
        }
    }
}

/// A HOT PURSUIT start level, 1 to 20.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StartLevel(u8);

impl StartLevel {
    /// The level, if it is one HOT PURSUIT starts from.
    pub fn new(level: u8) -> Option<StartLevel> {
        PURSUIT_LEVELS.contains(&level).then_some(StartLevel(level))
    }

    /// The level as a number.
    pub const fn get(self) -> u8 {
        self.0
    }
}

/// A mode key this build doesn't have, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModeError {
    key: String,
    why: Why,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Why {
    Base,
    Option(String),
    Order,
    Language(String),
    English,
    DrillProse,
    CustomProse,
    QuoteOptions,
    QuoteLanguage(Language),
}

impl ModeError {
    /// The key that was refused.
    pub fn key(&self) -> &str {
        &self.key
    }
}

impl fmt::Display for ModeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "this build has no mode {}: ",
            crate::said::quoted(&self.key)
        )?;
        match &self.why {
            Why::Base => f.write_str(
                "it has time:15, time:30, time:60, time:120, words:10, words:25, words:50, \
                 words:100, zen and pursuit:1 to pursuit:20, each followed by /p \
                 (punctuation), /n (numbers), /s (stop on error) and /b (no backspace) if \
                 wanted, then @<language> if not English; drill:<1 to 8 distinct letters \
                 a-z> and drill2:<the same>; quote:<1 to 65535>, then /s and /b if wanted, \
                 then @<language> if not English; and custom, then /s and /b if wanted",
            ),
            Why::Option(o) => write!(
                f,
                "there is no option /{o}: there are /p (punctuation), /n (numbers), /s (stop \
                 on error) and /b (no backspace)"
            ),
            Why::Order => f.write_str("options come once each, in the order /p /n /s /b"),
            Why::Language(code) => {
                write!(
                    f,
                    "there is no language {}: there are",
                    crate::said::quoted(code)
                )?;
                for l in Language::ALL.iter().filter(|l| **l != Language::English) {
                    write!(f, " {}", l.code())?;
                }
                f.write_str(", and English when no @ is written")
            }
            Why::English => f.write_str("English is the key with no @"),
            Why::DrillProse => f.write_str("drills take no options and no language"),
            Why::CustomProse => {
                f.write_str("a custom text is its own: it takes no /p, /n or language")
            }
            Why::QuoteOptions => f.write_str(
                "quotes take no /p or /n: a passage has its own punctuation and numbers",
            ),
            Why::QuoteLanguage(language) => {
                write!(f, "there are no quotes in {}: there are", language.name())?;
                for l in crate::quotes::LANGUAGES {
                    write!(f, " {}", l.name())?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ModeError {}

impl Mode {
    /// BLITZ 15s.
    pub const BLITZ_15: Mode = Mode::plain(Base::Blitz(Blitz::S15));
    /// BLITZ 30s.
    pub const BLITZ_30: Mode = Mode::plain(Base::Blitz(Blitz::S30));
    /// BLITZ 60s.
    pub const BLITZ_60: Mode = Mode::plain(Base::Blitz(Blitz::S60));
    /// BLITZ 120s.
    pub const BLITZ_120: Mode = Mode::plain(Base::Blitz(Blitz::S120));
    /// ZEN.
    pub const ZEN: Mode = Mode::plain(Base::Zen);

    /// `base` on [`Prose::PLAIN`], as every mode was before options came.
    pub const fn plain(base: Base) -> Mode {
        Mode {
            base,
            prose: Prose::PLAIN,
            strict: Strict::NONE,
        }
    }

    /// `base` with `prose`, if the base takes it: a drill's letters pick from English's
    /// list, a custom text is its own, and a quote takes only a language that has quotes.
    pub fn new(base: Base, prose: Prose) -> Option<Mode> {
        Mode::check(base, prose).ok()
    }

    fn check(base: Base, prose: Prose) -> Result<Mode, Why> {
        let options = prose.punctuation || prose.numbers;
        match base {
            Base::Drill(_) if !prose.is_plain() => Err(Why::DrillProse),
            Base::Custom if !prose.is_plain() => Err(Why::CustomProse),
            Base::Quote(_) if options => Err(Why::QuoteOptions),
            Base::Quote(_) if !crate::quotes::LANGUAGES.contains(&prose.language) => {
                Err(Why::QuoteLanguage(prose.language))
            }
            _ => Ok(Mode {
                base,
                prose,
                strict: Strict::NONE,
            }),
        }
    }

    /// The same mode with `strict` rules, where it takes them: every base but a drill.
    pub fn with_strict(self, strict: Strict) -> Option<Mode> {
        let drill = matches!(self.base, Base::Drill(_));
        (!drill || strict == Strict::NONE).then_some(Mode { strict, ..self })
    }

    /// How strict its rules are.
    pub const fn strict(self) -> Strict {
        self.strict
    }

    /// CUSTOM TEXT.
    pub const CUSTOM: Mode = Mode::plain(Base::Custom);

    /// Passage `n` of `language`'s quotes, if that language has quotes (its corpus says
    /// whether it has that passage).
    pub fn quote(n: QuoteNo, language: Language) -> Option<Mode> {
        Mode::new(
            Base::Quote(n),
            Prose {
                language,
                ..Prose::PLAIN
            },
        )
    }

    /// WORDS of `count`.
    pub const fn words(count: WordCount) -> Mode {
        Mode::plain(Base::Words(count))
    }

    /// HOT PURSUIT from `level`, if it is 1 to 20.
    pub fn pursuit(level: u8) -> Option<Mode> {
        StartLevel::new(level).map(|l| Mode::plain(Base::Pursuit(l)))
    }

    /// A DRILL of `letters` as the game plays it (`drill2:`), if they are 1 to 8 distinct
    /// lowercase letters.
    pub fn drill(letters: &str) -> Option<Mode> {
        Drill::new(letters).map(|d| Mode::plain(Base::Drill(d)))
    }

    /// How it is played and how it ends.
    pub const fn base(self) -> Base {
        self.base
    }

    /// What its text is like.
    pub const fn prose(self) -> Prose {
        self.prose
    }

    /// The same base with `prose` instead: `None` for a drill unless `prose` is plain.
    pub fn with_prose(self, prose: Prose) -> Option<Mode> {
        Mode::new(self.base, prose)?.with_strict(self.strict)
    }

    /// Whether it is ZEN, whose rounds end with [`crate::Op::End`].
    pub const fn is_zen(self) -> bool {
        matches!(self.base, Base::Zen)
    }

    /// Whether it is HOT PURSUIT.
    pub const fn is_pursuit(self) -> bool {
        matches!(self.base, Base::Pursuit(_))
    }

    /// The clock's length in seconds, for the modes that have one (BLITZ, DRILL).
    pub const fn clock_secs(self) -> Option<u32> {
        match self.base {
            Base::Blitz(b) => Some(b.secs()),
            Base::Drill(_) => Some(DRILL_SECS),
            Base::Words(_) | Base::Zen | Base::Pursuit(_) | Base::Quote(_) | Base::Custom => None,
        }
    }

    /// Whether its text is a given one (a quote, a custom text), not drawn by the seed:
    /// the round ends with its last character.
    pub const fn has_fixed_text(self) -> bool {
        matches!(self.base, Base::Quote(_) | Base::Custom)
    }

    /// WORDS: how many words the round is. A quote's or a custom text's count is its
    /// text's ([`crate::Round::word_count`]).
    pub const fn word_count(self) -> Option<u32> {
        match self.base {
            Base::Words(n) => Some(n.get()),
            _ => None,
        }
    }

    /// Whether rounds of this mode may count for the boards: every mode but DRILL, whose
    /// texts are few words picked by the player, and CUSTOM TEXT, whose text is anything.
    pub const fn rankable(self) -> bool {
        !matches!(self.base, Base::Drill(_) | Base::Custom)
    }

    /// The key's tail: `/p` `/n` (the prose's options), `/s` `/b` (the strict rules'),
    /// each only when it applies, then `@code` for a language but English.
    fn tail(prose: Prose, strict: Strict) -> String {
        let mut key = String::new();
        for (on, option) in [
            (prose.punctuation, "/p"),
            (prose.numbers, "/n"),
            (strict.stop, "/s"),
            (strict.no_backspace, "/b"),
        ] {
            if on {
                key.push_str(option);
            }
        }
        if prose.language != Language::English {
            key.push('@');
            key.push_str(prose.language.code());
        }
        key
    }

    /// The text a replay header carries: the base (`time:15`, `words:25`, `zen`,
    /// `pursuit:N`, `drill:qzx`, `drill2:qzx`), then its options and language
    /// (`time:30/p/s@fr`).
    pub fn key(self) -> String {
        let base = match self.base {
            Base::Blitz(b) => format!("time:{}", b.secs()),
            Base::Words(n) => format!("words:{}", n.get()),
            Base::Zen => "zen".to_owned(),
            Base::Pursuit(l) => format!("pursuit:{}", l.get()),
            Base::Drill(d) if d.pool == DrillPool::Any => format!("drill:{}", d.letters()),
            Base::Drill(d) => format!("drill2:{}", d.letters()),
            Base::Quote(n) => format!("quote:{}", n.get()),
            Base::Custom => "custom".to_owned(),
        };
        base + &Mode::tail(self.prose, self.strict)
    }

    /// The title players see: `BLITZ 15s`, `WORDS 25`, `ZEN`, `HOT PURSUIT from lv7`,
    /// `DRILL qzx`, then the prose's (`BLITZ 30s · punctuation · français`). Also
    /// `Display`.
    pub fn title(self) -> String {
        self.to_string()
    }

    /// What the headline score counts: words in HOT PURSUIT, wpm in the rest.
    pub const fn unit(self) -> Unit {
        match self.base {
            Base::Pursuit(_) => Unit::Words,
            _ => Unit::Wpm,
        }
    }
}

/// What a headline counts. A rule that depends on it matches the enum, never its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Words per minute: BLITZ, WORDS, ZEN and drills.
    Wpm,
    /// Words typed before the flame caught up: HOT PURSUIT.
    Words,
}

impl Unit {
    /// `wpm` or `words`, as written after a number other than 1.
    pub const fn as_str(self) -> &'static str {
        match self {
            Unit::Wpm => "wpm",
            Unit::Words => "words",
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<Unit> for String {
    fn from(unit: Unit) -> String {
        unit.as_str().into()
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.base {
            Base::Blitz(b) => write!(f, "BLITZ {}s", b.secs())?,
            Base::Words(n) => write!(f, "WORDS {}", n.get())?,
            Base::Zen => f.write_str("ZEN")?,
            Base::Pursuit(l) => write!(f, "HOT PURSUIT from lv{}", l.get())?,
            Base::Drill(d) => write!(f, "DRILL {}", d.letters())?,
            Base::Quote(n) => write!(f, "QUOTE #{}", n.get())?,
            Base::Custom => f.write_str("CUSTOM TEXT")?,
        }
        Mode::title_tail(f, self.prose, self.strict)
    }
}

impl Mode {
    /// What a title adds after the base's: ` · punctuation · numbers · stop on error · no
    /// backspace · français`, each only where it applies.
    fn title_tail(f: &mut fmt::Formatter<'_>, p: Prose, s: Strict) -> fmt::Result {
        for (on, option) in [
            (p.punctuation, "punctuation"),
            (p.numbers, "numbers"),
            (s.stop, "stop on error"),
            (s.no_backspace, "no backspace"),
        ] {
            if on {
                write!(f, " · {option}")?;
            }
        }
        if p.language != Language::English {
            write!(f, " · {}", p.language.name())?;
        }
        Ok(())
    }
}

impl FromStr for Mode {
    type Err = ModeError;

    /// Parses a key exactly as [`Mode::key`] writes it: no spaces, no leading zeros,
    /// options once each and in order, no `@en`.
    fn from_str(key: &str) -> Result<Mode, ModeError> {
        let refuse = |why| ModeError {
            key: key.to_owned(),
            why,
        };
        // Neither a base nor an option holds an `@`, and no base holds a `/`.
        let (rest, code) = match key.split_once('@') {
            Some((rest, code)) => (rest, Some(code)),
            None => (key, None),
        };
        let (base, options) = match rest.find('/') {
            Some(at) => rest.split_at_checked(at).unwrap_or((rest, "")),
            None => (rest, ""),
        };
        let base = parse_base(base).ok_or(refuse(Why::Base))?;
        let mut prose = Prose::PLAIN;
        let mut strict = Strict::NONE;
        // Each option must come after the ones before it: `/p`, `/n`, `/s`, `/b`, once
        // each.
        let mut next = 0;
        for option in options.split('/').skip(1) {
            let (rank, flag) = match option {
                "p" => (1, &mut prose.punctuation),
                "n" => (2, &mut prose.numbers),
                "s" => (3, &mut strict.stop),
                "b" => (4, &mut strict.no_backspace),
                other => return Err(refuse(Why::Option(other.to_owned()))),
            };
            if rank <= next {
                return Err(refuse(Why::Order));
            }
            next = rank;
            *flag = true;
        }
        if let Some(code) = code {
            prose.language = match Language::from_code(code) {
                Some(Language::English) => return Err(refuse(Why::English)),
                Some(language) => language,
                None => return Err(refuse(Why::Language(code.to_owned()))),
            };
        }
        let mode = Mode::check(base, prose).map_err(refuse)?;
        mode.with_strict(strict).ok_or(refuse(Why::DrillProse))
    }
}

/// A base key, exactly as [`Mode::key`] writes it.
fn parse_base(key: &str) -> Option<Base> {
    let number = |s: &str| -> Option<u32> {
        // "07" or "+7" would be a second key for one mode.
        if s.starts_with('0') || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    match key {
        "zen" => return Some(Base::Zen),
        "custom" => return Some(Base::Custom),
        _ => {}
    }
    let (kind, arg) = key.split_once(':')?;
    match kind {
        "time" => {
            let secs = number(arg)?;
            Blitz::ALL
                .into_iter()
                .find(|b| b.secs() == secs)
                .map(Base::Blitz)
        }
        "words" => {
            let n = number(arg)?;
            WordCount::ALL
                .into_iter()
                .find(|c| c.get() == n)
                .map(Base::Words)
        }
        "pursuit" => {
            let level = u8::try_from(number(arg)?).ok()?;
            StartLevel::new(level).map(Base::Pursuit)
        }
        "drill" => Drill::with(arg, DrillPool::Any).map(Base::Drill),
        "drill2" => Drill::with(arg, DrillPool::Weighted).map(Base::Drill),
        "quote" => QuoteNo::new(number(arg)?).map(Base::Quote),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prose(punctuation: bool, numbers: bool, language: Language) -> Prose {
        Prose {
            punctuation,
            numbers,
            language,
        }
    }

    #[test]
    fn keys_and_titles_are_these() {
        let with = |base, p: Prose| Mode::new(base, p).unwrap();
        let table = [
            (Mode::BLITZ_15, "time:15", "BLITZ 15s"),
            (Mode::BLITZ_30, "time:30", "BLITZ 30s"),
            (Mode::BLITZ_60, "time:60", "BLITZ 60s"),
            (Mode::BLITZ_120, "time:120", "BLITZ 120s"),
            (Mode::words(WordCount::W10), "words:10", "WORDS 10"),
            (Mode::words(WordCount::W100), "words:100", "WORDS 100"),
            (Mode::ZEN, "zen", "ZEN"),
            (
                Mode::pursuit(7).unwrap(),
                "pursuit:7",
                "HOT PURSUIT from lv7",
            ),
            (
                Mode::pursuit(1).unwrap(),
                "pursuit:1",
                "HOT PURSUIT from lv1",
            ),
            (
                Mode::pursuit(20).unwrap(),
                "pursuit:20",
                "HOT PURSUIT from lv20",
            ),
            (Mode::drill("qzx").unwrap(), "drill2:qzx", "DRILL qzx"),
            (Mode::drill("e").unwrap(), "drill2:e", "DRILL e"),
            (
                Mode::drill("abcdefgh").unwrap(),
                "drill2:abcdefgh",
                "DRILL abcdefgh",
            ),
            // The first drills' key, which their replays carry.
            (
                Mode::plain(Base::Drill(Drill::with("qzx", DrillPool::Any).unwrap())),
                "drill:qzx",
                "DRILL qzx",
            ),
            (
                with(
                    Base::Blitz(Blitz::S30),
                    prose(true, false, Language::French),
                ),
                "time:30/p@fr",
                "BLITZ 30s · punctuation · français",
            ),
            (
                with(
                    Base::Words(WordCount::W25),
                    prose(true, true, Language::German),
                ),
                "words:25/p/n@de",
                "WORDS 25 · punctuation · numbers · deutsch",
            ),
            (
                with(Base::Zen, prose(false, true, Language::English)),
                "zen/n",
                "ZEN · numbers",
            ),
            (
                with(Base::Zen, prose(false, false, Language::Russian)),
                "zen@ru",
                "ZEN · русский",
            ),
            (
                with(
                    Base::Pursuit(StartLevel(20)),
                    prose(true, true, Language::English10k),
                ),
                "pursuit:20/p/n@en10k",
                "HOT PURSUIT from lv20 · punctuation · numbers · english 10k",
            ),
            (
                Mode::quote(QuoteNo::new(137).unwrap(), Language::English).unwrap(),
                "quote:137",
                "QUOTE #137",
            ),
            (
                Mode::quote(QuoteNo::new(65_535).unwrap(), Language::German).unwrap(),
                "quote:65535@de",
                "QUOTE #65535 · deutsch",
            ),
            (Mode::CUSTOM, "custom", "CUSTOM TEXT"),
            (
                with(
                    Base::Blitz(Blitz::S30),
                    prose(true, false, Language::French),
                )
                .with_strict(Strict {
                    stop: true,
                    no_backspace: false,
                })
                .unwrap(),
                "time:30/p/s@fr",
                "BLITZ 30s · punctuation · stop on error · français",
            ),
            (
                Mode::quote(QuoteNo::new(7).unwrap(), Language::English)
                    .unwrap()
                    .with_strict(Strict {
                        stop: false,
                        no_backspace: true,
                    })
                    .unwrap(),
                "quote:7/b",
                "QUOTE #7 · no backspace",
            ),
            (
                Mode::CUSTOM
                    .with_strict(Strict {
                        stop: true,
                        no_backspace: true,
                    })
                    .unwrap(),
                "custom/s/b",
                "CUSTOM TEXT · stop on error · no backspace",
            ),
        ];
        for (mode, key, title) in table {
            assert_eq!(mode.key(), key);
            assert_eq!(mode.title(), title);
            assert_eq!(key.parse::<Mode>(), Ok(mode));
        }
    }

    #[test]
    fn every_key_reads_back_and_fits_format_1() {
        let bases = Blitz::ALL
            .into_iter()
            .map(Base::Blitz)
            .chain(WordCount::ALL.into_iter().map(Base::Words))
            .chain([Base::Zen, Base::Pursuit(StartLevel(20))]);
        for base in bases {
            for language in Language::ALL {
                for (punctuation, numbers) in
                    [(false, false), (true, false), (false, true), (true, true)]
                {
                    for (stop, no_backspace) in
                        [(false, false), (true, false), (false, true), (true, true)]
                    {
                        let mode = Mode::new(base, prose(punctuation, numbers, language))
                            .and_then(|m| m.with_strict(Strict { stop, no_backspace }))
                            .unwrap();
                        let key = mode.key();
                        assert!(key.len() <= 32, "{key} is {} bytes", key.len());
                        assert_eq!(key.parse::<Mode>(), Ok(mode), "{key}");
                    }
                }
            }
        }
    }

    #[test]
    fn other_keys_are_refused_by_name() {
        for key in [
            "",
            "time:10",
            "time:015",
            "time:0120",
            "zen ",
            "ZEN",
            "pursuit:0",
            "pursuit:21",
            "pursuit:07",
            "pursuit:+7",
            "pursuit:",
            "pursuit:300",
            "pursuit:256",
            "words:20",
            "words:025",
            "words:",
            "words",
            "drill:",
            "drill:Q",
            "drill:qq",
            "drill:abcdefghi",
            "drill:q z",
            "drill:é",
            "drill:q1",
            "drill2:",
            "drill2:qq",
            "drill3:q",
            "drill02:q",
            "/p",
            "@fr",
            "quote:0",
            "quote:01",
            "quote:65536",
            "quote:",
            "quote",
            "custom:1",
            "CUSTOM",
        ] {
            let err = key.parse::<Mode>().unwrap_err();
            assert_eq!(err.key(), key);
            assert!(err.to_string().contains("this build has no mode"));
            assert!(err.to_string().contains("it has time:15"), "{err}");
        }
    }

    #[test]
    fn a_refused_tail_says_what_is_wrong_with_it() {
        for (key, why) in [
            ("time:30/x", "there is no option /x"),
            ("time:30/", "there is no option /:"),
            ("time:30/P", "there is no option /P"),
            ("time:30/pn", "there is no option /pn"),
            ("time:30/n/p", "in the order /p /n /s /b"),
            ("time:30/p/p", "in the order /p /n /s /b"),
            ("words:25/n/n", "in the order /p /n /s /b"),
            ("time:30/b/s", "in the order /p /n /s /b"),
            ("time:30/s/n", "in the order /p /n /s /b"),
            ("zen/s/s", "in the order /p /n /s /b"),
            ("drill2:qz/s", "drills take no options"),
            ("time:30@xx", "there is no language \"xx\""),
            ("time:30@", "there is no language \"\""),
            ("time:30@FR", "there is no language \"FR\""),
            ("time:30@fr@de", "there is no language \"fr@de\""),
            ("time:30@fr/p", "there is no language \"fr/p\""),
            ("zen@en", "English is the key with no @"),
            ("drill2:qz/p", "drills take no options"),
            ("drill:qz@fr", "drills take no options"),
            ("custom/p", "a custom text is its own"),
            ("custom@fr", "a custom text is its own"),
            ("quote:1/p", "quotes take no /p or /n"),
            ("quote:1/n@de", "quotes take no /p or /n"),
            ("quote:1/p/s", "quotes take no /p or /n"),
            (
                "quote:1@fr",
                "there are no quotes in français: there are english deutsch español русский",
            ),
            ("quote:1@en10k", "there are no quotes in english 10k"),
        ] {
            let err = key.parse::<Mode>().unwrap_err();
            assert_eq!(err.key(), key);
            let said = err.to_string();
            assert!(said.contains("this build has no mode"), "{said}");
            assert!(said.contains(why), "{key}: {said}");
        }
        let said = "time:30@xx".parse::<Mode>().unwrap_err().to_string();
        assert!(said.contains(" fr ") && said.contains(" uk,"), "{said}");
    }
}
