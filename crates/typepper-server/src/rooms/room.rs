//! One live room's rules, apart from its sockets: who is in it, where it is, and each
//! racer's keys played through the engine as they arrive. Time is an argument, in ms on
//! the hub's clock, so that every rule is a plain test.
//!
//! Each call returns what to say to whom; the hub sends it.

use typepper_api::room::{
    CLOCK_ALLOWANCE_MS, COUNTDOWN_MS, Finish, Key, MAX_KEYS_PER_MESSAGE, MAX_RACERS, Phase, Racer,
    Say, State,
};
use typepper_engine::{Mode, Op, Replay, Round};

use crate::store::PlayerId;

/// Most keys in one `keys` message of a catch-up (a late spectator's, a racer's coming
/// back): the widest key, `[4294967295,4294967295],`, is 24 bytes, so 320 of them stay
/// under NOTIFY's 8000 bytes with the message around them. The longest race, 16 racers'
/// 10 minutes at 150 wpm, catches up in 375 messages; the connection's outbox makes room
/// for them (the hub's `join`).
pub const CATCH_UP_KEYS: usize = 320;

/// How long after the text a racer may take to type a first key before they are out.
pub const START_GRACE_MS: u64 = 15_000;

/// The longest a race may last after the text, whatever its mode: ZEN and HOT PURSUIT
/// end when their racers end them, but a room doesn't wait forever.
pub const MAX_RACE_MS: u64 = 10 * 60 * 1000;

/// Who a message is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    /// Everyone connected: racers and spectators.
    All,
    /// One racer.
    One(u32),
    /// Everyone but this racer.
    Others(u32),
}

/// What to say, to whom.
pub type Said = Vec<(To, Say)>;

/// Someone who asked to join: a name, and the player it is if linked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Joiner {
    /// The name they race under.
    pub name: String,
    /// Their player, if linked.
    pub player: Option<PlayerId>,
    /// Their address: a guest's stored rounds count against it.
    pub from: std::net::IpAddr,
}

/// A racer's place in the room.
#[derive(Debug)]
pub struct Seat {
    /// Their number.
    pub id: u32,
    /// Who.
    pub who: Joiner,
    /// Their secret to come back with.
    resume: String,
    state: State,
    /// Their round, from the text on.
    round: Option<Round>,
    /// Every key the server took from them, in order.
    keys: Vec<Key>,
    /// A connection holds the seat.
    connected: bool,
    /// Why their finished round is too small to store, though it stands in the results.
    unkept: Option<String>,
}

impl Seat {
    /// Their round, once the text came.
    pub fn round(&self) -> Option<&Round> {
        self.round.as_ref()
    }

    /// What they are doing.
    pub fn state(&self) -> State {
        self.state
    }
}

/// A live room.
#[derive(Debug)]
pub struct Room {
    code: String,
    mode: Mode,
    owner: Option<u32>,
    next_id: u32,
    seats: Vec<Seat>,
    phase: Phase,
    seed: u64,
    /// When the text comes (in the countdown) or came (racing, over), in ms.
    go_at: u64,
    /// Races run so far: the results of each are told once.
    races: u32,
    /// The link that joins it, as its welcome says.
    link: Option<String>,
}

/// A finished round, best first among its room's: what the results say of it, and whose
/// to store it as.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The results' row, without its run until stored.
    pub finish: Finish,
    /// Whose to store it as; `None` for a round too small to keep.
    pub keeper: Option<Keeper>,
    /// The round.
    pub replay: Replay,
}

/// Whose a finished round is to be stored as.
#[derive(Clone, Debug)]
pub enum Keeper {
    /// A linked racer's player.
    Player(PlayerId),
    /// A guest, who never linked: a name for the room, from an address.
    Guest {
        name: String,
        from: std::net::IpAddr,
    },
}

impl Room {
    /// A room of `mode` whose race will be on `seed`, its code `code`.
    pub fn new(code: String, mode: Mode, seed: u64) -> Room {
        Room {
            code,
            mode,
            owner: None,
            next_id: 1,
            seats: vec![],
            phase: Phase::Lobby,
            seed,
            go_at: 0,
            races: 0,
            link: None,
        }
    }

    /// The room, its welcome saying `link` joins it.
    pub fn linked(self, link: String) -> Room {
        Room {
            link: Some(link),
            ..self
        }
    }

    /// Races run so far, counting one under way.
    pub fn races(&self) -> u32 {
        self.races
    }

    /// Its code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// Its mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Where it is.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Its racers.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// Whether anyone holds a seat.
    pub fn is_empty(&self) -> bool {
        self.seats.iter().all(|s| !s.connected)
    }

    /// The round time at `now`, from the text.
    fn round_time(&self, now: u64) -> u32 {
        u32::try_from(now.saturating_sub(self.go_at)).unwrap_or(u32::MAX)
    }

    fn lobby(&self) -> Say {
        let racers = self.seats.iter();
        let racers = racers.map(|s| Racer {
            id: s.id,
            name: s.who.name.clone(),
            state: s.state,
        });
        Say::Lobby {
            phase: self.phase,
            racers: racers.collect(),
        }
    }

    fn welcome(&self, seat: Option<&Seat>) -> Say {
        Say::Welcome {
            room: self.code.clone(),
            mode: self.mode.key(),
            you: seat.map(|s| s.id),
            resume: seat.map(|s| s.resume.clone()),
            owner: self.owner.unwrap_or(0),
            link: self.link.clone(),
        }
    }

    /// What a spectator is told on joining at `now`: the room, who is in it, and where
    /// the race is, with every racer's keys so far, so that it watches from the start.
    pub fn greeting(&self, now: u64) -> Vec<Say> {
        let mut out = vec![self.welcome(None), self.lobby()];
        out.extend(self.so_far(now, None));
        out
    }

    /// Where the race is at `now`, for a connection arriving late: the countdown left, or
    /// the round time with every racer's keys but `except`'s (whose own come in its
    /// [`Say::Resume`]), a message's worth at a time.
    fn so_far(&self, now: u64, except: Option<u32>) -> Vec<Say> {
        match self.phase {
            Phase::Countdown => {
                let left = self.go_at.saturating_sub(now);
                vec![Say::Countdown(u32::try_from(left).unwrap_or(COUNTDOWN_MS))]
            }
            Phase::Racing => {
                let mut out = vec![];
                if except.is_none() {
                    let (seed, at) = (self.seed, self.round_time(now));
                    out.push(Say::Resume {
                        seed,
                        at,
                        keys: vec![],
                    });
                }
                for seat in self.seats.iter().filter(|s| Some(s.id) != except) {
                    for keys in seat.keys.chunks(CATCH_UP_KEYS) {
                        out.push(Say::Keys {
                            racer: seat.id,
                            keys: keys.to_vec(),
                        });
                    }
                }
                out
            }
            Phase::Lobby | Phase::Over => vec![],
        }
    }

    /// `who` joins, given `resume` as the secret to come back with: a racer in the lobby
    /// while there is room, else a spectator (`None`). Refused when the name is taken.
    pub fn join(&mut self, who: Joiner, resume: String) -> Result<(Option<u32>, Said), String> {
        let taken = |s: &Seat| s.who.name.eq_ignore_ascii_case(&who.name);
        if self.seats.iter().any(taken) {
            return Err(format!("{} is already in this room", who.name));
        }
        if self.phase != Phase::Lobby || self.seats.len() >= MAX_RACERS {
            // A spectator: the hub tells its connection the room's [`Room::greeting`].
            return Ok((None, vec![]));
        }
        let id = self.next_id;
        self.next_id += 1;
        self.owner.get_or_insert(id);
        self.seats.push(Seat {
            id,
            who,
            resume,
            state: State::Waiting,
            round: None,
            keys: vec![],
            connected: true,
            unkept: None,
        });
        let seat = self.seats.last();
        let said = vec![(To::One(id), self.welcome(seat)), (To::All, self.lobby())];
        Ok((Some(id), said))
    }

    /// The racer whose secret is `resume` comes back at `now`: refused if the secret is no
    /// one's, or a connection holds the seat already.
    pub fn resume(&mut self, resume: &str, now: u64) -> Result<(u32, Said), String> {
        let at = self.round_time(now);
        let (phase, seed) = (self.phase, self.seed);
        let Some(seat) = self.seats.iter_mut().find(|s| s.resume == resume) else {
            return Err("that seat is no one's in this room".into());
        };
        if seat.connected {
            return Err(format!("{} is connected already", seat.who.name));
        }
        seat.connected = true;
        if seat.state == State::Gone {
            seat.state = if seat.round.is_some() {
                State::Typing
            } else {
                State::Waiting
            };
        }
        let id = seat.id;
        let mut said = vec![];
        let seat = self.seats.iter().find(|s| s.id == id);
        said.push((To::One(id), self.welcome(seat)));
        if phase == Phase::Racing
            && let Some(seat) = seat
        {
            let keys = seat.keys.clone();
            said.push((To::One(id), Say::Resume { seed, at, keys }));
        }
        let others = self.so_far(now, Some(id));
        said.extend(others.into_iter().map(|say| (To::One(id), say)));
        said.push((To::All, self.lobby()));
        Ok((id, said))
    }

    /// Racer `id` is ready, or no longer.
    pub fn ready(&mut self, id: u32) -> Result<Said, String> {
        if self.phase != Phase::Lobby {
            return Err("the race has begun".into());
        }
        let seat = self.seat(id)?;
        seat.state = match seat.state {
            State::Ready => State::Waiting,
            _ => State::Ready,
        };
        Ok(vec![(To::All, self.lobby())])
    }

    /// Racer `id` starts the countdown at `now`: the owner may, or anyone once every
    /// racer is ready.
    pub fn start(&mut self, id: u32, now: u64) -> Result<Said, String> {
        if self.phase != Phase::Lobby {
            return Err("the race has begun".into());
        }
        let everyone_ready = self.seats.iter().all(|s| s.state == State::Ready);
        if self.owner != Some(id) && !everyone_ready {
            return Err("the room's owner starts the race, or everyone is ready".into());
        }
        self.phase = Phase::Countdown;
        self.go_at = now + u64::from(COUNTDOWN_MS);
        Ok(vec![
            (To::All, Say::Countdown(COUNTDOWN_MS)),
            (To::All, self.lobby()),
        ])
    }

    /// Racer `id`'s `keys`, arrived at `now`: played through their round and passed on to
    /// everyone else. A key claimed further ahead of the server's round time than
    /// [`CLOCK_ALLOWANCE_MS`], or that the engine refuses, puts them out.
    pub fn keys(&mut self, id: u32, keys: &[Key], now: u64) -> Result<Said, String> {
        if keys.len() > MAX_KEYS_PER_MESSAGE {
            return Err(format!(
                "at most {MAX_KEYS_PER_MESSAGE} keys a message; this had {}",
                keys.len()
            ));
        }
        match self.phase {
            Phase::Lobby | Phase::Countdown => return Err("the race hasn't started".into()),
            Phase::Over => return Err("the race is over".into()),
            Phase::Racing => {}
        }
        let at = self.round_time(now);
        let seat = self.seat(id)?;
        match seat.state {
            State::Typing => {}
            State::Done => return Err("your round is over".into()),
            _ => return Err("you are not racing".into()),
        }
        let Some(round) = seat.round.as_mut() else {
            return Err("you are not racing".into());
        };
        let mut out = None;
        let mut taken = vec![];
        for &(t, code) in keys {
            if t > at.saturating_add(CLOCK_ALLOWANCE_MS) {
                out = Some(format!(
                    "a key claimed at {t} ms of the round reached the server at {at} ms: \
                     before it could have been sent"
                ));
                break;
            }
            let op = match Op::from_code(code.into()) {
                Ok(op) => op,
                Err(e) => {
                    out = Some(format!("a key the game can't type: {e}"));
                    break;
                }
            };
            if let Err(e) = round.apply(t, op) {
                out = Some(format!("a key the round refused: {e}"));
                break;
            }
            taken.push((t, code));
        }
        seat.keys.extend_from_slice(&taken);
        let mut said = vec![];
        if !taken.is_empty() {
            said.push((
                To::Others(id),
                Say::Keys {
                    racer: id,
                    keys: taken,
                },
            ));
        }
        if let Some(why) = out {
            seat.state = State::Out;
            said.push((To::All, Say::Out { racer: id, why }));
            said.push((To::All, self.lobby()));
        }
        said.extend(self.tick(now));
        Ok(said)
    }

    /// After the results, the same room again on `seed`: everyone still here back in the
    /// lobby, waiting.
    pub fn rematch(&mut self, seed: u64) -> Result<Said, String> {
        if self.phase != Phase::Over {
            return Err("a rematch comes after the results".into());
        }
        self.seats.retain(|s| s.connected);
        for seat in &mut self.seats {
            seat.state = State::Waiting;
            seat.round = None;
            seat.keys.clear();
            seat.unkept = None;
        }
        if !self.seats.iter().any(|s| Some(s.id) == self.owner) {
            self.owner = self.seats.first().map(|s| s.id);
        }
        self.phase = Phase::Lobby;
        self.seed = seed;
        Ok(vec![(To::All, self.lobby())])
    }

    /// Racer `id` leaves: gone from the lobby, or out of the race for good.
    pub fn leave(&mut self, id: u32, now: u64) -> Said {
        if self.phase == Phase::Lobby {
            self.seats.retain(|s| s.id != id);
            if self.owner == Some(id) {
                self.owner = self.seats.first().map(|s| s.id);
            }
        } else if let Ok(seat) = self.seat(id) {
            seat.connected = false;
            seat.resume.clear();
            if matches!(seat.state, State::Typing | State::Waiting | State::Ready) {
                seat.state = State::Gone;
            }
        }
        let mut said = vec![(To::All, self.lobby())];
        said.extend(self.tick(now));
        said
    }

    /// Racer `id`'s connection went: they may come back within the round.
    pub fn disconnect(&mut self, id: u32, now: u64) -> Said {
        if self.phase == Phase::Lobby {
            return self.leave(id, now);
        }
        if let Ok(seat) = self.seat(id) {
            seat.connected = false;
            if seat.state == State::Typing {
                seat.state = State::Gone;
            }
        }
        let mut said = vec![(To::All, self.lobby())];
        said.extend(self.tick(now));
        said
    }

    /// The clock at `now`: the text when the countdown ends; each round over when its
    /// engine says so, or when its racer never began; the results when every round is.
    pub fn tick(&mut self, now: u64) -> Said {
        let mut said = vec![];
        if self.phase == Phase::Countdown && now >= self.go_at {
            self.phase = Phase::Racing;
            self.races += 1;
            for seat in &mut self.seats {
                seat.round = Some(Round::new(self.mode, self.seed));
                if matches!(seat.state, State::Waiting | State::Ready) {
                    seat.state = State::Typing;
                }
            }
            said.push((To::All, Say::Go(self.seed)));
            said.push((To::All, self.lobby()));
        }
        if self.phase != Phase::Racing {
            return said;
        }
        let at = self.round_time(now);
        let mut changed = false;
        for seat in &mut self.seats {
            let Some(round) = &seat.round else { continue };
            let typing = matches!(seat.state, State::Typing | State::Gone);
            if typing && round.is_over(at) {
                // The same checks as a submission's: a round no person types is out; one
                // too small to keep still finished, and says why it is not stored.
                seat.state = match judge(round) {
                    Ok(()) => State::Done,
                    Err(Refusal::Small(why)) => {
                        seat.unkept = Some(why);
                        State::Done
                    }
                    Err(Refusal::Cheat(why)) => {
                        said.push((
                            To::All,
                            Say::Out {
                                racer: seat.id,
                                why,
                            },
                        ));
                        State::Out
                    }
                };
                changed = true;
            } else if typing && round.started().is_none() && u64::from(at) > START_GRACE_MS {
                seat.state = State::Out;
                let why = format!("no key in the first {} s", START_GRACE_MS / 1000);
                said.push((
                    To::All,
                    Say::Out {
                        racer: seat.id,
                        why,
                    },
                ));
                changed = true;
            }
        }
        let racing = |s: &Seat| matches!(s.state, State::Typing | State::Gone);
        if !self.seats.iter().any(racing) || u64::from(at) > MAX_RACE_MS {
            // The results come once the linked racers' rounds are stored (the hub).
            self.phase = Phase::Over;
            changed = true;
        }
        if changed {
            said.push((To::All, self.lobby()));
        }
        said
    }

    /// When the last race's text came, on the rooms' clock.
    pub fn went(&self) -> u64 {
        self.go_at
    }

    /// Every finished round of the race, best first.
    pub fn finished(&self) -> Vec<Finished> {
        let mut done: Vec<_> = self
            .seats
            .iter()
            .filter(|s| s.state == State::Done)
            .filter_map(|s| Some((s, s.round.as_ref()?)))
            .filter_map(|(s, round)| Some((s, round, round.score()?)))
            .collect();
        done.sort_by_key(|(_, _, score)| std::cmp::Reverse(score.headline().value));
        done.into_iter()
            .map(|(seat, round, score)| Finished {
                finish: Finish {
                    racer: seat.id,
                    headline: score.headline().to_string(),
                    run: None,
                    share: None,
                    kept: format!(
                        "not stored: {}",
                        seat.unkept.as_deref().unwrap_or("not yet")
                    ),
                },
                // Nothing to store of a round too small to keep.
                keeper: match (&seat.unkept, seat.who.player) {
                    (Some(_), _) => None,
                    (None, Some(player)) => Some(Keeper::Player(player)),
                    (None, None) => Some(Keeper::Guest {
                        name: seat.who.name.clone(),
                        from: seat.who.from,
                    }),
                },
                replay: round.replay(),
            })
            .collect()
    }

    fn seat(&mut self, id: u32) -> Result<&mut Seat, String> {
        self.seats
            .iter_mut()
            .find(|s| s.id == id)
            .ok_or_else(|| "you are not a racer in this room".into())
    }
}

/// Why a finished round is not kept.
enum Refusal {
    /// Too little of it to store (too short, too few keys, nothing scored): a person's
    /// round all the same.
    Small(String),
    /// Timing or speed no person produces, or a round the rules refuse.
    Cheat(String),
}

/// A finished round judged as a submission of it would be.
fn judge(round: &Round) -> Result<(), Refusal> {
    let replay = round.replay();
    let bytes = replay.encode();
    let claim = round.score().map_or(0, |s| s.headline().value);
    let entry = crate::submit::Entry {
        claim,
        replay,
        bytes: &bytes,
    };
    crate::submit::judge(&entry).map(drop).map_err(|e| {
        use crate::refusal::Refusal as Why;
        let small = matches!(
            e,
            Why::TooLittle { .. } | Why::TooShort | Why::DidNothing { .. } | Why::ScoresNothing(_)
        );
        if small {
            Refusal::Small(e.to_string())
        } else {
            Refusal::Cheat(e.to_string())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use typepper_engine::synth::{Typist, synth};

    fn joiner(name: &str) -> Joiner {
        Joiner {
            name: name.into(),
            player: None,
            from: std::net::IpAddr::from([127, 0, 0, 1]),
        }
    }

    /// A room of BLITZ 15s with ada (the owner) and grace, racing from `go`.
    fn racing() -> (Room, u64) {
        let mut room = Room::new("k3fq7m2x".into(), Mode::BLITZ_15, 42);
        room.join(joiner("ada"), "sa".into()).unwrap();
        room.join(joiner("grace"), "sg".into()).unwrap();
        room.start(1, 1_000).unwrap();
        let go = 1_000 + u64::from(COUNTDOWN_MS);
        let said = room.tick(go);
        assert!(said.iter().any(|(_, s)| *s == Say::Go(42)));
        (room, go)
    }

    /// A typist's keys for the room's round, as `[t, op]`.
    fn typed(room: &Room, wpm: u32) -> Vec<Key> {
        let typist = Typist {
            wpm,
            ..Typist::default()
        };
        let replay = synth(room.mode(), 42, &typist);
        let timeline = replay.timeline();
        timeline
            .filter_map(|(t, op)| Some((t?, op.code())))
            .collect()
    }

    #[test]
    fn only_the_owner_starts_until_everyone_is_ready() {
        let mut room = Room::new("k3fq7m2x".into(), Mode::BLITZ_15, 42);
        room.join(joiner("ada"), "sa".into()).unwrap();
        room.join(joiner("grace"), "sg".into()).unwrap();
        assert!(room.start(2, 0).is_err());
        room.ready(1).unwrap();
        room.ready(2).unwrap();
        assert!(room.start(2, 0).is_ok());
        assert_eq!(room.phase(), Phase::Countdown);
    }

    #[test]
    fn a_taken_name_is_refused_and_a_late_joiner_watches() {
        let (mut room, _) = racing();
        let err = room.join(joiner("ADA"), "x".into()).unwrap_err();
        assert_eq!(err, "ADA is already in this room");
        let (you, _) = room.join(joiner("linus"), "sl".into()).unwrap();
        assert_eq!(you, None);
    }

    #[test]
    fn keys_are_played_and_passed_on_and_the_round_ends_by_the_engine() {
        let (mut room, go) = racing();
        let keys = typed(&room, 90);
        let mut said = vec![];
        for chunk in keys.chunks(8) {
            let last = u64::from(chunk.last().unwrap().0);
            said.extend(room.keys(1, chunk, go + last + 30).unwrap());
        }
        let passed: usize = said
            .iter()
            .filter_map(|(to, s)| match s {
                Say::Keys { racer: 1, keys } if *to == To::Others(1) => Some(keys.len()),
                _ => None,
            })
            .sum();
        assert_eq!(passed, keys.len());
        // grace never types: out after the grace, and then the room is over.
        said.extend(room.tick(go + START_GRACE_MS + 1));
        assert!(
            said.iter()
                .any(|(_, s)| matches!(s, Say::Out { racer: 2, .. }))
        );
        assert_eq!(room.phase(), Phase::Over);
        let rows = room.finished();
        assert_eq!(rows.len(), 1);
        let typist = Typist {
            wpm: 90,
            ..Typist::default()
        };
        let (_, score) = synth(Mode::BLITZ_15, 42, &typist).play().unwrap();
        assert_eq!(rows[0].finish.headline, score.headline().to_string());
        assert_eq!(rows[0].replay.play().unwrap().1, score);
    }

    #[test]
    fn a_round_too_small_to_keep_is_a_finish_that_is_not_stored() {
        let (mut room, go) = racing();
        let keys = typed(&room, 60);
        // ada types the round through; grace, one word, then nothing.
        for chunk in keys.chunks(8) {
            let last = u64::from(chunk.last().unwrap().0);
            room.keys(1, chunk, go + last + 30).unwrap();
        }
        room.keys(2, &keys[..6], go + 2_000).unwrap();
        let said = room.tick(go + 16_000);
        assert!(!said.iter().any(|(_, s)| matches!(s, Say::Out { .. })));
        assert_eq!(room.phase(), Phase::Over);
        let rows = room.finished();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].finish.racer, 2);
        assert!(
            rows[1]
                .finish
                .kept
                .starts_with("not stored: too little typing to keep"),
            "{}",
            rows[1].finish.kept
        );
    }

    #[test]
    fn a_late_spectator_and_a_racer_back_get_the_race_so_far() {
        let (mut room, go) = racing();
        let keys = typed(&room, 90);
        let (ada, grace) = (&keys[..70], &keys[..10]);
        for chunk in ada.chunks(8) {
            let last = u64::from(chunk.last().unwrap().0);
            room.keys(1, chunk, go + last + 30).unwrap();
        }
        let late = go + u64::from(ada.last().unwrap().0) + 40;
        room.keys(2, grace, late).unwrap();
        // A spectator: the round time, then each racer's keys, a message's worth at a time.
        let greeting = room.greeting(late);
        let keys_of = |said: &[Say], racer: u32| -> Vec<Key> {
            said.iter()
                .filter_map(|s| match s {
                    Say::Keys { racer: r, keys } if *r == racer => Some(keys.clone()),
                    _ => None,
                })
                .flatten()
                .collect()
        };
        let at = u32::try_from(late - go).unwrap();
        assert!(greeting.contains(&Say::Resume {
            seed: 42,
            at,
            keys: vec![]
        }));
        assert_eq!(keys_of(&greeting, 1), ada);
        assert_eq!(keys_of(&greeting, 2), grace);
        assert!(greeting.iter().all(|s| match s {
            Say::Keys { keys, .. } => keys.len() <= CATCH_UP_KEYS,
            _ => true,
        }));
        // Grace's connection drops and comes back: her own keys in the resume, ada's after.
        room.disconnect(2, late);
        let (_, said) = room.resume("sg", late + 500).unwrap();
        let to_her: Vec<Say> = said
            .into_iter()
            .filter(|(to, _)| *to == To::One(2))
            .map(|(_, s)| s)
            .collect();
        assert!(to_her.contains(&Say::Resume {
            seed: 42,
            at: at + 500,
            keys: grace.to_vec()
        }));
        assert_eq!(keys_of(&to_her, 1), ada);
        assert!(keys_of(&to_her, 2).is_empty());
    }

    #[test]
    fn a_key_claimed_before_it_could_have_been_sent_puts_its_racer_out() {
        let (mut room, go) = racing();
        let said = room.keys(1, &[(500, 'a' as u32 + 2)], go + 200).unwrap();
        let why = said.iter().find_map(|(_, s)| match s {
            Say::Out { racer: 1, why } => Some(why.clone()),
            _ => None,
        });
        assert!(why.unwrap().contains("before it could have been sent"));
        assert!(room.keys(1, &[(600, 'b' as u32 + 2)], go + 700).is_err());
    }

    #[test]
    fn keys_before_the_text_or_after_the_end_are_refused() {
        let mut room = Room::new("k3fq7m2x".into(), Mode::BLITZ_15, 42);
        room.join(joiner("ada"), "sa".into()).unwrap();
        assert_eq!(
            room.keys(1, &[(0, 99)], 0).unwrap_err(),
            "the race hasn't started"
        );
        room.start(1, 0).unwrap();
        let go = u64::from(COUNTDOWN_MS);
        room.tick(go);
        let keys = typed(&room, 80);
        for chunk in keys.chunks(16) {
            let last = u64::from(chunk.last().unwrap().0);
            room.keys(1, chunk, go + last + 30).unwrap();
        }
        room.tick(go + 20_000);
        assert_eq!(room.phase(), Phase::Over);
        assert_eq!(
            room.keys(1, &[(20_000, 99)], go + 20_000).unwrap_err(),
            "the race is over"
        );
    }

    #[test]
    fn a_lost_racer_comes_back_to_their_keys_and_a_second_connection_is_refused() {
        let (mut room, go) = racing();
        let keys = typed(&room, 80);
        room.keys(1, &keys[..10], go + 5_000).unwrap();
        assert_eq!(
            room.resume("sa", go + 5_100).unwrap_err(),
            "ada is connected already"
        );
        room.disconnect(1, go + 5_200);
        assert_eq!(room.seats()[0].state(), State::Gone);
        let (id, said) = room.resume("sa", go + 6_000).unwrap();
        assert_eq!(id, 1);
        let resumed = said.iter().find_map(|(_, s)| match s {
            Say::Resume { at, keys, .. } => Some((*at, keys.clone())),
            _ => None,
        });
        assert_eq!(resumed, Some((6_000, keys[..10].to_vec())));
        assert_eq!(room.seats()[0].state(), State::Typing);
        assert!(room.resume("nobody", go).is_err());
    }
}
