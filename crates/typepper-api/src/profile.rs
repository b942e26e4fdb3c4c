//! `GET /v1/players/<name>`: a player's profile, what the server keeps of them shown to
//! anyone (docs/spec/players.md, "Profiles"). Every run it names is a replay anyone can
//! watch and race.

/// The most points the chart of a profile has: a player's rounds beyond it are averaged
/// in groups of consecutive rounds, so a profile of ten thousand rounds is as small as
/// one of a hundred.
pub const CHART_POINTS: usize = 120;

/// The most of a player's latest runs a profile lists.
pub const RECENT_RUNS: usize = 20;

/// The most of a player's latest runs the keys analysis reads…
pub const KEYS_RUNS: usize = 100;

/// …and the most keystrokes: a hundred hour-long ZEN rounds would take the server a
/// tenth of a second to play again for each profile.
pub const KEYS_INPUTS: usize = 60_000;

/// How many keys and letter pairs each of the keys analysis's lists holds.
pub const KEYS_LISTED: usize = 5;

/// A player's profile.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Profile {
    /// Their name.
    pub name: String,
    /// When they became a player: RFC 3339, UTC.
    pub joined: String,
    /// Rounds and time typed since they joined.
    pub all: Typed,
    /// Rounds and time typed this month (UTC).
    pub month: Typed,
    /// Their all-time best ranked run of each mode they have one of, the menu's order.
    pub bests: Vec<ProfileRun>,
    /// Their latest runs the server keeps, newest first: at most [`RECENT_RUNS`].
    pub recent: Vec<ProfileRun>,
    /// wpm and accuracy over every round the server has of them, oldest first.
    pub chart: Vec<Point>,
    /// What their latest runs say about their keys.
    pub keys: Keys,
}

impl Profile {
    /// The best of their bests counted in wpm (a HOT PURSUIT's are words): what the page
    /// and the card lead with.
    pub fn best_wpm(&self) -> Option<&ProfileRun> {
        (self.bests.iter())
            .filter(|b| b.unit == "wpm")
            .max_by(|a, b| a.wpm.total_cmp(&b.wpm))
    }

    /// The day they joined, `YYYY-MM-DD`.
    pub fn joined_day(&self) -> &str {
        self.joined.get(..10).unwrap_or_default()
    }
}

/// Rounds and the time they took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Typed {
    /// Rounds stored.
    pub rounds: u32,
    /// Their time, first key to last, in seconds.
    pub seconds: u32,
}

impl Typed {
    /// `312 rounds · 4 h 12 min`, `1 round · 40 s`.
    pub fn said(&self) -> String {
        // Parts joined, not `format!`ted: the browser's wasm pays for each format.
        let s = self.seconds;
        let (h, m) = ((s / 3600).to_string(), (s % 3600 / 60).to_string());
        let time = match (s / 3600, s % 3600 / 60) {
            (0, 0) => [&s.to_string(), " s"].concat(),
            (0, _) => [&m, " min"].concat(),
            _ => [&h, " h ", &m, " min"].concat(),
        };
        let rounds = if self.rounds == 1 {
            " round · "
        } else {
            " rounds · "
        };
        [&grouped(self.rounds), rounds, &time].concat()
    }
}

/// `n` with its thousands marked, as a person reads a count: `2,031`, `50,000`.
pub fn grouped(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One of a player's runs.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ProfileRun {
    /// The run's id, for `GET /v1/runs/<id>`.
    pub run: String,
    /// `Mode::key`.
    pub mode: String,
    /// `Mode::title`: `BLITZ 15s`.
    pub title: String,
    /// The headline number, in `unit`.
    pub score: u32,
    /// What `score` counts: `wpm`, `words`.
    pub unit: String,
    /// Words per minute, to two places.
    pub wpm: f64,
    /// Accuracy in percent, to two places.
    pub accuracy: f64,
    /// When it was played, RFC 3339 in UTC.
    pub time: String,
    /// It counts for the boards (a daily's: its first try, on the day's board).
    pub ranked: bool,
    /// The daily it is a round of, if it is one: its `title` says so
    /// (`daily #312 · BLITZ 30s`), and the daily is played again from it, unranked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daily: Option<u32>,
}

/// A point of the chart: the mean of a group of consecutive rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Point {
    /// The number of the group's last round, counting the player's first as 1.
    pub round: u32,
    /// Their mean wpm, in hundredths.
    pub wpm_x100: u32,
    /// Their mean accuracy, in hundredths of a percent.
    pub accuracy_x100: u32,
}

/// The keys analysis (the game's `keys` module) over a player's latest runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Keys {
    /// How many runs it read: at most [`KEYS_RUNS`], of at most [`KEYS_INPUTS`] keys
    /// (the first is read whatever its length).
    pub runs: u32,
    /// The keys that went wrong most often, worst first.
    pub missed: Vec<KeyLine>,
    /// The keys slowest to type, by their median time, slowest first.
    pub slowest: Vec<KeyLine>,
    /// The letter pairs that went wrong most often, worst first.
    pub missed_pairs: Vec<KeyLine>,
    /// The letter pairs slowest to type, slowest first.
    pub slowest_pairs: Vec<KeyLine>,
}

/// A key's or a letter pair's numbers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KeyLine {
    /// The key (`e`, `space`) or the pair (`th`).
    pub key: String,
    /// Times it was asked for.
    pub seen: u32,
    /// How often it went wrong, in hundredths of a percent.
    pub error_x100: u32,
    /// Its median time, in ms.
    pub median_ms: u32,
}

/// The points of a chart of `rounds` (wpm and accuracy in hundredths, oldest first):
/// each round its own point up to [`CHART_POINTS`], and beyond it consecutive rounds
/// averaged in [`CHART_POINTS`] groups as even as can be (the first ones a round larger).
pub fn chart(rounds: &[(u32, u32)]) -> Vec<Point> {
    let n = rounds.len();
    let groups = n.min(CHART_POINTS);
    let mut points = Vec::with_capacity(groups);
    let mut start = 0;
    for g in 0..groups {
        let len = n / groups + usize::from(g < n % groups);
        let group = &rounds[start..start + len];
        let mean = |f: fn(&(u32, u32)) -> u32| {
            (group.iter().map(|r| u64::from(f(r))).sum::<u64>() / len as u64) as u32
        };
        start += len;
        points.push(Point {
            round: start as u32,
            wpm_x100: mean(|r| r.0),
            accuracy_x100: mean(|r| r.1),
        });
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_typed_is_said_in_hours_and_minutes() {
        let said = |rounds, seconds| Typed { rounds, seconds }.said();
        assert_eq!(said(1, 40), "1 round · 40 s");
        assert_eq!(said(0, 0), "0 rounds · 0 s");
        assert_eq!(said(12, 3599), "12 rounds · 59 min");
        assert_eq!(said(312, 15_120), "312 rounds · 4 h 12 min");
        assert_eq!(said(50_000, 1_500_000), "50,000 rounds · 416 h 40 min");
        let counts = [0, 999, 1_000, 2_031, 123_456, 1_234_567, u32::MAX];
        let said: Vec<String> = counts.into_iter().map(grouped).collect();
        assert_eq!(
            said,
            [
                "0",
                "999",
                "1,000",
                "2,031",
                "123,456",
                "1,234,567",
                "4,294,967,295"
            ]
        );
    }

    #[test]
    fn a_chart_of_few_rounds_is_every_round() {
        let points = chart(&[(5000, 9000), (6000, 9500)]);
        assert_eq!(
            points,
            [
                Point {
                    round: 1,
                    wpm_x100: 5000,
                    accuracy_x100: 9000
                },
                Point {
                    round: 2,
                    wpm_x100: 6000,
                    accuracy_x100: 9500
                }
            ]
        );
        assert!(chart(&[]).is_empty());
    }

    #[test]
    fn a_chart_of_thousands_of_rounds_averages_them_in_even_groups() {
        // 250 rounds: 10 groups of 3, then 110 of 2; each round's wpm is its number.
        let rounds: Vec<(u32, u32)> = (1..=250).map(|i| (i * 100, 10_000)).collect();
        let points = chart(&rounds);
        assert_eq!(points.len(), CHART_POINTS);
        assert_eq!(points[0].round, 3);
        assert_eq!(points[0].wpm_x100, 200);
        assert_eq!(points[9].round, 30);
        assert_eq!(points[10].round, 32);
        assert_eq!(points[10].wpm_x100, 3150);
        assert_eq!(points.last().map(|p| p.round), Some(250));
        assert!(points.iter().all(|p| p.accuracy_x100 == 10_000));
    }
}
