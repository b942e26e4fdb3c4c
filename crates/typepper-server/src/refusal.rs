//! Why an entry of a submission was refused, as a value, with the limits its sentences
//! name (the checks are in `submit`, which uses this module and is not used by it).
//!
//! A refusal is written out once, as its answer line's sentence ([`Refusal`]'s
//! `Display`); the metrics count it by [`Refusal::kind`], so rewording a sentence never
//! moves its count. Every kind and its sentence are tested below.

use core::fmt;

use typepper_engine::{DecodeError, Headline, PlayError, TextFault};

/// Judged keystrokes a run needs to be stored.
pub const MIN_KEYS: u32 = 20;
/// Rounds shorter than this aren't kept.
pub const MIN_DURATION_MS: u32 = 3_000;
/// Nobody types this fast: a round at or over it is refused.
pub const MAX_WPM: u32 = 300;
/// Gaps under this many ms are a burst: no finger presses two keys that close together
/// on purpose, but rollover makes one now and then.
pub const BURST_GAP_MS: u32 = 8;

/// Why one entry of a submission is not stored.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The body ends inside an entry's claimed score.
    CutClaim,
    /// The bytes after a claim are not a replay; the rest of the body is not read.
    NotAReplay(DecodeError),
    /// More entries than a body may carry (counted before, so only a body that changed
    /// between the count and the judging gets this).
    TooMany,
    /// The engine would not play it to a score: other rules, an unknown mode, an input
    /// the round refused, a replay that ends too soon.
    Play(PlayError),
    /// Fewer judged keystrokes than [`MIN_KEYS`].
    TooLittle {
        /// Judged keystrokes.
        keys: u32,
    },
    /// A custom text its round left mostly untyped: fewer judged keystrokes than half its
    /// characters. Its words were skipped (a space after a word's first letter ends it),
    /// so the replay would keep kilobytes of text that nobody typed.
    Untyped {
        /// Judged keystrokes.
        keys: u32,
        /// The text's characters.
        chars: u32,
    },
    /// A custom text that is not in Unicode NFC: a letter and its accent written as two
    /// characters where NFC writes one. The engine refuses what it can decide without
    /// Unicode's tables; this is the rest.
    NotNfc,
    /// A custom text the server does not keep: a character that changes how the text
    /// around it is shown (a right-to-left override) and that no key types.
    Text(TextFault),
    /// Shorter than [`MIN_DURATION_MS`], and not a round that ends with its text (WORDS,
    /// a quote, a custom text: over when all its words are typed, however fast).
    TooShort,
    /// More inputs did nothing than did something.
    DidNothing {
        /// Inputs that did nothing.
        ignored: u32,
        /// Judged keystrokes.
        keys: u32,
    },
    /// At or over [`MAX_WPM`] (or `MAX_RAW` raw).
    TooFast {
        /// Its wpm.
        wpm: u32,
    },
    /// It scores nothing.
    ScoresNothing(Headline),
    /// Its key timing is a program's.
    Bot(Bot),
    /// The claim is not what the replay scores.
    WrongClaim {
        /// What the game claimed.
        claim: u32,
        /// What the replay scores.
        score: u32,
    },
    /// It arrived sooner after its seed was issued than the round lasts.
    TooSoon {
        /// Seconds between the seed's issue and the round's arrival.
        waited_s: i64,
        /// Seconds the round lasts.
        lasts_s: u32,
    },
    /// A copy of a stored round.
    Copy {
        /// The stored run it copies.
        run: String,
    },
    /// On a live room's seed while the room holds it: every connection to the room saw
    /// its racers' keys, so a round on it is only the room's to store (docs/TRUST.md).
    LiveRoom,
}

impl Refusal {
    /// The label the metrics count it under (`typepper_rounds_total{outcome=…}`).
    pub fn kind(&self) -> &'static str {
        match self {
            // A format 2 text the engine's reader refuses says so by its own kind.
            Refusal::NotAReplay(DecodeError::Text(_)) => "bad_text",
            Refusal::CutClaim | Refusal::NotAReplay(_) => "unreadable",
            Refusal::Play(PlayError::OtherRules { .. }) => "other_rules",
            // A quote the corpus doesn't have is a mode this build doesn't have.
            Refusal::Play(PlayError::Mode(_) | PlayError::NoQuote(..)) => "unknown_mode",
            Refusal::Play(PlayError::NotCustom | PlayError::NoText | PlayError::Text(_))
            | Refusal::NotNfc
            | Refusal::Text(_) => "bad_text",
            Refusal::Play(PlayError::Refused { .. } | PlayError::NotOver) => "breaks_the_rules",
            Refusal::TooMany | Refusal::Play(_) => "other",
            Refusal::TooLittle { .. } | Refusal::Untyped { .. } => "too_little",
            Refusal::TooShort => "too_short",
            Refusal::DidNothing { .. } => "did_nothing",
            Refusal::TooFast { .. } => "too_fast",
            Refusal::ScoresNothing(_) => "scores_nothing",
            Refusal::Bot(_) => "bot_timing",
            Refusal::WrongClaim { .. } => "wrong_claim",
            Refusal::TooSoon { .. } => "too_soon",
            Refusal::Copy { .. } => "copy",
            Refusal::LiveRoom => "live_room",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::CutClaim => {
                f.write_str("the body ends inside a claimed score (4 bytes before each replay)")
            }
            Refusal::NotAReplay(e) => {
                write!(f, "not a replay ({e}); the rest of the body is not read")
            }
            Refusal::TooMany => f.write_str("too many rounds in one submission"),
            Refusal::Play(e) => e.fmt(f),
            Refusal::TooLittle { keys } => write!(
                f,
                "too little typing to keep: {keys} judged keystrokes, and a run needs {MIN_KEYS}"
            ),
            Refusal::Untyped { keys, chars } => write!(
                f,
                "too little of the text typed to keep: {keys} judged keystrokes on a text of \
                 {chars} characters, and a custom round types at least half its text"
            ),
            Refusal::NotNfc => f.write_str(
                "the text is not in Unicode NFC: a letter and its accent are written as two \
                 characters where NFC writes one; send the text composed, as the game makes \
                 a pasted one",
            ),
            Refusal::Text(fault) => fault.fmt(f),
            Refusal::TooShort => write!(
                f,
                "too short to count: rounds under {} s aren't kept",
                MIN_DURATION_MS / 1000
            ),
            Refusal::DidNothing { ignored, keys } => write!(
                f,
                "{ignored} inputs did nothing (spaces on an empty word, backspaces with nothing \
                 to delete, keys past a word's end), more than the {keys} that did"
            ),
            Refusal::TooFast { wpm } => write!(
                f,
                "faster than anyone types ({wpm} wpm; {MAX_WPM} and over are refused)"
            ),
            Refusal::ScoresNothing(headline) => {
                write!(f, "it scores {headline}: there is nothing to rank or share")
            }
            Refusal::Bot(bot) => bot.fmt(f),
            Refusal::WrongClaim { claim, score } => {
                write!(f, "claimed {claim}, but the replay scores {score}")
            }
            Refusal::TooSoon { waited_s, lasts_s } => write!(
                f,
                "it arrived {waited_s} s after its seed was issued, but the round lasts \
                 {lasts_s} s: it can't have been played on it"
            ),
            Refusal::Copy { run } => write!(f, "a copy of run {run}"),
            Refusal::LiveRoom => f.write_str(
                "this text is a live room's, and the room keeps its own rounds: watch them \
                 there, or race them once the room has stored them",
            ),
        }
    }
}

/// What gave a program away, one variant for each mark above.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bot {
    /// (1) A run of keys under [`BURST_GAP_MS`] apart.
    Bursts {
        /// Keys in the longest run.
        keys: usize,
    },
    /// (1) Over `timing::MAX_BURST_PERCENT` of the gaps are bursts.
    Implausible {
        /// Burst gaps.
        bursts: usize,
        /// Keys.
        keys: usize,
    },
    /// (2) The middle half of the gaps spans under `timing::MIN_SPREAD_PERCENT` of the median.
    Metronome {
        /// What the middle half spans, in ms.
        span: u32,
        /// The median gap, in ms.
        median: u32,
    },
    /// (3) The gaps' kurtosis is under `timing::MIN_KURTOSIS`.
    Flat {
        /// Their excess kurtosis.
        kurtosis: f64,
    },
    /// (4) The gaps don't lean right.
    Symmetric {
        /// Gaps of half again the median or longer.
        slow: usize,
        /// Gaps.
        gaps: usize,
        /// The median gap, in ms.
        median: u32,
        /// The mean gap, in ms.
        mean: f64,
    },
}

impl std::fmt::Display for Bot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bot::Bursts { keys } => write!(
                f,
                "keys came in bursts: {keys} keys within {BURST_GAP_MS} ms of each other, as a \
                 paste or a macro sends them"
            ),
            Bot::Implausible { bursts, keys } => write!(
                f,
                "implausible timing: {bursts} of {keys} keys came under {BURST_GAP_MS} ms after \
                 the one before"
            ),
            Bot::Metronome { span, median } => write!(
                f,
                "timing as even as a metronome: the middle half of the gaps between keys spans \
                 {span} ms around {median} ms"
            ),
            Bot::Flat { kurtosis } => write!(
                f,
                "gaps between keys drawn evenly from a range (their kurtosis is {kurtosis:.2}); \
                 a person's have a tail of slow keys"
            ),
            Bot::Symmetric {
                slow,
                gaps,
                median,
                mean,
            } => write!(
                f,
                "timing that doesn't lean right: {slow} of {gaps} gaps between keys are half \
                 again the median ({median} ms) or longer, and the mean is {mean:.0} ms; a \
                 person's gaps have a tail of slow keys"
            ),
        }
    }
}

/// Nothing of a body is stored: its player's daily quota can't hold its runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuotaFull {
    /// Runs a day.
    pub runs: u32,
    /// Replay bytes a day.
    pub bytes: u64,
}

impl fmt::Display for QuotaFull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "today's quota is full ({} runs or {} KiB of replays a day): try again \
             tomorrow (UTC)",
            self.runs,
            self.bytes / 1024
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use typepper_engine::{Mode, Refusal as Rule};

    /// Every kind of refusal: its value, the sentence a player reads, the metric label.
    #[test]
    fn every_refusal_says_its_sentence_and_counts_under_its_kind() {
        let no_mode = "x".parse::<Mode>().unwrap_err();
        let table: Vec<(Refusal, &str, &str)> = vec![
            (
                Refusal::CutClaim,
                "the body ends inside a claimed score (4 bytes before each replay)",
                "unreadable",
            ),
            (
                Refusal::NotAReplay(DecodeError::NotAReplay),
                "not a replay (not a typepper replay (no TPR magic)); the rest of the body is \
                 not read",
                "unreadable",
            ),
            (
                Refusal::TooMany,
                "too many rounds in one submission",
                "other",
            ),
            (
                Refusal::Play(PlayError::OtherRules { engine: 3 }),
                "recorded by rules VERSION 3, which this engine doesn't have: it plays VERSION 1 and 2",
                "other_rules",
            ),
            (
                Refusal::Play(PlayError::Mode(no_mode)),
                "this build has no mode \"x\": it has time:15, time:30, time:60, time:120, \
                 words:10, words:25, words:50, words:100, zen and pursuit:1 to pursuit:20, \
                 each followed by /p (punctuation), /n (numbers), /s (stop on error) and /b \
                 (no backspace) if wanted, then @<language> if not English; drill:<1 to 8 \
                 distinct letters a-z> and drill2:<the same>; quote:<1 to 65535>, then /s and \
                 /b if wanted, then @<language> if not English; and custom, then /s and /b if \
                 wanted",
                "unknown_mode",
            ),
            (
                Refusal::Play(PlayError::NoQuote(
                    typepper_engine::Language::German,
                    typepper_engine::QuoteNo::new(60_000).unwrap(),
                )),
                // How many the corpus has is the corpus's: the sentence starts the same.
                "there is no quote #60000 in deutsch: it has ",
                "unknown_mode",
            ),
            (
                Refusal::Play(PlayError::NotCustom),
                "the replay carries a text, which only a CUSTOM TEXT round does",
                "bad_text",
            ),
            (
                Refusal::Play(PlayError::NoText),
                "a CUSTOM TEXT replay carries its text (format 2), and this one has none",
                "bad_text",
            ),
            (
                Refusal::NotNfc,
                "the text is not in Unicode NFC: a letter and its accent are written as two \
                 characters where NFC writes one; send the text composed, as the game makes a \
                 pasted one",
                "bad_text",
            ),
            (
                Refusal::Text(TextFault::Unseen('\u{202e}')),
                "the text holds U+202E, a control or invisible character no key types",
                "bad_text",
            ),
            (
                Refusal::Untyped {
                    keys: 21,
                    chars: 10_000,
                },
                "too little of the text typed to keep: 21 judged keystrokes on a text of 10000 \
                 characters, and a custom round types at least half its text",
                "too_little",
            ),
            (
                Refusal::Play(PlayError::Refused {
                    index: 3,
                    at: 40,
                    why: Rule::Backwards { last: 50 },
                }),
                "input 3 at 40 ms was refused: an input earlier than the one at 50 ms",
                "breaks_the_rules",
            ),
            (
                Refusal::Play(PlayError::NotOver),
                "the replay ends before its round does (nothing typed, or ZEN without End)",
                "breaks_the_rules",
            ),
            (
                Refusal::Play(PlayError::Clock),
                "the inputs' times run past u32 milliseconds",
                "other",
            ),
            (
                Refusal::TooLittle { keys: 3 },
                "too little typing to keep: 3 judged keystrokes, and a run needs 20",
                "too_little",
            ),
            (
                Refusal::TooShort,
                "too short to count: rounds under 3 s aren't kept",
                "too_short",
            ),
            (
                Refusal::DidNothing {
                    ignored: 90,
                    keys: 40,
                },
                "90 inputs did nothing (spaces on an empty word, backspaces with nothing to \
                 delete, keys past a word's end), more than the 40 that did",
                "did_nothing",
            ),
            (
                Refusal::TooFast { wpm: 412 },
                "faster than anyone types (412 wpm; 300 and over are refused)",
                "too_fast",
            ),
            (
                Refusal::ScoresNothing(Headline {
                    value: 0,
                    unit: typepper_engine::Unit::Words,
                }),
                "it scores 0 words: there is nothing to rank or share",
                "scores_nothing",
            ),
            (
                Refusal::Bot(Bot::Bursts { keys: 5 }),
                "keys came in bursts: 5 keys within 8 ms of each other, as a paste or a macro \
                 sends them",
                "bot_timing",
            ),
            (
                Refusal::Bot(Bot::Implausible {
                    bursts: 30,
                    keys: 121,
                }),
                "implausible timing: 30 of 121 keys came under 8 ms after the one before",
                "bot_timing",
            ),
            (
                Refusal::Bot(Bot::Metronome {
                    span: 2,
                    median: 100,
                }),
                "timing as even as a metronome: the middle half of the gaps between keys \
                 spans 2 ms around 100 ms",
                "bot_timing",
            ),
            (
                Refusal::Bot(Bot::Flat { kurtosis: -1.2 }),
                "gaps between keys drawn evenly from a range (their kurtosis is -1.20); a \
                 person's have a tail of slow keys",
                "bot_timing",
            ),
            (
                Refusal::Bot(Bot::Symmetric {
                    slow: 1,
                    gaps: 200,
                    median: 48,
                    mean: 48.2,
                }),
                "timing that doesn't lean right: 1 of 200 gaps between keys are half again \
                 the median (48 ms) or longer, and the mean is 48 ms; a person's gaps have a \
                 tail of slow keys",
                "bot_timing",
            ),
            (
                Refusal::WrongClaim {
                    claim: 110,
                    score: 108,
                },
                "claimed 110, but the replay scores 108",
                "wrong_claim",
            ),
            (
                Refusal::TooSoon {
                    waited_s: 9,
                    lasts_s: 15,
                },
                "it arrived 9 s after its seed was issued, but the round lasts 15 s: it \
                 can't have been played on it",
                "too_soon",
            ),
            (
                Refusal::Copy {
                    run: "abcdEFGH".into(),
                },
                "a copy of run abcdEFGH",
                "copy",
            ),
            (
                Refusal::LiveRoom,
                "this text is a live room's, and the room keeps its own rounds: watch them \
                 there, or race them once the room has stored them",
                "live_room",
            ),
        ];
        for (refusal, sentence, kind) in table {
            let said = refusal.to_string();
            match refusal {
                Refusal::Play(PlayError::NoQuote(..)) => {
                    assert!(said.starts_with(sentence), "{said}");
                }
                _ => assert_eq!(said, sentence, "{refusal:?}"),
            }
            assert_eq!(refusal.kind(), kind, "{refusal:?}");
            // The kind goes on the wire, in the `no` line: one a reader knows.
            assert!(typepper_api::REFUSALS.contains(&kind), "{kind}");
        }
    }

    #[test]
    fn a_full_quota_says_its_numbers() {
        let full = QuotaFull {
            runs: 500,
            bytes: 4 << 20,
        };
        assert_eq!(
            full.to_string(),
            "today's quota is full (500 runs or 4096 KiB of replays a day): try again \
             tomorrow (UTC)"
        );
    }
}
