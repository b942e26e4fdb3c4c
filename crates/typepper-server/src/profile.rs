//! Profiles (docs/spec/players.md, "Profiles"): what the server keeps of a player, for
//! anyone to see: `GET /v1/players/<name>`, `v1 profile <name>`, the page `/p/<name>` and
//! its card, and the game's profile screen in both shells.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use typepper_api::profile::{self as api, KeyLine, Profile, ProfileRun, Typed};
use typepper_engine::{Mode, Replay};
use typepper_game::keys::{Analysis, By, Tally};

use crate::store::{PlayerId, ProfileRows, RunRow};
use crate::{ServiceError, Shared};

const DAY_MS: i64 = 86_400_000;

/// How long a profile is served from memory before it is read again.
pub const TTL: Duration = Duration::from_secs(10);
/// Profiles held at most.
const HELD: usize = 1_000;

/// Profiles served lately, by name key. A profile reads every round of its player and
/// plays their last 100 runs again: 11 ms at 10,000 rounds (docs/PERFORMANCE.md). One
/// linked from somewhere popular is made once in [`TTL`], not once a visit. Its player's
/// own submission, deletion or ban on this server drops it at once; another server on the
/// same database serves it at most [`TTL`] old.
#[derive(Default)]
pub struct Profiles {
    held: Mutex<HashMap<String, Held>>,
}

/// A profile held: it, its player, and when it was made.
type Held = (Arc<Profile>, PlayerId, Instant);

impl Profiles {
    fn get(&self, key: &str, now: Instant) -> Option<Arc<Profile>> {
        let held = self.held.lock().ok()?;
        let (profile, _, at) = held.get(key)?;
        (now.duration_since(*at) < TTL).then(|| profile.clone())
    }

    fn put(&self, key: String, profile: Arc<Profile>, id: PlayerId, now: Instant) {
        if let Ok(mut held) = self.held.lock() {
            if held.len() >= HELD {
                held.retain(|_, (_, _, at)| now.duration_since(*at) < TTL);
            }
            if held.len() < HELD {
                held.insert(key, (profile, id, now));
            }
        }
    }

    /// Forgets every profile: the sweep took runs they may list.
    pub fn clear(&self) {
        if let Ok(mut held) = self.held.lock() {
            held.clear();
        }
    }

    /// Forgets player `id`'s profile: they stored a round, or are gone.
    pub fn forget(&self, id: PlayerId) {
        if let Ok(mut held) = self.held.lock() {
            held.retain(|_, (_, held_id, _)| *held_id != id);
        }
    }
}

/// When the UTC month of `unix_ms` began.
fn month_start(unix_ms: i64) -> i64 {
    let day = unix_ms.div_euclid(DAY_MS);
    let of_month = i64::from(typepper_api::Utc::of(unix_ms).day) - 1;
    (day - of_month) * DAY_MS
}

/// What `name` is told when it has no profile: never was, a guest's, a banned player's,
/// or deleted. All four are told the same, so that a ban is not announced.
fn no_profile(name: &str) -> ServiceError {
    ServiceError::NotFound(format!(
        "no player called {name}: a guest has no profile, and a deleted account's is gone"
    ))
}

impl Shared {
    /// The profile of the player called `name` (as any case or look-alike spells it).
    pub(crate) async fn profile(&self, name: &str) -> Result<Arc<Profile>, ServiceError> {
        if typepper_api::check_name(name).is_err() {
            // Not said back: a path can hold anything.
            return Err(ServiceError::NotFound(
                "no such player: a name is 3 to 20 letters, digits, _ or -".into(),
            ));
        }
        let key = typepper_api::name_key(name);
        if let Some(profile) = self.profiles.get(&key, Instant::now()) {
            return Ok(profile);
        }
        let rows = self
            .store
            .profile(
                key.clone(),
                month_start(self.now_ms()),
                api::RECENT_RUNS as u32,
                api::KEYS_RUNS as u32,
            )
            .await?
            .ok_or_else(|| no_profile(name))?;
        // The keys analysis plays a hundred replays again: milliseconds of CPU, off the
        // async workers, and waiting its turn with the submissions' verification.
        let _permit = self
            .verifying
            .acquire()
            .await
            .map_err(|e| ServiceError::Internal(e.to_string()))?;
        let id = rows.id;
        let profile = tokio::task::spawn_blocking(move || profile_of(rows))
            .await
            .map_err(|e| ServiceError::Internal(format!("a blocking task failed: {e}")))?;
        let profile = Arc::new(profile);
        self.profiles.put(key, profile.clone(), id, Instant::now());
        Ok(profile)
    }
}

/// A profile from what the store has.
pub fn profile_of(rows: ProfileRows) -> Profile {
    let mut bests: Vec<ProfileRun> = rows.bests.iter().map(run).collect();
    bests.sort_by_key(|b| menu_order(&b.mode));
    // Newest first, until the keystrokes' bound.
    let mut replays: Vec<Replay> = vec![];
    let mut inputs = 0;
    for replay in rows.replays.iter().filter_map(|r| Replay::decode(r).ok()) {
        inputs += replay.inputs.len();
        if inputs > api::KEYS_INPUTS && !replays.is_empty() {
            break;
        }
        replays.push(replay);
    }
    let seconds = |ms: i64| u32::try_from(ms / 1000).unwrap_or(u32::MAX);
    Profile {
        name: rows.name,
        joined: typepper_api::Utc::of(rows.joined_ms).rfc3339(),
        all: Typed {
            rounds: rows.all.0,
            seconds: seconds(rows.all.1),
        },
        month: Typed {
            rounds: rows.month.0,
            seconds: seconds(rows.month.1),
        },
        bests,
        recent: rows.recent.iter().map(run).collect(),
        chart: api::chart(&rows.rounds),
        keys: keys(&Analysis::of(&replays)),
    }
}

fn run(r: &RunRow) -> ProfileRun {
    let mode = r.mode.parse::<Mode>().ok();
    let title = mode.map_or_else(|| r.mode.clone(), Mode::title);
    ProfileRun {
        run: r.id.clone(),
        mode: r.mode.clone(),
        title: match r.daily {
            Some(n) => [&typepper_api::daily::name(n), " · ", &title].concat(),
            None => title,
        },
        score: r.score,
        unit: mode.map_or("wpm", |m| m.unit().as_str()).into(),
        wpm: f64::from(r.wpm_x100) / 100.0,
        accuracy: f64::from(r.accuracy_x100) / 100.0,
        time: typepper_api::Utc::of(r.created_ms).rfc3339(),
        ranked: r.ranked,
        daily: r.daily,
    }
}

/// Where a mode's best goes among a profile's: BLITZ by its length, WORDS by its count,
/// then QUOTE, ZEN, HOT PURSUIT by its level; a mode's options and language after its
/// plain form.
fn menu_order(key: &str) -> (u8, u32, String) {
    use typepper_engine::Base;
    let Ok(mode) = key.parse::<Mode>() else {
        return (u8::MAX, 0, key.into());
    };
    let (kind, n) = match mode.base() {
        Base::Blitz(b) => (0, b.secs()),
        Base::Words(w) => (1, w.get()),
        Base::Quote(q) => (2, q.get().into()),
        Base::Zen => (3, 0),
        Base::Pursuit(l) => (4, l.get().into()),
        Base::Drill(_) | Base::Custom => (5, 0),
    };
    (kind, n, key.into())
}

/// The keys analysis as a profile lists it: the worst keys and pairs by errors and by
/// time, as the game's keys screen ranks them.
fn keys(analysis: &Analysis) -> api::Keys {
    let line = |key: String, stat: &Tally| KeyLine {
        key,
        seen: stat.seen,
        error_x100: stat.error_x100(),
        median_ms: stat.median_ms().unwrap_or(0),
    };
    let n = api::KEYS_LISTED;
    let keys = |by| {
        (analysis.worst_keys(by, n).into_iter())
            .map(|k| line(typepper_game::keys::name(k.key), &k.stat))
            .collect()
    };
    let pairs = |by| {
        (analysis.worst_pairs(by, n).into_iter())
            .map(|p| line(p.pair.iter().collect(), &p.stat))
            .collect()
    };
    api::Keys {
        runs: analysis.rounds as u32,
        missed: keys(By::Errors),
        slowest: keys(By::Time),
        missed_pairs: pairs(By::Errors),
        slowest_pairs: pairs(By::Time),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_month_starts_on_its_first_day_at_midnight_utc() {
        // 2026-12-05T05:34:28Z.
        let now = 1_796_448_868_000;
        assert_eq!(
            typepper_api::Utc::of(month_start(now)).rfc3339(),
            "2026-12-01T00:00:00Z"
        );
        assert_eq!(month_start(month_start(now)), month_start(now));
        assert_eq!(
            typepper_api::Utc::of(month_start(month_start(now) - 1)).rfc3339(),
            "2026-11-01T00:00:00Z"
        );
    }

    #[test]
    fn the_keys_analysis_reads_the_latest_runs_up_to_its_keystrokes_bound() {
        use typepper_engine::synth::{Typist, synth};
        // 25 minutes of ZEN at 200 wpm: under 30,000 keys each.
        let typist = Typist {
            wpm: 200,
            zen_ms: 1_500_000,
            ..Typist::default()
        };
        let long = |seed| synth(Mode::ZEN, seed, &typist).encode();
        let rows = ProfileRows {
            replays: vec![long(1), long(2), long(3)],
            ..ProfileRows::default()
        };
        let inputs = Replay::decode(&rows.replays[0]).unwrap().inputs.len();
        assert!(
            (25_000..=api::KEYS_INPUTS / 2).contains(&inputs),
            "{inputs}"
        );
        assert_eq!(profile_of(rows).keys.runs, 2);
        // One longer than the bound is read all the same: it is the latest.
        let rows = ProfileRows {
            replays: vec![
                synth(
                    Mode::ZEN,
                    4,
                    &Typist {
                        zen_ms: 5_000_000,
                        ..typist
                    },
                )
                .encode(),
            ],
            ..ProfileRows::default()
        };
        assert_eq!(profile_of(rows).keys.runs, 1);
    }

    #[test]
    fn bests_go_in_the_menu_s_order() {
        let mut keys = [
            "pursuit:7",
            "zen",
            "time:60",
            "words:25",
            "time:15/p@fr",
            "time:15",
        ];
        keys.sort_by_key(|k| menu_order(k));
        assert_eq!(
            keys,
            [
                "time:15",
                "time:15/p@fr",
                "time:60",
                "words:25",
                "zen",
                "pursuit:7"
            ]
        );
    }
}
