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

/// A limit's time as a person says it: `a second`, `40 seconds`, `a minute`, `10 minutes`,
/// `2 hours`, in the sentences that tell someone a limit ended something of theirs.
pub fn spell(d: Duration) -> String {
    match d.as_secs() {
        1 => "a second".into(),
        s if s < 60 || (s % 60 != 0 && s < 3600) => format!("{s} seconds"),
        60 => "a minute".into(),
        3600 => "an hour".into(),
        s if s % 3600 == 0 => format!("{} hours", s / 3600),
        s => format!("{} minutes", s / 60),
    }
}

/// One bucket of its own, for what one connection or one game may send: `rate` a second,
/// in bursts of `burst`.
#[derive(Clone, Copy, Debug)]
pub struct Allowance {
    rate: f64,
    burst: f64,
    tokens: f64,
    at: Instant,
}

impl Allowance {
    /// A full bucket at `now`.
    pub fn new(rate: f64, burst: f64, now: Instant) -> Allowance {
        Allowance {
            rate,
            burst,
            tokens: burst,
            at: now,
        }
    }

    /// Takes `n` at `now`: `false`, taking nothing, if there aren't as many.
    pub fn take(&mut self, n: f64, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= n {
            self.tokens -= n;
            true
        } else {
            false
        }
    }
}

/// Things held at once (games, connections, rooms), counted per key (an address's
/// bucket) and in all, each under its cap. A [`Hold`] gives its place back when dropped,
/// however its holder ends.
pub struct Held<K: Hash + Eq + Clone> {
    per_key: usize,
    all: usize,
    counts: Mutex<HashMap<K, usize>>,
}

/// Why nothing more may be held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// The key holds its most: this many.
    Key(usize),
    /// Everyone together holds the most: this many.
    All(usize),
}

/// One place at a [`Held`], given back when dropped.
pub struct Hold<K: Hash + Eq + Clone> {
    held: std::sync::Arc<Held<K>>,
    key: K,
}

impl<K: Hash + Eq + Clone> Held<K> {
    /// At most `per_key` for one key, and `all` in all.
    pub fn new(per_key: usize, all: usize) -> Held<K> {
        Held {
            per_key,
            all,
            counts: Mutex::default(),
        }
    }

    /// A place for `key`, or why there is none.
    pub fn hold(self: &std::sync::Arc<Self>, key: K) -> Result<Hold<K>, Full> {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if counts.values().sum::<usize>() >= self.all {
            return Err(Full::All(self.all));
        }
        let mine = counts.entry(key.clone()).or_default();
        if *mine >= self.per_key {
            return Err(Full::Key(self.per_key));
        }
        *mine += 1;
        Ok(Hold {
            held: self.clone(),
            key,
        })
    }

    /// How many are held now, in all.
    pub fn len(&self) -> usize {
        let counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        counts.values().sum()
    }
}

impl<K: Hash + Eq + Clone> Drop for Hold<K> {
    fn drop(&mut self) {
        let mut counts = self.held.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = counts.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_places_are_capped_per_key_and_in_all_and_given_back_on_drop() {
        let held = std::sync::Arc::new(Held::new(2, 3));
        let a1 = held.hold(1).unwrap();
        let _a2 = held.hold(1).unwrap();
        assert_eq!(held.hold(1).err(), Some(Full::Key(2)));
        let _b = held.hold(2).unwrap();
        assert_eq!(held.hold(3).err(), Some(Full::All(3)));
        drop(a1);
        assert_eq!(held.len(), 2);
        assert!(held.hold(1).is_ok(), "a place given back is free again");
    }

    #[test]
    fn limits_are_spelled_as_a_person_says_them() {
        let said: Vec<String> = [1, 40, 60, 90, 300, 3600, 7200, 5400]
            .map(|s| spell(Duration::from_secs(s)))
            .into();
        assert_eq!(
            said,
            [
                "a second",
                "40 seconds",
                "a minute",
                "90 seconds",
                "5 minutes",
                "an hour",
                "2 hours",
                "90 minutes"
            ]
        );
    }

    #[test]
    fn an_allowance_bursts_then_refills_at_its_rate() {
        let t = Instant::now();
        let mut a = Allowance::new(10.0, 20.0, t);
        assert!(a.take(20.0, t));
        assert!(!a.take(1.0, t));
        assert!(a.take(5.0, t + Duration::from_millis(500)));
        assert!(!a.take(1.0, t + Duration::from_millis(500)));
    }

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
