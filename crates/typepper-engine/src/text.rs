//! The round's text: an endless stream of words drawn from [`WORDS`] by the seed.

use crate::rng::Rng;
use crate::words::WORDS;

/// The words a seed plays: each is `WORDS[rng.below(1000)]`, drawn again while it would
/// repeat the word before it (nobody wants "the the").
#[derive(Clone, Debug)]
pub struct Words {
    rng: Rng,
    last: Option<u32>,
}

/// The endless word stream of `seed`.
pub fn words(seed: u64) -> Words {
    Words {
        rng: Rng::new(seed),
        last: None,
    }
}

impl Iterator for Words {
    type Item = &'static str;

    fn next(&mut self) -> Option<&'static str> {
        let n = WORDS.len() as u32;
        let mut i = self.rng.below(n);
        while Some(i) == self.last {
            i = self.rng.below(n);
        }
        self.last = Some(i);
        Some(WORDS[i as usize])
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

    const SEED_42: [&str; 6] = ["dream", "week", "current", "ever", "what", "increase"];
}
