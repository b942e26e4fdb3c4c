//! Live rooms (docs/spec/rooms.md): friends race key by key.
//!
//! How it works:
//! 1. `POST /v1/rooms` opens a room for a mode, on a seed drawn here and told to no one
//!    before the countdown ends, under an 8-letter code.
//! 2. `GET /v1/rooms/<code>/live` is a WebSocket: the first message says who joins, then
//!    keys go up as typed and everyone's keys come down. The room's rules are
//!    [`room::Room`], which plays each racer's keys through the engine as they arrive.
//! 3. Each connection has a bounded outbox. A client that stops reading fills it and is
//!    dropped (its seat kept for it to come back), so no slow reader makes the server
//!    hold more.
//! 4. A task per room ticks its clock (the countdown, rounds ending) every 50 ms, and
//!    closes the room once it is over and empty, or empty for a while.
//!
//! Rooms live in this process: SQLite's one process serves them all. (Rooms across
//! several processes on one PostgreSQL are the next step: docs/spec/rooms.md.)

pub mod relay;
pub mod room;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Extension, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc;
use typepper_api::room::{ALPHABET, Ask, CODE_LEN, Open, Opened, Phase, Say, is_code};
use typepper_engine::Mode;

use self::room::{Joiner, Room, Said, To};
use crate::limit::Limiter;
use crate::{ApiError, ClientIp, Shared, client, secrets};

/// Messages a connection's outbox holds before its client counts as not reading.
pub(crate) const OUTBOX: usize = 256;
/// The largest message a client may send, in bytes: a `keys` message of the most keys.
pub(crate) const MAX_MESSAGE: usize = 4 * 1024;
/// How long a new connection has to say who it is.
const HELLO_WITHIN: Duration = Duration::from_secs(10);
/// How often a room's clock ticks.
const TICK: Duration = Duration::from_millis(50);
/// How long a room with no one connected is kept for its racers to come back.
const EMPTY_FOR: Duration = Duration::from_secs(60);
/// Messages a second a connection may send (keys go at most once a frame), in bursts of
/// twice that. Past it the connection is closed: a flood is no person's.
const MESSAGES_PER_SECOND: f64 = 100.0;

/// Every live room of this server.
pub struct Rooms {
    rooms: Mutex<HashMap<String, Arc<Live>>>,
    /// The rooms' clock: ms since this.
    epoch: Instant,
    opens: Limiter<IpAddr>,
    joins: Limiter<IpAddr>,
    /// Guests' rounds stored, per address.
    guests: Limiter<IpAddr>,
    max_rooms: usize,
    max_connections: usize,
    connections: Arc<std::sync::atomic::AtomicUsize>,
    /// Other processes' rooms, on PostgreSQL ([`relay::start`]).
    pub(crate) relay: std::sync::OnceLock<Arc<relay::Relay>>,
}

/// A room and the connections to it.
pub(crate) struct Live {
    inner: Mutex<Inner>,
}

struct Inner {
    room: Room,
    conns: Vec<Conn>,
    next_conn: u64,
}

/// A connection: the racer it holds, if any, and its outbox.
struct Conn {
    id: u64,
    racer: Option<u32>,
    tx: mpsc::Sender<Utf8Bytes>,
}

impl Rooms {
    /// No rooms yet, with the limits `config` sets.
    pub fn new(config: &crate::Config) -> Rooms {
        Rooms {
            rooms: Mutex::default(),
            epoch: Instant::now(),
            opens: Limiter::hourly(config.room_rate, config.room_rate),
            joins: Limiter::new(
                config.room_join_rate,
                config.room_join_rate.saturating_mul(2),
            ),
            guests: Limiter::hourly(config.guest_runs_per_hour, config.guest_runs_per_hour),
            max_rooms: config.max_rooms,
            max_connections: config.max_room_connections,
            connections: Arc::default(),
            relay: std::sync::OnceLock::new(),
        }
    }

    /// The rooms' clock now.
    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Ends every room, telling each connection `why` before it is closed: the server
    /// is stopping. Returns how many connections were told.
    pub fn close_all(&self, why: &str) -> usize {
        let Ok(text) = serde_json::to_string(&Say::Refused(why.into())) else {
            return 0;
        };
        let rooms: Vec<_> = self
            .rooms
            .lock()
            .map_or(vec![], |r| r.values().cloned().collect());
        let mut told = 0;
        for live in rooms {
            if let Ok(mut inner) = live.inner.lock() {
                for conn in inner.conns.drain(..) {
                    // The connection sends what is queued, then closes: its outbox is gone.
                    told += usize::from(conn.tx.try_send(text.clone().into()).is_ok());
                }
            }
        }
        told
    }

    pub(crate) fn get(&self, code: &str) -> Option<Arc<Live>> {
        self.rooms.lock().ok()?.get(code).cloned()
    }
}

/// A new room's code: [`CODE_LEN`] letters of [`ALPHABET`] from the OS's randomness.
fn new_code() -> String {
    let mut bytes = [0u8; CODE_LEN];
    secrets::random(&mut bytes);
    bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(b & 31)]))
        .collect()
}

/// A seed from the OS's randomness: no one can know the text before it is shown.
fn new_seed() -> u64 {
    let mut bytes = [0u8; 8];
    secrets::random(&mut bytes);
    u64::from_le_bytes(bytes)
}

impl Live {
    /// Runs `f` on the room, and sends what it says to whom; a connection whose outbox is
    /// full or gone is dropped, and its racer counts as disconnected.
    fn act<T>(&self, now: u64, f: impl FnOnce(&mut Room) -> (T, Said)) -> T {
        let Ok(mut inner) = self.inner.lock() else {
            // A panic while holding the lock poisoned it: the room is broken.
            return f(&mut Room::new(String::new(), Mode::Zen, 0)).0;
        };
        let (value, said) = f(&mut inner.room);
        inner.deliver(said, now);
        value
    }
}

impl Inner {
    fn deliver(&mut self, mut said: Said, now: u64) {
        while !said.is_empty() {
            let mut dropped = vec![];
            for (to, say) in said.drain(..) {
                let Ok(text) = serde_json::to_string(&say) else {
                    continue;
                };
                let text = Utf8Bytes::from(text);
                for conn in &self.conns {
                    let wanted = match to {
                        To::All => true,
                        To::One(id) => conn.racer == Some(id),
                        To::Others(id) => conn.racer != Some(id),
                    };
                    if wanted && conn.tx.try_send(text.clone()).is_err() {
                        dropped.push(conn.id);
                    }
                }
            }
            for id in dropped {
                if let Some(at) = self.conns.iter().position(|c| c.id == id) {
                    let conn = self.conns.swap_remove(at);
                    if let Some(racer) = conn.racer {
                        said.extend(self.room.disconnect(racer, now));
                    }
                }
            }
        }
    }
}

/// `POST /v1/rooms`: opens a room for a mode.
pub async fn open(
    State(st): State<Arc<Shared>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    crate::extract::Json(open): crate::extract::Json<Open>,
) -> Result<Response, ApiError> {
    let mode: Mode = open
        .mode
        .parse()
        .map_err(|e| ApiError::BadRequest(format!("{e}")))?;
    let rooms = &st.rooms;
    if st.config.room_rate > 0 {
        rooms
            .opens
            .take(&client::bucket(ip), Instant::now())
            .map_err(ApiError::RateLimited)?;
    }
    let code = {
        let mut map = rooms
            .rooms
            .lock()
            .map_err(|_| ApiError::Internal("the rooms' lock is poisoned".into()))?;
        if map.len() >= rooms.max_rooms {
            let why = format!("this server holds {} rooms, its most", rooms.max_rooms);
            return Err(ApiError::Unavailable(why, 60));
        }
        let code = std::iter::repeat_with(new_code)
            .find(|c| !map.contains_key(c))
            .unwrap_or_default();
        let link = format!("{}/?room={code}", st.config.public_url);
        let live = Arc::new(Live {
            inner: Mutex::new(Inner {
                room: Room::new(code.clone(), mode, new_seed()).linked(link),
                conns: vec![],
                next_conn: 1,
            }),
        });
        map.insert(code.clone(), live.clone());
        tokio::spawn(clock(st.clone(), code.clone(), live));
        code
    };
    let link = format!("{}/?room={code}", st.config.public_url);
    Ok((StatusCode::CREATED, Json(Opened { code, link })).into_response())
}

/// A room's clock: ticks until the room is over and empty, or empty too long, then
/// closes it.
async fn clock(st: Arc<Shared>, code: String, live: Arc<Live>) {
    let mut tick = tokio::time::interval(TICK);
    let mut empty_since = Instant::now();
    let mut told = 0;
    loop {
        tick.tick().await;
        let now = st.rooms.now();
        let (over, empty, race) = live.act(now, |room| {
            let said = room.tick(now);
            let state = (room.phase() == Phase::Over, room.is_empty(), room.races());
            (state, said)
        });
        if over && race > told {
            told = race;
            let (finished, went) = live.act(now, |room| ((room.finished(), room.went()), vec![]));
            // The go, in unix ms: the rooms' clock is the process's own.
            let went = st.now_ms() - i64::try_from(now.saturating_sub(went)).unwrap_or(0);
            let rows = keep(&st, finished, went).await;
            let now = st.rooms.now();
            live.act(now, |_| ((), vec![(To::All, Say::Results(rows))]));
        }
        if !empty {
            empty_since = Instant::now();
        }
        if empty && (over || empty_since.elapsed() > EMPTY_FOR) {
            break;
        }
    }
    if let Ok(mut map) = st.rooms.rooms.lock() {
        map.remove(&code);
    }
}

/// Stores each finished round as a run, through the submission's own path (judged,
/// copies refused, quotas kept), and fills in its row: the run, its share link, and
/// what became of it. The room's seed counts as issued to each linked racer at the go
/// (`went`, unix ms), so their round ranks as one on an issued seed does
/// (docs/TRUST.md). A guest's round is stored as a guest player's of its own, unranked,
/// while their address has guest rounds left this hour.
async fn keep(
    st: &Shared,
    finished: Vec<room::Finished>,
    went: i64,
) -> Vec<typepper_api::room::Finish> {
    let mut rows = Vec::with_capacity(finished.len());
    for done in finished {
        let mut row = done.finish;
        if let Some(keeper) = done.keeper {
            match kept_as(st, keeper, &done.replay, went).await {
                Ok(sub) => store(st, sub, done.replay, &mut row).await,
                Err(why) => row.kept = format!("not stored: {why}"),
            }
        }
        rows.push(row);
    }
    rows
}

/// The submission a finished round is stored through: a linked racer's own, on the room's
/// seed issued at the go, or a new guest's.
async fn kept_as(
    st: &Shared,
    keeper: room::Keeper,
    replay: &typepper_engine::Replay,
    went: i64,
) -> Result<crate::submit::Submission, String> {
    match keeper {
        room::Keeper::Player(player) => {
            let mut sub = st.submission(player);
            sub.live = Some(crate::store::IssuedSeed {
                seed: replay.seed,
                player,
                mode: replay.mode.clone(),
                issued_ms: went,
                expires_ms: sub.now_ms,
                run: None,
            });
            Ok(sub)
        }
        room::Keeper::Guest { name, from } => {
            if st
                .rooms
                .guests
                .take(&client::bucket(from), Instant::now())
                .is_err()
            {
                return Err(format!(
                    "guest rounds from your address are past this hour's {}: link a game to \
                     keep more",
                    st.config.guest_runs_per_hour
                ));
            }
            let token = secrets::token_hash(&secrets::token());
            let guest = st
                .store
                .create_guest(name, token, st.now_ms())
                .await
                .map_err(|e| e.to_string())?;
            Ok(crate::submit::Submission {
                guest: true,
                ..st.submission(guest.id)
            })
        }
    }
}

/// Stores `replay` through `sub`, and says in `row` what became of it.
async fn store(
    st: &Shared,
    sub: crate::submit::Submission,
    replay: typepper_engine::Replay,
    row: &mut typepper_api::room::Finish,
) {
    let bytes = replay.encode();
    let entry = crate::submit::Entry {
        claim: replay.play().map_or(0, |(_, s)| s.headline().value),
        replay,
        bytes: &bytes,
    };
    let judged = vec![crate::submit::judge(&entry)];
    let deadline = Instant::now() + Duration::from_secs(st.config.request_timeout_secs);
    let job = crate::submit::job(sub, judged, deadline);
    row.kept = match st.store.submit(job).await {
        Ok(Ok(done)) => match done.into_iter().next() {
            Some(done) => {
                let share = |id: &str| st.config.share_link(id);
                match crate::submit::line(done, &share) {
                    typepper_api::Line::Ok {
                        id, share, ranked, ..
                    } => {
                        row.run = Some(id);
                        row.share = Some(share);
                        kept(&ranked)
                    }
                    typepper_api::Line::No(why) => format!("not stored: {why}"),
                }
            }
            None => "not stored: the server kept nothing of it".into(),
        },
        Ok(Err(quota)) => format!("not stored: {quota}"),
        Err(e) => format!("not stored: {e}"),
    };
}

/// What a stored run's standing reads as: `ranked`, `unranked: …`, `pending: …`.
fn kept(ranked: &typepper_api::Ranked) -> String {
    match ranked {
        typepper_api::Ranked::Yes => "ranked".into(),
        typepper_api::Ranked::No(why) => format!("unranked: {why}"),
        typepper_api::Ranked::Pending(why) => format!("pending: {why}"),
    }
}

/// `GET /v1/rooms/<code>/live`: the room's WebSocket.
pub async fn live(
    State(st): State<Arc<Shared>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(code): Path<String>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let (target, admitted) = st.rooms.admit(&st.config, &code, ip).await?;
    Ok(ws
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            websocket(st, target, code, ip, socket).await;
            drop(admitted);
        }))
}

/// Who a connection to a room comes from: its address, and the player its SSH key is
/// linked to, if any.
#[derive(Clone, Debug)]
pub(crate) struct Caller {
    pub keyed: Option<crate::store::Player>,
    /// A guest's stored rounds are counted against it.
    pub ip: IpAddr,
}

/// Where a room is: held here, or by another process (its id) on the same PostgreSQL.
pub(crate) enum Target {
    Here(Arc<Live>),
    There(String),
}

/// A connection to the room at `target`, whatever carries it: the room's session here,
/// or relayed to the process that holds it.
pub(crate) async fn connect(
    st: Arc<Shared>,
    target: Target,
    code: &str,
    caller: Caller,
    inbound: mpsc::Receiver<Wire>,
    out: mpsc::Sender<Utf8Bytes>,
) {
    match (target, st.rooms.relay.get().cloned()) {
        (Target::Here(live), _) => session(st, live, caller, inbound, out).await,
        (Target::There(owner), Some(relay)) => {
            relay.remote(&owner, code, caller, inbound, out).await;
        }
        (Target::There(_), None) => {
            let _ = out.send(refusal("no room here by that code")).await;
        }
    }
}

/// A player over SSH in room `code`, from the `v1 room` command or the game played over
/// SSH: let in (or why not), as the player `key` is linked to if any, connected until the
/// room or the player is done.
pub(crate) async fn join_over_ssh(
    st: Arc<Shared>,
    code: &str,
    key: Option<String>,
    ip: IpAddr,
    inbound: mpsc::Receiver<Wire>,
    out: mpsc::Sender<Utf8Bytes>,
) -> Result<(), ApiError> {
    let (target, admitted) = st.rooms.admit(&st.config, code, ip).await?;
    let keyed = match key {
        Some(key) => st.store.player_by_key(key).await.ok().flatten(),
        None => None,
    };
    connect(st.clone(), target, code, Caller { keyed, ip }, inbound, out).await;
    drop(admitted);
    Ok(())
}

/// A connection let into a room, counted until dropped.
pub(crate) struct Admitted(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for Admitted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Rooms {
    /// Lets a connection from `ip` into room `code`, whatever carries it: refused for a
    /// code that is no room's, past the address's joins a second, or past the server's
    /// room connections.
    pub(crate) async fn admit(
        &self,
        config: &crate::Config,
        code: &str,
        ip: IpAddr,
    ) -> Result<(Target, Admitted), ApiError> {
        if !is_code(code) {
            return Err(ApiError::NotFound(format!("{code:?} is not a room code")));
        }
        if config.room_join_rate > 0 {
            self.joins
                .take(&client::bucket(ip), Instant::now())
                .map_err(ApiError::RateLimited)?;
        }
        let target = match (self.get(code), self.relay.get()) {
            (Some(live), _) => Target::Here(live),
            (None, Some(relay)) => match relay.find(code).await {
                Some(owner) => Target::There(owner),
                None => return Err(no_room(code)),
            },
            (None, None) => return Err(no_room(code)),
        };
        let open = self.connections.clone();
        if open.fetch_add(1, std::sync::atomic::Ordering::SeqCst) >= self.max_connections {
            open.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
            let why = format!(
                "this server holds {} room connections, its most",
                self.max_connections
            );
            return Err(ApiError::Unavailable(why, 10));
        }
        Ok((target, Admitted(open)))
    }
}

fn no_room(code: &str) -> ApiError {
    ApiError::NotFound(format!("no room {code}: it ended, or never was"))
}

/// What a connection's transport hands its room: a message's text, or a message that is
/// no text (a WebSocket's binary frame, an SSH line too long or not UTF-8).
pub(crate) enum Wire {
    /// A message.
    Text(String),
    /// Something that is no message.
    NotText,
}

/// A message for this connection alone.
pub(crate) fn refusal(why: &str) -> Utf8Bytes {
    let text = serde_json::to_string(&Say::Refused(why.into())).unwrap_or_default();
    text.into()
}

/// `GET /v1/rooms/<code>/live`'s connection, once upgraded: the WebSocket's frames in and
/// out of a [`session`].
async fn websocket(st: Arc<Shared>, target: Target, code: String, ip: IpAddr, socket: WebSocket) {
    use futures_util::{SinkExt, StreamExt};
    let (mut sink, mut stream) = socket.split();
    let (wire, inbound) = mpsc::channel(OUTBOX);
    let (out, mut outbound) = mpsc::channel::<Utf8Bytes>(OUTBOX);
    let writer = tokio::spawn(async move {
        while let Some(text) = outbound.recv().await {
            if sink.send(Message::Text(text)).await.is_err() {
                return;
            }
        }
        // The session let go: a close frame, as WebSocket asks.
        let _ = sink.send(Message::Close(None)).await;
    });
    // The reader's end drops `wire`: the session sees its inbound end and cleans up.
    let reader = tokio::spawn(async move {
        while let Some(Ok(message)) = stream.next().await {
            let got = match message {
                Message::Text(text) => Wire::Text(text.as_str().to_owned()),
                Message::Binary(_) => Wire::NotText,
                Message::Close(_) => return,
                Message::Ping(_) | Message::Pong(_) => continue,
            };
            // A session over takes nothing more; what still comes is read and let go,
            // so that closing doesn't reset a connection with data unread.
            let _ = wire.send(got).await;
        }
    });
    let caller = Caller { keyed: None, ip };
    connect(st, target, &code, caller, inbound, out).await;
    // The session is over (and `out` with it): the writer sends a close frame, and the
    // reader waits a moment for the client's.
    let _ = writer.await;
    let mut reader = reader;
    if tokio::time::timeout(Duration::from_secs(1), &mut reader)
        .await
        .is_err()
    {
        reader.abort();
    }
}

/// One connection to a room, whatever carries it: who joins (from the first message, or
/// the player the caller's SSH key is linked to), then its messages in and the room's out,
/// until the transport closes, the room lets it go, or it breaks a limit. Dropping `out`
/// closes the transport.
pub(crate) async fn session(
    st: Arc<Shared>,
    live: Arc<Live>,
    caller: Caller,
    mut inbound: mpsc::Receiver<Wire>,
    out: mpsc::Sender<Utf8Bytes>,
) {
    let hello = tokio::time::timeout(HELLO_WITHIN, inbound.recv()).await;
    let joined = match hello {
        Ok(Some(Wire::Text(first))) => match serde_json::from_str::<Ask>(&first) {
            Ok(Ask::Hello {
                name,
                token,
                resume,
            }) => join(&st, &live, caller, name, token, resume).await,
            _ => Err("say who you are first (hello)".into()),
        },
        _ => Err("say who you are first (hello)".into()),
    };
    let (conn, racer, mut rx) = match joined {
        Ok(joined) => joined,
        Err(why) => {
            let _ = out.send(refusal(&why)).await;
            return;
        }
    };
    let mut bucket = (2.0 * MESSAGES_PER_SECOND, Instant::now());
    loop {
        tokio::select! {
            said = rx.recv() => {
                // None: the room let this connection go (its outbox filled, or the room
                // ended).
                let Some(text) = said else { break };
                if out.send(text).await.is_err() {
                    break;
                }
            }
            got = inbound.recv() => {
                let Some(got) = got else { break };
                let (tokens, since) = &mut bucket;
                *tokens = (*tokens + since.elapsed().as_secs_f64() * MESSAGES_PER_SECOND)
                    .min(2.0 * MESSAGES_PER_SECOND)
                    - 1.0;
                *since = Instant::now();
                if *tokens < 0.0 {
                    let why = format!("more than {MESSAGES_PER_SECOND} messages a second: closed");
                    let _ = out.send(refusal(&why)).await;
                    break;
                }
                let Wire::Text(text) = got else {
                    let _ = out.send(refusal("messages are JSON text")).await;
                    continue;
                };
                let ask = match serde_json::from_str::<Ask>(&text) {
                    Ok(ask) => ask,
                    Err(e) => {
                        let why = format!("a message the server can't read: {e}");
                        let _ = out.send(refusal(&why)).await;
                        continue;
                    }
                };
                if ask == Ask::Leave {
                    if let Some(id) = racer {
                        let now = st.rooms.now();
                        live.act(now, |room| ((), room.leave(id, now)));
                    }
                    drop_conn(&live, conn);
                    return;
                }
                if let Err(why) = asked(&st, &live, racer, ask) {
                    let _ = out.send(refusal(&why)).await;
                }
            }
        }
    }
    drop_conn(&live, conn);
    if let Some(id) = racer {
        let now = st.rooms.now();
        live.act(now, |room| ((), room.disconnect(id, now)));
    }
}

fn drop_conn(live: &Live, conn: u64) {
    if let Ok(mut inner) = live.inner.lock() {
        inner.conns.retain(|c| c.id != conn);
    }
}

/// A joining connection: its number, its racer (none for a spectator) and its outbox.
type Joined = (u64, Option<u32>, mpsc::Receiver<Utf8Bytes>);

/// Takes a seat (or a spectator's place) for a `hello`.
async fn join(
    st: &Shared,
    live: &Live,
    caller: Caller,
    name: Option<String>,
    token: Option<String>,
    resume: Option<String>,
) -> Result<Joined, String> {
    // A connection's outbox holds OUTBOX messages past its greeting: a long race's
    // catch-up comes at once, and a client that stops reading is let go at the same
    // point as any other.
    let outbox = |greeting: usize| mpsc::channel(OUTBOX + greeting);
    let now = st.rooms.now();
    if let Some(secret) = resume {
        let Ok(mut inner) = live.inner.lock() else {
            return Err("the room broke".into());
        };
        let conn = inner.next_conn;
        inner.next_conn += 1;
        let (id, said) = inner.room.resume(&secret, now)?;
        let (tx, rx) = outbox(said.len());
        inner.conns.push(Conn {
            id: conn,
            racer: Some(id),
            tx,
        });
        inner.deliver(said, now);
        return Ok((conn, Some(id), rx));
    }
    let from = caller.ip;
    let who = match (caller.keyed, token, name) {
        // Over SSH, a linked key is its player, whatever the hello says.
        (Some(player), ..) => Joiner {
            name: player.name,
            player: Some(player.id),
            from,
        },
        (None, Some(token), _) => {
            let player = st
                .store
                .player_by_token(secrets::token_hash(token.trim()))
                .await
                .map_err(|e| format!("the server can't look you up now: {e}"))?
                .ok_or("that token belongs to no player: link the game again")?;
            Joiner {
                name: player.name,
                player: Some(player.id),
                from,
            }
        }
        (None, None, Some(name)) => {
            typepper_api::check_name(&name).map_err(String::from)?;
            Joiner {
                name,
                player: None,
                from,
            }
        }
        (None, None, None) => {
            return Err("a name for this room, or a linked game's token".into());
        }
    };
    let Ok(mut inner) = live.inner.lock() else {
        return Err("the room broke".into());
    };
    let conn = inner.next_conn;
    inner.next_conn += 1;
    let (id, said) = inner.room.join(who, secrets::token())?;
    // A spectator is no racer the room can address: its greeting goes to it alone.
    let greeting = match id {
        Some(_) => vec![],
        None => inner.room.greeting(now),
    };
    let (tx, rx) = outbox(greeting.len() + said.len());
    for say in greeting {
        if let Ok(text) = serde_json::to_string(&say) {
            let _ = tx.try_send(text.into());
        }
    }
    inner.conns.push(Conn {
        id: conn,
        racer: id,
        tx,
    });
    inner.deliver(said, now);
    Ok((conn, id, rx))
}

/// A racer's (or a spectator's) message after the hello.
fn asked(st: &Shared, live: &Live, racer: Option<u32>, ask: Ask) -> Result<(), String> {
    let Some(id) = racer else {
        return Err("spectators only watch".into());
    };
    let now = st.rooms.now();
    live.act(now, |room| {
        let said = match ask {
            Ask::Ready => room.ready(id),
            Ask::Start => room.start(id, now),
            Ask::Keys(keys) => room.keys(id, &keys, now),
            Ask::Hello { .. } => Err("you said hello already".into()),
            Ask::Rematch => room.rematch(new_seed()),
            Ask::Leave => Ok(vec![]),
        };
        match said {
            Ok(said) => (Ok(()), said),
            Err(why) => (Err(why), vec![]),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rooms::room::Joiner;

    #[test]
    fn a_client_that_stops_reading_is_let_go_and_its_seat_kept() {
        let mut inner = Inner {
            room: Room::new("k3fq7m2x".into(), Mode::Zen, 7),
            conns: vec![],
            next_conn: 1,
        };
        let mut outboxes = vec![];
        for name in ["ada", "grace"] {
            let who = Joiner {
                name: name.into(),
                player: None,
                from: IpAddr::from([127, 0, 0, 1]),
            };
            let (id, said) = inner.room.join(who, format!("secret-{name}")).unwrap();
            let (tx, rx) = mpsc::channel(OUTBOX);
            inner.conns.push(Conn {
                id: u64::from(id.unwrap()),
                racer: id,
                tx,
            });
            outboxes.push(rx);
            inner.deliver(said, 0);
        }
        // ada reads everything; grace reads nothing.
        let mut ada = outboxes.remove(0);
        for n in 0..2 * OUTBOX {
            while ada.try_recv().is_ok() {}
            let said = vec![(To::All, Say::Countdown(n as u32))];
            inner.deliver(said, 0);
        }
        assert_eq!(inner.conns.len(), 1, "grace's connection is let go");
        assert_eq!(inner.conns[0].racer, Some(1));
        // In the lobby a lost connection is leaving; grace could join again.
        assert_eq!(inner.room.seats().len(), 1);
        // What grace's outbox held stays bounded: OUTBOX messages, no more.
        let mut held = 0;
        while outboxes[0].try_recv().is_ok() {
            held += 1;
        }
        assert_eq!(held, OUTBOX);
    }
}
