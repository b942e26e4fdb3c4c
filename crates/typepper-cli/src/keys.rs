//! `typepper keys`: what a set of replays says about each key and letter pair, from the
//! data dir's history or from given files. The analysis is the game's own
//! ([`typepper_game::keys`]), the same the keys screen shows.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;
use typepper_engine::Replay;
use typepper_game::keys::{self, Analysis, By, Tally, Trend};

use crate::Refused;

/// The replays to analyse: `files`, or the history kept in the data dir.
fn replays(files: &[PathBuf]) -> Result<Vec<Replay>, Refused> {
    if files.is_empty() {
        let data = typepper_term::data::DataDir::open().map_err(|message| Refused {
            kind: "Io",
            message,
        })?;
        let text = data
            .read(typepper_game::storage::HISTORY)
            .unwrap_or_default();
        let (entries, _) = typepper_game::storage::parse_history(&text);
        if entries.is_empty() {
            return Err(Refused {
                kind: "Empty",
                message: format!(
                    "no rounds in the history at {}: play some, or name replay files",
                    data.path().display()
                ),
            });
        }
        return Ok(entries.into_iter().map(|e| e.replay).collect());
    }
    files
        .iter()
        .map(|f| {
            let loaded = crate::load(f)?;
            Replay::decode(&loaded.bytes).map_err(Refused::from)
        })
        .collect()
}

/// Runs `typepper keys`.
pub fn run(files: &[PathBuf], as_json: bool) -> Result<String, Refused> {
    let replays = replays(files)?;
    let all = Analysis::of(&replays);
    let trend = Trend::of(&replays);
    if as_json {
        return Ok(crate::json::to_string(&KeysJson::new(&all, &trend)));
    }
    let mut out = all.to_string();
    for by in [By::Errors, By::Time] {
        let worst: Vec<String> = all
            .worst_keys(by, 10)
            .iter()
            .map(|k| keys::name(k.key))
            .collect();
        let pairs: Vec<String> = all
            .worst_pairs(by, 10)
            .iter()
            .map(|p| format!("{}{}", p.pair[0], p.pair[1]))
            .collect();
        let _ = writeln!(
            out,
            "worst by {}: keys {} · pairs {}",
            if by == By::Errors { "errors" } else { "time" },
            or_none(&worst),
            or_none(&pairs)
        );
    }
    let _ = writeln!(
        out,
        "trend, the last {} rounds against the {} before: {}",
        trend.recent.rounds,
        trend.before.rounds,
        Trend::line(Some(&trend.before.overall), Some(&trend.recent.overall))
    );
    match all.drill() {
        Some(letters) => {
            let _ = writeln!(out, "drill these: drill2:{letters}");
        }
        None => {
            let _ = writeln!(
                out,
                "drill these: none yet (a letter is drilled once it went wrong 3 times at 1.5× your error rate, or takes 1.2× your time)"
            );
        }
    }
    Ok(out)
}

fn or_none(list: &[String]) -> String {
    if list.is_empty() {
        "none yet".into()
    } else {
        list.join(" ")
    }
}

#[derive(Serialize)]
struct KeysJson {
    rounds: usize,
    skipped: usize,
    keys: Vec<StatJson>,
    pairs: Vec<StatJson>,
    overall: StatJson,
    worst_by_errors: Vec<String>,
    worst_by_time: Vec<String>,
    trend: TrendJson,
    drill: Option<String>,
}

#[derive(Serialize)]
struct TrendJson {
    recent_rounds: usize,
    before_rounds: usize,
    recent: StatJson,
    before: StatJson,
}

#[derive(Serialize)]
struct StatJson {
    key: String,
    seen: u32,
    errors: u32,
    error_pct: f64,
    median_ms: Option<u32>,
    p90_ms: Option<u32>,
    /// A key's error rate in the rounds before the last ones, and in the last ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    trend: Option<KeyTrendJson>,
}

#[derive(Serialize)]
struct KeyTrendJson {
    before_error_pct: f64,
    recent_error_pct: f64,
}

impl StatJson {
    fn new(key: String, s: &Tally) -> StatJson {
        StatJson {
            key,
            seen: s.seen,
            errors: s.errors,
            error_pct: f64::from(s.error_x100()) / 100.0,
            median_ms: s.median_ms(),
            p90_ms: s.p90_ms(),
            trend: None,
        }
    }
}

impl KeysJson {
    fn new(a: &Analysis, trend: &Trend) -> KeysJson {
        KeysJson {
            rounds: a.rounds,
            skipped: a.skipped,
            keys: a
                .keys
                .iter()
                .map(|k| StatJson {
                    trend: trend
                        .before
                        .key(k.key)
                        .zip(trend.recent.key(k.key))
                        .map(|(b, r)| KeyTrendJson {
                            before_error_pct: f64::from(b.error_x100()) / 100.0,
                            recent_error_pct: f64::from(r.error_x100()) / 100.0,
                        }),
                    ..StatJson::new(keys::name(k.key), &k.stat)
                })
                .collect(),
            pairs: a
                .pairs()
                .map(|p| StatJson::new(format!("{}{}", p.pair[0], p.pair[1]), &p.stat))
                .collect(),
            overall: StatJson::new("all".into(), &a.overall),
            worst_by_errors: a
                .worst_keys(By::Errors, 10)
                .iter()
                .map(|k| keys::name(k.key))
                .collect(),
            worst_by_time: a
                .worst_keys(By::Time, 10)
                .iter()
                .map(|k| keys::name(k.key))
                .collect(),
            trend: TrendJson {
                recent_rounds: trend.recent.rounds,
                before_rounds: trend.before.rounds,
                recent: StatJson::new("all".into(), &trend.recent.overall),
                before: StatJson::new("all".into(), &trend.before.overall),
            },
            drill: a.drill(),
        }
    }
}
