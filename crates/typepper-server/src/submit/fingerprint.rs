//! A round's identity, whatever bytes carry it.
//!
//! Two replays are the same round when they have the same mode and seed and the same
//! keystrokes at nearly the same times. A copy of a stored run can be dressed up as new
//! bytes in several ways that change nothing about the round: a varint spelled longer
//! (the decoder refuses that now), a different first gap (the clock starts at the first
//! input), inputs the rules ignore put in front or between, or a few milliseconds of
//! jitter on every key. The fingerprint is blind to all of them:
//!
//! 1. Only inputs that did something count: ignored ones (a space on an empty word, a
//!    backspace with nothing to delete) are left out, and times run from the first input
//!    that counts.
//! 2. The **key** is SHA-256 of the mode, the seed and those inputs' ops (as format 1
//!    writes them), in order. Equal keys mean the same keystrokes.
//! 3. The **blocks** are how long each run of [`BLOCK`] of those inputs took. Two people
//!    who type the same keystrokes on one text (a race, say) still differ by tens of ms a
//!    key, and their blocks by several ms a gap even at 280 wpm; a copy's differ by the
//!    jitter put on it, and jitter on each key's time cancels within a block (a block's
//!    length moves only with its two end keys).
//! 4. The **prefix** is a chain of hashes of the ops, one at each block's end ([`LINK`]
//!    bytes each): two rounds on the same text share their first `n` blocks of ops
//!    exactly when their `n`th links are equal. So a copy with its last keys cut off is
//!    still known as the prefix of its original, and the original as the continuation of
//!    a stored copy.
//!
//! Two rounds on the same mode and seed whose shared blocks ([`Fingerprint::copies`]) hold
//! the same ops, and whose times there match after one uniform stretch of at most
//! [`MAX_STRETCH_PERCENT`] (every gap 5 % longer, say) give or take [`JITTER_MS`] a gap,
//! are one round. Rounds that share fewer than [`STRETCH_BLOCKS`] blocks are one round only
//! when all their keys are the same: over fewer, a fitted stretch would absorb the very
//! differences that tell two people apart. The fingerprint is kept after its run expires
//! (a fraction of the replay's size), so a copy is known for as long as the server runs.
//!
//! A round's "seed" here is the seed its text is known by ([`text_seed`]): the replay's
//! own where the seed draws the text, but one seed for a given text (a quote's passage, a
//! custom text), whatever seed the replay carries. There the replay's seed draws nothing,
//! so a copy could change it freely; every round on one passage or one custom text is
//! compared with the others.

use sha2::{Digest, Sha256};
use typepper_engine::{Mode, Op, Replay};

/// Inputs to a timing block.
pub const BLOCK: u32 = 16;
/// How far apart two rounds' blocks may be, in ms a gap on average, and still be one
/// round. Measured with the synthetic typist: two people typing the same keys of one text
/// at the same pace (100 % accuracy, 20 rounds at each speed from 20 to 280 wpm) were
/// never closer than 3.4 ms a gap after the best stretch; a copy with every key moved by
/// up to 5 ms is under 1.
pub const JITTER_MS: u64 = 2;
/// Blocks in common it takes to fit a stretch; fewer are compared as they are.
pub const STRETCH_BLOCKS: usize = 4;
/// How much a copy's timing may be stretched or squeezed, uniformly, and still be a copy.
pub const MAX_STRETCH_PERCENT: u64 = 10;
/// Bytes kept of each link of the prefix chain: a chance in four billion that two
/// different blocks of ops on one text match, and a quarter of a byte a keystroke.
pub const LINK: usize = 4;

/// The seed `replay`'s text is known by: its own seed where the seed draws the text; for
/// a quote, one seed per passage (from its key); for a custom text, one per text (from its
/// words). Eight bytes of SHA-256, so no drawn seed is one by more than chance.
pub fn text_seed(replay: &Replay) -> u64 {
    let given = |what: &[u8], text: &str| {
        let mut h = Sha256::new();
        h.update(b"typepper text\0");
        h.update(what);
        h.update([0]);
        h.update(text.as_bytes());
        let digest: [u8; 32] = h.finalize().into();
        let mut first = [0; 8];
        first.copy_from_slice(&digest[..8]);
        u64::from_le_bytes(first)
    };
    match (&replay.text, replay.mode.parse::<Mode>()) {
        (Some(text), _) => given(b"custom", text),
        (None, Ok(mode)) if mode.has_fixed_text() => given(b"mode", &mode.key()),
        _ => replay.seed,
    }
}

/// What makes a round itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// SHA-256 of the mode, the seed its text is known by ([`text_seed`]) and the ops of
    /// every input that did something.
    pub key: [u8; 32],
    /// The seed its text is known by ([`text_seed`]): rounds on it are compared with it.
    pub on: u64,
    /// How long each block of [`BLOCK`] such inputs took, as LEB128 varints.
    pub blocks: Vec<u8>,
    /// How many gaps the blocks add up: one fewer than the inputs that did something.
    pub gaps: u32,
    /// The prefix chain: [`LINK`] bytes of a hash at the end of each whole block.
    pub prefix: Vec<u8>,
}

/// Makes a [`Fingerprint`] from a round's inputs as they are played.
pub struct Builder {
    hash: Sha256,
    on: u64,
    /// The ops so far, as varints: hashed in one go at the end, which is several times
    /// faster than a hash update an input.
    ops: Vec<u8>,
    last: Option<u32>,
    block: u64,
    in_block: u32,
    blocks: Vec<u8>,
    gaps: u32,
    /// The chain so far, and where in `ops` its last link ended.
    link: [u8; 32],
    linked: usize,
    prefix: Vec<u8>,
}

impl Builder {
    /// Starts the fingerprint of a round of `mode` (its key) on the text known by `seed`
    /// ([`text_seed`]).
    pub fn new(mode: &str, seed: u64) -> Builder {
        let mut hash = Sha256::new();
        hash.update(b"typepper round\0");
        hash.update(mode.as_bytes());
        hash.update([0]);
        hash.update(seed.to_le_bytes());
        Builder {
            hash,
            on: seed,
            ops: Vec::with_capacity(512),
            last: None,
            block: 0,
            in_block: 0,
            blocks: Vec::new(),
            gaps: 0,
            link: [0; 32],
            linked: 0,
            prefix: Vec::new(),
        }
    }

    /// An input that did something, at `t` ms since the round started.
    pub fn input(&mut self, t: u32, op: Op) {
        put_varint(&mut self.ops, op.code().into());
        if let Some(last) = self.last {
            self.block += u64::from(t - last);
            self.in_block += 1;
            self.gaps += 1;
            if self.in_block == BLOCK {
                put_varint(&mut self.blocks, self.block);
                (self.block, self.in_block) = (0, 0);
                // The link covers every op whose gap is in a whole block so far.
                let mut h = Sha256::new();
                h.update(self.link);
                h.update(&self.ops[self.linked..]);
                self.link = h.finalize().into();
                self.linked = self.ops.len();
                self.prefix.extend_from_slice(&self.link[..LINK]);
            }
        }
        self.last = Some(t);
    }

    /// The fingerprint of every input given.
    pub fn finish(mut self) -> Fingerprint {
        if self.in_block > 0 {
            put_varint(&mut self.blocks, self.block);
        }
        self.hash.update(&self.ops);
        Fingerprint {
            key: self.hash.finalize().into(),
            on: self.on,
            blocks: self.blocks,
            gaps: self.gaps,
            prefix: self.prefix,
        }
    }
}

impl Fingerprint {
    /// Whether a stored round with the same key and these `blocks` was typed at the same
    /// times as this one, give or take a uniform stretch and the jitter.
    pub fn same_timing(&self, blocks: &[u8]) -> bool {
        let (Some(ours), Some(theirs)) = (varints(&self.blocks), varints(blocks)) else {
            return false;
        };
        // Equal keys have equal block counts; blocks that don't read are no match.
        ours.len() == theirs.len() && stretched(&ours, &theirs, self.gaps)
    }

    /// Whether a stored round on the same mode and seed, with these `blocks` and this
    /// `prefix` chain, is this round cut short, or this round is it cut short: their whole
    /// blocks in common, [`STRETCH_BLOCKS`] or more, hold the same ops, at the same times
    /// up to a uniform stretch and the jitter.
    pub fn copies(&self, blocks: &[u8], prefix: &[u8]) -> bool {
        let whole = (self.prefix.len() / LINK).min(prefix.len() / LINK);
        fn link(chain: &[u8], n: usize) -> Option<&[u8]> {
            chain.get((n - 1) * LINK..n * LINK)
        }
        // The shorter round's last block may end on an op the other never had there: the
        // End that closed a copy cut short, which falls on a block's last gap one time in
        // 16. Its ops are the same up to that op, and the blocks before it are compared.
        let shared = match whole {
            0 => 0,
            n if link(&self.prefix, n) == link(prefix, n) => n,
            n if n > 1 && link(&self.prefix, n - 1) == link(prefix, n - 1) => n - 1,
            _ => return false,
        };
        // Fewer blocks in common are too few keys to tell two people apart by: a slow
        // round of a few blocks would match some other accurate typist's on a raced seed.
        if shared < STRETCH_BLOCKS {
            return false;
        }
        let (Some(ours), Some(theirs)) = (varints(&self.blocks), varints(blocks)) else {
            return false;
        };
        match (ours.get(..shared), theirs.get(..shared)) {
            (Some(a), Some(b)) => stretched(a, b, shared as u32 * BLOCK),
            _ => false,
        }
    }
}

/// Whether block times `a` are `b` stretched uniformly (by the least-squares factor, at
/// most [`MAX_STRETCH_PERCENT`] either way), give or take [`JITTER_MS`] on each of `gaps`
/// gaps on average. Floats are fine here: this judges a submission on the server, it is
/// no rule of the game.
fn stretched(a: &[u64], b: &[u64], gaps: u32) -> bool {
    let (mut ab, mut aa) = (0.0, 0.0);
    for (&x, &y) in a.iter().zip(b) {
        let (x, y) = (x as f64, y as f64);
        ab += x * y;
        aa += x * x;
    }
    let scale = if aa > 0.0 && a.len() >= STRETCH_BLOCKS {
        ab / aa
    } else {
        1.0
    };
    // `b` is `a` stretched by `1 / scale`: that is what may be off by the percentage,
    // either way (a copy squeezed by 10 % fits a scale of 1.11).
    if (1.0 / scale - 1.0).abs() > MAX_STRETCH_PERCENT as f64 / 100.0 + 1e-9 {
        return false;
    }
    let apart: f64 = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| (y as f64 - scale * x as f64).abs())
        .sum();
    apart <= (JITTER_MS * u64::from(gaps.max(1))) as f64
}

/// Block times as numbers; `None` if they don't read.
fn varints(mut bytes: &[u8]) -> Option<Vec<u64>> {
    let mut out = vec![];
    while !bytes.is_empty() {
        out.push(get_varint(&mut bytes)?);
    }
    Some(out)
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(bytes: &mut &[u8]) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let (&b, rest) = bytes.split_first()?;
        *bytes = rest;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn print(inputs: &[(u32, Op)]) -> Fingerprint {
        let mut b = Builder::new("time:15", 7);
        for &(t, op) in inputs {
            b.input(t, op);
        }
        b.finish()
    }

    fn typed(gaps: impl IntoIterator<Item = u32>) -> Vec<(u32, Op)> {
        let mut t = 1000;
        gaps.into_iter()
            .enumerate()
            .map(|(i, g)| {
                t += g;
                (t, Op::Char(char::from(b'a' + (i % 26) as u8)))
            })
            .collect()
    }

    #[test]
    fn the_same_keys_with_jitter_are_one_round() {
        let gaps: Vec<u32> = (0..100).map(|i| 120 + (i * 37) % 90).collect();
        let a = print(&typed(gaps.iter().copied()));
        assert_eq!(a.gaps, 99);
        // Every gap 8 ms later, or ±5 ms either way: still the same round.
        let late = print(&typed(gaps.iter().map(|g| g + 8)));
        let shaken = print(&typed(
            gaps.iter()
                .enumerate()
                .map(|(i, g)| if i % 2 == 0 { g + 5 } else { g - 5 }),
        ));
        assert_eq!(a.key, late.key);
        assert!(late.same_timing(&a.blocks) && shaken.same_timing(&a.blocks));
        // Another person on the same keys: tens of ms a key apart.
        let other = print(&typed(
            gaps.iter()
                .enumerate()
                .map(|(i, g)| g + (i as u32 * 53) % 60),
        ));
        assert_eq!(a.key, other.key);
        assert!(!other.same_timing(&a.blocks));
    }

    /// The flake that was a fault: a spectator's copy of a ZEN racer's first keys, ended
    /// as a ZEN round is, was stored as a new run whenever its End closed a block (one
    /// seed in 16), since that block's link held the End where the original had a key.
    #[test]
    fn a_copy_cut_short_whose_end_closes_a_block_is_a_copy() {
        let gaps: Vec<u32> = (0..130).map(|i| 110 + (i * 37) % 80).collect();
        let original = typed(gaps.iter().copied());
        let whole = print(&original);
        for cut in [95, 96, 97, 100] {
            // The first `cut` keys, then End 90 ms after the last: `cut` gaps in all.
            let mut copy = original[..cut].to_vec();
            let last = copy.last().map_or(0, |&(t, _)| t);
            copy.push((last + 90, Op::End));
            let copy = print(&copy);
            assert!(copy.copies(&whole.blocks, &whole.prefix), "cut at {cut}");
            assert!(
                whole.copies(&copy.blocks, &copy.prefix),
                "cut at {cut}, either way"
            );
        }
        // Another person's keys over the same blocks are still not a copy.
        let other = print(&typed(
            gaps.iter()
                .enumerate()
                .map(|(i, g)| g + (i as u32 * 53) % 60),
        ));
        assert!(!other.copies(&whole.blocks, &whole.prefix));
    }

    #[test]
    fn other_keys_or_rounds_are_other_keys() {
        let a = print(&typed([100, 120, 140]));
        let mut b = typed([100, 120, 140]);
        b[1].1 = Op::Backspace;
        assert_ne!(a.key, print(&b).key);
        let mut other_seed = Builder::new("time:15", 8);
        for (t, op) in typed([100, 120, 140]) {
            other_seed.input(t, op);
        }
        assert_ne!(a.key, other_seed.finish().key);
    }

    #[test]
    fn blocks_read_back() {
        let mut out = vec![];
        for v in [0, 127, 128, 16_384, u64::from(u32::MAX)] {
            put_varint(&mut out, v);
        }
        let mut rest = &out[..];
        for v in [0, 127, 128, 16_384, u64::from(u32::MAX)] {
            assert_eq!(get_varint(&mut rest), Some(v));
        }
        assert_eq!(get_varint(&mut rest), None);
        assert!(!print(&typed([100; 40])).same_timing(&[0x80]));
    }
}
