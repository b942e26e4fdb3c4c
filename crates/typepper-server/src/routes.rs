//! The handlers: the `/v1` API, share pages, and the game's own files.

use std::sync::Arc;
use std::time::{Duration, Instant};

use askama::Template;
use axum::Router;
use axum::body::Body;
use axum::extract::{Extension, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use typepper_engine::{Decimal, Headline, Mode, Unit};

use crate::extract::{Authed, Json, Keyed, Registering, register_limit};
use crate::{ApiError, ClientIp, Config, Shared};
use crate::{players, seeds, submit};

type St = State<Arc<Shared>>;

/// `/v1`: players, seeds, runs, boards.
pub fn api() -> Router<Arc<Shared>> {
    Router::new()
        .route("/v1/players", post(create_player))
        .route("/v1/keys", post(link_key))
        .route("/v1/seeds", post(issue_seed))
        .route("/v1/runs/{id}", get(run))
        .route("/v1/boards/{mode}", get(board))
        .route("/v1/rooms", post(crate::rooms::open))
        .route("/v1/rooms/{code}/live", get(crate::rooms::live))
}

/// `POST /v1/submit`, apart from the rest: it reads its body against the request's
/// time itself, and once its runs are being stored it is not cut off (which would store
/// what is never answered), so it is outside the server's request timeout.
pub fn submissions() -> Router<Arc<Shared>> {
    Router::new().route("/v1/submit", post(submit))
}

/// The game (from `static_dir`), share pages, and a trivial route for load-test
/// comparisons.
pub fn pages(static_dir: &std::path::Path) -> Router<Arc<Shared>> {
    Router::new()
        .route("/", get(index))
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

/// Share pages: `/r/<id>`, and `/<id>` on the share host. Each one is a database read
/// for an id the path names, so they are limited per IP like `/v1`.
pub fn shares() -> Router<Arc<Shared>> {
    Router::new()
        .route("/r/{id}", get(share))
        .route("/r/{id}/card.png", get(card))
        .route("/{id}", get(share_host))
}

/// A file or folder whose name starts with a dot (`.gitignore`, `.git/`) is never served,
/// however the dot is spelled.
async fn no_dotfiles(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let hidden = req.uri().path().split('/').any(|segment| {
        let lower = segment.to_ascii_lowercase();
        lower.starts_with('.') || lower.starts_with("%2e")
    });
    if hidden {
        return ApiError::NotFound("no such file".into()).into_response();
    }
    next.run(req).await
}

async fn index(st: St) -> Result<Response, ApiError> {
    let path = st.config.static_dir.join("index.html");
    let html = tokio::fs::read_to_string(&path)
        .await
        .map_err(|e| ApiError::Internal(format!("reading {}: {e}", path.display())))?;
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

/// `POST /v1/players` `{"name": "ada"}`: links a game to a new player.
async fn create_player(
    st: St,
    _: Registering,
    Json(req): Json<typepper_api::NewPlayer>,
) -> Result<Response, ApiError> {
    let linked = players::create(&*st.store, req.name, st.now_ms()).await?;
    Ok((StatusCode::CREATED, axum::Json(linked)).into_response())
}

/// `POST /v1/keys` `{"name": "ada", "token": null}`, for `v1 link` over SSH: links the
/// request's SSH key to a new player (under the limits of `POST /v1/players`) or to the
/// player a web token names. 201 with the player when it is linked now; 200 with the
/// player's name and no token when the key was linked already.
async fn link_key(
    st: St,
    ip: Option<Extension<ClientIp>>,
    Keyed(key): Keyed,
    Json(ask): Json<players::LinkKey>,
) -> Result<Response, ApiError> {
    let now = st.now_ms();
    let create = async |name| {
        register_limit(&st, ip.as_deref())?;
        players::create(&*st.store, name, now).await
    };
    let linked = players::link_key(&*st.store, key, ask, now, st.config.max_keys, create).await?;
    Ok(match linked {
        players::Linked::Now(player) => (StatusCode::CREATED, axum::Json(player)).into_response(),
        players::Linked::Already(name) => {
            let player = typepper_api::Player {
                name,
                token: String::new(),
            };
            (StatusCode::OK, axum::Json(player)).into_response()
        }
    })
}

/// `POST /v1/seeds` `{"mode": "time:15"}`: a seed to play a ranked round of that mode on.
async fn issue_seed(
    st: St,
    Authed(player): Authed,
    Json(req): Json<typepper_api::SeedRequest>,
) -> Result<Response, ApiError> {
    let mode: Mode = req
        .mode
        .parse()
        .map_err(|e: typepper_engine::ModeError| ApiError::BadRequest(e.to_string()))?;
    let issued = seeds::issue(&*st.store, player.id, mode, st.now_ms()).await?;
    let answer = typepper_api::IssuedSeed {
        mode: issued.mode,
        seed: issued.seed,
        expires: typepper_api::Utc::of(issued.expires_ms).rfc3339(),
    };
    Ok((StatusCode::CREATED, axum::Json(answer)).into_response())
}

/// `POST /v1/submit`: judge every replay of the body, store the good ones, answer a line
/// each.
async fn submit(st: St, Authed(player): Authed, body: Body) -> Result<Response, ApiError> {
    let started = Instant::now();
    let budget = Duration::from_secs(st.config.request_timeout_secs);
    let body = match tokio::time::timeout(budget, axum::body::to_bytes(body, crate::MAX_BODY)).await
    {
        Err(_) => return Err(ApiError::Timeout),
        Ok(Ok(body)) => body,
        Ok(Err(e)) => {
            let too_big = std::error::Error::source(&e)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
            return Err(if too_big {
                ApiError::TooLarge(crate::MAX_BODY)
            } else {
                ApiError::BadRequest(format!("the body could not be read: {e}"))
            });
        }
    };
    if body.is_empty() {
        return Err(ApiError::BadRequest(
            "an empty submission: send each replay after its claimed score".into(),
        ));
    }
    // Counting the entries is cheap (nothing is played): a body over the limit, or more
    // runs than the player's rate allows, costs no verification.
    let entries = submit::split(&body).map_err(|submit::TooMany| {
        ApiError::BadRequest(format!(
            "a submission carries at most {} rounds: send the rest in another",
            submit::MAX_ENTRIES
        ))
    })?;
    st.player_limit
        .take_n(&player.id, entries.len() as u32, Instant::now())
        .map_err(ApiError::RateLimited)?;
    drop(entries);
    let judged = st
        .verify(move || judge_body(&body))
        .await
        .map_err(ApiError::Internal)?;
    let share = {
        let config = st.config.clone();
        Arc::new(move |id: &str| config.share_link(id))
    };
    let sub = st.submission(player.id);
    // Not started within the request's time, it is not done at all: nothing is stored
    // that is not answered. Once started it finishes (in milliseconds) and is answered.
    let deadline = started + budget;
    let done = match st
        .store_judged(submit::job(sub.clone(), judged, deadline))
        .await?
    {
        Ok(done) => done,
        Err(quota) => return Err(ApiError::Quota(quota, secs_to_tomorrow(sub.now_ms))),
    };
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        submit::answer(done, &*share),
    )
        .into_response())
}

/// Reads and judges every entry of a body (it was counted before).
fn judge_body(body: &[u8]) -> Vec<submit::Judged> {
    match submit::split(body) {
        Ok(entries) => entries
            .iter()
            .map(|entry| entry.as_ref().map_err(Clone::clone).and_then(submit::judge))
            .collect(),
        Err(submit::TooMany) => vec![Err(submit::Refusal::TooMany)],
    }
}

/// Seconds from `now_ms` to the next midnight, UTC.
fn secs_to_tomorrow(now_ms: i64) -> u64 {
    let day_ms = 86_400_000;
    u64::try_from(day_ms - now_ms.rem_euclid(day_ms)).map_or(1, |ms| ms.div_ceil(1000))
}

/// The run with `id`, from memory when it was read lately (or found missing lately).
async fn cached_run(st: &Shared, id: &str) -> Result<Option<Arc<crate::store::Run>>, ApiError> {
    match st.runs.get(id, Instant::now()) {
        crate::cache::Lookup::Found(run) => return Ok(Some(run)),
        crate::cache::Lookup::Missing => return Ok(None),
        crate::cache::Lookup::Unknown => {}
    }
    let reading = Instant::now();
    let found = st.store.run(id.to_owned()).await;
    st.metrics.db.observe(reading.elapsed());
    match found? {
        Some(run) => Ok(Some(st.runs.put(run, Instant::now()))),
        None => {
            st.runs.missing(id, Instant::now());
            Ok(None)
        }
    }
}

/// `GET /v1/runs/<id>`: the replay's bytes.
async fn run(st: St, Path(id): Path<String>) -> Result<Response, ApiError> {
    if !typepper_api::is_run_id(&id) {
        // Not said back: a path can hold anything, control characters too.
        return Err(ApiError::NotFound(
            "no such run: a run id is 8 letters and digits".into(),
        ));
    }
    let gone = || ApiError::NotFound(format!("no run {id}: it never was, or it expired"));
    let run = cached_run(&st, &id).await?.ok_or_else(gone)?;
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
struct MonthQuery {
    month: Option<String>,
}

/// `GET /v1/boards/<mode>[?month=YYYY-MM]`: the month's best run per player, top 100.
async fn board(
    st: St,
    Path(mode): Path<String>,
    Query(q): Query<MonthQuery>,
) -> Result<Response, ApiError> {
    let parsed: Mode = mode
        .parse()
        .map_err(|e: typepper_engine::ModeError| ApiError::NotFound(format!("no board: {e}")))?;
    if !parsed.rankable() {
        return Err(ApiError::NotFound(format!(
            "no board for {parsed}: {}",
            crate::submit::rank::Unranked::Drill
        )));
    }
    let month = match q.month {
        Some(m) if is_month(&m) => m,
        Some(m) => {
            return Err(ApiError::BadRequest(format!(
                "{m:?} is not a month: write YYYY-MM"
            )));
        }
        None => crate::month_of(st.now_ms()),
    };
    let rows = st.store.board(parsed.key(), month.clone(), 100).await?;
    let board = typepper_api::Board {
        mode: parsed.key(),
        title: parsed.title(),
        unit: parsed.unit().into(),
        month,
        rows: rows
            .into_iter()
            .map(|r| typepper_api::BoardRow {
                rank: r.rank,
                name: r.name,
                score: r.score,
                wpm: f64::from(r.wpm_x100) / 100.0,
                accuracy: f64::from(r.accuracy_x100) / 100.0,
                run: r.run,
                time: typepper_api::Utc::of(r.created_ms).rfc3339(),
            })
            .collect(),
    };
    Ok((
        [(header::CACHE_CONTROL, "public, max-age=10")],
        axum::Json(board),
    )
        .into_response())
}

fn is_month(m: &str) -> bool {
    let b = m.as_bytes();
    b.len() == 7
        && b[4] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || c.is_ascii_digit())
        && matches!(
            &m[5..],
            "01" | "02" | "03" | "04" | "05" | "06" | "07" | "08" | "09" | "10" | "11" | "12"
        )
}

#[derive(Template)]
#[template(path = "share.html")]
struct SharePage<'a> {
    title: String,
    heading: String,
    description: String,
    /// The run's card, or the site's image for a run that is gone: 1200×630 PNGs both.
    image: String,
    /// What the image shows, in words.
    image_alt: String,
    share: String,
    game: &'a str,
    /// The game watching the round, and racing it.
    play: Option<(String, String)>,
}

/// Where run `id`'s card is: on the game's own host, which serves `/r/` whatever the
/// share host is. The card is cached for good, so a card drawn otherwise
/// ([`crate::card::VERSION`]) is asked for at another URL.
fn card_url(st: &Shared, id: &str) -> String {
    let version = crate::card::VERSION;
    format!("{}/r/{id}/card.png?v={version}", st.config.public_url)
}

/// `?v=<drawing version>` on a card's URL.
#[derive(serde::Deserialize)]
struct Drawing {
    v: Option<String>,
}

/// `GET /r/<id>/card.png`: the run's card (`card.rs`), drawn the first time it is asked
/// for and kept. A run never changes, so neither does its card: it is cached for good,
/// and known again by its `ETag`.
async fn card(
    st: St,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(drawing): Query<Drawing>,
) -> Result<Response, ApiError> {
    if !typepper_api::is_run_id(&id) {
        return Err(ApiError::NotFound(
            "no such run: a run id is 8 letters and digits".into(),
        ));
    }
    // Only this drawing's URL is cached for good: a shared cache must never keep today's
    // card under the URL of a drawing to come. The bare URL follows the drawing, so it is
    // kept a day.
    let version = crate::card::VERSION;
    let keep = match drawing.v {
        Some(v) if v == version.to_string() => "public, max-age=31536000, immutable",
        None => "public, max-age=86400",
        Some(v) => {
            let why = format!(
                "no card of drawing version {v:?}: this server draws cards of version {version}"
            );
            let mut refused = ApiError::NotFound(why).into_response();
            refused
                .headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            return Ok(refused);
        }
    };
    let gone = || ApiError::NotFound(format!("no run {id}: it never was, or it expired"));
    let run = cached_run(&st, &id).await?.ok_or_else(gone)?;
    let etag = format!("\"{id}-{version}\"");
    let cached = [
        (header::CACHE_CONTROL, keep.to_owned()),
        (header::ETAG, etag.clone()),
    ];
    let known = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|tag| tag.trim().trim_start_matches("W/"))
        .any(|tag| tag == etag || tag == "*");
    if known {
        return Ok((StatusCode::NOT_MODIFIED, cached).into_response());
    }
    let (replay, by, at) = (run.played.replay.clone(), run.by(), run.played.created_ms);
    let png = st
        .cards
        .get_or_draw(&id, move || crate::card::Card::of(&replay, by, at))
        .await
        .map_err(|e| match e {
            crate::card::CardError::Busy => {
                ApiError::Unavailable("too many cards are being drawn: try again".into(), 1)
            }
            crate::card::CardError::Broken(why) => ApiError::Internal(why),
        })?;
    Ok((
        [(header::CONTENT_TYPE, "image/png")],
        cached,
        Body::from(bytes::Bytes::from_owner(png)),
    )
        .into_response())
}

/// `GET /r/<id>`: the page a share link opens: link-preview tags for the crawlers (the
/// run's own card their image), and for people a refresh to the game watching the round,
/// where `g` races it; links to both for a browser that doesn't refresh.
async fn share(st: St, Path(id): Path<String>) -> Result<Response, ApiError> {
    share_page(&st, id).await
}

/// `GET /<id>` on the share host (`--share-url https://r.typepper.com`).
async fn share_host(
    st: St,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    // Only a run id is said back: a path can hold anything, control characters too.
    if !typepper_api::is_run_id(&id) {
        return Err(ApiError::NotFound("nothing here".into()));
    }
    let share_host = Config::host_of(&st.config.share_url);
    let public_host = Config::host_of(&st.config.public_url);
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let on_share_host = share_host != public_host && host.eq_ignore_ascii_case(share_host);
    if !on_share_host {
        return Err(ApiError::NotFound(format!("nothing at /{id}")));
    }
    share_page(&st, id).await
}

async fn share_page(st: &Shared, id: String) -> Result<Response, ApiError> {
    let game = st.config.public_url.as_str();
    let found = if typepper_api::is_run_id(&id) {
        cached_run(st, &id).await?
    } else {
        None
    };
    // A path that is no run id is not said back: it can hold anything, control
    // characters too, and the page would carry them into its tags. Its page is the game's
    // (`…/r` alone is no page at all).
    let share = if typepper_api::is_run_id(&id) {
        st.config.share_link(&id)
    } else {
        format!("{game}/")
    };
    let (status, page) = match found {
        Some(run) => {
            let mode: Option<Mode> = run.played.mode.parse().ok();
            let title_mode = mode.map_or_else(|| run.played.mode.clone(), Mode::title);
            let player = run.by();
            // What the game says of the round, in its words: `1 word`, `98.5%`.
            let headline = Headline {
                value: run.played.score,
                unit: mode.map_or(Unit::Wpm, Mode::unit),
            };
            let accuracy = Decimal(run.played.accuracy_x100);
            let standing = if run.hidden {
                " It was removed from the boards."
            } else if run.played.pending.is_some() {
                " It waits for its player to confirm it before it goes on the boards."
            } else {
                ""
            };
            let description = format!(
                "{player} typed {headline} in {title_mode} at {accuracy}% accuracy on typepper.{standing} Watch the round key by key, or race it.",
            );
            (
                StatusCode::OK,
                SharePage {
                    title: format!("{headline} · {title_mode} · typepper"),
                    heading: format!("{headline} · {title_mode}"),
                    description,
                    image: card_url(st, &id),
                    image_alt: format!(
                        "{headline} in {title_mode} by {player} at {accuracy}% accuracy, with \
                         the round's speed each second"
                    ),
                    share,
                    game,
                    play: Some((format!("{game}/?replay={id}"), format!("{game}/?race={id}"))),
                },
            )
        }
        None => (
            StatusCode::NOT_FOUND,
            SharePage {
                title: "This replay is gone · typepper".into(),
                heading: "This replay is gone".into(),
                description: format!(
                    "Runs are kept for {} days, or longer while they are a player's best of the month. This one is no longer here.",
                    st.config.retention_days
                ),
                image: format!("{game}/web/og.png"),
                image_alt: "typepper, a typing game whose every round is a replay".into(),
                share,
                game,
                play: None,
            },
        ),
    };
    let html = page
        .render()
        .map_err(|e| ApiError::Internal(format!("rendering the share page: {e}")))?;
    Ok((status, Html(html)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_and_days_read_as_the_api_writes_them() {
        assert!(is_month("2026-12") && !is_month("2026-13") && !is_month("26-12"));
        assert_eq!(secs_to_tomorrow(1_796_154_720_000), 4 * 3600 + 8 * 60);
        assert_eq!(secs_to_tomorrow(86_400_000), 86_400);
    }
}
