//! The server, as the game reaches it: runs, submissions, linking, boards, seeds, rooms
//! and word lists, each a [`Request`] carried over HTTP and answered for the app.

use typepper_api::room::{Open, Opened};
use typepper_api::{Board, BoardRow, IssuedSeed, Period, Player};
use typepper_game::request::{Answer, Failure, Need, Request};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue, UnwrapThrowExt};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Headers, RequestInit, Response};

use crate::json::{self, FromJs};

// The browser's `fetch`, called as gloo-net called it (the global, no window looked up),
// and the few steps of gloo-net's request and response the game takes, each as gloo-net
// took it: gloo-net (and the `http` crate it brings) were 2.1 KB gzip of the wasm more
// (docs/PERFORMANCE.md, issue 41).
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = fetch)]
    fn fetch_with_request(request: &web_sys::Request) -> js_sys::Promise;
}

/// A request being made: its method and URL, its headers, its body.
struct Http {
    init: RequestInit,
    headers: Headers,
    url: String,
}

impl Http {
    fn new(method: &str, url: &str) -> Http {
        let init = RequestInit::new();
        init.set_method(method);
        Http {
            init,
            headers: Headers::new().unwrap_throw(),
            url: url.to_owned(),
        }
    }

    fn get(url: &str) -> Http {
        Http::new("GET", url)
    }

    fn post(url: &str) -> Http {
        Http::new("POST", url)
    }

    fn header(self, name: &str, value: &str) -> Http {
        self.headers.set(name, value).unwrap_throw();
        self
    }

    /// The request with `body`, or the browser's sentence for why it can't be made.
    fn body(self, body: &JsValue) -> Result<web_sys::Request, String> {
        self.init.set_body(body);
        self.build()
    }

    /// The request, or the browser's sentence for why it can't be made.
    fn build(self) -> Result<web_sys::Request, String> {
        self.init.set_headers(&self.headers);
        web_sys::Request::new_with_str_and_init(&self.url, &self.init).map_err(js_error)
    }
}

/// Sends `request`: the answer, or why none came.
async fn send(request: web_sys::Request) -> Result<Response, Failure> {
    let response = JsFuture::from(fetch_with_request(&request))
        .await
        .map_err(unreachable)?;
    Ok(response.unchecked_into())
}

/// A promise of `response`'s body, awaited: its value, or why it broke off.
async fn body(promise: Result<js_sys::Promise, JsValue>) -> Result<JsValue, Failure> {
    JsFuture::from(promise.map_err(unreachable)?)
        .await
        .map_err(unreachable)
}

/// A JavaScript error as its `toString()` says it ("TypeError: Failed to fetch"); `fetch`
/// and the `Request` constructor throw errors only.
fn js_error(e: JsValue) -> String {
    String::from(e.unchecked_into::<js_sys::Error>().to_string())
}

fn url(api: &str, path: &str) -> String {
    format!("{}{path}", api.trim_end_matches('/'))
}

/// Carries out `request` on the server at `api` ("" for this origin).
pub async fn ask(api: &str, request: Request) -> Answer {
    match request {
        Request::Submit { token, body, keys } => Answer::Submitted {
            answer: submit(api, &token, &body).await,
            keys,
        },
        Request::Link(name) => Answer::Linked(link(api, &name).await),
        Request::Board(mode, period) => Answer::Board {
            rows: board(api, &mode, period).await,
            mode,
            period,
        },
        Request::Run(id) => Answer::Run {
            bytes: fetch_run(api, &id).await.map(|run| run.bytes),
            id,
        },
        Request::Seed { token, mode } => Answer::Seed {
            answer: issue_seed(api, &token, &mode).await,
            mode,
        },
        Request::OpenRoom(open) => Answer::RoomOpened(open_room(api, &open).await),
        Request::Claim(code) => Answer::Linked(claim(api, &code).await),
        Request::DeviceCode(token) => {
            let answer = post_json(api, "/v1/devices/code", Some(&token), String::new()).await;
            Answer::DeviceCode(answer.and_then(|a| json(&a, "a code")))
        }
        Request::Devices(token) => {
            let request = Http::get(&url(api, "/v1/devices"))
                .header("Authorization", &format!("Bearer {token}"))
                .build()
                .map_err(Failure::Unreachable);
            let answer = text(request, 200).await;
            Answer::Devices(answer.and_then(|a| json(&a, "a list of devices")))
        }
        Request::RemoveDevice { token, id } => {
            let path = format!("/v1/devices/{}", js_sys::encode_uri_component(&id));
            let request = Http::new("DELETE", &url(api, &path))
                .header("Authorization", &format!("Bearer {token}"))
                .build()
                .map_err(Failure::Unreachable);
            let done = text(request, 204).await.map(drop);
            Answer::DeviceRemoved { id, done }
        }
        Request::Profile(name) => {
            let path = format!("/v1/players/{}", js_sys::encode_uri_component(&name));
            let answer = text(get(&url(api, &path)), 200).await;
            Answer::Profile {
                profile: answer.and_then(|a| json(&a, "a profile")),
                name,
            }
        }
        Request::Daily { token, number } => {
            let path = match number {
                Some(n) => format!("/v1/daily/{n}"),
                None => "/v1/daily".into(),
            };
            let mut request = Http::get(&url(api, &path));
            if let Some(token) = token {
                request = request.header("Authorization", &format!("Bearer {token}"));
            }
            let request = request.build().map_err(Failure::Unreachable);
            let answer = text(request, 200).await;
            Answer::Daily {
                number,
                daily: answer.and_then(|a| json(&a, "a daily")),
            }
        }
        Request::Settings(token) => {
            let request = Http::get(&url(api, "/v1/settings"))
                .header("Authorization", &format!("Bearer {token}"))
                .build()
                .map_err(Failure::Unreachable);
            Answer::Settings(text(request, 200).await)
        }
        Request::SaveSettings { token, text: file } => {
            let request = Http::new("PUT", &url(api, "/v1/settings"))
                .header("Authorization", &format!("Bearer {token}"))
                .header("Content-Type", "text/plain; charset=utf-8")
                .body(&file.into())
                .map_err(Failure::Refused);
            Answer::SettingsSaved(text(request, 200).await.map(drop))
        }
        Request::File(need) => Answer::File {
            file: file(need).await,
            need,
        },
    }
}

/// A word list or a language's quotes, `GET /words/<file name>` or `/quotes/<file name>`
/// from the game's own origin: they are the game's files, not the API's, and the service
/// worker keeps them. The name is the file's checksum, so a cached copy is never stale;
/// the game checks it all the same.
pub async fn file(need: Need) -> Result<String, Failure> {
    text(get(&need.path()), 200).await
}

/// A `GET` of `url`, or why it couldn't be made (as its sending would say).
fn get(url: &str) -> Result<web_sys::Request, Failure> {
    Http::get(url).build().map_err(Failure::Unreachable)
}

/// Sends `request` and reads the answer's text when its status is `ok`; any other
/// status gives the server's sentence. Every request but a run's comes through here:
/// one copy of the sending and reading in the wasm, not one in each caller's future
/// and one for each type read from JSON (docs/PERFORMANCE.md, issue 41).
async fn text(request: Result<web_sys::Request, Failure>, ok: u16) -> Result<String, Failure> {
    let response = send(request?).await?;
    if response.status() != ok {
        return Err(refusal(response).await);
    }
    read_text(&response).await
}

/// `response`'s body as text, or why it broke off.
async fn read_text(response: &Response) -> Result<String, Failure> {
    let text = body(response.text()).await?;
    Ok(String::from(text.unchecked_into::<js_sys::JsString>()))
}

/// The browser couldn't send it, or the answer broke off.
fn unreachable(e: JsValue) -> Failure {
    Failure::Unreachable(js_error(e))
}

/// A refusal: the server's sentence, or the status; a 401 says the token is no player's.
async fn refusal(response: Response) -> Failure {
    let status = response.status();
    let why = match read_text(&response).await {
        Ok(text) if !text.trim().is_empty() => text.trim().to_owned(),
        _ => format!("the server answered {status}"),
    };
    match status {
        401 => Failure::NotLinked(why),
        _ => Failure::Refused(why),
    }
}

/// A run from the server.
pub struct Run {
    /// Its replay bytes.
    pub bytes: Vec<u8>,
    /// Its player's name, if the server says.
    pub player: Option<String>,
}

/// A run's replay bytes, `GET <api>/v1/runs/<id>`, or why not.
pub async fn fetch_run(api: &str, id: &str) -> Result<Run, Failure> {
    // Anything else would name a different URL.
    if !typepper_api::is_run_id(id) {
        return Err(Failure::NotARunId(id.to_owned()));
    }
    let response = send(get(&url(api, &format!("/v1/runs/{id}")))?).await?;
    match response.status() {
        200 => {
            let player = response
                .headers()
                .get(typepper_api::PLAYER_HEADER)
                .unwrap_throw();
            let buffer = body(response.array_buffer()).await?;
            let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
            Ok(Run { bytes, player })
        }
        404 | 410 => Err(Failure::NoSuchRun),
        _ => Err(refusal(response).await),
    }
}

/// `POST <api>/v1/submit`: the answer lines, or why there are none.
async fn submit(api: &str, token: &str, body: &[u8]) -> Result<String, Failure> {
    let request = Http::post(&url(api, "/v1/submit"))
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/octet-stream")
        .body(&js_sys::Uint8Array::from(body))
        .map_err(Failure::Refused);
    text(request, 200).await
}

/// `what`, read from the server's JSON `text` (by the browser's own `JSON.parse`).
fn json<T: FromJs>(text: &str, what: &'static str) -> Result<T, Failure> {
    json::read(text).ok_or(Failure::Unreadable { what, why: None })
}

/// POSTs `body`, a JSON object's text, to `path` (as `token`'s player, if any): the
/// answer's text when its status is 201; any other status gives the server's sentence.
async fn post_json(
    api: &str,
    path: &str,
    token: Option<&str>,
    body: String,
) -> Result<String, Failure> {
    let mut request = Http::post(&url(api, path)).header("Content-Type", "application/json");
    if let Some(token) = token {
        request = request.header("Authorization", &format!("Bearer {token}"));
    }
    let request = request.body(&body.into()).map_err(Failure::Refused);
    text(request, 201).await
}

/// `POST <api>/v1/seeds` for `mode`: a seed to play a ranked round on, or why not.
async fn issue_seed(api: &str, token: &str, mode: &str) -> Result<IssuedSeed, Failure> {
    let body = json::object(&[("mode", Some(mode))]);
    let answer = post_json(api, "/v1/seeds", Some(token), body).await?;
    json(&answer, "a seed")
}

/// `POST <api>/v1/rooms` for a mode (and a custom room's text): the room opened, or the
/// server's sentence.
async fn open_room(api: &str, open: &Open) -> Result<Opened, Failure> {
    let body = json::object(&[("mode", Some(&open.mode)), ("text", open.text.as_deref())]);
    let answer = post_json(api, "/v1/rooms", None, body).await?;
    json(&answer, "a room")
}

/// `POST <api>/v1/players`: the new player, with this browser its first device (the
/// server names it by the browser's `User-Agent`), or the server's sentence.
async fn link(api: &str, name: &str) -> Result<Player, Failure> {
    let body = json::object(&[("name", Some(name))]);
    let answer = post_json(api, "/v1/players", None, body).await?;
    json(&answer, "a player")
}

/// `POST <api>/v1/devices/claim`: this browser is now the code's player, or the server's
/// sentence.
async fn claim(api: &str, code: &str) -> Result<Player, Failure> {
    let body = json::object(&[("code", Some(code))]);
    let answer = post_json(api, "/v1/devices/claim", None, body).await?;
    json(&answer, "a player")
}

/// `GET <api>/v1/boards/<mode>`: this month's rows.
async fn board(api: &str, mode: &str, period: Period) -> Result<Vec<BoardRow>, Failure> {
    let mode = String::from(js_sys::encode_uri_component(mode));
    let path = format!("/v1/boards/{mode}?period={}", period.name());
    let answer = text(get(&url(api, &path)), 200).await?;
    let board: Board = json(&answer, "a board")?;
    Ok(board.rows)
}
