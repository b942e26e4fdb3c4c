//! The words a round's text is drawn from: VERSION 1's English list, and one list for
//! each other [`Language`].
//!
//! [`Language::English`] is VERSION 1's list (`words/en.txt`): a thousand common English
//! words, lower case a–z only, roughly most common first. Source: compiled by the typepper authors for this project from everyday English
//! (no upstream list was copied); licensed with the rest of typepper, MIT OR Apache-2.0.
//!
//! The other lists are files in `words/` generated once by `cargo xtask words` from
//! wordfreq's frequencies (CC BY-SA 4.0; `words/README.md` says how they were filtered).
//!
//! Every list is part of the rules: changing a word changes what every seed of its
//! language plays out to, so each is frozen by a checksum ([`Language::checksum`]) that a
//! test pins. A build with the `lists` feature (the default) carries every list; the
//! browser's build leaves them out to stay small and [`install`]s a list when a round
//! first needs it, after checking its checksum.

use core::fmt;
use std::sync::OnceLock;

/// A list a round's words come from. [`Language::English`] is VERSION 1's, the list of every
/// key without an `@`; the others are named by their ISO 639-1 code in a key
/// (`time:30@fr`), and English's long list by `en10k`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    /// VERSION 1's list: English's 1,000 words.
    #[default]
    English,
    /// English's 10,000 most common words.
    English10k,
    /// Français.
    French,
    /// Deutsch.
    German,
    /// Español.
    Spanish,
    /// Português.
    Portuguese,
    /// Italiano.
    Italian,
    /// Nederlands.
    Dutch,
    /// Polski.
    Polish,
    /// Čeština.
    Czech,
    /// Svenska.
    Swedish,
    /// Türkçe.
    Turkish,
    /// Русский.
    Russian,
    /// Українська.
    Ukrainian,
}

/// For each language: its code, its name in itself, and its list's checksum.
const TABLE: [(Language, &str, &str, u64); 14] = [
    (Language::English, "en", "english", ENGLISH_CHECKSUM),
    (
        Language::English10k,
        "en10k",
        "english 10k",
        0xc669_ccc4_093b_d775,
    ),
    (Language::French, "fr", "français", 0xd801_1c1c_8ec3_8cd2),
    (Language::German, "de", "deutsch", 0xca06_4fe5_b247_3db9),
    (Language::Spanish, "es", "español", 0x8c2e_6824_1132_0471),
    (
        Language::Portuguese,
        "pt",
        "português",
        0x3144_40aa_e69a_7300,
    ),
    (Language::Italian, "it", "italiano", 0x7202_52e8_5017_618a),
    (Language::Dutch, "nl", "nederlands", 0x6cbf_e7d7_50de_55fd),
    (Language::Polish, "pl", "polski", 0x1c4d_239a_2b0e_73c6),
    (Language::Czech, "cs", "čeština", 0x92b7_44ab_4cff_2b9b),
    (Language::Swedish, "sv", "svenska", 0x7302_bfc1_2bc5_fee0),
    (Language::Turkish, "tr", "türkçe", 0x1917_5556_e838_9337),
    (Language::Russian, "ru", "русский", 0x0254_ebf1_f154_4806),
    (
        Language::Ukrainian,
        "uk",
        "українська",
        0x0839_b7e7_2ee3_279f,
    ),
];

/// English's checksum, as [`checksum`] computes it over its file (the words each
/// followed by a newline, the form the other lists' files have).
const ENGLISH_CHECKSUM: u64 = 0xc4c0_d77d_fed7_464a;

impl Language {
    /// Every language, English first, in the order a menu offers them.
    pub const ALL: [Language; 14] = {
        let mut all = [Language::English; 14];
        let mut i = 0;
        while i < TABLE.len() {
            all[i] = TABLE[i].0;
            i += 1;
        }
        all
    };

    const fn row(self) -> &'static (Language, &'static str, &'static str, u64) {
        &TABLE[self as usize]
    }

    /// The code a key writes after `@`: `fr`, `de`, …, `en10k` (and `en`, which no key
    /// writes: English is the key without an `@`).
    pub const fn code(self) -> &'static str {
        self.row().1
    }

    /// Its name in itself, in lower case as a title writes it: `français`, `русский`.
    pub const fn name(self) -> &'static str {
        self.row().2
    }

    /// The language of `code`, as [`Language::code`] writes it.
    pub fn from_code(code: &str) -> Option<Language> {
        TABLE.iter().find(|row| row.1 == code).map(|row| row.0)
    }

    /// The FNV-1a 64 checksum of its list's file: a list is played only if it matches,
    /// and the browser fetches it by this name (`/words/fr.<16 hex digits>.txt`).
    pub const fn checksum(self) -> u64 {
        self.row().3
    }

    /// Whether its list is ASCII only (English's two: a test holds it), so that a word's
    /// letters are its bytes.
    pub const fn is_ascii(self) -> bool {
        matches!(self, Language::English | Language::English10k)
    }

    /// The name of its list's file where the server serves it: `fr.0123456789abcdef.txt`,
    /// immutable because the name is the content's checksum.
    pub fn file_name(self) -> String {
        format!("{}.{:016x}.txt", self.code(), self.checksum())
    }

    /// Its words, most common first, if this build has them: when the `lists` feature is
    /// on, or the list was [`install`]ed.
    pub fn words(self) -> Option<&'static [&'static str]> {
        let slot = &LISTS[self as usize];
        #[cfg(feature = "lists")]
        {
            Some(slot.get_or_init(|| split(embedded(self))))
        }
        #[cfg(not(feature = "lists"))]
        {
            slot.get().map(|words| &words[..])
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Lists made ready this run, by language.
static LISTS: [OnceLock<Vec<&'static str>>; 14] = [const { OnceLock::new() }; 14];

/// A list's file as this build carries it.
#[cfg(feature = "lists")]
fn embedded(language: Language) -> &'static str {
    match language {
        Language::English => include_str!("../words/en.txt"),
        Language::English10k => include_str!("../words/en10k.txt"),
        Language::French => include_str!("../words/fr.txt"),
        Language::German => include_str!("../words/de.txt"),
        Language::Spanish => include_str!("../words/es.txt"),
        Language::Portuguese => include_str!("../words/pt.txt"),
        Language::Italian => include_str!("../words/it.txt"),
        Language::Dutch => include_str!("../words/nl.txt"),
        Language::Polish => include_str!("../words/pl.txt"),
        Language::Czech => include_str!("../words/cs.txt"),
        Language::Swedish => include_str!("../words/sv.txt"),
        Language::Turkish => include_str!("../words/tr.txt"),
        Language::Russian => include_str!("../words/ru.txt"),
        Language::Ukrainian => include_str!("../words/uk.txt"),
    }
}

/// A list file's words: one a line, each line ending in a newline.
fn split(file: &'static str) -> Vec<&'static str> {
    file.lines().collect()
}

/// FNV-1a 64 over `bytes`: a list's checksum. Not a defence against a forger (the
/// server that serves the list could as well serve another game); it makes sure a list
/// is the very one the rules were frozen with, whatever cache or proxy it came through.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A list file that is not the one this build's rules were frozen with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListError {
    /// The list it was offered as.
    pub language: Language,
    /// Its checksum.
    pub got: u64,
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the {} list received has checksum {:016x}, not {:016x}: it is not the list these rules play",
            self.language.name(),
            self.got,
            self.language.checksum()
        )
    }
}

impl std::error::Error for ListError {}

/// Makes `file` the list of `language` for the rest of the run, if its checksum is the
/// one the rules were frozen with. Installing a list twice, or one this build carries,
/// changes nothing.
pub fn install(language: Language, file: String) -> Result<(), ListError> {
    let got = checksum(file.as_bytes());
    if got != language.checksum() {
        return Err(ListError { language, got });
    }
    // At most one leaked file per language for the run: rounds borrow it for good.
    LISTS[language as usize].get_or_init(|| split(String::leak(file)));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_unique_lower_case_ascii() {
        let mut seen = std::collections::HashSet::new();
        for &w in Language::English.words().unwrap() {
            assert!(
                !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase()),
                "{w:?}"
            );
            assert!(seen.insert(w), "{w:?} twice");
        }
    }

    #[test]
    fn the_list_is_frozen() {
        // FNV-1a over the words, each followed by a newline.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let words = Language::English.words().unwrap();
        for b in words.iter().flat_map(|w| w.bytes().chain([b'\n'])) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        assert_eq!(h, CHECKSUM, "the VERSION 1 word list changed");
    }

    const CHECKSUM: u64 = 0xc4c0d77dfed7464a;

    #[test]
    fn english_is_the_version_1_list_by_the_same_checksum() {
        let file = include_str!("../words/en.txt");
        assert_eq!(checksum(file.as_bytes()), Language::English.checksum());
        assert_eq!(Language::English.words().map(<[_]>::len), Some(1000));
    }

    #[test]
    fn codes_and_names_read_back() {
        for language in Language::ALL {
            assert_eq!(Language::from_code(language.code()), Some(language));
            assert_eq!(language.to_string(), language.name());
        }
        assert_eq!(Language::ALL.len(), 14);
        assert_eq!(Language::from_code("xx"), None);
        assert_eq!(
            Language::French.file_name(),
            format!("fr.{:016x}.txt", Language::French.checksum())
        );
    }

    #[cfg(feature = "lists")]
    #[test]
    fn every_list_is_frozen_by_its_checksum() {
        for language in Language::ALL {
            let file = embedded(language);
            assert_eq!(
                checksum(file.as_bytes()),
                language.checksum(),
                "the {} list changed: {:#018x}",
                language.code(),
                checksum(file.as_bytes())
            );
        }
    }

    #[cfg(feature = "lists")]
    #[test]
    fn the_lists_said_to_be_ascii_are() {
        for language in Language::ALL {
            let ascii = language.words().unwrap().iter().all(|w| w.is_ascii());
            assert_eq!(ascii, language.is_ascii(), "{}", language.code());
        }
    }

    #[cfg(feature = "lists")]
    #[test]
    fn every_list_is_distinct_lower_case_words() {
        for language in Language::ALL.into_iter().skip(1) {
            let words = language.words().unwrap();
            let want = if language == Language::English10k {
                10_000
            } else {
                1_000
            };
            assert_eq!(words.len(), want, "{}", language.code());
            let mut seen = std::collections::HashSet::new();
            for w in words {
                assert!(
                    !w.is_empty() && w.chars().all(|c| c.is_alphabetic() && !c.is_uppercase()),
                    "{}: {w:?}",
                    language.code()
                );
                assert!(seen.insert(w), "{}: {w:?} twice", language.code());
            }
        }
    }

    #[test]
    fn a_list_with_another_checksum_is_refused() {
        let err = install(Language::Polish, "tak\nnie\n".into()).unwrap_err();
        assert_eq!(err.language, Language::Polish);
        assert!(err.to_string().contains("the polski list"), "{err}");
        // The real one goes in (or is already there, in a build that carries it).
        #[cfg(feature = "lists")]
        {
            install(Language::Polish, embedded(Language::Polish).to_owned()).unwrap();
            assert_eq!(Language::Polish.words().unwrap().len(), 1_000);
        }
    }
}
