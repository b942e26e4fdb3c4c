//! The CLI's JSON shapes (documented in the README). Rates are the engine's exact
//! hundredths shown as decimals: `"wpm": 108.52`.

use serde::Serialize;
use typepper_engine::{Mode, Op, Replay, Rules, Score, Tier};

#[derive(Serialize)]
struct Error<'a> {
    error: &'a str,
    message: &'a str,
}

/// `{"error": "<Kind>", "message": "..."}`.
pub fn error(kind: &str, message: &str) -> String {
    to_string(&Error {
        error: kind,
        message,
    })
}

#[derive(Serialize)]
struct Inspect<'a> {
    bytes: usize,
    encoding: &'static str,
    format: u8,
    engine: u32,
    these_rules: bool,
    mode: &'a str,
    title: Option<String>,
    seed: u64,
    header_bytes: usize,
    /// Format 2's text (a CUSTOM TEXT round's), `null` in format 1.
    text: Option<&'a str>,
    duration_ms: u64,
    inputs: Vec<InputJson>,
}

#[derive(Serialize)]
struct InputJson {
    dt: u32,
    at: Option<u32>,
    op: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    char: Option<char>,
}

pub fn inspect(
    replay: &Replay,
    bytes: &[u8],
    encoding: &'static str,
    header: &typepper_engine::Header<'_>,
) -> String {
    let inputs = replay
        .inputs
        .iter()
        .zip(replay.timeline())
        .map(|(input, (at, op))| {
            let (op, char) = match op {
                Op::Backspace => ("backspace", None),
                Op::End => ("end", None),
                Op::Char(c) => ("char", Some(c)),
            };
            InputJson {
                dt: input.dt,
                at,
                op,
                char,
            }
        })
        .collect();
    to_string(&Inspect {
        bytes: bytes.len(),
        encoding,
        format: header.format,
        engine: replay.engine,
        these_rules: replay.rules().is_ok(),
        mode: &replay.mode,
        title: replay.mode.parse::<Mode>().ok().map(Mode::title),
        seed: replay.seed,
        header_bytes: header.len,
        text: replay.text.as_deref(),
        duration_ms: replay.inputs.iter().map(|i| u64::from(i.dt)).sum(),
        inputs,
    })
}

#[derive(Serialize)]
struct ScoreJson<'a> {
    mode: &'a str,
    title: String,
    seed: u64,
    engine: u32,
    /// The rules it was played by: its own (`engine`), or those `--rules` asked for.
    rules: u32,
    headline: HeadlineJson,
    wpm: f64,
    raw: f64,
    accuracy: f64,
    consistency: f64,
    chars: CharsJson,
    words: u32,
    keys: u32,
    peak_heat: u8,
    peak_tier: &'static str,
    level: Option<u8>,
    duration_ms: u32,
    samples: Vec<SampleJson>,
}

#[derive(Serialize)]
struct HeadlineJson {
    value: u32,
    unit: &'static str,
    text: String,
}

#[derive(Serialize)]
struct CharsJson {
    correct: u32,
    wrong: u32,
    extra: u32,
    missed: u32,
}

#[derive(Serialize)]
struct SampleJson {
    wpm: f64,
    raw: f64,
    errors: u32,
}

fn hundredths(x: impl Into<u32>) -> f64 {
    f64::from(x.into()) / 100.0
}

pub fn score(replay: &Replay, rules: Rules, score: &Score) -> String {
    let headline = score.headline();
    to_string(&ScoreJson {
        mode: &replay.mode,
        title: score.mode.title(),
        seed: replay.seed,
        engine: replay.engine,
        rules: rules.version(),
        headline: HeadlineJson {
            value: headline.value,
            unit: headline.unit.as_str(),
            text: headline.to_string(),
        },
        wpm: hundredths(score.wpm_x100),
        raw: hundredths(score.raw_x100),
        accuracy: hundredths(score.accuracy_x100),
        consistency: hundredths(score.consistency_x100),
        chars: CharsJson {
            correct: score.chars.correct,
            wrong: score.chars.wrong,
            extra: score.chars.extra,
            missed: score.chars.missed,
        },
        words: score.words,
        keys: score.keys,
        peak_heat: score.peak_heat,
        peak_tier: Tier::of(score.peak_heat).name(),
        level: score.level,
        duration_ms: score.duration_ms,
        samples: score
            .samples
            .iter()
            .map(|s| SampleJson {
                wpm: hundredths(s.wpm_x100),
                raw: hundredths(s.raw_x100),
                errors: s.errors,
            })
            .collect(),
    })
}

/// `value` as indented JSON and a newline.
pub fn to_string(value: &impl Serialize) -> String {
    let mut s = serde_json::to_string_pretty(value)
        .unwrap_or_else(|e| format!("{{\"error\": \"Json\", \"message\": \"{e}\"}}"));
    s.push('\n');
    s
}
