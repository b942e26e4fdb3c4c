//! A server without a socket: the real router over a real database (a SQLite file in a
//! temp dir, or a fresh PostgreSQL database), a clock the test sets, and small helpers to
//! send requests and read answers.

use std::net::SocketAddr;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use http_body_util::BodyExt;
use tower::ServiceExt;
use typepper_api::Line;
use typepper_engine::synth::{Typist, synth};
use typepper_engine::{Mode, Replay};
use typepper_server::{Config, Shared, app};

use crate::support::pg::FreshDb;

/// The game's public URL in every test.
pub const PUBLIC: &str = "http://typepper.test";

/// 2026-12-10T12:00:00Z: mid-month, so that a week either way stays in December.
pub const DEC_10: i64 = 1_796_904_000_000;

/// One day in milliseconds.
pub const DAY: i64 = 86_400_000;

/// The page `GET /` serves; its meta tag is the one the server fills in.
pub const INDEX: &str = "<!doctype html>\n<html><head><meta charset=\"utf-8\">\
<meta name=\"typepper-api\" content=\"\"><title>typepper</title></head>\
<body><canvas id=\"game\"></canvas><p>typepper, a typing game whose every round is a \
replay. This paragraph is here so that the page is long enough to be worth compressing, \
and compressing it again, and again.</p></body></html>\n";

/// A tiny but valid WebAssembly module (the magic and version, no sections).
pub const WASM: &[u8] = b"\0asm\x01\0\0\0";

/// A server for one test.
pub struct Server {
    pub state: Arc<Shared>,
    router: Router,
    clock: Arc<AtomicI64>,
    /// Holds the database and the static files until the test ends.
    dir: tempfile::TempDir,
    /// The PostgreSQL database, when the store is on one; dropped after the state.
    pg: Option<FreshDb>,
}

impl Drop for Server {
    fn drop(&mut self) {
        // A failing test names its backend.
        if std::thread::panicking() {
            eprintln!("(on {})", self.backend());
        }
    }
}

impl Server {
    /// A server with the default settings, but logging and rate limits off: the
    /// tests send many requests quickly from one (absent) address. `limits` tests those.
    pub async fn new() -> Server {
        Server::with(|_| {}).await
    }

    /// A server with [`Server::new`]'s settings as `tweak` changes them, on SQLite.
    pub async fn with(tweak: impl FnOnce(&mut Config)) -> Server {
        Server::on(None, tweak).await
    }

    /// A server on each backend this run has: SQLite always, and PostgreSQL when
    /// `TYPEPPER_TEST_POSTGRES_URL` names a server (`cargo xtask test` starts one).
    pub async fn each(tweak: impl Fn(&mut Config)) -> Vec<Server> {
        let mut out = vec![Server::on(None, &tweak).await];
        if let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") {
            out.push(Server::on(Some(FreshDb::create(&url)), &tweak).await);
        }
        out
    }

    /// Another server instance on this one's PostgreSQL database, with a store of its
    /// own (its own connections and writers, as a second process has); `None` on SQLite.
    pub async fn twin(&self) -> Option<Server> {
        let url = self.pg.as_ref()?.url.clone();
        Some(Server::open(Some(url), None, |_| {}).await)
    }

    /// A server on PostgreSQL's `pg`, or SQLite in the temp dir.
    async fn on(pg: Option<FreshDb>, tweak: impl FnOnce(&mut Config)) -> Server {
        let url = pg.as_ref().map(|db| db.url.clone());
        Server::open(url, pg, tweak).await
    }

    /// A server on the PostgreSQL database at `url` (dropped with it if `pg`), or SQLite
    /// in the temp dir.
    async fn open(
        url: Option<String>,
        pg: Option<FreshDb>,
        tweak: impl FnOnce(&mut Config),
    ) -> Server {
        let dir = tempfile::tempdir().expect("a temp dir");
        let static_dir = dir.path().join("static");
        std::fs::create_dir_all(static_dir.join("web/pkg")).expect("web/pkg");
        std::fs::write(static_dir.join("index.html"), INDEX).expect("index.html");
        std::fs::write(static_dir.join("web/pkg/typepper_web_bg.wasm"), WASM).expect("wasm");
        std::fs::write(static_dir.join("web/og.png"), b"\x89PNG\r\n\x1a\n").expect("og.png");
        let options =
            typepper_server::store::Options::new(url.as_deref(), &dir.path().join("data"));
        let store = typepper_server::store::open(&options).await.expect("store");
        let mut config = Config::new(PUBLIC, static_dir);
        config.quiet = true;
        config.ip_rate = 0;
        config.player_rate = 0;
        config.register_per_hour = 0;
        // Off like the limits, so that a test of something else can type at any speed; the
        // tests of pending runs turn it on.
        config.watch = typepper_server::submit::rank::Watch {
            first_wpm: 0,
            over_best_percent: 0,
            confirm_percent: 25,
        };
        tweak(&mut config);
        let clock = Arc::new(AtomicI64::new(DEC_10));
        let read = clock.clone();
        let state = Arc::new(Shared::with_clock(
            store,
            config,
            Arc::new(move || read.load(Ordering::SeqCst)),
        ));
        Server {
            router: app(state.clone()),
            state,
            clock,
            dir,
            pg,
        }
    }

    /// Which database the store is on.
    pub fn backend(&self) -> &'static str {
        if self.pg.is_some() {
            "PostgreSQL"
        } else {
            "SQLite"
        }
    }

    /// Sets the server's clock to unix `ms`.
    pub fn set_time(&self, ms: i64) {
        self.clock.store(ms, Ordering::SeqCst);
    }

    /// The SQLite file the store writes.
    pub fn db_path(&self) -> PathBuf {
        self.dir.path().join("data/typepper.sqlite3")
    }

    /// The one number `sql` selects, read beside the server's own connections.
    pub fn count(&self, sql: &str) -> i64 {
        match &self.pg {
            Some(db) => db.count(sql),
            None => {
                let db = rusqlite::Connection::open(self.db_path()).expect("open the database");
                db.query_row(sql, [], |r| r.get(0)).expect("a count")
            }
        }
    }

    /// How many runs the database holds.
    pub fn stored_runs(&self) -> i64 {
        self.count("SELECT count(*) FROM runs")
    }

    /// A retention sweep now, as the server's background task runs it.
    pub async fn sweep(&self) -> typepper_server::store::Swept {
        let swept = typepper_server::sweep::sweep_once(&self.state).await;
        assert_eq!(swept.failed, 0, "a sweep failed: {swept:?}");
        swept
    }

    /// Moves the server's clock `ms` on.
    pub fn later(&self, ms: i64) {
        self.clock.fetch_add(ms, Ordering::SeqCst);
    }

    /// `POST /v1/seeds` for `mode` as the player with `token`.
    pub async fn post_seed(&self, token: &str, mode: &str) -> Reply {
        self.send(
            request(Method::POST, "/v1/seeds")
                .header(header::AUTHORIZATION, format!("Bearer {token}"))
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(serde_json::json!({ "mode": mode }).to_string()))
                .expect("a request"),
        )
        .await
    }

    /// A seed issued to the player with `token` for `mode`.
    pub async fn issue(&self, token: &str, mode: Mode) -> u64 {
        let reply = self.post_seed(token, &mode.key()).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text());
        let seed: typepper_api::IssuedSeed =
            serde_json::from_slice(&reply.body).expect("an issued seed");
        assert_eq!(seed.mode, mode.key());
        seed.seed
    }

    /// A round `typist` plays on a seed the server issues to `token` now; the clock then
    /// moves on by the round's length, as it would while it is played.
    pub async fn ranked(&self, token: &str, mode: Mode, typist: &Typist) -> Replay {
        let seed = self.issue(token, mode).await;
        let round = synth(mode, seed, typist);
        let (_, score) = round.play().expect("a synthetic round plays");
        self.later(i64::from(score.duration_ms) + 1_000);
        round
    }

    /// A round on a seed the server issues to `token` now, scoring a speed in `wpm`; the
    /// clock moves on as in [`Server::ranked`]. A typist's speed depends on the text, and
    /// the issued text is random, so typists are tried until one lands in range: a test
    /// of thresholds must not pass or fail with the words it happened to get.
    pub async fn ranked_at(&self, token: &str, mode: Mode, wpm: RangeInclusive<u32>) -> Replay {
        let seed = self.issue(token, mode).await;
        let (round, ms) = (0..4)
            .flat_map(|n| (20..=320).map(move |aim| typist(n * 1_000 + u64::from(aim), aim)))
            .find_map(|typist| {
                let round = synth(mode, seed, &typist);
                let (_, score) = round.play().expect("a synthetic round plays");
                wpm.contains(&score.wpm())
                    .then_some((round, score.duration_ms))
            })
            .unwrap_or_else(|| panic!("no typist scores {wpm:?} on seed {seed}"));
        self.later(i64::from(ms) + 1_000);
        round
    }

    /// Sends one request through the whole router.
    pub async fn send(&self, req: Request<Body>) -> Reply {
        let response = self
            .router
            .clone()
            .oneshot(req)
            .await
            .expect("the router is infallible");
        let status = response.status();
        let headers = response.headers().clone();
        let body = response
            .into_body()
            .collect()
            .await
            .expect("a body")
            .to_bytes()
            .to_vec();
        Reply {
            status,
            headers,
            body,
        }
    }

    /// `GET path`.
    pub async fn get(&self, path: &str) -> Reply {
        self.send(
            request(Method::GET, path)
                .body(Body::empty())
                .expect("a request"),
        )
        .await
    }

    /// `POST /v1/players` with this exact body.
    pub async fn post_player(&self, body: &str) -> Reply {
        self.send(
            request(Method::POST, "/v1/players")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_owned()))
                .expect("a request"),
        )
        .await
    }

    /// Links a player named `name`; returns its token.
    pub async fn link(&self, name: &str) -> String {
        let body = serde_json::json!({ "name": name }).to_string();
        let reply = self.post_player(&body).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text());
        let json = reply.json();
        assert_eq!(json["name"], name);
        json["token"].as_str().expect("a token").to_owned()
    }

    /// `POST /v1/submit` as the player with `token`.
    pub async fn submit(&self, token: &str, body: Vec<u8>) -> Reply {
        self.send(
            request(Method::POST, "/v1/submit")
                .header(header::AUTHORIZATION, format!("Bearer {token}"))
                .header(header::CONTENT_TYPE, "application/octet-stream")
                .body(Body::from(body))
                .expect("a request"),
        )
        .await
    }

    /// Submits `body`, expecting an answer of lines (200).
    pub async fn submit_lines(&self, token: &str, body: Vec<u8>) -> Vec<Line> {
        let reply = self.submit(token, body).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
        reply.lines()
    }

    /// Submits one true round and expects it stored: proof the server still serves.
    pub async fn still_serves(&self, token: &str, seed: u64) -> String {
        let round = blitz(seed);
        let before = self.stored_runs();
        let lines = self.submit_lines(token, entry(&round)).await;
        let [Line::Ok { id, .. }] = &lines[..] else {
            panic!("a good round after a bad one: {lines:?}");
        };
        assert_eq!(
            self.get(&format!("/v1/runs/{id}")).await.body,
            round.encode()
        );
        assert_eq!(self.stored_runs(), before + 1);
        id.clone()
    }
}

/// A request builder with the main host, as a browser would send it.
pub fn request(method: Method, path: &str) -> axum::http::request::Builder {
    Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, "typepper.test")
}

/// Marks a request as coming from `ip` over a connection, as `serve` does.
pub fn from_ip(mut req: Request<Body>, ip: [u8; 4]) -> Request<Body> {
    req.extensions_mut()
        .insert(ConnectInfo(SocketAddr::from((ip, 40_000))));
    req
}

/// An answer, read whole.
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// The body as submit answer lines.
    pub fn lines(&self) -> Vec<Line> {
        self.text()
            .lines()
            .map(|l| l.parse().unwrap_or_else(|e| panic!("{e}")))
            .collect()
    }

    /// A header's value as text.
    pub fn header(&self, name: impl header::AsHeaderName) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// A synthetic BLITZ 15s round.
pub fn blitz(seed: u64) -> Replay {
    synth(Mode::BLITZ_15, seed, &Typist::default())
}

/// A synthetic BLITZ 15s round typed at about `wpm`.
pub fn blitz_at(seed: u64, wpm: u32) -> Replay {
    synth(Mode::BLITZ_15, seed, &typist(seed, wpm))
}

/// A typist at about `wpm`, with a seed of its own.
pub fn typist(seed: u64, wpm: u32) -> Typist {
    Typist {
        wpm,
        seed,
        ..Typist::default()
    }
}

/// What the engine scores a replay: the true claim.
pub fn claim(replay: &Replay) -> u32 {
    replay
        .play()
        .expect("a synthetic round plays")
        .1
        .headline()
        .value
}

/// A submission of one round with its true claim.
pub fn entry(replay: &Replay) -> Vec<u8> {
    typepper_api::submission([(claim(replay), &replay.encode()[..])])
}

/// A submission of rounds with their true claims.
pub fn entries(replays: &[Replay]) -> Vec<u8> {
    let encoded: Vec<(u32, Vec<u8>)> = replays.iter().map(|r| (claim(r), r.encode())).collect();
    typepper_api::submission(encoded.iter().map(|(c, b)| (*c, &b[..])))
}

/// The `content` of a page's `<meta {attr}="{key}" ...>`, entities decoded.
pub fn meta(page: &str, attr: &str, key: &str) -> Option<String> {
    let start = page.find(&format!(r#"<meta {attr}="{key}" content=""#))?;
    let rest = &page[start..];
    let value = rest.split_once(r#"content=""#)?.1.split_once('"')?.0;
    Some(unescape(value))
}

/// The text of a page's `<title>`, entities decoded.
pub fn title(page: &str) -> Option<String> {
    let inner = page.split_once("<title>")?.1.split_once("</title>")?.0;
    Some(unescape(inner))
}

/// Decodes the HTML entities an escaper writes.
pub fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let Some(end) = after.find(';') else {
            out.push_str(&rest[at..]);
            return out;
        };
        let name = &after[..end];
        let decoded = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => name
                .strip_prefix("#x")
                .or_else(|| name.strip_prefix("#X"))
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &after[end + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The tags the share page's template writes. Any other `<` came from a dynamic string
/// that was not escaped.
const TEMPLATE_TAGS: &[&str] = &[
    "!doctype", "html", "head", "meta", "title", "link", "body", "main", "h1", "p", "a",
];

/// Panics if `page` has a `<` that doesn't open or close one of the template's tags.
pub fn assert_only_template_tags(page: &str) {
    for (at, _) in page.match_indices('<') {
        let tag = page[at + 1..].trim_start_matches('/');
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '!')
            .collect();
        assert!(
            TEMPLATE_TAGS.contains(&name.to_ascii_lowercase().as_str()),
            "an unescaped < at {at}: {:?}\n{page}",
            &page[at..page.len().min(at + 40)]
        );
    }
}
