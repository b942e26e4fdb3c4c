//! Token buckets, per IP and per player: a steady rate with room for bursts.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::Instant;

/// A bucket per key, `rate` tokens a second up to `burst`.
pub struct Limiter<K> {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<K, (f64, Instant)>>,
}

/// Keys kept before full buckets are forgotten.
const MAX_KEYS: usize = 100_000;

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
        Limiter {
            rate,
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
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
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= MAX_KEYS {
            let (rate, burst) = (self.rate, self.burst);
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * rate < burst
            });
        }
        let (tokens, at) = buckets.entry(key.clone()).or_insert((self.burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.rate).min(self.burst);
        *at = now;
        if *tokens >= n {
            *tokens -= n;
            Ok(())
        } else {
            Err(((n - *tokens) / self.rate).ceil().max(1.0) as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
}
