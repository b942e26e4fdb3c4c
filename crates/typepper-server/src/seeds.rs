//! Seeds the server issues: a round played on one issued to its player, within its
//! lifetime, can be ranked (see `docs/TRUST.md`).
//!
//! A quote is asked for by its length, never by its number: `quote:short`, `quote:medium`,
//! `quote:long` or `quote:any`, each with a language that has quotes (`@de`) if wanted
//! ([`QuoteAsk`]). The server picks, by the seed it draws, a passage of that length the
//! player was never shown (issued, or on a run of theirs stored), remembers it as shown,
//! and answers the seed for that passage's own mode (`quote:137@de`): the first try on a
//! passage, on the passage the server picked, is the one that ranks.

use std::collections::HashSet;

use typepper_engine::quotes::{self, Length};
use typepper_engine::rng::Rng;
use typepper_engine::{Language, Mode, QuoteNo};

use crate::store::{IssuedSeed, PlayerId, Store, StoreError};
use crate::submit::rank::Unranked;
use crate::{ServiceError, secrets};

/// An issued seed counts for a round that arrives within this long.
pub const SEED_LIFETIME_MS: i64 = 3_600_000;
pub use typepper_api::MAX_OPEN_SEEDS;

/// What a seed is asked for: a mode, or a quote of a length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// A round of this mode.
    Mode(Mode),
    /// A quote the server picks.
    Quote(QuoteAsk),
}

/// A quote's seed, asked for by its length: `quote:short@de`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuoteAsk {
    /// Its language: one with quotes.
    pub language: Language,
    /// Its length; `None` for any (`quote:any`).
    pub length: Option<Length>,
}

/// How a quote's seed is asked for, said in every refusal of one asked otherwise.
fn asked_by_length() -> String {
    format!(
        "a quote's seed is asked for by its length: quote:short, quote:medium, quote:long \
         or quote:any, then {} if not English; the server picks a passage you were never \
         shown",
        other_languages().join(" or ")
    )
}

/// The languages with quotes but English, as a key writes them: `@de`, `@es`, ….
fn other_languages() -> Vec<String> {
    (quotes::LANGUAGES.iter())
        .filter(|&&l| l != Language::English)
        .map(|l| format!("@{}", l.code()))
        .collect()
}

impl Ask {
    /// Reads what a seed is asked for: a mode's key, or a quote's length
    /// (`quote:short@de`). A sentence says what is wrong with anything else.
    pub fn parse(key: &str) -> Result<Ask, String> {
        let Some(rest) = key.strip_prefix("quote:") else {
            return key.parse().map(Ask::Mode).map_err(|e| format!("{e}"));
        };
        let (length, code) = match rest.split_once('@') {
            Some((length, code)) => (length, Some(code)),
            None => (rest, None),
        };
        let length = match length {
            "any" => None,
            "short" => Some(Length::Short),
            "medium" => Some(Length::Medium),
            "long" => Some(Length::Long),
            _ => return Err(format!("no seed for {key:?}: {}", asked_by_length())),
        };
        let language = match code.map(|c| (c, Language::from_code(c))) {
            None => Language::English,
            Some((_, Some(l))) if l != Language::English && quotes::LANGUAGES.contains(&l) => l,
            Some((c, _)) => {
                return Err(format!(
                    "no seed for {key:?}: there are no quotes in {c:?}; there are quotes in \
                     English (no @) and in {}",
                    other_languages().join(", ")
                ));
            }
        };
        Ok(Ask::Quote(QuoteAsk { language, length }))
    }
}

impl QuoteAsk {
    /// What it asks for, in words: `short quotes in deutsch`.
    fn describe(self) -> String {
        let length = self.length.map_or("", |l| l.name());
        let space = if length.is_empty() { "" } else { " " };
        format!("{length}{space}quotes in {}", self.language.name())
    }

    /// The passage `seed` picks among those of the asked length whose modes are not in
    /// `shown`: its mode's key; `None` when every one was shown.
    pub fn pick(self, seed: u64, shown: &HashSet<String>) -> Option<String> {
        let unshown: Vec<String> = (quotes::passages(self.language)?.iter().enumerate())
            .filter(|(_, p)| self.length.is_none_or(|l| p.length() == l))
            .filter_map(|(i, _)| QuoteNo::new(i as u32 + 1))
            .filter_map(|n| Mode::quote(n, self.language))
            .map(Mode::key)
            .filter(|key| !shown.contains(key))
            .collect();
        if unshown.is_empty() {
            return None;
        }
        let i = Rng::new(seed).below(unshown.len() as u32) as usize;
        unshown.into_iter().nth(i)
    }

    /// How many passages there are of the asked length.
    fn passages(self) -> usize {
        quotes::passages(self.language).map_or(0, |all| {
            all.iter()
                .filter(|p| self.length.is_none_or(|l| p.length() == l))
                .count()
        })
    }
}

/// Issues `player` a new seed for what `ask` names at `now_ms`.
pub async fn issue(
    store: &dyn Store,
    player: PlayerId,
    ask: Ask,
    now_ms: i64,
) -> Result<IssuedSeed, ServiceError> {
    if let Ask::Mode(mode) = ask {
        if let Some(why) = Unranked::never(mode) {
            return Err(ServiceError::BadRequest(format!(
                "no seeds for {mode}: {why}"
            )));
        }
        if matches!(mode.base(), typepper_engine::Base::Quote(_)) {
            return Err(ServiceError::BadRequest(format!(
                "no seed for {}: {}",
                mode.key(),
                asked_by_length()
            )));
        }
    }
    // A collision (one in 2⁶⁴ a pair) draws again.
    for _ in 0..3 {
        let mut bytes = [0u8; 8];
        secrets::random(&mut bytes);
        let seed = IssuedSeed {
            seed: u64::from_le_bytes(bytes),
            player,
            mode: match ask {
                Ask::Mode(mode) => mode.key(),
                // The store writes the mode the pick chooses.
                Ask::Quote(_) => String::new(),
            },
            issued_ms: now_ms,
            expires_ms: now_ms + SEED_LIFETIME_MS,
            run: None,
            room: false,
        };
        let kept = match ask {
            Ask::Mode(_) => store
                .issue_seed(seed.clone(), MAX_OPEN_SEEDS)
                .await
                .map(|()| Some(seed)),
            Ask::Quote(quote) => {
                let drawn = seed.seed;
                let pick = Box::new(move |shown: &HashSet<String>| quote.pick(drawn, shown));
                store.issue_quote(seed, pick, MAX_OPEN_SEEDS).await
            }
        };
        match kept {
            Err(StoreError::SeedTaken(_)) => continue,
            Err(e) => return Err(e.into()),
            Ok(Some(seed)) => return Ok(seed),
            Ok(None) => {
                let Ask::Quote(quote) = ask else {
                    return Err(ServiceError::Internal("a mode's seed was not kept".into()));
                };
                return Err(every_quote_shown(quote));
            }
        }
    }
    Err(ServiceError::Internal(
        "three seeds in a row were taken".into(),
    ))
}

/// What a player who was shown every passage asked for is told.
fn every_quote_shown(quote: QuoteAsk) -> ServiceError {
    let what = quote.describe();
    match quote.passages() {
        0 => ServiceError::NotFound(format!("there are no {what} on this server")),
        n => ServiceError::Conflict(format!(
            "you were shown every one of the {n} {what}, and a passage ranks only on its first \
             try: ask for another length or language"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quote_is_asked_for_by_its_length_and_language() {
        let ask = |key: &str| Ask::parse(key);
        let quote = |language, length| Ok(Ask::Quote(QuoteAsk { language, length }));
        assert_eq!(ask("quote:any"), quote(Language::English, None));
        for language in quotes::LANGUAGES.into_iter().skip(1) {
            let code = language.code();
            assert_eq!(
                ask(&format!("quote:short@{code}")),
                quote(language, Some(Length::Short))
            );
            assert_eq!(
                ask(&format!("quote:long@{code}")),
                quote(language, Some(Length::Long))
            );
        }
        assert_eq!(ask("time:15"), Ok(Ask::Mode(Mode::BLITZ_15)));
        for (key, why) in [
            ("quote:137", "asked for by its length"),
            ("quote:Short", "asked for by its length"),
            ("quote:short/p", "asked for by its length"),
            ("quote:", "asked for by its length"),
            ("quote:any@en", "no quotes in \"en\""),
            ("quote:any@en10k", "no quotes in \"en10k\""),
            ("quote:any@pl", "no quotes in \"pl\""),
            ("quote:any@", "no quotes in \"\""),
            ("quote:short@de@es", "no quotes in \"de@es\""),
            ("quotes", "this build has no mode"),
        ] {
            let said = ask(key).unwrap_err();
            assert!(said.contains(why), "{key}: {said}");
        }
    }

    #[test]
    fn a_pick_is_a_passage_of_the_length_asked_never_one_shown() {
        for language in quotes::LANGUAGES {
            for length in [
                None,
                Some(Length::Short),
                Some(Length::Medium),
                Some(Length::Long),
            ] {
                let ask = QuoteAsk { language, length };
                let mut shown = HashSet::new();
                for seed in 0.. {
                    let Some(key) = ask.pick(seed, &shown) else {
                        break;
                    };
                    let mode: Mode = key.parse().unwrap();
                    let typepper_engine::Base::Quote(n) = mode.base() else {
                        panic!("{key}");
                    };
                    let passage = quotes::passage(language, n).unwrap();
                    assert!(length.is_none_or(|l| passage.length() == l), "{key}");
                    assert!(shown.insert(key), "picked twice");
                }
                assert_eq!(shown.len(), ask.passages(), "{}", ask.describe());
            }
        }
    }
}
