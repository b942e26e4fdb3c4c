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
use typepper_api::room::{Ask, COUNTDOWN_MS, Key, Phase, Say};
use typepper_engine::synth::{Typist, synth};
use typepper_engine::{Mode, Replay};

#[path = "store/pg.rs"]
mod pg;
#[path = "support/running.rs"]
mod running;
use running::{Running, start, start_on};

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// `POST /v1/rooms` for `mode`: the status and the body.
async fn open(srv: &Running, mode: &str) -> (u16, String) {
    request(
        srv,
        "POST",
        "/v1/rooms",
        &format!("{{\"mode\":\"{mode}\"}}"),
    )
    .await
}

/// A linked player named `name`: their token.
async fn link(srv: &Running, name: &str) -> String {
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
async fn request(srv: &Running, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut tcp = tokio::net::TcpStream::connect(srv.addr).await.unwrap();
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
async fn room(srv: &Running, mode: &str) -> String {
    let (status, body) = open(srv, mode).await;
    assert_eq!(status, 201, "{body}");
    let opened: typepper_api::room::Opened = serde_json::from_str(&body).unwrap();
    assert_eq!(
        opened.link,
        format!("http://typepper.test/?room={}", opened.code)
    );
    opened.code
}

async fn connect(srv: &Running, code: &str) -> Socket {
    let url = format!("ws://{}/v1/rooms/{code}/live", srv.addr);
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
async fn join(srv: &Running, code: &str, name: &str) -> (Socket, Option<u32>, String) {
    let hello = Ask::Hello {
        name: Some(name.into()),
        token: None,
        resume: None,
    };
    hello_as(srv, code, hello).await
}

/// Joins with `hello`. The welcome says the link that joins the room (whichever server
/// holds it), for a racer who came by its code alone.
async fn hello_as(srv: &Running, code: &str, hello: Ask) -> (Socket, Option<u32>, String) {
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
    let replay = synth(Mode::Zen, seed, &typist);
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
        let due = keys[sent..].iter().take_while(|(t, _)| *t <= now).count();
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
    if let Ok(url) = std::env::var("TYPEPPER_TEST_POSTGRES_URL") {
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
    let db = std::env::var("TYPEPPER_TEST_POSTGRES_URL")
        .ok()
        .map(|url| pg::FreshDb::create(&url));
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
        assert_eq!(rows[0].kept, "ranked");
        let run = rows[0].run.clone().unwrap();
        let (status, board) = request(srv, "GET", "/v1/boards/time:15", "").await;
        assert_eq!(status, 200, "{board}");
        let board: typepper_api::Board = serde_json::from_str(&board).unwrap();
        assert_eq!(board.rows[0].run, run);
        let (_, score) = replay.play().unwrap();
        assert_eq!(board.rows[0].score, score.headline().value);
    };
    match &pg {
        Some(pg) => tokio::join!(ranked(&srv), ranked(pg)).0,
        None => ranked(&srv).await,
    }
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
    let kept: Vec<_> = rows
        .iter()
        .map(|r| (r.run.is_some(), r.kept.as_str()))
        .collect();
    assert_eq!(
        kept,
        [
            (
                true,
                "unranked: raced as a guest: link a game to rank your rounds"
            ),
            (
                false,
                "not stored: guest rounds from your address are past this hour's 1: link a \
                 game to keep more"
            )
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_postgresql_hold_one_race_a_racer_on_each() {
    let Ok(url) = std::env::var("TYPEPPER_TEST_POSTGRES_URL") else {
        eprintln!("skipped: no PostgreSQL here (cargo xtask test starts one)");
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

/// The attack of a crash: the process holding a room dies (`kill -9`) while a racer on
/// another process waits in it. The racer is told the room's server is gone, within the
/// relay's silence (15 s), rather than waiting for ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_racer_is_told_when_the_rooms_server_dies() {
    let (Ok(url), Some(bin)) = (
        std::env::var("TYPEPPER_TEST_POSTGRES_URL"),
        std::env::var_os("TYPEPPER_SERVER_BIN"),
    ) else {
        eprintln!("skipped: no PostgreSQL or server binary here (cargo xtask test has both)");
        return;
    };
    let db = pg::FreshDb::create(&url);
    let dir = tempfile::tempdir().unwrap();
    let mut owner = std::process::Command::new(bin)
        .args([
            "--listen",
            "127.0.0.1:0",
            "--quiet",
            "--database-url",
            &db.url,
        ])
        .arg("--data-dir")
        .arg(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Killed when the test ends, however it ends.
    struct Kill(std::process::Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let stdout = owner.stdout.take().unwrap();
    let mut owner = Kill(owner);
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).unwrap();
    let at = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    let (status, body) = {
        let mut tcp = std::net::TcpStream::connect(at).unwrap();
        let body = r#"{"mode":"time:15"}"#;
        let head = format!(
            "POST /v1/rooms HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        std::io::Write::write_all(&mut tcp, head.as_bytes()).unwrap();
        let mut answer = String::new();
        std::io::Read::read_to_string(&mut tcp, &mut answer).unwrap();
        let status: u16 = answer[9..12].parse().unwrap();
        (
            status,
            answer
                .split("\r\n\r\n")
                .nth(1)
                .unwrap_or_default()
                .to_owned(),
        )
    };
    assert_eq!(status, 201, "{body}");
    let opened: typepper_api::room::Opened = serde_json::from_str(&body).unwrap();

    let other = start_on(Some(&db.url), |_| {}).await;
    let (mut grace, Some(_), _) = join(&other, &opened.code, "grace").await else {
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
    let got: Vec<_> = rows.iter().map(|r| (r.racer, r.headline.clone())).collect();
    assert_eq!(
        got,
        [
            (ada_id, ada_score.headline().to_string()),
            (grace_id, grace_score.headline().to_string())
        ]
    );
    // ada's round is her run: stored, shared, and its bytes are her keys' replay.
    let run = rows[0].run.clone().unwrap();
    assert_eq!(
        rows[0].share.as_deref(),
        Some(format!("http://typepper.test/r/{run}").as_str())
    );
    // A ZEN round of a few seconds: short of a ranked ZEN round's 30 s.
    assert_eq!(
        rows[0].kept,
        "unranked: a ranked ZEN round lasts at least 30 s"
    );
    let (status, _) = request(srv, "GET", &format!("/v1/runs/{run}"), "").await;
    assert_eq!(status, 200);
    let stored = srv.state.store.run(run.clone()).await.unwrap().unwrap();
    assert_eq!(stored.played.replay, ada_replay.encode());
    // grace isn't linked: her round is stored all the same, as a guest's, unranked.
    let guest = rows[1].run.clone().unwrap();
    assert_eq!(
        rows[1].kept,
        "unranked: raced as a guest: link a game to rank your rounds"
    );
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
    assert_eq!(srv.state.rooms.close_all("the server is stopping"), 2);
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timing_no_person_produces_puts_its_racer_out_at_the_end_of_the_round() {
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
    let why = until(&mut bot, |s| match s {
        Say::Out { racer, why } if *racer == bot_id => Some(why.clone()),
        _ => None,
    })
    .await;
    assert!(why.starts_with("timing as even as a metronome"), "{why}");
    let rows = until(&mut bot, |s| match s {
        Say::Results(rows) => Some(rows.clone()),
        _ => None,
    })
    .await;
    assert!(rows.is_empty(), "{rows:?}");
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
