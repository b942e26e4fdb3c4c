//! The SSH server: the `v1` line protocol for the terminal game, and the whole game for a
//! client with a terminal.
//!
//! A shell request with a pty (`ssh -t host`), or the exec commands `play` and
//! `race <code>` with one, plays the game itself over the channel ([`crate::play`]). A
//! client with no key comes in through keyboard-interactive, which asks nothing, as a guest.
//!
//! A player is their SSH key: any key may connect, and a key linked to a player
//! (`v1 link`) submits and draws seeds as that player. Each exec request is one command:
//!
//! | command | stdin | stdout |
//! |---|---|---|
//! | `v1 submit` | the body of `POST /v1/submit` | its answer lines |
//! | `v1 replay <id>` | — | the run's replay bytes |
//! | `v1 board <mode> [YYYY-MM]` | — | the board, as `GET /v1/boards/<mode>` answers |
//! | `v1 link <name>` | — | the new player, as `POST /v1/players` answers; the key is linked to it (`POST /v1/keys`) |
//! | `v1 link <name> <token>` | — | the same, for a player linked on the web |
//! | `v1 seed <mode>` | — | an issued seed, as `POST /v1/seeds` answers |
//! | `v1 room-open <mode>` | — | a new live room, as `POST /v1/rooms` answers |
//! | `v1 room <code>` | a live room's messages, a JSON line each | the room's messages, a JSON line each |
//!
//! `v1 room` streams: it is the room's WebSocket as lines (docs/spec/rooms.md), the
//! connection open for as long as the race. A key linked to a player races as that
//! player, whatever its hello says.
//!
//! How it works: each command becomes the HTTP request it stands for ([`crate::v1`]) and goes through the
//! same router, so the body limit, rate limits, timeouts, checks and answers are the
//! HTTP API's own. The request carries the connection's address ([`ConnectInfo`]) and the
//! key's fingerprint ([`SshKey`]), which the routes read in place of a bearer token. A
//! refusal is the route's sentence on stderr with an exit status ([`Exit`]): 3 for a key
//! linked to no player (HTTP's 401), so that a client can tell it apart without reading
//! the sentence, 1 for any other; an unknown command, a shell without a terminal or a
//! subsystem get a sentence and exit status 2. A submission runs only once its stdin has
//! ended: a connection dropped mid-body stores nothing.
//!
//! What a client may hold, and for how long ([`SshLimits`], each a flag):
//! 1. **Slots.** Connections and handshakes in progress are capped per address and in all
//!    when a connection is accepted, so one host can't take every slot; a connection must
//!    authenticate within a deadline whatever it sends meanwhile, and lives at most a fixed
//!    time, a fixed idle time with no request running, and a fixed number of commands.
//! 2. **Memory.** Past a deadline a connection's socket is shut (russh runs each session in
//!    a task of its own that only a closed socket stops, so this is the one way out a
//!    stalled client can't block). A refused body's bytes go when its refusal is sent, and
//!    the bodies held at once are capped per address and in all
//!    ([`SshLimits::body_budget`]). An answer the client doesn't take and close within the
//!    request's time ends its connection.
//! 3. **Channels.** The server closes a channel once it is answered, as sshd does, and
//!    forgets it when the client's close comes back (russh is patched for that: see
//!    `vendor/russh/PATCHED.md`). A channel runs one request, and counts against
//!    [`MAX_CHANNELS`] until it is closed.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use axum::Router;
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::ssh_key::{Algorithm, HashAlg, LineEnding, PrivateKey, PublicKey};
use russh::server::{
    Auth, ChannelOpenHandle, Handle, Msg, PublicKeyOffer, Session, VerifiedPublicKey,
};
use russh::{Channel, ChannelId, ChannelWriteHalf};
use tokio::net::TcpListener;
use tokio::sync::{Notify, oneshot};
use tokio::task::JoinSet;
use typepper_api::Exit;

use crate::config::SshLimits;
use crate::play;
use crate::serve::Acceptor;
use crate::v1::{Command, Outcome, USAGE, execute};
use crate::{MAX_BODY, Shared};

/// Session channels one connection may have open at once.
pub const MAX_CHANNELS: usize = 4;

/// The longest command line, in bytes: the longest real one (`v1 link` with a name and a
/// token) is under a hundred.
pub const MAX_COMMAND: usize = 256;

/// A connection's idle time while a request runs (or before it logs in).
const BUSY: u64 = u64::MAX;

/// The smallest RSA key a player may connect with, in bits.
pub const MIN_RSA_BITS: u32 = 2048;

/// The host key at `path`, made (Ed25519, mode 0600) if there is none.
pub fn host_key(path: &Path) -> anyhow::Result<PrivateKey> {
    if path.exists() {
        return PrivateKey::read_openssh_file(path)
            .with_context(|| format!("reading the SSH host key {}", path.display()));
    }
    let mut seed = [0u8; 32];
    crate::secrets::random(&mut seed);
    let key = PrivateKey::from(Ed25519Keypair::from_seed(&seed));
    let text = key
        .to_openssh(LineEnding::LF)
        .context("writing the SSH host key")?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // Written whole under a temporary name, then renamed: never half a key.
    let tmp = path.with_extension("tmp");
    {
        use std::io::Write as _;
        use std::os::unix::fs::OpenOptionsExt as _;
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&tmp)
            .with_context(|| format!("writing {}", tmp.display()))?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    tracing::info!("made an SSH host key in {}", path.display());
    Ok(key)
}

/// The fingerprint players see for a key: `SHA256:…`, as `ssh-keygen -l` prints it.
pub fn fingerprint(key: &PublicKey) -> String {
    key.fingerprint(HashAlg::Sha256).to_string()
}

/// The keys a player may connect with: not RSA under [`MIN_RSA_BITS`], and no RSA
/// signature over SHA-1 (`ssh-rsa`), which OpenSSH has refused since 8.8.
fn acceptable(key: &PublicKey, algorithm: &Algorithm) -> bool {
    if *algorithm == (Algorithm::Rsa { hash: None }) {
        return false;
    }
    match key.key_data().rsa() {
        None => true,
        Some(rsa) => {
            let n = rsa.n().as_positive_bytes().unwrap_or_default();
            let bits = n.first().map_or(0, |top| {
                u32::try_from(n.len() * 8).unwrap_or(u32::MAX) - top.leading_zeros()
            });
            bits >= MIN_RSA_BITS
        }
    }
}

/// Handshakes one address may have in progress at once.
pub const HANDSHAKES_PER_IP: usize = 4;

/// An address's share of the bodies held at once: a sixteenth of the budget.
pub const BODY_SHARES: usize = 16;

/// Who holds the SSH server's slots and memory: connections, handshakes and bodies, per
/// address and in all. An address (an IPv6 /64 is one) is held to its share of each, so
/// that no one host takes what everyone shares.
struct Gate {
    limits: SshLimits,
    state: Arc<Shared>,
    addresses: Mutex<HashMap<IpAddr, Address>>,
    handshaking: AtomicUsize,
    /// Keys being linked now: a key links one player, even asked for twice at once.
    linking: Mutex<std::collections::HashSet<String>>,
    /// The games being played.
    games: Arc<play::Games>,
}

/// What one address holds.
#[derive(Default)]
struct Address {
    open: usize,
    handshaking: usize,
    body_bytes: usize,
}

/// One connection's place at the [`Gate`], given back when it is dropped.
struct Slot {
    gate: Arc<Gate>,
    ip: IpAddr,
    handshaking: AtomicBool,
}

impl Gate {
    fn addresses(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, Address>> {
        self.addresses.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A slot for a connection from `ip`, or why there is none. Past half the handshakes,
    /// a new one is let in less and less often (as OpenSSH's `MaxStartups` does), so that
    /// hosts that keep the handshakes full still leave others a chance.
    fn enter(self: &Arc<Gate>, ip: IpAddr) -> Result<Slot, &'static str> {
        let ip = crate::client::bucket(ip);
        let mut addresses = self.addresses();
        let mine = addresses.entry(ip).or_default();
        if mine.open >= self.limits.per_ip {
            return Err("too many connections from your address");
        }
        if mine.handshaking >= HANDSHAKES_PER_IP {
            return Err("too many connections from your address are logging in");
        }
        let (all, cap) = (
            self.handshaking.load(Ordering::SeqCst),
            self.limits.handshakes,
        );
        let half = cap / 2;
        let refused = all >= cap
            || (all > half && {
                let mut draw = [0u8; 2];
                crate::secrets::random(&mut draw);
                usize::from(u16::from_le_bytes(draw)) % (cap - half) < all - half
            });
        if refused {
            if mine.open == 0 {
                addresses.remove(&ip);
            }
            return Err("too many connections are logging in");
        }
        mine.open += 1;
        mine.handshaking += 1;
        self.handshaking.fetch_add(1, Ordering::SeqCst);
        Ok(Slot {
            gate: self.clone(),
            ip,
            handshaking: AtomicBool::new(true),
        })
    }
}

impl Slot {
    /// The connection authenticated: it no longer counts as a handshake.
    fn authenticated(&self) {
        if self.handshaking.swap(false, Ordering::SeqCst) {
            self.gate.handshaking.fetch_sub(1, Ordering::SeqCst);
            if let Some(mine) = self.gate.addresses().get_mut(&self.ip) {
                mine.handshaking -= 1;
            }
        }
    }

    /// Holds `n` more bytes of a body for this address, or says why not: past the
    /// address's share, or past the budget of every address.
    fn hold(&self, n: usize) -> Result<(), &'static str> {
        let budget = self.gate.limits.body_budget;
        let mut addresses = self.gate.addresses();
        let mine = addresses.entry(self.ip).or_default();
        if mine.body_bytes + n > budget / BODY_SHARES {
            return Err("your address is sending too many submissions at once");
        }
        let all = &self.gate.state.ssh_body_bytes;
        if all.load(Ordering::Relaxed) + n > budget {
            return Err("the server is taking in too many submissions at once");
        }
        mine.body_bytes += n;
        all.fetch_add(n, Ordering::Relaxed);
        Ok(())
    }

    /// Lets go of `n` bytes of a body.
    fn release(&self, n: usize) {
        if n == 0 {
            return;
        }
        if let Some(mine) = self.gate.addresses().get_mut(&self.ip) {
            mine.body_bytes -= n;
        }
        self.gate
            .state
            .ssh_body_bytes
            .fetch_sub(n, Ordering::Relaxed);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.authenticated();
        let mut addresses = self.gate.addresses();
        if let Some(mine) = addresses.get_mut(&self.ip) {
            mine.open -= 1;
            if mine.open == 0 && mine.body_bytes == 0 {
                addresses.remove(&self.ip);
            }
        }
    }
}

/// A key being linked, let go when dropped.
struct Linking(Arc<Gate>, String);

impl Linking {
    /// The key `fingerprint`, now being linked; `None` if it is already.
    fn start(gate: &Arc<Gate>, fingerprint: &str) -> Option<Linking> {
        let mut linking = gate.linking.lock().unwrap_or_else(|p| p.into_inner());
        linking
            .insert(fingerprint.to_owned())
            .then(|| Linking(gate.clone(), fingerprint.to_owned()))
    }
}

impl Drop for Linking {
    fn drop(&mut self) {
        let mut linking = self.0.linking.lock().unwrap_or_else(|p| p.into_inner());
        linking.remove(&self.1);
    }
}

/// A connection's socket, shut when dropped, however the task holding it ends (aborted
/// at shutdown too): russh runs a session in a task of its own, and a closed socket is
/// what stops it whatever state it is in.
struct Socket(std::net::TcpStream);

impl Drop for Socket {
    fn drop(&mut self) {
        let _ = self.0.shutdown(std::net::Shutdown::Both);
    }
}

/// Serves SSH on `listener` until `shutdown` resolves, then lets the commands in flight
/// finish for up to the configured grace and closes the rest.
pub async fn serve_ssh(
    listener: TcpListener,
    host_key: PrivateKey,
    state: Arc<Shared>,
    router: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let limits = state.limits();
    let config = Arc::new(russh::server::Config {
        keys: vec![host_key],
        // Players are their keys. A client with none (or none the server takes) comes in
        // as a guest through keyboard-interactive with no questions asked, which OpenSSH
        // tries after its keys: no password is ever asked for. Not `none`, which OpenSSH
        // tries first, before any key.
        methods: russh::MethodSet::from(
            &[
                russh::MethodKind::PublicKey,
                russh::MethodKind::KeyboardInteractive,
            ][..],
        ),
        // Slow or silent clients are let go, as HTTP's header timeout does.
        inactivity_timeout: Some(limits.header_timeout.max(Duration::from_secs(1)) * 3),
        // A game on the menu sends nothing for minutes: the client's answers to these
        // keep its connection alive, and a client gone answers none.
        keepalive_interval: Some(limits.header_timeout.max(Duration::from_secs(1))),
        keepalive_max: 3,
        auth_rejection_time: Duration::from_millis(300),
        auth_rejection_time_initial: Some(Duration::ZERO),
        max_auth_attempts: 6,
        // `ssh-rsa` (SHA-1) is not offered: clients sign with SHA-2 (and one that signs
        // with SHA-1 anyway is refused, see `acceptable`).
        preferred: russh::Preferred {
            key: std::borrow::Cow::Owned(
                russh::Preferred::DEFAULT
                    .key
                    .iter()
                    .filter(|a| **a != Algorithm::Rsa { hash: None })
                    .cloned()
                    .collect(),
            ),
            ..russh::Preferred::DEFAULT
        },
        ..Default::default()
    });
    let gate = Arc::new(Gate {
        limits: state.config.ssh.clone(),
        state: state.clone(),
        addresses: Mutex::default(),
        handshaking: AtomicUsize::new(0),
        linking: Mutex::default(),
        games: state.games.clone(),
    });
    let mut sessions = JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    // The acceptor sets TCP_NODELAY, which russh sets only on sockets it accepts itself.
    // Without it the key exchange's and each answer's small writes wait on Nagle and the
    // client's delayed ACK: measured, 40 ms of every command.
    let mut acceptor = Acceptor::new(&listener, limits.max_connections);
    while let Some((permit, stream, peer)) = acceptor.next(&mut shutdown).await {
        let slot = match gate.enter(peer.ip()) {
            Ok(slot) => slot,
            Err(why) => {
                // Said before the protocol starts, where a client may show it (`ssh -v`).
                tracing::debug!("SSH from {peer} refused: {why}");
                let _ =
                    stream.try_write(format!("typepper: {why}; try again later\r\n").as_bytes());
                continue;
            }
        };
        let Ok((stream, socket)) = split_off_socket(stream) else {
            continue;
        };
        let (state, router, config) = (state.clone(), router.clone(), config.clone());
        sessions.spawn(async move {
            let _permit = permit;
            connection(config, stream, socket, Arc::new(slot), state, router, peer).await;
        });
        // Finished sessions are reaped as we go.
        while sessions.try_join_next().is_some() {}
    }
    drop(listener);
    // Games end at once, each with a line saying why: they hold no request to finish.
    gate.games.close_all();
    let grace = tokio::time::sleep(limits.grace);
    tokio::pin!(grace);
    loop {
        tokio::select! {
            next = sessions.join_next() => if next.is_none() { break },
            () = &mut grace => {
                // Each task's socket is shut as it is dropped.
                sessions.abort_all();
                break;
            }
        }
    }
    Ok(())
}

/// The stream, and a handle on its socket that shuts it when dropped.
fn split_off_socket(
    stream: tokio::net::TcpStream,
) -> std::io::Result<(tokio::net::TcpStream, Socket)> {
    let std = stream.into_std()?;
    let socket = Socket(std.try_clone()?);
    Ok((tokio::net::TcpStream::from_std(std)?, socket))
}

/// Runs one connection to its end: it authenticates within the deadline, lives at most
/// its lifetime, and ends at once when its handler says so; its socket is shut when this
/// returns.
async fn connection(
    config: Arc<russh::server::Config>,
    stream: tokio::net::TcpStream,
    socket: Socket,
    slot: Arc<Slot>,
    state: Arc<Shared>,
    router: Router,
    peer: SocketAddr,
) {
    let limits = state.config.ssh.clone();
    let started = tokio::time::Instant::now();
    let auth_by = started + Duration::from_secs(limits.auth_secs.max(1));
    let (authed, authenticated) = oneshot::channel();
    let ends = Arc::new(Notify::new());
    let idle_since = Arc::new(std::sync::atomic::AtomicU64::new(BUSY));
    let conn = Conn {
        state,
        router,
        peer,
        key: None,
        channels: HashMap::new(),
        slot: slot.clone(),
        authed: Some(authed),
        ends: ends.clone(),
        commands: 0,
        idle_since: idle_since.clone(),
        started,
    };
    let session = tokio::time::timeout_at(auth_by, russh::server::run_stream(config, stream, conn));
    let mut session = match session.await {
        Ok(Ok(session)) => session,
        Ok(Err(e)) => {
            tracing::debug!("SSH handshake from {peer} failed: {e}");
            return;
        }
        Err(_) => return,
    };
    let end = |why: &str| tracing::debug!("SSH connection from {peer} closed: {why}");
    tokio::select! {
        ended = &mut session => {
            if let Err(e) = ended {
                tracing::debug!("SSH session from {peer} ended: {e}");
            }
            return;
        }
        done = tokio::time::timeout_at(auth_by, authenticated) => {
            if !matches!(done, Ok(Ok(()))) {
                return end("it did not authenticate in time");
            }
        }
    }
    let lifetime = tokio::time::sleep_until(started + Duration::from_secs(limits.max_secs.max(1)));
    // A logged-in connection with no channel open for the idle time is let go: slots are
    // for players running commands.
    let idle_ms = limits.idle_secs.max(1).saturating_mul(1000);
    let idle = async {
        loop {
            tokio::time::sleep(Duration::from_millis(250)).await;
            let since = idle_since.load(Ordering::SeqCst);
            let now = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            if since != BUSY && now.saturating_sub(since) >= idle_ms {
                return;
            }
        }
    };
    tokio::select! {
        ended = &mut session => {
            if let Err(e) = ended {
                tracing::debug!("SSH session from {peer} ended: {e}");
            }
        }
        () = lifetime => end("it reached its lifetime"),
        () = idle => end("it sat idle"),
        () = ends.notified() => end("it broke a limit"),
    }
    drop(socket);
}

/// The game a command plays with a terminal: `play` (the menu) or `race <code>` (a live
/// room); `None` for any other.
fn play_command(text: &str) -> Option<Option<String>> {
    match text.split_whitespace().collect::<Vec<_>>()[..] {
        ["play"] => Some(None),
        ["race", code] if code.len() <= 16 => Some(Some(code.to_owned())),
        _ => None,
    }
}

/// `mutex`, locked: a panic elsewhere leaves its data as it was, and usable.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// One session channel, shared by the handler, the task answering it and a body's timer.
#[derive(Default)]
struct Chan {
    /// `v1 submit`, waiting for its stdin to end.
    submitting: AtomicBool,
    /// Its stdin so far; emptied when it is refused or run.
    stdin: Mutex<Vec<u8>>,
    /// Answered (or being): nothing more is done for it.
    answered: AtomicBool,
    /// The answer is going out: a body's timer stops.
    answering: Notify,
    /// Its one request (exec, shell, pty, subsystem) came: any more are refused.
    requested: AtomicBool,
    /// The client closed it (first, or in reply to the server's close).
    closed: AtomicBool,
    /// Woken by the client's close.
    closing: Notify,
    /// `v1 room`: where its lines go, and the part of a line not yet ended.
    room: Mutex<Option<(tokio::sync::mpsc::Sender<crate::rooms::Wire>, Vec<u8>)>>,
    /// Its writing half, which waits for the client's window: a game's frames go
    /// through it, so a client that stops reading holds no more than its window.
    out: Mutex<Option<ChannelWriteHalf<Msg>>>,
    /// The terminal its pty request asked for, if it did.
    pty: Mutex<Option<play::Pty>>,
    /// A game's keys and window size, while one is played on it.
    game: Mutex<Option<play::Feed>>,
}

impl Chan {
    /// Takes the answering of the channel; `false` if it was answered already.
    fn take(&self) -> bool {
        let first = !self.answered.swap(true, Ordering::SeqCst);
        if first {
            self.answering.notify_one();
        }
        first
    }

    /// The body so far, and no more kept (let go of at the gate).
    fn take_stdin(&self, slot: &Slot) -> Vec<u8> {
        let body = std::mem::take(&mut *self.stdin.lock().unwrap_or_else(|p| p.into_inner()));
        slot.release(body.len());
        body
    }

    /// Whether this is the channel's first request; a channel runs one.
    fn first_request(&self) -> bool {
        !self.requested.swap(true, Ordering::SeqCst)
    }

    /// `v1 room`'s stdin: each whole line to the room. `Err` for more than the room takes
    /// at once, or a line longer than its longest message.
    fn lines(&self, data: &[u8]) -> Result<(), ()> {
        let mut room = self.room.lock().unwrap_or_else(|p| p.into_inner());
        let Some((wire, partial)) = room.as_mut() else {
            return Ok(());
        };
        partial.extend_from_slice(data);
        while let Some(end) = partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = partial.drain(..=end).collect();
            let got = match std::str::from_utf8(&line[..end]) {
                Ok(text) if !text.trim().is_empty() => crate::rooms::Wire::Text(text.into()),
                Ok(_) => continue,
                Err(_) => crate::rooms::Wire::NotText,
            };
            wire.try_send(got).map_err(drop)?;
        }
        if partial.len() > crate::rooms::MAX_MESSAGE {
            return Err(());
        }
        Ok(())
    }
}

/// One SSH connection.
struct Conn {
    state: Arc<Shared>,
    router: Router,
    peer: SocketAddr,
    /// The fingerprint of the key it authenticated with.
    key: Option<String>,
    channels: HashMap<ChannelId, Arc<Chan>>,
    /// Its place at the gate: a handshake until it authenticates.
    slot: Arc<Slot>,
    /// Told once when it authenticates.
    authed: Option<oneshot::Sender<()>>,
    /// Ends the connection at once (its socket is shut).
    ends: Arc<Notify>,
    /// Channels opened so far.
    commands: u32,
    /// When it last had no request running, in ms since it started; [`BUSY`] while one is.
    idle_since: Arc<std::sync::atomic::AtomicU64>,
    /// When it started.
    started: tokio::time::Instant,
}

impl Conn {
    /// Runs `command` in the background and answers on `channel`, unless it has been
    /// answered already.
    fn run(&mut self, channel: ChannelId, command: Command, stdin: Vec<u8>, session: &Session) {
        let Some(chan) = self.channels.get(&channel).filter(|c| c.take()).cloned() else {
            return;
        };
        // A key links one player: the same key linking twice at once waits for neither.
        let linking = match (&command, &self.key) {
            (Command::Link(..), Some(key)) => match Linking::start(&self.slot.gate, key) {
                Some(linking) => Some(linking),
                None => {
                    let why = "this key is being linked already: wait for that answer";
                    self.reanswer(channel, chan, Outcome::refused(why), session);
                    return;
                }
            },
            _ => None,
        };
        let handle = session.handle();
        let (state, router, peer, key) = (
            self.state.clone(),
            self.router.clone(),
            self.peer,
            self.key.clone(),
        );
        let ends = self.ends.clone();
        tokio::spawn(async move {
            let outcome = execute(router, peer, key, command, stdin).await;
            drop(linking);
            let budget = Duration::from_secs(state.config.request_timeout_secs.max(1));
            answer(&handle, channel, outcome, &chan, &ends, budget).await;
        });
    }

    /// `v1 room <code>`: the room's session on this channel, its messages a line each,
    /// until the room lets it go or the client's stdin ends; then exit status 0.
    fn room(&mut self, channel: ChannelId, code: String, session: &Session) {
        if let Some(refused) = self.over_rate() {
            return self.answer_now(channel, refused, session);
        }
        let Some(chan) = self.channels.get(&channel).filter(|c| c.take()).cloned() else {
            return;
        };
        // The channel's own writing half waits for the client's window: a client that
        // stops reading holds its window's worth, not every line the room says.
        let Some(lines) = lock(&chan.out).take() else {
            return;
        };
        let (wire, inbound) = tokio::sync::mpsc::channel(crate::rooms::OUTBOX);
        *chan.room.lock().unwrap_or_else(|p| p.into_inner()) = Some((wire, vec![]));
        let (out, mut outbound) =
            tokio::sync::mpsc::channel::<axum::extract::ws::Utf8Bytes>(crate::rooms::OUTBOX);
        let handle = session.handle();
        let (state, key, ends) = (self.state.clone(), self.key.clone(), self.ends.clone());
        let ip = self.peer.ip();
        tokio::spawn(async move {
            let budget = Duration::from_secs(state.config.request_timeout_secs.max(1));
            let writer = tokio::spawn(async move {
                while let Some(text) = outbound.recv().await {
                    let mut line = text.as_str().as_bytes().to_vec();
                    line.push(b'\n');
                    // A client that takes no line for a while is let go, as a
                    // WebSocket's is.
                    let written =
                        tokio::time::timeout(crate::rooms::WRITE_WITHIN, lines.data(&line[..]));
                    if !matches!(written.await, Ok(Ok(()))) {
                        return;
                    }
                }
            });
            let joined = crate::rooms::join_over_ssh(state, &code, key, ip, inbound, out).await;
            let _ = writer.await;
            let over = match joined {
                Ok(()) => Outcome {
                    stdout: vec![],
                    stderr: String::new(),
                    status: 0,
                },
                Err(e) => Outcome::refused(e.to_string()),
            };
            answer(&handle, channel, over, &chan, &ends, budget).await;
        });
    }

    /// Answers `chan`, taken already, with `outcome`.
    fn reanswer(&self, channel: ChannelId, chan: Arc<Chan>, outcome: Outcome, session: &Session) {
        let handle = session.handle();
        let ends = self.ends.clone();
        let budget = Duration::from_secs(self.state.config.request_timeout_secs.max(1));
        tokio::spawn(async move {
            answer(&handle, channel, outcome, &chan, &ends, budget).await;
        });
    }

    /// Answers `channel` at once with `outcome`, unless it has been answered already.
    fn answer_now(&mut self, channel: ChannelId, outcome: Outcome, session: &Session) {
        let Some(chan) = self.channels.get(&channel).filter(|c| c.take()).cloned() else {
            return;
        };
        chan.take_stdin(&self.slot);
        self.reanswer(channel, chan, outcome, session);
    }

    /// A refusal for a client over its address's request rate, if it is: commands that
    /// never reach the routes (unknown ones, shells, subsystems) count against it too.
    fn over_rate(&self) -> Option<Outcome> {
        let ip = crate::client::bucket(self.peer.ip());
        let secs = self.state.ip_limit.take(&ip, Instant::now()).err()?;
        Some(Outcome::refused(
            crate::ApiError::RateLimited(secs).to_string(),
        ))
    }

    /// Refuses a shell, a terminal or a subsystem: granted (when the client can be
    /// answered on the channel) so that it reads `why` rather than its own complaint,
    /// then answered with it and the commands, exit status 2.
    fn no_session(
        &mut self,
        channel: ChannelId,
        why: &str,
        session: &mut Session,
    ) -> Result<(), russh::Error> {
        if !self.first_request(channel) {
            return session.channel_failure(channel);
        }
        session.channel_success(channel)?;
        let outcome = self
            .over_rate()
            .unwrap_or_else(|| Outcome::usage(format!("{why}; {USAGE}")));
        self.answer_now(channel, outcome, session);
        Ok(())
    }

    /// Whether this is `channel`'s first request (a channel runs one: a second exec on
    /// it would start a second body's timer, and so on). From its first request until it
    /// closes, the connection is not idle.
    fn first_request(&self, channel: ChannelId) -> bool {
        let first = self
            .channels
            .get(&channel)
            .is_some_and(|c| c.first_request());
        if first {
            self.idle_since.store(BUSY, Ordering::SeqCst);
        }
        first
    }

    /// Whether `channel` asked for a terminal.
    fn has_terminal(&self, channel: ChannelId) -> bool {
        self.channels
            .get(&channel)
            .is_some_and(|c| lock(&c.pty).as_ref().is_some_and(|p| !p.term.is_empty()))
    }

    /// Plays the game on `channel` (joining `room` first), if a seat is free; else says
    /// why on the client's screen and closes it.
    fn game(&mut self, channel: ChannelId, room: Option<String>) {
        let Some(chan) = self.channels.get(&channel).filter(|c| c.take()).cloned() else {
            return;
        };
        let (Some(out), Some(pty)) = (lock(&chan.out).take(), lock(&chan.pty).clone()) else {
            return;
        };
        let games = self.slot.gate.games.clone();
        let seat = match games.sit(self.peer.ip()) {
            Ok(seat) => seat,
            Err(why) => {
                tokio::spawn(async move {
                    let _ = out.data(format!("typepper: {why}\r\n").as_bytes()).await;
                    let _ = out.exit_status(Exit::Refused.code().into()).await;
                    let _ = out.eof().await;
                    let _ = out.close().await;
                });
                return;
            }
        };
        let (feed, keys, size) = play::Feed::new(&pty);
        *lock(&chan.game) = Some(feed);
        let limits = &self.state.config.ssh;
        // A moment before the connection's own end, so the game can say why.
        let ends_by =
            self.started + Duration::from_secs(limits.max_secs.max(1)) - Duration::from_millis(500);
        tokio::spawn(play::play(play::Setup {
            state: self.state.clone(),
            router: self.router.clone(),
            peer: self.peer,
            key: self.key.clone(),
            pty,
            room,
            keys,
            size,
            out,
            seat,
            games,
            ends_by,
        }));
    }

    /// The time since the connection started, in ms (never [`BUSY`]).
    fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(BUSY - 1)
    }
}

/// Writes `outcome` on `channel` with its exit status, closes it, and waits for the
/// client's close. A client that has not taken the answer and closed within `budget` (it
/// stopped reading: the answer waits in the server's memory for its window) has its
/// connection ended.
async fn answer(
    handle: &Handle,
    channel: ChannelId,
    outcome: Outcome,
    chan: &Chan,
    ends: &Notify,
    budget: Duration,
) {
    let closing = chan.closing.notified();
    let done = tokio::time::timeout(budget, async {
        // A client gone meanwhile makes these fail; there is no one left to tell.
        if !outcome.stdout.is_empty() {
            let _ = handle.data(channel, outcome.stdout).await;
        }
        if !outcome.stderr.is_empty() {
            let mut said = outcome.stderr.trim_end().to_owned();
            said.push('\n');
            let _ = handle.extended_data(channel, 1, said.into_bytes()).await;
        }
        let _ = handle.exit_status_request(channel, outcome.status).await;
        let _ = handle.eof(channel).await;
        // A session gone meanwhile takes nothing more: there is no close to wait for.
        if handle.close(channel).await.is_err() {
            return;
        }
        if !chan.closed.load(Ordering::SeqCst) {
            closing.await;
        }
    })
    .await;
    if done.is_err() {
        ends.notify_one();
    }
}

impl russh::server::Handler for Conn {
    type Error = russh::Error;

    async fn auth_publickey_offered(
        &mut self,
        _user: &str,
        offer: PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        Ok(if acceptable(offer.public_key, offer.algorithm) {
            Auth::Accept
        } else {
            Auth::reject()
        })
    }

    async fn auth_publickey(
        &mut self,
        _user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        if !acceptable(key.public_key, key.algorithm) {
            return Ok(Auth::reject());
        }
        // Any other key may connect: one not linked can fetch, not submit.
        self.key = Some(fingerprint(key.public_key));
        Ok(Auth::Accept)
    }

    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        _user: &str,
        _submethods: &str,
        _response: Option<russh::server::Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        // A guest: no key, and nothing asked.
        self.key = None;
        Ok(Auth::Accept)
    }

    async fn auth_succeeded(&mut self, _session: &mut Session) -> Result<(), Self::Error> {
        self.slot.authenticated();
        self.idle_since.store(self.elapsed_ms(), Ordering::SeqCst);
        if let Some(authed) = self.authed.take() {
            let _ = authed.send(());
        }
        Ok(())
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Its reading half is never read (russh would wait on a full, unread one): the
        // handler's calls say all it would. Dropped, russh's sends to it fail at once.
        let id = channel.id();
        let (read, write) = channel.split();
        drop(read);
        self.commands += 1;
        if self.commands > self.state.config.ssh.max_commands {
            session.disconnect(
                russh::Disconnect::ByApplication,
                "this connection ran its most commands: connect again",
                "",
            )?;
            self.ends.notify_one();
            return Ok(());
        }
        if self.channels.len() >= MAX_CHANNELS {
            // Dropping the handle refuses the channel.
            return Ok(());
        }
        let chan = Chan::default();
        *lock(&chan.out) = Some(write);
        self.channels.insert(id, Arc::new(chan));
        reply.accept().await;
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(russh::Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Before the channel's one request (a shell, or a command): the terminal it runs on.
        let Some(chan) = self
            .channels
            .get(&channel)
            .filter(|c| !c.requested.load(Ordering::SeqCst))
        else {
            return session.channel_failure(channel);
        };
        let mut pty = lock(&chan.pty);
        let env = pty.take().map(|p| p.env).unwrap_or_default();
        *pty = Some(play::Pty {
            term: term.chars().take(64).collect(),
            cols: col_width,
            rows: row_height,
            env,
        });
        session.channel_success(channel)
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        variable_name: &str,
        variable_value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        match self.channels.get(&channel) {
            Some(chan) => {
                lock(&chan.pty)
                    .get_or_insert_with(play::Pty::default)
                    .set_env(variable_name, variable_value);
                session.channel_success(channel)
            }
            None => session.channel_failure(channel),
        }
    }

    async fn window_change_request(
        &mut self,
        channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some(chan) = self.channels.get(&channel) {
            if let Some(pty) = lock(&chan.pty).as_mut() {
                (pty.cols, pty.rows) = (col_width, row_height);
            }
            if let Some(game) = lock(&chan.game).as_ref() {
                game.size.send_replace((col_width, row_height));
            }
        }
        Ok(())
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.has_terminal(channel) {
            return self.no_session(
                channel,
                "no shell here: ssh -t <host> plays the game; or run one command, as in \
                 ssh <host> v1 board time:15",
                session,
            );
        }
        if !self.first_request(channel) {
            return session.channel_failure(channel);
        }
        session.channel_success(channel)?;
        self.game(channel, None);
        Ok(())
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Refused at once: a client waiting for a subsystem (sftp) would wait for ever.
        session.channel_failure(channel)?;
        if !self.first_request(channel) {
            return Ok(());
        }
        let shown: String = name.chars().take(40).collect();
        let outcome = self
            .over_rate()
            .unwrap_or_else(|| Outcome::usage(format!("no subsystem {shown:?} here; {USAGE}")));
        self.answer_now(channel, outcome, session);
        Ok(())
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _x11_auth_protocol: &str,
        _x11_auth_cookie: &str,
        _x11_screen_number: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.first_request(channel) {
            return session.channel_failure(channel);
        }
        session.channel_success(channel)?;
        if let Some(game) = std::str::from_utf8(data).ok().and_then(play_command) {
            if !self.has_terminal(channel) {
                let why = "the game needs a terminal: ssh -t <host> (and race <code>)";
                self.answer_now(channel, Outcome::usage(why), session);
            } else {
                self.game(channel, game);
            }
            return Ok(());
        }
        let command = if data.len() > MAX_COMMAND {
            Err(format!("a command is at most {MAX_COMMAND} bytes: {USAGE}"))
        } else {
            std::str::from_utf8(data)
                .map_err(|_| format!("the command is not UTF-8: {USAGE}"))
                .and_then(Command::parse)
        };
        match command {
            Err(why) => {
                // Commands that never reach the routes count against the rate there.
                let outcome = self.over_rate().unwrap_or_else(|| Outcome::usage(why));
                self.answer_now(channel, outcome, session);
            }
            Ok(Command::Submit) => {
                let Some(chan) = self.channels.get(&channel).cloned() else {
                    return Ok(());
                };
                chan.submitting.store(true, Ordering::SeqCst);
                // The body must all arrive within the request's time, as over HTTP; its
                // bytes go with the refusal.
                let handle = session.handle();
                let budget = Duration::from_secs(self.state.config.request_timeout_secs);
                let (ends, slot) = (self.ends.clone(), self.slot.clone());
                tokio::spawn(async move {
                    tokio::select! {
                        () = tokio::time::sleep(budget) => {}
                        () = chan.answering.notified() => return,
                    }
                    if chan.take() {
                        chan.take_stdin(&slot);
                        let why = "the submission's body took too long: nothing was stored";
                        let limit = budget.max(Duration::from_secs(1));
                        answer(&handle, channel, Outcome::refused(why), &chan, &ends, limit).await;
                    }
                });
            }
            Ok(Command::Room(code)) => self.room(channel, code, session),
            Ok(command) => self.run(channel, command, vec![], session),
        }
        Ok(())
    }

    async fn data(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let Some(chan) = self.channels.get(&channel) else {
            return Ok(());
        };
        if let Some(game) = lock(&chan.game).as_mut() {
            // More than a person types: dropped, never held.
            game.input(data);
            return Ok(());
        }
        if chan.lines(data).is_err() {
            // A flood of lines, or one past the longest message: the room lets it go.
            chan.room.lock().unwrap_or_else(|p| p.into_inner()).take();
            return Ok(());
        }
        if !chan.submitting.load(Ordering::SeqCst) {
            return Ok(());
        }
        let over = {
            let mut stdin = chan.stdin.lock().unwrap_or_else(|p| p.into_inner());
            // Under the lock: a channel answered meanwhile (its body refused and taken)
            // keeps nothing more.
            if chan.answered.load(Ordering::SeqCst) {
                return Ok(());
            }
            if stdin.len() + data.len() > MAX_BODY {
                Some(format!(
                    "a submission is at most {MAX_BODY} bytes: nothing was stored"
                ))
            } else if let Err(why) = self.slot.hold(data.len()) {
                Some(format!(
                    "{why}: nothing was stored; send it again in a moment"
                ))
            } else {
                stdin.extend_from_slice(data);
                None
            }
        };
        if let Some(why) = over {
            self.answer_now(channel, Outcome::refused(why), session);
        }
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let stdin = match self.channels.get(&channel) {
            Some(chan) if chan.submitting.load(Ordering::SeqCst) => chan.take_stdin(&self.slot),
            Some(chan) => {
                // A room's stdin ended: so has its player's part in the room; and a
                // game's, its player's keys.
                chan.room.lock().unwrap_or_else(|p| p.into_inner()).take();
                lock(&chan.game).take();
                return Ok(());
            }
            _ => return Ok(()),
        };
        self.run(channel, Command::Submit, stdin, session);
        Ok(())
    }

    async fn channel_close(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Whichever side closed first, the channel is over. One closed before its stdin
        // ended was never run: nothing is stored.
        if let Some(chan) = self.channels.remove(&channel) {
            chan.take();
            chan.take_stdin(&self.slot);
            chan.room.lock().unwrap_or_else(|p| p.into_inner()).take();
            lock(&chan.game).take();
            chan.closed.store(true, Ordering::SeqCst);
            chan.closing.notify_one();
        }
        // Idle from the moment no channel has a request running: a channel opened and
        // left without one doesn't keep the connection.
        if !self
            .channels
            .values()
            .any(|c| c.requested.load(Ordering::SeqCst))
        {
            self.idle_since.store(self.elapsed_ms(), Ordering::SeqCst);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_as_the_protocol_writes_them() {
        assert_eq!(Command::parse("v1 submit"), Ok(Command::Submit));
        assert_eq!(
            Command::parse(" v1 replay 7Xf9qyuC "),
            Ok(Command::Replay("7Xf9qyuC".into()))
        );
        assert_eq!(
            Command::parse("v1 board time:15 2026-12"),
            Ok(Command::Board("time:15".into(), Some("2026-12".into())))
        );
        assert_eq!(
            Command::parse("v1 link ada 0af3"),
            Ok(Command::Link("ada".into(), Some("0af3".into())))
        );
        for wrong in ["", "v2 submit", "v1", "v1 submit now", "ls -la", "v1 board"] {
            let why = Command::parse(wrong).unwrap_err();
            assert!(why.contains("the v1 commands are"), "{wrong:?}: {why}");
        }
    }

    #[test]
    fn a_host_key_is_made_once_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ssh_host_ed25519_key");
        let made = host_key(&path).unwrap();
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(&path).unwrap().permissions(),
        );
        assert_eq!(mode & 0o777, 0o600);
        let kept = host_key(&path).unwrap();
        assert_eq!(
            fingerprint(made.public_key()),
            fingerprint(kept.public_key())
        );
        assert!(fingerprint(made.public_key()).starts_with("SHA256:"));
    }
}
