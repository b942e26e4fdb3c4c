//! Which rules a round is played by: every version this engine has recorded, kept.
//!
//! A replay's header names the rules that recorded it, and it is played by those rules
//! forever, so that the score it was given is the score it has. New rounds record
//! [`Rules::NEWEST`]. A version is a small, named difference from the one before: the
//! rules that did not change are written once (in `round.rs`, `heat.rs`), and each place
//! that differs asks the round's [`Rules`] what it does. An enum rather than a trait:
//! two versions differ in two places (RULES.md, "VERSION 2"), and a `match` there costs
//! the wasm no second copy of the round. A third version is a variant here and an arm
//! where it differs.

use core::fmt;

/// A set of rules: a version of the game's rules that this engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rules {
    /// VERSION 1: heat a streak for 60 wpm and up; HOT PURSUIT's heat the flame's
    /// closeness.
    V1,
    /// VERSION 2: heat a streak at every pace, HOT PURSUIT's too (RULES.md, "VERSION 2").
    V2,
}

impl Rules {
    /// Every version this engine plays, oldest first.
    pub const ALL: [Rules; 2] = [Rules::V1, Rules::V2];
    /// The rules new rounds record.
    pub const NEWEST: Rules = Rules::V2;

    /// The rules of version `engine`, as a replay's header names them, if this engine
    /// has them.
    pub const fn of(engine: u32) -> Option<Rules> {
        match engine {
            1 => Some(Rules::V1),
            2 => Some(Rules::V2),
            _ => None,
        }
    }

    /// The version number replays record.
    pub const fn version(self) -> u32 {
        match self {
            Rules::V1 => 1,
            Rules::V2 => 2,
        }
    }

    /// The versions this engine plays, said as a list: `1 and 2`.
    pub fn versions() -> String {
        let all: Vec<String> = Rules::ALL.iter().map(|r| r.version().to_string()).collect();
        match all.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        }
    }

    /// Whether HOT PURSUIT's heat is the flame's closeness (VERSION 1), not the streak.
    pub(crate) const fn flame_is_heat(self) -> bool {
        matches!(self, Rules::V1)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VERSION {}", self.version())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_version_is_read_back_and_no_other() {
        for rules in Rules::ALL {
            assert_eq!(Rules::of(rules.version()), Some(rules));
        }
        assert_eq!(Rules::of(0), None);
        assert_eq!(Rules::of(3), None);
        assert_eq!(Rules::NEWEST, *Rules::ALL.last().expect("a version"));
        assert_eq!(crate::VERSION, Rules::NEWEST.version());
        assert_eq!(Rules::versions(), "1 and 2");
    }
}
