//! The `v1` commands (docs/spec/replays.md, "Over SSH"), as the SSH server runs them for
//! a client's exec request (the game it plays over SSH calls the service itself, and is
//! logged and counted as these are: [`counted`]). Each is a call on the
//! service, as its HTTP route's is: its answer goes to stdout as the same bytes as the
//! route's body, and its refusal to stderr, the service's sentence, with an exit status
//! ([`Exit`]): 3 for a key linked to no player, 1 for any other. `v1 room` streams
//! instead: the room's session, a line a message, for as long as the race.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use axum::http::{Method, StatusCode};
use russh::ChannelId;
use russh::server::Session;
use typepper_api::Exit;

use super::MAX_COMMAND;
use super::gate::Linking;
use super::session::{Connection, answer, lock};
use typepper_game::request::Request;

use crate::devices::Asker;
use crate::players::{LinkKey, Linked};
use crate::service::LINK_FIRST;
use crate::store::Player;
use crate::{ServiceError, Shared};

/// The commands, for a sentence about a wrong one.
pub(crate) const USAGE: &str = "the v1 commands are: v1 submit (the body on stdin), v1 replay <id>, \
                     v1 board <mode> [day|week|month|all|YYYY-MM], v1 link <name> [<token>], v1 seed <mode>, \
                     v1 room-open <mode>, v1 room <code>, v1 devices, v1 device-code, \
                     v1 claim <code>, v1 device-remove <id>, v1 profile <name>, v1 export, \
                     v1 account-delete, v1 daily [<n>], v1 settings, v1 settings-set (the file on stdin)";

/// A command of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Command {
    Submit,
    Replay(String),
    Board(String, Option<String>),
    Link(String, Option<String>),
    Seed(String),
    RoomOpen(String),
    Room(String),
    Devices,
    DeviceCode,
    Claim(String),
    DeviceRemove(String),
    Profile(String),
    Export,
    AccountDelete,
    Daily(Option<String>),
    Settings,
    SettingsSet,
}

impl Command {
    /// Whether it waits for its stdin to end: `v1 submit`'s body, and a custom room's
    /// text (`v1 room-open custom`).
    pub(crate) fn reads_stdin(&self) -> bool {
        match self {
            Command::Submit | Command::SettingsSet => true,
            Command::RoomOpen(mode) => mode == "custom",
            _ => false,
        }
    }

    /// The command that asks what the game's `request` asks (the `v1` protocol's), to
    /// log and count the request as one; `None` for a word list, which the server's
    /// build carries and the game never asks it for.
    pub(crate) fn of(request: &Request) -> Option<Command> {
        Some(match request {
            Request::Submit { .. } => Command::Submit,
            Request::Link(name) => Command::Link(name.clone(), None),
            Request::Board(mode, period) => {
                Command::Board(mode.clone(), Some(period.name().into()))
            }
            Request::Run(id) => Command::Replay(id.clone()),
            Request::Seed { mode, .. } => Command::Seed(mode.clone()),
            Request::OpenRoom(open) => Command::RoomOpen(open.mode.clone()),
            Request::Claim(code) => Command::Claim(code.clone()),
            Request::DeviceCode(_) => Command::DeviceCode,
            Request::Devices(_) => Command::Devices,
            Request::RemoveDevice { id, .. } => Command::DeviceRemove(id.clone()),
            Request::Profile(name) => Command::Profile(name.clone()),
            Request::Daily { number, .. } => Command::Daily(number.map(|n| n.to_string())),
            Request::Settings(_) => Command::Settings,
            Request::SaveSettings { .. } => Command::SettingsSet,
            Request::File(_) => return None,
        })
    }

    /// Reads an exec request's text.
    pub(crate) fn parse(text: &str) -> Result<Command, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let command = match words[..] {
            ["v1", "submit"] => Command::Submit,
            ["v1", "replay", id] => Command::Replay(id.into()),
            ["v1", "board", mode] => Command::Board(mode.into(), None),
            ["v1", "board", mode, month] => Command::Board(mode.into(), Some(month.into())),
            ["v1", "link", name] => Command::Link(name.into(), None),
            ["v1", "link", name, token] => Command::Link(name.into(), Some(token.into())),
            ["v1", "seed", mode] => Command::Seed(mode.into()),
            ["v1", "room-open", mode] => Command::RoomOpen(mode.into()),
            ["v1", "room", code] => Command::Room(code.into()),
            ["v1", "devices"] => Command::Devices,
            ["v1", "device-code"] => Command::DeviceCode,
            // A code may be typed as shown, in two halves: `v1 claim K3FQ 7M2X`.
            ["v1", "claim", ref code @ ..] if !code.is_empty() => Command::Claim(code.concat()),
            ["v1", "device-remove", id] => Command::DeviceRemove(id.into()),
            ["v1", "profile", name] => Command::Profile(name.into()),
            ["v1", "export"] => Command::Export,
            ["v1", "account-delete"] => Command::AccountDelete,
            ["v1", "daily"] => Command::Daily(None),
            ["v1", "daily", number] => Command::Daily(Some(number.into())),
            ["v1", "settings"] => Command::Settings,
            ["v1", "settings-set"] => Command::SettingsSet,
            _ => {
                let shown: String = text.chars().take(80).collect();
                return Err(format!("no command {shown:?} here: {USAGE}"));
            }
        };
        Ok(command)
    }
}

/// What a command gives back: its stdout, its stderr, its exit status.
pub(crate) struct Outcome {
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: String,
    pub(crate) status: u32,
}

impl Outcome {
    pub(crate) fn ok(stdout: Vec<u8>) -> Outcome {
        Outcome {
            stdout,
            stderr: String::new(),
            status: Exit::Ok.code().into(),
        }
    }

    pub(crate) fn refused(why: impl Into<String>) -> Outcome {
        Outcome::ended(Exit::Refused, why)
    }

    pub(crate) fn usage(why: impl Into<String>) -> Outcome {
        Outcome::ended(Exit::Usage, why)
    }

    pub(crate) fn ended(exit: Exit, why: impl Into<String>) -> Outcome {
        Outcome {
            stdout: vec![],
            stderr: why.into(),
            status: exit.code().into(),
        }
    }
}

/// Runs `command` on the service, as the client at `peer` with `key`.
pub(crate) async fn execute(
    state: &Arc<Shared>,
    peer: SocketAddr,
    key: Option<String>,
    command: Command,
    stdin: Vec<u8>,
) -> Outcome {
    // What its words alone refuse, before the service is asked.
    match &command {
        // A room streams, on its own path (Connection::room), never as one request.
        Command::Room(_) => return Outcome::refused("a room is joined on its own channel"),
        Command::Replay(id) if !typepper_api::is_run_id(id) => {
            return Outcome::refused(format!("{id:?} is not a run id"));
        }
        // Only what a key or a month is made of reaches the service and the log; the
        // service says what is wrong with a key that looks like one.
        Command::Board(mode, month) if !is_word(mode) || !month.as_deref().is_none_or(is_word) => {
            return Outcome::refused(format!("{mode:?} is not a mode of the boards"));
        }
        Command::Link(..) if key.is_none() => {
            return Outcome::refused("no key: connect with a public key to link it");
        }
        _ => {}
    }
    let started = Instant::now();
    let stands_for = stands_for(&command);
    let answered = serve(state, peer.ip(), key, command, stdin).await;
    finish(state, stands_for, started, answered)
}

/// What a command `started` then came to: counted as the request it `stands_for`, and
/// said as its outcome.
fn finish(
    state: &Shared,
    stands_for: (Method, &'static str, String),
    started: Instant,
    answered: Result<Done, Failed>,
) -> Outcome {
    let (status, detail) = match &answered {
        Ok(done) => (done.status, None),
        Err(Failed::Refused(refused)) => (
            refused.status(),
            match refused {
                ServiceError::Internal(detail) => Some(detail.as_str()),
                _ => None,
            },
        ),
        Err(Failed::Late) => (StatusCode::REQUEST_TIMEOUT, None),
    };
    counted(state, stands_for, status, detail, started.elapsed());
    match answered {
        Ok(done) => Outcome {
            stderr: done.note,
            ..Outcome::ok(done.stdout)
        },
        Err(Failed::Refused(refused)) => {
            let exit = match refused {
                ServiceError::Unauthorized(_) => Exit::NotLinked,
                _ => Exit::Refused,
            };
            Outcome::ended(exit, refused.to_string().trim())
        }
        // Worded as it was when the commands went through the HTTP routes, whose
        // timeout answers with no sentence of its own.
        Err(Failed::Late) => Outcome::refused(format!(
            "the server answered {}",
            StatusCode::REQUEST_TIMEOUT
        )),
    }
}

/// Logs and counts a command (or the SSH game's request) as the HTTP request it stands
/// for, answered with `status` in `took`, as it was when they went through the routes:
/// the operator's logs and metrics read the same.
pub(crate) fn counted(
    state: &Shared,
    (method, route, path): (Method, &'static str, String),
    status: StatusCode,
    detail: Option<&str>,
    took: Duration,
) {
    let request = Some((&method, path.as_str()));
    crate::http::served(state, route, request, status.as_u16(), took, detail);
}

/// A command the service answered: its stdout, the HTTP status its route answers with,
/// and a note for stderr.
struct Done {
    stdout: Vec<u8>,
    status: StatusCode,
    note: String,
}

impl Done {
    fn ok(stdout: Vec<u8>) -> Done {
        Done::with(StatusCode::OK, stdout)
    }

    fn with(status: StatusCode, stdout: Vec<u8>) -> Done {
        Done {
            stdout,
            status,
            note: String::new(),
        }
    }
}

/// Why a command has no answer.
enum Failed {
    /// The service refused it, or failed.
    Refused(ServiceError),
    /// It took longer than the request's time.
    Late,
}

impl From<ServiceError> for Failed {
    fn from(refused: ServiceError) -> Failed {
        Failed::Refused(refused)
    }
}

/// The command's call on the service, after the client's request allowance, within the
/// request's time as over HTTP; a submission is not cut off once it is being stored.
async fn serve(
    state: &Arc<Shared>,
    ip: IpAddr,
    key: Option<String>,
    command: Command,
    stdin: Vec<u8>,
) -> Result<Done, Failed> {
    state.take_request(ip)?;
    if let Command::RoomOpen(mode) = &command
        && mode == "custom"
    {
        // A custom room's text is the command's stdin, as a submission's body is.
        let text = String::from_utf8(stdin)
            .map_err(|_| ServiceError::BadRequest("the text is not UTF-8".into()))?;
        let open = typepper_api::room::Open {
            mode: mode.clone(),
            text: Some(text),
        };
        let budget = Duration::from_secs(state.config.request_timeout_secs);
        let opened = tokio::time::timeout(budget, state.open_room(&open, ip))
            .await
            .map_err(|_| Failed::Late)??;
        return Ok(Done::with(StatusCode::CREATED, json(&opened)));
    }
    if let Command::SettingsSet = command {
        // The settings file is the command's stdin, as a submission's body is.
        let player = player(state, key.as_deref()).await?;
        return Ok(Done::ok(
            state.save_settings(&player, &stdin).await?.into_bytes(),
        ));
    }
    if let Command::Submit = command {
        let player = player(state, key.as_deref()).await?;
        let answer = state
            .submit(player.id, stdin.into(), Instant::now())
            .await?;
        return Ok(Done::ok(answer.into_bytes()));
    }
    let budget = Duration::from_secs(state.config.request_timeout_secs);
    tokio::time::timeout(budget, call(state, ip, key, command))
        .await
        .map_err(|_| Failed::Late)?
}

/// Every command but `v1 submit` (and `v1 room`, which streams), on the service.
async fn call(
    state: &Arc<Shared>,
    ip: IpAddr,
    key: Option<String>,
    command: Command,
) -> Result<Done, Failed> {
    Ok(match command {
        Command::Replay(id) => Done::ok(state.watchable(&id).await?.played.replay.clone()),
        Command::Board(mode, when) => {
            // The word after the mode is a period (`week`) or a month (`2026-12`).
            let (period, month) = match when {
                Some(w) if typepper_api::Period::parse(&w).is_some() => (Some(w), None),
                month => (None, month),
            };
            Done::ok(json(&state.board(&mode, period.as_deref(), month).await?))
        }
        Command::Seed(mode) => {
            let player = player(state, key.as_deref()).await?;
            let issued = state.issue_seed(player.id, &mode).await?;
            Done::with(StatusCode::CREATED, json(&issued))
        }
        Command::RoomOpen(mode) => {
            let open = typepper_api::room::Open { mode, text: None };
            let opened = state.open_room(&open, ip).await?;
            Done::with(StatusCode::CREATED, json(&opened))
        }
        Command::Link(name, token) => {
            let Some(key) = key else {
                let why = "no key: connect with a public key to link it";
                return Err(ServiceError::NotFound(why.into()).into());
            };
            match state
                .link_key(key, LinkKey { name, token }, Some(ip))
                .await?
            {
                Linked::Now(player) => Done::with(StatusCode::CREATED, json(&player)),
                // The key was linked already, and stays its player's.
                Linked::Already(name) => Done {
                    note: format!("this key is linked to {name} already"),
                    ..Done::ok(json(&typepper_api::Player {
                        name,
                        token: String::new(),
                    }))
                },
            }
        }
        Command::Devices => {
            let (player, asker) = on_key(state, key).await?;
            Done::ok(json(&state.devices(&player, &asker).await?))
        }
        Command::DeviceCode => {
            let (player, asker) = on_key(state, key).await?;
            let code = state.device_code(&player, &asker).await?;
            Done::with(StatusCode::CREATED, json(&code))
        }
        Command::DeviceRemove(id) => {
            let (player, _) = on_key(state, key).await?;
            state.remove_device(&player, &id).await?;
            Done::with(StatusCode::NO_CONTENT, vec![])
        }
        Command::Claim(code) => {
            let Some(fingerprint) = key else {
                let why = "no key: connect with a public key to add it to a player";
                return Err(ServiceError::NotFound(why.into()).into());
            };
            let device = crate::store::NewDevice::Key {
                fingerprint,
                max_keys: state.config.max_keys,
            };
            let player = state.claim_device(&code, device, Some(ip)).await?;
            // Over SSH the key is the device: no token is said.
            let linked = typepper_api::Player {
                name: player.name,
                token: String::new(),
            };
            Done::with(StatusCode::CREATED, json(&linked))
        }
        Command::Profile(name) => Done::ok(json(&*state.profile(&name).await?)),
        Command::Daily(number) => {
            let number = match number.map(|n| n.parse::<u32>()) {
                None => None,
                Some(Ok(n)) => Some(n),
                Some(Err(_)) => {
                    let why = "a daily is known by its number: v1 daily 312";
                    return Err(ServiceError::NotFound(why.into()).into());
                }
            };
            // A linked key's player learns their place; anyone else, the board.
            let player = match &key {
                Some(key) => state.player_of_key(key).await.ok().map(|p| p.id),
                None => None,
            };
            Done::ok(json(&state.daily(number, player).await?))
        }
        Command::AccountDelete => {
            let player = player(state, key.as_deref()).await?;
            Done::ok(json(&state.delete_account(&player).await?))
        }
        Command::Settings => {
            let player = player(state, key.as_deref()).await?;
            Done::ok(state.settings(&player).await?.into_bytes())
        }
        Command::Submit | Command::Room(_) | Command::Export | Command::SettingsSet => {
            return Err(ServiceError::Internal(format!("{command:?} has a way of its own")).into());
        }
    })
}

/// `v1 export`: the player's archive written on `channel` a page of runs at a time, each
/// once the client's window takes it (as `GET /v1/export` streams it). Each page must be
/// read, and taken, within the request's time: a client that stops reading is let go,
/// holding one page. A failure midway ends the archive short with exit status 1 and the
/// sentence why, never an archive that looks whole. Counted as its HTTP request is.
async fn export(
    state: &Arc<Shared>,
    peer: SocketAddr,
    key: Option<String>,
    handle: &russh::server::Handle,
    channel: ChannelId,
) -> Outcome {
    let started = Instant::now();
    let budget = Duration::from_secs(state.config.request_timeout_secs.max(1));
    let sent = async {
        state.take_request(peer.ip())?;
        let player = player(state, key.as_deref()).await?;
        let mut export = state.export(player)?;
        loop {
            let page = tokio::time::timeout(budget, state.export_next(&mut export))
                .await
                .map_err(|_| Failed::Late)??;
            let Some(page) = page else {
                return Ok(());
            };
            let taken = tokio::time::timeout(budget, handle.data(channel, page)).await;
            if !matches!(taken, Ok(Ok(()))) {
                let why = "the client took no more of the archive: it ended short";
                return Err(ServiceError::Unavailable(why.into(), 1).into());
            }
        }
    };
    let sent: Result<(), Failed> = sent.await;
    let answered = sent.map(|()| Done::ok(vec![]));
    finish(state, stands_for(&Command::Export), started, answered)
}

/// The player `key` is linked to; for a guest (no key), refused as a request with no
/// player is.
pub(crate) async fn player(state: &Shared, key: Option<&str>) -> Result<Player, ServiceError> {
    match key {
        Some(key) => state.player_of_key(key).await,
        None => Err(ServiceError::Unauthorized(LINK_FIRST)),
    }
}

/// The player `key` is linked to, and the key as the device that asks.
async fn on_key(state: &Shared, key: Option<String>) -> Result<(Player, Asker), ServiceError> {
    let player = player(state, key.as_deref()).await?;
    Ok((player, Asker::Key(key.unwrap_or_default())))
}

/// An answer's JSON, the same bytes as its route's body.
fn json(value: &impl serde::Serialize) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}

/// A word a board's mode or month may be: letters, digits, `-`, `:`, and the `/` and `@`
/// of a mode's options and language (`time:30/p@fr`).
fn is_word(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-:/@".contains(&b))
}

/// The HTTP request a command stands for (docs/spec/replays.md): its method, its route
/// and its path. A command is logged and counted as that request, as it was when it went
/// through the HTTP routes, so that the operator's logs and metrics read the same.
pub(crate) fn stands_for(command: &Command) -> (Method, &'static str, String) {
    let fixed = |method, route: &'static str| (method, route, route.to_owned());
    match command {
        Command::Submit => fixed(Method::POST, "/v1/submit"),
        Command::Replay(id) => (Method::GET, "/v1/runs/{id}", format!("/v1/runs/{id}")),
        Command::Board(mode, _) => (
            Method::GET,
            "/v1/boards/{*mode}",
            format!("/v1/boards/{mode}"),
        ),
        Command::Link(..) => fixed(Method::POST, "/v1/keys"),
        Command::Seed(_) => fixed(Method::POST, "/v1/seeds"),
        Command::RoomOpen(_) => fixed(Method::POST, "/v1/rooms"),
        Command::Room(code) => (
            Method::GET,
            "/v1/rooms/{code}/live",
            format!("/v1/rooms/{code}/live"),
        ),
        Command::Devices => fixed(Method::GET, "/v1/devices"),
        Command::DeviceCode => fixed(Method::POST, "/v1/devices/code"),
        Command::Claim(_) => fixed(Method::POST, "/v1/devices/claim"),
        Command::DeviceRemove(id) => (
            Method::DELETE,
            "/v1/devices/{*id}",
            format!("/v1/devices/{id}"),
        ),
        // Only a name is logged: anything else is no name and is not said back.
        Command::Profile(name) => (
            Method::GET,
            "/v1/players/{name}",
            match typepper_api::check_name(name) {
                Ok(()) => format!("/v1/players/{name}"),
                Err(_) => "/v1/players/-".into(),
            },
        ),
        Command::Export => fixed(Method::GET, "/v1/export"),
        Command::Settings => fixed(Method::GET, "/v1/settings"),
        Command::SettingsSet => fixed(Method::PUT, "/v1/settings"),
        Command::AccountDelete => (Method::DELETE, "/v1/players/me", "/v1/players/me".into()),
        Command::Daily(None) => fixed(Method::GET, "/v1/daily"),
        // Only a number is logged: anything else is not said back.
        Command::Daily(Some(n)) => (
            Method::GET,
            "/v1/daily/{number}",
            match n.parse::<u32>() {
                Ok(n) => format!("/v1/daily/{n}"),
                Err(_) => "/v1/daily/-".into(),
            },
        ),
    }
}

impl Connection {
    /// A client's exec request that is no game: the `v1` command its text names, or
    /// why not.
    pub(super) fn exec(&mut self, channel: ChannelId, data: &[u8], session: &Session) {
        let command = if data.len() > MAX_COMMAND {
            Err(format!("a command is at most {MAX_COMMAND} bytes: {USAGE}"))
        } else {
            std::str::from_utf8(data)
                .map_err(|_| format!("the command is not UTF-8: {USAGE}"))
                .and_then(Command::parse)
        };
        match command {
            Err(why) => {
                // Commands that never reach the service count against its rate too.
                let outcome = self.over_rate().unwrap_or_else(|| Outcome::usage(why));
                self.answer_now(channel, outcome, session);
            }
            Ok(command) if command.reads_stdin() => {
                let Some(chan) = self.channels.get(&channel).cloned() else {
                    return;
                };
                chan.submitting.store(true, Ordering::SeqCst);
                *super::session::lock(&chan.pending) = Some(command);
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
            Ok(command) => self.run_command(channel, command, vec![], session),
        }
    }

    /// Runs `command` in the background and answers on `channel`, unless it has been
    /// answered already.
    pub(super) fn run_command(
        &mut self,
        channel: ChannelId,
        command: Command,
        stdin: Vec<u8>,
        session: &Session,
    ) {
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
        let (state, peer, key) = (self.state.clone(), self.peer, self.key.clone());
        let ends = self.ends.clone();
        tokio::spawn(async move {
            let outcome = match command {
                // The archive goes a page at a time as the client takes it, never whole
                // in memory: a player may hold 8 days of 16 MiB of runs.
                Command::Export => export(&state, peer, key, &handle, channel).await,
                command => execute(&state, peer, key, command, stdin).await,
            };
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
            Command::parse("v1 board words:25/p/n@de"),
            Ok(Command::Board("words:25/p/n@de".into(), None))
        );
        assert_eq!(
            Command::parse("v1 seed time:30/p@fr"),
            Ok(Command::Seed("time:30/p@fr".into()))
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
}
