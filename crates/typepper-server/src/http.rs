//! The HTTP door: the `/v1` API, share pages and the game's own files, as an axum
//! `Router` over the [`Shared`] service ([`app`]), and the operator's metrics
//! ([`metrics_app`]). A route reads its request ([`extract`]), calls the service, and
//! writes out its answer or its refusal ([`error`]); the routes are in [`routes`] and the
//! share pages in [`shares`]. Every request is logged and counted here, once.

mod error;
mod extract;
mod profiles;
mod routes;
mod shares;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::{HeaderName, HeaderValue, Method, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

pub use self::error::ErrorDetail;
use crate::{Config, MAX_BODY, Shared};

/// The operator's own port: `GET /metrics` in Prometheus' text format.
pub fn metrics_app(state: Arc<Shared>) -> Router {
    Router::new().route(
        "/metrics",
        axum::routing::get(async move || {
            (
                [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
                state.metrics_text(),
            )
        }),
    )
}

/// The whole HTTP surface.
pub fn app(state: Arc<Shared>) -> Router {
    let config = &state.config;
    let game_origin = Config::origin_of(&config.public_url);
    let cors = CorsLayer::new()
        .allow_origin(AllowOrigin::list(HeaderValue::from_str(&game_origin)))
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
        // A 429's wait, and whose run a replay is, are for the game to read.
        .expose_headers([
            header::RETRY_AFTER,
            HeaderName::from_static(typepper_api::PLAYER_HEADER),
        ])
        .max_age(Duration::from_secs(86_400));
    let api_origin = Config::origin_of(&config.api_url);
    let csp = format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
         img-src 'self' data:; connect-src 'self' {api_origin}; base-uri 'none'; \
         frame-ancestors 'none'; form-action 'none'"
    );
    let timeout = TimeoutLayer::with_status_code(
        axum::http::StatusCode::REQUEST_TIMEOUT,
        Duration::from_secs(state.config.request_timeout_secs),
    );
    let api = routes::api()
        .layer(timeout)
        .merge(routes::submissions())
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(state.clone(), ip_limit))
        .layer(cors);
    let shares = shares::shares()
        .merge(profiles::profiles())
        .layer(timeout)
        .layer(middleware::from_fn_with_state(state.clone(), ip_limit));
    let mut router = routes::pages(&config.static_dir)
        .layer(timeout)
        .merge(shares)
        .merge(api)
        .with_state(state.clone())
        .layer(CompressionLayer::new())
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        ));
    if config.public_url.starts_with("https://") {
        // Served over TLS (by the proxy in front): browsers should never try plain HTTP.
        router = router.layer(SetResponseHeaderLayer::if_not_present(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        ));
    }
    router
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_str(&csp).unwrap_or(HeaderValue::from_static("default-src 'self'")),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(middleware::from_fn_with_state(state, log))
}

/// The client's address, as the IP limit found it, for handlers with limits of their own.
#[derive(Clone, Copy, Debug)]
pub struct ClientIp(pub IpAddr);

/// The client's address: the connection's, or behind proxies the operator runs, the one
/// they give (see [`crate::client`]). Without a connection (tests through `oneshot`) it is
/// 0.0.0.0.
fn client_ip(state: &Shared, req: &Request) -> IpAddr {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
    let forwarded = req
        .headers()
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok());
    state.config.proxies.client(peer, forwarded)
}

async fn ip_limit(State(state): State<Arc<Shared>>, mut req: Request, next: Next) -> Response {
    let ip = client_ip(&state, &req);
    req.extensions_mut().insert(ClientIp(ip));
    match state.take_request(ip) {
        Ok(()) => next.run(req).await,
        Err(refused) => refused.into_response(),
    }
}

/// One line a request: method, path, status, time; and an internal error's detail.
async fn log(State(state): State<Arc<Shared>>, req: Request, next: Next) -> Response {
    // The matched route's pattern is shared (an Arc), so keeping it costs no copy.
    let route = req
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .cloned();
    let logged = (!state.config.quiet).then(|| (req.method().clone(), req.uri().path().to_owned()));
    let start = Instant::now();
    let response = next.run(req).await;
    let detail = response
        .extensions()
        .get::<ErrorDetail>()
        .map(|d| d.0.as_str());
    served(
        &state,
        route.as_ref().map_or("unmatched", |r| r.as_str()),
        logged
            .as_ref()
            .map(|(method, path)| (method, path.as_str())),
        response.status().as_u16(),
        start.elapsed(),
        detail,
    );
    response
}

/// Counts a request to `route` answered `status`, and logs it in one line (method, path,
/// status, time; an internal error's detail) unless the server is quiet. `v1` over SSH
/// counts and logs its commands here too, as the requests they stand for.
pub(crate) fn served(
    state: &Shared,
    route: &str,
    request: Option<(&Method, &str)>,
    status: u16,
    took: Duration,
    detail: Option<&str>,
) {
    state.metrics.request(route, status);
    if let Some((method, path)) = request.filter(|_| !state.config.quiet) {
        let detail = detail.unwrap_or_default();
        let ms = (took.as_secs_f64() * 1000.0 * 10.0).round() / 10.0;
        tracing::info!(target: "typepper::request", %method, path, status, ms, detail);
    }
}
