//! The modes a round can be played in, with the text keys replays carry.

use core::fmt;
use core::str::FromStr;

/// The lowest and highest level HOT PURSUIT can start from.
pub const PURSUIT_LEVELS: core::ops::RangeInclusive<u8> = 1..=20;

/// How a round is played and how it ends. [`Mode::key`] is its text in a replay header;
/// the enum's order means nothing, so reordering it breaks no replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// BLITZ: type until the clock, started by the first keystroke, runs out.
    Blitz(Blitz),
    /// ZEN: no clock; the round ends with [`crate::Op::End`] (esc).
    Zen,
    /// HOT PURSUIT: a flame chases the caret from this level and the round ends when it
    /// catches up.
    Pursuit(StartLevel),
    /// DRILL: 30 s on words holding these letters, scored like BLITZ. Never ranked.
    Drill(Drill),
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

/// BLITZ's three clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Blitz {
    /// 15 seconds.
    S15,
    /// 30 seconds.
    S30,
    /// 60 seconds.
    S60,
}

impl Blitz {
    /// The clock's length in seconds.
    pub const fn secs(self) -> u32 {
        match self {
            Blitz::S15 => 15,
            Blitz::S30 => 30,
            Blitz::S60 => 60,
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

/// A mode key this build doesn't have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModeError {
    key: String,
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
            "this build has no mode {:?}: it has time:15, time:30, time:60, zen, pursuit:1 to pursuit:20, and drill:<1 to 8 distinct letters a-z> and drill2:<the same>",
            self.key
        )
    }
}

impl std::error::Error for ModeError {}

impl Mode {
    /// BLITZ 15s.
    pub const BLITZ_15: Mode = Mode::Blitz(Blitz::S15);
    /// BLITZ 30s.
    pub const BLITZ_30: Mode = Mode::Blitz(Blitz::S30);
    /// BLITZ 60s.
    pub const BLITZ_60: Mode = Mode::Blitz(Blitz::S60);

    /// HOT PURSUIT from `level`, if it is 1 to 20.
    pub fn pursuit(level: u8) -> Option<Mode> {
        StartLevel::new(level).map(Mode::Pursuit)
    }

    /// A DRILL of `letters` as the game plays it (`drill2:`), if they are 1 to 8 distinct
    /// lowercase letters.
    pub fn drill(letters: &str) -> Option<Mode> {
        Drill::new(letters).map(Mode::Drill)
    }

    /// The clock's length in seconds, for the modes that have one (BLITZ, DRILL).
    pub const fn clock_secs(self) -> Option<u32> {
        match self {
            Mode::Blitz(b) => Some(b.secs()),
            Mode::Drill(_) => Some(DRILL_SECS),
            Mode::Zen | Mode::Pursuit(_) => None,
        }
    }

    /// Whether rounds of this mode may count for the boards: every mode but DRILL, whose
    /// texts are few words picked by the player.
    pub const fn rankable(self) -> bool {
        !matches!(self, Mode::Drill(_))
    }

    /// The text a replay header carries: `time:15`, `time:30`, `time:60`, `zen`,
    /// `pursuit:N`, `drill:qzx`, `drill2:qzx`.
    pub fn key(self) -> String {
        match self {
            Mode::Blitz(b) => format!("time:{}", b.secs()),
            Mode::Zen => "zen".to_owned(),
            Mode::Pursuit(l) => format!("pursuit:{}", l.get()),
            Mode::Drill(d) if d.pool == DrillPool::Any => format!("drill:{}", d.letters()),
            Mode::Drill(d) => format!("drill2:{}", d.letters()),
        }
    }

    /// The title players see: `BLITZ 15s`, `ZEN`, `HOT PURSUIT from lv7`, `DRILL qzx`.
    /// Also `Display`.
    pub fn title(self) -> String {
        self.to_string()
    }

    /// What the headline score counts: words in HOT PURSUIT, wpm in the rest.
    pub const fn unit(self) -> Unit {
        match self {
            Mode::Pursuit(_) => Unit::Words,
            _ => Unit::Wpm,
        }
    }
}

/// What a headline counts. A rule that depends on it matches the enum, never its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Words per minute: BLITZ, ZEN and drills.
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
        match self {
            Mode::Blitz(b) => write!(f, "BLITZ {}s", b.secs()),
            Mode::Zen => f.write_str("ZEN"),
            Mode::Pursuit(l) => write!(f, "HOT PURSUIT from lv{}", l.get()),
            Mode::Drill(d) => write!(f, "DRILL {}", d.letters()),
        }
    }
}

impl FromStr for Mode {
    type Err = ModeError;

    /// Parses a key exactly as [`Mode::key`] writes it: no spaces, no leading zeros.
    fn from_str(key: &str) -> Result<Mode, ModeError> {
        let refuse = || ModeError {
            key: key.to_owned(),
        };
        let number = |s: &str| -> Option<u8> {
            // "07" or "+7" would be a second key for one mode.
            if s.starts_with('0') || !s.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            s.parse().ok()
        };
        match key {
            "time:15" => Ok(Mode::BLITZ_15),
            "time:30" => Ok(Mode::BLITZ_30),
            "time:60" => Ok(Mode::BLITZ_60),
            "zen" => Ok(Mode::Zen),
            _ => {
                let drill = |letters, pool| Drill::with(letters, pool).map(Mode::Drill);
                if let Some(letters) = key.strip_prefix("drill:") {
                    drill(letters, DrillPool::Any).ok_or_else(refuse)
                } else if let Some(letters) = key.strip_prefix("drill2:") {
                    drill(letters, DrillPool::Weighted).ok_or_else(refuse)
                } else {
                    key.strip_prefix("pursuit:")
                        .and_then(number)
                        .and_then(Mode::pursuit)
                        .ok_or_else(refuse)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_titles_are_these() {
        let table = [
            (Mode::BLITZ_15, "time:15", "BLITZ 15s"),
            (Mode::BLITZ_30, "time:30", "BLITZ 30s"),
            (Mode::BLITZ_60, "time:60", "BLITZ 60s"),
            (Mode::Zen, "zen", "ZEN"),
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
                Mode::Drill(Drill::with("qzx", DrillPool::Any).unwrap()),
                "drill:qzx",
                "DRILL qzx",
            ),
        ];
        for (mode, key, title) in table {
            assert_eq!(mode.key(), key);
            assert_eq!(mode.title(), title);
            assert_eq!(key.parse::<Mode>(), Ok(mode));
        }
    }

    #[test]
    fn other_keys_are_refused_by_name() {
        for key in [
            "",
            "time:10",
            "time:015",
            "zen ",
            "ZEN",
            "pursuit:0",
            "pursuit:21",
            "pursuit:07",
            "pursuit:+7",
            "pursuit:",
            "pursuit:300",
            "words:25",
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
        ] {
            let err = key.parse::<Mode>().unwrap_err();
            assert_eq!(err.key(), key);
            assert!(err.to_string().contains("this build has no mode"));
        }
    }
}
