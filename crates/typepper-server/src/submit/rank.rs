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

use core::fmt;

use typepper_api::RANKED_BEST;
use typepper_engine::{Base, Mode, Score};

use super::Refusal;
use crate::store::{IssuedSeed, NewRun, PlayerId, Record};

/// A ranked run is at least this accurate, in hundredths of a percent.
pub const MIN_ACCURACY_X100: u16 = 7_500;
/// A ranked ZEN round lasts at least this long.
pub const MIN_ZEN_MS: u32 = 30_000;

/// Where a verified run stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Why it is not ranked; `None` when it is.
    pub unranked: Option<Unranked>,
    /// It is on a seed issued to its player, which it now uses up.
    pub uses_seed: bool,
}

/// When a ranked run waits off the boards for its player to confirm it. A threshold of 0
/// turns its check off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::Args)]
pub struct Watch {
    /// A player's first ranked run over this many wpm waits off the boards until they
    /// confirm it; 0 turns this off.
    #[arg(
        long = "pending-first-wpm",
        value_name = "PENDING_FIRST_WPM",
        env = "TYPEPPER_PENDING_FIRST_WPM",
        default_value_t = 150
    )]
    pub first_wpm: u32,
    /// A ranked run more than this many percent above its player's best wpm waits off the
    /// boards until they confirm it; 0 turns this off.
    #[arg(
        long = "pending-over-best",
        value_name = "PENDING_OVER_BEST",
        env = "TYPEPPER_PENDING_OVER_BEST",
        default_value_t = 30
    )]
    pub over_best_percent: u32,
    /// A ranked run within this many percent of a waiting run's wpm confirms it.
    #[arg(
        long = "confirm-within",
        value_name = "CONFIRM_WITHIN",
        env = "TYPEPPER_CONFIRM_WITHIN",
        default_value_t = 25
    )]
    pub confirm_percent: u32,
}

impl Default for Watch {
    fn default() -> Watch {
        crate::defaults::of()
    }
}

/// Where a ranked run goes, judged against its player's record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Boards {
    /// Why it is not ranked after all; `None` when it is.
    pub unranked: Option<Unranked>,
    /// Why it waits off the boards; `None` when it goes on.
    pub pending: Option<Pending>,
    /// The player's waiting runs it confirms.
    pub confirms: Vec<String>,
}

/// Judges a run of `score` that [`standing`] left `unranked` (or ranked) against its
/// player's `record`: a banned player's runs are unranked, a ranked one far above the
/// record waits, and a ranked one near a waiting one confirms it.
pub fn boards(score: &Score, unranked: Option<Unranked>, record: &Record, watch: &Watch) -> Boards {
    if unranked.is_some() {
        return Boards {
            unranked,
            ..Boards::default()
        };
    }
    if record.banned {
        return Boards {
            unranked: Some(Unranked::Banned),
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
    let wpm = score.wpm();
    let confirm = watch.confirm_percent;
    let pending = match record.best_wpm_x100 {
        None if watch.first_wpm > 0 && wpm_x100 > u64::from(watch.first_wpm) * 100 => {
            Some(Pending::First { wpm, confirm })
        }
        Some(best)
            if watch.over_best_percent > 0
                && wpm_x100 * 100 > u64::from(best) * u64::from(100 + watch.over_best_percent) =>
        {
            Some(Pending::OverBest {
                wpm,
                over: watch.over_best_percent,
                best: best / 100,
                confirm,
            })
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
        if run.played.unranked.is_some() {
            return;
        }
        self.pending.retain(|p| !run.confirms.contains(&p.id));
        if run.played.pending.is_some() {
            self.pending.push(crate::store::PendingRun {
                id: run.played.id.clone(),
                wpm_x100: run.played.wpm_x100,
            });
        }
    }
}

/// Why a stored run is not ranked: on no board, and never a personal best.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unranked {
    /// A DRILL: its text is a few words the player picked.
    Drill,
    /// A CUSTOM TEXT: its text is anything the player brought.
    Custom,
    /// A quote raced in a live room: a passage ranks on its first issued try, and a room
    /// counts its seed as issued to each racer at every race.
    QuoteInRoom,
    /// Not on a seed issued to its player (or on none the server knows).
    NotIssued,
    /// Its seed counted for another run already.
    SeedUsed {
        /// That run.
        run: String,
    },
    /// Its seed was issued for another mode.
    OtherMode {
        /// That mode's title (or its key, if this build has no such mode).
        title: String,
    },
    /// Its seed expired before it arrived.
    Expired,
    /// Under [`MIN_ACCURACY_X100`].
    Sloppy,
    /// A ZEN round shorter than [`MIN_ZEN_MS`].
    ShortZen,
    /// The operator banned its player.
    Banned,
    /// Raced in a room by a guest, who never linked a game.
    Guest,
    /// On a daily's seed, but not on the try the server gave its player on its day.
    DailyNotTried {
        /// The daily's number.
        number: u32,
    },
    /// On a daily whose first try counted for another run already.
    DailyTried {
        /// The daily's number.
        number: u32,
        /// The run that counted.
        run: String,
    },
    /// A daily's first try, arrived too long after it began.
    DailyLate {
        /// The daily's number.
        number: u32,
    },
    /// A daily's first try that would wait off the boards to be confirmed: a daily's
    /// board takes no round that waits.
    DailyWaits {
        /// The daily's number.
        number: u32,
        /// Why it would wait.
        why: String,
    },
    /// Its keys' timing is what the checks take for a program's (the sentence says how).
    /// A person's round is that now and then: it is kept, never lost, and off the boards.
    Timing(String),
}

impl Unranked {
    /// Why rounds of `mode` are never ranked, if they never are (`Mode::rankable`).
    pub fn never(mode: Mode) -> Option<Unranked> {
        match mode.base() {
            _ if mode.rankable() => None,
            Base::Custom => Some(Unranked::Custom),
            _ => Some(Unranked::Drill),
        }
    }
}

impl fmt::Display for Unranked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unranked::Drill => {
                f.write_str("drills are never ranked: their words are picked to train a few keys")
            }
            Unranked::Custom => f.write_str(
                "custom texts are never ranked: a text anyone brings can be anything, and \
                 rehearsed for as long as they like",
            ),
            Unranked::QuoteInRoom => f.write_str(
                "a quote ranks on its first try on a seed the server issued you, and a race in \
                 a room is not one",
            ),
            Unranked::NotIssued => f.write_str("not played on a seed the server issued to you"),
            Unranked::SeedUsed { run } => write!(f, "its seed already counted for run {run}"),
            Unranked::OtherMode { title } => write!(f, "its seed was issued for {title}"),
            Unranked::Expired => f.write_str("its seed expired before the round arrived"),
            Unranked::Sloppy => write!(f, "under {}% accuracy", MIN_ACCURACY_X100 / 100),
            Unranked::ShortZen => write!(
                f,
                "a ranked ZEN round lasts at least {} s",
                MIN_ZEN_MS / 1000
            ),
            Unranked::Banned => f.write_str("the operator took your runs off the boards"),
            Unranked::Guest => f.write_str("raced as a guest: link a game to rank your rounds"),
            Unranked::Timing(why) => write!(f, "the timing checks took it for a program's: {why}"),
            Unranked::DailyNotTried { number } => write!(
                f,
                "{} ranks only on the try the server gave you on its day: this round is \
                 kept, unranked",
                typepper_api::daily::name(*number)
            ),
            Unranked::DailyTried { number, run } => write!(
                f,
                "{} counted your first try already (run {run}), and a daily ranks on its \
                 first try only",
                typepper_api::daily::name(*number)
            ),
            Unranked::DailyLate { number } => write!(
                f,
                "it arrived more than {} minutes after your try of {} began",
                super::daily::TRY_MS / 60_000,
                typepper_api::daily::name(*number)
            ),
            Unranked::DailyWaits { number, why } => write!(
                f,
                "{}'s board takes no round that waits to be confirmed: {why}",
                typepper_api::daily::name(*number)
            ),
        }
    }
}

/// Why a ranked run waits off the boards for its player to confirm it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Fast, from a player with no ranked round on the boards before the day.
    First {
        /// Its wpm.
        wpm: u32,
        /// How near a later round must come to confirm it, in percent.
        confirm: u32,
    },
    /// Far above its player's best.
    OverBest {
        /// Its wpm.
        wpm: u32,
        /// The percentage above the best that waits.
        over: u32,
        /// The best, in wpm.
        best: u32,
        /// How near a later round must come to confirm it, in percent.
        confirm: u32,
    },
}

impl fmt::Display for Pending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let again =
            |confirm| format!("it goes on the boards once you type within {confirm}% of it again");
        match self {
            Pending::First { wpm, confirm } => write!(
                f,
                "{wpm} wpm with no ranked round of yours on the boards before today waits off \
                 the boards: {}",
                again(confirm)
            ),
            Pending::OverBest {
                wpm,
                over,
                best,
                confirm,
            } => write!(
                f,
                "{wpm} wpm is over {over}% above {RANKED_BEST} ({best} wpm) and waits off \
                 the boards: {}",
                again(confirm)
            ),
        }
    }
}

/// Where a run of `score` on `seed` stands, for `player` at `now_ms`; `Err` refuses it.
/// `live`: it was raced in a room, whose seed stands as `seed`.
pub fn standing(
    score: &Score,
    seed: Option<&IssuedSeed>,
    live: bool,
    player: PlayerId,
    now_ms: i64,
) -> Result<Standing, Refusal> {
    let unranked = |why, uses_seed| {
        Ok(Standing {
            unranked: Some(why),
            uses_seed,
        })
    };
    if let Some(why) = Unranked::never(score.mode) {
        return unranked(why, false);
    }
    // A passage anyone can read ranks once for each player: on the seed the server issued
    // them with it, the first time (docs/TRUST.md, "Quotes"). A room issues its seed to
    // every racer at every race, so a passage raced in rooms would rank again and again.
    if live && matches!(score.mode.base(), Base::Quote(_)) {
        return unranked(Unranked::QuoteInRoom, false);
    }
    let Some(seed) = seed.filter(|s| s.player == player) else {
        return unranked(Unranked::NotIssued, false);
    };
    let waited = now_ms - seed.issued_ms;
    if waited < i64::from(score.duration_ms) {
        return Err(Refusal::TooSoon {
            waited_s: waited.max(0) / 1000,
            lasts_s: score.duration_ms.div_ceil(1000),
        });
    }
    if let Some(run) = &seed.run {
        let run = run.clone();
        return unranked(Unranked::SeedUsed { run }, false);
    }
    if seed.mode != score.mode.key() {
        let title = seed
            .mode
            .parse::<Mode>()
            .map_or_else(|_| seed.mode.clone(), Mode::title);
        return unranked(Unranked::OtherMode { title }, false);
    }
    if now_ms > seed.expires_ms {
        return unranked(Unranked::Expired, false);
    }
    if score.accuracy_x100 < MIN_ACCURACY_X100 {
        return unranked(Unranked::Sloppy, true);
    }
    if score.mode.is_zen() && score.duration_ms < MIN_ZEN_MS {
        return unranked(Unranked::ShortZen, true);
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
            room: false,
        }
    }

    #[test]
    fn a_fresh_issued_seed_ranks_and_is_used_up() {
        let s = score(Mode::BLITZ_15, 97);
        let ok = standing(&s, Some(&seed("time:15")), false, 7, ISSUED + 20_000);
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
        let why = standing(&s, Some(&seed("time:15")), false, 7, ISSUED + 9_000).unwrap_err();
        assert_eq!(
            why,
            Refusal::TooSoon {
                waited_s: 9,
                lasts_s: 15
            }
        );
    }

    #[test]
    fn every_other_seed_is_unranked_with_a_reason() {
        let s = score(Mode::BLITZ_15, 97);
        let later = ISSUED + 20_000;
        let why = |seed: Option<&IssuedSeed>, player, now| {
            standing(&s, seed, false, player, now)
                .unwrap()
                .unranked
                .unwrap()
                .to_string()
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
        let got = standing(&sloppy, Some(&seed("time:15")), false, 7, ISSUED + 20_000).unwrap();
        assert_eq!(got.unranked, Some(Unranked::Sloppy));
        assert!(got.uses_seed);
        let typist = Typist {
            zen_ms: 10_000,
            ..Typist::default()
        };
        let zen = synth(Mode::ZEN, 1, &typist).play().unwrap().1;
        let got = standing(&zen, Some(&seed("zen")), false, 7, ISSUED + 20_000).unwrap();
        assert_eq!(got.unranked, Some(Unranked::ShortZen));
        // ZEN with punctuation in French is ZEN: as short, as unranked.
        let zen = synth("zen/p@fr".parse().unwrap(), 1, &typist)
            .play()
            .unwrap()
            .1;
        let got = standing(&zen, Some(&seed("zen/p@fr")), false, 7, ISSUED + 20_000).unwrap();
        assert_eq!(got.unranked, Some(Unranked::ShortZen));
    }

    /// The rule was written `mode == ZEN`, which a ZEN with options or a language is not.
    #[test]
    fn a_short_zen_round_with_its_texts_settings_is_unranked_too() {
        let typist = Typist {
            zen_ms: 10_000,
            ..Typist::default()
        };
        for key in ["zen/p", "zen/n", "zen@fr", "zen/p/n@ru"] {
            let mode: Mode = key.parse().unwrap();
            let zen = synth(mode, 1, &typist).play().unwrap().1;
            let got = standing(&zen, Some(&seed(key)), false, 7, ISSUED + 20_000).unwrap();
            assert_eq!(got.unranked, Some(Unranked::ShortZen), "{key}");
        }
    }

    /// A custom text is never ranked, whatever seed it was played on, and leaves the seed
    /// for the round it was issued for; a quote raced in a room is not its first try.
    #[test]
    fn custom_texts_and_quotes_raced_in_rooms_are_unranked_and_spend_no_seed() {
        let text = "the quick brown fox jumps over the lazy dog and runs far away from home";
        let round = typepper_engine::Round::custom(text, 1).unwrap();
        let custom = typepper_engine::synth::synth_on(round, &Typist::default());
        let s = custom.play().unwrap().1;
        let got = standing(&s, Some(&seed("custom")), false, 7, ISSUED + 60_000).unwrap();
        assert_eq!(
            got,
            Standing {
                unranked: Some(Unranked::Custom),
                uses_seed: false
            }
        );
        let quote = typepper_engine::quotes::passages(typepper_engine::Language::English)
            .map(|all| all.len())
            .and_then(|n| typepper_engine::QuoteNo::new(n as u32))
            .and_then(|n| Mode::quote(n, typepper_engine::Language::English))
            .unwrap();
        let s = synth(quote, 1, &Typist::default()).play().unwrap().1;
        let issued = seed(&quote.key());
        let later = ISSUED + 600_000;
        let got = standing(&s, Some(&issued), true, 7, later).unwrap();
        assert_eq!(got.unranked, Some(Unranked::QuoteInRoom));
        let got = standing(&s, Some(&issued), false, 7, later).unwrap();
        assert_eq!(got.unranked, None, "on its issued seed, it ranks");
    }

    /// Every reason a run is unranked or waits, as the answer line says it.
    #[test]
    fn every_reason_says_its_sentence() {
        let table: [(&dyn std::fmt::Display, &str); 12] = [
            (
                &Unranked::Drill,
                "drills are never ranked: their words are picked to train a few keys",
            ),
            (
                &Unranked::Custom,
                "custom texts are never ranked: a text anyone brings can be anything, and \
                 rehearsed for as long as they like",
            ),
            (
                &Unranked::QuoteInRoom,
                "a quote ranks on its first try on a seed the server issued you, and a race in \
                 a room is not one",
            ),
            (
                &Unranked::NotIssued,
                "not played on a seed the server issued to you",
            ),
            (
                &Unranked::SeedUsed {
                    run: "abcdEFGH".into(),
                },
                "its seed already counted for run abcdEFGH",
            ),
            (
                &Unranked::OtherMode {
                    title: "BLITZ 60s".into(),
                },
                "its seed was issued for BLITZ 60s",
            ),
            (
                &Unranked::Expired,
                "its seed expired before the round arrived",
            ),
            (&Unranked::Sloppy, "under 75% accuracy"),
            (
                &Unranked::ShortZen,
                "a ranked ZEN round lasts at least 30 s",
            ),
            (
                &Unranked::Banned,
                "the operator took your runs off the boards",
            ),
            (
                &Pending::First {
                    wpm: 160,
                    confirm: 25,
                },
                "160 wpm with no ranked round of yours on the boards before today waits off \
                 the boards: it goes on the boards once you type within 25% of it again",
            ),
            (
                &Pending::OverBest {
                    wpm: 140,
                    over: 30,
                    best: 100,
                    confirm: 25,
                },
                "140 wpm is over 30% above your ranked best (100 wpm) and waits off the boards: it \
                 goes on the boards once you type within 25% of it again",
            ),
        ];
        for (reason, sentence) in table {
            assert_eq!(reason.to_string(), sentence);
        }
    }
}
