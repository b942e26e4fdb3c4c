//! Profile pages: `/p/<name>`, server-rendered with its link-preview tags, and its card,
//! `/p/<name>/card.png` (docs/spec/players.md, "Profiles").

use std::sync::Arc;

use askama::Template;
use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use typepper_api::profile::{Profile, ProfileRun};
use typepper_engine::{Decimal, Headline, Mode, Unit};

use crate::card::Card;
use crate::{ServiceError, Shared};

type St = State<Arc<Shared>>;

/// A profile changes with every round its player stores: its page and card are kept a
/// few minutes, no longer.
const KEEP: &str = "public, max-age=300";

pub fn profiles() -> Router<Arc<Shared>> {
    Router::new()
        .route("/p/{name}", get(page))
        .route("/p/{name}/card.png", get(card))
}

/// A run as a row of the page.
struct RunLine {
    id: String,
    title: String,
    headline: String,
    accuracy: String,
    day: String,
    ranked: bool,
}

impl RunLine {
    fn of(r: &ProfileRun) -> RunLine {
        // In the game's words: `108 wpm`, `1 word`.
        let headline = Headline {
            value: r.score,
            unit: r.mode.parse().map_or(Unit::Wpm, Mode::unit),
        };
        RunLine {
            id: r.run.clone(),
            title: r.title.clone(),
            headline: headline.to_string(),
            accuracy: Decimal((r.accuracy * 100.0).round() as u32).to_string(),
            day: r.time.get(..10).unwrap_or_default().into(),
            ranked: r.ranked,
        }
    }
}

#[derive(Template)]
#[template(path = "profile.html")]
struct ProfilePage<'a> {
    title: String,
    name: String,
    description: String,
    image: String,
    image_alt: String,
    url: String,
    game: &'a str,
    /// Where the page's buttons send the player's requests: the API, if not the game's.
    api: &'a str,
    bests: Vec<RunLine>,
    recent: Vec<RunLine>,
    chart: Option<String>,
    /// The chart's last round.
    rounds: u32,
    keys: Vec<String>,
    retention_days: u32,
}

/// What a profile's description says: rounds and time, since when, and the best.
fn description(p: &Profile) -> String {
    let joined = p.joined_day();
    let best = (p.best_wpm())
        .map(|b| format!(" Best: {} wpm in {}.", b.score, b.title))
        .unwrap_or_default();
    format!(
        "{} on typepper since {joined}: {} typed, {} this month.{best}",
        p.name,
        p.all.said(),
        p.month.said(),
    )
}

/// Where `name`'s card is, this many rounds in: a new round is a new URL, so a preview
/// shows the card as it is now.
fn card_url(st: &Shared, p: &Profile) -> String {
    format!(
        "{}/p/{}/card.png?r={}",
        st.config.public_url, p.name, p.all.rounds
    )
}

/// `GET /p/<name>`: the player's profile as a page.
async fn page(st: St, Path(name): Path<String>) -> Result<Response, ServiceError> {
    let p = st.profile(&name).await?;
    let game = st.config.public_url.as_str();
    let chart = (!p.chart.is_empty()).then(|| Card::profile(&p, st.now_ms()).chart_svg(1000, 300));
    let page = ProfilePage {
        title: format!("{} · typepper", p.name),
        name: p.name.clone(),
        description: description(&p),
        image: card_url(&st, &p),
        image_alt: format!(
            "{}'s typepper profile: {} typed, and their wpm and accuracy over time",
            p.name,
            p.all.said()
        ),
        url: format!("{game}/p/{}", p.name),
        game,
        api: if st.config.api_url == st.config.public_url {
            ""
        } else {
            &st.config.api_url
        },
        bests: p.bests.iter().map(RunLine::of).collect(),
        recent: p.recent.iter().map(RunLine::of).collect(),
        chart,
        rounds: p.chart.last().map_or(0, |c| c.round),
        keys: typepper_game::keys::summary(&p.keys),
        retention_days: st.config.retention_days,
    };
    let html = page
        .render()
        .map_err(|e| ServiceError::Internal(format!("rendering the profile page: {e}")))?;
    Ok((StatusCode::OK, [(header::CACHE_CONTROL, KEEP)], Html(html)).into_response())
}

/// `GET /p/<name>/card.png`: the profile's card, drawn once for each count of rounds.
async fn card(st: St, Path(name): Path<String>) -> Result<Response, ServiceError> {
    let p = st.profile(&name).await?;
    let key = format!("p/{}/{}", typepper_api::name_key(&p.name), p.all.rounds);
    let today = st.now_ms();
    let png = st
        .draw_card(&key, move || Some(Card::profile(&p, today)))
        .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, KEEP),
        ],
        Body::from(bytes::Bytes::from_owner(png)),
    )
        .into_response())
}
