//! One live room's task: the only owner of its [`Room`], its connections and the rounds
//! it is storing (STYLE 27). Everything reaches it as a [`Cmd`] on its channel, and it
//! answers by sending messages to connections; nothing else locks or touches a room.
//!
//! How it works:
//! 1. A connection joins with a [`Listener`]: its outbox on this process, or its number on
//!    another process, reached through the relay ([`super::relay`]).
//! 2. What the room says goes to each listener once. A local outbox that is full is a
//!    client not reading: it is let go (its seat kept for it to come back). For each other
//!    process, a message is one notification whatever its number of connections there.
//! 3. A late connection's catch-up ([`CatchUp`]) is one item of its outbox that holds the
//!    room's own chunks of keys: it is read out as the connection takes it.
//! 4. Each round is stored as soon as it finishes, from a task of its own; the results are
//!    told once every finished round of the race is stored.
//! 5. The room closes when it is over and empty, empty for a while, idle for
//!    `--room-idle-timeout`, open for `--room-max-time`, or when the server stops; every
//!    connection is told why and closed with it.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinSet;
use typepper_api::room::{Ask, Finish, Phase, Say};

use super::relay::{Fan, Note};
use super::room::{CatchUp, Finished, Joiner, MAX_RACE_MS, Room, Said, To};
use crate::limit::Hold;
use crate::{Shared, secrets};

/// How often a room's clock ticks.
const TICK: Duration = Duration::from_millis(50);
/// How long a room with no one connected is kept for its racers to come back.
const EMPTY_FOR: Duration = Duration::from_secs(60);
/// Commands a room holds unread: local connections wait for room, the relay's are
/// dropped past it (a room that far behind is overwhelmed).
pub(crate) const COMMANDS: usize = 1024;
/// How long a closing room waits for the rounds it is storing.
const STORING_WITHIN: Duration = Duration::from_secs(5);

/// A connection, as its room knows it: a number on this process, or a process and its
/// number there.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ConnId {
    Here(u64),
    There(Arc<str>, u64),
}

/// Where a connection's messages go.
pub(crate) enum Listener {
    /// Its outbox on this process.
    Here(mpsc::Sender<Out>),
    /// Through the relay, to the process its [`ConnId::There`] names.
    There,
}

/// One item of a connection's outbox.
#[derive(Debug)]
pub(crate) enum Out {
    /// A message.
    Text(Utf8Bytes),
    /// A late connection's catch-up, read out a message at a time as it is taken.
    CatchUp(CatchUp),
}

/// Who says hello.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Who {
    /// A racer back with their seat's secret.
    Back(String),
    /// Someone new: a racer in the lobby, else a spectator.
    New(Joiner),
}

/// What a room is asked.
pub(crate) enum Cmd {
    /// A connection said hello.
    Join {
        conn: ConnId,
        to: Listener,
        who: Who,
    },
    /// A connection's message after its hello.
    Ask { conn: ConnId, ask: Ask },
    /// A connection went: its transport closed, or it said `leave` (its racer leaves for
    /// good).
    Gone { conn: ConnId, leaving: bool },
    /// The server is stopping: tell everyone `why`, close, and say `done` once the rounds
    /// being stored are.
    Close {
        why: String,
        done: oneshot::Sender<()>,
    },
}

/// A room's address: where to send its commands.
#[derive(Clone)]
pub(crate) struct Handle {
    tx: mpsc::Sender<Cmd>,
}

impl Handle {
    /// Sends `cmd`, waiting while the room's queue is full; `false` once the room is gone.
    pub(crate) async fn send(&self, cmd: Cmd) -> bool {
        self.tx.send(cmd).await.is_ok()
    }

    /// Sends `cmd` if the room has room for it now.
    pub(crate) fn try_send(&self, cmd: Cmd) -> bool {
        self.tx.try_send(cmd).is_ok()
    }
}

/// A connection in the room.
struct Member {
    id: ConnId,
    racer: Option<u32>,
    to: Listener,
    /// A spectator's hello: who takes a seat at the next rematch.
    waiting: Option<Joiner>,
}

/// What a room's limits are, from the server's settings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// With no message from any racer this long, it closes.
    pub idle: Duration,
    /// Open this long, it closes at its next lobby or results (a race under way ends
    /// first: at most [`MAX_RACE_MS`]).
    pub max_time: Duration,
}

/// Starts room `room`'s task, holding `hold` (its opener's place among rooms) until it
/// closes: its handle.
pub(crate) fn start(st: Arc<Shared>, room: Room, limits: Limits, hold: Hold<IpAddr>) -> Handle {
    let (tx, rx) = mpsc::channel(super::task::COMMANDS);
    let task = Task {
        st,
        room,
        conns: vec![],
        storing: JoinSet::new(),
        rows: vec![],
        told: 0,
        results: None,
        went_unix_ms: 0,
        heard: Instant::now(),
        opened: Instant::now(),
        empty_since: Some(Instant::now()),
        limits,
    };
    tokio::spawn(task.run(rx, hold));
    Handle { tx }
}

struct Task {
    st: Arc<Shared>,
    room: Room,
    conns: Vec<Member>,
    /// Rounds being stored: each gives back its race and its results' row.
    storing: JoinSet<(u32, Finish)>,
    /// The rows of the race's finished rounds.
    rows: Vec<Finish>,
    /// Races whose results were told.
    told: u32,
    /// The last race's results, for who arrives after them.
    results: Option<Say>,
    /// When the race's text came, in unix ms.
    went_unix_ms: i64,
    /// When a racer last said anything.
    heard: Instant,
    opened: Instant,
    /// Since when no racer has been connected.
    empty_since: Option<Instant>,
    limits: Limits,
}

impl Task {
    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>, hold: Hold<IpAddr>) {
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let (why, done) = loop {
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(Cmd::Close { why, done }) => break (why, Some(done)),
                    Some(cmd) => self.take(cmd),
                    // Every handle is gone: the rooms' map let go of it.
                    None => break ("this room has closed".into(), None),
                },
                _ = tick.tick() => self.tick(),
                Some(stored) = self.storing.join_next() => self.stored(stored),
            }
            if let Some(why) = self.closing() {
                break (why, None);
            }
        };
        // No more commands: the map forgets the room first, so no one joins it meanwhile.
        self.st.rooms.forget(self.room.code());
        rx.close();
        self.close(&why).await;
        drop(hold);
        if let Some(done) = done {
            let _ = done.send(());
        }
    }

    /// The rooms' clock now.
    fn now(&self) -> u64 {
        self.st.rooms.now()
    }

    fn take(&mut self, cmd: Cmd) {
        let now = self.now();
        match cmd {
            Cmd::Join { conn, to, who } => self.join(conn, to, who, now),
            Cmd::Ask { conn, ask } => {
                let racer = self.conns.iter().find(|c| c.id == conn).map(|c| c.racer);
                let said = match racer {
                    Some(Some(racer)) => {
                        self.heard = Instant::now();
                        self.asked(racer, ask, now)
                    }
                    Some(None) => Err("spectators only watch".into()),
                    // Not (or no longer) in the room: it was let go, and is being closed.
                    None => return,
                };
                match said {
                    Ok(said) => self.deliver(said),
                    Err(why) => self.tell(&conn, Say::Refused(why)),
                }
            }
            Cmd::Gone { conn, leaving } => {
                let Some(at) = self.conns.iter().position(|c| c.id == conn) else {
                    return;
                };
                let gone = self.conns.swap_remove(at);
                if let Some(racer) = gone.racer {
                    let said = match leaving {
                        true => self.room.leave(racer, now),
                        false => self.room.disconnect(racer, now),
                    };
                    self.deliver(said);
                }
            }
            Cmd::Close { .. } => {}
        }
        self.settle();
    }

    fn join(&mut self, conn: ConnId, to: Listener, who: Who, now: u64) {
        let waiting = match &who {
            Who::New(joiner) => Some(joiner.clone()),
            Who::Back(_) => None,
        };
        let joined = match who {
            Who::Back(secret) => self
                .room
                .resume(&secret, now)
                .map(|(id, catch_up, said)| (Some(id), Some(catch_up), said)),
            Who::New(who) => self.room.join(who, secrets::token()).map(|(id, said)| {
                // A spectator is no racer the room can address: its greeting goes to it
                // alone, first, with the results if the race is over.
                let greeting = id.is_none().then(|| {
                    let mut greeting = self.room.greeting(now);
                    let over = self.room.phase() == Phase::Over;
                    greeting.head.extend(self.results.clone().filter(|_| over));
                    greeting
                });
                (id, greeting, said)
            }),
        };
        let (racer, catch_up, said) = match joined {
            Ok(joined) => joined,
            Err(why) => {
                let refused = Member {
                    id: conn,
                    racer: None,
                    to,
                    waiting: None,
                };
                // Told, then let go: a refused hello ends its connection.
                self.send(&refused, Out::Text(text(&Say::Refused(why))));
                self.let_go(refused);
                return;
            }
        };
        if racer.is_some() {
            self.heard = Instant::now();
        }
        let joined = Member {
            id: conn,
            racer,
            to,
            waiting: waiting.filter(|_| racer.is_none()),
        };
        let ok = match catch_up {
            Some(catch_up) => self.send(&joined, Out::CatchUp(catch_up)),
            None => true,
        };
        self.conns.push(joined);
        if !ok {
            self.drop_conns(vec![self.conns.len() - 1]);
        }
        self.deliver(said);
    }

    fn asked(&mut self, racer: u32, ask: Ask, now: u64) -> Result<Said, String> {
        let said = match ask {
            Ask::Ready => {
                let said = self.room.ready(racer, now)?;
                if self.room.phase() == Phase::Countdown {
                    self.hold_seed();
                }
                said
            }
            Ask::Start => {
                let said = self.room.start(racer, now)?;
                self.hold_seed();
                said
            }
            Ask::Keys(keys) => self.room.keys(racer, &keys, now)?,
            Ask::Hello { .. } => return Err("you said hello already".into()),
            Ask::Rematch => {
                // After the results, so that no round of this race is still being stored.
                if self.told < self.room.races() {
                    return Err("a rematch comes after the results".into());
                }
                let mut said = self.room.rematch(super::new_seed())?;
                self.rows.clear();
                self.results = None;
                said.extend(self.seat_watchers());
                said
            }
            Ask::Leave => vec![],
        };
        Ok(said)
    }

    /// Back in the lobby: whoever watched the last race takes a seat for the next, while
    /// there is one.
    fn seat_watchers(&mut self) -> Said {
        let mut said = vec![];
        for conn in &mut self.conns {
            let Some(who) = conn.waiting.clone() else {
                continue;
            };
            // The room may be full, or the name taken meanwhile: then they watch on.
            if let Ok((Some(id), joined)) = self.room.join(who, secrets::token()) {
                conn.racer = Some(id);
                conn.waiting = None;
                said.extend(joined);
            }
        }
        said
    }

    /// The race's seed is the room's until its rounds are stored: a submission of it
    /// outside the room is refused meanwhile (docs/TRUST.md). Written as the countdown
    /// starts, seconds before anyone is shown the text.
    fn hold_seed(&self) {
        let (store, seed) = (self.st.store.clone(), self.room.seed());
        let countdown = u64::from(typepper_api::room::COUNTDOWN_MS);
        let until = self.st.now_ms() + i64::try_from(countdown + MAX_RACE_MS).unwrap_or(0);
        tokio::spawn(async move {
            if let Err(e) = store.live_seed(seed, until).await {
                tracing::warn!("holding a room's seed: {e}");
            }
        });
    }

    fn tick(&mut self) {
        let now = self.now();
        let before = self.room.phase();
        let said = self.room.tick(now);
        if before == Phase::Countdown && self.room.phase() != Phase::Countdown {
            // The go, in unix ms: the rooms' clock is the process's own.
            let since = now.saturating_sub(self.room.went());
            self.went_unix_ms = self.st.now_ms() - i64::try_from(since).unwrap_or(0);
        }
        self.deliver(said);
        self.settle();
    }

    /// After anything: the rounds that finished go to be stored, the results are told
    /// once all are, and the room notes whether anyone is connected.
    fn settle(&mut self) {
        for finished in self.room.take_finished() {
            self.keep(finished);
        }
        let race = self.room.races();
        if self.room.phase() == Phase::Over && race > self.told && self.storing.is_empty() {
            self.told = race;
            let mut rows = std::mem::take(&mut self.rows);
            // Best first; a tie goes to who finished first.
            rows.sort_by_key(|row| std::cmp::Reverse(row.headline));
            let rows = Say::Results(rows);
            self.results = Some(rows.clone());
            self.deliver(vec![(To::All, rows)]);
            self.release_seed();
        }
        match (self.room.is_empty(), self.empty_since) {
            (false, _) => self.empty_since = None,
            (true, None) => self.empty_since = Some(Instant::now()),
            (true, Some(_)) => {}
        }
    }

    /// The race's rounds are stored: its seed is anyone's to race again.
    fn release_seed(&self) {
        let (store, seed, now) = (self.st.store.clone(), self.room.seed(), self.st.now_ms());
        tokio::spawn(async move {
            if let Err(e) = store.live_seed(seed, now).await {
                tracing::warn!("releasing a room's seed: {e}");
            }
        });
    }

    /// Stores a finished round from a task of its own (judged, copies refused, quotas
    /// kept), or keeps its row, with why, for a round too small to store.
    fn keep(&mut self, finished: Finished) {
        let Finished {
            racer,
            headline,
            keeper,
            replay,
        } = finished;
        let row = move |run: Option<(String, String)>, kept| {
            let (run, share) = run.unzip();
            Finish {
                racer,
                headline,
                run,
                share,
                kept,
            }
        };
        let keeper = match keeper {
            Ok(keeper) => keeper,
            Err(unkept) => return self.rows.push(row(None, unkept)),
        };
        let (st, race, went) = (self.st.clone(), self.room.races(), self.went_unix_ms);
        self.storing.spawn(async move {
            let (run, kept) = match super::kept_as(&st, keeper, &replay, went).await {
                Ok(sub) => super::store(&st, sub, replay).await,
                Err(unkept) => (None, unkept),
            };
            (race, row(run, kept))
        });
    }

    fn stored(&mut self, stored: Result<(u32, Finish), tokio::task::JoinError>) {
        match stored {
            Ok((race, row)) if race == self.room.races() => self.rows.push(row),
            // A rematch began meanwhile: that race's results were told without it.
            Ok(_) => {}
            Err(e) => tracing::warn!("storing a room's round failed: {e}"),
        }
        self.settle();
    }

    /// Why the room closes now, if it does.
    fn closing(&self) -> Option<String> {
        let phase = self.room.phase();
        let between = matches!(phase, Phase::Lobby | Phase::Over);
        let empty_for = self.empty_since.map(|at| at.elapsed());
        if self.room.is_empty() && phase == Phase::Over && self.storing.is_empty() {
            return Some("this room has closed: everyone left".into());
        }
        if empty_for.is_some_and(|d| d > EMPTY_FOR) && self.storing.is_empty() {
            return Some("this room has closed: no one was in it".into());
        }
        if between && self.heard.elapsed() > self.limits.idle {
            return Some(format!(
                "this room has closed after {} with no one racing: open a new one to race again",
                crate::limit::spell(self.limits.idle)
            ));
        }
        if between && self.opened.elapsed() > self.limits.max_time && self.storing.is_empty() {
            return Some(format!(
                "this room has closed after {}, its most: open a new one to race again",
                crate::limit::spell(self.limits.max_time)
            ));
        }
        None
    }

    /// Waits for the rounds being stored (a while), tells everyone `why` and lets every
    /// connection go.
    async fn close(&mut self, why: &str) {
        let waited = tokio::time::timeout(STORING_WITHIN, async {
            while let Some(stored) = self.storing.join_next().await {
                if let Err(e) = stored {
                    tracing::warn!("storing a room's round failed: {e}");
                }
            }
        })
        .await;
        if waited.is_err() {
            tracing::warn!(
                "room {} closed with rounds still being stored",
                self.room.code()
            );
        }
        let said = text(&Say::Refused(why.into()));
        let mut processes = vec![];
        for conn in std::mem::take(&mut self.conns) {
            match (&conn.to, &conn.id) {
                (Listener::Here(tx), _) => {
                    let _ = tx.try_send(Out::Text(said.clone()));
                }
                (Listener::There, ConnId::There(process, _)) => {
                    if !processes.contains(process) {
                        processes.push(process.clone());
                    }
                }
                (Listener::There, ConnId::Here(_)) => {}
            }
        }
        // Each other process is told once, for all its connections.
        if let Some(relay) = self.st.rooms.relay.get() {
            let code = self.room.code();
            for process in processes {
                relay.say(&process, code, Fan::All, &said);
                let to = Fan::All;
                relay.send(
                    &process,
                    Note::Drop {
                        code: code.to_owned(),
                        to,
                    },
                );
            }
        }
    }

    /// Tells one connection `say`.
    fn tell(&mut self, conn: &ConnId, say: Say) {
        if let Some(at) = self.conns.iter().position(|c| c.id == *conn)
            && !self.send(&self.conns[at], Out::Text(text(&say)))
        {
            self.drop_conns(vec![at]);
        }
    }

    /// Sends `out` to one connection: `false` if it is not reading (its outbox is full),
    /// or its process can't be reached.
    fn send(&self, conn: &Member, out: Out) -> bool {
        match (&conn.to, &conn.id) {
            (Listener::Here(tx), _) => tx.try_send(out).is_ok(),
            (Listener::There, ConnId::There(process, n)) => match self.st.rooms.relay.get() {
                Some(relay) => match out {
                    Out::Text(text) => relay.say(process, self.room.code(), Fan::One(*n), &text),
                    Out::CatchUp(catch_up) => {
                        relay.catch_up(process, self.room.code(), *n, catch_up)
                    }
                },
                None => false,
            },
            (Listener::There, ConnId::Here(_)) => false,
        }
    }

    /// Lets a connection go: its outbox closes (and its session with it), or its process
    /// is told to close it.
    fn let_go(&self, conn: Member) {
        if let (Listener::There, ConnId::There(process, n)) = (&conn.to, &conn.id)
            && let Some(relay) = self.st.rooms.relay.get()
        {
            relay.send(
                process,
                Note::Drop {
                    code: self.room.code().to_owned(),
                    to: Fan::One(*n),
                },
            );
        }
    }

    /// Says what the room said to whom: each message once to each local connection that
    /// wants it, and once to each other process, whatever its number of connections. A
    /// connection that can't take it is let go, and its racer is disconnected (which may
    /// say more).
    fn deliver(&mut self, mut said: Said) {
        while !said.is_empty() {
            let mut dropped = vec![];
            for (to, say) in said.drain(..) {
                let text = text(&say);
                // Per process: its connections that want this, and those that don't.
                let mut there: HashMap<&Arc<str>, (Vec<u64>, Vec<u64>)> = HashMap::new();
                for (i, conn) in self.conns.iter().enumerate() {
                    let wanted = match to {
                        To::All => true,
                        To::One(id) => conn.racer == Some(id),
                        To::Others(id) => conn.racer != Some(id),
                    };
                    match (&conn.to, &conn.id) {
                        (Listener::Here(tx), _) => {
                            if wanted && tx.try_send(Out::Text(text.clone())).is_err() {
                                dropped.push(i);
                            }
                        }
                        (Listener::There, ConnId::There(process, n)) => {
                            let (yes, no) = there.entry(process).or_default();
                            if wanted { yes.push(*n) } else { no.push(*n) }
                        }
                        (Listener::There, ConnId::Here(_)) => {}
                    }
                }
                for (process, (yes, no)) in there {
                    // One connection is named (its first message, its welcome, must reach
                    // it before it counts among all of them there); more are all, or all
                    // but one, whatever their number.
                    let fans = match (yes.as_slice(), no.as_slice()) {
                        ([], _) => vec![],
                        ([one], _) => vec![Fan::One(*one)],
                        (_, []) => vec![Fan::All],
                        (_, [one]) => vec![Fan::AllBut(*one)],
                        (many, _) => many.iter().map(|n| Fan::One(*n)).collect(),
                    };
                    let code = self.room.code();
                    let sent = self.st.rooms.relay.get().is_some_and(|relay| {
                        fans.into_iter()
                            .all(|fan| relay.say(process, code, fan, &text))
                    });
                    if !sent {
                        // The relay is overwhelmed: that process's connections go.
                        let theirs = self.conns.iter().enumerate();
                        dropped.extend(theirs.filter_map(|(i, c)| match &c.id {
                            ConnId::There(p, _) if p == process => Some(i),
                            _ => None,
                        }));
                    }
                }
            }
            said = self.drop_conns(dropped);
        }
    }

    /// Lets the connections at `at` go, disconnecting their racers: what that says.
    fn drop_conns(&mut self, mut at: Vec<usize>) -> Said {
        at.sort_unstable();
        at.dedup();
        let now = self.now();
        let mut said = vec![];
        for i in at.into_iter().rev() {
            let conn = self.conns.swap_remove(i);
            if let Some(racer) = conn.racer {
                said.extend(self.room.disconnect(racer, now));
            }
            self.let_go(conn);
        }
        said
    }
}

/// A message as it goes on the wire.
pub(crate) fn text(say: &Say) -> Utf8Bytes {
    serde_json::to_string(say).unwrap_or_default().into()
}
