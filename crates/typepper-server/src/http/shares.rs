//! Share pages: `/r/<id>` (and `/<id>` on the share host) with each run's link-preview
//! tags, and each run's card, `/r/<id>/card.png`.

use std::sync::Arc;

use askama::Template;
use axum::Router;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use typepper_engine::{Decimal, Headline, Mode, Rules, Unit};

use crate::{Config, ServiceError, Shared};

type St = State<Arc<Shared>>;

/// Share pages: `/r/<id>`, and `/<id>` on the share host. Each one is a database read
/// for an id the path names, so they are limited per IP like `/v1`.
pub fn shares() -> Router<Arc<Shared>> {
    Router::new()
        .route("/r/{id}", get(share))
        .route("/r/{id}/card.png", get(card))
        .route("/{id}", get(share_host))
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
    /// Whose a quote is, or how a custom text starts.
    source: Option<String>,
    /// The rules an old round was played by, and what it would score under today's.
    rules: Option<String>,
}

/// A run recorded by older rules than the newest: which, and what it would score under
/// the newest beside what it has (which never changes). `None` for the newest rules'.
fn under_today(replay: &[u8]) -> Option<String> {
    // The header says whose rules without decoding the inputs, which most runs never need.
    let header = typepper_engine::Header::peek(replay).ok()?;
    if header.engine == Rules::NEWEST.version() {
        return None;
    }
    let replay = typepper_engine::Replay::decode(replay).ok()?;
    let rules = replay.rules().ok()?;
    let (_, has) = replay.play().ok()?;
    let (_, now) = replay.play_under(Rules::NEWEST).ok()?;
    Some(format!(
        "Played by {rules}'s rules, which it keeps: {}, peak heat {}. Under today's rules \
         ({}) it would score {}, peak heat {}.",
        has.headline(),
        has.peak_heat,
        Rules::NEWEST,
        now.headline(),
        now.peak_heat
    ))
}

/// The most characters of a custom text a share page shows.
const PAGE_EXCERPT: usize = 160;

/// A format 2 replay's text, read off its bytes without its inputs (a share page needs
/// only the text, and a replay can be a megabyte of keys); `None` for format 1.
fn text_of(replay: &[u8]) -> Option<&str> {
    let header = typepper_engine::Header::peek(replay).ok()?;
    if header.format != typepper_engine::replay::FORMAT_2 {
        return None;
    }
    // The text's length in bytes, as an LEB128 varint; a stored replay is canonical.
    let mut len = 0usize;
    let mut at = header.len;
    for shift in (0..35).step_by(7) {
        let byte = *replay.get(at)?;
        at += 1;
        len |= usize::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return std::str::from_utf8(replay.get(at..at.checked_add(len)?)?).ok();
        }
    }
    None
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
/// and known again by its `ETag`. A daily's round says its place on the day's board,
/// which changes until the day and its last tries are over: until then its card is
/// cached for minutes, and its `ETag` names the place.
async fn card(
    st: St,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(drawing): Query<Drawing>,
) -> Result<Response, ServiceError> {
    if !typepper_api::is_run_id(&id) {
        return Err(crate::service::not_a_run_id());
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
            let mut refused = ServiceError::NotFound(why).into_response();
            refused
                .headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            return Ok(refused);
        }
    };
    let run = st.run(&id).await?;
    let standing = st.standing(&run).await?;
    let (keep, etag) = match &standing {
        Some(s) if !s.settled => (
            "public, max-age=300",
            format!("\"{id}-{version}-{}\"", s.tag),
        ),
        Some(s) => (keep, format!("\"{id}-{version}-{}\"", s.tag)),
        None => (keep, format!("\"{id}-{version}\"")),
    };
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
    let png = match &standing {
        Some(standing) => st.daily_card(&run, standing).await?,
        None => st.card(&id, &run).await?,
    };
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
async fn share(st: St, Path(id): Path<String>) -> Result<Response, ServiceError> {
    share_page(&st, id).await
}

/// `GET /<id>` on the share host (`--share-url https://r.typepper.com`).
async fn share_host(
    st: St,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ServiceError> {
    // Only a run id is said back: a path can hold anything, control characters too.
    if !typepper_api::is_run_id(&id) {
        return Err(ServiceError::NotFound("nothing here".into()));
    }
    let share_host = Config::host_of(&st.config.share_url);
    let public_host = Config::host_of(&st.config.public_url);
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let on_share_host = share_host != public_host && host.eq_ignore_ascii_case(share_host);
    if !on_share_host {
        return Err(ServiceError::NotFound(format!("nothing at /{id}")));
    }
    share_page(&st, id).await
}

async fn share_page(st: &Shared, id: String) -> Result<Response, ServiceError> {
    let game = st.config.public_url.as_str();
    let found = if typepper_api::is_run_id(&id) {
        st.find_run(&id).await?
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
            let source = mode
                .and_then(|m| crate::card::source(m, text_of(&run.played.replay), PAGE_EXCERPT));
            let typed = match (&source, mode.map(Mode::base)) {
                (Some(source), Some(typepper_engine::Base::Custom)) => {
                    format!(" The text: {source}.")
                }
                (Some(source), _) => format!(" The passage: {}.", source.trim_start_matches("— ")),
                (None, _) => String::new(),
            };
            let description = format!(
                "{player} typed {headline} in {title_mode} at {accuracy}% accuracy on typepper.{typed}{standing} Watch the round key by key, or race it.",
            );
            // A daily's round says the daily and its place on the day's board first.
            let heading = match st.standing(&run).await? {
                Some(daily) => daily.line,
                None => format!("{headline} · {title_mode}"),
            };
            (
                StatusCode::OK,
                SharePage {
                    title: format!("{heading} · typepper"),
                    heading,
                    description,
                    image: card_url(st, &id),
                    image_alt: format!(
                        "{headline} in {title_mode} by {player} at {accuracy}% accuracy, with \
                         the round's speed each second"
                    ),
                    share,
                    game,
                    play: Some((format!("{game}/?replay={id}"), format!("{game}/?race={id}"))),
                    source,
                    rules: under_today(&run.played.replay),
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
                source: None,
                rules: None,
            },
        ),
    };
    let html = page
        .render()
        .map_err(|e| ServiceError::Internal(format!("rendering the share page: {e}")))?;
    Ok((status, Html(html)).into_response())
}
