//! The `v1` line protocol over SSH, for the terminal game.
//!
//! A player is their SSH key: any key may connect, and a key linked to a player
//! (`v1 link`) submits and draws seeds as that player. Each exec request is one command:
//!
//! | command | stdin | stdout |
//! |---|---|---|
//! | `v1 submit` | the body of `POST /v1/submit` | its answer lines |
//! | `v1 replay <id>` | — | the run's replay bytes |
//! | `v1 board <mode> [YYYY-MM]` | — | the rows, one a line ([`typepper_api::BoardRow`]) |
//! | `v1 link <name>` | — | the new player, as `POST /v1/players` answers; the key is linked to it |
//! | `v1 link <name> <token>` | — | the same, for a player linked on the web |
//! | `v1 seed <mode>` | — | an issued seed, as `POST /v1/seeds` answers |
//!
//! How it works: each command becomes the HTTP request it stands for and goes through the
//! same router, so the body limit, rate limits, timeouts, checks and answers are the
//! HTTP API's own. The request carries the connection's address ([`ConnectInfo`]) and the
//! key's fingerprint ([`SshKey`]), which the routes read in place of a bearer token. A
//! refusal is the route's sentence on stderr with exit status 1; an unknown command,
//! a shell or a pty get a sentence and exit status 2. A submission runs only once its
//! stdin has ended: a connection dropped mid-body stores nothing.

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::Context as _;
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode, header};
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::ssh_key::{HashAlg, LineEnding, PrivateKey, PublicKey};
use russh::server::{Auth, ChannelOpenHandle, Handle, Msg, Session};
use russh::{Channel, ChannelId};
use tokio::net::TcpListener;
use tokio::task::JoinSet;
use tower::ServiceExt as _;

use crate::serve::Acceptor;
use crate::{MAX_BODY, SshKey, State};

/// Session channels one connection may have open at once.
const MAX_CHANNELS: usize = 4;

/// The commands, for a sentence about a wrong one.
const USAGE: &str = "the v1 commands are: v1 submit (the body on stdin), v1 replay <id>, \
                     v1 board <mode> [YYYY-MM], v1 link <name> [<token>], v1 seed <mode>";

/// The host key at `path`, made (Ed25519, mode 0600) if there is none.
pub fn host_key(path: &Path) -> anyhow::Result<PrivateKey> {
    if path.exists() {
        return PrivateKey::read_openssh_file(path)
            .with_context(|| format!("reading the SSH host key {}", path.display()));
    }
    let mut seed = [0u8; 32];
    crate::routes::random(&mut seed);
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

/// Serves SSH on `listener` until `shutdown` resolves, then lets the commands in flight
/// finish for up to the configured grace and closes the rest.
pub async fn serve_ssh(
    listener: TcpListener,
    host_key: PrivateKey,
    state: Arc<State>,
    router: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let limits = state.limits();
    let config = Arc::new(russh::server::Config {
        keys: vec![host_key],
        // Slow or silent clients are let go, as HTTP's header timeout does.
        inactivity_timeout: Some(limits.header_timeout.max(Duration::from_secs(1)) * 3),
        auth_rejection_time: Duration::from_millis(300),
        auth_rejection_time_initial: Some(Duration::ZERO),
        max_auth_attempts: 6,
        ..Default::default()
    });
    let mut sessions = JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    // The acceptor sets TCP_NODELAY, which russh sets only on sockets it accepts itself.
    // Without it the key exchange's and each answer's small writes wait on Nagle and the
    // client's delayed ACK: measured, 40 ms of every command.
    let mut acceptor = Acceptor::new(&listener, limits.max_connections);
    while let Some((permit, stream, peer)) = acceptor.next(&mut shutdown).await {
        let conn = Conn {
            state: state.clone(),
            router: router.clone(),
            peer,
            key: None,
            channels: HashMap::new(),
        };
        let config = config.clone();
        sessions.spawn(async move {
            let _permit = permit;
            match russh::server::run_stream(config, stream, conn).await {
                Ok(session) => {
                    if let Err(e) = session.await {
                        tracing::debug!("SSH session from {peer} ended: {e}");
                    }
                }
                Err(e) => tracing::debug!("SSH handshake from {peer} failed: {e}"),
            }
        });
        // Finished sessions are reaped as we go.
        while sessions.try_join_next().is_some() {}
    }
    drop(listener);
    let grace = tokio::time::sleep(limits.grace);
    tokio::pin!(grace);
    loop {
        tokio::select! {
            next = sessions.join_next() => if next.is_none() { break },
            () = &mut grace => {
                sessions.abort_all();
                break;
            }
        }
    }
    Ok(())
}

/// A command of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Command {
    Submit,
    Replay(String),
    Board(String, Option<String>),
    Link(String, Option<String>),
    Seed(String),
}

impl Command {
    /// Reads an exec request's text.
    fn parse(text: &str) -> Result<Command, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let command = match words[..] {
            ["v1", "submit"] => Command::Submit,
            ["v1", "replay", id] => Command::Replay(id.into()),
            ["v1", "board", mode] => Command::Board(mode.into(), None),
            ["v1", "board", mode, month] => Command::Board(mode.into(), Some(month.into())),
            ["v1", "link", name] => Command::Link(name.into(), None),
            ["v1", "link", name, token] => Command::Link(name.into(), Some(token.into())),
            ["v1", "seed", mode] => Command::Seed(mode.into()),
            _ => {
                let shown: String = text.chars().take(80).collect();
                return Err(format!("no command {shown:?} here: {USAGE}"));
            }
        };
        Ok(command)
    }
}

/// What a command gives back: its stdout, its stderr, its exit status.
struct Outcome {
    stdout: Vec<u8>,
    stderr: String,
    status: u32,
}

impl Outcome {
    fn ok(stdout: Vec<u8>) -> Outcome {
        Outcome {
            stdout,
            stderr: String::new(),
            status: 0,
        }
    }

    fn refused(why: impl Into<String>) -> Outcome {
        Outcome {
            stdout: vec![],
            stderr: why.into(),
            status: 1,
        }
    }

    fn usage(why: impl Into<String>) -> Outcome {
        Outcome {
            status: 2,
            ..Outcome::refused(why)
        }
    }
}

/// One session channel: the command it runs, and its stdin so far.
#[derive(Default)]
struct Chan {
    /// `v1 submit`, waiting for its stdin to end.
    submitting: bool,
    stdin: Vec<u8>,
    /// The channel has been answered (or is being): nothing more is done for it.
    answered: Arc<AtomicBool>,
}

/// One SSH connection.
struct Conn {
    state: Arc<State>,
    router: Router,
    peer: SocketAddr,
    /// The fingerprint of the key it authenticated with.
    key: Option<String>,
    channels: HashMap<ChannelId, Chan>,
}

impl Conn {
    /// Runs `command` in the background and answers on `channel`, unless it has been
    /// answered already.
    fn run(&mut self, channel: ChannelId, command: Command, stdin: Vec<u8>, session: &Session) {
        let Some(chan) = self.channels.get(&channel) else {
            return;
        };
        if chan.answered.swap(true, Ordering::SeqCst) {
            return;
        }
        let handle = session.handle();
        let (state, router, peer, key) = (
            self.state.clone(),
            self.router.clone(),
            self.peer,
            self.key.clone(),
        );
        tokio::spawn(async move {
            let outcome = execute(&state, router, peer, key, command, stdin).await;
            answer(&handle, channel, outcome).await;
        });
    }

    /// Answers `channel` at once with `outcome`, unless it has been answered already.
    fn answer_now(&mut self, channel: ChannelId, outcome: Outcome, session: &Session) {
        let answered = self
            .channels
            .get(&channel)
            .is_some_and(|c| c.answered.swap(true, Ordering::SeqCst));
        if answered {
            return;
        }
        let handle = session.handle();
        tokio::spawn(async move { answer(&handle, channel, outcome).await });
    }
}

impl Conn {
    /// Refuses a shell or a terminal: granted, so that the client reads `why` rather than
    /// its own complaint, then answered with it and the commands, exit status 2.
    fn no_session(
        &mut self,
        channel: ChannelId,
        why: &str,
        session: &mut Session,
    ) -> Result<(), russh::Error> {
        session.channel_success(channel)?;
        self.answer_now(channel, Outcome::usage(format!("{why}; {USAGE}")), session);
        Ok(())
    }
}

/// Writes `outcome` on `channel`, with its exit status, and closes it.
async fn answer(handle: &Handle, channel: ChannelId, outcome: Outcome) {
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
    let _ = handle.close(channel).await;
}

/// Runs `command` through the HTTP routes, as the client at `peer` with `key`.
async fn execute(
    state: &State,
    router: Router,
    peer: SocketAddr,
    key: Option<String>,
    command: Command,
    stdin: Vec<u8>,
) -> Outcome {
    let request = |method: Method, path: String, body: Vec<u8>| {
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header(header::CONTENT_TYPE, "application/octet-stream")
            .body(Body::from(body))
            .unwrap_or_default();
        req.extensions_mut().insert(ConnectInfo(peer));
        if let Some(key) = &key {
            req.extensions_mut().insert(SshKey(key.clone()));
        }
        req
    };
    let call = |req: Request<Body>| {
        let router = router.clone();
        async move {
            let response = match router.oneshot(req).await {
                Ok(r) => r,
                Err(never) => match never {},
            };
            let status = response.status();
            let body = axum::body::to_bytes(response.into_body(), 2 * MAX_BODY)
                .await
                .map(|b| b.to_vec())
                .unwrap_or_default();
            (status, body)
        }
    };
    let refused = |status: StatusCode, body: &[u8]| {
        let text = String::from_utf8_lossy(body).trim().to_owned();
        Outcome::refused(if text.is_empty() {
            format!("the server answered {status}")
        } else {
            text
        })
    };
    match command {
        Command::Submit => {
            let (status, body) = call(request(Method::POST, "/v1/submit".into(), stdin)).await;
            if status.is_success() {
                Outcome::ok(body)
            } else {
                refused(status, &body)
            }
        }
        Command::Replay(id) => {
            if !typepper_api::is_run_id(&id) {
                return Outcome::refused(format!("{id:?} is not a run id"));
            }
            let (status, body) = call(request(Method::GET, format!("/v1/runs/{id}"), vec![])).await;
            if status.is_success() {
                Outcome::ok(body)
            } else {
                refused(status, &body)
            }
        }
        Command::Board(mode, month) => {
            let ok = |s: &str| {
                s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-:".contains(&b))
            };
            if !ok(&mode) || !month.as_deref().is_none_or(ok) {
                return Outcome::refused(format!("{mode:?} is not a mode of the boards"));
            }
            let query = month.map_or(String::new(), |m| format!("?month={m}"));
            let path = format!("/v1/boards/{mode}{query}");
            let (status, body) = call(request(Method::GET, path, vec![])).await;
            if !status.is_success() {
                return refused(status, &body);
            }
            match serde_json::from_slice::<typepper_api::Board>(&body) {
                Ok(board) => {
                    let lines: String = board.rows.iter().map(|r| format!("{r}\n")).collect();
                    Outcome::ok(lines.into_bytes())
                }
                Err(e) => Outcome::refused(format!("the board could not be read: {e}")),
            }
        }
        Command::Seed(mode) => {
            let body = serde_json::to_vec(&typepper_api::SeedRequest { mode }).unwrap_or_default();
            let (status, body) = call(request(Method::POST, "/v1/seeds".into(), body)).await;
            if status.is_success() {
                Outcome::ok(body)
            } else {
                refused(status, &body)
            }
        }
        Command::Link(name, token) => {
            let Some(fingerprint) = key.clone() else {
                return Outcome::refused("no key: connect with a public key to link it");
            };
            link(state, call, request, fingerprint, name, token).await
        }
    }
}

/// `v1 link`: the key is linked to a new player, or to the player a web token names.
async fn link<C, F>(
    state: &State,
    call: C,
    request: impl Fn(Method, String, Vec<u8>) -> Request<Body>,
    key: String,
    name: String,
    token: Option<String>,
) -> Outcome
where
    C: Fn(Request<Body>) -> F,
    F: Future<Output = (StatusCode, Vec<u8>)>,
{
    let player = match token {
        // A new player, through the route the web links with (its limits, its checks).
        None => {
            let body = serde_json::to_vec(&typepper_api::NewPlayer { name }).unwrap_or_default();
            let (status, body) = call(request(Method::POST, "/v1/players".into(), body)).await;
            if !status.is_success() {
                return Outcome::refused(String::from_utf8_lossy(&body).trim().to_owned());
            }
            match serde_json::from_slice::<typepper_api::Player>(&body) {
                Ok(p) => p,
                Err(e) => return Outcome::refused(format!("linking failed: {e}")),
            }
        }
        Some(token) => typepper_api::Player { name, token },
    };
    let found = state
        .store
        .player_by_token(crate::routes::token_hash(&player.token))
        .await;
    let id = match found {
        Ok(Some(p)) if p.name.eq_ignore_ascii_case(&player.name) => p.id,
        Ok(_) => return Outcome::refused(format!("{} has no such token", player.name)),
        Err(e) => return Outcome::refused(crate::ApiError::from(e).to_string()),
    };
    if let Err(e) = state.store.link_key(key, id, state.now_ms()).await {
        return Outcome::refused(crate::ApiError::from(e).to_string());
    }
    Outcome::ok(serde_json::to_vec(&player).unwrap_or_default())
}

impl russh::server::Handler for Conn {
    type Error = russh::Error;

    async fn auth_publickey(&mut self, _user: &str, key: &PublicKey) -> Result<Auth, Self::Error> {
        // Any key may connect: one not linked can fetch, not submit.
        self.key = Some(fingerprint(key));
        Ok(Auth::Accept)
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Channels already answered are done, whether or not their close came back (a
        // shared connection opens one a command, for as long as it lives).
        self.channels
            .retain(|_, c| !c.answered.load(Ordering::SeqCst));
        if self.channels.len() >= MAX_CHANNELS {
            // Dropping the handle refuses the channel.
            return Ok(());
        }
        self.channels.insert(channel.id(), Chan::default());
        reply.accept().await;
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        _term: &str,
        _col_width: u32,
        _row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(russh::Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.no_session(
            channel,
            "no terminal here: typepper speaks a line protocol, not a shell",
            session,
        )
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.no_session(
            channel,
            "no shell here: run one command, as in ssh <host> v1 board time:15",
            session,
        )
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_success(channel)?;
        let command = std::str::from_utf8(data)
            .map_err(|_| "the command is not UTF-8".to_owned())
            .and_then(Command::parse);
        match command {
            Err(why) => self.answer_now(channel, Outcome::usage(why), session),
            Ok(Command::Submit) => {
                let Some(chan) = self.channels.get_mut(&channel) else {
                    return Ok(());
                };
                chan.submitting = true;
                // The body must all arrive within the request's time, as over HTTP.
                let (answered, handle) = (chan.answered.clone(), session.handle());
                let budget = Duration::from_secs(self.state.config.request_timeout_secs);
                tokio::spawn(async move {
                    tokio::time::sleep(budget).await;
                    if !answered.swap(true, Ordering::SeqCst) {
                        let why = "the submission's body took too long: nothing was stored";
                        answer(&handle, channel, Outcome::refused(why)).await;
                    }
                });
            }
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
        let Some(chan) = self.channels.get_mut(&channel) else {
            return Ok(());
        };
        if !chan.submitting || chan.answered.load(Ordering::SeqCst) {
            return Ok(());
        }
        if chan.stdin.len() + data.len() > MAX_BODY {
            chan.stdin = vec![];
            let why = format!("a submission is at most {MAX_BODY} bytes: nothing was stored");
            self.answer_now(channel, Outcome::refused(why), session);
            return Ok(());
        }
        chan.stdin.extend_from_slice(data);
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let stdin = match self.channels.get_mut(&channel) {
            Some(chan) if chan.submitting => std::mem::take(&mut chan.stdin),
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
        // A channel closed before its stdin ended was never run: nothing is stored.
        if let Some(chan) = self.channels.remove(&channel) {
            chan.answered.store(true, Ordering::SeqCst);
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
