//! Decode throughput and verification rate, beside serde_json reading the same rounds in
//! Monkeytype's replay shape. Figures go in docs/PERFORMANCE.md.
//!
//! Run with `cargo xtask bench` (or `cargo bench -p typepper-engine`).

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::Deserialize;
use typepper_engine::synth::{Typist, synth, synth_on};
use typepper_engine::{Mode, Op, Replay, Round, Rules};

/// One entry of Monkeytype's replay: `{"action": ..., "value": ..., "time": <float ms>}`.
#[derive(Deserialize)]
#[allow(dead_code)] // Parsed to measure parsing; the fields are never read.
struct MonkeyAction {
    action: String,
    value: Option<serde_json::Value>,
    time: f64,
}

/// The same round as Monkeytype's client would record it: letters judged as it types,
/// words submitted, times as `performance.now()` floats.
fn monkeytype_json(replay: &Replay) -> String {
    let mut round = replay.setup().expect("a synthetic round has a mode");
    let mut out = String::from("[");
    for (i, (at, op)) in replay.timeline().enumerate() {
        let at = at.expect("synthetic times fit");
        let fx = round.apply(at, op).expect("a synthetic round plays");
        let (action, value) = match (op, fx.committed, fx.judged) {
            (Op::Backspace, ..) => ("deleteLetter", String::from("null")),
            (Op::End, ..) => ("end", String::from("null")),
            (_, Some(true), _) => ("submitCorrectWord", round.view(at).current().to_string()),
            (_, Some(false), _) => ("submitErrorWord", round.view(at).current().to_string()),
            (Op::Char(c), _, Some(false)) => ("incorrectLetter", format!("\"{c}\"")),
            (Op::Char(c), ..) => ("correctLetter", format!("\"{c}\"")),
        };
        if i > 0 {
            out.push(',');
        }
        // performance.now() deltas carry sub-millisecond noise like this.
        let _ = write!(
            out,
            r#"{{"action":"{action}","value":{value},"time":{at}.{:012}}}"#,
            (u64::from(at) * 7_919_993) % 1_000_000_000_000
        );
    }
    out.push(']');
    out
}

fn rounds() -> [(&'static str, Replay); 2] {
    let typist = Typist {
        wpm: 100,
        accuracy: 96,
        ..Typist::default()
    };
    [
        ("15s", synth(Mode::BLITZ_15, 1, &typist)),
        ("60s", synth(Mode::BLITZ_60, 1, &typist)),
    ]
}

fn decode(c: &mut Criterion) {
    for (name, replay) in rounds() {
        let bytes = replay.encode();
        let json = monkeytype_json(&replay);
        eprintln!(
            "size of a {name} round at 100 wpm ({} inputs): format 1 {} B, Monkeytype JSON {} B ({:.1}x)",
            replay.inputs.len(),
            bytes.len(),
            json.len(),
            json.len() as f64 / bytes.len() as f64
        );
        let mut g = c.benchmark_group(format!("decode {name}"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function("format 1", |b| {
            b.iter(|| Replay::decode(black_box(&bytes)).expect("decodes"))
        });
        g.throughput(Throughput::Bytes(json.len() as u64));
        g.bench_function("serde_json Monkeytype", |b| {
            b.iter(|| serde_json::from_str::<Vec<MonkeyAction>>(black_box(&json)).expect("parses"))
        });
        g.finish();
    }
}

fn verify(c: &mut Criterion) {
    let mut g = c.benchmark_group("verify");
    g.throughput(Throughput::Elements(1));
    for (name, replay) in rounds() {
        let bytes = replay.encode();
        g.bench_function(format!("{name} decode+play+score"), |b| {
            b.iter(|| {
                let replay = Replay::decode(black_box(&bytes)).expect("decodes");
                replay.score().expect("plays")
            })
        });
        let json = monkeytype_json(&replay);
        g.bench_function(format!("{name} serde_json parse only"), |b| {
            b.iter(|| serde_json::from_str::<Vec<MonkeyAction>>(black_box(&json)).expect("parses"))
        });
    }
    // The same 60 s of typing as an older game recorded it: VERSION 1's rules (its heat a
    // linear cooling), which verification plays as fast.
    let typist = Typist {
        wpm: 100,
        accuracy: 96,
        ..Typist::default()
    };
    let v1 = synth_on(Round::under(Rules::V1, Mode::BLITZ_60, 1), &typist).encode();
    g.bench_function("60s VERSION 1 decode+play+score", |b| {
        b.iter(|| {
            let replay = Replay::decode(black_box(&v1)).expect("decodes");
            replay.score().expect("plays")
        })
    });
    // The fixed cost of a verification: drawing the first words.
    g.bench_function("60s Round::new", |b| {
        b.iter(|| Round::new(Mode::BLITZ_60, black_box(1)))
    });
    g.finish();
}

/// Issue 40's kinds of round beside a BLITZ 15s round of the same length: each 15 s of
/// typing at 100 wpm (WORDS 25 takes about that), so a ratio is the cost of its text.
fn kinds(c: &mut Criterion) {
    let typist = Typist {
        wpm: 100,
        accuracy: 96,
        ..Typist::default()
    };
    let mut g = c.benchmark_group("verify kinds");
    g.throughput(Throughput::Elements(1));
    for key in [
        "time:15",
        "words:25",
        "time:15/p",
        "time:15/n",
        "time:15/p/n",
        "time:15@fr",
        "time:15@ru",
        "time:15/p/n@de",
        "time:15@en10k",
    ] {
        let bytes = synth(key.parse().expect("a mode"), 1, &typist).encode();
        g.bench_function(key, |b| {
            b.iter(|| {
                let replay = Replay::decode(black_box(&bytes)).expect("decodes");
                replay.score().expect("plays")
            })
        });
    }
    // Issue 41's given texts: a quote of 25 words, and the same passage as a custom text
    // (format 2, its text in the replay and checked as it is read).
    let passage = typepper_engine::quotes::passages(typepper_engine::Language::English)
        .expect("the English quotes")
        .iter()
        .find(|p| p.text.split(' ').count() == 25)
        .expect("a passage of 25 words");
    let n = typepper_engine::quotes::passages(typepper_engine::Language::English)
        .expect("the English quotes")
        .iter()
        .position(|p| p == passage)
        .expect("it")
        + 1;
    let quote = synth(format!("quote:{n}").parse().expect("a mode"), 1, &typist).encode();
    let round = typepper_engine::Round::custom(passage.text, 1).expect("a text");
    let custom = typepper_engine::synth::synth_on(round, &typist).encode();
    for (name, bytes) in [
        ("quote of 25 words", quote),
        ("custom, the same text", custom),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let replay = Replay::decode(black_box(&bytes)).expect("decodes");
                replay.score().expect("plays")
            })
        });
    }
    g.finish();
}

criterion_group!(benches, decode, verify, kinds);
criterion_main!(benches);
