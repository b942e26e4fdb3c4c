//! The round's text: an endless stream of words drawn by the seed from its language's
//! list, with punctuation and numbers when the mode asks for them (RULES.md, "Prose").

use core::fmt::Write as _;

use crate::mode::{Base, DrillPool, Mode, Prose};
// A given text's check is the format's (format 2 reads it): here too, where a shell
// makes a pasted text ready.
pub use crate::replay::{check, tidy};
use crate::rng::Rng;
use crate::words::Language;

/// A drill's pool is topped up to at least this many words, so that its text never
/// runs out of variety (and the no-repeat rule always has another word to draw).
pub const DRILL_MIN_WORDS: usize = 10;

/// Salt of the second stream that places punctuation and numbers, so that a mode with
/// them draws the same list words as the mode without: `time:30/p` is `time:30`'s text
/// with capitals and marks.
const PROSE_SALT: u64 = 0x7072_6f73_6521_0001;

/// The words a seed plays: each list word is `pool[rng.below(pool.len())]`, drawn again
/// while it would repeat the word before it (nobody wants "the the"). The pool is the
/// whole list, or a drill's words. With punctuation or numbers, a second stream from the
/// same seed decorates them.
#[derive(Clone, Debug)]
pub struct Words {
    draw: Draw,
    prose: Option<Decor>,
}

/// The list words of a stream.
#[derive(Clone, Debug)]
struct Draw {
    list: &'static [&'static str],
    rng: Rng,
    last: Option<u32>,
    /// A drill's words, as indices into the list; `None` for the whole list.
    pool: Option<Vec<u16>>,
    /// A weighted drill's running sums of its words' weights, in pool order.
    weights: Option<Vec<u32>>,
}

/// What punctuation and numbers are in play, and where the prose stands.
#[derive(Clone, Debug)]
struct Decor {
    rng: Rng,
    punctuation: bool,
    numbers: bool,
    turkish: bool,
    /// The next word starts a sentence.
    capital: bool,
    /// Words of the sentence so far.
    in_sentence: u32,
    /// An open quote or bracket: its closing mark, and the words it has left.
    wrap: Option<(char, u32)>,
    /// The next word is a dash.
    dash: bool,
}

/// The endless word stream of `seed` on VERSION 1's English list.
///
/// # Panics
/// If this build doesn't have the list, as [`words_of`].
pub fn words(seed: u64) -> Words {
    words_of(Mode::plain(Base::Zen), seed)
}

/// The word stream of `seed` in `mode`: a drill's words for a DRILL, else the mode's
/// language's list, decorated as its [`Prose`] says.
///
/// # Panics
/// If this build doesn't have the language's list (a build without the `lists` feature
/// that hasn't [`install`](crate::words::install)ed it).
pub fn words_of(mode: Mode, seed: u64) -> Words {
    let prose = mode.prose();
    let language = prose.language;
    let list = language
        .words()
        .unwrap_or_else(|| panic!("the {} list is not installed", language.code()));
    let mut draw = Draw::new(list, seed);
    if let Base::Drill(drill) = mode.base() {
        // Every word holding a drilled letter, in the list's order; too few, and the list's
        // first (most common) other words fill up to the minimum.
        let (hits, rest): (Vec<u16>, Vec<u16>) =
            (0..list.len() as u16).partition(|&i| drill.hits(list[usize::from(i)]));
        let mut pool = hits;
        let short = DRILL_MIN_WORDS.saturating_sub(pool.len());
        pool.extend(rest.into_iter().take(short));
        // `drill2:`: each word as likely as the drilled letters it holds (a top-up word
        // holds none and counts as one), by their running sums.
        draw.weights = (drill.pool() == DrillPool::Weighted).then(|| {
            let mut sum = 0;
            pool.iter()
                .map(|&i| {
                    sum += drill.count(list[usize::from(i)]).max(1);
                    sum
                })
                .collect()
        });
        draw.pool = Some(pool);
    }
    Words {
        draw,
        prose: (prose.punctuation || prose.numbers).then(|| Decor::new(prose, seed)),
    }
}

impl Draw {
    fn new(list: &'static [&'static str], seed: u64) -> Draw {
        Draw {
            list,
            rng: Rng::new(seed),
            last: None,
            pool: None,
            weights: None,
        }
    }

    fn next(&mut self) -> &'static str {
        let n = self.pool.as_ref().map_or(self.list.len(), Vec::len) as u32;
        let mut i = self.pick(n);
        while Some(i) == self.last {
            i = self.pick(n);
        }
        self.last = Some(i);
        let word = match &self.pool {
            Some(pool) => usize::from(pool[i as usize]),
            None => i as usize,
        };
        self.list[word]
    }

    /// One draw of a word's place among `n` (a method, not a closure, to be inlined).
    #[inline]
    fn pick(&mut self, n: u32) -> u32 {
        match &self.weights {
            // The first word whose running sum passes a draw below the total.
            Some(sums) => {
                let r = self.rng.below(sums.last().copied().unwrap_or(1));
                sums.partition_point(|&s| s <= r) as u32
            }
            None => self.rng.below(n),
        }
    }
}

impl Words {
    /// The next word: a list word as the list has it, or else appended to `out` (a number,
    /// a dash, a word with a capital or marks). `left` is how many words the text has
    /// left, this one included, when it ends (WORDS): the last word ends its sentence,
    /// and no dash is left dangling. A plain word is never copied: most rounds' text is
    /// nothing but.
    #[inline]
    pub fn next_word(&mut self, out: &mut String, left: Option<u32>) -> Option<&'static str> {
        match &mut self.prose {
            None => Some(self.draw.next()),
            Some(decor) => decor.next_word(&mut self.draw, out, left),
        }
    }

    /// Appends the next word to `out`, whatever it is.
    pub fn next_into(&mut self, out: &mut String, left: Option<u32>) {
        if let Some(word) = self.next_word(out, left) {
            out.push_str(word);
        }
    }
}

impl Iterator for Words {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        let mut word = String::new();
        self.next_into(&mut word, None);
        Some(word)
    }
}

/// How often, in hundredths: a number instead of a list word; a quote or bracket opening
/// at a word; a sentence ending at a word once it has three; a comma, semicolon or colon
/// after a word that ends none; a dash after a word that has no mark.
const NUMBER: u32 = 10;
const WRAP: u32 = 6;
const SENTENCE_END: u32 = 14;
const MARK: u32 = 12;
const DASH: u32 = 3;

impl Decor {
    fn new(prose: Prose, seed: u64) -> Decor {
        Decor {
            rng: Rng::new(seed ^ PROSE_SALT),
            punctuation: prose.punctuation,
            numbers: prose.numbers,
            turkish: prose.language == Language::Turkish,
            capital: true,
            in_sentence: 0,
            wrap: None,
            dash: false,
        }
    }

    fn chance(&mut self, hundredths: u32) -> bool {
        self.rng.below(100) < hundredths
    }

    fn next_word(
        &mut self,
        draw: &mut Draw,
        out: &mut String,
        left: Option<u32>,
    ) -> Option<&'static str> {
        if self.dash {
            self.dash = false;
            out.push('-');
            return None;
        }
        let number = self.numbers && self.chance(NUMBER);
        if !self.punctuation {
            if !number {
                return Some(draw.next());
            }
            self.number(out);
            return None;
        }
        let last = left == Some(1);
        self.in_sentence += 1;
        if self.wrap.is_none() && !last && self.chance(WRAP) {
            let (open, close, most) = match self.rng.below(6) {
                0..=2 => ('"', '"', 3),
                3 | 4 => ('(', ')', 4),
                _ => ('\'', '\'', 1),
            };
            out.push(open);
            self.wrap = Some((close, self.rng.below(most) + 1));
        }
        let start = out.len();
        match number {
            true => self.number(out),
            false => out.push_str(draw.next()),
        }
        if core::mem::take(&mut self.capital) {
            capitalize(out, start, self.turkish);
        }
        let ends = last || (self.in_sentence >= 3 && self.chance(SENTENCE_END));
        if let Some((close, words)) = self.wrap {
            // A quote or bracket closes before its sentence's end.
            if words == 1 || ends {
                out.push(close);
                self.wrap = None;
            } else {
                self.wrap = Some((close, words - 1));
            }
        }
        if ends {
            out.push(match self.rng.below(10) {
                0 => '?',
                1 => '!',
                _ => '.',
            });
            self.capital = true;
            self.in_sentence = 0;
        } else if self.chance(MARK) {
            out.push(match self.rng.below(6) {
                0 => ';',
                1 => ':',
                _ => ',',
            });
        } else if left.is_none_or(|l| l >= 3) && self.chance(DASH) {
            // A dash is a word of its own between two words of one sentence.
            self.dash = true;
        }
        None
    }

    /// A number of one to four digits, none with a leading zero but 0 itself.
    fn number(&mut self, out: &mut String) {
        let digits = self.rng.below(4);
        let low = 10u32.pow(digits);
        let n = match digits {
            0 => self.rng.below(10),
            _ => low + self.rng.below(9 * low),
        };
        // Written in place: a String for each number would be an allocation each.
        let _ = write!(out, "{n}");
    }
}

/// Upper-cases the letter at `out[start..]`'s start, when its upper case is one
/// letter (German's ß stays ß). Turkish dots its capital i.
fn capitalize(out: &mut String, start: usize, turkish: bool) {
    let Some(first) = out.get(start..).and_then(|s| s.chars().next()) else {
        return;
    };
    let upper = match first {
        'i' if turkish => 'İ',
        _ => upper_case(first),
    };
    if upper != first {
        out.replace_range(
            start..start + first.len_utf8(),
            upper.encode_utf8(&mut [0; 4]),
        );
    }
}

/// `c`'s upper case where it is one letter, for every letter a list holds: ASCII,
/// Latin-1, Latin Extended-A and Cyrillic's first two rows, as Unicode has them but µ
/// and ſ (a test checks every letter of every list against `char::to_uppercase`). Any
/// other letter stays as it is (a list that brings one needs a line here, or the test
/// fails). Unicode's whole table would cost the browser's wasm 5 KB gzip, a thirtieth of
/// its budget, for letters no list has.
fn upper_case(c: char) -> char {
    let u = u32::from(c);
    let upper = match u {
        0x61..=0x7a => u - 0x20,
        // Latin-1's small letters but ÷ (ß's upper case is two letters, SS).
        0xe0..=0xfe if u != 0xf7 => u - 0x20,
        0xff => 0x178,
        // Turkish's dotless ı: its capital is I.
        0x131 => 0x49,
        // Latin Extended-A pairs capital and small letter, the small one after, in two
        // runs of each parity.
        0x100..=0x137 | 0x14a..=0x177 if u % 2 == 1 => u - 1,
        0x139..=0x148 | 0x179..=0x17e if u % 2 == 0 => u - 1,
        // Cyrillic: а–я, then ѐ–џ (ё, є, і, ї).
        0x430..=0x44f => u - 0x20,
        0x450..=0x45f => u - 0x50,
        _ => u,
    };
    char::from_u32(upper).unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every letter of every list upper-cases as Unicode has it, where that is one
    /// letter: the short table above plays exactly what `char::to_uppercase` played.
    #[cfg(feature = "lists")]
    #[test]
    fn every_letter_of_every_list_upper_cases_as_unicode_has_it() {
        let unicode = |c: char| {
            let mut upper = c.to_uppercase();
            match (upper.next(), upper.next()) {
                (Some(one), None) => one,
                _ => c,
            }
        };
        for language in crate::Language::ALL {
            for word in language.words().unwrap() {
                for c in word.chars() {
                    assert_eq!(upper_case(c), unicode(c), "{c:?} in {}", language.code());
                }
            }
        }
        for c in "0123456789,.;:!?'\"-() ".chars() {
            assert_eq!(upper_case(c), c);
        }
    }

    #[test]
    fn seed_42_starts_with_these_words() {
        let got: Vec<_> = words(42).take(6).collect();
        assert_eq!(got, SEED_42, "the VERSION 1 text of seed 42 changed");
    }

    #[test]
    fn no_word_follows_itself() {
        let w: Vec<_> = words(9).take(20_000).collect();
        assert!(w.windows(2).all(|p| p[0] != p[1]));
    }

    #[test]
    fn a_drill_draws_only_words_with_its_letters_where_the_list_has_enough() {
        for (letters, pool) in ["qzx", "e", "q", "z", "kv", "abcdefgh"]
            .into_iter()
            .flat_map(|l| [(l, DrillPool::Any), (l, DrillPool::Weighted)])
        {
            let drill = crate::mode::Drill::with(letters, pool).unwrap();
            let mode = Mode::plain(Base::Drill(drill));
            let with = (Language::English.words().unwrap().iter())
                .filter(|w| drill.hits(w))
                .count();
            let drawn: Vec<_> = words_of(mode, 3).take(2_000).collect();
            let hit = drawn.iter().filter(|w| drill.hits(w)).count();
            if with >= DRILL_MIN_WORDS {
                assert_eq!(
                    hit,
                    drawn.len(),
                    "{letters}: every word has a drilled letter"
                );
            } else {
                assert!(hit > 0 && hit < drawn.len(), "{letters}: topped up");
            }
            let distinct: std::collections::HashSet<_> = drawn.iter().collect();
            let pool = with.max(DRILL_MIN_WORDS);
            assert!(distinct.len() <= pool, "{letters}");
            if pool <= 20 {
                assert_eq!(distinct.len(), pool, "{letters}: the whole pool is drawn");
            }
            assert!(drawn.windows(2).all(|p| p[0] != p[1]));
            assert_eq!(drawn, words_of(mode, 3).take(2_000).collect::<Vec<_>>());
        }
    }

    /// The share of `letter` among the letters of `words`, in thousandths.
    fn share(words: &[String], letter: u8) -> usize {
        let all: usize = words.iter().map(|w| w.len()).sum();
        let hits: usize = words
            .iter()
            .map(|w| w.bytes().filter(|&b| b == letter).count())
            .sum();
        hits * 1000 / all
    }

    #[test]
    fn a_weighted_drill_holds_its_letters_more_than_the_first_drills_and_any_text() {
        use crate::mode::Drill;
        // The player's case: n and r weak. Every word holds one, and n comes up far more
        // often than in ordinary text; words holding more of them, more often still.
        let weighted = Mode::drill("nr").unwrap();
        let first = Mode::plain(Base::Drill(Drill::with("nr", DrillPool::Any).unwrap()));
        let drawn: Vec<_> = words_of(weighted, 5).take(5_000).collect();
        let before: Vec<_> = words_of(first, 5).take(5_000).collect();
        let text: Vec<_> = words(5).take(5_000).collect();
        assert!(drawn.iter().all(|w| w.contains('n') || w.contains('r')));
        for letter in [b'n', b'r'] {
            let (w, a, t) = (
                share(&drawn, letter),
                share(&before, letter),
                share(&text, letter),
            );
            assert!(w > a && a > t, "{}: {w} > {a} > {t}‰", letter as char);
        }
        let both = |ws: &[String]| {
            ws.iter()
                .filter(|w| w.contains('n') && w.contains('r'))
                .count()
        };
        assert!(both(&drawn) > both(&before), "words with both, more often");
    }

    #[test]
    fn other_modes_draw_the_version_1_text() {
        let a: Vec<_> = words_of(Mode::BLITZ_30, 42).take(200).collect();
        let b: Vec<_> = words(42).take(200).collect();
        assert_eq!(a, b);
    }

    fn mode(key: &str) -> Mode {
        key.parse().unwrap()
    }

    /// A decorated word without its marks, in lower case: the list word it came from.
    fn bare(word: &str) -> String {
        word.trim_matches(|c: char| "\"'(),.;:!?".contains(c))
            .to_lowercase()
    }

    #[test]
    fn punctuation_and_numbers_decorate_the_same_list_words() {
        for language in ["", "@fr", "@ru", "@tr"] {
            let plain: Vec<String> = words_of(mode(&format!("time:30{language}")), 9)
                .take(300)
                .collect();
            let marked: Vec<String> = words_of(mode(&format!("time:30/p/n{language}")), 9)
                .take(400)
                .filter(|w| {
                    w != "-"
                        && !w
                            .trim_matches(|c: char| !c.is_alphanumeric())
                            .chars()
                            .all(|c| c.is_ascii_digit())
                })
                .map(|w| bare(&w))
                .collect();
            // Turkish's dotted capital lower-cases to i and a combining dot.
            let marked: Vec<String> = marked.iter().map(|w| w.replace("i\u{307}", "i")).collect();
            assert_eq!(marked[..250], plain[..250], "{language}");
        }
    }

    #[test]
    fn numbers_are_one_to_four_digits_mixed_in_as_words() {
        let drawn: Vec<String> = words_of(mode("zen/n"), 4).take(5_000).collect();
        let numbers: Vec<&String> = drawn
            .iter()
            .filter(|w| w.bytes().all(|b| b.is_ascii_digit()))
            .collect();
        // One word in ten, give or take.
        assert!((400..600).contains(&numbers.len()), "{}", numbers.len());
        for n in &numbers {
            assert!(
                (1..=4).contains(&n.len()) && (n.len() == 1 || !n.starts_with('0')),
                "{n}"
            );
        }
        for digits in 1..=4 {
            assert!(numbers.iter().any(|n| n.len() == digits), "{digits} digits");
        }
    }

    #[test]
    fn punctuation_is_placed_as_prose_places_it() {
        let drawn: Vec<String> = words_of(mode("time:60/p"), 21).take(20_000).collect();
        let text = drawn.join(" ");
        let mut starts = true;
        let (mut sentences, mut wraps) = (0, 0);
        for w in &drawn {
            if w == "-" {
                assert!(!starts, "a dash never starts a sentence");
                continue;
            }
            let core = w.trim_start_matches(['"', '(', '\'']);
            let first = core.chars().next().unwrap();
            // A sentence starts with a capital, and only a sentence does.
            assert_eq!(first.is_uppercase(), starts, "{w:?}");
            wraps += usize::from(core.len() < w.len());
            let tail: String = w.chars().rev().take_while(|c| !c.is_alphabetic()).collect();
            let tail: String = tail.chars().rev().collect();
            // At most a closing mark, then one of , ; : . ? !
            assert!(
                tail.is_empty() || ["\"", ")", "'"].iter().any(|c| tail == *c) || {
                    let end = tail.trim_start_matches(['"', ')', '\'']);
                    end.chars().count() == 1 && ",;:.?!".contains(end)
                },
                "{w:?}"
            );
            starts = tail.ends_with(['.', '?', '!']);
            sentences += usize::from(starts);
        }
        // Sentences of about nine words; quotes and brackets now and then.
        assert!((1_500..3_000).contains(&sentences), "{sentences}");
        assert!(wraps > 300, "{wraps}");
        for mark in [",", ";", ":", ".", "!", "?", "\"", "'", "(", ")", " - "] {
            assert!(text.contains(mark), "{mark} never comes");
        }
        for pair in ["--", ",,", ".,", ",.", " ,", "((", "))", "- -"] {
            assert!(!text.contains(pair), "{pair:?} comes");
        }
    }

    #[test]
    fn a_words_text_ends_its_last_sentence_and_closes_what_it_opened() {
        for seed in 0..200 {
            let mut words = words_of(mode("words:10/p"), seed);
            let mut text = String::new();
            for left in (1..=10).rev() {
                words.next_into(&mut text, Some(left));
                text.push(' ');
            }
            let text = text.trim_end();
            assert!(text.ends_with(['.', '?', '!']), "{text}");
            assert!(!text.ends_with(" -") && !text.contains("- -"), "{text}");
            let opened = text.matches('(').count();
            assert_eq!(opened, text.matches(')').count(), "{text}");
            assert_eq!(text.matches('"').count() % 2, 0, "{text}");
        }
    }

    #[test]
    fn a_capital_is_one_letter_and_turkish_dots_its_i() {
        let cap = |word: &str, turkish| {
            let mut out = String::from(word);
            capitalize(&mut out, 0, turkish);
            out
        };
        assert_eq!(cap("été", false), "Été");
        assert_eq!(cap("ßen", false), "ßen", "ß's capital is two letters");
        assert_eq!(cap("я", false), "Я");
        assert_eq!(cap("їжак", false), "Їжак");
        assert_eq!(cap("için", true), "İçin");
        assert_eq!(cap("ısı", true), "Isı");
        assert_eq!(cap("ice", false), "Ice");
        assert_eq!(cap("42", false), "42");
    }

    #[test]
    fn every_language_draws_from_its_own_list() {
        for language in Language::ALL {
            let key = match language {
                Language::English => "zen".to_owned(),
                other => format!("zen@{}", other.code()),
            };
            let list = language.words().unwrap();
            let drawn: Vec<String> = words_of(mode(&key), 3).take(500).collect();
            assert!(drawn.iter().all(|w| list.contains(&w.as_str())), "{key}");
            let distinct: std::collections::HashSet<_> = drawn.iter().collect();
            assert!(distinct.len() > 300, "{key}: {}", distinct.len());
        }
    }

    /// What `time:30/p/n@fr` of seed 42 starts with, frozen like [`SEED_42`]: the words,
    /// marks and numbers of the first new key of every kind.
    #[test]
    fn seed_42_of_a_decorated_key_starts_with_these_words() {
        let got: Vec<String> = words_of(mode("time:30/p/n@fr"), 42).take(12).collect();
        assert_eq!(
            got, SEED_42_P_N_FR,
            "the text of time:30/p/n@fr seed 42 changed"
        );
    }

    const SEED_42_P_N_FR: [&str; 12] = [
        "Afrique",
        "cet",
        "vois",
        "film",
        "si",
        "comprend.",
        "Maison",
        "information,",
        "vue.",
        "Image",
        "lieu",
        "abord,",
    ];

    const SEED_42: [&str; 6] = ["dream", "week", "current", "ever", "what", "increase"];
}
