//! The round's text: an endless stream of words drawn from [`WORDS`] by the seed.

use crate::mode::{DrillPool, Mode};
use crate::rng::Rng;
use crate::words::WORDS;

/// A drill's pool is topped up to at least this many words, so that its text never
/// runs out of variety (and the no-repeat rule always has another word to draw).
pub const DRILL_MIN_WORDS: usize = 10;

/// The words a seed plays: each is `pool[rng.below(pool.len())]`, drawn again while it
/// would repeat the word before it (nobody wants "the the"). The pool is the whole list,
/// or a drill's words.
#[derive(Clone, Debug)]
pub struct Words {
    rng: Rng,
    last: Option<u32>,
    /// A drill's words, as indices into [`WORDS`]; `None` for the whole list.
    pool: Option<Vec<u16>>,
    /// A weighted drill's running sums of its words' weights, in pool order.
    weights: Option<Vec<u32>>,
}

/// The endless word stream of `seed`.
pub fn words(seed: u64) -> Words {
    Words {
        rng: Rng::new(seed),
        last: None,
        pool: None,
        weights: None,
    }
}

/// The endless word stream of `seed` in `mode`: a drill's words for a DRILL, else the
/// whole list.
pub fn words_of(mode: Mode, seed: u64) -> Words {
    let Mode::Drill(drill) = mode else {
        return words(seed);
    };
    // Every word holding a drilled letter, in the list's order; too few, and the list's
    // first (most common) other words fill up to the minimum.
    let (hits, rest): (Vec<u16>, Vec<u16>) =
        (0..WORDS.len() as u16).partition(|&i| drill.hits(WORDS[usize::from(i)]));
    let mut pool = hits;
    let short = DRILL_MIN_WORDS.saturating_sub(pool.len());
    pool.extend(rest.into_iter().take(short));
    // `drill2:`: each word as likely as the drilled letters it holds (a top-up word
    // holds none and counts as one), by their running sums.
    let weights = (drill.pool() == DrillPool::Weighted).then(|| {
        let mut sum = 0;
        pool.iter()
            .map(|&i| {
                sum += drill.count(WORDS[usize::from(i)]).max(1);
                sum
            })
            .collect()
    });
    Words {
        rng: Rng::new(seed),
        last: None,
        pool: Some(pool),
        weights,
    }
}

impl Iterator for Words {
    type Item = &'static str;

    fn next(&mut self) -> Option<&'static str> {
        let n = self.pool.as_ref().map_or(WORDS.len(), Vec::len) as u32;
        let mut draw = || match &self.weights {
            // The first word whose running sum passes a draw below the total.
            Some(sums) => {
                let r = self.rng.below(sums.last().copied().unwrap_or(1));
                sums.partition_point(|&s| s <= r) as u32
            }
            None => self.rng.below(n),
        };
        let mut i = draw();
        while Some(i) == self.last {
            i = draw();
        }
        self.last = Some(i);
        let word = match &self.pool {
            Some(pool) => pool[i as usize],
            None => i as u16,
        };
        Some(WORDS[usize::from(word)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let mode = Mode::Drill(drill);
            let with = WORDS.iter().filter(|w| drill.hits(w)).count();
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
    fn share(words: &[&str], letter: u8) -> usize {
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
        let weighted = Mode::Drill(Drill::new("nr").unwrap());
        let first = Mode::Drill(Drill::with("nr", DrillPool::Any).unwrap());
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
        let both = |ws: &[&str]| {
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

    const SEED_42: [&str; 6] = ["dream", "week", "current", "ever", "what", "increase"];
}
