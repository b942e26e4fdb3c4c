//! The daily text: one BLITZ 30s text a UTC day, the same for everyone, numbered from the
//! day it began (docs/spec/players.md, "The daily text").
//!
//! A day's number is worked out from the date alone, so the game, the server and a page
//! agree on it without asking; its seed is the server's to draw, and it says it only to a
//! player who asks to play (`POST /v1/seeds {"mode":"daily"}`) until the day is over.

use crate::BoardRow;

/// The mode every daily is played in: `time:30`.
pub const MODE: &str = "time:30";

/// What `POST /v1/seeds` is asked for today's daily by.
pub const ASK: &str = "daily";

/// Daily #1's day: 2026-12-05, in days since 1970-01-01.
const FIRST_DAY: i64 = 20_792;

const DAY_MS: i64 = 86_400_000;

/// The daily of the UTC day that holds `unix_ms`; `None` before the first.
pub fn number(unix_ms: i64) -> Option<u32> {
    let day = unix_ms.div_euclid(DAY_MS) - FIRST_DAY + 1;
    u32::try_from(day).ok().filter(|&n| n >= 1)
}

/// When daily `number`'s day begins, in unix ms; it ends a day later.
pub fn starts_ms(number: u32) -> i64 {
    (FIRST_DAY + i64::from(number) - 1) * DAY_MS
}

/// What a daily is called: `daily #312`.
pub fn name(number: u32) -> String {
    format!("daily #{number}")
}

/// A place on a daily's board as results and cards say it: `14th of 2,031`.
pub fn place(place: u32, of: u32) -> String {
    [ordinal(place as usize), crate::profile::grouped(of)].join(" of ")
}

/// `1st`, `2nd`, `3rd`, `11th`, `22nd`: a daily's place, a room's.
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

/// `GET /v1/daily` (today's) and `GET /v1/daily/<n>` (a past one's).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Daily {
    /// Its number: 1 for 2026-12-05.
    pub number: u32,
    /// Its UTC day: `YYYY-MM-DD`.
    pub day: String,
    /// When it ends (and the next begins), RFC 3339 in UTC.
    pub ends: String,
    /// `Mode::key`: [`MODE`].
    pub mode: String,
    /// `daily #312 · BLITZ 30s`.
    pub title: String,
    /// Its seed, once its day is over; `None` while it is on (ask for it with
    /// `POST /v1/seeds {"mode":"daily"}`, which counts as your try).
    #[serde(default, with = "crate::decimal_opt")]
    pub seed: Option<u64>,
    /// How many are on its board.
    pub players: u32,
    /// Its board: each player's first try, best first, top 100.
    pub board: Vec<BoardRow>,
    /// Where the asking player (by their token) stands: their first try's run and
    /// place, if it is on the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub yours: Option<Yours>,
}

/// A player's first try of a daily, on its board.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Yours {
    /// The run.
    pub run: String,
    /// Its headline number.
    pub score: u32,
    /// 1 for the best.
    pub place: u32,
    /// How many are on the board.
    pub of: u32,
}

impl Yours {
    /// As results and cards say it: `daily #312 · 97 wpm · 14th of 2,031`.
    pub fn line(&self, number: u32) -> String {
        format!(
            "{} · {} wpm · {}",
            name(number),
            self.score,
            place(self.place, self.of)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_numbered_from_the_first() {
        let first = crate::Utc::parse("2026-12-05T00:00:00Z").unwrap();
        assert_eq!(number(first - 1), None);
        assert_eq!(number(first), Some(1));
        assert_eq!(number(first + DAY_MS - 1), Some(1));
        assert_eq!(number(first + DAY_MS), Some(2));
        assert_eq!(starts_ms(1), first);
        assert_eq!(starts_ms(312), first + 311 * DAY_MS);
        assert_eq!(number(starts_ms(312)), Some(312));
    }

    #[test]
    fn places_read_as_people_say_them() {
        let said: Vec<String> = [(1, 1), (2, 9), (3, 10), (4, 10), (11, 20), (12, 20)]
            .into_iter()
            .map(|(p, of)| place(p, of))
            .collect();
        assert_eq!(
            said,
            [
                "1st of 1",
                "2nd of 9",
                "3rd of 10",
                "4th of 10",
                "11th of 20",
                "12th of 20"
            ]
        );
        assert_eq!(place(14, 2031), "14th of 2,031");
        assert_eq!(place(101, 1_234_567), "101st of 1,234,567");
        assert_eq!(place(113, 999), "113th of 999");
        let yours = Yours {
            run: "AbCdEfGh".into(),
            score: 97,
            place: 14,
            of: 2031,
        };
        assert_eq!(yours.line(312), "daily #312 · 97 wpm · 14th of 2,031");
    }
}
