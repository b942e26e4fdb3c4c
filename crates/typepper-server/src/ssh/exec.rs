//! The `v1` commands, as the SSH server runs them for a client's exec request and for a
//! game it plays over SSH: each becomes the HTTP request it stands for and goes
//! through the same router, so the body limit, rate limits, timeouts, checks and answers
//! are the HTTP API's own. `v1 room` streams instead: the room's session, a line a
//! message, for as long as the race.

use std::net::SocketAddr;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode, header};
use tower::ServiceExt as _;
use typepper_api::Exit;

use std::sync::atomic::Ordering;
use std::time::Duration;

use russh::ChannelId;
use russh::server::Session;

use super::MAX_COMMAND;
use super::gate::Linking;
use super::session::{Connection, answer, lock};
use crate::{MAX_BODY, SshKey};

/// The commands, for a sentence about a wrong one.
pub(crate) const USAGE: &str = "the v1 commands are: v1 submit (the body on stdin), v1 replay <id>, \
                     v1 board <mode> [YYYY-MM], v1 link <name> [<token>], v1 seed <mode>, \
                     v1 room-open <mode>, v1 room <code>";

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
}

impl Command {
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

/// Runs `command` through the HTTP routes, as the client at `peer` with `key`.
pub(crate) async fn execute(
    router: Router,
    peer: SocketAddr,
    key: Option<String>,
    command: Command,
    stdin: Vec<u8>,
) -> Outcome {
    // A request that can't be made (a path no URI can hold) is refused, never sent as
    // something else.
    let request = |method: Method, path: String, body: Vec<u8>| {
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header(header::CONTENT_TYPE, "application/octet-stream")
            .body(Body::from(body))
            .ok()?;
        req.extensions_mut().insert(ConnectInfo(peer));
        if let Some(key) = &key {
            req.extensions_mut().insert(SshKey(key.clone()));
        }
        Some(req)
    };
    let call = |req: Option<Request<Body>>| {
        let router = router.clone();
        async move {
            let Some(req) = req else {
                let why = "the command's words can't be sent as a request".as_bytes();
                return (StatusCode::BAD_REQUEST, why.to_vec());
            };
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
        let exit = if status == StatusCode::UNAUTHORIZED {
            Exit::NotLinked
        } else {
            Exit::Refused
        };
        Outcome::ended(
            exit,
            if text.is_empty() {
                format!("the server answered {status}")
            } else {
                text
            },
        )
    };
    // Answered as the route answers: its body on stdout, or its refusal.
    let answered = |(status, body): (StatusCode, Vec<u8>)| {
        if status.is_success() {
            Outcome::ok(body)
        } else {
            refused(status, &body)
        }
    };
    match command {
        // A room streams, on its own path (Connection::room), never as one request.
        Command::Room(_) => Outcome::refused("a room is joined on its own channel"),
        Command::Submit => answered(call(request(Method::POST, "/v1/submit".into(), stdin)).await),
        Command::Replay(id) => {
            if !typepper_api::is_run_id(&id) {
                return Outcome::refused(format!("{id:?} is not a run id"));
            }
            answered(call(request(Method::GET, format!("/v1/runs/{id}"), vec![])).await)
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
            answered(call(request(Method::GET, path, vec![])).await)
        }
        Command::Seed(mode) => {
            let body = serde_json::to_vec(&typepper_api::SeedRequest { mode }).unwrap_or_default();
            answered(call(request(Method::POST, "/v1/seeds".into(), body)).await)
        }
        Command::RoomOpen(mode) => {
            let body = serde_json::to_vec(&typepper_api::room::Open { mode }).unwrap_or_default();
            answered(call(request(Method::POST, "/v1/rooms".into(), body)).await)
        }
        Command::Link(name, token) => {
            if key.is_none() {
                return Outcome::refused("no key: connect with a public key to link it");
            }
            let body =
                serde_json::to_vec(&crate::players::LinkKey { name, token }).unwrap_or_default();
            let (status, body) = call(request(Method::POST, "/v1/keys".into(), body)).await;
            // 200 rather than 201: the key was linked already, and stays its player's.
            let already = (status == StatusCode::OK)
                .then(|| serde_json::from_slice::<typepper_api::Player>(&body).ok())
                .flatten();
            let mut outcome = answered((status, body));
            if let Some(player) = already {
                outcome.stderr = format!("this key is linked to {} already", player.name);
            }
            outcome
        }
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
                // Commands that never reach the routes count against the rate there.
                let outcome = self.over_rate().unwrap_or_else(|| Outcome::usage(why));
                self.answer_now(channel, outcome, session);
            }
            Ok(Command::Submit) => {
                let Some(chan) = self.channels.get(&channel).cloned() else {
                    return;
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
}
