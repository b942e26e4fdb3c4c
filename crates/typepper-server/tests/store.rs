//! The store's story: one script of calls and checks ([`store::story::story`]) played
//! against each backend, so that SQLite and PostgreSQL keep the same promises.
//!
//! 1. SQLite always runs, on a file in a temp dir.
//! 2. PostgreSQL runs when `TYPEPPER_TEST_POSTGRES_URL` names a server
//!    (`cargo xtask test` starts a throwaway one); the story gets a database of its own,
//!    created for the run and dropped after it ([`store::pg::FreshDb`]). Without the
//!    variable the test says it skipped and passes.

// The workspace warns on `unwrap` for input from outside; here every value is the story's
// own, and a failed unwrap is a failed step, with its line.
#![allow(clippy::unwrap_used)]

mod store {
    pub mod pg;
    pub mod story;
}

use std::io::Write;

use typepper_server::store::postgres::PgStore;
use typepper_server::store::sqlite::SqliteStore;

use store::story::{reopened, story};

#[test]
fn sqlite_keeps_the_story() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("story.sqlite3");
    story(&SqliteStore::open(&path).unwrap());
    // Opening again runs no migration twice and finds the runs where they were.
    reopened(&SqliteStore::open(&path).unwrap());
}

#[test]
fn postgres_keeps_the_story() {
    let Ok(url) = std::env::var("TYPEPPER_TEST_POSTGRES_URL") else {
        // Straight to stderr: the test harness would swallow `eprintln!` of a passing test.
        let _ = writeln!(
            std::io::stderr(),
            "skipped the PostgreSQL store story: TYPEPPER_TEST_POSTGRES_URL is not set \
             (a postgres:// URL of a server where databases may be created; \
             `cargo xtask test` starts one)"
        );
        return;
    };
    let db = store::pg::FreshDb::create(&url);
    {
        let first = PgStore::open(&db.url).unwrap();
        story(&first);
        let again = PgStore::open(&db.url).unwrap();
        reopened(&again);
    }
    // The stores are dropped (their connections closed) before the database is.
    drop(db);
}

/// A database from before issued seeds: one player with a run that is her monthly best.
const BEFORE_SEEDS: &str = "
    INSERT INTO players (id, name, name_key, token_hash, created_ms) VALUES (1, 'ada', 'ada', X'01', 0);
    INSERT INTO players (id, name, name_key, token_hash, created_ms) VALUES (2, 'idle', 'idle', X'02', 0);
    INSERT INTO runs (id, player_id, mode, score, wpm_x100, accuracy_x100, duration_ms,
                      created_ms, month, replay_hash, replay)
        VALUES ('abcdEFGH', 1, 'time:15', 90, 9000, 9700, 15000, 0, '1970-01', X'aa', X'545052');
    INSERT INTO bests (player_id, mode, month, run_id, score, wpm_x100, created_ms)
        VALUES (1, 'time:15', '1970-01', 'abcdEFGH', 90, 9000, 0);
    INSERT INTO pbs (player_id, mode, score, wpm_x100) VALUES (1, 'time:15', 90, 9000);
";

/// What the migration to issued seeds leaves of [`BEFORE_SEEDS`]: the run, unranked; no
/// board; the player who had a run kept when names are released, the other not.
fn migrated(store: &dyn typepper_server::store::Store) {
    let run = store.run("abcdEFGH").unwrap().expect("the run is kept");
    assert_eq!(run.replay, b"TPR");
    assert_eq!(
        run.unranked.as_deref(),
        Some("played before the server issued seeds")
    );
    assert!(store.board("time:15", "1970-01", 10).unwrap().is_empty());
    let horizon = typepper_server::store::Horizon {
        runs_before_ms: 0,
        seeds_before_ms: 0,
        usage_before_day: "0000-00-00".into(),
        unused_players_before_ms: 1,
    };
    assert_eq!(store.sweep(&horizon, 10).unwrap().players, 1);
    assert!(
        store.create_player("ADA", &[3; 32], 5).is_err(),
        "ada is kept"
    );
    assert!(
        store.create_player("IDLE", &[4; 32], 5).is_ok(),
        "idle is released"
    );
}

#[test]
fn a_sqlite_database_from_before_issued_seeds_migrates() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite3");
    {
        let old = rusqlite::Connection::open(&path).unwrap();
        old.execute_batch(include_str!("../migrations/sqlite/0001_init.sql"))
            .unwrap();
        old.pragma_update(None, "user_version", 1).unwrap();
        old.execute_batch(BEFORE_SEEDS).unwrap();
    }
    migrated(&SqliteStore::open(&path).unwrap());
}

#[test]
fn a_postgres_database_from_before_issued_seeds_migrates() {
    let Ok(url) = std::env::var("TYPEPPER_TEST_POSTGRES_URL") else {
        let _ = writeln!(
            std::io::stderr(),
            "skipped: TYPEPPER_TEST_POSTGRES_URL is not set (cargo xtask test sets it)"
        );
        return;
    };
    let db = store::pg::FreshDb::create(&url);
    {
        let mut old = postgres::Client::connect(&db.url, postgres::NoTls).unwrap();
        old.batch_execute(include_str!("../migrations/postgres/0001_init.sql"))
            .unwrap();
        old.batch_execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY);
             INSERT INTO schema_migrations VALUES (1);",
        )
        .unwrap();
        // bytea's hex form where SQLite writes a blob literal.
        old.batch_execute(&BEFORE_SEEDS.replace("X'", "'\\x"))
            .unwrap();
        migrated(&PgStore::open(&db.url).unwrap());
    }
    drop(db);
}
