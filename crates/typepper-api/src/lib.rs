//! typepper's wire formats, shared by the game (wasm) and the server.
//!
//! How a submission travels:
//! 1. The game writes a [`submission`] body: for each round, its claimed score as a
//!    little-endian `u32`, then the round's replay in format 1, back to back.
//! 2. The server reads one entry at a time with [`read_entry`] (which leaves the replay
//!    bytes undecoded, so the header can be checked first), re-plays it, and answers one
//!    [`Line`] per round: `ok <id> <score> <pb|-> <share url> ranked`,
//!    `ok <id> <score> - <share url> unranked <reason>`, or `no <reason>`.
//! 3. A ranked round is played on a seed the server issued: `POST /v1/seeds` answers an
//!    [`IssuedSeed`] (JSON, with serde).
//!
//! Every JSON body of the `v1` API is a type here ([`NewPlayer`], [`Player`], [`Board`],
//! [`SeedRequest`], [`IssuedSeed`]), so the server and both game shells read and write the
//! same shapes.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use core::fmt;
use core::str::FromStr;

pub mod daily;
pub mod devices;
pub mod profile;
pub mod room;

/// The most rounds one `POST /v1/submit` body may carry; an outbox with more sends them
/// in several.
pub const MAX_ENTRIES: usize = 50;

/// What players read for their best ranked round of a mode on the server (`ok … pb`):
/// one name in the game and the server's sentences, apart from the game's best round on
/// one device, which counts unranked rounds too (`your best here`).
pub const RANKED_BEST: &str = "your ranked best";

/// The header of `GET /v1/runs/<id>` that names the run's player: a race against the
/// run says whom it is against.
pub const PLAYER_HEADER: &str = "typepper-player";

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
    /// mode, the share link, and whether it is ranked.
    Ok {
        /// The run's id: 8 base62 characters.
        id: String,
        /// The headline number the server computed.
        score: u32,
        /// A personal best for the mode (only ranked runs are).
        pb: bool,
        /// The link that opens the round.
        share: String,
        /// Whether the run is on the boards.
        ranked: Ranked,
    },
    /// Refused: what kind of refusal, a token to match on (one of [`REFUSALS`]; `None`
    /// from a server that predates them), and why, in a sentence for people.
    No {
        /// The kind: `copy`, `too_fast`, …
        kind: Option<&'static str>,
        /// Why, in a sentence.
        why: String,
    },
}

/// The kinds of refusal a `no` line names, after `no ` and before its sentence, as
/// `typepper_rounds_total` counts them (docs/spec/replays.md), and as a room's results
/// name a round not stored ([`room::Kept::NotStored`]). New kinds are added at the end; a
/// reader that doesn't know one reads the whole line as the sentence.
pub const REFUSALS: &[&str] = &[
    "unreadable",
    "other_rules",
    "unknown_mode",
    "breaks_the_rules",
    "other",
    "too_little",
    "too_short",
    "did_nothing",
    "too_fast",
    "scores_nothing",
    "bot_timing",
    "wrong_claim",
    "too_soon",
    "copy",
    "live_room",
    // A custom text the server doesn't keep: not in Unicode NFC, a character that
    // changes how a page shows the text, or a text on a round that has its own.
    "bad_text",
];

/// Whether a stored run is ranked: on the boards and a candidate for a personal best.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ranked {
    /// Ranked: played on a seed the server issued to its player, and it counted.
    Yes,
    /// Stored and shareable, but unranked, for this reason.
    No(String),
    /// Ranked, but off the boards until its player confirms it, for this reason: it is
    /// far above the player's own record (see docs/TRUST.md).
    Pending(String),
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::Ok {
                id,
                score,
                pb,
                share,
                ranked,
            } => {
                let pb = if *pb { "pb" } else { "-" };
                write!(f, "ok {id} {score} {pb} {share} ")?;
                match ranked {
                    Ranked::Yes => f.write_str("ranked"),
                    Ranked::No(why) => write!(f, "unranked {}", one_line(why)),
                    Ranked::Pending(why) => write!(f, "pending {}", one_line(why)),
                }
            }
            Line::No {
                kind: Some(kind),
                why,
            } => write!(f, "no {kind} {}", one_line(why)),
            Line::No { kind: None, why } => write!(f, "no {}", one_line(why)),
        }
    }
}

/// A reason is one line, whatever it quotes.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// A line that is neither `ok …` nor `no …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError(pub String);

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a submit answer line: {}",
            typepper_engine::said::quoted(&self.0)
        )
    }
}

impl std::error::Error for LineError {}

impl FromStr for Line {
    type Err = LineError;

    fn from_str(line: &str) -> Result<Line, LineError> {
        let bad = || LineError(line.to_owned());
        if let Some(rest) = line.strip_prefix("no ") {
            // A server from before the kinds wrote the sentence alone: a first word that
            // is no kind is the sentence's.
            let (word, why) = rest.split_once(' ').unwrap_or((rest, ""));
            return Ok(match REFUSALS.iter().find(|k| **k == word) {
                Some(kind) => Line::No {
                    kind: Some(kind),
                    why: why.to_owned(),
                },
                None => Line::No {
                    kind: None,
                    why: rest.to_owned(),
                },
            });
        }
        let rest = line.strip_prefix("ok ").ok_or_else(bad)?;
        let mut fields = rest.splitn(6, ' ');
        let mut field = || fields.next().ok_or_else(bad);
        let (id, score, pb, share) = (field()?, field()?, field()?, field()?);
        let ranked = match (fields.next(), fields.next()) {
            // Servers before issued seeds ranked every run and said nothing.
            (None, _) | (Some("ranked"), None) => Ranked::Yes,
            (Some("unranked"), Some(why)) => Ranked::No(why.to_owned()),
            (Some("pending"), Some(why)) => Ranked::Pending(why.to_owned()),
            _ => return Err(bad()),
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
            ranked,
        })
    }
}

/// Seeds one player may hold unplayed: asking for more withdraws the oldest. The game
/// holds one for each mode on its menu.
pub const MAX_OPEN_SEEDS: u32 = 32;

/// The body of `POST /v1/seeds`: the mode to play next.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedRequest {
    /// `Mode::key`: `time:15`, `zen`, `pursuit:7`…
    pub mode: String,
}

/// A seed the server issued to a player: `{"mode": "time:15", "seed": "<u64>",
/// "expires": "2026-12-02T13:00:00Z"}`. The seed travels as a decimal string because
/// JSON numbers lose precision past 2⁵³ in JavaScript.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct IssuedSeed {
    /// The mode it counts for.
    pub mode: String,
    /// The seed.
    #[serde(with = "decimal")]
    pub seed: u64,
    /// When it stops counting, RFC 3339 in UTC.
    pub expires: String,
    /// The daily it is the text of, when asked for by [`daily::ASK`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daily: Option<u32>,
    /// Why a round on it won't rank, if it won't: a daily's second try.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unranked: Option<String>,
}

/// The body of `POST /v1/players`: the name to link a game to, and what to call the
/// device that links it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NewPlayer {
    /// See [`check_name`].
    pub name: String,
    /// What its player will see this device as ([`devices::device_name`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
}

/// A linked player: the answer to `POST /v1/players`, and what the game keeps.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    /// The chosen name.
    pub name: String,
    /// The secret the server knows the player by (`Authorization: Bearer <token>`).
    pub token: String,
}

/// `DELETE /v1/players/me`'s answer: the account is gone, and when the rest goes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Deleted {
    /// The name the account had.
    pub name: String,
    /// When every row of theirs is gone, at the latest: RFC 3339, UTC.
    pub rows_gone_by: String,
    /// When another player may take the name: RFC 3339, UTC.
    pub name_free_from: String,
}

/// `GET /v1/boards/<mode>[?month=YYYY-MM]`: a month's best run per player.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Board {
    /// `Mode::key`.
    pub mode: String,
    /// `Mode::title`: `BLITZ 15s`.
    pub title: String,
    /// What `score` counts: `wpm`, or `words` in HOT PURSUIT.
    pub unit: String,
    /// `YYYY-MM`, in UTC: the month shown; this month, for another period.
    pub month: String,
    /// Which runs it ranks: [`Period::name`] (`month` from servers before periods).
    #[serde(default = "Period::month_name")]
    pub period: String,
    /// Best first.
    pub rows: Vec<BoardRow>,
}

/// The runs a board ranks, each player by their best of them. Periods are UTC: a day
/// from 00:00, a week from Monday 00:00, a month from its first day.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Period {
    /// Today's.
    Day,
    /// This week's.
    Week,
    /// This month's (or a month's named by `?month=`).
    #[default]
    Month,
    /// All time's: each player's all-time best.
    All,
}

impl Period {
    /// Every period, in the order a key moves through them.
    pub const ALL: [Period; 4] = [Period::Day, Period::Week, Period::Month, Period::All];

    /// As `?period=` writes it: `day`, `week`, `month`, `all`.
    pub fn name(self) -> &'static str {
        match self {
            Period::Day => "day",
            Period::Week => "week",
            Period::Month => "month",
            Period::All => "all",
        }
    }

    fn month_name() -> String {
        Period::Month.name().into()
    }

    /// The period `?period=` names.
    pub fn parse(name: &str) -> Option<Period> {
        Period::ALL.into_iter().find(|p| p.name() == name)
    }

    /// As a board's title says it: `today`, `this week`, `this month`, `all time`.
    pub fn label(self) -> &'static str {
        match self {
            Period::Day => "today",
            Period::Week => "this week",
            Period::Month => "this month",
            Period::All => "all time",
        }
    }

    /// The day or week that holds `unix_ms`: its first instant and the first after it
    /// (Unix ms). `None` for a month or all time, which the server keeps bests for.
    pub fn range(self, unix_ms: i64) -> Option<(i64, i64)> {
        const DAY_MS: i64 = 86_400_000;
        let day = unix_ms.div_euclid(DAY_MS);
        match self {
            Period::Day => Some((day * DAY_MS, (day + 1) * DAY_MS)),
            // 1970-01-01 was a Thursday: three days after a Monday.
            Period::Week => {
                let monday = day - (day + 3).rem_euclid(7);
                Some((monday * DAY_MS, (monday + 7) * DAY_MS))
            }
            Period::Month | Period::All => None,
        }
    }
}

/// A row of a [`Board`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BoardRow {
    /// 1 for the best.
    pub rank: u32,
    /// Who.
    pub name: String,
    /// The headline number, in the board's unit.
    pub score: u32,
    /// Words per minute, to two places.
    pub wpm: f64,
    /// Accuracy in percent, to two places.
    pub accuracy: f64,
    /// The run's id, for `GET /v1/runs/<id>`.
    pub run: String,
    /// When it was played, RFC 3339 in UTC.
    pub time: String,
}

/// How a `v1` command over SSH ends: its exit status, one for each thing a client does
/// differently (docs/spec/replays.md, "Over SSH").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// 0: answered; stdout holds the answer.
    Ok,
    /// 1: refused; stderr holds the sentence why.
    Refused,
    /// 2: not a `v1` command (or a shell, a terminal, a subsystem).
    Usage,
    /// 3: the key is linked to no player (HTTP's 401): link it with `v1 link`, then ask
    /// again.
    NotLinked,
}

impl Exit {
    /// Every exit status, in order.
    pub const ALL: [Exit; 4] = [Exit::Ok, Exit::Refused, Exit::Usage, Exit::NotLinked];

    /// The status's number.
    pub const fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::Refused => 1,
            Exit::Usage => 2,
            Exit::NotLinked => 3,
        }
    }

    /// The exit status with this number.
    pub fn of(code: i32) -> Option<Exit> {
        Exit::ALL.into_iter().find(|e| i32::from(e.code()) == code)
    }
}

/// A `u64` as a decimal string: JavaScript's numbers would round a seed.
pub(crate) mod decimal {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse()
            .map_err(|_| D::Error::custom(format!("{text:?} is not a u64 in decimal")))
    }
}

/// An optional `u64` as a decimal string, or `null`.
pub(crate) mod decimal_opt {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.collect_str(v),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        #[derive(serde::Deserialize)]
        struct Decimal(#[serde(with = "super::decimal")] u64);
        Ok(Option::<Decimal>::deserialize(d)?.map(|Decimal(v)| v))
    }
}

/// Player names: 3 to 20 ASCII letters, digits, `_` or `-`; unique by [`name_key`].
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

/// The key under which two names are one name: case aside, `_` and `-` aside, and
/// letters that look alike taken as one (`I`, `l` and `1`; `O` and `0`; `rn` and `m`; `vv`
/// and `w`; `cl` and `d`; `5` and `s`; `8` and `b`; `2` and `z`; `9`, `q` and `g`), so that
/// nobody can pass for `ll1` as `Il1`, or for `mike` as `rnike`. The server keeps names
/// unique by it. Its migration (`0004_guard.sql`) spells the same fold in SQL: change both.
pub fn name_key(name: &str) -> String {
    // Letters first, so that a pair spelled with a look-alike (`cI`, `c1`) folds as the
    // pair does.
    let letters: String = name
        .to_lowercase()
        .chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .map(|c| match c {
            'i' | '1' => 'l',
            '0' => 'o',
            '5' => 's',
            '8' => 'b',
            '2' => 'z',
            '9' | 'q' => 'g',
            c => c,
        })
        .collect();
    letters
        .replace("rn", "m")
        .replace("vv", "w")
        .replace("cl", "d")
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

    /// `YYYY-MM-DD`, the day quotas are counted by.
    pub fn day(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// RFC 3339: `2026-12-01T19:52:00Z`.
    pub fn rfc3339(&self) -> String {
        format!(
            "{}T{:02}:{:02}:{:02}Z",
            self.day(),
            self.hour,
            self.minute,
            self.second
        )
    }

    /// Unix milliseconds of an RFC 3339 time in UTC as [`Utc::rfc3339`] writes it
    /// (fractions of a second are dropped); `None` for anything else.
    pub fn parse(text: &str) -> Option<i64> {
        let b = text.as_bytes();
        let shape = b.len() >= 20
            && b[4] == b'-'
            && b[7] == b'-'
            && b[10] == b'T'
            && b[13] == b':'
            && b[16] == b':'
            && b[b.len() - 1] == b'Z';
        if !shape {
            return None;
        }
        let num = |from: usize, to: usize| -> Option<i64> {
            let s = text.get(from..to)?;
            s.bytes()
                .all(|c| c.is_ascii_digit())
                .then(|| s.parse().ok())?
        };
        let (y, m, d) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
        let (h, min, s) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
        let fraction = text.get(19..text.len() - 1)?;
        let fraction_ok = fraction.is_empty()
            || fraction
                .strip_prefix('.')
                .is_some_and(|f| !f.is_empty() && f.bytes().all(|c| c.is_ascii_digit()));
        if !(1..=12).contains(&m) || !(1..=31).contains(&d) || h > 23 || min > 59 || s > 59 {
            return None;
        }
        if !fraction_ok {
            return None;
        }
        // Howard Hinnant's `days_from_civil`, the inverse of `Utc::of`.
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        let days = era * 146_097 + doe - 719_468;
        let ms = ((days * 24 + h) * 60 + min) * 60_000 + s * 1000;
        // 31 February reads as a real date only if it comes back as itself.
        (Utc::of(ms).day == d as u32).then_some(ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_starts_at_midnight_and_a_week_on_monday_utc() {
        // 2026-12-05T03:12:07Z, a Saturday.
        let now = 1_796_440_327_000;
        let (from, until) = Period::Day.range(now).unwrap();
        assert_eq!(Utc::of(from).rfc3339(), "2026-12-05T00:00:00Z");
        assert_eq!(Utc::of(until).rfc3339(), "2026-12-06T00:00:00Z");
        let (monday, next) = Period::Week.range(now).unwrap();
        assert_eq!(Utc::of(monday).rfc3339(), "2026-11-30T00:00:00Z");
        assert_eq!(Utc::of(next).rfc3339(), "2026-12-07T00:00:00Z");
        // A Monday's first instant is its week's, and the instant before is the last week's.
        assert_eq!(Period::Week.range(monday), Some((monday, next)));
        assert_eq!(Period::Week.range(monday - 1).unwrap().1, monday);
        assert_eq!(
            Utc::of(Period::Week.range(0).unwrap().0).day(),
            "1969-12-29"
        );
        assert_eq!(
            (Period::Month.range(now), Period::All.range(now)),
            (None, None)
        );
        for p in Period::ALL {
            assert_eq!(Period::parse(p.name()), Some(p));
        }
        assert_eq!(Period::parse("year"), None);
    }

    #[test]
    fn names_that_look_alike_have_one_key() {
        assert_eq!(name_key("Il1"), name_key("ll1"));
        assert_eq!(name_key("Il1"), "lll");
        assert_eq!(name_key("B0B"), name_key("bob"));
        assert_eq!(name_key("ADA"), "ada");
        assert_ne!(name_key("ada"), name_key("ana"));
        for (a, b) in [
            ("rnike", "mike"),
            ("vvendy", "wendy"),
            ("clara", "dara"),
            ("5ammy", "sammy"),
            ("8obby", "bobby"),
            ("2iggy", "ziggy"),
            ("greqq", "9regg"),
            ("ada_", "ada"),
            ("_a-da", "ada"),
            ("cIara", "clara"),
            ("c1ara", "dara"),
        ] {
            assert_eq!(name_key(a), name_key(b), "{a} and {b}");
        }
    }

    #[test]
    fn exit_statuses_read_back() {
        for exit in Exit::ALL {
            assert_eq!(Exit::of(exit.code().into()), Some(exit));
        }
        assert_eq!(Exit::of(3), Some(Exit::NotLinked));
        assert_eq!(Exit::of(255), None);
    }

    #[test]
    fn lines_read_back() {
        let table = [
            (
                "ok 7Xf9qyuC 108 - https://r.typepper.com/7Xf9qyuC ranked",
                Line::Ok {
                    id: "7Xf9qyuC".into(),
                    score: 108,
                    pb: false,
                    share: "https://r.typepper.com/7Xf9qyuC".into(),
                    ranked: Ranked::Yes,
                },
            ),
            (
                "ok abcdEFGH 31 - http://127.0.0.1:8080/r/abcdEFGH unranked under 75% accuracy",
                Line::Ok {
                    id: "abcdEFGH".into(),
                    score: 31,
                    pb: false,
                    share: "http://127.0.0.1:8080/r/abcdEFGH".into(),
                    ranked: Ranked::No("under 75% accuracy".into()),
                },
            ),
            (
                "ok abcdEFGH 248 - http://x/r/abcdEFGH pending far above your ranked best",
                Line::Ok {
                    id: "abcdEFGH".into(),
                    score: 248,
                    pb: false,
                    share: "http://x/r/abcdEFGH".into(),
                    ranked: Ranked::Pending("far above your ranked best".into()),
                },
            ),
            (
                "no other_rules recorded by rules VERSION 3, which this engine doesn't have: it plays VERSION 1 and 2",
                Line::No {
                    kind: Some("other_rules"),
                    why: "recorded by rules VERSION 3, which this engine doesn't have: it plays VERSION 1 and 2".into(),
                },
            ),
            // A server from before the kinds: the sentence alone.
            (
                "no a copy of run abcdEFGH",
                Line::No {
                    kind: None,
                    why: "a copy of run abcdEFGH".into(),
                },
            ),
        ];
        for (text, line) in table {
            assert_eq!(line.to_string(), text);
            assert_eq!(text.parse::<Line>(), Ok(line));
        }
        assert!("ok x".parse::<Line>().is_err());
        assert!("yes".parse::<Line>().is_err());
        assert!("ok a 1 - s maybe".parse::<Line>().is_err());
        assert!(
            "ok a 1 - s unranked".parse::<Line>().is_err(),
            "a reason is owed"
        );
        let two_lines = Line::No {
            kind: Some("copy"),
            why: "a\nb".into(),
        };
        assert_eq!(two_lines.to_string(), "no copy a b");
        // A server from before issued seeds says nothing: it ranked everything.
        let old = "ok abcdEFGH 90 pb http://x/r/abcdEFGH"
            .parse::<Line>()
            .unwrap();
        assert!(matches!(
            old,
            Line::Ok {
                ranked: Ranked::Yes,
                pb: true,
                ..
            }
        ));
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
    fn rfc_3339_times_read_back() {
        for ms in [
            0,
            1_796_154_720_000,
            951_782_400_000 + 3_723_000,
            -86_400_000,
        ] {
            let text = Utc::of(ms).rfc3339();
            assert_eq!(Utc::parse(&text), Some(ms), "{text}");
        }
        assert_eq!(Utc::of(1_796_154_720_000).rfc3339(), "2026-12-01T19:52:00Z");
        assert_eq!(Utc::of(1_796_154_720_000).day(), "2026-12-01");
        assert_eq!(
            Utc::parse("2026-12-01T19:52:00.250Z"),
            Some(1_796_154_720_000)
        );
        for bad in [
            "",
            "2026-12-01 19:52:00Z",
            "2026-02-31T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-12-01T19:52:00+01:00",
            "2026-12-01T19:52:00.Z",
            "+026-12-01T19:52:00Z",
        ] {
            assert_eq!(Utc::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn issued_seeds_carry_the_seed_as_a_decimal_string() {
        let seed = IssuedSeed {
            mode: "time:15".into(),
            seed: u64::MAX,
            expires: "2026-12-02T13:00:00Z".into(),
            daily: None,
            unranked: None,
        };
        let json = serde_json::to_string(&seed).unwrap();
        assert_eq!(
            json,
            r#"{"mode":"time:15","seed":"18446744073709551615","expires":"2026-12-02T13:00:00Z"}"#
        );
        assert_eq!(serde_json::from_str::<IssuedSeed>(&json).unwrap(), seed);
        let number = r#"{"mode":"zen","seed":5,"expires":"x"}"#;
        assert!(serde_json::from_str::<IssuedSeed>(number).is_err());
        let request: SeedRequest = serde_json::from_str(r#"{"mode": "zen"}"#).unwrap();
        assert_eq!(request.mode, "zen");
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
