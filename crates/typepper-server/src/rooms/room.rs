//! One live room's rules, apart from its sockets and its task: who is in it, where it is,
//! and each racer's keys played through the engine as they arrive. Time is an argument,
//! in ms on the rooms' clock, so that every rule is a plain test.
//!
//! Each call returns what to say to whom; the room's task sends it (`task.rs`).

use std::collections::VecDeque;
use std::sync::Arc;

use typepper_api::room::{
    CLOCK_ALLOWANCE_MS, COUNTDOWN_MS, Kept, Key, MAX_KEYS_PER_MESSAGE, MAX_RACERS, Phase, Racer,
    Say, State,
};
use typepper_engine::{Mode, Op, Replay, Round};

use super::echo::{self, Echo, Track};
use crate::store::PlayerId;

/// Most keys in one `keys` message of a catch-up (a late spectator's, a racer's coming
/// back): the widest key, `[4294967295,4294967295],`, is 24 bytes, so 300 of them stay
/// under NOTIFY's 8000 bytes with the message and the relay's envelope around them.
pub const CATCH_UP_KEYS: usize = 300;

/// Most keys a racer's round takes in any one second of its round time: twice the
/// fastest bursts people type (250 wpm is 21 a second). Keys are counted by the time
/// claimed for them, which can't run ahead of the server's clock, so a round holds at
/// most this many a second it lasts: [`MAX_ROUND_KEYS`] in the longest race.
pub const MAX_KEYS_PER_SECOND: usize = 40;

/// The most keys any racer's round can hold: [`MAX_KEYS_PER_SECOND`] for
/// [`MAX_RACE_MS`].
pub const MAX_ROUND_KEYS: usize = MAX_KEYS_PER_SECOND * (MAX_RACE_MS / 1000) as usize;

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
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Joiner {
    /// The name they race under.
    pub name: String,
    /// Their player, if linked; a guest has none.
    pub player: Option<PlayerId>,
    /// Their address: a guest's stored rounds count against it.
    pub from: std::net::IpAddr,
}

/// A racer's keys so far: whole chunks of [`CATCH_UP_KEYS`], shared with every catch-up
/// that reads them, and the chunk being filled.
#[derive(Clone, Debug, Default)]
struct Typed {
    sealed: Vec<Arc<[Key]>>,
    tail: Vec<Key>,
}

impl Typed {
    fn push(&mut self, key: Key) {
        self.tail.push(key);
        if self.tail.len() == CATCH_UP_KEYS {
            self.sealed.push(std::mem::take(&mut self.tail).into());
        }
    }

    /// Every key so far, a message's worth a chunk; only the last chunk is copied.
    fn snapshot(&self) -> Snapshot {
        let mut chunks = self.sealed.clone();
        if !self.tail.is_empty() {
            chunks.push(self.tail.as_slice().into());
        }
        Snapshot(chunks)
    }
}

/// A racer's keys at one moment, a message's worth a chunk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot(Vec<Arc<[Key]>>);

impl Snapshot {
    /// Every key, in order.
    pub fn keys(&self) -> impl Iterator<Item = Key> + '_ {
        self.0.iter().flat_map(|c| c.iter().copied())
    }

    /// The first chunk, and the rest.
    fn split_first(mut self) -> (Vec<Key>, Snapshot) {
        if self.0.is_empty() {
            return (vec![], self);
        }
        let first = self.0.remove(0).to_vec();
        (first, self)
    }
}

/// What a connection arriving late is told: a few messages, then each racer's keys so
/// far, read out a message at a time as the connection takes them. The keys are shared
/// with the room, so a reader that is slow to take them holds no copy of its own.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CatchUp {
    /// Said first, as they are.
    pub head: Vec<Say>,
    /// Then each racer's keys, as `keys` messages of [`CATCH_UP_KEYS`] at most.
    pub keys: Vec<(u32, Snapshot)>,
}

impl CatchUp {
    /// Every message, in order.
    pub fn messages(&self) -> impl Iterator<Item = Say> + '_ {
        let keys = self.keys.iter().flat_map(|(racer, snapshot)| {
            snapshot.0.iter().map(move |chunk| Say::Keys {
                racer: *racer,
                keys: chunk.to_vec(),
            })
        });
        self.head.iter().cloned().chain(keys)
    }
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
    typed: Typed,
    /// Where each of their characters went, and when: what an echo is told by.
    track: Track,
    /// The claimed times of their last [`MAX_KEYS_PER_SECOND`] keys.
    recent: VecDeque<u32>,
    /// A connection holds the seat.
    connected: bool,
    /// Why their finished round is too small to store, though it stands in the results.
    unkept: Option<Kept>,
    /// Their finished round was handed to the room's task to store.
    handed: bool,
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

    /// Whether a connection holds the seat.
    pub fn connected(&self) -> bool {
        self.connected
    }
}

/// A live room.
#[derive(Debug)]
pub struct Room {
    code: String,
    mode: Mode,
    /// A CUSTOM TEXT room's text.
    text: Option<std::sync::Arc<str>>,
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

/// A finished round: whose it is, and whose to store it as.
#[derive(Clone, Debug)]
pub struct Finished {
    /// Its racer.
    pub racer: u32,
    /// Its headline's number: the results are best first by it.
    pub headline: u32,
    /// Whose to store it as, or why it is not stored: a round too small to keep.
    pub keeper: Result<Keeper, Kept>,
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
            text: None,
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

    /// The room, its rounds on `text` (a CUSTOM TEXT room's), if it is one a round plays.
    pub fn on_text(self, text: &str) -> Result<Room, typepper_engine::TextFault> {
        Round::custom(text, 0)?;
        Ok(Room {
            text: Some(text.into()),
            ..self
        })
    }

    /// A fresh round of the room's race.
    fn round(&self) -> Round {
        match &self.text {
            Some(text) => Round::custom_in(self.mode, text, self.seed).expect("checked by on_text"),
            None => Round::new(self.mode, self.seed),
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

    /// The seed of its race: the next one's in the lobby.
    pub fn seed(&self) -> u64 {
        self.seed
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
            guest: s.who.player.is_none(),
        });
        Say::Lobby {
            phase: self.phase,
            racers: racers.collect(),
            owner: self.owner.unwrap_or(0),
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
            text: self.text.as_deref().map(str::to_owned),
        }
    }

    /// What a spectator is told on joining at `now`: the room, who is in it, and where
    /// the race is, with every racer's keys so far, so that it watches from the start.
    pub fn greeting(&self, now: u64) -> CatchUp {
        let mut catch_up = self.so_far(now, None);
        catch_up
            .head
            .splice(0..0, [self.welcome(None), self.lobby()]);
        catch_up
    }

    /// Where the race is at `now`, for a connection arriving late: the countdown left, or
    /// the round time with every racer's keys but `except`'s (whose own come in its
    /// [`Say::Resume`]).
    fn so_far(&self, now: u64, except: Option<u32>) -> CatchUp {
        let mut catch_up = CatchUp::default();
        match self.phase {
            Phase::Countdown => {
                let left = self.go_at.saturating_sub(now);
                let left = u32::try_from(left).unwrap_or(COUNTDOWN_MS);
                catch_up.head.push(Say::Countdown(left));
            }
            Phase::Racing => {
                if except.is_none() {
                    let (seed, at) = (self.seed, self.round_time(now));
                    catch_up.head.push(Say::Resume {
                        seed,
                        at,
                        keys: vec![],
                    });
                }
                let others = self.seats.iter().filter(|s| Some(s.id) != except);
                catch_up.keys = others.map(|s| (s.id, s.typed.snapshot())).collect();
            }
            Phase::Lobby | Phase::Over => {}
        }
        catch_up
    }

    /// `who` joins, given `resume` as the secret to come back with: a racer in the lobby
    /// while there is room, else a spectator (`None`). Refused when the name is taken: by
    /// the same player, or for a guest, by anyone whose name looks like it
    /// (`typepper_api::name_key`). A linked player is never refused their own name for a
    /// guest's: the lobby marks guests.
    pub fn join(&mut self, who: Joiner, resume: String) -> Result<(Option<u32>, Said), String> {
        let key = typepper_api::name_key(&who.name);
        let clash = self.seats.iter().find(|s| match who.player {
            Some(player) => s.who.player == Some(player),
            None => typepper_api::name_key(&s.who.name) == key,
        });
        if let Some(seat) = clash {
            return Err(match seat.who.name == who.name {
                true => format!("{} is already in this room", who.name),
                false => format!(
                    "{} is already in this room as {}: pick another name",
                    who.name, seat.who.name
                ),
            });
        }
        if self.phase != Phase::Lobby || self.seats.len() >= MAX_RACERS {
            // A spectator: the room's task tells its connection the room's greeting.
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
            typed: Typed::default(),
            track: Track::default(),
            recent: VecDeque::with_capacity(MAX_KEYS_PER_SECOND),
            connected: true,
            unkept: None,
            handed: false,
        });
        let seat = self.seats.last();
        let said = vec![(To::One(id), self.welcome(seat)), (To::All, self.lobby())];
        Ok((Some(id), said))
    }

    /// The racer whose secret is `resume` comes back at `now`: refused if the secret is no
    /// one's, or a connection holds the seat already. They are told the room, then (in a
    /// race) where it is with their own keys and everyone else's, read out as a catch-up:
    /// their first keys in the [`Say::Resume`], the rest in `keys` messages of their own
    /// number, before the others'.
    pub fn resume(&mut self, resume: &str, now: u64) -> Result<(u32, CatchUp, Said), String> {
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
        // A room no racer held is theirs now.
        self.owner.get_or_insert(id);
        let seat = self.seats.iter().find(|s| s.id == id);
        let mut catch_up = self.so_far(now, Some(id));
        let mut head = vec![self.welcome(seat)];
        if phase == Phase::Racing
            && let Some(seat) = seat
        {
            let (keys, rest) = seat.typed.snapshot().split_first();
            head.push(Say::Resume { seed, at, keys });
            catch_up.keys.insert(0, (id, rest));
        }
        catch_up.head.splice(0..0, head);
        Ok((id, catch_up, vec![(To::All, self.lobby())]))
    }

    /// Racer `id` is ready, or no longer, at `now`. Once every racer of two or more is
    /// ready, the countdown starts: the lobby promises it.
    pub fn ready(&mut self, id: u32, now: u64) -> Result<Said, String> {
        if self.phase != Phase::Lobby {
            return Err("the race has begun".into());
        }
        let seat = self.seat(id)?;
        seat.state = match seat.state {
            State::Ready => State::Waiting,
            _ => State::Ready,
        };
        let everyone = self.seats.iter().all(|s| s.state == State::Ready);
        if everyone && self.seats.len() >= 2 {
            return self.start(id, now);
        }
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
    /// [`CLOCK_ALLOWANCE_MS`], one past [`MAX_KEYS_PER_SECOND`] in a second of the round,
    /// or one the engine refuses, puts them out.
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
            let full = seat.recent.len() == MAX_KEYS_PER_SECOND;
            if full && seat.recent.front().is_some_and(|&first| t < first + 1000) {
                out = Some(format!(
                    "more than {MAX_KEYS_PER_SECOND} keys in one second of the round: no \
                     person types that fast"
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
            let place = round.view(t).caret();
            if let Err(e) = round.apply(t, op) {
                out = Some(format!("a key the round refused: {e}"));
                break;
            }
            if full {
                seat.recent.pop_front();
            }
            seat.recent.push_back(t);
            if let Op::Char(_) = op {
                seat.track.mark(place, t, at);
            }
            seat.typed.push((t, code));
            taken.push((t, code));
        }
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
            seat.typed = Typed::default();
            seat.track = Track::default();
            seat.recent.clear();
            seat.unkept = None;
            seat.handed = false;
        }
        if !self.seats.iter().any(|s| Some(s.id) == self.owner) {
            self.pass_on();
        }
        self.phase = Phase::Lobby;
        self.seed = seed;
        Ok(vec![(To::All, self.lobby())])
    }

    /// Racer `id` leaves: gone from the lobby, or out of the race for good. An owner who
    /// leaves passes the room on to the first racer still connected.
    pub fn leave(&mut self, id: u32, now: u64) -> Said {
        if self.phase == Phase::Lobby {
            self.seats.retain(|s| s.id != id);
        } else if let Ok(seat) = self.seat(id) {
            seat.connected = false;
            seat.resume.clear();
            if matches!(seat.state, State::Typing | State::Waiting | State::Ready) {
                seat.state = State::Gone;
            }
        }
        if self.owner == Some(id) {
            self.pass_on();
        }
        let mut said = vec![(To::All, self.lobby())];
        said.extend(self.tick(now));
        said
    }

    /// The room passes to the first racer still connected (none if no one is).
    fn pass_on(&mut self) {
        let next = self.seats.iter().find(|s| s.connected);
        self.owner = next.map(|s| s.id);
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
    /// engine says so, or when its racer never began; the race over when every round is.
    /// A round that ends is judged as a submission of it would be, and one that echoes
    /// another racer's keys ([`echo`]) puts its racer out.
    pub fn tick(&mut self, now: u64) -> Said {
        let mut said = vec![];
        if self.phase == Phase::Countdown && now >= self.go_at {
            self.phase = Phase::Racing;
            self.races += 1;
            let round = self.round();
            for seat in &mut self.seats {
                seat.round = Some(round.clone());
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
        let mut ended = vec![];
        for (i, seat) in self.seats.iter_mut().enumerate() {
            let Some(round) = &seat.round else { continue };
            let typing = matches!(seat.state, State::Typing | State::Gone);
            if typing && round.is_over(at) {
                // The same checks as a submission's: a round no person types is out; one
                // too small to keep still finished, and says why it is not stored.
                seat.state = match judge(round) {
                    Ok(()) => State::Done,
                    Err(NotKept::Small(why)) => {
                        seat.unkept = Some(Kept::not_stored(why.kind(), why));
                        State::Done
                    }
                    Err(NotKept::Cheat(why)) => {
                        let racer = seat.id;
                        said.push((To::All, Say::Out { racer, why }));
                        State::Out
                    }
                };
                ended.push(i);
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
        for i in ended {
            if self.seats[i].state != State::Done {
                continue;
            }
            if let Some(of) = self.echoed(i) {
                let seat = &mut self.seats[i];
                seat.state = State::Out;
                let why = format!(
                    "your keys echo {of}'s, as this room passed them on: a copy is no \
                     round of yours"
                );
                said.push((
                    To::All,
                    Say::Out {
                        racer: seat.id,
                        why,
                    },
                ));
            }
        }
        let racing = |s: &Seat| matches!(s.state, State::Typing | State::Gone);
        if !self.seats.iter().any(racing) || u64::from(at) > MAX_RACE_MS {
            // The results come once the finished rounds are stored (the room's task).
            self.phase = Phase::Over;
            changed = true;
        }
        if changed {
            said.push((To::All, self.lobby()));
        }
        said
    }

    /// Whose round (a name) the round of seat `i` echoes, if it echoes one: the other
    /// racer whose keys it matches reached the server first.
    fn echoed(&self, i: usize) -> Option<String> {
        let mine = &self.seats[i].track;
        self.seats
            .iter()
            .enumerate()
            .filter(|&(j, other)| j != i && !other.track.is_empty())
            .find(|(_, other)| echo::compare(mine, &other.track) == Some(Echo::First))
            .map(|(_, other)| other.who.name.clone())
    }

    /// When the last race's text came, on the rooms' clock.
    pub fn went(&self) -> u64 {
        self.go_at
    }

    /// The rounds finished since this was last asked, in the order they finished: each is
    /// stored as soon as it ends, so that no finished round waits on the race's end.
    pub fn take_finished(&mut self) -> Vec<Finished> {
        let mut out = vec![];
        for seat in &mut self.seats {
            if seat.state != State::Done || seat.handed {
                continue;
            }
            let Some(round) = &seat.round else { continue };
            let Some(score) = round.score() else { continue };
            seat.handed = true;
            out.push(Finished {
                racer: seat.id,
                headline: score.headline().value,
                // Nothing to store of a round too small to keep.
                keeper: match (&seat.unkept, seat.who.player) {
                    (Some(unkept), _) => Err(unkept.clone()),
                    (None, Some(player)) => Ok(Keeper::Player(player)),
                    (None, None) => Ok(Keeper::Guest {
                        name: seat.who.name.clone(),
                        from: seat.who.from,
                    }),
                },
                replay: round.replay(),
            });
        }
        out
    }

    fn seat(&mut self, id: u32) -> Result<&mut Seat, String> {
        self.seats
            .iter_mut()
            .find(|s| s.id == id)
            .ok_or_else(|| "you are not a racer in this room".into())
    }
}

/// Why a finished round is not kept.
enum NotKept {
    /// Too little of it to store (too short, too few keys, nothing scored): a person's
    /// round all the same.
    Small(crate::refusal::Refusal),
    /// Timing or speed no person produces, or a round the rules refuse.
    Cheat(String),
}

/// A finished round judged as a submission of it would be.
fn judge(round: &Round) -> Result<(), NotKept> {
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
            NotKept::Small(e)
        } else {
            NotKept::Cheat(e.to_string())
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

    /// A ZEN round's keys on seed 42 at `wpm` for `ms`, without its End: `[t, op]`.
    fn zen_keys(wpm: u32, ms: u32) -> Vec<Key> {
        let typist = Typist {
            wpm,
            zen_ms: ms,
            ..Typist::default()
        };
        synth(Mode::ZEN, 42, &typist)
            .timeline()
            .filter_map(|(t, op)| Some((t?, op.code())))
            .filter(|&(_, op)| op != 1)
            .collect()
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

    /// The play-test: every racer pressed ready, every row said so, and nothing
    /// happened; only the owner's enter ever started a race. The owner starts it, or it
    /// starts once every racer is ready.
    #[test]
    fn a_room_starts_once_everyone_is_ready() {
        let mut room = Room::new("k3fq7m2x".into(), Mode::BLITZ_15, 42);
        room.join(joiner("ada"), "sa".into()).unwrap();
        room.join(joiner("grace"), "sg".into()).unwrap();
        room.join(joiner("linus"), "sl".into()).unwrap();
        assert!(room.start(2, 0).is_err());
        room.ready(1, 0).unwrap();
        room.ready(2, 0).unwrap();
        assert_eq!(room.phase(), Phase::Lobby, "one is not ready yet");
        let said = room.ready(3, 500).unwrap();
        assert_eq!(room.phase(), Phase::Countdown);
        assert!(said.contains(&(To::All, Say::Countdown(COUNTDOWN_MS))));
        assert_eq!(room.went(), 500 + u64::from(COUNTDOWN_MS));
    }

    /// The play-test: after the owner left, the others' lobbies still listed them, no one
    /// learned they owned the room, and a rematch waited for ever. The room passes to the
    /// first racer still connected, and every lobby says whose it is.
    #[test]
    fn an_owner_who_leaves_passes_the_room_on() {
        let owner_of = |said: &Said| {
            said.iter().rev().find_map(|(_, s)| match s {
                Say::Lobby { owner, .. } => Some(*owner),
                _ => None,
            })
        };
        // In the lobby.
        let mut room = Room::new("k3fq7m2x".into(), Mode::BLITZ_15, 42);
        room.join(joiner("ada"), "sa".into()).unwrap();
        room.join(joiner("grace"), "sg".into()).unwrap();
        let said = room.leave(1, 0);
        assert_eq!(owner_of(&said), Some(2));
        // In a race: the owner leaves for good, and the next connected racer owns it.
        let (mut room, go) = racing();
        let said = room.leave(1, go + 200);
        assert_eq!(owner_of(&said), Some(2));
        // With no racer connected, no one owns it, until one comes back.
        let said = room.leave(2, go + 300);
        assert_eq!(owner_of(&said), Some(0));
        let (mut room, go) = racing();
        room.disconnect(2, go + 100);
        room.leave(1, go + 200);
        let (_, _, said) = room.resume("sg", go + 300).unwrap();
        assert_eq!(owner_of(&said), Some(2));
    }

    #[test]
    fn a_taken_name_is_refused_and_a_late_joiner_watches() {
        let (mut room, _) = racing();
        let err = room.join(joiner("ADA"), "x".into()).unwrap_err();
        assert_eq!(err, "ADA is already in this room as ada: pick another name");
        let err = room.join(joiner("ada"), "x".into()).unwrap_err();
        assert_eq!(err, "ada is already in this room");
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
        let rows = room.take_finished();
        assert_eq!(rows.len(), 1);
        let typist = Typist {
            wpm: 90,
            ..Typist::default()
        };
        let (_, score) = synth(Mode::BLITZ_15, 42, &typist).play().unwrap();
        assert_eq!(rows[0].headline, score.headline().value);
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
        let rows = room.take_finished();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].racer, 2);
        assert!(
            matches!(&rows[1].keeper, Err(Kept::NotStored { kind, .. }) if kind == "too_little"),
            "{:?}",
            rows[1].keeper
        );
    }

    /// Every key of `racer` in messages of a catch-up.
    fn keys_of(said: &[Say], racer: u32) -> Vec<Key> {
        said.iter()
            .filter_map(|s| match s {
                Say::Keys { racer: r, keys } if *r == racer => Some(keys.clone()),
                _ => None,
            })
            .flatten()
            .collect()
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
        let greeting: Vec<Say> = room.greeting(late).messages().collect();
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
        let (_, catch_up, said) = room.resume("sg", late + 500).unwrap();
        assert!(said.iter().all(|(to, _)| *to == To::All));
        let to_her: Vec<Say> = catch_up.messages().collect();
        assert!(to_her.contains(&Say::Resume {
            seed: 42,
            at: at + 500,
            keys: grace.to_vec()
        }));
        assert_eq!(keys_of(&to_her, 1), ada);
        assert!(keys_of(&to_her, 2).is_empty());
    }

    /// The attack: a resume of about 650 keys was one message too long to relay, and the
    /// racer could not come back. A long round's resume is read out in chunks: the first
    /// in the resume, the rest as the racer's own `keys`, before anyone else's.
    #[test]
    fn a_long_rounds_resume_is_chunked_like_a_catch_up() {
        let mut room = Room::new("k3fq7m2x".into(), Mode::ZEN, 42);
        room.join(joiner("ada"), "sa".into()).unwrap();
        room.join(joiner("grace"), "sg".into()).unwrap();
        room.start(1, 0).unwrap();
        let go = u64::from(COUNTDOWN_MS);
        room.tick(go);
        let keys = zen_keys(130, 60_000);
        assert!(keys.len() > 650, "{} keys", keys.len());
        for chunk in keys.chunks(8) {
            let last = u64::from(chunk.last().unwrap().0);
            room.keys(1, chunk, go + last + 30).unwrap();
        }
        let now = go + u64::from(keys.last().unwrap().0) + 100;
        room.disconnect(1, now);
        let (_, catch_up, _) = room.resume("sa", now).unwrap();
        let said: Vec<Say> = catch_up.messages().collect();
        let Say::Resume { keys: first, .. } = &said[1] else {
            panic!("{:?}", said[1])
        };
        assert_eq!(first.len(), CATCH_UP_KEYS);
        let mut back = first.clone();
        back.extend(keys_of(&said, 1));
        assert_eq!(back, keys);
        for say in &said {
            let text = serde_json::to_string(say).unwrap();
            assert!(text.len() < 7_500, "{} bytes", text.len());
        }
    }

    /// A catch-up holds the room's own chunks of keys, not copies: forty spectators that
    /// never read hold forty pointers to one race.
    #[test]
    fn catch_ups_share_the_rooms_keys() {
        let mut room = Room::new("k3fq7m2x".into(), Mode::ZEN, 42);
        room.join(joiner("ada"), "sa".into()).unwrap();
        room.start(1, 0).unwrap();
        let go = u64::from(COUNTDOWN_MS);
        room.tick(go);
        let keys = zen_keys(120, 40_000);
        for chunk in keys.chunks(8) {
            let last = u64::from(chunk.last().unwrap().0);
            room.keys(1, chunk, go + last + 30).unwrap();
        }
        let late = go + 45_000;
        let (a, b) = (room.greeting(late), room.greeting(late + 1_000));
        let sealed = |c: &CatchUp| c.keys[0].1.0[0].clone();
        assert!(keys.len() > CATCH_UP_KEYS, "{} keys", keys.len());
        assert!(Arc::ptr_eq(&sealed(&a), &sealed(&b)));
    }

    /// The attack: a ZEN guest sent 316,000 keys in a minute, all taken. A round takes at
    /// most MAX_KEYS_PER_SECOND keys in any second of its time.
    #[test]
    fn a_flood_of_keys_puts_its_racer_out() {
        let (mut room, go) = racing();
        let a = u32::from(b'a') + 2;
        // A person's burst: 40 keys spread over a second are taken.
        let burst: Vec<Key> = (0..40).map(|i| (1_000 + i * 25, a)).collect();
        room.keys(1, &burst, go + 2_100).unwrap();
        assert_eq!(room.seats()[0].state(), State::Typing);
        // The 41st within that second is one too many.
        let said = room.keys(1, &[(1_990, a)], go + 2_100).unwrap();
        let why = said.iter().find_map(|(_, s)| match s {
            Say::Out { racer: 1, why } => Some(why.clone()),
            _ => None,
        });
        assert_eq!(
            why.as_deref(),
            Some("more than 40 keys in one second of the round: no person types that fast")
        );
        assert_eq!(room.seats()[0].state(), State::Out);
        assert_eq!(
            MAX_ROUND_KEYS, 24_000,
            "the most a round takes in the longest race"
        );
    }

    /// The attack: a racer typed back another's keys as the room passed them on, 5 %
    /// faster and a second late, and ranked above them, while the original was refused
    /// as a copy. An echo is out of the race when its round ends, and the original
    /// finishes.
    #[test]
    fn an_echo_of_another_racers_keys_is_out_and_the_original_finishes() {
        let mut room = Room::new("k3fq7m2x".into(), Mode::BLITZ_15, 42);
        room.join(joiner("thief"), "st".into()).unwrap();
        room.join(joiner("victim"), "sv".into()).unwrap();
        room.start(1, 0).unwrap();
        let go = u64::from(COUNTDOWN_MS);
        room.tick(go);
        let victim = typed(&room, 91);
        // The victim's keys arrive as typed; the thief's a second later, 5 % faster, and
        // never before the victim's own key reached the server.
        let mut arrivals: Vec<(u64, u32, Vec<Key>)> = vec![];
        for chunk in victim.chunks(4) {
            let last = u64::from(chunk.last().unwrap().0);
            arrivals.push((go + last + 20, 2, chunk.to_vec()));
            let echoed: Vec<Key> = chunk
                .iter()
                .map(|&(t, op)| (1_000 + t * 95 / 100, op))
                .filter(|&(t, _)| t < 15_000)
                .collect();
            if let Some(&(t, _)) = echoed.last() {
                let at = (go + u64::from(t) + 20).max(go + last + 60);
                arrivals.push((at, 1, echoed));
            }
        }
        arrivals.sort_by_key(|&(at, racer, _)| (at, racer));
        let mut said = vec![];
        for (at, racer, keys) in arrivals {
            if let Ok(s) = room.keys(racer, &keys, at) {
                said.extend(s);
            }
        }
        said.extend(room.tick(go + 17_000));
        assert_eq!(room.phase(), Phase::Over);
        let out = said.iter().find_map(|(_, s)| match s {
            Say::Out { racer: 1, why } => Some(why.clone()),
            _ => None,
        });
        assert_eq!(
            out.as_deref(),
            Some(
                "your keys echo victim's, as this room passed them on: a copy is no round of \
                 yours"
            )
        );
        let finished = room.take_finished();
        assert_eq!(finished.len(), 1);
        assert_eq!(finished[0].racer, 2);
    }

    /// Look-alike names: a guest can't take a linked player's seat by spelling, and a
    /// linked player is never refused for a guest who came first.
    #[test]
    fn a_guest_cannot_pass_for_a_racer_by_a_look_alike_name() {
        let mut room = Room::new("k3fq7m2x".into(), Mode::ZEN, 42);
        room.join(joiner("star3949"), "a".into()).unwrap();
        let err = room.join(joiner("5tar3949"), "b".into()).unwrap_err();
        assert_eq!(
            err,
            "5tar3949 is already in this room as star3949: pick another name"
        );
        let linked = Joiner {
            player: Some(7),
            ..joiner("Star3949")
        };
        let (Some(id), said) = room.join(linked.clone(), "c".into()).unwrap() else {
            panic!("a linked player watches")
        };
        let racers = said.iter().find_map(|(_, s)| match s {
            Say::Lobby { racers, .. } => Some(racers.clone()),
            _ => None,
        });
        let marks: Vec<(String, bool)> = racers
            .unwrap()
            .into_iter()
            .map(|r| (r.name, r.guest))
            .collect();
        assert_eq!(
            marks,
            [("star3949".into(), true), ("Star3949".into(), false)]
        );
        assert_eq!(id, 2);
        // The same player twice is one seat.
        assert_eq!(
            room.join(linked, "d".into()).unwrap_err(),
            "Star3949 is already in this room"
        );
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
        let (id, catch_up, _) = room.resume("sa", go + 6_000).unwrap();
        assert_eq!(id, 1);
        let resumed = catch_up.head.iter().find_map(|s| match s {
            Say::Resume { at, keys, .. } => Some((*at, keys.clone())),
            _ => None,
        });
        assert_eq!(resumed, Some((6_000, keys[..10].to_vec())));
        assert_eq!(room.seats()[0].state(), State::Typing);
        assert!(room.resume("nobody", go).is_err());
    }
}
