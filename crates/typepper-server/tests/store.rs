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
