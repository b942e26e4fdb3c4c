//! How often each timing check would take a person's round for a program's:
//! `cargo run --release -p typepper-server --example false_positives [ROUNDS]` (100,000
//! by default). docs/TRUST.md has the figures.
//!
//! The rounds are the synthetic typist's (`typepper synth`, which types as people do):
//! each its own typist (a seed of its own); half at a speed from 20 to 280 wpm, an
//! accuracy from 88 to 100 %, in BLITZ 15s, 30s or 60s or a ZEN round of 20 to 90 s, and
//! half the load test's crowd. Each round's
//! judged keystrokes go through every check on its own, so that a check's count is every
//! round it would refuse, not only those the checks before it let through. The closest
//! each measure came to its threshold is printed too: the margin a check has.

#![allow(clippy::unwrap_used)] // a measuring tool: a failure is a panic with its place

mod crowd;

use crowd::round;
use typepper_server::submit::timing::{
    BURST_RUN, KURTOSIS_GAPS, MAX_BURST_PERCENT, MIN_KURTOSIS, MIN_SLOW_PERCENT,
    MIN_SPREAD_PERCENT, Rhythm, SKEW_GAPS,
};

/// What each check would say of a round, on its own.
#[derive(Default)]
struct Tally {
    rounds: u64,
    bursts: u64,
    implausible: u64,
    metronome: u64,
    flat: u64,
    symmetric: u64,
    /// Of those, which part of leaning right failed (the mean was once a part).
    mean_not_above_median: u64,
    skew_not_positive: u64,
    too_few_slow: u64,
    /// The closest each measure came to its threshold.
    least_spread: u64,
    least_kurtosis: f64,
    least_slow_percent: f64,
    least_skewness: f64,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            least_spread: u64::MAX,
            least_kurtosis: f64::MAX,
            least_slow_percent: f64::MAX,
            least_skewness: f64::MAX,
            ..Tally::default()
        }
    }

    fn add(&mut self, r: &Rhythm) {
        self.rounds += 1;
        self.bursts += u64::from(r.longest_burst >= BURST_RUN);
        self.implausible += u64::from(r.bursts * 100 > r.gaps * MAX_BURST_PERCENT);
        self.metronome += u64::from(r.spread_percent() < MIN_SPREAD_PERCENT);
        self.least_spread = self.least_spread.min(r.spread_percent());
        if r.gaps >= KURTOSIS_GAPS {
            self.flat += u64::from(r.kurtosis < MIN_KURTOSIS);
            self.least_kurtosis = self.least_kurtosis.min(r.kurtosis);
        }
        if r.gaps >= SKEW_GAPS {
            self.symmetric += u64::from(!r.leans_right());
            self.mean_not_above_median += u64::from(r.mean <= f64::from(r.quartiles[1]));
            self.skew_not_positive += u64::from(r.skewness <= 0.0);
            self.too_few_slow += u64::from(r.slow * 100 < r.gaps * MIN_SLOW_PERCENT);
            let slow = r.slow as f64 * 100.0 / r.gaps as f64;
            self.least_slow_percent = self.least_slow_percent.min(slow);
            self.least_skewness = self.least_skewness.min(r.skewness);
        }
    }

    fn merge(mut self, o: Tally) -> Tally {
        self.rounds += o.rounds;
        self.bursts += o.bursts;
        self.implausible += o.implausible;
        self.metronome += o.metronome;
        self.flat += o.flat;
        self.symmetric += o.symmetric;
        self.mean_not_above_median += o.mean_not_above_median;
        self.skew_not_positive += o.skew_not_positive;
        self.too_few_slow += o.too_few_slow;
        self.least_spread = self.least_spread.min(o.least_spread);
        self.least_kurtosis = self.least_kurtosis.min(o.least_kurtosis);
        self.least_slow_percent = self.least_slow_percent.min(o.least_slow_percent);
        self.least_skewness = self.least_skewness.min(o.least_skewness);
        self
    }
}

fn main() {
    let rounds: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get() as u64);
    let started = std::time::Instant::now();
    let tally = (0..threads)
        .map(|k| {
            std::thread::spawn(move || {
                let mut tally = Tally::new();
                for n in (k..rounds).step_by(threads as usize) {
                    if let Some(r) = round(n) {
                        tally.add(&r);
                    }
                }
                tally
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap())
        .fold(Tally::new(), Tally::merge);
    let per = |n: u64| n as f64 / tally.rounds as f64;
    println!(
        "{} rounds of the synthetic typist (half 20–280 wpm, 88–100 %, BLITZ 15/30/60s and \
         ZEN; half the load test's crowd) in {:.0} s",
        tally.rounds,
        started.elapsed().as_secs_f64()
    );
    println!("| check | rounds it would refuse | rate | closest to its threshold |");
    println!("|---|---|---|---|");
    println!(
        "| bursts (a run of {} keys under {} ms) | {} | {:.1e} | |",
        BURST_RUN + 1,
        typepper_server::submit::timing::BURST_GAP_MS,
        tally.bursts,
        per(tally.bursts)
    );
    println!(
        "| too many bursts (over {MAX_BURST_PERCENT} % of gaps) | {} | {:.1e} | |",
        tally.implausible,
        per(tally.implausible)
    );
    println!(
        "| metronome (middle half under {MIN_SPREAD_PERCENT} % of the median) | {} | {:.1e} \
         | spread {} % |",
        tally.metronome,
        per(tally.metronome),
        tally.least_spread
    );
    println!(
        "| flat (kurtosis under {MIN_KURTOSIS}, {KURTOSIS_GAPS}+ gaps) | {} | {:.1e} | \
         kurtosis {:.2} |",
        tally.flat,
        per(tally.flat),
        tally.least_kurtosis
    );
    println!(
        "| doesn't lean right ({SKEW_GAPS}+ gaps) | {} | {:.1e} | slow {:.1} %, skewness \
         {:.2} |",
        tally.symmetric,
        per(tally.symmetric),
        tally.least_slow_percent,
        tally.least_skewness
    );
    println!(
        "of which: skewness not positive {}, under {MIN_SLOW_PERCENT} % slow {}; and rounds \
         whose mean was not above their median (no longer a check) {}",
        tally.skew_not_positive, tally.too_few_slow, tally.mean_not_above_median
    );
}
