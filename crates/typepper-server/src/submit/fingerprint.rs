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
//!    key; a copy differs by the jitter put on it. Rounds with equal keys whose blocks
//!    differ by at most [`JITTER_MS`] a gap, in all, are one round.
//!
//! The fingerprint is kept after its run expires (a few dozen bytes, not the replay), so
//! a copy is known for as long as the server runs.

use sha2::{Digest, Sha256};
use typepper_engine::Op;

/// Inputs to a timing block.
pub const BLOCK: u32 = 16;
/// The jitter a copy may carry, in ms a gap on average, and still be a copy.
pub const JITTER_MS: u64 = 8;

/// What makes a round itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// SHA-256 of the mode, the seed and the ops of every input that did something.
    pub key: [u8; 32],
    /// How long each block of [`BLOCK`] such inputs took, as LEB128 varints.
    pub blocks: Vec<u8>,
    /// How many gaps the blocks add up: one fewer than the inputs that did something.
    pub gaps: u32,
}

/// Makes a [`Fingerprint`] from a round's inputs as they are played.
pub struct Builder {
    hash: Sha256,
    /// The ops so far, as varints: hashed in one go at the end, which is several times
    /// faster than a hash update an input.
    ops: Vec<u8>,
    last: Option<u32>,
    block: u64,
    in_block: u32,
    blocks: Vec<u8>,
    gaps: u32,
}

impl Builder {
    /// Starts the fingerprint of a round of `mode` (its key) and `seed`.
    pub fn new(mode: &str, seed: u64) -> Builder {
        let mut hash = Sha256::new();
        hash.update(b"typepper round\0");
        hash.update(mode.as_bytes());
        hash.update([0]);
        hash.update(seed.to_le_bytes());
        Builder {
            hash,
            ops: Vec::with_capacity(512),
            last: None,
            block: 0,
            in_block: 0,
            blocks: Vec::new(),
            gaps: 0,
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
            blocks: self.blocks,
            gaps: self.gaps,
        }
    }
}

impl Fingerprint {
    /// Whether a stored round with the same key and these `blocks` was typed at the same
    /// times as this one, give or take [`JITTER_MS`] a gap.
    pub fn same_timing(&self, blocks: &[u8]) -> bool {
        let (mut ours, mut theirs) = (&self.blocks[..], blocks);
        let mut apart = 0u64;
        loop {
            match (get_varint(&mut ours), get_varint(&mut theirs)) {
                (Some(a), Some(b)) => apart += a.abs_diff(b),
                (None, None) => break,
                // Equal keys have equal block counts; blocks that don't read are no match.
                _ => return false,
            }
        }
        apart <= JITTER_MS * u64::from(self.gaps.max(1))
    }
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
