//! Live rooms over real WebSockets: racers race each other key by key through a room the
//! server opened, and what an attacker tries against a room is refused, each attempt a
//! test named after it.
//!
//! Rounds are ZEN rounds of a few seconds, typed by the engine's synthetic typist and
//! sent as a person's game would send them: each key once its time has come.

// Every value here is the test's own: a failed unwrap is a failed step, with its line.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;
use typepper_api::room::{Ask, COUNTDOWN_MS, GUEST_QUOTA, Kept, Key, Phase, Say};
use typepper_engine::synth::{Typist, synth};
use typepper_engine::{Mode, Replay};
use typepper_server::submit::rank::Unranked;

/// Stored and unranked, for `why`: the server's own sentence for it.
fn unranked(why: Unranked) -> Kept {
    Kept::Unranked {
        why: why.to_string(),
    }
}

use crate::support::pg;
use crate::support::running;
use running::{Running, start, start_on};

/// Where a server is: one in this process, or a server binary's process.
trait At {
    fn at(&self) -> std::net::SocketAddr;
}

impl At for Running {
    fn at(&self) -> std::net::SocketAddr {
        self.addr
    }
}

impl At for std::net::SocketAddr {
    fn at(&self) -> std::net::SocketAddr {
        *self
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// `POST /v1/rooms` for `mode`: the status and the body.
async fn open(srv: &impl At, mode: &str) -> (u16, String) {
    request(
        srv,
        "POST",
        "/v1/rooms",
        &format!("{{\"mode\":\"{mode}\"}}"),
    )
    .await
}

/// A linked player named `name`: their token.
async fn link(srv: &impl At, name: &str) -> String {
    let (status, body) = request(
        srv,
        "POST",
        "/v1/players",
        &format!("{{\"name\":\"{name}\"}}"),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let player: serde_json::Value = serde_json::from_str(&body).unwrap();
    player["token"].as_str().unwrap().to_owned()
}

/// One HTTP/1.1 request with a JSON body (or none): the status and the body.
async fn request(srv: &impl At, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut tcp = tokio::net::TcpStream::connect(srv.at()).await.unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut answer = vec![];
    tcp.read_to_end(&mut answer).await.unwrap();
    // A replay's body isn't text: only the status line and JSON bodies are read as such.
    let answer = String::from_utf8_lossy(&answer);
    let status = answer[9..12].parse().unwrap();
    let body = answer
        .split("\r\n\r\n")
        .nth(1)
        .unwrap_or_default()
        .to_owned();
    (status, body)
}

/// A new room's code.
async fn room(srv: &impl At, mode: &str) -> String {
    let (status, body) = open(srv, mode).await;
    assert_eq!(status, 201, "{body}");
    let opened: typepper_api::room::Opened = serde_json::from_str(&body).unwrap();
    // The game's own address (the test servers' is http://typepper.test).
    let link = format!("/?room={}", opened.code);
    assert!(opened.link.ends_with(&link), "{}", opened.link);
    opened.code
}

async fn connect(srv: &impl At, code: &str) -> Socket {
    let url = format!("ws://{}/v1/rooms/{code}/live", srv.at());
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

async fn send(ws: &mut Socket, ask: &Ask) {
    let text = serde_json::to_string(ask).unwrap();
    ws.send(Message::Text(text.into())).await.unwrap();
}

/// The next message, within 10 s.
async fn next(ws: &mut Socket) -> Say {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .unwrap()
            .unwrap();
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).unwrap();
        }
    }
}

/// Messages until one `pick` takes, which it returns.
async fn until<T>(ws: &mut Socket, pick: impl Fn(&Say) -> Option<T>) -> T {
    loop {
        if let Some(found) = pick(&next(ws).await) {
            return found;
        }
    }
}

/// Joins as `name`: the socket, the racer number and the secret to come back with.
async fn join(srv: &impl At, code: &str, name: &str) -> (Socket, Option<u32>, String) {
    let hello = Ask::Hello {
        name: Some(name.into()),
        token: None,
        resume: None,
    };
    hello_as(srv, code, hello).await
}

/// Joins with `hello`. The welcome says the link that joins the room (whichever server
/// holds it), for a racer who came by its code alone.
async fn hello_as(srv: &impl At, code: &str, hello: Ask) -> (Socket, Option<u32>, String) {
    let mut ws = connect(srv, code).await;
    send(&mut ws, &hello).await;
    let (you, resume, link) = until(&mut ws, |s| match s {
        Say::Welcome {
            you, resume, link, ..
        } => Some((*you, resume.clone().unwrap_or_default(), link.clone())),
        _ => None,
    })
    .await;
    let link = link.unwrap();
    assert!(link.ends_with(&format!("/?room={code}")), "{link}");
    (ws, you, resume)
}

/// A synthetic ZEN round of about `secs` seconds on `seed`: its keys.
fn zen(seed: u64, wpm: u32, secs: u32) -> (Replay, Vec<Key>) {
    let typist = Typist {
        wpm,
        accuracy: 97,
        seed: u64::from(wpm),
        zen_ms: secs * 1000,
    };
    let replay = synth(Mode::ZEN, seed, &typist);
    let keys = replay
        .timeline()
        .filter_map(|(t, op)| Some((t?, op.code())));
    (replay.clone(), keys.collect())
}

/// A synthetic BLITZ 15s round on `seed` at `wpm`: its replay and keys.
fn blitz(seed: u64, wpm: u32) -> (Replay, Vec<Key>) {
    let typist = Typist {
        wpm,
        seed: u64::from(wpm),
        ..Typist::default()
    };
    let replay = synth(Mode::BLITZ_15, seed, &typist);
    let keys = replay
        .timeline()
        .filter_map(|(t, op)| Some((t?, op.code())));
    (replay.clone(), keys.collect())
}

/// Sends `keys` as they come due after `go`, a frame's worth (16 ms) at a time.
async fn type_keys(ws: &mut Socket, keys: &[Key], go: Instant) {
    let mut sent = 0;
    while sent < keys.len() {
        let now = go.elapsed().as_millis() as u32;
        let due = crate::support::due(&keys[sent..], now);
        if due > 0 {
            send(ws, &Ask::Keys(keys[sent..sent + due].to_vec())).await;
            sent += due;
        }
        tokio::time::sleep(Duration::from_millis(16)).await;
    }
}

/// Waits for the countdown and the text: the seed, and the instant the round began.
async fn go(ws: &mut Socket) -> (u64, Instant) {
    let ms = until(ws, |s| match s {
        Say::Countdown(ms) => Some(*ms),
        _ => None,
    })
    .await;
    assert_eq!(ms, COUNTDOWN_MS);
    let seed = until(ws, |s| match s {
        Say::Go(seed) => Some(*seed),
        _ => None,
    })
    .await;
    (seed, Instant::now())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_racers_race_key_by_key_and_the_results_are_the_engines() {
    // Storing is the database's: SQLite always, and PostgreSQL where this run has one.
    let srv = start(|_| {}).await;
    race(&srv, &srv).await;
    if let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") {
        let db = pg::FreshDb::create(&url);
        let srv = start_on(Some(&db.url), |_| {}).await;
        race(&srv, &srv).await;
    }
}

/// A linked racer's round counts as one on a seed the server issued to them: the room's
/// seed was drawn by the server and told to no one before the go (docs/TRUST.md). On
/// both backends: ranked, and on the board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_linked_racers_round_on_the_rooms_seed_is_ranked() {
    let srv = start(|_| {}).await;
    let db =
        typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL").map(|url| pg::FreshDb::create(&url));
    let pg = match &db {
        Some(db) => Some(start_on(Some(&db.url), |_| {}).await),
        None => None,
    };
    let ranked = async |srv: &Running| {
        let code = room(srv, "time:15").await;
        let hello = Ask::Hello {
            name: None,
            token: Some(link(srv, "ada").await),
            resume: None,
        };
        let (mut ada, Some(_), _) = hello_as(srv, &code, hello).await else {
            panic!("ada watches")
        };
        send(&mut ada, &Ask::Start).await;
        let (seed, go_at) = go(&mut ada).await;
        let (replay, keys) = blitz(seed, 70);
        type_keys(&mut ada, &keys, go_at).await;
        let rows = until(&mut ada, |s| match s {
            Say::Results(rows) => Some(rows.clone()),
            _ => None,
        })
        .await;
        assert_eq!(rows[0].kept, Kept::Ranked);
        let run = rows[0].run.clone().unwrap();
        let (status, board) = request(srv, "GET", "/v1/boards/time:15", "").await;
        assert_eq!(status, 200, "{board}");
        let board: typepper_api::Board = serde_json::from_str(&board).unwrap();
        assert_eq!(board.rows[0].run, run);
        // The board's score is the room's round: the keys that reached it before its
        // clock ran out (on a busy machine the last may not have), so the typist's whole
        // round or a few keys short of it.
        assert_eq!(rows[0].headline, board.rows[0].score);
        let (_, score) = replay.play().unwrap();
        let whole = score.headline().value;
        assert!(
            (whole.saturating_sub(3)..=whole).contains(&board.rows[0].score),
            "{} against {whole}",
            board.rows[0].score
        );
    };
    match &pg {
        Some(pg) => tokio::join!(ranked(&srv), ranked(pg)).0,
        None => ranked(&srv).await,
    }
}

/// The fault (issue 39): rooms stored their rounds through a copy of the submit pipeline
/// that judged them on an async worker and never counted them. A room's round is counted
/// in `typepper_rounds_total` and timed in `typepper_verify_seconds`, as a submission is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_races_rounds_are_counted_and_verified_as_submissions_are() {
    let srv = start(|_| {}).await;
    let code = room(&srv, "time:15").await;
    let hello = Ask::Hello {
        name: None,
        token: Some(link(&srv, "ada").await),
        resume: None,
    };
    let (mut ada, Some(_), _) = hello_as(&srv, &code, hello).await else {
        panic!("ada watches")
    };
    let (mut bob, Some(_), _) = join(&srv, &code, "bob").await else {
        panic!("bob watches")
    };
    send(&mut ada, &Ask::Start).await;
    let (seed, go_at) = go(&mut ada).await;
    go(&mut bob).await;
    let (_, keys) = blitz(seed, 70);
    let (_, slower) = blitz(seed, 55);
    tokio::join!(
        type_keys(&mut ada, &keys, go_at),
        type_keys(&mut bob, &slower, go_at)
    );
    let rows = results(&mut ada).await;
    let kept: Vec<_> = rows.iter().map(|r| &r.kept).collect();
    assert_eq!(kept.len(), 2, "{kept:?}");
    let metrics = srv.state.metrics_text();
    let count = |line: &str| {
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(line)?.trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    // Ada's linked round ranks; Bob's, a guest's, is kept unranked.
    assert_eq!(
        count("typepper_rounds_total{outcome=\"ranked\"}"),
        1,
        "{metrics}"
    );
    assert_eq!(
        count("typepper_rounds_total{outcome=\"unranked\"}"),
        1,
        "{metrics}"
    );
    assert_eq!(count("typepper_verify_seconds_count"), 2, "{metrics}");
}

/// Guests' rounds are stored, so a flood of guests is a flood of runs: an address has so
/// many stored an hour, and past that a guest's round is in the results, not stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_rounds_past_their_addresss_hourly_allowance_are_not_stored() {
    let srv = start(|c| c.guest_runs_per_hour = 1).await;
    let code = room(&srv, "zen").await;
    let (mut ada, Some(_), _) = join(&srv, &code, "ada").await else {
        panic!("ada watches")
    };
    let (mut grace, Some(_), _) = join(&srv, &code, "grace").await else {
        panic!("grace watches")
    };
    send(&mut ada, &Ask::Start).await;
    let ((seed, go_a), (_, go_g)) = tokio::join!(go(&mut ada), go(&mut grace));
    let (_, ada_keys) = zen(seed, 90, 5);
    let (_, grace_keys) = zen(seed, 60, 5);
    tokio::join!(
        type_keys(&mut ada, &ada_keys, go_a),
        type_keys(&mut grace, &grace_keys, go_g)
    );
    let rows = until(&mut ada, |s| match s {
        Say::Results(rows) => Some(rows.clone()),
        _ => None,
    })
    .await;
    // Rounds are stored as they finish: the first to finish had the hour's one.
    let stored = rows
        .iter()
        .find(|r| r.run.is_some())
        .expect("one is stored");
    assert_eq!(stored.kept, unranked(Unranked::Guest));
    let past = rows.iter().find(|r| r.run.is_none()).expect("one is not");
    assert!(
        matches!(&past.kept, Kept::NotStored { kind, .. } if kind == GUEST_QUOTA),
        "{:?}",
        past.kept
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_postgresql_hold_one_race_a_racer_on_each() {
    let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") else {
        return;
    };
    let db = pg::FreshDb::create(&url);
    let one = start_on(Some(&db.url), |_| {}).await;
    let two = start_on(Some(&db.url), |_| {}).await;
    // The room is the first server's; grace races through the second.
    race(&one, &two).await;
    // A code no server holds is still no room, on either.
    let url = format!("ws://{}/v1/rooms/00000000/live", two.addr);
    let refused = tokio_tungstenite::connect_async(url).await.unwrap_err();
    assert!(refused.to_string().contains("404"), "{refused}");
}

/// The server binary (`TYPEPPER_SERVER_BIN`) on a free port, on the PostgreSQL database
/// `database` or SQLite in `dir`: its process, killed when dropped, and its address.
fn spawn_server(
    bin: &std::ffi::OsStr,
    database: Option<&str>,
    dir: &std::path::Path,
) -> (Kill, std::net::SocketAddr) {
    let mut command = std::process::Command::new(bin);
    command
        .args(["--listen", "127.0.0.1:0", "--quiet"])
        .arg("--data-dir")
        .arg(dir);
    if let Some(url) = database {
        command.args(["--database-url", url]);
    }
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let child = Kill(child);
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).unwrap();
    let at = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    (child, at)
}

/// A process killed when the test ends, however it ends.
struct Kill(std::process::Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The attack of a crash: the process holding a room dies (`kill -9`) while a racer on
/// another process waits in it. The racer is told the room's server is gone, within the
/// relay's silence (15 s), rather than waiting for ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_racer_is_told_when_the_rooms_server_dies() {
    let (Some(url), Some(bin)) = (
        typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL"),
        typepper_testing::var("TYPEPPER_SERVER_BIN"),
    ) else {
        return;
    };
    let db = pg::FreshDb::create(&url);
    let dir = tempfile::tempdir().unwrap();
    let (mut owner, at) = spawn_server(bin.as_ref(), Some(&db.url), dir.path());
    let code = room(&at, "time:15").await;
    let other = start_on(Some(&db.url), |_| {}).await;
    let (mut grace, Some(_), _) = join(&other, &code, "grace").await else {
        panic!("grace watches")
    };
    let _ = owner.0.kill();
    let _ = owner.0.wait();
    // Read past `next`'s 10 s: the silence itself takes 15.
    let told = async {
        while let Some(Ok(message)) = grace.next().await {
            if let Message::Text(text) = message
                && let Ok(Say::Refused(why)) = serde_json::from_str(&text)
            {
                return why;
            }
        }
        panic!("the room closed without a word");
    };
    let why = tokio::time::timeout(Duration::from_secs(30), told)
        .await
        .expect("told within 30 s");
    assert_eq!(why, "the room's server is gone: this room has ended");
}

/// ada (linked) and grace race a ZEN round in a room `srv` opens: ada connected to `srv`,
/// grace to `other` (the same server, or another on the same PostgreSQL).
async fn race(srv: &Running, other: &Running) {
    let code = room(srv, "zen").await;
    // ada is linked, and races under her player's name; grace picks a name for the room.
    let token = link(srv, "ada").await;
    let hello = Ask::Hello {
        name: None,
        token: Some(token),
        resume: None,
    };
    let (mut ada, Some(ada_id), _) = hello_as(srv, &code, hello).await else {
        panic!("ada watches")
    };
    let (mut grace, Some(grace_id), _) = join(other, &code, "grace").await else {
        panic!("grace watches")
    };
    // The lobby lists both, waiting; only then does the owner start.
    until(&mut ada, |s| match s {
        Say::Lobby { racers, .. } if racers.len() == 2 => Some(()),
        _ => None,
    })
    .await;
    send(&mut ada, &Ask::Start).await;
    let ((seed, go_a), (seed_g, go_g)) = tokio::join!(go(&mut ada), go(&mut grace));
    assert_eq!(seed, seed_g, "one text for both");

    let (ada_replay, ada_keys) = zen(seed, 90, 5);
    let (grace_replay, grace_keys) = zen(seed, 60, 5);
    // Each types; each sees every key of the other's, in order.
    let (ada, grace) = (&mut ada, &mut grace);
    tokio::join!(
        type_keys(ada, &ada_keys, go_a),
        type_keys(grace, &grace_keys, go_g)
    );
    let seen_by = async |ws: &mut Socket, racer: u32, want: usize| {
        let mut seen = vec![];
        loop {
            match next(ws).await {
                Say::Keys { racer: r, keys } if r == racer => seen.extend(keys),
                Say::Results(rows) => return (seen, rows),
                _ => {}
            }
            assert!(seen.len() <= want);
        }
    };
    let ((seen_by_ada, rows), (seen_by_grace, rows_g)) = tokio::join!(
        seen_by(ada, grace_id, grace_keys.len()),
        seen_by(grace, ada_id, ada_keys.len())
    );
    assert_eq!(seen_by_ada, grace_keys);
    assert_eq!(seen_by_grace, ada_keys);
    assert_eq!(rows, rows_g);
    // The finishing order and headlines are what the engine plays each replay to.
    let (_, ada_score) = ada_replay.play().unwrap();
    let (_, grace_score) = grace_replay.play().unwrap();
    let got: Vec<_> = rows.iter().map(|r| (r.racer, r.headline)).collect();
    assert_eq!(
        got,
        [
            (ada_id, ada_score.headline().value),
            (grace_id, grace_score.headline().value)
        ]
    );
    // ada's round is her run: stored, shared, and its bytes are her keys' replay.
    let run = rows[0].run.clone().unwrap();
    assert_eq!(
        rows[0].share.as_deref(),
        Some(format!("http://typepper.test/r/{run}").as_str())
    );
    // A ZEN round of a few seconds: short of a ranked ZEN round's 30 s.
    assert_eq!(rows[0].kept, unranked(Unranked::ShortZen));
    let (status, _) = request(srv, "GET", &format!("/v1/runs/{run}"), "").await;
    assert_eq!(status, 200);
    let stored = srv.state.store.run(run.clone()).await.unwrap().unwrap();
    assert_eq!(stored.played.replay, ada_replay.encode());
    // grace isn't linked: her round is stored all the same, as a guest's, unranked.
    let guest = rows[1].run.clone().unwrap();
    assert_eq!(rows[1].kept, unranked(Unranked::Guest));
    let stored = srv.state.store.run(guest.clone()).await.unwrap().unwrap();
    assert_eq!(stored.played.replay, grace_replay.encode());
    assert_eq!(stored.by(), "grace (guest)");
    let (status, page) = request(srv, "GET", &format!("/r/{guest}"), "").await;
    assert_eq!(status, 200);
    assert!(page.contains("grace (guest) typed"), "{page}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_claimed_before_it_could_have_been_sent_puts_its_racer_out() {
    let srv = start(|_| {}).await;
    let code = room(&srv, "zen").await;
    let (mut ada, Some(ada_id), _) = join(&srv, &code, "ada").await else {
        panic!()
    };
    // grace races on, so the race goes on once ada is out.
    let (mut grace, _, _) = join(&srv, &code, "grace").await;
    send(&mut ada, &Ask::Start).await;
    tokio::join!(go(&mut ada), go(&mut grace));
    // Five seconds into a round that began a moment ago.
    send(&mut ada, &Ask::Keys(vec![(5_000, u32::from('a') + 2)])).await;
    let why = until(&mut ada, |s| match s {
        Say::Out { racer, why } if *racer == ada_id => Some(why.clone()),
        _ => None,
    })
    .await;
    assert!(why.contains("before it could have been sent"), "{why}");
    // Out is out: later keys are refused.
    send(&mut ada, &Ask::Keys(vec![(6_000, u32::from('b') + 2)])).await;
    let refused = until(&mut ada, |s| match s {
        Say::Refused(why) => Some(why.clone()),
        _ => None,
    })
    .await;
    assert_eq!(refused, "you are not racing");
    // grace was told why.
    let told = until(&mut grace, |s| match s {
        Say::Out { racer, why } if *racer == ada_id => Some(why.clone()),
        _ => None,
    })
    .await;
    assert_eq!(told, why);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_connection_for_one_racer_is_refused_and_a_lost_one_comes_back() {
    let srv = start(|_| {}).await;
    let code = room(&srv, "zen").await;
    let (mut ada, _, secret) = join(&srv, &code, "ada").await;
    send(&mut ada, &Ask::Start).await;
    let (seed, go_at) = go(&mut ada).await;
    let (_, keys) = zen(seed, 80, 5);
    let first: Vec<Key> = keys
        .iter()
        .copied()
        .take_while(|(t, _)| *t < 1_000)
        .collect();
    type_keys(&mut ada, &first, go_at).await;

    let resume = Ask::Hello {
        name: None,
        token: None,
        resume: Some(secret.clone()),
    };
    let mut twin = connect(&srv, &code).await;
    send(&mut twin, &resume).await;
    assert_eq!(
        next(&mut twin).await,
        Say::Refused("ada is connected already".into())
    );

    // The connection goes; a new one with the secret has the keys so far, and goes on.
    drop(ada);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut back = connect(&srv, &code).await;
    send(&mut back, &resume).await;
    let (at, had) = until(&mut back, |s| match s {
        Say::Resume { at, keys, .. } => Some((*at, keys.clone())),
        _ => None,
    })
    .await;
    assert_eq!(had, first);
    // The round's time when the seat was taken back: after the keys it had.
    assert!(at >= first.last().unwrap().0, "{at}");
    type_keys(&mut back, &keys[first.len()..], go_at).await;
    let rows = until(&mut back, |s| match s {
        Say::Results(rows) => Some(rows.clone()),
        _ => None,
    })
    .await;
    assert_eq!(rows.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_frames_and_keys_before_the_start_are_refused_and_the_racer_stays() {
    let srv = start(|_| {}).await;
    let code = room(&srv, "time:15").await;
    let (mut ada, _, _) = join(&srv, &code, "ada").await;
    ada.send(Message::Text("{\"keys\": \"lots\"}".into()))
        .await
        .unwrap();
    let why = until(&mut ada, |s| match s {
        Say::Refused(why) => Some(why.clone()),
        _ => None,
    })
    .await;
    assert!(why.starts_with("a message the server can't read"), "{why}");
    ada.send(Message::Binary(vec![1, 2, 3].into()))
        .await
        .unwrap();
    assert_eq!(
        next(&mut ada).await,
        Say::Refused("messages are JSON text".into())
    );
    send(&mut ada, &Ask::Keys(vec![(0, 99)])).await;
    assert_eq!(
        next(&mut ada).await,
        Say::Refused("the race hasn't started".into())
    );
    // Still in the room: ready works.
    send(&mut ada, &Ask::Ready).await;
    until(&mut ada, |s| match s {
        Say::Lobby {
            phase: Phase::Lobby,
            racers,
            ..
        } => (racers[0].state == typepper_api::room::State::Ready).then_some(()),
        _ => None,
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_connection_and_a_room_that_is_no_room_are_refused() {
    let srv = start(|_| {}).await;
    let code = room(&srv, "zen").await;
    let mut ws = connect(&srv, &code).await;
    send(&mut ws, &Ask::Ready).await;
    assert_eq!(
        next(&mut ws).await,
        Say::Refused("say who you are first (hello)".into())
    );
    let url = format!("ws://{}/v1/rooms/00000000/live", srv.addr);
    let refused = tokio_tungstenite::connect_async(url).await.unwrap_err();
    assert!(refused.to_string().contains("404"), "{refused}");
    let (status, body) = open(&srv, "time:7").await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn room_flooding_is_capped_per_address_and_per_server() {
    let srv = start(|c| {
        c.room_rate = 2;
        c.max_rooms = 3;
    })
    .await;
    room(&srv, "zen").await;
    room(&srv, "zen").await;
    let (status, _) = open(&srv, "zen").await;
    assert_eq!(status, 429, "a third room an hour from one address");

    let full = start(|c| {
        c.room_rate = 0;
        c.max_rooms = 1;
    })
    .await;
    let code = room(&full, "zen").await;
    let (status, body) = open(&full, "zen").await;
    assert_eq!(status, 503, "{body}");
    assert!(
        body.contains("this server holds 1 rooms, its most"),
        "{body}"
    );

    let joins = start(|c| c.room_join_rate = 1).await;
    let code2 = room(&joins, "zen").await;
    let _first = connect(&joins, &code2).await;
    let _second = connect(&joins, &code2).await;
    let url = format!("ws://{}/v1/rooms/{code2}/live", joins.addr);
    let refused = tokio_tungstenite::connect_async(url).await.unwrap_err();
    assert!(refused.to_string().contains("429"), "{refused}");
    drop(code);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_server_tells_each_room_why_and_closes_it() {
    let srv = start(|_| {}).await;
    let code = room(&srv, "zen").await;
    let (mut ada, _, _) = join(&srv, &code, "ada").await;
    let (mut linus, _, _) = join(&srv, &code, "linus").await;
    let within = Duration::from_secs(5);
    assert_eq!(
        srv.state
            .rooms
            .close_all("the server is stopping", within)
            .await,
        1
    );
    for ws in [&mut ada, &mut linus] {
        until(ws, |s| {
            (*s == Say::Refused("the server is stopping".into())).then_some(())
        })
        .await;
        let end = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .unwrap();
        assert!(matches!(end, None | Some(Ok(Message::Close(_)))), "{end:?}");
    }
}

/// Timing no person produces, in a room: the round is judged at its end as a submission
/// is, and kept as one is, never ranked, with the reason in the results (a person's round
/// is that now and then, and is not lost for it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timing_no_person_produces_is_kept_off_the_boards_in_a_room_too() {
    let srv = start(|_| {}).await;
    let code = room(&srv, "zen").await;
    let (mut bot, Some(bot_id), _) = join(&srv, &code, "metronome").await else {
        panic!()
    };
    send(&mut bot, &Ask::Start).await;
    let (seed, go_at) = go(&mut bot).await;
    // A person's keys, retimed to a metronome's 100 ms.
    let (_, keys) = zen(seed, 100, 5);
    let even: Vec<Key> = (0u32..)
        .zip(&keys)
        .map(|(i, &(_, op))| (200 + 100 * i, op))
        .collect();
    type_keys(&mut bot, &even, go_at).await;
    let rows = results(&mut bot).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].racer, bot_id);
    assert!(rows[0].run.is_some(), "kept");
    let metronome = Unranked::Timing("timing as even as a metronome".into()).to_string();
    assert!(
        matches!(&rows[0].kept, Kept::Unranked { why } if why.starts_with(&metronome)),
        "{:?}",
        rows[0].kept
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_messages_closes_its_connection() {
    let srv = start(|_| {}).await;
    let code = room(&srv, "zen").await;
    let (mut ada, _, _) = join(&srv, &code, "ada").await;
    for _ in 0..400 {
        if ada.send(Message::Text("\"ready\"".into())).await.is_err() {
            break;
        }
    }
    let why = until(&mut ada, |s| match s {
        Say::Refused(why) => Some(why.clone()),
        _ => None,
    })
    .await;
    assert_eq!(why, "more than 100 messages a second: closed");
}

/// A connection to room `code` from `from` (the server trusts `X-Forwarded-For`), with an
/// `Origin` if given: the socket, or the refusal's status and body.
async fn connect_as(
    srv: &Running,
    code: &str,
    from: &str,
    origin: Option<&str>,
) -> Result<Socket, (u16, String)> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{}/v1/rooms/{code}/live", srv.addr)
        .into_client_request()
        .unwrap();
    let headers = request.headers_mut();
    headers.insert("X-Forwarded-For", from.parse().unwrap());
    if let Some(origin) = origin {
        headers.insert("Origin", origin.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            let body = response.body().clone().unwrap_or_default();
            Err((
                response.status().as_u16(),
                String::from_utf8_lossy(&body).into_owned(),
            ))
        }
        Err(e) => panic!("{e}"),
    }
}

/// The results, read until they come.
async fn results(ws: &mut Socket) -> Vec<typepper_api::room::Finish> {
    until(ws, |s| match s {
        Say::Results(rows) => Some(rows.clone()),
        _ => None,
    })
    .await
}

/// The attack: a spectator who joined after the go posted the keys it had been shown to
/// `/v1/submit` under its own token, and the honest racer's round was then refused as a
/// copy of it (in ZEN the window is the whole race). While the room holds its text, a
/// round on it from outside the room is refused, and the racer's own round is stored.
/// Once it is, a copy is known as one. On both backends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectators_copy_of_a_racers_keys_is_refused_while_the_room_holds_its_text() {
    let attempt = async |srv: &Running| {
        let code = room(srv, "zen").await;
        let victim = Ask::Hello {
            name: None,
            token: Some(link(srv, "victim").await),
            resume: None,
        };
        let thief_token = link(srv, "thief").await;
        let (mut victim, Some(victim_id), _) = hello_as(srv, &code, victim).await else {
            panic!("the victim watches")
        };
        send(&mut victim, &Ask::Start).await;
        let (seed, go_at) = go(&mut victim).await;
        let (_, keys) = zen(seed, 91, 16);
        // The spectator joins once the race is on, and is shown every key.
        let (mut spectator, None, _) = join(srv, &code, "watcher").await else {
            panic!("a late joiner races")
        };
        let typing = async {
            type_keys(&mut victim, &keys, go_at).await;
            victim
        };
        let copying = async {
            let mut seen: Vec<Key> = vec![];
            while seen.last().is_none_or(|&(t, _)| t < 12_000) {
                if let Say::Keys { racer, keys } = next(&mut spectator).await
                    && racer == victim_id
                {
                    seen.extend(keys);
                }
            }
            // The keys seen, ended as a ZEN round is, posted while the victim types on.
            let mut copy = Replay {
                engine: typepper_engine::VERSION,
                mode: "zen".into(),
                seed,
                text: None,
                inputs: vec![],
            };
            let mut last = 0;
            for (t, op) in seen
                .iter()
                .copied()
                .chain([(seen.last().unwrap().0 + 90, 1)])
            {
                let op = typepper_engine::Op::from_code(op.into()).unwrap();
                copy.inputs
                    .push(typepper_engine::Input { dt: t - last, op });
                last = t;
            }
            let answer = submit_as(srv, &thief_token, &copy).await;
            (copy, answer)
        };
        let (mut victim, (copy, answer)) = tokio::join!(typing, copying);
        assert_eq!(
            answer,
            "no live_room this text is a live room's, and the room keeps its own rounds: watch them \
             there, or race them once the room has stored them\n"
        );
        let rows = results(&mut victim).await;
        assert_eq!(rows[0].racer, victim_id);
        assert_eq!(rows[0].kept, unranked(Unranked::ShortZen));
        // Once the room has stored its rounds, the text is anyone's to race again, and a
        // copy is known as one.
        let again = submit_as(srv, &thief_token, &copy).await;
        let run = rows[0].run.clone().unwrap();
        assert_eq!(
            again,
            format!("no copy a copy of run {run}\n"),
            "{} keys copied of {}",
            copy.inputs.len(),
            keys.len()
        );
    };
    let srv = start(|_| {}).await;
    attempt(&srv).await;
    if let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") {
        let db = pg::FreshDb::create(&url);
        attempt(&start_on(Some(&db.url), |_| {}).await).await;
    }
}

/// `POST /v1/submit` of `replay` as the player with `token`: the answer's text (its body,
/// chunked or not).
async fn submit_as(srv: &impl At, token: &str, replay: &Replay) -> String {
    let (_, score) = replay.play().unwrap();
    let body = typepper_api::submission([(score.headline().value, &replay.encode()[..])]);
    let mut tcp = tokio::net::TcpStream::connect(srv.at()).await.unwrap();
    let head = format!(
        "POST /v1/submit HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/octet-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    tcp.write_all(head.as_bytes()).await.unwrap();
    tcp.write_all(&body).await.unwrap();
    let mut answer = vec![];
    tcp.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or_default();
    match head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        true => dechunk(body),
        false => body.to_owned(),
    }
}

/// A chunked body's text.
fn dechunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        out.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
    out
}

/// The attack: the room's owner typed the victim's keys back as the room passed them on,
/// with the same times, and a tie went to the lower seat: the thief ranked and the
/// victim's round was refused as a copy. An echo is out, and the original is stored and
/// ranked. On both backends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_echo_of_another_racers_keys_is_out_and_the_original_ranks() {
    let attempt = async |srv: &Running| {
        let code = room(srv, "time:15").await;
        let as_player = async |name: &str| Ask::Hello {
            name: None,
            token: Some(link(srv, name).await),
            resume: None,
        };
        let thief = as_player("owner").await;
        let victim = as_player("honest").await;
        let (mut thief, Some(thief_id), _) = hello_as(srv, &code, thief).await else {
            panic!()
        };
        let (mut victim, Some(victim_id), _) = hello_as(srv, &code, victim).await else {
            panic!()
        };
        send(&mut thief, &Ask::Start).await;
        let ((seed, go_v), (_, _)) = tokio::join!(go(&mut victim), go(&mut thief));
        let (_, keys) = blitz(seed, 91);
        let typing = async {
            type_keys(&mut victim, &keys, go_v).await;
            victim
        };
        // The thief sends each key of the victim's back as soon as it is shown it, until
        // it is put out.
        let echoing = async {
            loop {
                match next(&mut thief).await {
                    Say::Keys { racer, keys } if racer == victim_id => {
                        send(&mut thief, &Ask::Keys(keys)).await;
                    }
                    Say::Out { racer, why } if racer == thief_id => return why,
                    _ => {}
                }
            }
        };
        let (mut victim, why) = tokio::join!(typing, echoing);
        assert_eq!(
            why,
            "your keys echo honest's, as this room passed them on: a copy is no round of yours"
        );
        let rows = results(&mut victim).await;
        let kept: Vec<_> = rows.iter().map(|r| (r.racer, &r.kept)).collect();
        assert_eq!(kept, [(victim_id, &Kept::Ranked)]);
    };
    let srv = start(|_| {}).await;
    attempt(&srv).await;
    if let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") {
        let db = pg::FreshDb::create(&url);
        attempt(&start_on(Some(&db.url), |_| {}).await).await;
    }
}

/// The attack: one ZEN guest sent 316,000 keys in a minute, all taken and passed on. A
/// round takes 40 keys in a second of its time at most; past that its racer is out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_keys_into_a_room_puts_its_racer_out() {
    let srv = start(|_| {}).await;
    let code = room(&srv, "zen").await;
    let (mut flood, Some(flood_id), _) = join(&srv, &code, "flood").await else {
        panic!()
    };
    let (mut watcher, _, _) = join(&srv, &code, "watcher").await;
    send(&mut flood, &Ask::Start).await;
    let (_, go_at) = go(&mut flood).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let t = go_at.elapsed().as_millis() as u32;
    for _ in 0..3 {
        send(&mut flood, &Ask::Keys(vec![(t, u32::from('a') + 2); 64])).await;
    }
    let why = until(&mut flood, |s| match s {
        Say::Out { racer, why } if *racer == flood_id => Some(why.clone()),
        _ => None,
    })
    .await;
    assert_eq!(
        why,
        "more than 40 keys in one second of the round: no person types that fast"
    );
    // What the others were passed: the 40 the round took, no more.
    let mut passed = 0;
    loop {
        match next(&mut watcher).await {
            Say::Keys { racer, keys } if racer == flood_id => passed += keys.len(),
            Say::Out { racer, .. } if racer == flood_id => break,
            _ => {}
        }
    }
    assert_eq!(passed, 40);
}

/// The attack: one address held every room and every room connection the server had, for
/// good, and everyone else was refused. An address has so many rooms open and so many
/// connections at once; then it is told why, and others are not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_so_many_rooms_and_connections_and_no_more() {
    let srv = start(|c| {
        c.proxies.trust = true;
        c.rooms.open_per_ip = 2;
        c.rooms.connections_per_ip = 3;
        c.room_join_rate = 0;
    })
    .await;
    let at = srv.addr;
    let opened = |from: &'static str| async move {
        let mut tcp = tokio::net::TcpStream::connect(at).await.unwrap();
        let body = r#"{"mode":"zen"}"#;
        let head = format!(
            "POST /v1/rooms HTTP/1.1\r\nHost: t\r\nX-Forwarded-For: {from}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        tcp.write_all(head.as_bytes()).await.unwrap();
        let mut answer = String::new();
        tcp.read_to_string(&mut answer).await.unwrap();
        (answer[9..12].parse::<u16>().unwrap(), answer)
    };
    let (a, first) = opened("10.0.0.1").await;
    assert_eq!(a, 201);
    assert_eq!(opened("10.0.0.1").await.0, 201);
    let (status, answer) = opened("10.0.0.1").await;
    assert_eq!(status, 429);
    assert!(
        answer.contains("your address has 2 rooms open, its most"),
        "{answer}"
    );
    assert_eq!(opened("10.0.0.2").await.0, 201, "another address opens one");
    let opened: typepper_api::room::Opened =
        serde_json::from_str(first.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    let code = opened.code;
    let mut held = vec![];
    for _ in 0..3 {
        held.push(connect_as(&srv, &code, "10.0.0.9", None).await.unwrap());
    }
    let (status, body) = connect_as(&srv, &code, "10.0.0.9", None)
        .await
        .map(drop)
        .unwrap_err();
    assert_eq!(status, 429);
    assert!(
        body.contains("your address has 3 connections to rooms, its most"),
        "{body}"
    );
    assert!(connect_as(&srv, &code, "10.0.0.10", None).await.is_ok());
    // One closed, its place is free again.
    drop(held.pop());
    let mut freed = false;
    for _ in 0..50 {
        if connect_as(&srv, &code, "10.0.0.9", None).await.is_ok() {
            freed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(freed, "a closed connection gives its place back");
}

/// The attack: an idle room, and the spectator in it, stayed for good (a spectator stayed
/// 75 s after its room had gone). A room with no racer saying anything closes after its
/// idle time, and one open its most time closes too, each with every connection in it,
/// told why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_room_and_an_old_one_close_with_every_connection_in_them() {
    for (tweak, said) in [
        (
            (|c: &mut typepper_server::Config| c.rooms.idle_timeout_secs = 1)
                as fn(&mut typepper_server::Config),
            "this room has closed after a second with no one racing: open a new one to race \
             again",
        ),
        (
            |c: &mut typepper_server::Config| c.rooms.max_time_secs = 1,
            "this room has closed after a second, its most: open a new one to race again",
        ),
    ] {
        let srv = start(tweak).await;
        let code = room(&srv, "zen").await;
        let (mut ada, _, _) = join(&srv, &code, "ada").await;
        let (mut linus, _, _) = join(&srv, &code, "linus").await;
        for ws in [&mut ada, &mut linus] {
            let why = until(ws, |s| match s {
                Say::Refused(why) => Some(why.clone()),
                _ => None,
            })
            .await;
            assert_eq!(why, said);
            let end = tokio::time::timeout(Duration::from_secs(10), ws.next())
                .await
                .unwrap();
            assert!(matches!(end, None | Some(Ok(Message::Close(_)))), "{end:?}");
        }
        let url = format!("ws://{}/v1/rooms/{code}/live", srv.addr);
        let gone = tokio_tungstenite::connect_async(url).await.unwrap_err();
        assert!(gone.to_string().contains("404"), "{gone}");
        assert_eq!(srv.state.rooms.rooms_open(), 0);
    }
}

/// The attack: any web page could open rooms (a cross-site `text/plain` POST answered
/// 201) and hold connections to them, using its visitors as many addresses. A browser
/// says where the page is: one from elsewhere is refused, and the game's own is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_elsewhere_can_neither_open_nor_join_rooms() {
    let srv = start(|_| {}).await;
    let post = async |origin: &str, kind: &str| {
        let mut tcp = tokio::net::TcpStream::connect(srv.at()).await.unwrap();
        let body = r#"{"mode":"zen"}"#;
        let head = format!(
            "POST /v1/rooms HTTP/1.1\r\nHost: t\r\nOrigin: {origin}\r\nContent-Type: {kind}\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        tcp.write_all(head.as_bytes()).await.unwrap();
        let mut answer = String::new();
        tcp.read_to_string(&mut answer).await.unwrap();
        (answer[9..12].parse::<u16>().unwrap(), answer)
    };
    let (status, answer) = post("https://evil.example", "text/plain").await;
    assert_eq!(status, 403);
    assert!(
        answer.contains(
            "this server's rooms are for its own game at http://typepper.test: a page at \
             \"https://evil.example\" can't use them"
        ),
        "{answer}"
    );
    assert_eq!(srv.state.rooms.rooms_open(), 0);
    assert_eq!(
        post("http://typepper.test", "application/json").await.0,
        201
    );
    let code = room(&srv, "zen").await;
    let refused = connect_as(&srv, &code, "10.0.0.1", Some("https://evil.example"))
        .await
        .map(drop)
        .unwrap_err();
    assert_eq!(refused.0, 403);
    assert!(
        connect_as(&srv, &code, "10.0.0.1", Some("http://typepper.test"))
            .await
            .is_ok()
    );
}

/// A message over 4 KiB closed the socket with no close frame (1005), where the spec
/// says it is refused. It is refused, and the close frame says why (1009).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_over_4_kib_is_refused_with_a_close_frame_saying_so() {
    let srv = start(|_| {}).await;
    let code = room(&srv, "zen").await;
    let (mut ada, _, _) = join(&srv, &code, "ada").await;
    let long = format!("{{\"keys\":[{}]}}", vec!["[1,99]"; 1000].join(","));
    ada.send(Message::Text(long.into())).await.unwrap();
    let mut refused = None;
    let closed = loop {
        match tokio::time::timeout(Duration::from_secs(10), ada.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => {
                if let Ok(Say::Refused(why)) = serde_json::from_str(&text) {
                    refused = Some(why);
                }
            }
            Ok(Some(Ok(Message::Close(frame)))) => break frame,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(
        refused.as_deref(),
        Some("a message is at most 4096 bytes: closed")
    );
    let frame = closed.expect("a close frame");
    assert_eq!(u16::from(frame.code), 1009);
}

/// The attack: a linked racer ended a ZEN round a minute before the others, and lost it
/// when the owner's process was killed: rounds were stored only once every one was over.
/// Each round is stored as it finishes. On both backends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_round_is_stored_before_the_race_is_over() {
    let attempt = async |srv: &Running, pg: Option<&str>| {
        let code = room(srv, "zen").await;
        let hello = Ask::Hello {
            name: None,
            token: Some(link(srv, "early").await),
            resume: None,
        };
        let (mut early, Some(_), _) = hello_as(srv, &code, hello).await else {
            panic!()
        };
        let (mut late, Some(_), _) = join(srv, &code, "late").await else {
            panic!()
        };
        send(&mut early, &Ask::Start).await;
        let ((seed, go_e), (_, go_l)) = tokio::join!(go(&mut early), go(&mut late));
        let (replay, keys) = zen(seed, 80, 5);
        let (_, slow) = zen(seed, 40, 30);
        // The late racer's first keys, so that they are not out, then nothing for a while.
        let first: Vec<Key> = slow.iter().copied().take(5).collect();
        tokio::join!(
            type_keys(&mut early, &keys, go_e),
            type_keys(&mut late, &first, go_l)
        );
        // The race is on (late is typing); early's round is stored already.
        let bytes = replay.encode();
        let mut stored = false;
        for _ in 0..100 {
            if stored_replays(srv, pg).await.contains(&bytes) {
                stored = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(
            stored,
            "the finished round is stored while the race goes on"
        );
    };
    let srv = start(|_| {}).await;
    attempt(&srv, None).await;
    if let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") {
        let db = pg::FreshDb::create(&url);
        let srv = start_on(Some(&db.url), |_| {}).await;
        attempt(&srv, Some(&db.url)).await;
    }
}

/// Every stored run's replay, read from the database itself: `srv`'s SQLite file, or the
/// PostgreSQL database at `pg`.
async fn stored_replays(srv: &Running, pg: Option<&str>) -> Vec<Vec<u8>> {
    let (file, pg) = (
        srv.dir.path().join("data").join("typepper.sqlite3"),
        pg.map(str::to_owned),
    );
    tokio::task::spawn_blocking(move || match pg {
        Some(url) => {
            let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            let rows = client.query("SELECT replay FROM runs", &[]).unwrap();
            rows.iter().map(|r| r.get(0)).collect()
        }
        None => {
            let c = rusqlite::Connection::open(file).unwrap();
            let mut s = c.prepare("SELECT replay FROM runs").unwrap();
            s.query_map([], |r| r.get(0))
                .unwrap()
                .map(Result::unwrap)
                .collect()
        }
    })
    .await
    .unwrap()
}

/// Two servers on the PostgreSQL this run has, the first holding rooms; `None` (and a
/// line saying so) without one.
async fn two_servers() -> Option<(pg::FreshDb, Running, Running)> {
    let url = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL")?;
    let db = pg::FreshDb::create(&url);
    let tweak = |c: &mut typepper_server::Config| {
        c.room_join_rate = 0;
        c.rooms.connections_per_ip = 1_000;
    };
    let one = start_on(Some(&db.url), tweak).await;
    let two = start_on(Some(&db.url), tweak).await;
    Some((db, one, two))
}

/// The notes a server's relay has sent so far.
fn notes(srv: &Running) -> u64 {
    let text = srv.state.metrics_text();
    text.lines()
        .find_map(|l| l.strip_prefix("typepper_relay_notes_total ")?.parse().ok())
        .unwrap_or(0)
}

/// The attack: every room message was one NOTIFY per connection on another process, so
/// a thousand spectators there turned each key into a thousand statements, and a racer's
/// keys came seconds late. A room says each message once to each process, whatever its
/// connections there, and each of them gets every key.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_says_each_message_once_to_another_process_whatever_its_connections() {
    let Some((_db, one, two)) = two_servers().await else {
        return;
    };
    let code = room(&one, "zen").await;
    let (mut near, Some(near_id), _) = join(&one, &code, "near").await else {
        panic!()
    };
    send(&mut near, &Ask::Start).await;
    let (seed, go_at) = go(&mut near).await;
    const WATCHING: usize = 100;
    let mut watching = vec![];
    for i in 0..WATCHING {
        let (ws, None, _) = join(&two, &code, &format!("watcher{i}")).await else {
            panic!("a watcher races")
        };
        watching.push(ws);
    }
    let before = notes(&one);
    let (_, keys) = zen(seed, 90, 5);
    let messages = {
        let mut sent = 0;
        let mut next = 0;
        while next < keys.len() {
            let now = go_at.elapsed().as_millis() as u32;
            let due = crate::support::due(&keys[next..], now);
            if due > 0 {
                send(&mut near, &Ask::Keys(keys[next..next + due].to_vec())).await;
                next += due;
                sent += 1;
            }
            tokio::time::sleep(Duration::from_millis(16)).await;
        }
        sent
    };
    // Every watcher sees every key.
    for ws in &mut watching {
        let mut seen = 0;
        while seen < keys.len() {
            if let Say::Keys { racer, keys } = next(ws).await
                && racer == near_id
            {
                seen += keys.len();
            }
        }
        assert_eq!(seen, keys.len());
    }
    let sent = notes(&one) - before;
    eprintln!(
        "{messages} messages of keys to {WATCHING} connections on another process: {sent} notes"
    );
    // A note a message (and a few for the lobby and pings), not one a connection.
    assert!(sent < 2 * messages as u64 + 20, "{sent} notes");
}

/// The attack: a racer relayed through another process could not come back after about
/// 650 keys (the resume was one message too long to relay), and the failed try held the
/// seat. A resume is read out in chunks, through either process.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_rounds_resume_through_another_process_comes_back_whole() {
    let Some((_db, one, two)) = two_servers().await else {
        return;
    };
    let code = room(&one, "zen").await;
    let (mut far, Some(far_id), secret) = join(&two, &code, "far").await else {
        panic!()
    };
    send(&mut far, &Ask::Start).await;
    let (_, go_at) = go(&mut far).await;
    // 650 keys at 40 a second, the most a round takes: words of four letters.
    let keys: Vec<Key> = (0u32..650)
        .map(|i| {
            let op = if i % 5 == 4 { ' ' } else { 'a' };
            (100 + 25 * i, u32::from(op) + 2)
        })
        .collect();
    type_keys(&mut far, &keys, go_at).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    drop(far);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let resume = Ask::Hello {
        name: None,
        token: None,
        resume: Some(secret),
    };
    let mut back = connect(&two, &code).await;
    send(&mut back, &resume).await;
    let mut had: Vec<Key> = until(&mut back, |s| match s {
        Say::Resume { keys, .. } => Some(keys.clone()),
        Say::Refused(why) => panic!("{why}"),
        _ => None,
    })
    .await;
    while had.len() < keys.len() {
        if let Say::Keys { racer, keys } = next(&mut back).await
            && racer == far_id
        {
            had.extend(keys);
        }
    }
    assert_eq!(had, keys);
}

/// The attack: on PostgreSQL each join of a code no room has waited 2 s for an owner to
/// answer, and 150 a second held the server's connections. The directory answers at
/// once: no note is sent, and such a join costs about what a read of a missing run does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_code_no_room_has_is_answered_at_once_on_postgresql() {
    let Some((_db, _one, two)) = two_servers().await else {
        return;
    };
    let before = notes(&two);
    let started = std::time::Instant::now();
    for i in 0..20 {
        let url = format!("ws://{}/v1/rooms/0000000{}/live", two.addr, i % 10);
        let refused = tokio_tungstenite::connect_async(url).await.unwrap_err();
        assert!(refused.to_string().contains("404"), "{refused}");
    }
    let joins = started.elapsed();
    let started = std::time::Instant::now();
    for _ in 0..20 {
        let (status, _) = request(&two, "GET", "/v1/runs/00000000", "").await;
        assert_eq!(status, 404);
    }
    let reads = started.elapsed();
    assert_eq!(notes(&two), before, "no note for a code no one holds");
    // Not a timing of the machine: a ratio in one run, where waiting for an owner was a
    // thousand times a read.
    assert!(
        joins < reads * 20,
        "20 joins of no room took {joins:?}, 20 reads of no run {reads:?}"
    );
}

/// The attack: a guest took a linked player's name in a room (`5tar3949` for `star3949`)
/// and the player was then refused as already there. A guest can't take a name that is a
/// linked player's, or looks like one; the lobby marks guests as such.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_cannot_race_under_a_linked_players_name() {
    let srv = start(|_| {}).await;
    link(&srv, "star3949").await;
    let code = room(&srv, "zen").await;
    let mut ws = connect(&srv, &code).await;
    let hello = Ask::Hello {
        name: Some("5tar3949".into()),
        token: None,
        resume: None,
    };
    send(&mut ws, &hello).await;
    assert_eq!(
        next(&mut ws).await,
        Say::Refused(
            "5tar3949 is a linked player's name (or looks like one): pick another, or link \
             your game to race as yourself"
                .into()
        )
    );
    let (mut guest, _, _) = join(&srv, &code, "visitor").await;
    let racers = until(&mut guest, |s| match s {
        Say::Lobby { racers, .. } => Some(racers.clone()),
        _ => None,
    })
    .await;
    assert!(racers[0].guest, "{racers:?}");
}

/// The attack: a linked racer ended a ZEN round while another went on, and lost it when
/// the process holding the room was killed (`kill -9`): rounds were kept in memory until
/// the race was over. The round is in the database from its end, whatever happens next.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_that_ended_survives_kill_9_of_its_rooms_server() {
    let Some(bin) = typepper_testing::var("TYPEPPER_SERVER_BIN") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (mut server, at) = spawn_server(bin.as_ref(), None, dir.path());
    let code = room(&at, "zen").await;
    let hello = Ask::Hello {
        name: None,
        token: Some(link(&at, "ender").await),
        resume: None,
    };
    let (mut ender, Some(_), _) = hello_as(&at, &code, hello).await else {
        panic!()
    };
    let (mut typist, Some(_), _) = join(&at, &code, "typist").await else {
        panic!()
    };
    send(&mut ender, &Ask::Start).await;
    let ((seed, go_e), (_, go_t)) = tokio::join!(go(&mut ender), go(&mut typist));
    let (replay, keys) = zen(seed, 80, 5);
    let (_, slow) = zen(seed, 40, 30);
    let first: Vec<Key> = slow.iter().copied().take(5).collect();
    tokio::join!(
        type_keys(&mut ender, &keys, go_e),
        type_keys(&mut typist, &first, go_t)
    );
    // A moment for the round's end to reach the room and its commit; then the crash.
    let file = dir.path().join("typepper.sqlite3");
    let bytes = replay.encode();
    let stored = || {
        let c = rusqlite::Connection::open(&file).unwrap();
        let mut s = c.prepare("SELECT replay FROM runs").unwrap();
        let found: Vec<Vec<u8>> = s
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        found.contains(&bytes)
    };
    for _ in 0..100 {
        if stored() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = server.0.kill();
    let _ = server.0.wait();
    assert!(
        stored(),
        "the ended round is in the database after the crash"
    );
}

/// The play-test: every racer pressed ready, every row said so, and nothing happened for
/// 15 s. Once every racer is ready, the countdown starts, and every lobby says who owns
/// the room.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_starts_once_everyone_is_ready() {
    let srv = start(|_| {}).await;
    let code = room(&srv, "zen").await;
    let (mut ada, Some(ada_id), _) = join(&srv, &code, "ada").await else {
        panic!()
    };
    let (mut grace, _, _) = join(&srv, &code, "grace").await;
    send(&mut grace, &Ask::Ready).await;
    let owner = until(&mut ada, |s| match s {
        Say::Lobby { racers, owner, .. } if racers.len() == 2 => Some(*owner),
        _ => None,
    })
    .await;
    assert_eq!(owner, ada_id);
    send(&mut ada, &Ask::Ready).await;
    tokio::join!(go(&mut ada), go(&mut grace));
}

/// The play-test: someone who opened the link after the race ended was told the race was
/// on and never saw the results, and stayed a spectator through the rematch. A late
/// arrival gets the results, and a seat at the rematch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_arrival_sees_the_results_and_races_the_rematch() {
    let srv = start(|_| {}).await;
    let code = room(&srv, "zen").await;
    let (mut ada, _, _) = join(&srv, &code, "ada").await;
    send(&mut ada, &Ask::Start).await;
    let (seed, go_at) = go(&mut ada).await;
    let (_, keys) = zen(seed, 80, 5);
    type_keys(&mut ada, &keys, go_at).await;
    let rows = results(&mut ada).await;
    let (mut late, None, _) = join(&srv, &code, "late").await else {
        panic!("a late arrival races the race that is over")
    };
    assert_eq!(results(&mut late).await, rows);
    send(&mut ada, &Ask::Rematch).await;
    let seated = until(&mut late, |s| match s {
        Say::Welcome { you, .. } => Some(*you),
        _ => None,
    })
    .await;
    assert!(seated.is_some(), "seated at the rematch");
    let racers = until(&mut late, |s| match s {
        Say::Lobby { racers, .. } if racers.len() == 2 => Some(racers.clone()),
        _ => None,
    })
    .await;
    assert_eq!(racers[1].name, "late");
}

/// A room's owner picks a mode with its text's settings (issue 40): every racer is told
/// the mode and the seed, so every racer types the same French text with punctuation;
/// the results are what the engine plays each racer's keys to, and the linked racer's
/// round ranks on the mode's own board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_of_a_mode_with_its_texts_settings_races_one_text() {
    let srv = start(|_| {}).await;
    let key = "words:10/p@fr";
    let mode: Mode = key.parse().unwrap();
    let code = room(&srv, key).await;
    let hello = Ask::Hello {
        name: None,
        token: Some(link(&srv, "ada").await),
        resume: None,
    };
    let mut sockets = vec![];
    for hello in [
        hello,
        Ask::Hello {
            name: Some("grace".into()),
            token: None,
            resume: None,
        },
    ] {
        let mut ws = connect(&srv, &code).await;
        send(&mut ws, &hello).await;
        let told = until(&mut ws, |s| match s {
            Say::Welcome { mode, you, .. } => Some((mode.clone(), *you)),
            _ => None,
        })
        .await;
        assert_eq!(told.0, key, "each racer is told the room's mode");
        sockets.push((ws, told.1.unwrap()));
    }
    let [(mut ada, ada_id), (mut grace, _)] = <[_; 2]>::try_from(sockets).ok().unwrap();
    until(&mut ada, |s| match s {
        Say::Lobby { racers, .. } if racers.len() == 2 => Some(()),
        _ => None,
    })
    .await;
    send(&mut ada, &Ask::Start).await;
    let ((seed, go_a), (seed_g, go_g)) = tokio::join!(go(&mut ada), go(&mut grace));
    assert_eq!(seed, seed_g, "one text for both");
    let round = |wpm: u32| {
        let typist = Typist {
            wpm,
            seed: u64::from(wpm),
            ..Typist::default()
        };
        let replay = synth(mode, seed, &typist);
        let keys: Vec<Key> = replay
            .timeline()
            .filter_map(|(t, op)| Some((t?, op.code())))
            .collect();
        (replay, keys)
    };
    let ((ada_replay, ada_keys), (grace_replay, grace_keys)) = (round(95), round(75));
    tokio::join!(
        type_keys(&mut ada, &ada_keys, go_a),
        type_keys(&mut grace, &grace_keys, go_g)
    );
    let rows = until(&mut ada, |s| match s {
        Say::Results(rows) => Some(rows.clone()),
        _ => None,
    })
    .await;
    let score = |r: &Replay| r.play().unwrap().1.headline().value;
    let mut got: Vec<_> = rows.iter().map(|r| r.headline).collect();
    got.sort_unstable();
    let mut want = vec![score(&ada_replay), score(&grace_replay)];
    want.sort_unstable();
    assert_eq!(got, want);
    let ada_row = rows.iter().find(|r| r.racer == ada_id).unwrap();
    assert_eq!(ada_row.kept, Kept::Ranked);
    let run = ada_row.run.clone().unwrap();
    let stored = srv.state.store.run(run.clone()).await.unwrap().unwrap();
    assert_eq!(stored.played.mode, key);
    assert_eq!(stored.played.replay, ada_replay.encode());
    let (status, board) = request(&srv, "GET", &format!("/v1/boards/{key}"), "").await;
    assert_eq!(status, 200, "{board}");
    let board: typepper_api::Board = serde_json::from_str(&board).unwrap();
    assert_eq!(
        (board.title.as_str(), board.rows[0].run.as_str()),
        ("WORDS 10 · punctuation · français", run.as_str())
    );
}

/// `POST /v1/rooms` for a custom room on `text`.
async fn open_on(srv: &impl At, text: &str) -> (u16, String) {
    let body = serde_json::json!({"mode": "custom", "text": text}).to_string();
    request(srv, "POST", "/v1/rooms", &body).await
}

/// A room on the owner's own text: every racer is welcomed with it, races on it, and
/// each round is stored as what it is, a CUSTOM TEXT round carrying its text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_on_a_custom_text_races_every_racer_on_that_text() {
    let srv = start(|_| {}).await;
    let text = "Là-bas — près de la forêt, l'été dernier.";
    let (status, body) = open_on(&srv, text).await;
    assert_eq!(status, 201, "{body}");
    let code = serde_json::from_str::<typepper_api::room::Opened>(&body)
        .unwrap()
        .code;
    let welcomed = async |name: &str| {
        let mut ws = connect(&srv, &code).await;
        let hello = Ask::Hello {
            name: Some(name.into()),
            token: None,
            resume: None,
        };
        send(&mut ws, &hello).await;
        let (you, said) = until(&mut ws, |s| match s {
            Say::Welcome {
                you, mode, text, ..
            } => Some((*you, (mode.clone(), text.clone()))),
            _ => None,
        })
        .await;
        assert_eq!(said, ("custom".to_owned(), Some(text.to_owned())));
        (ws, you.unwrap())
    };
    let (mut ada, _) = welcomed("ada").await;
    let (mut grace, _) = welcomed("grace").await;
    until(&mut ada, |s| match s {
        Say::Lobby { racers, .. } if racers.len() == 2 => Some(()),
        _ => None,
    })
    .await;
    send(&mut ada, &Ask::Start).await;
    let ((seed, go_a), (_, go_g)) = tokio::join!(go(&mut ada), go(&mut grace));
    let typed = |wpm| {
        let round = typepper_engine::Round::custom(text, seed).unwrap();
        let typist = Typist {
            wpm,
            seed: u64::from(wpm),
            ..Typist::default()
        };
        let replay = typepper_engine::synth::synth_on(round, &typist);
        let keys: Vec<Key> = replay
            .timeline()
            .filter_map(|(t, op)| Some((t?, op.code())))
            .collect();
        (replay, keys)
    };
    let ((ada_replay, ada_keys), (grace_replay, grace_keys)) = (typed(90), typed(55));
    tokio::join!(
        type_keys(&mut ada, &ada_keys, go_a),
        type_keys(&mut grace, &grace_keys, go_g)
    );
    let rows = results(&mut ada).await;
    assert_eq!(rows.len(), 2, "{rows:?}");
    for (row, replay) in rows.iter().zip([&ada_replay, &grace_replay]) {
        let (_, score) = replay.play().unwrap();
        assert_eq!(row.headline, score.headline().value);
        let run = row.run.clone().expect("stored");
        let stored = srv.state.store.run(run).await.unwrap().unwrap();
        let back = Replay::decode(&stored.played.replay).unwrap();
        assert_eq!(back.text.as_deref(), Some(text), "format 2, with its text");
    }
}

/// What a custom room refuses, each with its sentence: no text, a text for another
/// mode, one longer than a room takes, one whose accents aren't composed, one with a
/// control character.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_custom_room_without_a_text_or_with_one_it_cannot_race_is_refused() {
    let srv = start(|_| {}).await;
    let (status, body) = open(&srv, "custom").await;
    assert_eq!(status, 400);
    assert!(body.contains("a custom room needs its text"), "{body}");
    let body = serde_json::json!({"mode": "time:15", "text": "hello"}).to_string();
    let (status, said) = request(&srv, "POST", "/v1/rooms", &body).await;
    assert_eq!(status, 400);
    assert!(said.contains("only a custom room takes a text"), "{said}");
    let long = "word ".repeat(300) + "end";
    let (status, said) = open_on(&srv, &long).await;
    assert_eq!(status, 400);
    assert!(said.contains("at most 1,500 characters"), "{said}");
    let (status, said) = open_on(&srv, "Cafe\u{301} au lait").await;
    assert_eq!(status, 400);
    assert!(said.contains("not in Unicode NFC"), "{said}");
    let (status, said) = open_on(&srv, "a\u{7}b").await;
    assert_eq!(status, 400);
    assert!(said.contains("U+0007"), "{said}");
    // And one that plays opens.
    let (status, said) = open_on(&srv, "à la fin").await;
    assert_eq!(status, 201, "{said}");
}

/// The longest room text, of the widest letters (four bytes each, 6,000 bytes in all),
/// welcomes a racer on another server process: the welcome crosses PostgreSQL in one
/// notification, under its 8000 bytes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_longest_room_text_reaches_a_racer_on_another_process() {
    let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") else {
        return;
    };
    let db = pg::FreshDb::create(&url);
    let one = start_on(Some(&db.url), |_| {}).await;
    let two = start_on(Some(&db.url), |_| {}).await;
    let words = vec!["🌶🌶🌶🌶"; typepper_api::room::ROOM_TEXT_CHARS / 5];
    let text = format!("{} 🌶🌶🌶🌶", words.join(" "));
    assert_eq!(
        text.chars().count(),
        typepper_api::room::ROOM_TEXT_CHARS + 4
    );
    let text = &text[..text.len() - " 🌶🌶🌶🌶".len()];
    assert_eq!(
        text.chars().count(),
        typepper_api::room::ROOM_TEXT_CHARS - 1
    );
    let (status, body) = open_on(&one, text).await;
    assert_eq!(status, 201, "{body}");
    let code = serde_json::from_str::<typepper_api::room::Opened>(&body)
        .unwrap()
        .code;
    let mut ws = connect(&two, &code).await;
    let hello = Ask::Hello {
        name: Some("grace".into()),
        token: None,
        resume: None,
    };
    send(&mut ws, &hello).await;
    let welcomed = until(&mut ws, |s| match s {
        Say::Welcome { text, .. } => Some(text.clone()),
        _ => None,
    })
    .await;
    assert_eq!(welcomed.as_deref(), Some(text));
}
