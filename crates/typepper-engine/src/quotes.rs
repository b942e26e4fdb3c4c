//! Real passages for QUOTE rounds: each language's corpus is a file in `quotes/` made once
//! by `cargo xtask quotes` (`quotes/README.md` says where the passages come from, under
//! which licence, and how they were chosen and cleaned).
//!
//! A file has one passage a line, `text<TAB>author<TAB>work`, and a passage's number is
//! its line's, from 1: `quote:12@de` is the twelfth line of `de.txt`. A corpus is part of
//! the rules as a word list is, frozen by its checksum ([`checksum`]). A build with the
//! `lists` feature carries every corpus; the browser's [`install`]s the one a round needs.

use std::sync::OnceLock;

use crate::rng::Rng;
use crate::words::{Language, checksum as fnv};

/// A passage's number in its language's corpus: 1 for the first line of its file. The
/// corpus says which numbers it has; a key may name any from 1 to 65,535.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct QuoteNo(core::num::NonZeroU16);

impl QuoteNo {
    /// The number, if it is 1 to 65,535.
    pub fn new(n: u32) -> Option<QuoteNo> {
        u16::try_from(n)
            .ok()
            .and_then(core::num::NonZeroU16::new)
            .map(QuoteNo)
    }

    /// The number as it is written.
    pub const fn get(self) -> u16 {
        self.0.get()
    }
}

/// One passage: its text, as typed, and whose it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Passage {
    /// The text: NFC, single spaces, ASCII punctuation where a keyboard types it.
    pub text: &'static str,
    /// Who wrote it.
    pub author: &'static str,
    /// Where it is from; empty when unknown.
    pub work: &'static str,
}

impl Passage {
    /// How long it is.
    pub fn length(&self) -> Length {
        Length::of(self.text)
    }
}

/// The lengths a player picks a quote by, in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Length {
    /// Under 100 characters.
    Short,
    /// 100 to 300.
    Medium,
    /// Over 300.
    Long,
}

impl Length {
    /// Every length, shortest first.
    pub const ALL: [Length; 3] = [Length::Short, Length::Medium, Length::Long];

    /// The length of `text`.
    pub fn of(text: &str) -> Length {
        match text.chars().count() {
            0..100 => Length::Short,
            100..=300 => Length::Medium,
            _ => Length::Long,
        }
    }

    /// `short`, `medium` or `long`.
    pub const fn name(self) -> &'static str {
        match self {
            Length::Short => "short",
            Length::Medium => "medium",
            Length::Long => "long",
        }
    }
}

/// The languages with quotes, in the order a menu offers them: those whose passages a
/// registry's package carries by authors long enough dead (quotes/README.md).
pub const LANGUAGES: [Language; 4] = [
    Language::English,
    Language::German,
    Language::Spanish,
    Language::Russian,
];

/// Each corpus's FNV-1a 64 checksum, in [`LANGUAGES`]' order.
const CHECKSUMS: [u64; 4] = [
    0x9ac6_080e_afc9_cf95,
    0xcf65_e815_f59d_3b04,
    0xc64f_97ca_418d_f7fe,
    0x8567_9e49_462a_58e6,
];

fn slot(language: Language) -> Option<usize> {
    LANGUAGES.iter().position(|&l| l == language)
}

/// The checksum of `language`'s corpus, if it has one.
pub fn checksum(language: Language) -> Option<u64> {
    slot(language).map(|i| CHECKSUMS[i])
}

/// The name of `language`'s corpus file where the server serves it, under `/quotes/`:
/// `fr.0123456789abcdef.txt`, immutable because the name is the content's checksum.
pub fn file_name(language: Language) -> Option<String> {
    checksum(language).map(|sum| format!("{}.{sum:016x}.txt", language.code()))
}

/// Corpora made ready this run.
static CORPORA: [OnceLock<Vec<Passage>>; 4] = [const { OnceLock::new() }; 4];

/// `language`'s passages, if it has quotes and this build has them: always with the
/// `lists` feature, else once [`install`]ed.
pub fn passages(language: Language) -> Option<&'static [Passage]> {
    let slot = &CORPORA[slot(language)?];
    #[cfg(feature = "lists")]
    {
        Some(slot.get_or_init(|| split(embedded(language))))
    }
    #[cfg(not(feature = "lists"))]
    {
        slot.get().map(|passages| &passages[..])
    }
}

/// Passage `n` of `language`, if this build has that corpus and the corpus that passage.
pub fn passage(language: Language, n: QuoteNo) -> Option<&'static Passage> {
    passages(language)?.get(usize::from(n.get()) - 1)
}

/// A passage of `language` picked by `seed`: any, or one of `length`. `None` if the
/// corpus isn't in this build or has no passage of that length.
pub fn pick(language: Language, length: Option<Length>, seed: u64) -> Option<QuoteNo> {
    let fits: Vec<usize> = passages(language)?
        .iter()
        .enumerate()
        .filter(|(_, p)| length.is_none_or(|l| p.length() == l))
        .map(|(i, _)| i)
        .collect();
    if fits.is_empty() {
        return None;
    }
    let i = fits[Rng::new(seed).below(fits.len() as u32) as usize];
    QuoteNo::new(i as u32 + 1)
}

/// `language`'s corpus file as the server serves it at `/quotes/<file name>`, if this
/// build has the corpus: every passage as its line, `text<TAB>author<TAB>work`.
pub fn file(language: Language) -> Option<String> {
    let mut file = String::new();
    for p in passages(language)? {
        for (i, field) in [p.text, p.author, p.work].into_iter().enumerate() {
            if i > 0 {
                file.push('\t');
            }
            file.push_str(field);
        }
        file.push('\n');
    }
    Some(file)
}

/// A corpus file that is not the one this build's rules were frozen with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusError {
    /// The corpus it was offered as.
    pub language: Language,
    /// Its checksum.
    pub got: u64,
}

impl core::fmt::Display for CorpusError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "the {} quotes received have checksum {:016x}, not the ones these rules play",
            self.language.name(),
            self.got,
        )
    }
}

impl std::error::Error for CorpusError {}

/// Makes `file` the corpus of `language` for the rest of the run, if its checksum is the
/// one the rules were frozen with. Installing twice, or a corpus the build carries,
/// changes nothing.
pub fn install(language: Language, file: String) -> Result<(), CorpusError> {
    let got = fnv(file.as_bytes());
    let Some(i) = slot(language).filter(|&i| CHECKSUMS[i] == got) else {
        return Err(CorpusError { language, got });
    };
    // At most one leaked file per language for the run: rounds borrow it for good.
    CORPORA[i].get_or_init(|| split(String::leak(file)));
    Ok(())
}

#[cfg(feature = "lists")]
fn embedded(language: Language) -> &'static str {
    match language {
        Language::German => include_str!("../quotes/de.txt"),
        Language::Spanish => include_str!("../quotes/es.txt"),
        Language::Russian => include_str!("../quotes/ru.txt"),
        _ => include_str!("../quotes/en.txt"),
    }
}

/// A corpus file's passages: `text<TAB>author<TAB>work` a line.
fn split(file: &'static str) -> Vec<Passage> {
    file.lines()
        .map(|line| {
            let mut fields = line.split('\t');
            let mut next = || fields.next().unwrap_or_default();
            Passage {
                text: next(),
                author: next(),
                work: next(),
            }
        })
        .collect()
}

#[cfg(all(test, feature = "lists"))]
mod tests {
    use super::*;

    #[test]
    fn every_corpus_is_frozen_by_its_checksum() {
        for language in LANGUAGES {
            let got = fnv(embedded(language).as_bytes());
            assert_eq!(
                Some(got),
                checksum(language),
                "the {} quotes changed: {got:#018x}",
                language.code()
            );
        }
    }

    #[test]
    fn every_passage_is_a_text_a_round_plays_with_its_author() {
        for language in LANGUAGES {
            let passages = passages(language).unwrap();
            for (i, p) in passages.iter().enumerate() {
                let n = i + 1;
                crate::replay::check(p.text)
                    .unwrap_or_else(|e| panic!("{} #{n}: {e}: {:?}", language.code(), p.text));
                assert!(
                    !p.author.is_empty(),
                    "{} #{n} has no author",
                    language.code()
                );
            }
            let english = language == Language::English;
            assert!(passages.len() >= if english { 500 } else { 200 });
            // Every length in English; aphorisms (Spanish's) may have no long ones.
            if english {
                for length in Length::ALL {
                    let count = passages.iter().filter(|p| p.length() == length).count();
                    assert!(count >= 100, "en has {count} {}", length.name());
                }
            }
            let mut seen = std::collections::HashSet::new();
            for p in passages {
                assert!(seen.insert(p.text), "{} twice: {}", language.code(), p.text);
            }
        }
    }

    #[test]
    fn a_pick_is_of_the_length_asked_and_the_seed_s_own() {
        for length in Length::ALL {
            let n = pick(Language::English, Some(length), 7).unwrap();
            assert_eq!(passage(Language::English, n).unwrap().length(), length);
            assert_eq!(pick(Language::English, Some(length), 7), Some(n));
        }
        let all: std::collections::HashSet<_> = (0..200)
            .map(|seed| pick(Language::German, None, seed))
            .collect();
        assert!(all.len() > 50, "{} passages from 200 seeds", all.len());
        assert_eq!(pick(Language::Polish, None, 1), None);
        assert_eq!(
            pick(Language::Spanish, Some(Length::Long), 1),
            None,
            "none that long"
        );
    }

    #[test]
    fn a_corpus_file_is_the_one_its_checksum_names() {
        for language in LANGUAGES {
            assert_eq!(file(language).as_deref(), Some(embedded(language)));
        }
        assert_eq!(file(Language::Polish), None);
    }

    #[test]
    fn a_corpus_with_another_checksum_is_refused() {
        let err = install(Language::German, "Guten Tag.\tJemand\t\n".into()).unwrap_err();
        assert_eq!(err.language, Language::German);
        assert!(install(Language::Polish, String::new()).is_err());
        install(Language::German, embedded(Language::German).to_owned()).unwrap();
    }
}
