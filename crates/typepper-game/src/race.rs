//! Racing a replay: its ghost, the live lead, and where the lead changed hands.
//!
//! The ghost is a second [`Round`] on the same mode and seed, fed the replay's inputs as
//! their times come, exactly as watching feeds them. It and your round share nothing but
//! the clock's origin (your first key): neither reads the other's inputs, so the ghost
//! plays out as the replay always does and your round is a round like any other.
//!
//! Progress is the caret's place in the text, in characters: what the two carets on
//! screen show. The lead is yours minus the ghost's, with the time the one behind trails
//! by (how long ago the one ahead stood where the one behind stands now).

use core::fmt;

use typepper_engine::{Mode, Op, Replay, Round, Score};

/// A replay's inputs with their round times, handed to its round as the clock reaches
/// them: for watching a replay, and for a ghost.
#[derive(Clone, Debug)]
pub struct Feed {
    inputs: Vec<(u32, Op)>,
    next: usize,
}

impl Feed {
    /// The inputs of `replay`, none handed over yet.
    pub fn of(replay: &Replay) -> Feed {
        let inputs = replay
            .timeline()
            .map(|(t, op)| (t.unwrap_or(u32::MAX), op))
            .collect();
        Feed { inputs, next: 0 }
    }

    /// Hands `round` every input due by round time `t`; whether any was.
    pub fn land(&mut self, round: &mut Round, t: u32) -> bool {
        let before = self.next;
        while let Some(&(at, op)) = self.inputs.get(self.next) {
            if at > t {
                break;
            }
            // The replay was played through before it was fed: every input is taken.
            let _ = round.apply(at, op);
            self.next += 1;
        }
        self.next != before
    }
}

/// The caret's place in the text: characters before the current word, and what is typed
/// of it.
pub fn progress(round: &Round) -> u32 {
    let view = round.view(0);
    let (word, typed) = view.caret();
    view.word(word).map_or(0, |w| w.offset) + typed as u32
}

/// When a round's caret first reached each place in the text.
#[derive(Clone, Debug, Default)]
pub struct Trail {
    /// `reached[p - 1]`: the round time the caret first stood at `p` characters or more.
    reached: Vec<u32>,
}

impl Trail {
    /// The caret stands at `at` characters at round time `t`.
    pub fn mark(&mut self, at: u32, t: u32) {
        while self.reached.len() < at as usize {
            self.reached.push(t);
        }
    }

    /// When the caret first reached `at` characters (0 for the start).
    pub fn when(&self, at: u32) -> Option<u32> {
        match at.checked_sub(1) {
            None => Some(0),
            Some(i) => self.reached.get(i as usize).copied(),
        }
    }
}

/// A replay being raced.
#[derive(Clone, Debug)]
pub struct Rival {
    /// Who played it: a player's name, `your best here`.
    pub name: String,
    /// The replay, to race again.
    pub replay: Replay,
    /// What the whole replay scores.
    pub score: Score,
    /// Its round as far as the clock has come.
    pub round: Round,
    feed: Feed,
    trail: Trail,
}

/// A replay made ready to play back (watched, or as a ghost): its fresh round and what
/// the whole replay scores, or why it can't be played back, in a sentence: other rules,
/// an unknown mode, a round that doesn't play.
pub fn open(replay: &Replay) -> Result<(Round, Score), String> {
    let score = replay.score().map_err(|e| e.to_string())?;
    let round = replay.setup().map_err(|e| e.to_string())?;
    Ok((round, score))
}

impl Rival {
    /// The ghost of `replay`, or why it can't be raced ([`open`]).
    pub fn new(replay: Replay, name: String) -> Result<Rival, String> {
        let (round, score) = open(&replay)?;
        Ok(Rival {
            name,
            feed: Feed::of(&replay),
            replay,
            score,
            round,
            trail: Trail::default(),
        })
    }

    /// The same ghost from its start, for a rematch.
    pub fn again(&self) -> Rival {
        Rival {
            round: self.replay.setup().unwrap_or_else(|_| self.round.clone()),
            feed: Feed::of(&self.replay),
            trail: Trail::default(),
            ..self.clone()
        }
    }

    /// The mode raced.
    pub fn mode(&self) -> Mode {
        self.round.mode()
    }

    /// Lands the ghost's inputs due by round time `t`.
    pub fn advance(&mut self, t: u32) {
        if self.feed.land(&mut self.round, t) {
            self.trail.mark(progress(&self.round), t);
        }
    }

    /// The lead at round time `t` of a round at `you` characters whose caret left
    /// `trail`.
    pub fn lead(&self, you: u32, trail: &Trail, t: u32) -> Lead {
        lead(you, trail, progress(&self.round), &self.trail, t)
    }
}

/// At round time `t`, the lead of a round at `you` characters whose caret left `trail`
/// over one at `them` characters whose caret left `theirs`.
pub fn lead(you: u32, trail: &Trail, them: u32, theirs: &Trail, t: u32) -> Lead {
    // The one behind trails by the time since the one ahead stood where it stands.
    let (ahead, behind_at) = if you >= them {
        (trail, them)
    } else {
        (theirs, you)
    };
    let ms = ahead
        .when(behind_at)
        .map_or(0, |then| t.saturating_sub(then));
    Lead {
        chars: i64::from(you) - i64::from(them),
        ms: if you >= them {
            ms.into()
        } else {
            -i64::from(ms)
        },
    }
}

/// Your lead over the ghost: positive when you are ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lead {
    /// Your place in the text minus the ghost's, in characters.
    pub chars: i64,
    /// How long the one behind trails by, in ms: positive when it is the ghost.
    pub ms: i64,
}

impl Lead {
    /// `+12 chars · +0.8 s`, `−3 chars · −0.2 s`, `tied`. Not "level": in HOT PURSUIT
    /// that is the flame's speed.
    pub fn short(self) -> String {
        if self.chars == 0 {
            return "tied".into();
        }
        let sign = if self.chars > 0 { "+" } else { "−" };
        format!(
            "{sign}{} · {sign}{}",
            chars(self.chars.unsigned_abs()),
            Seconds(self.ms.unsigned_abs())
        )
    }

    /// `you lead ada by 12 chars (0.8 s)`, `ada leads you by 3 chars (0.2 s)`, `tied
    /// with ada`: who is ahead, always.
    pub fn words(self, name: &str) -> String {
        self.words_of(None, name)
    }

    /// [`Lead::words`] for someone watched rather than you: `grace leads ada by 12 chars
    /// (0.8 s)`, `grace and ada are tied`.
    pub fn words_of(self, subject: Option<&str>, name: &str) -> String {
        let (n, s) = (
            chars(self.chars.unsigned_abs()),
            Seconds(self.ms.unsigned_abs()),
        );
        match (self.chars.signum(), subject) {
            (1, None) => format!("you lead {name} by {n} ({s})"),
            (-1, None) => format!("{name} leads you by {n} ({s})"),
            (_, None) => format!("tied with {name}"),
            (1, Some(who)) => format!("{who} leads {name} by {n} ({s})"),
            (-1, Some(who)) => format!("{name} leads {who} by {n} ({s})"),
            (_, Some(who)) => format!("{who} and {name} are tied"),
        }
    }
}

/// `1 char`, `12 chars`.
fn chars(n: u64) -> String {
    if n == 1 {
        "1 char".into()
    } else {
        format!("{n} chars")
    }
}

/// Milliseconds as `0.8 s`, rounded down to a tenth.
pub struct Seconds(pub u64);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{} s", self.0 / 1000, self.0 % 1000 / 100)
    }
}

/// Where each round's caret stood at the end of each of its first `secs` seconds.
fn places(replay: &Replay, secs: usize) -> Vec<u32> {
    let Ok(mut round) = replay.setup() else {
        return vec![];
    };
    let mut feed = Feed::of(replay);
    (1..=secs)
        .map(|s| {
            let t = u32::try_from(s * 1000).unwrap_or(u32::MAX);
            feed.land(&mut round, t);
            progress(&round)
        })
        .collect()
}

/// The seconds (1 for the first) at whose end the lead had changed hands since the last
/// time somebody led, over your round's `secs` seconds. Taking the first lead is not a
/// change.
pub fn lead_changes(you: &Replay, ghost: &Replay, secs: usize) -> Vec<u32> {
    let (a, b) = (places(you, secs), places(ghost, secs));
    let mut leader = 0;
    let mut changes = vec![];
    for (s, (a, b)) in (1..).zip(a.iter().zip(&b)) {
        let now = (i64::from(*a) - i64::from(*b)).signum();
        if now != 0 {
            if leader != 0 && now != leader {
                changes.push(s);
            }
            leader = now;
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use typepper_engine::synth::{Typist, synth};

    #[test]
    fn a_trail_keeps_the_first_time_each_place_was_reached() {
        let mut trail = Trail::default();
        trail.mark(3, 100);
        trail.mark(2, 150);
        trail.mark(5, 200);
        assert_eq!(
            (0..7).map(|p| trail.when(p)).collect::<Vec<_>>(),
            [
                Some(0),
                Some(100),
                Some(100),
                Some(100),
                Some(200),
                Some(200),
                None
            ]
        );
    }

    #[test]
    fn leads_read_with_their_sign_and_who_is_ahead() {
        let ahead = Lead { chars: 12, ms: 850 };
        assert_eq!(ahead.short(), "+12 chars · +0.8 s");
        assert_eq!(ahead.words("ada"), "you lead ada by 12 chars (0.8 s)");
        let behind = Lead {
            chars: -1,
            ms: -200,
        };
        assert_eq!(behind.short(), "−1 char · −0.2 s");
        assert_eq!(
            behind.words("your best"),
            "your best leads you by 1 char (0.2 s)"
        );
        let level = Lead { chars: 0, ms: 0 };
        assert_eq!(
            (level.short(), level.words("ada")),
            ("tied".into(), "tied with ada".into())
        );
    }

    #[test]
    fn the_faster_round_leads_and_the_lead_changes_where_the_places_cross() {
        let slow = synth(
            Mode::BLITZ_15,
            9,
            &Typist {
                wpm: 40,
                ..Typist::default()
            },
        );
        let fast = synth(
            Mode::BLITZ_15,
            9,
            &Typist {
                wpm: 90,
                ..Typist::default()
            },
        );
        assert_eq!(lead_changes(&fast, &slow, 15), Vec::<u32>::new());
        let mut ghost = Rival::new(slow.clone(), "slow".into()).unwrap();
        ghost.advance(10_000);
        let (round, _) = fast.play().unwrap();
        let lead = ghost.lead(progress(&round), &Trail::default(), 10_000);
        assert!(lead.chars > 0, "{lead:?}");

        // Fast for its first 5 s, then nothing: the slow round passes it.
        let mut stop = fast.clone();
        let mut t = 0;
        stop.inputs.retain(|i| {
            t += i.dt;
            t <= 5_000
        });
        let changes = lead_changes(&stop, &slow, 15);
        assert_eq!(changes.len(), 1, "{changes:?}");
        let at = places(&stop, 15);
        let them = places(&slow, 15);
        let s = changes[0] as usize;
        assert!(at[s - 2] > them[s - 2] && at[s - 1] < them[s - 1]);
    }
}
