//! typepper's wire formats, shared by the game (wasm) and the server.
//!
//! How a submission travels:
//! 1. The game writes a [`submission`] body: for each round, its claimed score as a
//!    little-endian `u32`, then the round's replay in format 1, back to back.
//! 2. The server reads one entry at a time with [`read_entry`] (which leaves the replay
//!    bytes undecoded, so the header can be checked first), re-plays it, and answers one
//!    [`Line`] per round: `ok <id> <score> <pb|-> <share url>` or `no <reason>`.
//!
//! Only text and bytes here, no serde: the game stays small.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use core::fmt;
use core::str::FromStr;

/// The body of `POST /v1/submit` for rounds with their claimed scores.
pub fn submission<'a>(rounds: impl IntoIterator<Item = (u32, &'a [u8])>) -> Vec<u8> {
    let mut body = Vec::new();
    for (claim, replay) in rounds {
        body.extend_from_slice(&claim.to_le_bytes());
        body.extend_from_slice(replay);
    }
    body
}

/// Splits the claim off the front of a submission entry: `(claim, the bytes from the
/// replay on)`, or `None` if fewer than four bytes remain.
pub fn read_entry(body: &[u8]) -> Option<(u32, &[u8])> {
    let (claim, rest) = body.split_first_chunk::<4>()?;
    Some((u32::from_le_bytes(*claim), rest))
}

/// One line of the submit answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// Stored: the run's id, the server's score, whether it is the player's best in its
    /// mode, and the share link.
    Ok {
        /// The run's id: 8 base62 characters.
        id: String,
        /// The headline number the server computed.
        score: u32,
        /// A personal best for the mode.
        pb: bool,
        /// The link that opens the round.
        share: String,
    },
    /// Refused, with the reason in a sentence.
    No(String),
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::Ok {
                id,
                score,
                pb,
                share,
            } => {
                let pb = if *pb { "pb" } else { "-" };
                write!(f, "ok {id} {score} {pb} {share}")
            }
            // A reason is one line, whatever it quotes.
            Line::No(reason) => write!(f, "no {}", reason.replace(['\n', '\r'], " ")),
        }
    }
}

/// A line that is neither `ok …` nor `no …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError(pub String);

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a submit answer line: {:?}", self.0)
    }
}

impl std::error::Error for LineError {}

impl FromStr for Line {
    type Err = LineError;

    fn from_str(line: &str) -> Result<Line, LineError> {
        let bad = || LineError(line.to_owned());
        if let Some(reason) = line.strip_prefix("no ") {
            return Ok(Line::No(reason.to_owned()));
        }
        let rest = line.strip_prefix("ok ").ok_or_else(bad)?;
        let fields: Vec<&str> = rest.split(' ').collect();
        let [id, score, pb, share] = fields[..] else {
            return Err(bad());
        };
        Ok(Line::Ok {
            id: id.to_owned(),
            score: score.parse().map_err(|_| bad())?,
            pb: match pb {
                "pb" => true,
                "-" => false,
                _ => return Err(bad()),
            },
            share: share.to_owned(),
        })
    }
}

/// Player names: 3 to 20 ASCII letters, digits, `_` or `-`; unique ignoring case.
pub fn check_name(name: &str) -> Result<(), &'static str> {
    let ok_len = (3..=20).contains(&name.len());
    let ok_chars = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok_len && ok_chars {
        Ok(())
    } else {
        Err("a name is 3 to 20 letters (a–z, A–Z), digits, _ or -")
    }
}

/// Run ids: 8 base62 characters.
pub fn is_run_id(id: &str) -> bool {
    id.len() == 8 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A moment as a UTC calendar date and time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Utc {
    /// The year.
    pub year: i64,
    /// 1 to 12.
    pub month: u32,
    /// 1 to 31.
    pub day: u32,
    /// 0 to 23.
    pub hour: u32,
    /// 0 to 59.
    pub minute: u32,
    /// 0 to 59.
    pub second: u32,
}

impl Utc {
    /// The UTC date and time of unix milliseconds (Howard Hinnant's `civil_from_days`).
    pub fn of(unix_ms: i64) -> Utc {
        let secs = unix_ms.div_euclid(1000);
        let (days, in_day) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        Utc {
            year: yoe + era * 400 + i64::from(month <= 2),
            month: month as u32,
            day: (doy - (153 * mp + 2) / 5 + 1) as u32,
            hour: (in_day / 3600) as u32,
            minute: (in_day % 3600 / 60) as u32,
            second: (in_day % 60) as u32,
        }
    }

    /// `YYYY-MM`, the month boards are kept by.
    pub fn month(&self) -> String {
        format!("{:04}-{:02}", self.year, self.month)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back() {
        let table = [
            (
                "ok 7Xf9qyuC 108 - https://r.typepper.com/7Xf9qyuC",
                Line::Ok {
                    id: "7Xf9qyuC".into(),
                    score: 108,
                    pb: false,
                    share: "https://r.typepper.com/7Xf9qyuC".into(),
                },
            ),
            (
                "ok abcdEFGH 31 pb http://127.0.0.1:8080/r/abcdEFGH",
                Line::Ok {
                    id: "abcdEFGH".into(),
                    score: 31,
                    pb: true,
                    share: "http://127.0.0.1:8080/r/abcdEFGH".into(),
                },
            ),
            (
                "no recorded by other rules (engine 2, these are 1)",
                Line::No("recorded by other rules (engine 2, these are 1)".into()),
            ),
        ];
        for (text, line) in table {
            assert_eq!(line.to_string(), text);
            assert_eq!(text.parse::<Line>(), Ok(line));
        }
        assert!("ok x".parse::<Line>().is_err());
        assert!("yes".parse::<Line>().is_err());
        assert_eq!(Line::No("a\nb".into()).to_string(), "no a b");
    }

    #[test]
    fn submissions_split_back_into_entries() {
        let body = submission([(108, &b"TPR1"[..]), (7, &b"TPR2"[..])]);
        let (claim, rest) = read_entry(&body).unwrap();
        assert_eq!((claim, &rest[..4]), (108, &b"TPR1"[..]));
        assert_eq!(read_entry(&[1, 2, 3]), None);
    }

    #[test]
    fn moments_read_as_utc_dates() {
        let d = Utc::of(1_796_154_720_000);
        assert_eq!(
            (d.year, d.month, d.day, d.hour, d.minute, d.second),
            (2026, 12, 1, 19, 52, 0)
        );
        assert_eq!(
            Utc::of(951_782_400_000 + 3_723_000).day,
            29,
            "2000 is a leap year"
        );
        assert_eq!(Utc::of(951_868_800_000).month(), "2000-03");
        assert_eq!(Utc::of(-1).month(), "1969-12");
    }

    #[test]
    fn names_follow_the_rules() {
        for ok in ["ada", "Grace_Hopper", "x-1-y", "abcdefghijklmnopqrst"] {
            assert_eq!(check_name(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            "ab",
            "abcdefghijklmnopqrstu",
            "<b>hi</b>",
            "a b",
            "é-é-é",
            "rob'; --",
            "名前名前",
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }
}
