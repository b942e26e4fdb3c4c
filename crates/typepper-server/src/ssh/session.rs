//! One SSH connection: russh's handler, each session channel's state, and the
//! connection's deadlines (logging in, lifetime, idle time). A channel runs one request:
//! a `v1` command ([`super::exec`]) or a game ([`super::game`]).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use russh::server::{
    Auth, ChannelOpenHandle, Handle, Msg, PublicKeyOffer, Session, VerifiedPublicKey,
};
use russh::{Channel, ChannelId, ChannelWriteHalf};
use tokio::sync::{Notify, oneshot};
use typepper_api::Exit;

use super::exec::{Command, Outcome, USAGE};
use super::gate::Slot;
use super::keys::{acceptable, fingerprint};
use super::{MAX_CHANNELS, Socket, game};
use crate::{MAX_BODY, Shared};

/// A connection's idle time while a request runs (or before it logs in).
const BUSY: u64 = u64::MAX;

/// Runs one connection to its end: it authenticates within the deadline, lives at most
/// its lifetime, and ends at once when its handler says so; its socket is shut when this
/// returns.
pub(super) async fn run(
    config: Arc<russh::server::Config>,
    stream: tokio::net::TcpStream,
    socket: Socket,
    slot: Arc<Slot>,
    state: Arc<Shared>,
    peer: SocketAddr,
) {
    let limits = state.config.ssh.clone();
    let started = tokio::time::Instant::now();
    let auth_by = started + Duration::from_secs(limits.auth_secs.max(1));
    let (authed, authenticated) = oneshot::channel();
    let ends = Arc::new(Notify::new());
    let idle_since = Arc::new(std::sync::atomic::AtomicU64::new(BUSY));
    let connection = Connection {
        state,
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
    let session = tokio::time::timeout_at(
        auth_by,
        russh::server::run_stream(config, stream, connection),
    );
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
pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// One session channel, shared by the handler, the task answering it and a body's timer.
#[derive(Default)]
pub(super) struct Chan {
    /// `v1 submit` (or `v1 room-open custom`), waiting for its stdin to end.
    pub(super) submitting: AtomicBool,
    /// The command waiting for its stdin, when it isn't `v1 submit`.
    pub(super) pending: Mutex<Option<super::exec::Command>>,
    /// Its stdin so far; emptied when it is refused or run.
    stdin: Mutex<Vec<u8>>,
    /// Answered (or being): nothing more is done for it.
    answered: AtomicBool,
    /// The answer is going out: a body's timer stops.
    pub(super) answering: Notify,
    /// Its one request (exec, shell, pty, subsystem) came: any more are refused.
    requested: AtomicBool,
    /// The client closed it (first, or in reply to the server's close).
    closed: AtomicBool,
    /// Woken by the client's close.
    closing: Notify,
    /// `v1 room`: where its lines go, and the part of a line not yet ended.
    pub(super) room: Mutex<Option<(tokio::sync::mpsc::Sender<crate::rooms::Wire>, Vec<u8>)>>,
    /// Its writing half, which waits for the client's window: a game's frames go
    /// through it, so a client that stops reading holds no more than its window.
    pub(super) out: Mutex<Option<ChannelWriteHalf<Msg>>>,
    /// The terminal its pty request asked for, if it did.
    pty: Mutex<Option<game::Pty>>,
    /// A game's keys and window size, while one is played on it.
    game: Mutex<Option<game::Feed>>,
}

impl Chan {
    /// Takes the answering of the channel; `false` if it was answered already.
    pub(super) fn take(&self) -> bool {
        let first = !self.answered.swap(true, Ordering::SeqCst);
        if first {
            self.answering.notify_one();
        }
        first
    }

    /// The body so far, and no more kept (let go of at the gate).
    pub(super) fn take_stdin(&self, slot: &Slot) -> Vec<u8> {
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
pub(super) struct Connection {
    pub(super) state: Arc<Shared>,
    pub(super) peer: SocketAddr,
    /// The fingerprint of the key it authenticated with.
    pub(super) key: Option<String>,
    pub(super) channels: HashMap<ChannelId, Arc<Chan>>,
    /// Its place at the gate: a handshake until it authenticates.
    pub(super) slot: Arc<Slot>,
    /// Told once when it authenticates.
    authed: Option<oneshot::Sender<()>>,
    /// Ends the connection at once (its socket is shut).
    pub(super) ends: Arc<Notify>,
    /// Channels opened so far.
    commands: u32,
    /// When it last had no request running, in ms since it started; [`BUSY`] while one is.
    idle_since: Arc<std::sync::atomic::AtomicU64>,
    /// When it started.
    started: tokio::time::Instant,
}

impl Connection {
    /// Answers `chan`, taken already, with `outcome`.
    pub(super) fn reanswer(
        &self,
        channel: ChannelId,
        chan: Arc<Chan>,
        outcome: Outcome,
        session: &Session,
    ) {
        let handle = session.handle();
        let ends = self.ends.clone();
        let budget = Duration::from_secs(self.state.config.request_timeout_secs.max(1));
        tokio::spawn(async move {
            answer(&handle, channel, outcome, &chan, &ends, budget).await;
        });
    }

    /// Answers `channel` at once with `outcome`, unless it has been answered already.
    pub(super) fn answer_now(&mut self, channel: ChannelId, outcome: Outcome, session: &Session) {
        let Some(chan) = self.channels.get(&channel).filter(|c| c.take()).cloned() else {
            return;
        };
        chan.take_stdin(&self.slot);
        self.reanswer(channel, chan, outcome, session);
    }

    /// A refusal for a client over its address's request rate, if it is: commands that
    /// never reach the service (unknown ones, shells, subsystems) count against it too.
    pub(super) fn over_rate(&self) -> Option<Outcome> {
        let refused = self.state.take_request(self.peer.ip()).err()?;
        Some(Outcome::refused(refused.to_string()))
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
        let (feed, keys, size) = game::Feed::new(&pty);
        *lock(&chan.game) = Some(feed);
        let limits = &self.state.config.ssh;
        // A moment before the connection's own end, so the game can say why.
        let ends_by =
            self.started + Duration::from_secs(limits.max_secs.max(1)) - Duration::from_millis(500);
        tokio::spawn(game::play(game::Setup {
            state: self.state.clone(),
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
pub(super) async fn answer(
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

impl russh::server::Handler for Connection {
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
        *pty = Some(game::Pty {
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
                    .get_or_insert_with(game::Pty::default)
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
        self.exec(channel, data, session);
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
        let command = self
            .channels
            .get(&channel)
            .and_then(|chan| lock(&chan.pending).take())
            .unwrap_or(Command::Submit);
        self.run_command(channel, command, stdin, session);
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
