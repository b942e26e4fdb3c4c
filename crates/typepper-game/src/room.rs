//! A live room as the game plays it: the lobby, the countdown, the race and its results,
//! driven by the server's messages (docs/spec/rooms.md).
//!
//! The room is the server's. The game keeps what it was told (who is in it, where it is)
//! and plays every racer's keys through an engine [`Round`] of its own as they come, so
//! that each opponent is a caret on your text and their numbers are the engine's, as the
//! server's are. Your own keys go into your round as in any round, and out to the server
//! once a frame ([`Live::outgoing`]).
//!
//! This is the room's state; what the game does with it (keys, the server's messages,
//! effects) is the app's, in `app/room.rs`.

use typepper_api::room::{
    Ask, Finish, Kept, Key as Sent, MAX_KEYS_PER_MESSAGE, Open, Phase, Racer, State, is_code,
};
use typepper_engine::{Headline, Mode, Op, Replay, Round, Score};

use crate::palette::Tone;
use crate::race::{self, Lead, Trail};

/// After a lost connection, the next try waits this long.
pub const RETRY_MS: f64 = 1_000.0;

/// Tries to come back after a lost connection, one a [`RETRY_MS`], before giving up.
pub const RETRIES: u32 = 10;

/// How long a line saying what a key did stays (`room link copied`).
pub const FLASH_MS: f64 = 2_000.0;

/// How long the results stay on screen once a rematch is asked for, for each racer to
/// finish reading them; tab goes to the lobby sooner, and the countdown does.
pub const REMATCH_HOLD_MS: f64 = 15_000.0;

/// A room: joining it, in it, or done with it.
#[derive(Clone, Debug)]
pub struct Live {
    /// Its code, once the server opened it.
    pub code: Option<String>,
    /// The link that joins it, once known.
    pub link: Option<String>,
    /// Its mode: the one asked for, then the server's.
    pub mode: Mode,
    /// A CUSTOM TEXT room's text: the one asked for, then the server's.
    pub text: Option<String>,
    /// A name being picked, for a player who never linked.
    pub naming: Option<Naming>,
    /// The name given in the hello, for a player who never linked.
    pub name: Option<String>,
    /// The connection is up.
    pub connected: bool,
    /// Your racer number; none while joining, or as a spectator.
    pub you: Option<u32>,
    /// Who may start it.
    pub owner: u32,
    /// The secret that takes your seat back after a lost connection.
    pub resume: Option<String>,
    /// Where the room is.
    pub phase: Phase,
    /// Everyone in it, in joining order.
    pub racers: Vec<Racer>,
    /// In the countdown: when the text comes, on the monotonic clock.
    pub go_at: Option<f64>,
    /// From the text on: every racer's round.
    pub race: Option<Race>,
    /// Every round is over: the finishers, best first.
    pub results: Option<Vec<Finish>>,
    /// The results' picked row.
    pub row: usize,
    /// When the results came, on the monotonic clock: letters wait
    /// the app's `RESULTS_HOLD_MS` from it.
    pub since: f64,
    /// A line for the player: a refusal, why you are out, the connection's state.
    pub note: Option<(String, Tone)>,
    /// When the note goes, on the monotonic clock, for one that says what a key did.
    pub note_until: Option<f64>,
    /// The room welcomed this connection: a refusal before it is the hello's.
    pub welcomed: bool,
    /// Back in the lobby for a rematch while the results are still on screen: when the
    /// lobby takes their place, on the monotonic clock, unless a key or the countdown
    /// brings it sooner.
    pub lobby_at: Option<f64>,
    /// This game asked for the rematch (tab): its lobby comes at once.
    pub rematching: bool,
    /// After a lost connection: when to try again, and how many tries are left.
    pub retry: Option<(f64, u32)>,
}

/// A name being picked for a room.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Naming {
    /// The name so far.
    pub name: String,
    /// Why the last try was refused.
    pub error: Option<String>,
}

/// A race under way, or over: one round a racer, all on the room's seed.
#[derive(Clone, Debug)]
pub struct Race {
    /// The monotonic time of round time 0: when the text came.
    pub origin: f64,
    /// Every racer's round, yours among them, in joining order.
    pub rounds: Vec<Rival>,
    /// How many of your round's keys the server has been sent.
    sent: usize,
}

/// A racer's round, as their keys came.
#[derive(Clone, Debug)]
pub struct Rival {
    /// Their racer number.
    pub id: u32,
    /// Their round.
    pub round: Round,
    /// Where their caret has been, for the gaps between racers.
    pub trail: Trail,
}

impl Race {
    /// A race from round time 0 at `origin`, of the racers `ids`, each on a round like
    /// `blank`.
    fn new(blank: &Round, origin: f64, ids: impl Iterator<Item = u32>) -> Race {
        Race {
            origin,
            rounds: ids
                .map(|id| Rival {
                    id,
                    round: blank.clone(),
                    trail: Trail::default(),
                })
                .collect(),
            sent: 0,
        }
    }

    /// Racer `id`'s round.
    pub fn of(&self, id: u32) -> Option<&Rival> {
        self.rounds.iter().find(|r| r.id == id)
    }

    /// Racer `id`'s round, to type into.
    pub fn of_mut(&mut self, id: u32) -> Option<&mut Rival> {
        self.rounds.iter_mut().find(|r| r.id == id)
    }

    /// The server's copy of your keys, from the next it has not told you of: those your
    /// round lacks go into it (a reloaded game's round has none; a round this game kept
    /// has them all), and all count as sent. A long round's copy comes in several
    /// messages: the resume's, then `keys` messages of your own number.
    fn yours(&mut self, you: u32, keys: &[Sent]) {
        let have = self.of(you).map_or(0, |r| r.round.inputs());
        let skip = have.saturating_sub(self.sent).min(keys.len());
        self.land(you, &keys[skip..]);
        self.sent += keys.len();
    }

    /// Plays racer `id`'s `keys` into their round. The server took them, so the rules
    /// take them too; one that doesn't read is dropped.
    fn land(&mut self, id: u32, keys: &[Sent]) {
        let Some(rival) = self.of_mut(id) else {
            return;
        };
        for &(t, op) in keys {
            if let Ok(op) = Op::from_code(op.into()) {
                let _ = rival.round.apply(t, op);
                rival.trail.mark(race::progress(&rival.round), t);
            }
        }
    }

    /// The racers still in it, leader first, each with their place in the text in
    /// characters.
    pub fn order(&self, out: &[u32]) -> Vec<(u32, u32)> {
        // Ahead first; between equals, who got there first. By insertion: sixteen
        // racers at most, and the slice sorts would cost the wasm 13 KB.
        let mut order: Vec<(u32, u32, u32)> = vec![];
        for r in self.rounds.iter().filter(|r| !out.contains(&r.id)) {
            let at = race::progress(&r.round);
            let when = r.trail.when(at).unwrap_or(u32::MAX);
            let place = order
                .iter()
                .position(|&(_, a, w)| (at, core::cmp::Reverse(when)) > (a, core::cmp::Reverse(w)))
                .unwrap_or(order.len());
            order.insert(place, (r.id, at, when));
        }
        order.into_iter().map(|(id, at, _)| (id, at)).collect()
    }

    /// How `a` stands against `b` at round time `t`: positive when `a` is ahead.
    pub fn lead(&self, a: u32, b: u32, t: u32) -> Option<Lead> {
        let (a, b) = (self.of(a)?, self.of(b)?);
        Some(race::lead(
            race::progress(&a.round),
            &a.trail,
            race::progress(&b.round),
            &b.trail,
            t,
        ))
    }

    /// Racer `id`'s round as a replay, and what it scores, once it is over.
    pub fn scored(&self, id: u32) -> Option<(Replay, Score)> {
        let round = &self.of(id)?.round;
        Some((round.replay(), round.score()?))
    }
}

impl Live {
    /// A room being opened for `mode`, or joined by `code`.
    pub fn new(mode: Mode, code: Option<String>) -> Live {
        Live {
            code,
            link: None,
            mode,
            text: None,
            naming: None,
            name: None,
            connected: false,
            you: None,
            owner: 0,
            resume: None,
            phase: Phase::Lobby,
            racers: vec![],
            go_at: None,
            race: None,
            results: None,
            row: 0,
            since: 0.0,
            note: None,
            note_until: None,
            welcomed: false,
            lobby_at: None,
            rematching: false,
            retry: None,
        }
    }

    /// Says `text` for a moment: what a key just did.
    pub fn flash(&mut self, text: &str, now: f64) {
        self.note = Some((text.into(), Tone::Dim));
        self.note_until = Some(now + FLASH_MS);
    }

    /// Says `note` until something else is said.
    pub fn say(&mut self, note: Option<(String, Tone)>) {
        self.note = note;
        self.note_until = None;
    }

    /// Leaves the last race's results for the lobby.
    pub fn back_to_lobby(&mut self) {
        self.race = None;
        self.results = None;
        self.row = 0;
        self.lobby_at = None;
        self.rematching = false;
    }

    /// Racer `id`'s name.
    pub fn name_of(&self, id: u32) -> &str {
        self.racers
            .iter()
            .find(|r| r.id == id)
            .map_or("someone", |r| r.name.as_str())
    }

    /// A finisher's headline as the server scored it, in the room's mode's unit: `92 wpm`,
    /// `31 words`.
    pub fn headline(&self, finish: &Finish) -> Headline {
        Headline {
            value: finish.headline,
            unit: self.mode.unit(),
        }
    }

    /// Whether racer `id` is a guest: a name for this room only.
    pub fn is_guest(&self, id: u32) -> bool {
        self.racers.iter().any(|r| r.id == id && r.guest)
    }

    /// Racer `id`'s state.
    pub fn state_of(&self, id: u32) -> Option<State> {
        self.racers.iter().find(|r| r.id == id).map(|r| r.state)
    }

    /// Racers who are out, or gone for good, and so have no place.
    pub fn out(&self) -> Vec<u32> {
        let out = |r: &&Racer| r.state == State::Out;
        self.racers.iter().filter(out).map(|r| r.id).collect()
    }

    /// You race in it (not a spectator).
    pub fn racing(&self) -> bool {
        self.you.is_some()
    }

    /// Your round, while the race runs.
    pub fn mine(&self) -> Option<&Rival> {
        self.race.as_ref()?.of(self.you?)
    }

    /// The hello to send on connecting: the secret to take a seat back if there is one,
    /// else a linked player's token, else the room's name.
    pub fn hello(&self, token: Option<&str>) -> Ask {
        Ask::Hello {
            name: self.name.clone(),
            token: token.map(str::to_owned),
            resume: self.resume.clone(),
        }
    }

    /// A fresh round of the room's race on `seed`: its mode's text, or its own. (A custom
    /// room whose text doesn't play is left at its welcome; until then its rounds are an
    /// empty ZEN, never drawn.)
    pub fn blank(&self, seed: u64) -> Round {
        match &self.text {
            Some(text) if self.mode.base() == typepper_engine::Base::Custom => {
                Round::custom_in(self.mode, text, seed)
                    .unwrap_or_else(|_| Round::new(Mode::ZEN, seed))
            }
            Some(_) => Round::new(Mode::ZEN, seed),
            None if self.mode.base() == typepper_engine::Base::Custom => {
                Round::new(Mode::ZEN, seed)
            }
            None => Round::new(self.mode, seed),
        }
    }

    /// What opens this room on the server: its mode, and a custom room's text.
    pub fn open(&self) -> Open {
        Open {
            mode: self.mode.key(),
            text: self.text.clone(),
        }
    }

    /// The text came at `now`: every racer in the lobby races.
    pub fn go(&mut self, seed: u64, now: f64) {
        let ids = self
            .racers
            .iter()
            .filter(|r| r.state != State::Out)
            .map(|r| r.id);
        self.race = Some(Race::new(
            &self.blank(seed),
            now,
            ids.collect::<Vec<_>>().into_iter(),
        ));
        self.go_at = None;
        self.phase = Phase::Racing;
    }

    /// Back in a race already under way (a resumed seat, or a spectator arriving): the
    /// round is `at` ms along at `now`, and `keys` were yours.
    pub fn resumed(&mut self, seed: u64, at: u32, keys: &[Sent], now: f64) {
        // The lobby's list comes after the resume: your own round can't wait for it.
        let mut ids: Vec<u32> = self.racers.iter().map(|r| r.id).collect();
        ids.extend(self.you.filter(|you| !ids.contains(you)));
        let mut race = Race::new(&self.blank(seed), now - f64::from(at), ids.into_iter());
        // A seat taken back by this game keeps the round it has: keys typed while the
        // connection was down go out now. A reloaded game starts from the server's. The
        // others' rounds start again: their keys so far come next.
        let kept = self.you.and_then(|you| {
            let mine = self.race.as_ref()?.of(you)?;
            (mine.round.seed() == seed).then(|| mine.clone())
        });
        if let Some(you) = self.you {
            if let (Some(mine), Some(slot)) = (kept, race.of_mut(you)) {
                *slot = mine;
            }
            race.yours(you, keys);
        }
        self.race = Some(race);
        self.go_at = None;
        self.phase = Phase::Racing;
    }

    /// Racer `id`'s keys, as the server took them: yours only after a resume, the rest
    /// of its copy of your round.
    pub fn keys(&mut self, id: u32, keys: &[Sent]) {
        if let Some(race) = &mut self.race
            && self.you == Some(id)
        {
            race.yours(id, keys);
            return;
        }
        // A racer who joined the lobby after this game's text came has no round yet.
        let seed = self.race.as_ref().and_then(|race| {
            let first = race.rounds.first().map_or(0, |r| r.round.seed());
            race.of(id).is_none().then_some(first)
        });
        let blank = seed.map(|seed| self.blank(seed));
        if let Some(race) = &mut self.race {
            if let Some(round) = blank {
                race.rounds.push(Rival {
                    id,
                    round,
                    trail: Trail::default(),
                });
            }
            race.land(id, keys);
        }
    }

    /// Your keys not yet sent, a message's worth at most: what goes out this frame.
    pub fn outgoing(&mut self) -> Option<Ask> {
        let you = self.you?;
        let race = self.race.as_mut().filter(|_| self.connected)?;
        let round = &race.of(you)?.round;
        // Most frames have no new key: the replay below is a copy of every input.
        if round.inputs() <= race.sent {
            return None;
        }
        // The round's own inputs are the keys: ctrl-backspace is backspaces already.
        let keys: Vec<Sent> = round
            .replay()
            .timeline()
            .skip(race.sent)
            .take(MAX_KEYS_PER_MESSAGE)
            .map(|(t, op)| (t.unwrap_or(u32::MAX), op.code()))
            .collect();
        if keys.is_empty() {
            return None;
        }
        race.sent += keys.len();
        Some(Ask::Keys(keys))
    }

    /// The connection went: keys sent but maybe not received are sent again after the
    /// resume, which says which the server has.
    pub fn lost(&mut self) {
        self.connected = false;
        self.welcomed = false;
    }
}

/// What became of a finished round, as the results say it (`ranked`, `unranked: …`,
/// `pending: …`, `not stored: …`), and its colour: a ranked round won, a round not stored
/// lost, the rest dim. The reasons are the server's sentences.
pub fn kept(kept: &Kept) -> (String, Tone) {
    match kept {
        Kept::Ranked => ("ranked".into(), Tone::Ahead),
        Kept::Unranked { why } => (format!("unranked: {why}"), Tone::Dim),
        Kept::Pending { why } => (format!("pending: {why}"), Tone::Dim),
        Kept::NotStored { why, .. } => (format!("not stored: {why}"), Tone::Wrong),
    }
}

/// The seat this game last held in a room, as kept under [`crate::storage::ROOM`]: `<code>
/// <secret> <name>`, to take it back after a reload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The room's code.
    pub code: String,
    /// The seat's secret.
    pub secret: String,
    /// The name raced under, for a player who never linked; empty for a linked one.
    pub name: String,
}

impl core::fmt::Display for Seat {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} {} {}", self.code, self.secret, self.name)
    }
}

impl Seat {
    /// A kept seat, if it reads.
    pub fn parse(text: &str) -> Option<Seat> {
        let mut parts = text.split_whitespace();
        let (code, secret) = (parts.next()?, parts.next()?);
        is_code(code).then(|| Seat {
            code: code.into(),
            secret: secret.into(),
            name: parts.next().unwrap_or_default().into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server sends a finisher's number; the game words it in its room's unit, as the
    /// engine words any headline.
    #[test]
    fn a_finisher_s_headline_is_worded_in_the_room_s_unit() {
        let finish = |headline| Finish {
            racer: 1,
            headline,
            run: None,
            share: None,
            kept: Kept::Ranked,
        };
        let blitz = Live::new(Mode::BLITZ_15, None);
        assert_eq!(blitz.headline(&finish(92)).to_string(), "92 wpm");
        let pursuit = Live::new(Mode::pursuit(1).expect("a level"), None);
        assert_eq!(pursuit.headline(&finish(31)).to_string(), "31 words");
        assert_eq!(pursuit.headline(&finish(1)).to_string(), "1 word");
    }

    #[test]
    fn what_became_of_a_round_is_worded_once_with_its_colour() {
        let why = || "a reason".to_owned();
        let table = [
            (Kept::Ranked, "ranked", Tone::Ahead),
            (
                Kept::Unranked { why: why() },
                "unranked: a reason",
                Tone::Dim,
            ),
            (Kept::Pending { why: why() }, "pending: a reason", Tone::Dim),
            (
                Kept::not_stored("copy", "a reason"),
                "not stored: a reason",
                Tone::Wrong,
            ),
        ];
        for (value, words, tone) in table {
            assert_eq!(kept(&value), (words.to_owned(), tone));
        }
    }
}
