//! What the trust checks cost beside verification itself: playing a replay through the
//! engine (the score) against judging it as the server does (the score, the round's
//! fingerprint, and the checks for junk and for key timing no person produces). The
//! copy lookup and the seed are database reads, measured by the load test. Figures go in
//! docs/PERFORMANCE.md.
//!
//! Run with `cargo xtask bench` (or `cargo bench -p typepper-server`).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use typepper_engine::synth::{Typist, synth};
use typepper_engine::{Mode, Replay};
use typepper_server::submit::{self, Entry};

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

fn judge(c: &mut Criterion) {
    for (name, replay) in rounds() {
        let bytes = replay.encode();
        let (_, score) = replay.play().expect("a synthetic round plays");
        let entry = Entry {
            claim: score.headline().value,
            replay: replay.clone(),
            bytes: &bytes,
        };
        let mut g = c.benchmark_group(format!("verify {name}"));
        g.bench_function("play (the score)", |b| {
            b.iter(|| black_box(&replay).play().expect("plays"))
        });
        g.bench_function("judge (score, fingerprint, checks)", |b| {
            b.iter(|| submit::judge(black_box(&entry)).expect("a person's round"))
        });
        g.finish();
    }
}

criterion_group!(benches, judge);
criterion_main!(benches);
