//! Recently served runs, in memory: a run never changes, so a share link that goes round
//! is read from the database once, not once a visit.
//!
//! Entries live at most [`TTL`], so a run another server instance swept is gone from
//! here soon after; this instance's own sweep empties the cache at once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::store::Run;

/// How long a cached run is served before it is read again.
pub const TTL: Duration = Duration::from_secs(600);
/// Runs kept at most (about 15 MB of replays).
pub const CAPACITY: usize = 10_000;

/// Runs by id.
#[derive(Default)]
pub struct RunCache {
    runs: Mutex<HashMap<String, (Arc<Run>, Instant)>>,
}

impl RunCache {
    /// The run with `id`, if cached and fresh.
    pub fn get(&self, id: &str, now: Instant) -> Option<Arc<Run>> {
        let runs = self.runs.lock().unwrap_or_else(|p| p.into_inner());
        runs.get(id)
            .filter(|(_, at)| now.duration_since(*at) < TTL)
            .map(|(run, _)| run.clone())
    }

    /// Keeps `run`, making room by dropping an arbitrary entry when full.
    pub fn put(&self, run: Run, now: Instant) -> Arc<Run> {
        let run = Arc::new(run);
        let mut runs = self.runs.lock().unwrap_or_else(|p| p.into_inner());
        if runs.len() >= CAPACITY
            && let Some(victim) = runs.keys().next().cloned()
        {
            runs.remove(&victim);
        }
        runs.insert(run.id.clone(), (run.clone(), now));
        run
    }

    /// Forgets every run (after a sweep deleted some).
    pub fn clear(&self) {
        self.runs.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(id: &str) -> Run {
        Run {
            id: id.into(),
            player: "ada".into(),
            mode: "zen".into(),
            score: 1,
            wpm_x100: 100,
            accuracy_x100: 10_000,
            duration_ms: 5000,
            created_ms: 0,
            unranked: None,
            replay: vec![1, 2, 3],
        }
    }

    #[test]
    fn runs_are_served_until_stale_or_cleared() {
        let cache = RunCache::default();
        let t = Instant::now();
        cache.put(run("aaaaaaaa"), t);
        assert!(cache.get("aaaaaaaa", t + TTL / 2).is_some());
        assert!(cache.get("aaaaaaaa", t + TTL).is_none(), "stale");
        assert!(cache.get("bbbbbbbb", t).is_none());
        cache.clear();
        assert!(cache.get("aaaaaaaa", t).is_none());
        for i in 0..CAPACITY + 5 {
            cache.put(run(&format!("{i:08}")), t);
        }
        assert_eq!(cache.runs.lock().unwrap().len(), CAPACITY);
    }
}
