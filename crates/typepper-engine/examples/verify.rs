//! Verifies one synthetic round of a mode many times: a fixed workload for an instruction
//! count (`valgrind --tool=callgrind`), which is the same on every run, where a timing is
//! not. docs/PERFORMANCE.md has the figures.
//!
//! `cargo run --release -p typepper-engine --example verify -- time:15/p@fr 1000 [rules]`
//! (the rules a round is recorded by: the newest unless given).

use std::hint::black_box;

use typepper_engine::synth::{Typist, synth_on};
use typepper_engine::{Replay, Round, Rules};

fn main() {
    let mut args = std::env::args().skip(1);
    let key = args.next().unwrap_or_else(|| "time:15".into());
    let times: u32 = args.next().map_or(1_000, |n| n.parse().expect("a count"));
    let mode = key.parse().expect("a mode key");
    let rules = args.next().map_or(Rules::NEWEST, |n| {
        Rules::of(n.parse().expect("a version")).expect("rules this engine has")
    });
    let typist = Typist {
        wpm: 100,
        accuracy: 96,
        ..Typist::default()
    };
    let bytes = synth_on(Round::under(rules, mode, 1), &typist).encode();
    let mut words = 0;
    for _ in 0..times {
        let replay = Replay::decode(black_box(&bytes)).expect("decodes");
        words += replay.score().expect("plays").words;
    }
    println!(
        "{key}: {} bytes, {words} words in {times} verifications",
        bytes.len()
    );
}
