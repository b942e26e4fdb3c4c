//! Token buckets, per key (an IP's bucket, a player): a steady rate with room for bursts.
//!
//! Memory stays bounded under any traffic, and no request pays for a scan of every key:
//! 1. Keys are spread over [`SHARDS`] locks, so requests for different keys rarely wait
//!    on each other.
//! 2. Each shard keeps two generations of buckets. A key is looked up in the current one,
//!    then the previous one (and moved forward). When the current generation is older
//!    than the time a bucket takes to fill up again, or holds [`MAX_KEYS`] ÷ shards keys,
//!    it becomes the previous one and the previous one is dropped. A key unseen for that
//!    long had a full bucket anyway, so forgetting it changes nothing.
//! 3. So a shard holds at most twice its share of [`MAX_KEYS`]: a flood of new keys (say
//!    a spoofed address each) rotates generations faster, and forgets early only the
//!    keys it crowds out.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, RandomState};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Locks the keys are spread over.
pub const SHARDS: usize = 16;
/// Keys remembered in one generation, across the shards.
pub const MAX_KEYS: usize = 100_000;

/// A bucket per key, `rate` tokens a second up to `burst`.
pub struct Limiter<K> {
    rate: f64,
    burst: f64,
    /// How long an untouched bucket takes to fill: a generation's length.
    refill: Duration,
    hasher: RandomState,
    shards: Vec<Mutex<Shard<K>>>,
}

struct Shard<K> {
    current: HashMap<K, Bucket>,
    previous: HashMap<K, Bucket>,
    since: Instant,
}

#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl<K: Hash + Eq + Clone> Limiter<K> {
    /// `rate` a second, bursts of `burst`; a rate of 0 lets everything through.
    pub fn new(rate: u32, burst: u32) -> Limiter<K> {
        Limiter::per_second(f64::from(rate), burst)
    }

    /// `per_hour` an hour, bursts of `burst`; 0 lets everything through.
    pub fn hourly(per_hour: u32, burst: u32) -> Limiter<K> {
        Limiter::per_second(f64::from(per_hour) / 3600.0, burst)
    }

    fn per_second(rate: f64, burst: u32) -> Limiter<K> {
        let burst = f64::from(burst.max(1));
        let refill = if rate > 0.0 {
            Duration::from_secs_f64((burst / rate).clamp(1.0, 86_400.0))
        } else {
            Duration::MAX
        };
        let now = Instant::now();
        Limiter {
            rate,
            burst,
            refill,
            hasher: RandomState::new(),
            shards: (0..SHARDS)
                .map(|_| {
                    Mutex::new(Shard {
                        current: HashMap::new(),
                        previous: HashMap::new(),
                        since: now,
                    })
                })
                .collect(),
        }
    }

    /// Takes a token for `key`: `Ok`, or `Err(seconds)` until one is back.
    pub fn take(&self, key: &K, now: Instant) -> Result<(), u64> {
        self.take_n(key, 1, now)
    }

    /// Takes `n` tokens for `key` at once, or none: `Ok`, or `Err(seconds)` until there
    /// are `n` (more than the burst never are: that waits as long as a full bucket).
    pub fn take_n(&self, key: &K, n: u32, now: Instant) -> Result<(), u64> {
        if self.rate == 0.0 {
            return Ok(());
        }
        let n = f64::from(n).min(self.burst);
        let shard = &self.shards[self.hasher.hash_one(key) as usize % SHARDS];
        let mut shard = shard.lock().unwrap_or_else(|p| p.into_inner());
        let old = now.saturating_duration_since(shard.since) >= self.refill;
        if old || shard.current.len() >= MAX_KEYS / SHARDS {
            let current = std::mem::take(&mut shard.current);
            shard.previous = current;
            shard.since = now;
        }
        let bucket = match shard.current.get_mut(key) {
            Some(b) => b,
            None => {
                let moved = shard.previous.remove(key).unwrap_or(Bucket {
                    tokens: self.burst,
                    at: now,
                });
                shard.current.entry(key.clone()).or_insert(moved)
            }
        };
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * self.rate).min(self.burst);
        bucket.at = now;
        if bucket.tokens >= n {
            bucket.tokens -= n;
            Ok(())
        } else {
            Err(((n - bucket.tokens) / self.rate).ceil().max(1.0) as u64)
        }
    }

    /// Keys held now, in both generations.
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| {
                let s = s.lock().unwrap_or_else(|p| p.into_inner());
                s.current.len() + s.previous.len()
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bursts_then_the_rate() {
        let l = Limiter::new(2, 4);
        let t = Instant::now();
        for _ in 0..4 {
            assert_eq!(l.take(&1, t), Ok(()));
        }
        assert_eq!(l.take(&1, t), Err(1));
        assert_eq!(l.take(&2, t), Ok(()), "another key has its own bucket");
        assert_eq!(l.take(&1, t + Duration::from_millis(500)), Ok(()));
        assert!(Limiter::new(0, 0).take(&1, t).is_ok());
    }

    #[test]
    fn runs_are_taken_by_the_batch() {
        let l = Limiter::new(2, 50);
        let t = Instant::now();
        assert_eq!(l.take_n(&1, 50, t), Ok(()), "a full outbox in one go");
        assert_eq!(l.take_n(&1, 10, t), Err(5), "ten more runs at two a second");
        assert_eq!(l.take_n(&1, 10, t + Duration::from_secs(5)), Ok(()));
        let hourly = Limiter::hourly(10, 10);
        for _ in 0..10 {
            assert_eq!(hourly.take(&1, t), Ok(()));
        }
        assert_eq!(hourly.take(&1, t), Err(360), "one more in six minutes");
    }

    #[test]
    fn a_flood_of_new_keys_stays_bounded_and_forgets_only_what_it_crowds_out() {
        let l = Limiter::new(1, 2);
        let t = Instant::now();
        l.take_n(&u64::MAX, 2, t).unwrap();
        for k in 0..(MAX_KEYS as u64 * 3) {
            let _ = l.take(&k, t);
        }
        assert!(l.len() <= 2 * MAX_KEYS, "{} keys held", l.len());
        // A smaller crowd turns no generation over: a key in use keeps its empty bucket.
        let l = Limiter::new(1, 2);
        l.take_n(&u64::MAX, 2, t).unwrap();
        for k in 0..(MAX_KEYS as u64 / 4) {
            let _ = l.take(&k, t);
        }
        assert_eq!(l.take(&u64::MAX, t), Err(1), "remembered");
    }

    #[test]
    fn an_idle_key_is_forgotten_only_once_its_bucket_is_full_again() {
        let l = Limiter::new(1, 3);
        let t = Instant::now();
        l.take_n(&7, 3, t).unwrap();
        // A second on: one token back, in the same generation.
        assert_eq!(l.take(&7, t + Duration::from_secs(1)), Ok(()));
        assert_eq!(l.take(&7, t + Duration::from_secs(1)), Err(1));
        // Much later the generations have turned over; the bucket is full whether or not
        // it was remembered.
        let later = t + Duration::from_secs(60);
        for _ in 0..3 {
            assert_eq!(l.take(&7, later), Ok(()));
        }
        assert_eq!(l.take(&7, later), Err(1));
    }
}
