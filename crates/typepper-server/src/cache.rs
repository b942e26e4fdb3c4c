//! Recently served runs, in memory: a run never changes, so a share link that goes round
//! is read from the database once, not once a visit.
//!
//! Bounded by bytes, not by count (a run can be a megabyte):
//! 1. The runs held add up to at most the budget (`--cache-bytes`, 64 MiB by default); the
//!    oldest put in go first.
//! 2. A run over a 256th of the budget (256 KiB by default: a ZEN round of hours) is
//!    served but not kept: a handful of those would push out thousands of others.
//! 3. An id found missing is remembered for a minute (ids only, at most
//!    [`MISSES`]), so a crawler asking for made-up ids costs a hash lookup, not a database
//!    read each.
//!
//! Entries live at most [`TTL`], so a run another server instance swept is gone from
//! here soon after; this instance's own sweep empties the cache at once.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::store::Run;

/// How long a cached run is served before it is read again.
pub const TTL: Duration = Duration::from_secs(600);
/// How long a missing id is answered from memory.
pub const MISS_TTL: Duration = Duration::from_secs(60);
/// Missing ids remembered at most.
pub const MISSES: usize = 10_000;
/// A run's share of the budget it may take, at most: 1/256.
const LARGEST_SHARE: usize = 256;

/// Runs by id, within a byte budget, and ids known missing.
pub struct RunCache {
    budget: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    runs: HashMap<String, (Arc<Run>, Instant)>,
    /// Ids in the order they were put in, for eviction.
    order: VecDeque<String>,
    bytes: usize,
    missing: HashMap<String, Instant>,
    hits: u64,
    misses: u64,
}

/// What the cache holds and has done, for the metrics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Bytes of runs held.
    pub bytes: usize,
    /// Runs held.
    pub runs: usize,
    /// Reads answered from memory (a run, or a known miss).
    pub hits: u64,
    /// Reads that went to the database.
    pub misses: u64,
}

/// What the cache knows of an id.
pub enum Lookup {
    /// The run.
    Found(Arc<Run>),
    /// It was missing a moment ago.
    Missing,
    /// Ask the database.
    Unknown,
}

/// The memory a run takes here, near enough.
fn size(run: &Run) -> usize {
    run.played.replay.len() + run.played.id.len() + run.player.len() + run.played.mode.len() + 128
}

impl RunCache {
    /// A cache of at most `budget` bytes of runs.
    pub fn new(budget: usize) -> RunCache {
        RunCache {
            budget,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// What is known of `id` at `now`.
    pub fn get(&self, id: &str, now: Instant) -> Lookup {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let found = inner
            .runs
            .get(id)
            .filter(|(_, at)| now.duration_since(*at) < TTL)
            .map(|(run, _)| run.clone());
        let lookup = match found {
            Some(run) => Lookup::Found(run),
            None => match inner.missing.get(id) {
                Some(at) if now.duration_since(*at) < MISS_TTL => Lookup::Missing,
                _ => Lookup::Unknown,
            },
        };
        match lookup {
            Lookup::Unknown => inner.misses += 1,
            _ => inner.hits += 1,
        }
        lookup
    }

    /// Keeps `run` if it is small enough, making room by dropping the oldest.
    pub fn put(&self, run: Run, now: Instant) -> Arc<Run> {
        let run = Arc::new(run);
        let bytes = size(&run);
        if bytes > self.budget / LARGEST_SHARE {
            return run;
        }
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.missing.remove(&run.played.id);
        if let Some((old, _)) = inner.runs.remove(&run.played.id) {
            inner.bytes -= size(&old);
        }
        while inner.bytes + bytes > self.budget {
            let Some(victim) = inner.order.pop_front() else {
                break;
            };
            if let Some((old, _)) = inner.runs.remove(&victim) {
                inner.bytes -= size(&old);
            }
        }
        inner.runs.insert(run.played.id.clone(), (run.clone(), now));
        inner.order.push_back(run.played.id.clone());
        inner.bytes += bytes;
        // Ids of runs put in again or cleared stay in the order; keep it from growing
        // past the runs it stands for.
        if inner.order.len() > 2 * inner.runs.len() + 64 {
            let Inner { runs, order, .. } = &mut *inner;
            order.retain(|id| runs.contains_key(id));
        }
        run
    }

    /// Remembers that `id` is missing.
    pub fn missing(&self, id: &str, now: Instant) {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if inner.missing.len() >= MISSES {
            // Each id is remembered a minute; a full map is forgotten at once rather than
            // scanned entry by entry.
            inner.missing.clear();
        }
        inner.missing.insert(id.to_owned(), now);
    }

    /// Forgets every run (after a sweep deleted some).
    pub fn clear(&self) {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.runs.clear();
        inner.order.clear();
        inner.bytes = 0;
    }

    /// What it holds and has done.
    pub fn stats(&self) -> Stats {
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        Stats {
            bytes: inner.bytes,
            runs: inner.runs.len(),
            hits: inner.hits,
            misses: inner.misses,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Played;

    fn run(id: &str, bytes: usize) -> Run {
        Run {
            played: Played {
                id: id.into(),
                mode: "zen".into(),
                score: 1,
                wpm_x100: 100,
                accuracy_x100: 10_000,
                duration_ms: 5000,
                created_ms: 0,
                unranked: None,
                pending: None,
                replay: vec![7; bytes],
            },
            player: "ada".into(),
            guest: false,
            hidden: false,
            daily: None,
        }
    }

    fn found(cache: &RunCache, id: &str, now: Instant) -> bool {
        matches!(cache.get(id, now), Lookup::Found(_))
    }

    #[test]
    fn runs_are_served_until_stale_or_cleared() {
        let cache = RunCache::new(1 << 20);
        let t = Instant::now();
        cache.put(run("aaaaaaaa", 100), t);
        assert!(found(&cache, "aaaaaaaa", t + TTL / 2));
        assert!(!found(&cache, "aaaaaaaa", t + TTL), "stale");
        assert!(!found(&cache, "bbbbbbbb", t));
        cache.clear();
        assert!(!found(&cache, "aaaaaaaa", t));
        assert_eq!(cache.stats().bytes, 0);
    }

    #[test]
    fn the_budget_is_bytes_and_the_oldest_go_first() {
        let budget = 1 << 20;
        let cache = RunCache::new(budget);
        let t = Instant::now();
        for i in 0..10_000 {
            cache.put(run(&format!("{i:08}"), 1_000), t);
        }
        let stats = cache.stats();
        assert!(stats.bytes <= budget, "{stats:?}");
        assert!(found(&cache, "00009999", t), "the newest stays");
        assert!(!found(&cache, "00000000", t), "the oldest went");
        // A run over a 256th of the budget is served, not kept.
        cache.put(run("bigbigbi", budget / 200), t);
        assert!(!found(&cache, "bigbigbi", t));
        // Sixty megabyte runs against a 64 MiB budget: none kept.
        let big = RunCache::new(64 << 20);
        for i in 0..60 {
            big.put(run(&format!("big{i:05}"), 1 << 20), t);
        }
        assert_eq!(big.stats().bytes, 0);
    }

    #[test]
    fn a_missing_id_is_remembered_for_a_minute() {
        let cache = RunCache::new(1 << 20);
        let t = Instant::now();
        cache.missing("zzzzzzzz", t);
        assert!(matches!(cache.get("zzzzzzzz", t), Lookup::Missing));
        assert!(matches!(
            cache.get("zzzzzzzz", t + MISS_TTL),
            Lookup::Unknown
        ));
        for i in 0..MISSES + 10 {
            cache.missing(&format!("{i:08}"), t);
        }
        assert!(cache.inner.lock().unwrap().missing.len() <= MISSES);
        let stats = cache.stats();
        assert_eq!((stats.hits, stats.misses), (1, 1));
    }
}
