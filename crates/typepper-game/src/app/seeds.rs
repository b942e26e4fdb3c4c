//! The seeds rounds are played on. A linked game keeps one the server issued for each
//! mode on the menu, asked for in the background, so that a round starts at once on a
//! text that can be ranked; without one a round is played on a seed of the game's own,
//! and the server keeps it unranked.

use typepper_api::{IssuedSeed, Utc};
use typepper_engine::Mode;
use typepper_engine::rng::Rng;

use crate::app::{App, Effect, Now};
use crate::request::{Failure, Request};

/// An issued seed this close to expiring is let go: its round might arrive too late.
const SEED_MARGIN_MS: i64 = 10 * 60_000;
/// After a seed request fails, the next waits this long.
const SEED_RETRY_MS: u64 = 30_000;

/// A seed the server issued for a mode, waiting for its round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issued {
    /// The mode key it was asked for: a mode's, or a quote's length (`quote:short@de`).
    pub mode: String,
    /// The mode key it counts for: the one asked for, or the passage the server picked
    /// for a quote's length (`quote:137@de`).
    pub plays: String,
    /// The seed.
    pub seed: u64,
    /// When it expires, unix ms.
    pub expires_ms: i64,
}

/// The seeds the server issued, the requests out for more, and the game's own.
#[derive(Clone, Debug)]
pub struct SeedPool {
    /// Seeds the server issued, one a mode at most.
    issued: Vec<Issued>,
    /// Modes whose seed request is out.
    asking: Vec<String>,
    /// No seed is asked for before this (unix ms), after a request failed.
    retry_at: u64,
    /// The game's own seeds, for rounds without an issued one.
    own: Rng,
}

impl SeedPool {
    /// No seeds issued yet; the game's own drawn from `entropy`.
    pub fn new(entropy: u64) -> SeedPool {
        SeedPool {
            issued: vec![],
            asking: vec![],
            retry_at: 0,
            own: Rng::new(entropy),
        }
    }

    /// Forgets every seed issued and asked for: they were a player's the game no longer
    /// is.
    pub fn forget(&mut self) {
        self.issued.clear();
        self.asking.clear();
    }

    /// Whether a seed is held for mode `key`.
    pub fn has(&self, key: &str) -> bool {
        self.issued.iter().any(|i| i.mode == key)
    }

    /// The seed for a round of mode `key` starting now: the issued one, used up (its
    /// text is seen from now on, whether the round is finished or not), else the game's
    /// own.
    pub fn take(&mut self, key: &str) -> u64 {
        match self.take_issued(key) {
            Some((_, seed)) => seed,
            None => self.own.next_u64(),
        }
    }

    /// The seed issued for `key`, used up, with the mode it counts for; `None` without
    /// one.
    pub fn take_issued(&mut self, key: &str) -> Option<(String, u64)> {
        let at = self.issued.iter().position(|i| i.mode == key)?;
        let issued = self.issued.remove(at);
        Some((issued.plays, issued.seed))
    }

    /// One of the game's own seeds: a quote picked on this device.
    pub fn own_seed(&mut self) -> u64 {
        self.own.next_u64()
    }

    /// The modes of `keys` to ask a seed for at `unix_ms`: each with no usable seed and
    /// none asked for. Seeds about to expire are let go first.
    fn wanted(&mut self, keys: impl IntoIterator<Item = String>, unix_ms: u64) -> Vec<String> {
        let now = i64::try_from(unix_ms).unwrap_or(i64::MAX);
        self.issued.retain(|i| i.expires_ms - SEED_MARGIN_MS > now);
        if unix_ms < self.retry_at {
            return vec![];
        }
        let mut asked = vec![];
        for key in keys {
            if !self.has(&key) && !self.asking.contains(&key) {
                self.asking.push(key.clone());
                asked.push(key);
            }
        }
        asked
    }

    /// The server's answer for `mode` at `unix_ms`: kept, or why not (and a pause before
    /// asking again).
    fn issued(
        &mut self,
        mode: &str,
        answer: Result<IssuedSeed, Failure>,
        unix_ms: u64,
    ) -> Result<(), String> {
        self.asking.retain(|m| m != mode);
        let issued = answer.map_err(|e| e.to_string()).and_then(|seed| {
            match Utc::parse(&seed.expires) {
                Some(expires_ms) if seed.mode == mode || picks_for(mode, &seed.mode) => {
                    Ok(Issued {
                        mode: mode.to_owned(),
                        plays: seed.mode,
                        seed: seed.seed,
                        expires_ms,
                    })
                }
                // Its fields, not its `Debug`: that would bring the wasm a struct formatter.
                _ => Err(format!(
                    "the server's seed doesn't read: {} for {}, until {}",
                    seed.seed, seed.mode, seed.expires
                )),
            }
        });
        match issued {
            Ok(seed) => {
                self.issued.retain(|i| i.mode != seed.mode);
                self.issued.push(seed);
                Ok(())
            }
            Err(why) => {
                self.retry_at = unix_ms + SEED_RETRY_MS;
                Err(why)
            }
        }
    }

    /// When the pool next changes by itself, on the monotonic clock of `now`: a seed to
    /// let go, or (`asks`, when linked) the end of a pause before asking again.
    pub fn wake(&self, now: Now, asks: bool) -> Option<f64> {
        // The seeds' clock is the wall's: its moments become the monotonic clock's.
        let wall = |unix_ms: i64| now.mono + (unix_ms - now.unix_ms as i64).max(0) as f64;
        let expiry = self.issued.iter().map(|i| i.expires_ms).min();
        let expiry = expiry.map(|expires| wall(expires - SEED_MARGIN_MS));
        let retry = (asks && self.retry_at > now.unix_ms).then(|| wall(self.retry_at as i64));
        match (expiry, retry) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// Whether `key`, a quote's passage (`quote:137@de`), is one the server may pick for
/// `asked`, a quote's length in the same language (`quote:short@de`).
fn picks_for(asked: &str, key: &str) -> bool {
    let (Some(asked), Ok(mode)) = (asked.strip_prefix("quote:"), key.parse::<Mode>()) else {
        return false;
    };
    let language = asked.split_once('@').map_or("", |(_, code)| code);
    let same = match language {
        "" => mode.prose().language == typepper_engine::Language::English,
        code => mode.prose().language.code() == code,
    };
    matches!(mode.base(), typepper_engine::Base::Quote(_)) && same
}

impl App {
    /// The modes a key on the menu plays at once: BLITZ at every clock (1 to 4), and the
    /// menu's WORDS, ZEN and HOT PURSUIT, all at the menu's prose.
    fn seeded_modes(&self) -> [typepper_engine::Mode; 7] {
        use typepper_engine::{Base, Blitz};
        let [_, words, zen, pursuit] = self.menu_modes();
        let [s15, s30, s60, s120] = Blitz::ALL.map(|b| self.with_prose(Base::Blitz(b)));
        [s15, s30, s60, s120, words, zen, pursuit]
    }

    /// A seed request for each mode a menu key plays that has no usable seed and none
    /// asked for, when linked; and for a quote of the menu's length while QUOTE is picked
    /// or a quote was the last round. (Every quote seed shows its player a passage for
    /// good, so one is not held for a player who plays no quotes: each that expired
    /// unplayed would be a passage they could never rank on.)
    pub(crate) fn want_seeds(&mut self, unix_ms: u64) -> Vec<Effect> {
        let modes = self.seeded_modes().map(|mode| mode.key());
        let quoting = self.menu_row(self.menu_item) == Some(super::menu::Row::Quote)
            || self
                .history
                .last()
                .is_some_and(|e| e.score.mode.has_fixed_text());
        let quote = self.quote_ask().filter(|_| quoting);
        let keys = modes.into_iter().chain(quote);
        let Some(player) = &self.player else {
            // Seeds about to expire are let go all the same.
            self.seeds.wanted([], unix_ms);
            return vec![];
        };
        let token = player.token.clone();
        self.seeds
            .wanted(keys, unix_ms)
            .into_iter()
            .map(|mode| {
                Effect::Request(Request::Seed {
                    token: token.clone(),
                    mode,
                })
            })
            .collect()
    }

    /// The answer to a [`Request::Seed`] for `mode`, at `unix_ms`.
    pub(crate) fn seed_issued(
        &mut self,
        mode: &str,
        answer: Result<IssuedSeed, Failure>,
        unix_ms: u64,
    ) -> Vec<Effect> {
        match self.seeds.issued(mode, answer, unix_ms) {
            Ok(()) => vec![],
            Err(why) => vec![Effect::Warn(format!(
                "no seed from the server for {mode} ({why}): rounds play unranked until one comes"
            ))],
        }
    }

    /// Back online: seeds may be asked for again at once, and the outbox goes.
    pub fn online(&mut self) -> Vec<Effect> {
        self.seeds.retry_at = 0;
        self.flush()
    }
}
