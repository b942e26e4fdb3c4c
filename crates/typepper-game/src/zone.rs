//! Local time. The game shows when a round was played as the player's clock read then,
//! but only the shell knows the player's time zone: the browser asks `Date`, the terminal
//! the system's zone database. The game asks through [`Zone`].

use typepper_api::Utc;

/// A time zone: how far local time is ahead of UTC at a moment.
pub trait Zone {
    /// Minutes local time is ahead of UTC at `unix_ms` (negative west of Greenwich). It
    /// depends on the moment, for summer time.
    fn offset_minutes(&self, unix_ms: i64) -> i32;
}

/// A zone that is always the same distance from UTC: UTC itself, or a test's zone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fixed(pub i32);

impl Zone for Fixed {
    fn offset_minutes(&self, _unix_ms: i64) -> i32 {
        self.0
    }
}

/// `2026-12-01 19:52`, the local time of `unix_ms` in `zone`.
pub fn local_time(unix_ms: u64, zone: &dyn Zone) -> String {
    let ms = i64::try_from(unix_ms).unwrap_or(i64::MAX);
    let shifted = ms.saturating_add(i64::from(zone.offset_minutes(ms)) * 60_000);
    let t = Utc::of(shifted);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}",
        t.year, t.month, t.day, t.hour, t.minute
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_the_local_clock_did() {
        assert_eq!(local_time(0, &Fixed(0)), "1970-01-01 00:00");
        assert_eq!(local_time(1_796_154_720_000, &Fixed(0)), "2026-12-01 19:52");
        assert_eq!(local_time(951_782_400_000, &Fixed(0)), "2000-02-29 00:00");
        // India is 5:30 ahead; New York 5:00 behind in winter, across midnight.
        assert_eq!(
            local_time(1_796_154_720_000, &Fixed(330)),
            "2026-12-02 01:22"
        );
        assert_eq!(
            local_time(1_796_154_720_000, &Fixed(-300)),
            "2026-12-01 14:52"
        );
    }

    #[test]
    fn the_offset_is_asked_for_the_moment_shown() {
        /// Summer time from unix ms 1000 on.
        struct Summer;
        impl Zone for Summer {
            fn offset_minutes(&self, unix_ms: i64) -> i32 {
                if unix_ms >= 1000 { 60 } else { 0 }
            }
        }
        assert_eq!(local_time(0, &Summer), "1970-01-01 00:00");
        assert_eq!(local_time(1000, &Summer), "1970-01-01 01:00");
    }
}
