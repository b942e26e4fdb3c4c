//! Rooms across server processes on one PostgreSQL. Each room has one owning process,
//! the one that opened it. A racer connected to another process reaches it through
//! PostgreSQL, the one engine every process already shares: a table says who owns which
//! room, and LISTEN/NOTIFY carries the messages.
//!
//! How it works:
//! 1. **Who owns a room.** `live_rooms` maps each open room's code to its owner's id. A
//!    code is written there before it is given out, and deleted when the room closes; a
//!    join for a code no one holds is answered at once.
//! 2. **Notes.** Each process listens on a channel of its own, `typepper_p_<id>`. A
//!    connection here to a room elsewhere sends its hello, its messages and its going to
//!    the owner ([`Note::Join`], [`Note::Ask`], [`Note::Gone`]); there the room's task
//!    holds it as one of its connections.
//! 3. **Fan-out per process.** What a room says goes to each other process once, as one
//!    [`Note::Say`] naming its connections there (all, all but one, or one: [`Fan`]),
//!    whatever their number, and that process hands it to each. A room never waits on a
//!    process: its notes are queued, and when the queue is full that process's
//!    connections are let go.
//! 4. **One queue out, one loop in.** Notes go out from one task, in order, up to
//!    [`BATCH`] in one statement. Notes come in on one task that never waits on
//!    PostgreSQL: whatever it answers is queued too.
//! 5. **Payloads.** A notification carries at most 8000 bytes. Every message fits: a
//!    catch-up, a resume among them, is read out a chunk of keys at a time.
//!
//! When the owning process dies, its rooms die with it: a race's clock and its engines
//! were there, and rooms are minutes long. Each process asks the owner of each room it
//! has connections to, every [`PING_EVERY`], whether it still holds it ([`Note::Ping`],
//! answered [`Note::Pong`]). A room heard nothing from for [`SILENT_FOR`] has ended: its
//! connections here are told so and closed.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls};
use typepper_api::room::Ask;

use super::room::CatchUp;
use super::task::{Cmd, ConnId, Listener, Out, Who};
use crate::Shared;

/// The longest payload PostgreSQL's NOTIFY takes is 8000 bytes; a little under it.
const MAX_PAYLOAD: usize = 7_900;
/// How often a process asks each room it has connections to whether it is still held.
const PING_EVERY: Duration = Duration::from_secs(5);
/// How long a room's owner may be silent before its connections here give it up: three
/// pings unanswered.
const SILENT_FOR: Duration = Duration::from_secs(15);
/// Notes waiting to go out; past it, a room lets the process it can't reach go.
const QUEUE: usize = 16_384;
/// Notes sent in one statement.
const BATCH: usize = 256;
/// How often a process deletes directory rows older than any room can be: a process that
/// died with rooms open left them.
const SWEEP_EVERY: Duration = Duration::from_secs(600);

/// One note between processes.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Note {
    /// `from`'s connection `conn` joins room `code` as `who`.
    Join {
        code: String,
        from: String,
        conn: u64,
        who: Who,
    },
    /// A message of `from`'s connection `conn` after its hello.
    Ask {
        code: String,
        from: String,
        conn: u64,
        ask: Ask,
    },
    /// `from`'s connection `conn` went (`leaving`: for good).
    Gone {
        code: String,
        from: String,
        conn: u64,
        leaving: bool,
    },
    /// Does the owner still hold room `code`? Answer on `from`'s channel.
    Ping { code: String, from: String },
    /// For connections here to room `code`: what the room says.
    Say { code: String, to: Fan, text: String },
    /// For connections here to room `code`: the room let them go.
    Drop { code: String, to: Fan },
    /// The owner still holds room `code`.
    Pong { code: String },
}

/// Which of a process's connections to a room a note is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Fan {
    /// Every one the room has welcomed.
    All,
    /// Every one but this.
    AllBut(u64),
    /// This one.
    One(u64),
}

impl Fan {
    fn takes(self, conn: u64, welcomed: bool) -> bool {
        match self {
            Fan::All => welcomed,
            Fan::AllBut(but) => welcomed && conn != but,
            Fan::One(one) => conn == one,
        }
    }
}

/// A note as it crosses: numbered, because PostgreSQL delivers identical notifications of
/// one transaction once, and a batch may hold two alike (two pings, say).
#[derive(serde::Serialize, serde::Deserialize)]
struct Envelope {
    n: u64,
    note: Note,
}

/// What waits to go out: a note, or a connection's catch-up, read out into notes as it
/// goes.
enum Outgoing {
    Note(String, Note),
    CatchUp(String, String, u64, CatchUp),
}

/// This process's end of the relay.
pub struct Relay {
    /// This process's id: its channel is `typepper_p_<me>`.
    me: Arc<str>,
    queue: mpsc::Sender<Outgoing>,
    /// The directory's statements: a connection of their own, so that no batch of notes
    /// delays a join.
    directory: tokio_postgres::Client,
    /// This process's connections to rooms elsewhere, by room.
    links: Mutex<HashMap<String, Link>>,
    /// Notes numbered so far.
    numbered: AtomicU64,
    /// Notes and statements sent so far: the relay's metrics.
    pub(crate) sent: AtomicU64,
    pub(crate) statements: AtomicU64,
    /// How long a room may be open: rows older than this and an hour are a dead
    /// process's.
    max_room: Duration,
}

/// Connections here to one room elsewhere.
struct Link {
    owner: String,
    /// Each one's outbox, and whether the room has welcomed it (only then does it take
    /// what the room says to all).
    conns: HashMap<u64, (mpsc::Sender<Out>, bool)>,
    heard: Instant,
}

fn channel_of(process: &str) -> String {
    format!("typepper_p_{process}")
}

/// Starts the relay for `st`'s rooms over the PostgreSQL at `url`.
pub async fn start(st: Arc<Shared>, url: &str) -> anyhow::Result<()> {
    let (client, mut connection) = tokio_postgres::connect(url, NoTls).await?;
    let (notes, mut inbox) = mpsc::channel::<String>(QUEUE);
    // The connection delivers notifications as it is polled; this task polls it, and
    // waits while the loop below is behind (PostgreSQL keeps them meanwhile).
    tokio::spawn(async move {
        let messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        let mut messages = std::pin::pin!(messages);
        while let Some(message) = futures_util::StreamExt::next(&mut messages).await {
            match message {
                Ok(AsyncMessage::Notification(n)) => {
                    if notes.send(n.payload().to_owned()).await.is_err() {
                        return;
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!("the rooms' relay lost PostgreSQL: {e}");
                    return;
                }
            }
        }
    });
    let (directory, connection) = tokio_postgres::connect(url, NoTls).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::warn!("the rooms' directory lost PostgreSQL: {e}");
        }
    });
    let mut me = [0u8; 6];
    crate::secrets::random(&mut me);
    let me: String = me.iter().map(|b| format!("{b:02x}")).collect();
    client
        .batch_execute(&format!("LISTEN {}", channel_of(&me)))
        .await?;
    let (queue, outgoing) = mpsc::channel(QUEUE);
    let relay = Arc::new(Relay {
        me: me.into(),
        queue,
        directory,
        links: Mutex::default(),
        numbered: AtomicU64::new(0),
        sent: AtomicU64::new(0),
        statements: AtomicU64::new(0),
        max_room: Duration::from_secs(st.config.rooms.max_time_secs),
    });
    if st.rooms.relay.set(relay.clone()).is_err() {
        anyhow::bail!("the rooms' relay was started twice");
    }
    tokio::spawn(relay.clone().send_all(client, outgoing));
    tokio::spawn(relay.clone().ping_all());
    tokio::spawn(async move {
        while let Some(payload) = inbox.recv().await {
            match serde_json::from_str::<Envelope>(&payload) {
                Ok(envelope) => relay.take(&st, envelope.note),
                Err(e) => tracing::warn!("a relay notification that isn't one ({e})"),
            }
        }
    });
    Ok(())
}

impl Relay {
    /// This process's id.
    pub(crate) fn me(&self) -> &Arc<str> {
        &self.me
    }

    /// Queues `note` for process `to`: `false` if the queue is full.
    pub(crate) fn send(&self, to: &str, note: Note) -> bool {
        self.queue
            .try_send(Outgoing::Note(to.to_owned(), note))
            .is_ok()
    }

    /// Queues what room `code` says to `fan` of process `to`'s connections.
    pub(crate) fn say(&self, to: &str, code: &str, fan: Fan, text: &Utf8Bytes) -> bool {
        let note = Note::Say {
            code: code.to_owned(),
            to: fan,
            text: text.as_str().to_owned(),
        };
        self.send(to, note)
    }

    /// Queues a catch-up for process `to`'s connection `conn` to room `code`.
    pub(crate) fn catch_up(&self, to: &str, code: &str, conn: u64, catch_up: CatchUp) -> bool {
        let out = Outgoing::CatchUp(to.to_owned(), code.to_owned(), conn, catch_up);
        self.queue.try_send(out).is_ok()
    }

    /// A connection here, numbered `conn`, to room `code` that `owner` holds: its outbox.
    pub(crate) fn attach(&self, owner: &str, code: &str, conn: u64) -> mpsc::Receiver<Out> {
        let (tx, rx) = mpsc::channel(super::OUTBOX);
        if let Ok(mut links) = self.links.lock() {
            let link = links.entry(code.to_owned()).or_insert_with(|| Link {
                owner: owner.to_owned(),
                conns: HashMap::new(),
                heard: Instant::now(),
            });
            link.conns.insert(conn, (tx, false));
        }
        rx
    }

    /// Connection `conn` to room `code` went.
    pub(crate) fn detach(&self, code: &str, conn: u64) {
        if let Ok(mut links) = self.links.lock()
            && let Some(link) = links.get_mut(code)
        {
            link.conns.remove(&conn);
            if link.conns.is_empty() {
                links.remove(code);
            }
        }
    }

    /// Writes `code` in the directory as this process's: `false` if another room has it.
    pub(crate) async fn register(&self, code: &str) -> Result<bool, tokio_postgres::Error> {
        let now = unix_ms();
        let me: &str = &self.me;
        let added = self
            .directory
            .execute(
                "INSERT INTO live_rooms (code, owner, opened_ms) VALUES ($1, $2, $3) \
                 ON CONFLICT (code) DO NOTHING",
                &[&code, &me, &now],
            )
            .await?;
        Ok(added == 1)
    }

    /// Deletes `code` from the directory: the room has closed.
    pub(crate) fn unregister(self: &Arc<Self>, code: &str) {
        let (relay, code) = (self.clone(), code.to_owned());
        tokio::spawn(async move {
            let me: &str = &relay.me;
            let deleted = relay
                .directory
                .execute(
                    "DELETE FROM live_rooms WHERE code = $1 AND owner = $2",
                    &[&code, &me],
                )
                .await;
            if let Err(e) = deleted {
                tracing::warn!("deleting room {code} from the directory: {e}");
            }
        });
    }

    /// The process that holds room `code`, as the directory says; `None` for a code no
    /// room has (or this process's own, which it would hold in its map).
    pub(crate) async fn find(&self, code: &str) -> Option<String> {
        let row = self
            .directory
            .query_opt("SELECT owner FROM live_rooms WHERE code = $1", &[&code])
            .await;
        let owner: String = match row {
            Ok(row) => row?.get(0),
            Err(e) => {
                tracing::warn!("finding room {code}: {e}");
                return None;
            }
        };
        (*owner != *self.me).then_some(owner)
    }

    /// Sends what is queued, in order, in batches.
    async fn send_all(
        self: Arc<Self>,
        client: tokio_postgres::Client,
        mut outgoing: mpsc::Receiver<Outgoing>,
    ) {
        let (mut channels, mut payloads) = (vec![], vec![]);
        while let Some(first) = outgoing.recv().await {
            let mut next = Some(first);
            while let Some(out) = next.take() {
                self.write(out, &mut channels, &mut payloads);
                if payloads.len() >= BATCH {
                    break;
                }
                next = outgoing.try_recv().ok();
            }
            if payloads.is_empty() {
                continue;
            }
            self.sent
                .fetch_add(payloads.len() as u64, Ordering::Relaxed);
            self.statements.fetch_add(1, Ordering::Relaxed);
            // One statement for the batch: in one transaction, PostgreSQL delivers its
            // notifications in the order they were made.
            let sent = client
                .execute(
                    "SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n(c, p)",
                    &[&channels, &payloads],
                )
                .await;
            if let Err(e) = sent {
                tracing::warn!("the rooms' relay could not notify: {e}");
            }
            channels.clear();
            payloads.clear();
        }
    }

    /// `out` as notifications: each channel and payload pushed. A payload too long to
    /// send (none is: see the module's docs) is logged and left out.
    fn write(&self, out: Outgoing, channels: &mut Vec<String>, payloads: &mut Vec<String>) {
        let mut push = |to: &str, note: Note| {
            let n = self.numbered.fetch_add(1, Ordering::Relaxed);
            match serde_json::to_string(&Envelope { n, note }) {
                Ok(payload) if payload.len() <= MAX_PAYLOAD => {
                    channels.push(channel_of(to));
                    payloads.push(payload);
                }
                Ok(payload) => tracing::warn!(
                    "a relay note of {} bytes is too long to send: left out",
                    payload.len()
                ),
                Err(e) => tracing::warn!("a relay note that can't be written ({e})"),
            }
        };
        match out {
            Outgoing::Note(to, note) => push(&to, note),
            Outgoing::CatchUp(to, code, conn, catch_up) => {
                for say in catch_up.messages() {
                    let text = super::task::text(&say).as_str().to_owned();
                    let to_one = Fan::One(conn);
                    push(
                        &to,
                        Note::Say {
                            code: code.clone(),
                            to: to_one,
                            text,
                        },
                    );
                }
            }
        }
    }

    /// Pings each room this process has connections to, gives up those gone silent, and
    /// now and then sweeps the directory of dead processes' rows.
    async fn ping_all(self: Arc<Self>) {
        let mut every = tokio::time::interval(PING_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut swept = Instant::now();
        loop {
            every.tick().await;
            let mut silent = vec![];
            let mut pings = vec![];
            if let Ok(mut links) = self.links.lock() {
                links.retain(|code, link| {
                    if link.heard.elapsed() > SILENT_FOR {
                        silent.extend(link.conns.drain().map(|(_, (tx, _))| tx));
                        return false;
                    }
                    pings.push((link.owner.clone(), code.clone()));
                    true
                });
            }
            let gone = super::refusal("the room's server is gone: this room has ended");
            for tx in silent {
                let _ = tx.try_send(Out::Text(gone.clone()));
            }
            for (owner, code) in pings {
                let from = self.me.to_string();
                self.send(&owner, Note::Ping { code, from });
            }
            if swept.elapsed() > SWEEP_EVERY {
                swept = Instant::now();
                let horizon = Duration::from_secs(3600) + self.max_room;
                let before = unix_ms() - i64::try_from(horizon.as_millis()).unwrap_or(0);
                let deleted = self
                    .directory
                    .execute("DELETE FROM live_rooms WHERE opened_ms < $1", &[&before])
                    .await;
                if let Err(e) = deleted {
                    tracing::warn!("sweeping the rooms' directory: {e}");
                }
            }
        }
    }

    /// One note, taken. Never waits: what it answers is queued.
    fn take(&self, st: &Arc<Shared>, note: Note) {
        match note {
            Note::Join {
                code,
                from,
                conn,
                who,
            } => {
                let to = Listener::There;
                let id = ConnId::There(from.as_str().into(), conn);
                let joined = st
                    .rooms
                    .get(&code)
                    .is_some_and(|room| room.try_send(Cmd::Join { conn: id, to, who }));
                if !joined {
                    let why = super::refusal(&format!("no room {code}: it ended, or never was"));
                    self.say(&from, &code, Fan::One(conn), &why);
                    self.send(
                        &from,
                        Note::Drop {
                            code,
                            to: Fan::One(conn),
                        },
                    );
                }
            }
            Note::Ask {
                code,
                from,
                conn,
                ask,
            } => {
                let conn = ConnId::There(from.as_str().into(), conn);
                if let Some(room) = st.rooms.get(&code) {
                    room.try_send(Cmd::Ask { conn, ask });
                }
            }
            Note::Gone {
                code,
                from,
                conn,
                leaving,
            } => {
                // Never lost to a full queue: a connection the room kept would hold its
                // racer's seat.
                if let Some(room) = st.rooms.get(&code) {
                    let conn = ConnId::There(from.as_str().into(), conn);
                    tokio::spawn(async move { room.send(Cmd::Gone { conn, leaving }).await });
                }
            }
            Note::Ping { code, from } => {
                if st.rooms.get(&code).is_some() {
                    self.send(&from, Note::Pong { code });
                }
            }
            Note::Say { code, to, text } => {
                let text = Utf8Bytes::from(text);
                self.fan_out(&code, to, |tx| tx.try_send(Out::Text(text.clone())).is_ok());
            }
            Note::Drop { code, to } => {
                // Dropping their outboxes ends their sessions.
                self.fan_out(&code, to, |_| false);
            }
            Note::Pong { code } => {
                if let Ok(mut links) = self.links.lock()
                    && let Some(link) = links.get_mut(&code)
                {
                    link.heard = Instant::now();
                }
            }
        }
    }

    /// Hands something to the connections here to room `code` that `fan` names: `give`
    /// says whether each took it; one that didn't is let go. The room was heard from.
    fn fan_out(&self, code: &str, fan: Fan, give: impl Fn(&mpsc::Sender<Out>) -> bool) {
        let Ok(mut links) = self.links.lock() else {
            return;
        };
        let Some(link) = links.get_mut(code) else {
            return;
        };
        link.heard = Instant::now();
        link.conns.retain(|&conn, (tx, welcomed)| {
            if !fan.takes(conn, *welcomed) {
                return true;
            }
            // What the room says to one connection first is its welcome.
            *welcomed = true;
            give(tx)
        });
        if link.conns.is_empty() {
            links.remove(code);
        }
    }
}

/// Unix ms now: the directory's clock, as the store's.
fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
