//! The connection loop over real sockets: slow and silent clients are closed, the cap on
//! connections holds without starving anyone, a shutdown finishes what is in flight, and
//! a submission that waits on a locked database is answered as it was stored.
//!
//! The server runs in this process on port 0 with short limits (a second where the
//! defaults are ten), so that each test waits seconds, not minutes. A test waits for
//! what a limit does with a generous margin; it never asserts how fast anything is.

// Every value here is the test's own: a failed unwrap is a failed step, with its line.
#![allow(clippy::unwrap_used)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use typepper_engine::Mode;
use typepper_engine::synth::{Typist, synth};

use crate::support::running::start;

/// Reads until the server closes the connection or `limit` passes; what it read, and
/// whether it was closed.
fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> (String, bool) {
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let started = Instant::now();
    let mut got = vec![];
    let mut buf = [0u8; 4096];
    while started.elapsed() < limit {
        match stream.read(&mut buf) {
            Ok(0) => return (String::from_utf8_lossy(&got).into_owned(), true),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            // A reset is closed too.
            Err(_) => return (String::from_utf8_lossy(&got).into_owned(), true),
        }
    }
    (String::from_utf8_lossy(&got).into_owned(), false)
}

/// Runs blocking socket work off the test's runtime, which serves the server.
async fn off<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(f).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_sent_header_trickling_in_is_closed() {
    let srv = start(|_| {}).await;
    let addr = srv.addr;
    let (answer, closed, sent) = off(move || {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            .unwrap();
        // One more header line every 300 ms, for up to 9 s: far past the 1 s limit.
        let mut sent = 0;
        let mut reader = s.try_clone().unwrap();
        let watch =
            std::thread::spawn(move || read_until_closed(&mut reader, Duration::from_secs(30)));
        for i in 0..30 {
            std::thread::sleep(Duration::from_millis(300));
            if s.write_all(format!("X-Slow-{i}: yes\r\n").as_bytes())
                .is_err()
            {
                break;
            }
            sent += 1;
            if watch.is_finished() {
                break;
            }
        }
        let (answer, closed) = watch.join().unwrap();
        (answer, closed, sent)
    })
    .await;
    assert!(closed, "still open after {sent} lines");
    assert!(sent < 30, "every line was taken");
    assert!(!answer.contains(" 200 "), "it was answered: {answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_connection_and_an_idle_kept_alive_one_are_closed() {
    let srv = start(|_| {}).await;
    let addr = srv.addr;
    let (silent, idle, answer) = off(move || {
        let mut silent = TcpStream::connect(addr).unwrap();
        let mut idle = TcpStream::connect(addr).unwrap();
        idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        let (answer, _) = read_until_closed(&mut idle, Duration::from_millis(500));
        (
            read_until_closed(&mut silent, Duration::from_secs(30)).1,
            read_until_closed(&mut idle, Duration::from_secs(30)).1,
            answer,
        )
    })
    .await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(silent, "a connection that never sent a byte stayed open");
    assert!(idle, "a kept-alive connection stayed open idle");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_cap_a_connection_waits_and_is_served() {
    let srv = start(|c| c.max_connections = 2).await;
    let addr = srv.addr;
    let answer = off(move || {
        // Two silent clients hold both places; the third waits in the backlog until the
        // header timeout frees one.
        let _a = TcpStream::connect(addr).unwrap();
        let _b = TcpStream::connect(addr).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        let mut c = TcpStream::connect(addr).unwrap();
        c.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .unwrap();
        read_until_closed(&mut c, Duration::from_secs(30)).0
    })
    .await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
    assert!(answer.ends_with("ok\n"), "{answer:?}");
}

/// The body of a submission of one synthetic round as the player with `token`, with the
/// request head before it.
fn submission(token: &str, seed: u64) -> (Vec<u8>, Vec<u8>) {
    let round = synth(Mode::BLITZ_15, seed, &Typist::default());
    let claim = round.play().unwrap().1.headline().value;
    let body = typepper_api::submission([(claim, &round.encode()[..])]);
    let head = format!(
        "POST /v1/submit HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/octet-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    (head.into_bytes(), body)
}

fn link(addr: SocketAddr, name: &str) -> String {
    let body = format!(r#"{{"name": "{name}"}}"#);
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let (answer, _) = read_until_closed(&mut s, Duration::from_secs(10));
    let start = answer.find("\"token\":\"").unwrap() + 9;
    answer[start..start + 64].to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shutdown_finishes_the_request_in_flight_and_closes_the_rest() {
    let mut srv = start(|_| {}).await;
    let addr = srv.addr;
    let token = off(move || link(addr, "ada")).await;
    let (head, body) = submission(&token, 1);
    // Half a submission, then the shutdown, then the rest.
    let mut inflight = off(move || {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(&head).unwrap();
        s.write_all(&body[..body.len() / 2]).unwrap();
        (s, body)
    })
    .await;
    let silent = off(move || TcpStream::connect(addr).unwrap()).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let _ = srv.stop.take().unwrap().send(());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let answer = off(move || {
        let (s, body) = &mut inflight;
        s.write_all(&body[body.len() / 2..]).unwrap();
        read_until_closed(s, Duration::from_secs(30)).0
    })
    .await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\nok "), "{answer}");
    // The silent client doesn't hold the shutdown past its grace (2 s here).
    let stopped = tokio::time::timeout(Duration::from_secs(30), &mut srv.done).await;
    assert!(matches!(stopped, Ok(Ok(Ok(())))), "{stopped:?}");
    drop(silent);
}

/// With SQLite's write lock held elsewhere for 3 s and a 1 s request timeout, three
/// submits were once answered 408 and stored all the same. Now a submission waits for
/// the database and is answered as stored; one that can't get it at all is answered
/// 503, and nothing of it is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_submission_waiting_on_a_locked_database_is_answered_as_it_was_stored() {
    let srv = start(|c| c.request_timeout_secs = 1).await;
    let addr = srv.addr;
    let db = srv.dir.path().join("data/typepper.sqlite3");
    let token = off(move || link(addr, "ada")).await;
    let hold = |secs: u64| {
        let db = db.clone();
        std::thread::spawn(move || {
            let c = rusqlite::Connection::open(&db).unwrap();
            c.execute_batch("BEGIN IMMEDIATE").unwrap();
            std::thread::sleep(Duration::from_secs(secs));
            c.execute_batch("ROLLBACK").unwrap();
        })
    };
    let count = {
        let db = srv.dir.path().join("data/typepper.sqlite3");
        move || -> i64 {
            let c = rusqlite::Connection::open(&db).unwrap();
            c.query_row("SELECT count(*) FROM runs", [], |r| r.get(0))
                .unwrap()
        }
    };
    // Held 3 s: past the request timeout, within SQLite's busy timeout (5 s).
    let holder = hold(3);
    std::thread::sleep(Duration::from_millis(200));
    let t = token.clone();
    let answer = off(move || {
        let (head, body) = submission(&t, 1);
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(&head).unwrap();
        s.write_all(&body).unwrap();
        read_until_closed(&mut s, Duration::from_secs(30)).0
    })
    .await;
    holder.join().unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\nok "), "{answer}");
    assert_eq!(count(), 1);
    // Held 8 s: the database can't be had; the answer says nothing was stored.
    let holder = hold(8);
    std::thread::sleep(Duration::from_millis(200));
    let answer = off(move || {
        let (head, body) = submission(&token, 2);
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(&head).unwrap();
        s.write_all(&body).unwrap();
        read_until_closed(&mut s, Duration::from_secs(30)).0
    })
    .await;
    holder.join().unwrap();
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("nothing was stored"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("retry-after: "),
        "{answer}"
    );
    assert_eq!(count(), 1);
}
