//! Verifying submissions: every replay is played through the engine, and what it scores
//! is the score. A claim is only checked against it.
//!
//! The body is back-to-back entries, each a claimed score (`u32`, little-endian) and a
//! replay in format 1, or 2 for a custom text (`typepper_api::submission`), at most
//! [`MAX_ENTRIES`] of them.
//! Each entry gets one answer line, in order. An entry whose bytes can't be read ends the
//! body: where the next one would start is unknown, so the line says so and the rest is
//! not answered.
//!
//! A submission goes through three stages:
//! 1. [`split`] reads the entries (cheap: no round is played yet), so that a body over
//!    the limit, or over the player's rate, is refused before any work.
//! 2. [`judge`] plays each replay once, scoring it, fingerprinting the round
//!    ([`fingerprint`]) and checking that a person played it ([`timing`] and the checks
//!    here). This needs no database, so it runs before the transaction.
//! 3. [`plan`], run by the store inside one transaction (a [`job`]), decides which
//!    verified runs are copies of stored rounds, which are ranked ([`rank`]), whether the
//!    player's daily quota holds them, and which to store.
//!
//! Every check and the reason for it is written down in `docs/TRUST.md`.

pub mod daily;
pub mod fingerprint;
pub mod rank;
pub mod timing;

use std::time::Instant;

use typepper_api::Line;
use typepper_engine::{Header, Mode, Replay, Score};

pub use crate::refusal::{MAX_WPM, MIN_DURATION_MS, MIN_KEYS, QuotaFull, Refusal};

use crate::store::{
    Answer, Done, Job, Known, KnownRound, NewRun, Played, PlayerId, RoundPrint, Step,
};

/// Entries one body may carry: an outbox sends more in several bodies.
pub use typepper_api::MAX_ENTRIES;
/// Raw speed has more room (mistakes count), but not unlimited.
pub const MAX_RAW: u32 = 350;

/// One entry of a body, read but not yet played.
#[derive(Clone, Debug)]
pub struct Entry<'a> {
    /// The claimed headline score.
    pub claim: u32,
    /// The replay, decoded.
    pub replay: Replay,
    /// Its bytes, as sent (canonical, so the only bytes this replay has).
    pub bytes: &'a [u8],
}

/// A body with more entries than [`MAX_ENTRIES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooMany;

/// Reads every entry of a body; an entry that can't be read is its line's refusal and
/// ends the body.
pub fn split(body: &[u8]) -> Result<Vec<Result<Entry<'_>, Refusal>>, TooMany> {
    let mut out = vec![];
    let mut rest = body;
    while !rest.is_empty() {
        if out.len() == MAX_ENTRIES {
            return Err(TooMany);
        }
        let Some((claim, after)) = typepper_api::read_entry(rest) else {
            out.push(Err(Refusal::CutClaim));
            break;
        };
        // The header says which rules recorded it, before any decoding of inputs.
        let read = Header::peek(after).and_then(|_| Replay::decode_prefix(after));
        let (replay, next) = match read {
            Ok(r) => r,
            Err(e) => {
                out.push(Err(Refusal::NotAReplay(e)));
                break;
            }
        };
        let bytes = &after[..after.len() - next.len()];
        rest = next;
        out.push(Ok(Entry {
            claim,
            replay,
            bytes,
        }));
    }
    Ok(out)
}

/// A replay that passed every check that needs no database.
#[derive(Clone, Debug)]
pub struct Verified {
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// The round's seed.
    pub seed: u64,
    /// What the engine scored.
    pub score: Score,
    /// What makes the round itself.
    pub round: fingerprint::Fingerprint,
    /// Timing no person was seen to produce, if the checks found it: the round is a
    /// round all the same, kept but never ranked (a person's, now and then: docs/TRUST.md).
    pub timing: Option<timing::Bot>,
}

/// One entry's outcome before storing: verified, or refused with a reason.
pub type Judged = Result<Verified, Refusal>;

/// Plays one entry and checks it is a round a person played, scoring exactly its claim.
pub fn judge(entry: &Entry<'_>) -> Judged {
    let replay = &entry.replay;
    replay.rules().map_err(Refusal::Play)?;
    if let Some(text) = &replay.text {
        kept_text(text)?;
    }
    let mut print = fingerprint::Builder::new(&replay.mode, fingerprint::text_seed(replay));
    let mut judged = Vec::with_capacity(replay.inputs.len());
    let mut ignored = 0u32;
    let score = replay
        .play_each(|t, op, fx| {
            if fx.ignored {
                ignored += 1;
            } else {
                print.input(t, op);
            }
            if fx.judged.is_some() {
                judged.push(t);
            }
        })
        .map_err(Refusal::Play)?;
    if score.keys < MIN_KEYS {
        return Err(Refusal::TooLittle { keys: score.keys });
    }
    // Format 2 keeps the text with the keys: a text its round mostly skipped would be
    // kilobytes stored for a few keystrokes.
    if let Some(text) = &replay.text {
        let chars = text.chars().count() as u32;
        if score.keys.saturating_mul(2) < chars {
            return Err(Refusal::Untyped {
                keys: score.keys,
                chars,
            });
        }
    }
    // A WORDS round ends with its last word, which it takes all its words to reach: a
    // fast typist's WORDS 10 is over in under 3 s (2.8 s at 230 wpm), and is no junk. A
    // quote or a custom text ends with its last character the same way.
    if score.duration_ms < MIN_DURATION_MS && !ends_with_its_text(score.mode) {
        return Err(Refusal::TooShort);
    }
    if ignored > score.keys.max(MIN_KEYS) {
        return Err(Refusal::DidNothing {
            ignored,
            keys: score.keys,
        });
    }
    if score.wpm() >= MAX_WPM || score.raw_x100 / 100 >= MAX_RAW {
        return Err(Refusal::TooFast { wpm: score.wpm() });
    }
    let value = score.headline().value;
    if value == 0 {
        return Err(Refusal::ScoresNothing(score.headline()));
    }
    // Only junk is refused: a round whose one fault is its timing is kept, unranked.
    let timing = timing::check(&judged).err();
    if entry.claim != value {
        return Err(Refusal::WrongClaim {
            claim: entry.claim,
            score: value,
        });
    }
    Ok(Verified {
        bytes: entry.bytes.to_vec(),
        seed: replay.seed,
        score,
        round: print.finish(),
        timing,
    })
}

/// Whether rounds of `mode` end once their whole text is typed (WORDS, a quote, a custom
/// text), however quickly, rather than by a clock or an End.
pub fn ends_with_its_text(mode: Mode) -> bool {
    mode.word_count().is_some() || mode.has_fixed_text()
}

/// Whether the server keeps a custom `text`: one a round plays (the engine's check, which
/// refuses bidirectional controls among what no key types), and in Unicode's NFC, which
/// the engine can't decide without Unicode's tables.
pub fn kept_text(text: &str) -> Result<(), Refusal> {
    // A text decoded or checked is the engine's already (no control, invisible or
    // bidirectional character): this one is checked again for a door that takes a text
    // outside a replay (a room's).
    typepper_engine::text::check(text).map_err(Refusal::Text)?;
    if !typepper_game::custom::is_nfc(text) {
        return Err(Refusal::NotNfc);
    }
    Ok(())
}

/// A player's daily allowance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quota {
    /// Runs a day.
    pub runs: u32,
    /// Replay bytes a day.
    pub bytes: u64,
}

/// Who is submitting, when, and what the answer's links look like.
#[derive(Clone)]
pub struct Submission {
    /// The player.
    pub player: PlayerId,
    /// Now, in unix ms.
    pub now_ms: i64,
    /// The player's daily allowance.
    pub quota: Quota,
    /// When a ranked run waits for its player to confirm it.
    pub watch: rank::Watch,
    /// Draws a new run id.
    pub new_id: fn() -> String,
    /// A seed the player's round was played on live, in a room this server held: it
    /// counts as issued to them at the room's go (docs/TRUST.md says why).
    pub live: Option<crate::store::IssuedSeed>,
    /// The player is a guest: a room's racer who never linked. Their runs are stored,
    /// never ranked.
    pub guest: bool,
}

/// The store's [`Job`] for the judged entries of one body: its plan is [`plan`].
pub fn job(sub: Submission, judged: Vec<Judged>, deadline: Instant) -> Job {
    let verified = || judged.iter().filter_map(|j| j.as_ref().ok());
    Job {
        player: sub.player,
        day: typepper_api::Utc::of(sub.now_ms).day(),
        keys: verified().map(|v| v.round.key).collect(),
        // Its issued seeds, and the seeds its texts are known by (the same, but for a
        // quote or a custom text): the rounds on those are read too.
        seeds: {
            let mut seeds: Vec<u64> = verified().flat_map(|v| [v.seed, v.round.on]).collect();
            seeds.sort_unstable();
            seeds.dedup();
            seeds
        },
        deadline,
        // The store carries a plan's refusal through as its sentence.
        plan: Box::new(move |known| plan(&sub, &judged, known).map_err(|q| q.to_string())),
    }
}

/// What to do with each judged entry, given what the database knows: store it (ranked
/// or not), answer it as the copy it is (or, for the player's own round sent again, as
/// the run it already is), or refuse it. `Err` if the player's daily quota can't hold
/// the runs: then nothing of the body is stored.
pub fn plan(sub: &Submission, judged: &[Judged], known: &Known) -> Result<Vec<Step>, QuotaFull> {
    let month = typepper_api::Utc::of(sub.now_ms).month();
    let day = typepper_api::Utc::of(sub.now_ms).day();
    // What is stored, as it will be once the runs planned so far are: an entry may be a
    // copy of one earlier in the body, on a seed an earlier one used, or confirm one.
    let mut rounds = known.rounds.clone();
    let mut seeds = known.seeds.clone();
    seeds.extend(sub.live.iter().cloned());
    let mut usage = known.usage;
    let mut record = known.record.clone();
    let mut dailies = known.dailies.clone();
    let mut steps = Vec::with_capacity(judged.len());
    for j in judged {
        let v = match j {
            Ok(v) => v,
            Err(why) => {
                steps.push(Step::Answer(Answer::No(why.clone())));
                continue;
            }
        };
        let mode = v.score.mode.key();
        // A live room's seed is the room's while it holds it: only its own round (the
        // room's submission, `live`) may use it.
        let held = seeds
            .iter()
            .any(|s| s.room && s.seed == v.seed && s.expires_ms > sub.now_ms);
        if held && sub.live.as_ref().is_none_or(|l| l.seed != v.seed) {
            steps.push(Step::Answer(Answer::No(Refusal::LiveRoom)));
            continue;
        }
        // The same keys first: a round sent again is known by its key before anything
        // that merely shares a seed with it.
        let same = rounds
            .iter()
            .find(|k| k.key == v.round.key && v.round.same_timing(&k.blocks));
        let copy_of = same.or_else(|| {
            rounds.iter().find(|k| match &k.on {
                Some((m, seed, prefix)) => {
                    *m == mode && *seed == v.round.on && v.round.copies(&k.blocks, prefix)
                }
                None => false,
            })
        });
        if let Some(known) = copy_of {
            let answer = match &known.stored {
                // The player's own round sent again: the same answer, and nothing stored
                // twice.
                Some((score, ranked)) if known.player == sub.player && same.is_some() => {
                    Answer::Again {
                        run: known.run.clone(),
                        score: *score,
                        ranked: ranked.clone(),
                    }
                }
                _ => Answer::No(Refusal::Copy {
                    run: known.run.clone(),
                }),
            };
            steps.push(Step::Answer(answer));
            continue;
        }
        let seed = seeds.iter_mut().find(|s| s.seed == v.seed && !s.room);
        let live = sub.live.as_ref().is_some_and(|l| l.seed == v.seed);
        // A round of a daily's mode on its seed is that daily's, whoever plays it.
        let mut daily =
            (dailies.iter_mut()).find(|d| d.seed == v.seed && mode == typepper_api::daily::MODE);
        let standing = match (sub.guest, daily.as_deref()) {
            (true, _) => Ok(rank::Standing {
                unranked: Some(rank::Unranked::Guest),
                uses_seed: false,
            }),
            (false, Some(d)) => daily::standing(&v.score, d, sub.player, sub.now_ms),
            (false, None) => {
                rank::standing(&v.score, seed.as_deref(), live, sub.player, sub.now_ms)
            }
        };
        let mut standing = match standing {
            Ok(s) => s,
            Err(why) => {
                steps.push(Step::Answer(Answer::No(why)));
                continue;
            }
        };
        if let Some(bot) = &v.timing {
            standing.unranked = Some(rank::Unranked::Timing(bot.to_string()));
        }
        let mut boards = rank::boards(&v.score, standing.unranked, &record, &sub.watch);
        if let Some(d) = &daily {
            // A daily's round is on no board of its mode: it confirms none of them, and
            // its own board can't wait for it.
            boards.confirms.clear();
            if let Some(why) = boards.pending.take() {
                boards.unranked = Some(rank::Unranked::DailyWaits {
                    number: d.number,
                    why: why.to_string(),
                });
            }
        }
        usage.runs += 1;
        usage.bytes += v.bytes.len() as u64;
        if usage.runs > sub.quota.runs || usage.bytes > sub.quota.bytes {
            return Err(QuotaFull {
                runs: sub.quota.runs,
                bytes: sub.quota.bytes,
            });
        }
        let run = NewRun {
            played: Played {
                id: (sub.new_id)(),
                mode,
                score: v.score.headline().value,
                wpm_x100: v.score.wpm_x100,
                accuracy_x100: v.score.accuracy_x100.into(),
                duration_ms: v.score.duration_ms,
                created_ms: sub.now_ms,
                replay: v.bytes.clone(),
                // The row keeps its reasons as the sentences its answer lines say.
                unranked: boards.unranked.as_ref().map(ToString::to_string),
                pending: boards.pending.as_ref().map(ToString::to_string),
            },
            player: sub.player,
            month: month.clone(),
            day: day.clone(),
            round: RoundPrint {
                key: v.round.key,
                blocks: v.round.blocks.clone(),
                seed: v.round.on,
                prefix: v.round.prefix.clone(),
            },
            uses_seed: (standing.uses_seed && daily.is_none()).then_some(v.seed),
            confirms: boards.confirms,
            daily: daily.as_ref().map(|d| crate::store::OnDaily {
                number: d.number,
                first_try: standing.uses_seed,
            }),
        };
        if let Some(d) = daily.as_mut().filter(|_| standing.uses_seed) {
            d.tried = d
                .tried
                .take()
                .map(|(at, _)| (at, Some(run.played.id.clone())));
        }
        record.add(&run);
        if let Some(seed) = seed.filter(|_| standing.uses_seed) {
            seed.run = Some(run.played.id.clone());
        }
        rounds.push(KnownRound {
            key: run.round.key,
            run: run.played.id.clone(),
            player: sub.player,
            blocks: run.round.blocks.clone(),
            on: Some((
                run.played.mode.clone(),
                v.round.on,
                run.round.prefix.clone(),
            )),
            stored: Some((
                run.played.score,
                crate::store::standing(run.played.unranked.clone(), run.played.pending.clone()),
            )),
        });
        steps.push(Step::Store(Box::new(run)));
    }
    Ok(steps)
}

/// What became of each entry, as the metrics count it: `ranked`, `unranked`, `pending`,
/// `again` (a stored round sent again), or the [kind](Refusal::kind) of refusal.
pub fn outcomes(done: &[Done]) -> impl Iterator<Item = &'static str> + '_ {
    done.iter().map(|d| match d {
        Done::Stored(run, _) if run.played.unranked.is_some() => "unranked",
        Done::Stored(run, _) if run.played.pending.is_some() => "pending",
        Done::Stored(..) => "ranked",
        Done::Answered(Answer::Again { .. }) => "again",
        Done::Answered(Answer::No(why)) => why.kind(),
    })
}

/// The answer line for what became of one entry.
pub fn line(done: Done, share: &dyn Fn(&str) -> String) -> Line {
    match done {
        Done::Answered(Answer::No(why)) => Line::No {
            kind: Some(why.kind()),
            why: why.to_string(),
        },
        Done::Answered(Answer::Again { run, score, ranked }) => Line::Ok {
            share: share(&run),
            id: run,
            score,
            pb: false,
            ranked,
        },
        Done::Stored(run, stored) => Line::Ok {
            share: share(&run.played.id),
            id: run.played.id,
            score: run.played.score,
            pb: stored.pb,
            ranked: crate::store::standing(run.played.unranked, run.played.pending),
        },
    }
}

/// The answer's text, one line an entry, from what became of each.
pub fn answer(done: Vec<Done>, share: &dyn Fn(&str) -> String) -> String {
    done.into_iter()
        .map(|d| format!("{}\n", line(d, share)))
        .collect()
}

impl std::fmt::Display for Answer {
    /// The line as it would be answered, with the run's id where its share link goes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        line(Done::Answered(self.clone()), &|id| id.to_owned()).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use typepper_engine::synth::{Typist, synth};
    use typepper_engine::{Input, Mode, Op, VERSION};

    fn round(seed: u64) -> Replay {
        synth(Mode::BLITZ_15, seed, &Typist::default())
    }

    fn claim(r: &Replay) -> u32 {
        r.play().unwrap().1.headline().value
    }

    fn judged(r: &Replay, claim: u32) -> Judged {
        let bytes = r.encode();
        judge(&Entry {
            claim,
            replay: r.clone(),
            bytes: &bytes,
        })
    }

    #[test]
    fn a_true_claim_passes_and_a_wrong_one_says_both_numbers() {
        let r = round(1);
        let c = claim(&r);
        assert!(judged(&r, c).is_ok());
        let why = judged(&r, c + 2).unwrap_err();
        assert_eq!(
            why.to_string(),
            format!("claimed {}, but the replay scores {c}", c + 2)
        );
    }

    #[test]
    fn the_synthetic_typist_passes_at_every_speed_a_person_reaches() {
        for wpm in (20..=280).step_by(20) {
            for (i, mode) in [Mode::BLITZ_15, Mode::BLITZ_60, Mode::ZEN]
                .into_iter()
                .enumerate()
            {
                for accuracy in [88, 96, 100] {
                    let typist = Typist {
                        wpm,
                        accuracy,
                        seed: u64::from(wpm) * 7 + i as u64,
                        zen_ms: 40_000,
                    };
                    let r = synth(mode, u64::from(wpm), &typist);
                    let c = claim(&r);
                    let got = judged(&r, c);
                    assert!(got.is_ok(), "{wpm} wpm, {accuracy}%, {mode}: {got:?}");
                    // With room to spare: no threshold is close.
                    let mut times = vec![];
                    r.play_each(|t, _, fx| {
                        if fx.judged.is_some() {
                            times.push(t);
                        }
                    })
                    .unwrap();
                    let rhythm = timing::Rhythm::of(&times).unwrap();
                    let what = format!("{wpm} wpm, {accuracy}%, {mode}: {rhythm:?}");
                    assert!(
                        rhythm.spread_percent() >= 4 * timing::MIN_SPREAD_PERCENT,
                        "{what}"
                    );
                    assert!(rhythm.kurtosis > 0.0, "{what}");
                    assert!(rhythm.bursts * 100 <= rhythm.gaps, "{what}");
                    assert!(rhythm.longest_burst <= 1, "{what}");
                    if rhythm.gaps >= timing::SKEW_GAPS {
                        assert!(rhythm.leans_right(), "{what}");
                        assert!(
                            2 * rhythm.slow * 100 >= 3 * rhythm.gaps * timing::MIN_SLOW_PERCENT,
                            "{what}: half again the threshold"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn empty_and_short_rounds_are_refused() {
        let zen = Replay {
            engine: VERSION,
            mode: "zen".into(),
            seed: 1,
            text: None,
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
        assert_eq!(judged(&zen, 0).unwrap_err().kind(), "too_little");
    }

    #[test]
    fn a_body_is_read_entry_by_entry() {
        let (a, b) = (round(4), round(5));
        let mut other = round(6);
        other.engine = 3;
        let body = typepper_api::submission([
            (claim(&a), &a.encode()[..]),
            (0, &other.encode()[..]),
            (claim(&b) + 1, &b.encode()[..]),
        ]);
        let entries = split(&body).unwrap();
        assert_eq!(entries.len(), 3);
        let lines: Vec<Judged> = entries.iter().map(|e| judge(e.as_ref().unwrap())).collect();
        assert!(lines[0].is_ok());
        assert_eq!(
            lines[1].as_ref().unwrap_err().to_string(),
            "recorded by rules VERSION 3, which this engine doesn't have: it plays VERSION 1 and 2"
        );
        assert_eq!(lines[2].as_ref().unwrap_err().kind(), "wrong_claim");
        let mut cut = body.clone();
        cut.truncate(body.len() - 3);
        let entries = split(&cut).unwrap();
        let cut_short = entries[2].as_ref().unwrap_err();
        assert!(cut_short.to_string().contains("cut short"), "{cut_short}");
        assert_eq!(split(&[1, 2]).unwrap().len(), 1);
    }

    #[test]
    fn a_body_carries_at_most_fifty_entries() {
        let r = round(7).encode();
        let body = typepper_api::submission(std::iter::repeat_n((1, &r[..]), MAX_ENTRIES));
        assert_eq!(split(&body).map(|e| e.len()), Ok(MAX_ENTRIES));
        let body = typepper_api::submission(std::iter::repeat_n((1, &r[..]), MAX_ENTRIES + 1));
        assert_eq!(split(&body).map(|e| e.len()), Err(TooMany));
    }
}
