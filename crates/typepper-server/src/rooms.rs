//! Live rooms (docs/spec/rooms.md): friends race key by key.
//!
//! How it works:
//! 1. `POST /v1/rooms` (and `v1 room-open`) opens a room for a mode (`open`), on a
//!    seed drawn here and told to no one before the countdown ends, under an 8-letter
//!    code. Each room is one task that owns it ([`task`]); the rules are [`room::Room`],
//!    which plays each racer's keys through the engine as they arrive.
//! 2. `GET /v1/rooms/<code>/live` is a WebSocket, and `v1 room <code>` over SSH a stream
//!    of lines: either is a door onto one [`session`], which reads the hello, says who
//!    joins, and carries messages between the connection and its room, here or on
//!    another process ([`relay`]).
//! 3. What one client may hold is bounded: rooms and connections per address and in all,
//!    messages a second, keys a second of the round, and the time a message may take to
//!    be read. A client that stops reading is let go (its seat kept for it to come back),
//!    so no slow reader makes the server hold more.
//! 4. A room closes when it is over and empty, empty for a while, idle, or open for its
//!    most time, and every connection to it is closed with it.

pub mod echo;
pub mod relay;
pub mod room;
pub(crate) mod task;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use tokio::sync::mpsc;
use typepper_api::room::{
    ALPHABET, Ask, CODE_LEN, GUEST_QUOTA, Kept, Opened, QUOTA, Say, UNAVAILABLE, is_code,
};
use typepper_engine::Mode;

use self::room::{Joiner, Room};
use self::task::{Cmd, ConnId, Listener, Out, Who};
use crate::limit::{Allowance, Full, Held, Hold, Limiter};
use crate::{ServiceError, Shared, client, secrets};

/// Messages a connection's outbox holds before its client counts as not reading.
pub(crate) const OUTBOX: usize = 256;
/// The largest message a client may send, in bytes: a `keys` message of the most keys.
pub(crate) const MAX_MESSAGE: usize = 4 * 1024;
/// How long a new connection has to say who it is.
const HELLO_WITHIN: Duration = Duration::from_secs(10);
/// Messages a second a connection may send (keys go at most once a frame), in bursts of
/// twice that. Past it the connection is closed: a flood is no person's.
const MESSAGES_PER_SECOND: f64 = 100.0;
/// How long one message may wait for its client to take it. A client that reads nothing
/// for this long is let go, and what it was sent with it.
pub(crate) const WRITE_WITHIN: Duration = Duration::from_secs(5);

/// Every live room of this server, and what each address holds of them.
pub struct Rooms {
    rooms: Mutex<HashMap<String, task::Handle>>,
    /// The rooms' clock: ms since this.
    epoch: Instant,
    opens: Limiter<IpAddr>,
    joins: Limiter<IpAddr>,
    /// Guests' rounds stored, per address.
    guests: Limiter<IpAddr>,
    /// Rooms open, per opener's address and in all.
    open_rooms: Arc<Held<IpAddr>>,
    /// Connections to rooms, per address and in all.
    connections: Arc<Held<IpAddr>>,
    limits: task::Limits,
    /// Numbers this process gives its connections to rooms.
    next_conn: AtomicU64,
    /// Other processes' rooms, on PostgreSQL ([`relay::start`]).
    pub(crate) relay: std::sync::OnceLock<Arc<relay::Relay>>,
}

impl Rooms {
    /// No rooms yet, with the limits `config` sets.
    pub fn new(config: &crate::Config) -> Rooms {
        let rooms = &config.rooms;
        Rooms {
            rooms: Mutex::default(),
            epoch: Instant::now(),
            opens: Limiter::hourly(config.room_rate, config.room_rate),
            joins: Limiter::new(
                config.room_join_rate,
                config.room_join_rate.saturating_mul(2),
            ),
            guests: Limiter::hourly(config.guest_runs_per_hour, config.guest_runs_per_hour),
            open_rooms: Arc::new(Held::new(rooms.open_per_ip, config.max_rooms)),
            connections: Arc::new(Held::new(
                rooms.connections_per_ip,
                config.max_room_connections,
            )),
            limits: task::Limits {
                idle: Duration::from_secs(rooms.idle_timeout_secs.max(1)),
                max_time: Duration::from_secs(rooms.max_time_secs.max(1)),
            },
            next_conn: AtomicU64::new(1),
            relay: std::sync::OnceLock::new(),
        }
    }

    /// The rooms' clock now.
    pub(crate) fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Ends every room, telling each connection `why` before it is closed: the server is
    /// stopping. Waits (up to `within`) for each room to store the rounds it was storing.
    /// Returns how many rooms there were.
    pub async fn close_all(&self, why: &str, within: Duration) -> usize {
        let rooms: Vec<task::Handle> = self
            .rooms
            .lock()
            .map_or(vec![], |r| r.values().cloned().collect());
        let mut closed = vec![];
        for room in &rooms {
            let (done, waiting) = tokio::sync::oneshot::channel();
            let why = why.to_owned();
            if room.send(Cmd::Close { why, done }).await {
                closed.push(waiting);
            }
        }
        let _ = tokio::time::timeout(within, futures_util::future::join_all(closed)).await;
        rooms.len()
    }

    pub(crate) fn get(&self, code: &str) -> Option<task::Handle> {
        self.rooms.lock().ok()?.get(code).cloned()
    }

    /// Room `code` has closed: no one joins it any more.
    pub(crate) fn forget(&self, code: &str) {
        if let Ok(mut rooms) = self.rooms.lock() {
            rooms.remove(code);
        }
        if let Some(relay) = self.relay.get() {
            relay.unregister(code);
        }
    }

    /// Rooms open on this server now.
    pub fn rooms_open(&self) -> usize {
        self.open_rooms.len()
    }

    /// Connections to rooms on this server now.
    pub fn connections_open(&self) -> usize {
        self.connections.len()
    }

    fn next_conn(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::SeqCst)
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
pub(crate) fn new_seed() -> u64 {
    let mut bytes = [0u8; 8];
    secrets::random(&mut bytes);
    u64::from_le_bytes(bytes)
}

/// Opens a room for `mode`, for the client at `ip`: under an 8-letter code no room here
/// (or, on PostgreSQL, on another process) has, within the address's and the server's
/// rooms.
pub(crate) async fn open(
    st: &Arc<Shared>,
    mode: Mode,
    text: Option<&str>,
    ip: IpAddr,
) -> Result<Opened, ServiceError> {
    let room = |code: String, seed| {
        let room = Room::new(code, mode, seed);
        match text {
            Some(text) => room
                .on_text(text)
                .map_err(|e| ServiceError::BadRequest(e.to_string())),
            None => Ok(room),
        }
    };
    // A text that doesn't play is refused before a code is taken for it.
    room(String::new(), 0)?;
    let rooms = &st.rooms;
    let bucket = client::bucket(ip);
    if st.config.room_rate > 0 {
        rooms
            .opens
            .take(&bucket, Instant::now())
            .map_err(ServiceError::RateLimited)?;
    }
    let hold = rooms.open_rooms.hold(bucket).map_err(|full| match full {
        Full::Key(most) => ServiceError::Quota(
            format!(
                "your address has {most} rooms open, its most: a room closes once everyone \
                 has left it"
            ),
            60,
        ),
        Full::All(most) => {
            ServiceError::Unavailable(format!("this server holds {most} rooms, its most"), 60)
        }
    })?;
    let code = loop {
        let code = new_code();
        if rooms.get(&code).is_some() {
            continue;
        }
        // Across processes, the directory on PostgreSQL says which codes are taken.
        match rooms.relay.get() {
            Some(relay) => match relay.register(&code).await {
                Ok(true) => break code,
                Ok(false) => continue,
                Err(e) => {
                    let why = format!("the rooms' directory can't be reached ({e})");
                    return Err(ServiceError::Unavailable(why, 5));
                }
            },
            None => break code,
        }
    };
    let link = format!("{}/?room={code}", st.config.public_url);
    let room = room(code.clone(), new_seed())?.linked(link.clone());
    let handle = task::start(st.clone(), room, rooms.limits, hold);
    if let Ok(mut map) = rooms.rooms.lock() {
        map.insert(code.clone(), handle);
    }
    Ok(Opened { code, link })
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
    Here(task::Handle),
    There { owner: String, code: String },
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
) -> Result<(), ServiceError> {
    let (target, admitted) = st.join_room(code, ip).await?;
    let keyed = match key {
        Some(key) => st.store.player_by_key(key).await.ok().flatten(),
        None => None,
    };
    session(st.clone(), target, Caller { keyed, ip }, inbound, out).await;
    drop(admitted);
    Ok(())
}

impl Rooms {
    /// Lets a connection from `ip` into room `code`, whatever carries it: refused for a
    /// code that is no room's, past the address's joins a second, or past the room
    /// connections of the address or the server. The connection counts until the
    /// [`Hold`] is dropped.
    pub(crate) async fn admit(
        &self,
        config: &crate::Config,
        code: &str,
        ip: IpAddr,
    ) -> Result<(Target, Hold<IpAddr>), ServiceError> {
        if !is_code(code) {
            return Err(ServiceError::NotFound(format!(
                "{code:?} is not a room code"
            )));
        }
        let bucket = client::bucket(ip);
        if config.room_join_rate > 0 {
            self.joins
                .take(&bucket, Instant::now())
                .map_err(ServiceError::RateLimited)?;
        }
        let target = match (self.get(code), self.relay.get()) {
            (Some(room), _) => Target::Here(room),
            (None, Some(relay)) => match relay.find(code).await {
                Some(owner) => Target::There {
                    owner,
                    code: code.to_owned(),
                },
                None => return Err(no_room(code)),
            },
            (None, None) => return Err(no_room(code)),
        };
        let hold = self.connections.hold(bucket).map_err(|full| match full {
            Full::Key(most) => ServiceError::Quota(
                format!(
                    "your address has {most} connections to rooms, its most: close one and \
                     join again"
                ),
                10,
            ),
            Full::All(most) => ServiceError::Unavailable(
                format!("this server holds {most} room connections, its most"),
                10,
            ),
        })?;
        Ok((target, hold))
    }
}

fn no_room(code: &str) -> ServiceError {
    ServiceError::NotFound(format!("no room {code}: it ended, or never was"))
}

/// What a connection's transport hands its session: a message's text, or something that
/// is no message.
pub(crate) enum Wire {
    /// A message.
    Text(String),
    /// Something that is no message (a WebSocket's binary frame, an SSH line that is not
    /// UTF-8): refused, and the connection stays.
    NotText,
    /// A message longer than [`MAX_MESSAGE`]: refused, and the connection closes.
    TooLong,
}

/// A message for this connection alone.
pub(crate) fn refusal(why: &str) -> Utf8Bytes {
    task::text(&Say::Refused(why.into()))
}

/// `GET /v1/rooms/<code>/live`'s connection, once upgraded: the WebSocket's frames in and
/// out of a [`session`]. Each frame out goes within [`WRITE_WITHIN`] or the socket is
/// dropped; a message too long is refused with a close frame saying so (1009).
pub(crate) async fn websocket(st: Arc<Shared>, target: Target, ip: IpAddr, socket: WebSocket) {
    use futures_util::{SinkExt, StreamExt};
    let (mut sink, mut stream) = socket.split();
    let (wire, inbound) = mpsc::channel(OUTBOX);
    let (out, mut outbound) = mpsc::channel::<Utf8Bytes>(OUTBOX);
    let too_long = Arc::new(AtomicBool::new(false));
    let writer = {
        let too_long = too_long.clone();
        tokio::spawn(async move {
            while let Some(text) = outbound.recv().await {
                let sent = tokio::time::timeout(WRITE_WITHIN, sink.send(Message::Text(text)));
                if !matches!(sent.await, Ok(Ok(()))) {
                    return;
                }
            }
            // The session let go: a close frame, as WebSocket asks, saying why when a
            // message was too long.
            let frame = too_long.load(Ordering::SeqCst).then(|| CloseFrame {
                code: 1009,
                reason: Utf8Bytes::from_static("a message is at most 4096 bytes"),
            });
            let closing = sink.send(Message::Close(frame));
            let _ = tokio::time::timeout(WRITE_WITHIN, closing).await;
        })
    };
    // The reader's end drops `wire`: the session sees its inbound end and cleans up.
    let reader = tokio::spawn(async move {
        while let Some(message) = stream.next().await {
            let got = match message {
                Ok(Message::Text(text)) => Wire::Text(text.as_str().to_owned()),
                Ok(Message::Binary(_)) => Wire::NotText,
                Ok(Message::Close(_)) => return,
                Ok(Message::Ping(_) | Message::Pong(_)) => continue,
                Err(e) => {
                    // Over the size limit is the one error worth a word: the socket can't
                    // read on past it.
                    let text = e.to_string();
                    if text.contains("too long") || text.contains("too big") {
                        too_long.store(true, Ordering::SeqCst);
                        let _ = wire.send(Wire::TooLong).await;
                    }
                    return;
                }
            };
            // A session over takes nothing more; what still comes is read and let go,
            // so that closing doesn't reset a connection with data unread.
            let _ = wire.send(got).await;
        }
    });
    let caller = Caller { keyed: None, ip };
    session(st, target, caller, inbound, out).await;
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

/// A connection's way to its room: the room's task on this process, or the process that
/// holds it, through the relay.
enum Way {
    Here(task::Handle, u64),
    There {
        relay: Arc<relay::Relay>,
        owner: String,
        code: String,
        conn: u64,
    },
}

impl Way {
    /// Says hello as `who`: the connection's outbox, or `None` if the room is gone.
    async fn join(&self, who: Who) -> Option<mpsc::Receiver<Out>> {
        match self {
            Way::Here(room, n) => {
                let (tx, rx) = mpsc::channel(OUTBOX);
                let to = Listener::Here(tx);
                let conn = ConnId::Here(*n);
                room.send(Cmd::Join { conn, to, who }).await.then_some(rx)
            }
            Way::There {
                relay,
                owner,
                code,
                conn,
            } => {
                let rx = relay.attach(owner, code, *conn);
                let join = relay::Note::Join {
                    code: code.clone(),
                    from: relay.me().to_string(),
                    conn: *conn,
                    who,
                };
                if !relay.send(owner, join) {
                    relay.detach(code, *conn);
                    return None;
                }
                Some(rx)
            }
        }
    }

    /// Passes a message on: `false` if the room can't be reached.
    async fn ask(&self, ask: Ask) -> bool {
        match self {
            Way::Here(room, n) => {
                let conn = ConnId::Here(*n);
                room.send(Cmd::Ask { conn, ask }).await
            }
            Way::There {
                relay,
                owner,
                code,
                conn,
            } => {
                let note = relay::Note::Ask {
                    code: code.clone(),
                    from: relay.me().to_string(),
                    conn: *conn,
                    ask,
                };
                relay.send(owner, note)
            }
        }
    }

    /// The connection went (`leaving`: for good).
    async fn gone(&self, leaving: bool) {
        match self {
            Way::Here(room, n) => {
                let conn = ConnId::Here(*n);
                room.send(Cmd::Gone { conn, leaving }).await;
            }
            Way::There {
                relay,
                owner,
                code,
                conn,
            } => {
                relay.detach(code, *conn);
                let note = relay::Note::Gone {
                    code: code.clone(),
                    from: relay.me().to_string(),
                    conn: *conn,
                    leaving,
                };
                relay.send(owner, note);
            }
        }
    }
}

/// One connection to a room, whatever carries it: who joins (from the first message, or
/// the player the caller's SSH key is linked to), then its messages in and the room's out,
/// until the transport closes, the room lets it go, it breaks a limit, or it doesn't take
/// a message within [`WRITE_WITHIN`]. Dropping `out` closes the transport.
pub(crate) async fn session(
    st: Arc<Shared>,
    target: Target,
    caller: Caller,
    mut inbound: mpsc::Receiver<Wire>,
    out: mpsc::Sender<Utf8Bytes>,
) {
    let say = async |text: Utf8Bytes| {
        matches!(
            tokio::time::timeout(WRITE_WITHIN, out.send(text)).await,
            Ok(Ok(()))
        )
    };
    let who = match tokio::time::timeout(HELLO_WITHIN, inbound.recv()).await {
        Ok(Some(Wire::Text(first))) => match serde_json::from_str::<Ask>(&first) {
            Ok(Ask::Hello {
                name,
                token,
                resume,
            }) => who(&st, caller, name, token, resume).await,
            _ => Err("say who you are first (hello)".into()),
        },
        _ => Err("say who you are first (hello)".into()),
    };
    let who = match who {
        Ok(who) => who,
        Err(why) => {
            say(refusal(&why)).await;
            return;
        }
    };
    let way = match (target, st.rooms.relay.get().cloned()) {
        (Target::Here(room), _) => Way::Here(room, st.rooms.next_conn()),
        (Target::There { owner, code }, Some(relay)) => Way::There {
            relay,
            owner,
            code,
            conn: st.rooms.next_conn(),
        },
        (Target::There { code, .. }, None) => {
            say(refusal(&format!("no room {code} here"))).await;
            return;
        }
    };
    let Some(mut rx) = way.join(who).await else {
        say(refusal("the room has closed")).await;
        return;
    };
    let mut allowance = Allowance::new(
        MESSAGES_PER_SECOND,
        2.0 * MESSAGES_PER_SECOND,
        Instant::now(),
    );
    let mut leaving = false;
    loop {
        tokio::select! {
            // The transport gave up on its client (it took nothing for a while).
            () = out.closed() => break,
            said = rx.recv() => {
                // None: the room let this connection go (it stopped reading, was refused,
                // or the room closed).
                let Some(said) = said else { break };
                let taken = match said {
                    Out::Text(text) => say(text).await,
                    Out::CatchUp(catch_up) => {
                        let mut taken = true;
                        for message in catch_up.messages() {
                            taken = say(task::text(&message)).await;
                            if !taken {
                                break;
                            }
                        }
                        taken
                    }
                };
                if !taken {
                    break;
                }
            }
            got = inbound.recv() => {
                let Some(got) = got else { break };
                if !allowance.take(1.0, Instant::now()) {
                    let why = format!("more than {MESSAGES_PER_SECOND} messages a second: closed");
                    say(refusal(&why)).await;
                    break;
                }
                let text = match got {
                    Wire::Text(text) => text,
                    Wire::NotText => {
                        say(refusal("messages are JSON text")).await;
                        continue;
                    }
                    Wire::TooLong => {
                        let why = format!("a message is at most {MAX_MESSAGE} bytes: closed");
                        say(refusal(&why)).await;
                        break;
                    }
                };
                let ask = match serde_json::from_str::<Ask>(&text) {
                    Ok(ask) => ask,
                    Err(e) => {
                        say(refusal(&format!("a message the server can't read: {e}"))).await;
                        continue;
                    }
                };
                if ask == Ask::Leave {
                    leaving = true;
                    break;
                }
                if !way.ask(ask).await {
                    say(refusal("the room's server can't be reached")).await;
                    break;
                }
            }
        }
    }
    way.gone(leaving).await;
}

/// Who a `hello` says joins: a racer back with their secret, or someone new (as the player
/// a token or an SSH key is, or a guest by a name of their own, which may not be a linked
/// player's).
async fn who(
    st: &Shared,
    caller: Caller,
    name: Option<String>,
    token: Option<String>,
    resume: Option<String>,
) -> Result<Who, String> {
    if let Some(secret) = resume {
        return Ok(Who::Back(secret));
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
            let taken = st
                .store
                .name_taken(name.clone())
                .await
                .map_err(|e| format!("the server can't look the name up now: {e}"))?;
            if taken {
                return Err(format!(
                    "{name} is a linked player's name (or looks like one): pick another, or \
                     link your game to race as yourself"
                ));
            }
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
    Ok(Who::New(who))
}

/// The submission a finished round is stored through: a linked racer's own, or a new
/// guest's (unranked). Either way the room's seed counts as issued to them at the go
/// (`went`, unix ms): the round is the room's own, which its held seed lets through.
/// `Err`: why it is not stored.
async fn kept_as(
    st: &Shared,
    keeper: room::Keeper,
    replay: &typepper_engine::Replay,
    went: i64,
) -> Result<crate::submit::Submission, Kept> {
    let mut sub = match keeper {
        room::Keeper::Player(player) => st.submission(player),
        room::Keeper::Guest { name, from } => {
            if st
                .rooms
                .guests
                .take(&client::bucket(from), Instant::now())
                .is_err()
            {
                let why = format!(
                    "guest rounds from your address are past this hour's {}: link a game to \
                     keep more",
                    st.config.guest_runs_per_hour
                );
                return Err(Kept::not_stored(GUEST_QUOTA, why));
            }
            let token = secrets::token_hash(&secrets::token());
            let guest = st
                .store
                .create_guest(name, token, st.now_ms())
                .await
                .map_err(|e| Kept::not_stored(UNAVAILABLE, e))?;
            crate::submit::Submission {
                guest: true,
                ..st.submission(guest.id)
            }
        }
    };
    sub.live = Some(crate::store::IssuedSeed {
        seed: replay.seed,
        player: sub.player,
        mode: replay.mode.clone(),
        issued_ms: went,
        expires_ms: sub.now_ms,
        run: None,
        room: false,
    });
    Ok(sub)
}

/// Stores `replay` through `sub`: its run's id and share link, if it is stored, and what
/// became of it.
async fn store(
    st: &Shared,
    sub: crate::submit::Submission,
    replay: typepper_engine::Replay,
) -> (Option<(String, String)>, Kept) {
    // As a submission of it is: verified off the async workers, and counted.
    let judged = st
        .verify(move || {
            let bytes = replay.encode();
            let entry = crate::submit::Entry {
                claim: replay.play().map_or(0, |(_, s)| s.headline().value),
                replay,
                bytes: &bytes,
            };
            vec![crate::submit::judge(&entry)]
        })
        .await;
    let judged = match judged {
        Ok(judged) => judged,
        Err(e) => return (None, Kept::not_stored(UNAVAILABLE, e)),
    };
    // The database's time starts once it is judged: no one is waiting on an answer, and
    // a round that waited its turn to be verified is still stored.
    let deadline = Instant::now() + Duration::from_secs(st.config.request_timeout_secs);
    let job = crate::submit::job(sub, judged, deadline);
    let done = match st.store_judged(job).await {
        Ok(Ok(done)) => done.into_iter().next(),
        Ok(Err(quota)) => return (None, Kept::not_stored(QUOTA, quota)),
        Err(e) => return (None, Kept::not_stored(UNAVAILABLE, e)),
    };
    let Some(done) = done else {
        let why = "the server kept nothing of it";
        return (None, Kept::not_stored(UNAVAILABLE, why));
    };
    let share = |id: &str| st.config.share_link(id);
    match crate::submit::line(done, &share) {
        typepper_api::Line::Ok {
            id, share, ranked, ..
        } => (Some((id, share)), ranked.into()),
        // This server names every refusal's kind.
        typepper_api::Line::No { kind, why } => {
            (None, Kept::not_stored(kind.unwrap_or("other"), why))
        }
    }
}
