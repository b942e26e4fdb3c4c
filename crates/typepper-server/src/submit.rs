//! Verifying submissions: every replay is played through the engine, and what it scores
//! is the score. A claim is only checked against it.
//!
//! The body is back-to-back entries, each a claimed score (`u32`, little-endian) and a
//! replay in format 1 (`typepper_api::submission`). Each entry gets one answer line, in
//! order. An entry whose bytes can't be read ends the body: where the next one would
//! start is unknown, so the line says so and the rest is not answered.

use std::collections::HashSet;

use sha2::{Digest, Sha256};
use typepper_api::Line;
use typepper_engine::{Header, Op, PlayError, Replay, Score, VERSION};

/// The fastest a round may be: past this, nobody typed it.
pub const MAX_WPM: u32 = 300;
/// Raw speed has more room (mistakes count), but not unlimited.
pub const MAX_RAW: u32 = 350;
/// Rounds shorter than this aren't kept.
pub const MIN_DURATION_MS: u32 = 3_000;
/// Keystrokes closer together than this, in bulk, are a machine.
pub const MIN_HUMAN_GAP_MS: u32 = 8;

/// A replay that passed every check.
#[derive(Clone, Debug)]
pub struct Verified {
    /// Its bytes, as sent.
    pub bytes: Vec<u8>,
    /// SHA-256 of them.
    pub hash: [u8; 32],
    /// The mode key.
    pub mode: String,
    /// What the engine scored.
    pub score: Score,
}

/// One entry's outcome before storing: verified, or refused with a reason.
pub type Judged = Result<Verified, String>;

/// Reads and judges every entry of a body. `known` says whether a replay hash is
/// stored already (and as which run).
pub fn judge_body(body: &[u8], mut known: impl FnMut(&[u8; 32]) -> Option<String>) -> Vec<Judged> {
    let mut out = vec![];
    let mut seen = HashSet::new();
    let mut rest = body;
    while !rest.is_empty() {
        let Some((claim, after)) = typepper_api::read_entry(rest) else {
            out.push(Err(
                "the body ends inside a claimed score (4 bytes before each replay)".into(),
            ));
            break;
        };
        // The header says which rules recorded it, before any decoding of inputs.
        let header = match Header::peek(after) {
            Ok(h) => h,
            Err(e) => {
                out.push(Err(format!(
                    "not a replay ({e}); the rest of the body is not read"
                )));
                break;
            }
        };
        let engine = header.engine;
        let (replay, next) = match Replay::decode_prefix(after) {
            Ok(r) => r,
            Err(e) => {
                out.push(Err(format!(
                    "not a replay ({e}); the rest of the body is not read"
                )));
                break;
            }
        };
        let bytes = &after[..after.len() - next.len()];
        rest = next;
        if engine != VERSION {
            out.push(Err(PlayError::OtherRules { engine }.to_string()));
            continue;
        }
        let hash: [u8; 32] = Sha256::digest(bytes).into();
        if !seen.insert(hash) {
            out.push(Err(
                "a duplicate of an earlier replay in this submission".into()
            ));
            continue;
        }
        if let Some(id) = known(&hash) {
            out.push(Err(format!("a duplicate of run {id}")));
            continue;
        }
        out.push(judge(&replay, claim).map(|score| Verified {
            bytes: bytes.to_vec(),
            hash,
            mode: replay.mode.clone(),
            score,
        }));
    }
    out
}

/// Plays one replay and checks it is a round a person could have played, scoring
/// exactly `claim`.
pub fn judge(replay: &Replay, claim: u32) -> Result<Score, String> {
    let (_, score) = replay.play().map_err(|e| e.to_string())?;
    if score.keys == 0 {
        return Err("nothing was typed".into());
    }
    if score.duration_ms < MIN_DURATION_MS {
        return Err(format!(
            "too short to count: rounds under {} s aren't kept",
            MIN_DURATION_MS / 1000
        ));
    }
    if score.wpm() > MAX_WPM || score.raw_x100 / 100 > MAX_RAW {
        return Err(format!("faster than anyone types (over {MAX_WPM} wpm)"));
    }
    let typed = replay
        .inputs
        .iter()
        .skip(1)
        .filter(|i| matches!(i.op, Op::Char(_)));
    let (mut keys, mut rushed) = (0u32, 0u32);
    for input in typed {
        keys += 1;
        rushed += u32::from(input.dt < MIN_HUMAN_GAP_MS);
    }
    if keys >= 20 && rushed * 5 > keys {
        return Err(format!(
            "implausible timing: {rushed} of {keys} keys came under {MIN_HUMAN_GAP_MS} ms after the one before"
        ));
    }
    let value = score.headline().value;
    if claim != value {
        return Err(format!("claimed {claim}, but the replay scores {value}"));
    }
    Ok(score)
}

/// The answer lines of a body, once each verified run is stored (`stored[i]` is the
/// `(id, pb)` of the i-th verified one).
pub fn lines(
    judged: &[Judged],
    stored: &[(String, bool)],
    share: impl Fn(&str) -> String,
) -> String {
    let mut out = String::new();
    let mut stored = stored.iter();
    for j in judged {
        let line = match j {
            Ok(v) => match stored.next() {
                Some((id, pb)) => Line::Ok {
                    id: id.clone(),
                    score: v.score.headline().value,
                    pb: *pb,
                    share: share(id),
                },
                None => Line::No("not stored".into()),
            },
            Err(why) => Line::No(why.clone()),
        };
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use typepper_engine::synth::{Typist, synth};
    use typepper_engine::{Input, Mode};

    fn round(seed: u64) -> Replay {
        synth(Mode::BLITZ_15, seed, &Typist::default())
    }

    fn claim(r: &Replay) -> u32 {
        r.play().unwrap().1.headline().value
    }

    #[test]
    fn a_true_claim_passes_and_a_wrong_one_says_both_numbers() {
        let r = round(1);
        let c = claim(&r);
        assert!(judge(&r, c).is_ok());
        let why = judge(&r, c + 2).unwrap_err();
        assert_eq!(why, format!("claimed {}, but the replay scores {c}", c + 2));
    }

    #[test]
    fn machines_are_refused() {
        let mut r = round(2);
        for i in r.inputs.iter_mut().skip(1) {
            i.dt = 2;
        }
        // 2 ms a key: a whole BLITZ typed in a fifth of a second.
        let why = judge(&r, 0).unwrap_err();
        assert!(why.starts_with("implausible timing: 99 of 99"), "{why}");
        // Every other key a millisecond after the one before: about 160 wpm, under the
        // ceiling, but no hands move like that.
        let mut r = synth(Mode::Zen, 3, &Typist::default());
        for (n, i) in r.inputs.iter_mut().enumerate().skip(1) {
            if n % 2 == 0 {
                i.dt = 1;
            }
        }
        let why = judge(&r, claim(&r)).unwrap_err();
        assert!(why.starts_with("implausible timing"), "{why}");
    }

    #[test]
    fn empty_and_short_rounds_are_refused() {
        let zen = Replay {
            engine: VERSION,
            mode: "zen".into(),
            seed: 1,
            inputs: vec![
                Input {
                    dt: 0,
                    op: Op::Char('a'),
                },
                Input {
                    dt: 1000,
                    op: Op::End,
                },
            ],
        };
        assert!(judge(&zen, 0).unwrap_err().starts_with("too short"));
    }

    #[test]
    fn a_body_is_read_entry_by_entry() {
        let (a, b) = (round(4), round(5));
        let mut other = round(6);
        other.engine = 2;
        let body = typepper_api::submission([
            (claim(&a), &a.encode()[..]),
            (0, &other.encode()[..]),
            (claim(&a), &a.encode()[..]),
            (claim(&b) + 1, &b.encode()[..]),
        ]);
        let judged = judge_body(&body, |_| None);
        assert_eq!(judged.len(), 4);
        assert!(judged[0].is_ok());
        assert_eq!(
            judged[1].as_ref().unwrap_err(),
            "recorded by other rules (engine 2, these are 1)"
        );
        assert!(judged[2].as_ref().unwrap_err().contains("duplicate"));
        assert!(judged[3].as_ref().unwrap_err().starts_with("claimed"));
        let mut cut = body.clone();
        cut.truncate(body.len() - 3);
        let judged = judge_body(&cut, |_| None);
        assert!(judged[3].as_ref().unwrap_err().contains("cut short"));
        assert_eq!(judge_body(&[1, 2], |_| None).len(), 1);
        let stored = judge_body(&body, |_| Some("abcdEFGH".into()));
        assert_eq!(
            stored[0].as_ref().unwrap_err(),
            "a duplicate of run abcdEFGH"
        );
    }
}
