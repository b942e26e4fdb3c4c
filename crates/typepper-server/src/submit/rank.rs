//! Whether a stored run is ranked: played by its player on a seed the server issued to
//! them, once, as a round a board can compare.
//!
//! A seed the server issued (`POST /v1/seeds`) is a text the player could not have seen
//! before they asked for it. So a ranked run:
//! 1. is on a seed issued to this player, for this mode, not yet counted for another run,
//!    and not expired when the run arrives;
//! 2. arrived no sooner after the seed was issued than the round itself lasts (sooner, it
//!    can't have been played on that seed: it is refused outright);
//! 3. has at least 75 % accuracy (Monkeytype's floor for its boards);
//! 4. in ZEN, lasts at least 30 s (a board of ZEN's best three-second bursts means
//!    nothing).
//!
//! Every other run that passes the checks is stored, shareable and kept in history, but
//! unranked: it never appears on a board and never counts as a pb. The reason goes back
//! to the game in its answer line.
//!
//! A ranked run far above its player's own record ([`Watch`]) is **pending**: stored,
//! shareable, but off the boards until the player types within
//! [`Watch::confirm_percent`] of it again, as TypeRacer asks for a second test above a
//! certified speed. Then it goes on the boards, with the run that confirmed it. The record
//! is the player's best on the boards from before the day (UTC) began: a day's runs can't
//! raise the bar for the next, so climbing in steps just under the threshold doesn't
//! work. A player the operator banned has every run unranked.

use typepper_engine::{Mode, Score};

use crate::store::{IssuedSeed, NewRun, PlayerId, Record};

/// A ranked run is at least this accurate, in hundredths of a percent.
pub const MIN_ACCURACY_X100: u16 = 7_500;
/// A ranked ZEN round lasts at least this long.
pub const MIN_ZEN_MS: u32 = 30_000;

/// Where a verified run stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Why it is not ranked; `None` when it is.
    pub unranked: Option<String>,
    /// It is on a seed issued to its player, which it now uses up.
    pub uses_seed: bool,
}

/// When a ranked run waits off the boards for its player to confirm it. A threshold of 0
/// turns its check off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    /// A player's first ranked run over this many wpm waits.
    pub first_wpm: u32,
    /// A ranked run more than this many percent above the player's best wpm waits.
    pub over_best_percent: u32,
    /// A later ranked run within this many percent of a waiting one's wpm confirms it.
    pub confirm_percent: u32,
}

impl Default for Watch {
    fn default() -> Watch {
        Watch {
            first_wpm: 150,
            over_best_percent: 30,
            confirm_percent: 25,
        }
    }
}

/// Where a ranked run goes, judged against its player's record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Boards {
    /// Why it is not ranked after all; `None` when it is.
    pub unranked: Option<String>,
    /// Why it waits off the boards; `None` when it goes on.
    pub pending: Option<String>,
    /// The player's waiting runs it confirms.
    pub confirms: Vec<String>,
}

/// Judges a run of `score` that [`standing`] left `unranked` (or ranked) against its
/// player's `record`: a banned player's runs are unranked, a ranked one far above the
/// record waits, and a ranked one near a waiting one confirms it.
pub fn boards(score: &Score, unranked: Option<String>, record: &Record, watch: &Watch) -> Boards {
    if unranked.is_some() {
        return Boards {
            unranked,
            ..Boards::default()
        };
    }
    if record.banned {
        return Boards {
            unranked: Some(BANNED.into()),
            ..Boards::default()
        };
    }
    let wpm_x100 = u64::from(score.wpm_x100);
    // Within the percentage either way: typing near it again, not far past it.
    let within = u64::from(watch.confirm_percent.min(100));
    let confirms: Vec<&crate::store::PendingRun> = record
        .pending
        .iter()
        .filter(|p| {
            let p = u64::from(p.wpm_x100);
            wpm_x100 * 100 >= p * (100 - within) && wpm_x100 * 100 <= p * (100 + within)
        })
        .collect();
    let best = record.best_wpm_x100;
    let again = format!(
        "it goes on the boards once you type within {}% of it again",
        watch.confirm_percent
    );
    let pending = match best {
        None if watch.first_wpm > 0 && wpm_x100 > u64::from(watch.first_wpm) * 100 => {
            Some(format!(
                "{} wpm with no ranked round of yours on the boards before today waits off the \
             boards: {again}",
                score.wpm()
            ))
        }
        Some(best)
            if watch.over_best_percent > 0
                && wpm_x100 * 100 > u64::from(best) * u64::from(100 + watch.over_best_percent) =>
        {
            Some(format!(
                "{} wpm is over {}% above your best ({} wpm) and waits off the boards: {again}",
                score.wpm(),
                watch.over_best_percent,
                best / 100
            ))
        }
        _ => None,
    };
    Boards {
        unranked: None,
        pending,
        confirms: confirms.iter().map(|p| p.id.clone()).collect(),
    }
}

impl Record {
    /// The record once `run` is stored: its best stays the day's start's; the runs
    /// waiting change.
    pub fn add(&mut self, run: &NewRun) {
        if run.unranked.is_some() {
            return;
        }
        self.pending.retain(|p| !run.confirms.contains(&p.id));
        if run.pending.is_some() {
            self.pending.push(crate::store::PendingRun {
                id: run.id.clone(),
                wpm_x100: run.wpm_x100,
            });
        }
    }
}

/// Why a banned player's runs are unranked.
pub const BANNED: &str = "the operator took your runs off the boards";

/// Why a DRILL is never ranked: its text is a few words the player picked.
pub const DRILLS: &str = "drills are never ranked: their words are picked to train a few keys";

/// Where a run of `score` on `seed` stands, for `player` at `now_ms`; `Err` refuses it.
pub fn standing(
    score: &Score,
    seed: Option<&IssuedSeed>,
    player: PlayerId,
    now_ms: i64,
) -> Result<Standing, String> {
    let unranked = |why: String, uses_seed| {
        Ok(Standing {
            unranked: Some(why),
            uses_seed,
        })
    };
    if !score.mode.rankable() {
        return unranked(DRILLS.into(), false);
    }
    let Some(seed) = seed.filter(|s| s.player == player) else {
        return unranked(
            "not played on a seed the server issued to you".into(),
            false,
        );
    };
    let waited = now_ms - seed.issued_ms;
    if waited < i64::from(score.duration_ms) {
        return Err(format!(
            "it arrived {} s after its seed was issued, but the round lasts {} s: it can't \
             have been played on it",
            waited.max(0) / 1000,
            score.duration_ms.div_ceil(1000)
        ));
    }
    if let Some(run) = &seed.run {
        return unranked(format!("its seed already counted for run {run}"), false);
    }
    if seed.mode != score.mode.key() {
        let title = seed
            .mode
            .parse::<Mode>()
            .map_or_else(|_| seed.mode.clone(), Mode::title);
        return unranked(format!("its seed was issued for {title}"), false);
    }
    if now_ms > seed.expires_ms {
        return unranked("its seed expired before the round arrived".into(), false);
    }
    if score.accuracy_x100 < MIN_ACCURACY_X100 {
        return unranked("under 75% accuracy".into(), true);
    }
    if score.mode == Mode::Zen && score.duration_ms < MIN_ZEN_MS {
        return unranked(
            format!("a ranked ZEN round lasts at least {} s", MIN_ZEN_MS / 1000),
            true,
        );
    }
    Ok(Standing {
        unranked: None,
        uses_seed: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use typepper_engine::synth::{Typist, synth};

    const ISSUED: i64 = 1_000_000;

    fn score(mode: Mode, accuracy: u32) -> Score {
        let typist = Typist {
            accuracy,
            ..Typist::default()
        };
        synth(mode, 1, &typist).play().unwrap().1
    }

    fn seed(mode: &str) -> IssuedSeed {
        IssuedSeed {
            seed: 1,
            player: 7,
            mode: mode.into(),
            issued_ms: ISSUED,
            expires_ms: ISSUED + 3_600_000,
            run: None,
        }
    }

    #[test]
    fn a_fresh_issued_seed_ranks_and_is_used_up() {
        let s = score(Mode::BLITZ_15, 97);
        let ok = standing(&s, Some(&seed("time:15")), 7, ISSUED + 20_000);
        assert_eq!(
            ok,
            Ok(Standing {
                unranked: None,
                uses_seed: true
            })
        );
    }

    #[test]
    fn a_round_faster_than_its_seed_is_refused() {
        let s = score(Mode::BLITZ_15, 97);
        let why = standing(&s, Some(&seed("time:15")), 7, ISSUED + 9_000).unwrap_err();
        assert!(
            why.starts_with("it arrived 9 s after its seed was issued, but the round lasts 15 s")
        );
    }

    #[test]
    fn every_other_seed_is_unranked_with_a_reason() {
        let s = score(Mode::BLITZ_15, 97);
        let later = ISSUED + 20_000;
        let why = |seed: Option<&IssuedSeed>, player, now| {
            standing(&s, seed, player, now).unwrap().unranked.unwrap()
        };
        assert_eq!(
            why(None, 7, later),
            "not played on a seed the server issued to you"
        );
        assert_eq!(
            why(Some(&seed("time:15")), 8, later),
            "not played on a seed the server issued to you",
            "another player's seed"
        );
        let mut used = seed("time:15");
        used.run = Some("abcdEFGH".into());
        assert_eq!(
            why(Some(&used), 7, later),
            "its seed already counted for run abcdEFGH"
        );
        assert_eq!(
            why(Some(&seed("time:60")), 7, later),
            "its seed was issued for BLITZ 60s"
        );
        assert_eq!(
            why(Some(&seed("time:15")), 7, ISSUED + 3_600_001),
            "its seed expired before the round arrived"
        );
    }

    #[test]
    fn sloppy_rounds_and_short_zen_are_unranked_but_use_their_seed() {
        let sloppy = score(Mode::BLITZ_15, 60);
        assert!(sloppy.accuracy_x100 < MIN_ACCURACY_X100);
        let got = standing(&sloppy, Some(&seed("time:15")), 7, ISSUED + 20_000).unwrap();
        assert_eq!(got.unranked.as_deref(), Some("under 75% accuracy"));
        assert!(got.uses_seed);
        let typist = Typist {
            zen_ms: 10_000,
            ..Typist::default()
        };
        let zen = synth(Mode::Zen, 1, &typist).play().unwrap().1;
        let got = standing(&zen, Some(&seed("zen")), 7, ISSUED + 20_000).unwrap();
        assert_eq!(
            got.unranked.as_deref(),
            Some("a ranked ZEN round lasts at least 30 s")
        );
    }
}
