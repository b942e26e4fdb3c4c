//! Rooms across server processes on one PostgreSQL. Each room has one owning process, the
//! one that opened it. A racer connected to another process reaches it through
//! PostgreSQL's LISTEN/NOTIFY, the one engine every process already shares.
//!
//! How it works:
//! 1. Each process listens on `typepper_rooms`, where any process asks who owns a code,
//!    and on `typepper_p_<id>`, its own channel, `id` drawn at start.
//! 2. A connection for a room not held here asks (`find`). The owner answers (`here`),
//!    and the connection's messages go to the owner's channel (`open`, `in`, `gone`).
//!    There the owner runs the room's own session for it, as for any connection, and
//!    sends what it says back to the asking process's channel (`out`, `close`).
//! 3. Each connection's notifications go one at a time, in order, from one task. So a
//!    racer's keys reach the owner in the order they were typed, and the owner's
//!    messages reach the racer in the order they were said. PostgreSQL delivers a
//!    session's notifications in commit order.
//! 4. A notification's payload is at most 8000 bytes. A message is at most 4 KiB, and
//!    whatever the room says is too, but for a resume of a long round: that one is
//!    refused, and the racer told.
//!
//! When the owning process dies, its rooms die with it: a race's clock and its engines
//! were there, and rooms are minutes long. A process asks the owner of each of its
//! connections whether it still holds it (`ping`, every [`PING_EVERY`]); the owner
//! answers (`pong`). A connection with no answer and no message from the room for
//! [`SILENT_FOR`] is told that the room's server is gone, and closed.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{AsyncMessage, NoTls};

use super::{Caller, OUTBOX, Wire, refusal, session};
use crate::Shared;
use crate::store::Player;

/// The channel where any process asks who owns a room.
const ROOMS: &str = "typepper_rooms";
/// How long an owner has to answer a `find`.
const FIND_WITHIN: Duration = Duration::from_secs(2);
/// The longest payload PostgreSQL's NOTIFY takes is 8000 bytes; a little under it.
const MAX_PAYLOAD: usize = 7_900;
/// How often a connection to a room elsewhere asks whether its owner still holds it.
const PING_EVERY: Duration = Duration::from_secs(5);
/// How long a connection hears nothing from its room's owner before it gives the room up:
/// three pings unanswered.
const SILENT_FOR: Duration = Duration::from_secs(15);

/// One notification between processes.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Note {
    /// Who owns `code`? Answer on `from`'s channel.
    Find { code: String, from: String },
    /// `owner` owns `code`.
    Here { code: String, owner: String },
    /// `from`'s connection `conn` joins `code`, as the player its SSH key is, if any,
    /// from address `ip` (none from a process of a version before it was sent).
    Open {
        code: String,
        from: String,
        conn: u64,
        keyed: Option<(i64, String)>,
        #[serde(default)]
        ip: Option<IpAddr>,
    },
    /// A message from `from`'s connection `conn` (none: a message that is no text).
    In {
        from: String,
        conn: u64,
        text: Option<String>,
    },
    /// `from`'s connection `conn` went.
    Gone { from: String, conn: u64 },
    /// For this process's connection `conn`: what the room says.
    Out { conn: u64, text: String },
    /// For this process's connection `conn`: the room let it go.
    Close { conn: u64 },
    /// Does the owner still hold `from`'s connection `conn`?
    Ping { from: String, conn: u64 },
    /// For this process's connection `conn`: its owner holds it.
    Pong { conn: u64 },
}

/// This process's end of the relay.
pub struct Relay {
    /// This process's id: its channel is `typepper_p_<me>`.
    me: String,
    client: tokio_postgres::Client,
    next_conn: AtomicU64,
    /// This process's connections to rooms elsewhere: where their messages go.
    outboxes: Mutex<HashMap<u64, mpsc::Sender<Utf8Bytes>>>,
    /// Connections elsewhere to rooms here: where their messages go.
    inboxes: Mutex<HashMap<(String, u64), mpsc::Sender<Wire>>>,
    /// Asked who owns a code: who waits for the answer.
    finding: Mutex<HashMap<String, Vec<oneshot::Sender<String>>>>,
    /// This process's connections to rooms elsewhere: when their owner was last heard.
    heard: Mutex<HashMap<u64, Instant>>,
}

fn channel_of(process: &str) -> String {
    format!("typepper_p_{process}")
}

/// Starts the relay for `st`'s rooms over the PostgreSQL at `url`.
pub async fn start(st: Arc<Shared>, url: &str) -> anyhow::Result<()> {
    let (client, mut connection) = tokio_postgres::connect(url, NoTls).await?;
    let (notes, mut inbox) = mpsc::unbounded_channel();
    // The connection delivers notifications as it is polled; this task polls it.
    tokio::spawn(async move {
        let messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        let mut messages = std::pin::pin!(messages);
        while let Some(message) = futures_util::StreamExt::next(&mut messages).await {
            match message {
                Ok(AsyncMessage::Notification(n)) => {
                    if notes.send(n.payload().to_owned()).is_err() {
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
    let mut me = [0u8; 6];
    crate::secrets::random(&mut me);
    let me: String = me.iter().map(|b| format!("{b:02x}")).collect();
    client
        .batch_execute(&format!("LISTEN {ROOMS}; LISTEN {}", channel_of(&me)))
        .await?;
    let relay = Arc::new(Relay {
        me,
        client,
        next_conn: AtomicU64::new(1),
        outboxes: Mutex::default(),
        inboxes: Mutex::default(),
        finding: Mutex::default(),
        heard: Mutex::default(),
    });
    if st.rooms.relay.set(relay.clone()).is_err() {
        anyhow::bail!("the rooms' relay was started twice");
    }
    tokio::spawn(async move {
        while let Some(payload) = inbox.recv().await {
            match serde_json::from_str::<Note>(&payload) {
                Ok(note) => relay.take(&st, note).await,
                Err(e) => tracing::warn!("a relay notification that isn't one ({e})"),
            }
        }
    });
    Ok(())
}

impl Relay {
    async fn notify(&self, channel: &str, note: &Note) -> bool {
        let Ok(payload) = serde_json::to_string(note) else {
            return false;
        };
        if payload.len() > MAX_PAYLOAD {
            return false;
        }
        let sent = self
            .client
            .execute("SELECT pg_notify($1, $2)", &[&channel, &payload])
            .await;
        if let Err(e) = &sent {
            tracing::warn!("the rooms' relay could not notify: {e}");
        }
        sent.is_ok()
    }

    /// The process that owns `code`, if any answers in time.
    pub(crate) async fn find(&self, code: &str) -> Option<String> {
        let (tx, rx) = oneshot::channel();
        if let Ok(mut finding) = self.finding.lock() {
            finding.entry(code.to_owned()).or_default().push(tx);
        }
        let ask = Note::Find {
            code: code.to_owned(),
            from: self.me.clone(),
        };
        self.notify(ROOMS, &ask).await;
        let owner = tokio::time::timeout(FIND_WITHIN, rx).await.ok()?.ok();
        if let Ok(mut finding) = self.finding.lock() {
            finding.remove(code);
        }
        owner
    }

    /// One notification, taken.
    async fn take(&self, st: &Arc<Shared>, note: Note) {
        match note {
            Note::Find { code, from } => {
                if st.rooms.get(&code).is_some() {
                    let owner = self.me.clone();
                    self.notify(&channel_of(&from), &Note::Here { code, owner })
                        .await;
                }
            }
            Note::Here { code, owner } => {
                let waiting = self.finding.lock().ok().and_then(|mut f| f.remove(&code));
                for tx in waiting.into_iter().flatten() {
                    let _ = tx.send(owner.clone());
                }
            }
            Note::Open {
                code,
                from,
                conn,
                keyed,
                ip,
            } => {
                let caller = Caller {
                    keyed: keyed.map(|(id, name)| Player { id, name }),
                    // Unknown addresses share one allowance of guest rounds.
                    ip: ip.unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED)),
                };
                self.hold(st, code, from, conn, caller);
            }
            Note::In { from, conn, text } => {
                let wire = self
                    .inboxes
                    .lock()
                    .ok()
                    .and_then(|i| i.get(&(from, conn)).cloned());
                let got = text.map_or(Wire::NotText, Wire::Text);
                if let Some(wire) = wire {
                    // Full: the connection floods, and its session closes it.
                    let _ = wire.try_send(got);
                }
            }
            Note::Gone { from, conn } => {
                if let Ok(mut inboxes) = self.inboxes.lock() {
                    inboxes.remove(&(from, conn));
                }
            }
            Note::Out { conn, text } => {
                self.heard_from(conn);
                let outbox = self
                    .outboxes
                    .lock()
                    .ok()
                    .and_then(|o| o.get(&conn).cloned());
                if let Some(outbox) = outbox
                    && outbox.try_send(text.into()).is_err()
                {
                    // Not read: let go, as the room would.
                    self.close(conn);
                }
            }
            Note::Close { conn } => self.close(conn),
            Note::Ping { from, conn } => {
                let held = self
                    .inboxes
                    .lock()
                    .is_ok_and(|i| i.contains_key(&(from.clone(), conn)));
                if held {
                    self.notify(&channel_of(&from), &Note::Pong { conn }).await;
                }
            }
            Note::Pong { conn } => self.heard_from(conn),
        }
    }

    /// Connection `conn`'s owner was heard from now.
    fn heard_from(&self, conn: u64) {
        if let Ok(mut heard) = self.heard.lock()
            && let Some(at) = heard.get_mut(&conn)
        {
            *at = Instant::now();
        }
    }

    /// How long since connection `conn`'s owner was last heard from.
    fn silent(&self, conn: u64) -> Duration {
        let heard = self.heard.lock().ok().and_then(|h| h.get(&conn).copied());
        heard.map_or(Duration::ZERO, |at| at.elapsed())
    }

    fn close(&self, conn: u64) {
        if let Ok(mut outboxes) = self.outboxes.lock() {
            outboxes.remove(&conn);
        }
        if let Ok(mut heard) = self.heard.lock() {
            heard.remove(&conn);
        }
    }

    /// Runs the session of `from`'s connection `conn` to room `code`, held here.
    fn hold(self: &Relay, st: &Arc<Shared>, code: String, from: String, conn: u64, caller: Caller) {
        let (Some(live), Some(relay)) = (st.rooms.get(&code), st.rooms.relay.get().cloned()) else {
            return;
        };
        let (wire, inbound) = mpsc::channel(OUTBOX);
        if let Ok(mut inboxes) = self.inboxes.lock() {
            inboxes.insert((from.clone(), conn), wire);
        }
        let (out, mut outbound) = mpsc::channel::<Utf8Bytes>(OUTBOX);
        let st = st.clone();
        tokio::spawn(async move {
            let to = channel_of(&from);
            let forward = {
                let (relay, to) = (relay.clone(), to.clone());
                tokio::spawn(async move {
                    while let Some(text) = outbound.recv().await {
                        let text = text.as_str().to_owned();
                        if !relay.notify(&to, &Note::Out { conn, text }).await {
                            let why = "a message too long to relay from the room's server";
                            let text = refusal(why).as_str().to_owned();
                            relay.notify(&to, &Note::Out { conn, text }).await;
                            return;
                        }
                    }
                })
            };
            session(st, live, caller, inbound, out).await;
            let _ = forward.await;
            if let Ok(mut inboxes) = relay.inboxes.lock() {
                inboxes.remove(&(from, conn));
            }
            relay.notify(&to, &Note::Close { conn }).await;
        });
    }

    /// A connection here to a room `owner` holds: its messages in go there, and what the
    /// room says comes back to `out`, until either side ends.
    pub(crate) async fn remote(
        &self,
        owner: &str,
        code: &str,
        caller: Caller,
        mut inbound: mpsc::Receiver<Wire>,
        out: mpsc::Sender<Utf8Bytes>,
    ) {
        let conn = self.next_conn.fetch_add(1, Ordering::SeqCst);
        let (tx, mut said) = mpsc::channel(OUTBOX);
        if let Ok(mut outboxes) = self.outboxes.lock() {
            outboxes.insert(conn, tx);
        }
        if let Ok(mut heard) = self.heard.lock() {
            heard.insert(conn, Instant::now());
        }
        let mut ping = tokio::time::interval(PING_EVERY);
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let to = channel_of(owner);
        let open = Note::Open {
            code: code.to_owned(),
            from: self.me.clone(),
            conn,
            keyed: caller.keyed.map(|p| (p.id, p.name)),
            ip: Some(caller.ip),
        };
        if self.notify(&to, &open).await {
            loop {
                tokio::select! {
                    text = said.recv() => {
                        let Some(text) = text else { break };
                        if out.send(text).await.is_err() {
                            break;
                        }
                    }
                    got = inbound.recv() => {
                        let Some(got) = got else { break };
                        let text = match got {
                            Wire::Text(text) => Some(text),
                            Wire::NotText => None,
                        };
                        let from = self.me.clone();
                        if !self.notify(&to, &Note::In { from, conn, text }).await {
                            let _ = out.send(refusal("the room's server can't be reached")).await;
                            break;
                        }
                    }
                    _ = ping.tick() => {
                        if self.silent(conn) > SILENT_FOR {
                            let why = "the room's server is gone: this room has ended";
                            let _ = out.send(refusal(why)).await;
                            break;
                        }
                        let from = self.me.clone();
                        self.notify(&to, &Note::Ping { from, conn }).await;
                    }
                }
            }
        }
        self.close(conn);
        let from = self.me.clone();
        self.notify(&to, &Note::Gone { from, conn }).await;
    }
}
