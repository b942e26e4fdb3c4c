//! The routes: the `/v1` API, and the game's own files (its page, its build, its word
//! lists and quotes, and its service worker). Each `/v1` route reads its request, calls the
//! service, and writes out what comes back.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Extension, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

use super::ClientIp;
use super::extract::{Authed, Json, MaybeAuthed, OnDevice, OurGame, Registering};
use crate::rooms::{self, MAX_MESSAGE};
use crate::{ServiceError, Shared};

type St = State<Arc<Shared>>;

/// `/v1`: players, devices, seeds, runs, boards.
pub fn api() -> Router<Arc<Shared>> {
    Router::new()
        .route("/v1/players", post(create_player))
        .route("/v1/players/me", axum::routing::delete(delete_account))
        .route("/v1/players/{name}", get(profile))
        .route("/v1/export", get(export))
        .route("/v1/keys", post(link_key))
        .route("/v1/settings", get(settings).put(save_settings))
        .route("/v1/devices", get(devices))
        .route("/v1/devices/code", post(device_code))
        .route("/v1/devices/claim", post(claim_device))
        // A key's fingerprint holds `/` and `+`: the rest of the path is the id.
        .route("/v1/devices/{*id}", axum::routing::delete(remove_device))
        .route("/v1/seeds", post(issue_seed))
        .route("/v1/runs/{id}", get(run))
        .route("/v1/daily", get(daily_today))
        .route("/v1/daily/{number}", get(daily))
        // A mode key holds a `/` where it has options (`time:30/p@fr`): the rest of the
        // path is the key, written as it is or percent-encoded (`time:30%2Fp%40fr`).
        .route("/v1/boards/{*mode}", get(board))
        .route("/v1/rooms", post(open_room))
        .route("/v1/rooms/{code}/live", get(live))
}

/// `POST /v1/submit`, apart from the rest: it reads its body against the request's
/// time itself, and once its runs are being stored it is not cut off (which would store
/// what is never answered), so it is outside the server's request timeout.
pub fn submissions() -> Router<Arc<Shared>> {
    Router::new().route("/v1/submit", post(submit))
}

/// The game (from `static_dir`), its word lists and service worker, and a trivial route
/// for load-test comparisons.
pub fn pages(static_dir: &std::path::Path) -> Router<Arc<Shared>> {
    Router::new()
        .route("/", get(index))
        .route("/words/{file}", get(words))
        .route("/quotes/{file}", get(quote_file))
        .route("/sw.js", get(service_worker))
        .route("/healthz", get(|| async { "ok\n" }))
        .nest_service(
            "/web",
            tower::ServiceBuilder::new()
                .layer(axum::middleware::from_fn(no_dotfiles))
                .layer(SetResponseHeaderLayer::if_not_present(
                    header::CACHE_CONTROL,
                    // Not content-hashed: revalidate, so a rebuilt game is picked up.
                    header::HeaderValue::from_static("no-cache"),
                ))
                .service(
                    ServeDir::new(static_dir.join("web")).append_index_html_on_directories(false),
                ),
        )
}

/// A file or folder whose name starts with a dot (`.gitignore`, `.git/`) is never served,
/// however the dot is spelled.
async fn no_dotfiles(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let hidden = req.uri().path().split('/').any(|segment| {
        let lower = segment.to_ascii_lowercase();
        lower.starts_with('.') || lower.starts_with("%2e")
    });
    if hidden {
        return ServiceError::NotFound("no such file".into()).into_response();
    }
    next.run(req).await
}

async fn index(st: St) -> Result<Response, ServiceError> {
    let path = st.config.static_dir.join("index.html");
    let html = tokio::fs::read_to_string(&path)
        .await
        .map_err(|e| ServiceError::Internal(format!("reading {}: {e}", path.display())))?;
    // The page names its API; one configured elsewhere is written in.
    let api = if st.config.api_url == st.config.public_url {
        String::new()
    } else {
        st.config.api_url.clone()
    };
    let html = html.replace(
        r#"<meta name="typepper-api" content="">"#,
        &format!(
            r#"<meta name="typepper-api" content="{}">"#,
            crate::escape_markup(&api)
        ),
    );
    Ok(([(header::CACHE_CONTROL, "no-cache")], Html(html)).into_response())
}

/// `GET /words/<code>.<checksum>.txt` ([`Language::file_name`]): a language's word list,
/// which the browser's game (none in its wasm, English's included) fetches when a round
/// first needs it. The name is the list's checksum, so the file never changes: cached
/// for good. Any other name is no file.
///
/// [`Language::file_name`]: typepper_engine::Language::file_name
async fn words(Path(file): Path<String>) -> Result<Response, ServiceError> {
    let language = typepper_engine::Language::ALL
        .into_iter()
        .find(|l| l.file_name() == file)
        .ok_or_else(|| ServiceError::NotFound(format!("no word list {file:?}")))?;
    let list = typepper_game::request::list_file(language).ok_or_else(|| {
        ServiceError::Internal(format!("the {} list isn't this build's", language.code()))
    })?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
        ],
        list,
    )
        .into_response())
}

/// `GET /quotes/<code>.<checksum>.txt` ([`quotes::file_name`]): a language's passages for
/// QUOTE rounds, one a line (`text<TAB>author<TAB>work`), which the browser's game (none
/// in its wasm) fetches when a round first needs them. Cached for good, as the word lists
/// are: the name is the checksum. Any other name is no file.
///
/// [`quotes::file_name`]: typepper_engine::quotes::file_name
async fn quote_file(Path(file): Path<String>) -> Result<Response, ServiceError> {
    use typepper_engine::quotes;
    let language = (quotes::LANGUAGES.into_iter())
        .find(|&l| quotes::file_name(l).as_deref() == Some(file.as_str()))
        .ok_or_else(|| ServiceError::NotFound(format!("no quotes {file:?}")))?;
    let corpus = quotes_file(language).ok_or_else(|| {
        ServiceError::Internal(format!(
            "the {} quotes aren't this build's",
            language.code()
        ))
    })?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
        ],
        corpus,
    )
        .into_response())
}

/// `language`'s corpus file, if it is the one whose checksum the rules were frozen with
/// (the browser installs no other).
fn quotes_file(language: typepper_engine::Language) -> Option<String> {
    use typepper_engine::quotes;
    let file = quotes::file(language)?;
    let sum = typepper_engine::words::checksum(file.as_bytes());
    (Some(sum) == quotes::checksum(language)).then_some(file)
}

/// `GET /sw.js`: the service worker that keeps the game for offline play, as the web
/// build stamped it (`web/pkg/sw.js`). Served from the root so that its scope is the
/// whole game, and revalidated on every check, so that a new build is found at the next
/// load (web/sw.js says how a build replaces the last).
async fn service_worker(st: St) -> Result<Response, ServiceError> {
    let path = st.config.static_dir.join("web/pkg/sw.js");
    let script = tokio::fs::read(&path)
        .await
        .map_err(|_| ServiceError::NotFound("no service worker: the game isn't built".into()))?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        script,
    )
        .into_response())
}

/// `POST /v1/players` `{"name": "ada"}`: links a game to a new player.
async fn create_player(
    st: St,
    _: Registering,
    headers: axum::http::HeaderMap,
    Json(req): Json<typepper_api::NewPlayer>,
) -> Result<Response, ServiceError> {
    let device = req.device.or_else(|| browser(&headers));
    let linked = st.link(req.name, device.as_deref()).await?;
    Ok((StatusCode::CREATED, axum::Json(linked)).into_response())
}

/// `POST /v1/keys`: where `v1 link` over SSH once went to link its key. A request over
/// HTTP carries no key, so it links nothing.
async fn link_key() -> ServiceError {
    ServiceError::NotFound("no key: connect with a public key to link it".into())
}

/// `GET /v1/export`: everything the server holds of the player, a tar archive of each
/// run's replay (`runs/<id>.replay`) and `index.json`, written as the runs are read.
async fn export(State(st): St, Authed(player): Authed) -> Result<Response, ServiceError> {
    let file = format!("attachment; filename=\"typepper-{}.tar\"", player.name);
    let export = st.export(player)?;
    // A page of runs at a time; a failure ends the archive short, and the transfer with
    // an error, so that no one takes it for whole.
    let pages = futures_util::stream::unfold(Some((st, export)), |state| async move {
        let (st, mut export) = state?;
        match st.export_next(&mut export).await {
            Ok(Some(bytes)) => Some((Ok(bytes), Some((st, export)))),
            Ok(None) => None,
            Err(e) => Some((Err(std::io::Error::other(e.to_string())), None)),
        }
    });
    // Fused: the compression layer (every browser asks for gzip) polls a body once more
    // after its end, and an unfold panics on that.
    let pages = futures_util::StreamExt::fuse(pages);
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-tar".to_owned()),
            (header::CONTENT_DISPOSITION, file),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        Body::from_stream(pages),
    )
        .into_response())
}

/// `DELETE /v1/players/me`: deletes the player's account.
async fn delete_account(st: St, Authed(player): Authed) -> Result<Response, ServiceError> {
    let deleted = st.delete_account(&player).await?;
    Ok(axum::Json(deleted).into_response())
}

/// `GET /v1/settings`: the player's settings file, as the last device kept it.
async fn settings(st: St, Authed(player): Authed) -> Result<Response, ServiceError> {
    let text = st.settings(&player).await?;
    Ok(plain_no_store(text))
}

/// `PUT /v1/settings`: keeps the player's settings file; answers the file kept.
async fn save_settings(
    st: St,
    Authed(player): Authed,
    body: axum::body::Bytes,
) -> Result<Response, ServiceError> {
    let kept = st.save_settings(&player, &body).await?;
    Ok(plain_no_store(kept))
}

/// A player's own text, for them alone: never cached.
fn plain_no_store(text: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        text,
    )
        .into_response()
}

/// `GET /v1/devices`: the player's devices.
async fn devices(st: St, OnDevice(player, asker): OnDevice) -> Result<Response, ServiceError> {
    let devices = st.devices(&player, &asker).await?;
    Ok(([(header::CACHE_CONTROL, "no-store")], axum::Json(devices)).into_response())
}

/// `POST /v1/devices/code`: a one-time code that makes another device this player.
async fn device_code(st: St, OnDevice(player, asker): OnDevice) -> Result<Response, ServiceError> {
    let code = st.device_code(&player, &asker).await?;
    Ok((
        StatusCode::CREATED,
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(code),
    )
        .into_response())
}

/// `POST /v1/devices/claim` `{"code": "K3FQ7M2X", "device": "Firefox on Linux"}`: this
/// device becomes the code's player, with a token of its own.
async fn claim_device(
    st: St,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: axum::http::HeaderMap,
    Json(claim): Json<typepper_api::devices::Claim>,
) -> Result<Response, ServiceError> {
    let device = claim.device.or_else(|| browser(&headers));
    let player = st
        .claim_token(&claim.code, device.as_deref(), Some(ip))
        .await?;
    Ok((StatusCode::CREATED, axum::Json(player)).into_response())
}

/// What a device that gives no name of its own is called: its browser, by its
/// `User-Agent` (`Firefox on Linux`).
fn browser(headers: &axum::http::HeaderMap) -> Option<String> {
    let agent = headers.get(header::USER_AGENT)?.to_str().ok()?;
    typepper_api::devices::named_by(agent)
}

/// `DELETE /v1/devices/<id>`: takes one of the player's devices away, at once.
async fn remove_device(
    st: St,
    OnDevice(player, _): OnDevice,
    Path(id): Path<String>,
) -> Result<Response, ServiceError> {
    st.remove_device(&player, &id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `POST /v1/seeds` `{"mode": "time:15"}`: a seed to play a ranked round of that mode on.
async fn issue_seed(
    st: St,
    Authed(player): Authed,
    Json(req): Json<typepper_api::SeedRequest>,
) -> Result<Response, ServiceError> {
    let issued = st.issue_seed(player.id, &req.mode).await?;
    Ok((StatusCode::CREATED, axum::Json(issued)).into_response())
}

/// `POST /v1/submit`: judge every replay of the body, store the good ones, answer a line
/// each. The body is read here, within the request's time and the body limit.
async fn submit(st: St, Authed(player): Authed, body: Body) -> Result<Response, ServiceError> {
    let started = Instant::now();
    let budget = Duration::from_secs(st.config.request_timeout_secs);
    let body = match tokio::time::timeout(budget, axum::body::to_bytes(body, crate::MAX_BODY)).await
    {
        Err(_) => return Err(ServiceError::Timeout),
        Ok(Ok(body)) => body,
        Ok(Err(e)) => {
            let too_big = std::error::Error::source(&e)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
            return Err(if too_big {
                ServiceError::TooLarge(crate::MAX_BODY)
            } else {
                ServiceError::BadRequest(format!("the body could not be read: {e}"))
            });
        }
    };
    let answer = st.submit(player.id, body, started).await?;
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        answer,
    )
        .into_response())
}

/// `GET /v1/daily`: today's daily and its board, and where the asker stands on it.
async fn daily_today(st: St, MaybeAuthed(player): MaybeAuthed) -> Result<Response, ServiceError> {
    daily_answer(&st, None, player).await
}

/// `GET /v1/daily/<n>`: daily `n` (today's or a past one), as `GET /v1/daily` says it.
async fn daily(
    st: St,
    Path(number): Path<String>,
    MaybeAuthed(player): MaybeAuthed,
) -> Result<Response, ServiceError> {
    let number = number.parse().map_err(|_| {
        ServiceError::NotFound("a daily is known by its number: /v1/daily/312".into())
    })?;
    daily_answer(&st, Some(number), player).await
}

async fn daily_answer(
    st: &Shared,
    number: Option<u32>,
    player: Option<crate::store::Player>,
) -> Result<Response, ServiceError> {
    let daily = st.daily(number, player.map(|p| p.id)).await?;
    // A player's own place is theirs: kept by no cache.
    let keep = match daily.yours {
        Some(_) => "private, no-store",
        None => "public, max-age=10",
    };
    Ok(([(header::CACHE_CONTROL, keep)], axum::Json(daily)).into_response())
}

/// `GET /v1/runs/<id>`: the replay's bytes (not while it is a round of today's daily).
async fn run(st: St, Path(id): Path<String>) -> Result<Response, ServiceError> {
    let run = st.watchable(&id).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/octet-stream"),
            // A run never changes; it may expire, which a day's cache can outlive.
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        // Names are letters, digits, `_` and `-`, and a guest's ` (guest)`: always a
        // valid header value.
        [(typepper_api::PLAYER_HEADER, run.by())],
        run.played.replay.clone(),
    )
        .into_response())
}

#[derive(Deserialize)]
struct BoardQuery {
    period: Option<String>,
    month: Option<String>,
}

/// `GET /v1/boards/<mode>[?period=day|week|month|all][&month=YYYY-MM]`: the period's best
/// run per player, top 100 (this month's when neither is given).
/// The mode is the rest of the path, its `/` and `@` as they are or percent-encoded:
/// `/v1/boards/time:30/p@fr` and `/v1/boards/time%3A30%2Fp%40fr` are one board.
async fn board(
    st: St,
    Path(mode): Path<String>,
    Query(q): Query<BoardQuery>,
) -> Result<Response, ServiceError> {
    let board = st.board(&mode, q.period.as_deref(), q.month).await?;
    Ok((
        [(header::CACHE_CONTROL, "public, max-age=10")],
        axum::Json(board),
    )
        .into_response())
}

/// `GET /v1/players/<name>`: the player's profile. It changes with each round they
/// store: kept a short while, as a board is.
async fn profile(st: St, Path(name): Path<String>) -> Result<Response, ServiceError> {
    let profile = st.profile(&name).await?;
    Ok((
        [(header::CACHE_CONTROL, "public, max-age=10")],
        axum::Json(&*profile),
    )
        .into_response())
}

/// `POST /v1/rooms` `{"mode": "time:15"}`: opens a live room for a mode.
async fn open_room(
    st: St,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    _: OurGame,
    Json(open): Json<typepper_api::room::Open>,
) -> Result<Response, ServiceError> {
    let opened = st.open_room(&open, ip).await?;
    Ok((StatusCode::CREATED, axum::Json(opened)).into_response())
}

/// `GET /v1/rooms/<code>/live`: the room's WebSocket.
async fn live(
    State(st): St,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    _: OurGame,
    Path(code): Path<String>,
    ws: WebSocketUpgrade,
) -> Result<Response, ServiceError> {
    let (target, admitted) = st.join_room(&code, ip).await?;
    Ok(ws
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            rooms::websocket(st, target, ip, socket).await;
            drop(admitted);
        }))
}
