//! The `v1` commands, as the SSH server runs them for a client's exec request and for a
//! game it plays over SSH: each becomes the HTTP request it stands for and goes
//! through the same router, so the body limit, rate limits, timeouts, checks and answers
//! are the HTTP API's own.

use std::net::SocketAddr;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode, header};
use tower::ServiceExt as _;
use typepper_api::Exit;

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
        // A room streams, on its own path (Conn::room), never as one request.
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
