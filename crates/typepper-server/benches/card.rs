//! What a run's card costs to draw: playing its replay and laying it out (the SVG), and
//! drawing that to a PNG, for a BLITZ 60s round and a ZEN round of ten minutes (its chart
//! the longest lines a usual card has). Prints each card's bytes too. Figures go in
//! docs/PERFORMANCE.md.
//!
//! Run with `cargo xtask bench` (or `cargo bench -p typepper-server --bench card`).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use typepper_engine::Mode;
use typepper_engine::synth::{Typist, synth};
use typepper_server::card::{self, Card, Cards};

fn card(c: &mut Criterion) {
    let typist = Typist {
        wpm: 100,
        accuracy: 96,
        zen_ms: 600_000,
        ..Typist::default()
    };
    let cards = Cards::new(0);
    for (name, mode) in [("BLITZ 60s", Mode::BLITZ_60), ("ZEN 10 min", Mode::ZEN)] {
        let replay = synth(mode, 1, &typist).encode();
        let of = || Card::of(&replay, "ada".into(), 1_796_154_720_000).expect("plays");
        let svg = of().svg();
        let png = cards.draw(&svg).expect("draws");
        println!("card of {name}: {} bytes of PNG", png.len());
        let mut g = c.benchmark_group(format!("card {name}"));
        g.bench_function("play and lay out (SVG)", |b| {
            b.iter(|| black_box(of()).svg())
        });
        g.bench_function("draw (PNG)", |b| {
            b.iter(|| cards.draw(black_box(&svg)).expect("draws"))
        });
        // Where a draw's time goes: the pixels, then the PNG.
        g.bench_function("render (pixels)", |b| {
            b.iter(|| cards.render(black_box(&svg)).expect("renders"))
        });
        let pixels = cards.render(&svg).expect("renders");
        g.bench_function("encode (PNG)", |b| {
            b.iter(|| card::encode(black_box(&pixels)).expect("encodes"))
        });
        g.finish();
    }
}

criterion_group!(benches, card);
criterion_main!(benches);
