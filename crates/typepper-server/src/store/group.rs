//! Group commit, as both backends' writers do it: the work waiting when a writer is free
//! goes into one transaction, and each piece is answered once it commits.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// A piece of work waiting for a writer.
pub trait Waiting {
    /// Nobody waits for its answer any more (the request gave up).
    fn abandoned(&self) -> bool;
    /// When it must have started by, if ever.
    fn deadline(&self) -> Option<Instant>;
    /// Answers that it waited past its deadline ([`StoreError::Late`]), undone.
    ///
    /// [`StoreError::Late`]: super::StoreError::Late
    fn late(self);
}

/// The group a free writer does: `first`, and what waits behind it (`next` gives it
/// without waiting), up to `group` in all; less the work whose asker has gone, skipped,
/// and work that waited past its deadline, refused. Both before anything of it is
/// written: nothing is stored that nobody will be told of.
pub fn gather<W: Waiting>(first: W, mut next: impl FnMut() -> Option<W>, group: usize) -> Vec<W> {
    let mut waiting = vec![first];
    while waiting.len() < group {
        match next() {
            Some(w) => waiting.push(w),
            None => break,
        }
    }
    let now = Instant::now();
    let mut todo = Vec::with_capacity(waiting.len());
    for w in waiting {
        if w.abandoned() {
            continue;
        }
        if w.deadline().is_some_and(|d| now > d) {
            w.late();
            continue;
        }
        todo.push(w);
    }
    todo
}

/// Transactions a store's writers committed, and the pieces of work they carried.
#[derive(Debug, Default)]
pub struct Commits {
    commits: AtomicU64,
    carried: AtomicU64,
}

impl Commits {
    /// One more commit, carrying `work` pieces.
    pub fn add(&self, work: usize) {
        self.commits.fetch_add(1, Ordering::Relaxed);
        self.carried.fetch_add(work as u64, Ordering::Relaxed);
    }

    /// Commits so far, and the pieces of work they carried.
    pub fn get(&self) -> (u64, u64) {
        (
            self.commits.load(Ordering::Relaxed),
            self.carried.load(Ordering::Relaxed),
        )
    }
}
