//! A live room as the game plays it: the lobby, the countdown, the race and its results,
//! driven by the server's messages (docs/spec/rooms.md).
//!
//! The room is the server's. The game keeps what it was told (who is in it, where it is)
//! and plays every racer's keys through an engine [`Round`] of its own as they come, so
//! that each opponent is a caret on your text and their numbers are the engine's, as the
//! server's are. Your own keys go into your round as in any round, and out to the server
//! once a frame ([`Live::outgoing`]).

use typepper_api::room::{
    Ask, Finish, Key as Sent, MAX_KEYS_PER_MESSAGE, Opened, Phase, Racer, Say, State, is_code,
};
use typepper_engine::{Mode, Op, Replay, Round, Score};

use crate::app::{self, App, Effect, Key, Now, Screen, ms_since};
use crate::palette::Tone;
use crate::race::{self, Lead, Trail};
use crate::storage::{self, Entry};

/// After a lost connection, the next try waits this long.
pub const RETRY_MS: f64 = 1_000.0;

/// Tries to come back after a lost connection, one a [`RETRY_MS`], before giving up.
pub const RETRIES: u32 = 10;

/// A room: joining it, in it, or done with it.
#[derive(Clone, Debug)]
pub struct Live {
    /// Its code, once the server opened it.
    pub code: Option<String>,
    /// The link that joins it, once known.
    pub link: Option<String>,
    /// Its mode: the one asked for, then the server's.
    pub mode: Mode,
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
    /// [`crate::app::RESULTS_HOLD_MS`] from it.
    pub since: f64,
    /// A line for the player: a refusal, why you are out, the connection's state.
    pub note: Option<(String, Tone)>,
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
    /// A race from round time 0 at `origin`, of the racers `ids`.
    fn new(mode: Mode, seed: u64, origin: f64, ids: impl Iterator<Item = u32>) -> Race {
        Race {
            origin,
            rounds: ids
                .map(|id| Rival {
                    id,
                    round: Round::new(mode, seed),
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
            retry: None,
        }
    }

    /// Racer `id`'s name.
    pub fn name_of(&self, id: u32) -> &str {
        self.racers
            .iter()
            .find(|r| r.id == id)
            .map_or("someone", |r| r.name.as_str())
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

    /// The text came at `now`: every racer in the lobby races.
    pub fn go(&mut self, seed: u64, now: f64) {
        let ids = self
            .racers
            .iter()
            .filter(|r| r.state != State::Out)
            .map(|r| r.id);
        self.race = Some(Race::new(
            self.mode,
            seed,
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
        let mut race = Race::new(self.mode, seed, now - f64::from(at), ids.into_iter());
        // A seat taken back by this game keeps the round it has: keys typed while the
        // connection was down go out now. A reloaded game starts from the server's. The
        // others' rounds start again: their keys so far come next.
        let kept = self.you.and_then(|you| {
            let mine = self.race.as_ref()?.of(you)?;
            (mine.round.replay().inputs.len() >= keys.len()).then(|| mine.clone())
        });
        if let Some(you) = self.you {
            match kept {
                Some(mine) => {
                    if let Some(slot) = race.of_mut(you) {
                        *slot = mine;
                    }
                }
                None => race.land(you, keys),
            }
            race.sent = keys.len();
        }
        self.race = Some(race);
        self.go_at = None;
        self.phase = Phase::Racing;
    }

    /// Racer `id`'s keys, as the server took them.
    pub fn keys(&mut self, id: u32, keys: &[Sent]) {
        if let Some(race) = &mut self.race {
            // A racer who joined the lobby after this game's text came has no round yet.
            if race.of(id).is_none() {
                let (mode, seed) = race
                    .rounds
                    .first()
                    .map_or((self.mode, 0), |r| (r.round.mode(), r.round.seed()));
                race.rounds.push(Rival {
                    id,
                    round: Round::new(mode, seed),
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
    }
}

impl App {
    /// The room on screen, or the one a round watched from its results returns to.
    fn live_mut(&mut self) -> Option<&mut Live> {
        match (&mut self.screen, &mut self.list) {
            (Screen::Room(live), _) | (_, Some(Screen::Room(live))) => Some(live),
            _ => None,
        }
    }

    /// `f` on the menu: a room for the picked mode. A player who never linked names
    /// themselves for it first.
    pub(crate) fn open_room(&mut self) -> Vec<Effect> {
        let mut live = Live::new(self.menu_mode(), None);
        let fx = if self.player.is_some() {
            vec![Effect::OpenRoom(live.mode.key())]
        } else {
            live.naming = Some(self.naming());
            vec![]
        };
        self.notice = None;
        self.screen = Screen::Room(Box::new(live));
        fx
    }

    /// The name prompt, with the name this game last raced under.
    fn naming(&self) -> Naming {
        Naming {
            name: self
                .room_seat
                .as_ref()
                .map_or_else(String::new, |s| s.name.clone()),
            error: None,
        }
    }

    /// Joins room `code`: a `?room=` link, `typepper --room`. A seat this game held in
    /// it is taken back; a player who never linked names themselves first.
    pub fn join_room(&mut self, code: &str) -> Vec<Effect> {
        let code = code.trim().to_ascii_lowercase();
        if !is_code(&code) {
            let why = format!("{code:?} is not a room code: 8 letters and digits");
            self.notice = Some((why, Tone::Wrong));
            self.screen = Screen::Menu;
            return vec![];
        }
        let mut live = Live::new(self.menu_mode(), Some(code.clone()));
        live.link = self.game_url.as_ref().map(|g| format!("{g}?room={code}"));
        if let Some(seat) = self.room_seat.as_ref().filter(|s| s.code == code) {
            live.resume = Some(seat.secret.clone());
            live.name = Some(seat.name.clone()).filter(|n| !n.is_empty());
        }
        let fx = if self.player.is_none() && live.resume.is_none() {
            live.naming = Some(self.naming());
            vec![]
        } else {
            live.note = Some(("joining…".into(), Tone::Dim));
            vec![Effect::JoinRoom(code)]
        };
        self.notice = None;
        self.screen = Screen::Room(Box::new(live));
        fx
    }

    /// The server's answer to [`Effect::OpenRoom`]: the room, which the game joins.
    pub fn room_opened(&mut self, answer: Result<Opened, String>) -> Vec<Effect> {
        let Screen::Room(live) = &mut self.screen else {
            return vec![];
        };
        if live.code.is_some() {
            return vec![];
        }
        match answer {
            Ok(opened) => {
                live.link = Some(match &self.game_url {
                    Some(game) => format!("{game}?room={}", opened.code),
                    None => opened.link,
                });
                live.note = Some(("joining…".into(), Tone::Dim));
                live.code = Some(opened.code.clone());
                vec![Effect::JoinRoom(opened.code)]
            }
            Err(why) => {
                self.notice = Some((format!("no room: {why}"), Tone::Wrong));
                self.screen = Screen::Menu;
                vec![]
            }
        }
    }

    /// The connection [`Effect::JoinRoom`] asked for is up: the hello goes.
    pub fn room_connected(&mut self) -> Vec<Effect> {
        let token = self.player.as_ref().map(|p| p.token.clone());
        let Some(live) = self.live_mut() else {
            return vec![Effect::LeaveRoom];
        };
        live.connected = true;
        live.retry = None;
        vec![Effect::RoomSay(live.hello(token.as_deref()))]
    }

    /// The room's connection closed (`why`, from the shell) at `now`. A racer in a race
    /// tries to come back; anyone else is told.
    pub fn room_closed(&mut self, why: &str, now: Now) -> Vec<Effect> {
        let Some(live) = self.live_mut() else {
            return vec![];
        };
        let was = live.connected;
        live.lost();
        let comes_back = live.resume.is_some()
            && matches!(live.phase, Phase::Countdown | Phase::Racing)
            && live.results.is_none();
        let tries = live.retry.map_or(RETRIES, |(_, left)| left);
        if comes_back && tries > 0 {
            live.retry = Some((now.mono + RETRY_MS, tries));
            live.note = Some((
                format!("connection lost ({why}): coming back…"),
                Tone::Wrong,
            ));
        } else if was || live.results.is_none() {
            live.retry = None;
            live.note = Some((format!("the room's connection closed: {why}"), Tone::Wrong));
        }
        vec![]
    }

    /// What the room says, at `now`.
    pub fn room_said(&mut self, say: Say, now: Now) -> Vec<Effect> {
        let Some(live) = self.live_mut() else {
            return vec![Effect::LeaveRoom];
        };
        let mut fx = vec![];
        match say {
            Say::Welcome {
                room,
                mode,
                you,
                resume,
                owner,
            } => {
                if let Ok(mode) = mode.parse() {
                    live.mode = mode;
                }
                live.you = you;
                live.owner = owner;
                live.note = None;
                if let Some(secret) = &resume {
                    live.resume = Some(secret.clone());
                    let seat = Seat {
                        code: room.clone(),
                        secret: secret.clone(),
                        name: live.name.clone().unwrap_or_default(),
                    };
                    fx.push(Effect::Save {
                        key: storage::ROOM.into(),
                        value: seat.to_string(),
                    });
                    self.room_seat = Some(seat);
                }
                let Some(live) = self.live_mut() else {
                    return fx;
                };
                live.code = Some(room);
                if you.is_none() {
                    let note = "the race is full or has begun: you are watching";
                    live.note = Some((note.into(), Tone::Dim));
                }
            }
            Say::Lobby { phase, racers } => {
                // A rematch: back in the lobby, the last race's rounds gone.
                if phase == Phase::Lobby && live.phase != Phase::Lobby {
                    live.race = None;
                    live.results = None;
                    live.row = 0;
                }
                live.phase = phase;
                live.racers = racers;
            }
            Say::Countdown(ms) => {
                live.go_at = Some(now.mono + f64::from(ms));
                live.phase = Phase::Countdown;
            }
            Say::Go(seed) => {
                live.go(seed, now.mono);
                self.sessions += 1;
            }
            Say::Resume { seed, at, keys } => {
                live.resumed(seed, at, &keys, now.mono);
                self.sessions += 1;
            }
            Say::Keys { racer, keys } => live.keys(racer, &keys),
            Say::Out { racer, why } => {
                if live.you == Some(racer) {
                    live.note = Some((format!("you are out: {why}"), Tone::Wrong));
                } else {
                    let note = format!("{} is out: {why}", live.name_of(racer));
                    live.note = Some((note, Tone::Dim));
                }
            }
            Say::Results(finishes) => {
                live.phase = Phase::Over;
                live.since = now.mono;
                live.row = 0;
                let mine = live.you.and_then(|you| {
                    let finish = finishes.iter().find(|f| f.racer == you)?;
                    let (replay, score) = live.race.as_ref()?.scored(you)?;
                    Some((replay, score, finish.share.clone()))
                });
                live.results = Some(finishes);
                // Your round is yours like any other: in the history, with its link.
                // The server stored it already; nothing goes to the outbox.
                if let Some((replay, score, share)) = mine {
                    self.history.push(Entry {
                        unix_ms: now.unix_ms,
                        replay,
                        score,
                        share,
                    });
                    let excess = self.history.len().saturating_sub(storage::HISTORY_MAX);
                    self.history.drain(..excess);
                    fx.push(self.save_history());
                }
            }
            Say::Refused(why) => live.note = Some((why, Tone::Wrong)),
        }
        fx
    }

    /// A frame at `now` in a room: your keys out, a lost connection tried again, your
    /// round's end.
    pub(crate) fn tick_room(&mut self, now: Now) -> Vec<Effect> {
        let Some(live) = self.live_mut() else {
            return vec![];
        };
        let mut fx = vec![];
        if let Some((at, left)) = live.retry
            && now.mono >= at
            && let Some(code) = live.code.clone()
        {
            live.retry = Some((now.mono + RETRY_MS * 4.0, left - 1));
            fx.push(Effect::JoinRoom(code));
        }
        if let Some(ask) = live.outgoing() {
            fx.push(Effect::RoomSay(ask));
        }
        fx
    }

    /// A key in a room.
    pub(crate) fn room_key(&mut self, key: Key, now: Now) -> Vec<Effect> {
        let Screen::Room(live) = &mut self.screen else {
            return vec![];
        };
        if live.naming.is_some() {
            return self.naming_key(key);
        }
        let leave = |app: &mut App| {
            app.screen = Screen::Menu;
            app.list = None;
            vec![Effect::RoomSay(Ask::Leave), Effect::LeaveRoom]
        };
        match live.phase {
            Phase::Racing if live.racing() && live.results.is_none() => {
                let Some(race) = live.race.as_mut() else {
                    return vec![];
                };
                let you = live.you.unwrap_or_default();
                let t = ms_since(race.origin, now.mono);
                let Some(mine) = race.of_mut(you) else {
                    return vec![];
                };
                let round = &mut mine.round;
                let started = round.started().is_some();
                let zen = round.mode() == Mode::Zen;
                let op = match key {
                    Key::Char(' ') | Key::Backspace | Key::DeleteWord if !started => None,
                    Key::Char(c) => Some(Op::Char(c)),
                    Key::Backspace | Key::DeleteWord => Some(Op::Backspace),
                    Key::Escape if zen && started && !round.is_over(t) => Some(Op::End),
                    Key::Escape => return leave(self),
                    _ => None,
                };
                if let Some(op) = op {
                    let t = t.max(round.last_input());
                    if key == Key::DeleteWord {
                        app::delete_word(round, t);
                    } else {
                        let _ = round.apply(t, op);
                    }
                    mine.trail.mark(race::progress(&mine.round), t);
                }
                vec![]
            }
            Phase::Over if live.results.is_some() => {
                let rows = live.results.as_ref().map_or(0, Vec::len);
                let held = now.mono - live.since < app::RESULTS_HOLD_MS;
                match key {
                    Key::Char(_) if held => vec![],
                    Key::Up if rows > 0 => {
                        live.row = (live.row + rows - 1) % rows;
                        vec![]
                    }
                    Key::Down if rows > 0 => {
                        live.row = (live.row + 1) % rows;
                        vec![]
                    }
                    Key::Tab => vec![Effect::RoomSay(Ask::Rematch)],
                    Key::Enter | Key::Char('r') | Key::Char('g') => {
                        let race = key == Key::Char('g');
                        self.watch_finisher(race, now);
                        vec![]
                    }
                    Key::Char('c') => live.link.clone().map_or_else(Vec::new, |link| {
                        live.note = Some(("room link copied".into(), Tone::Dim));
                        vec![Effect::Copy(link)]
                    }),
                    Key::Escape => leave(self),
                    _ => vec![],
                }
            }
            Phase::Lobby => match key {
                Key::Enter if live.you.is_some() && live.you == Some(live.owner) => {
                    vec![Effect::RoomSay(Ask::Start)]
                }
                Key::Enter | Key::Char(' ') | Key::Char('r') if live.you.is_some() => {
                    vec![Effect::RoomSay(Ask::Ready)]
                }
                Key::Char('c') => live.link.clone().map_or_else(Vec::new, |link| {
                    live.note = Some(("room link copied".into(), Tone::Dim));
                    vec![Effect::Copy(link)]
                }),
                Key::Escape => leave(self),
                _ => vec![],
            },
            _ => match key {
                Key::Escape => leave(self),
                _ => vec![],
            },
        }
    }

    fn naming_key(&mut self, key: Key) -> Vec<Effect> {
        let Screen::Room(live) = &mut self.screen else {
            return vec![];
        };
        let Some(naming) = &mut live.naming else {
            return vec![];
        };
        match key {
            Key::Escape => self.screen = Screen::Menu,
            Key::Backspace => {
                naming.name.pop();
                naming.error = None;
            }
            Key::DeleteWord => {
                naming.name.clear();
                naming.error = None;
            }
            Key::Char(c) if naming.name.chars().count() < 20 && !c.is_whitespace() => {
                naming.name.push(c);
                naming.error = None;
            }
            Key::Enter => match typepper_api::check_name(&naming.name) {
                Ok(()) => {
                    live.name = Some(naming.name.clone());
                    live.naming = None;
                    live.note = Some(("joining…".into(), Tone::Dim));
                    return vec![match &live.code {
                        Some(code) => Effect::JoinRoom(code.clone()),
                        None => Effect::OpenRoom(live.mode.key()),
                    }];
                }
                Err(why) => naming.error = Some(why.into()),
            },
            _ => {}
        }
        vec![]
    }

    /// Watches (or races) the picked row's round of a room's results, from the keys this
    /// game saw; esc comes back to the results.
    fn watch_finisher(&mut self, race: bool, now: Now) {
        let Screen::Room(live) = &self.screen else {
            return;
        };
        let Some(finish) = live.results.as_ref().and_then(|r| r.get(live.row)) else {
            return;
        };
        let name = live.name_of(finish.racer).to_owned();
        let Some((replay, _)) = live.race.as_ref().and_then(|r| r.scored(finish.racer)) else {
            return;
        };
        let room = core::mem::replace(&mut self.screen, Screen::Menu);
        let opened = if race {
            self.race(replay, name)
        } else {
            self.watch(replay, Some(name), now.mono)
        };
        match opened {
            // Esc from the round, or its results, goes back to the room.
            Ok(()) => self.list = Some(room),
            Err(why) => {
                self.screen = room;
                if let Some(live) = self.live_mut() {
                    live.note = Some((why, Tone::Wrong));
                }
            }
        }
    }
}

/// The seat this game last held in a room, as kept under [`storage::ROOM`]: `<code>
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
