//! The SSH server: the `v1` line protocol for the terminal game, and the whole game for a
//! client with a terminal.
//!
//! A shell request with a pty (`ssh -t host`), or the exec commands `play` and
//! `race <code>` with one, plays the game itself over the channel ([`game`]). A
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
//! | `v1 link <name>` | — | the new player, as `POST /v1/players` answers; the key is linked to it (counted as `POST /v1/keys`) |
//! | `v1 link <name> <token>` | — | the same, for a player linked on the web |
//! | `v1 seed <mode>` | — | an issued seed, as `POST /v1/seeds` answers |
//! | `v1 room-open <mode>` | — | a new live room, as `POST /v1/rooms` answers |
//! | `v1 room <code>` | a live room's messages, a JSON line each | the room's messages, a JSON line each |
//!
//! `v1 room` streams: it is the room's WebSocket as lines (docs/spec/rooms.md), the
//! connection open for as long as the race. A key linked to a player races as that
//! player, whatever its hello says.
//!
//! How it works: each command is a call on the service ([`exec`]), as its HTTP route's
//! is, so the rate limits, timeouts, checks and answers are the HTTP API's own; the key
//! stands where the route's bearer token does. A refusal is the service's sentence on
//! stderr with an exit status ([`typepper_api::Exit`]): 3 for a key linked to no player
//! (HTTP's 401), so that a client can tell it apart without reading the sentence, 1 for
//! any other; an unknown command, a shell without a terminal or a subsystem get a
//! sentence and exit status 2. A submission runs only once its stdin has ended: a
//! connection dropped mid-body stores nothing.
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
//!
//! The door's parts: [`keys`] (the host key, and the players' keys it takes), [`gate`]
//! (admission: slots and memory per address and in all), [`session`] (russh's handler
//! and each channel's state), [`exec`] (the `v1` commands) and [`game`] (the game).

mod exec;
mod game;
mod gate;
mod keys;
mod session;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use russh::keys::ssh_key::{Algorithm, PrivateKey};
use tokio::net::TcpListener;
use tokio::task::JoinSet;

pub(crate) use self::game::Games;
use self::gate::Gate;
pub use self::gate::{BODY_SHARES, HANDSHAKES_PER_IP};
pub use self::keys::{MIN_RSA_BITS, fingerprint, host_key};
use crate::Shared;
use crate::serve::Acceptor;

/// Session channels one connection may have open at once.
pub const MAX_CHANNELS: usize = 4;

/// The longest command line, in bytes: the longest real one (`v1 link` with a name and a
/// token) is under a hundred.
pub const MAX_COMMAND: usize = 256;

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
    let gate = Arc::new(Gate::new(&state));
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
        let (state, config) = (state.clone(), config.clone());
        sessions.spawn(async move {
            let _permit = permit;
            session::run(config, stream, socket, Arc::new(slot), state, peer).await;
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
