//! A database of the story's own on the server `TYPEPPER_TEST_POSTGRES_URL` names.
//!
//! Every run starts from an empty schema: the story connects to the server's `postgres`
//! maintenance database, creates `typepper_story_<random hex>` and points the store at
//! it; dropping [`FreshDb`] drops that database again (`WITH (FORCE)`, PostgreSQL 13 or
//! later, so that a connection the store left behind can't keep it). A fresh database
//! rather than a schema on `search_path`: the migrations then run exactly as they do in
//! production, on a database with nothing in it, and the URL's own database is never
//! touched.

use std::io::Write;
use std::sync::{Condvar, Mutex, MutexGuard};

use postgres::{Client, NoTls};

/// Who has the PostgreSQL server: the tests that share it, how many, or the one test that
/// stops it and starts it again, alone. The tests are one binary, and run at once.
struct Turns {
    sharing: usize,
    alone: bool,
}

static TURNS: Mutex<Turns> = Mutex::new(Turns {
    sharing: 0,
    alone: false,
});
/// Signalled as a turn ends.
static TURN_ENDED: Condvar = Condvar::new();

fn turns() -> MutexGuard<'static, Turns> {
    TURNS.lock().unwrap_or_else(|p| p.into_inner())
}

/// A test's turn on the server, given back when dropped. Not a `RwLock` guard: a test
/// hands its database to other threads (`spawn_blocking`), and a guard can't go with it.
struct Turn {
    alone: bool,
}

impl Turn {
    /// Shares the server with the other tests, once no test has it alone. It blocks the
    /// thread it is called on, an async test's too: a wait for another test to end.
    fn shared() -> Turn {
        let mut t = turns();
        while t.alone {
            t = TURN_ENDED.wait(t).unwrap_or_else(|p| p.into_inner());
        }
        t.sharing += 1;
        Turn { alone: false }
    }

    /// Has the server alone, once every test sharing it is done.
    fn alone() -> Turn {
        let mut t = turns();
        while t.alone || t.sharing > 0 {
            t = TURN_ENDED.wait(t).unwrap_or_else(|p| p.into_inner());
        }
        t.alone = true;
        Turn { alone: true }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let mut t = turns();
        if self.alone {
            t.alone = false;
        } else {
            t.sharing -= 1;
        }
        TURN_ENDED.notify_all();
    }
}

/// A database created for one run of the story, dropped with this.
pub struct FreshDb {
    /// The URL of the server's maintenance database, to drop it from.
    admin: String,
    /// Its name.
    name: String,
    /// Its URL, for the store.
    pub url: String,
    /// This test's turn on the server, given back after the database is dropped.
    _turn: Turn,
}

impl FreshDb {
    /// Creates an empty database on the server of `url` (a `postgres://` URL), shared
    /// with the other tests'.
    pub fn create(url: &str) -> FreshDb {
        FreshDb::on_turn(url, Turn::shared())
    }

    /// [`FreshDb::create`], for a test that stops the server: it waits until no other
    /// test uses the server, and the others wait until it is done.
    pub fn alone(url: &str) -> FreshDb {
        FreshDb::on_turn(url, Turn::alone())
    }

    fn on_turn(url: &str, turn: Turn) -> FreshDb {
        let mut random = [0u8; 8];
        getrandom::fill(&mut random).expect("the OS has randomness");
        let name: String = std::iter::once("typepper_story_".to_owned())
            .chain(random.iter().map(|b| format!("{b:02x}")))
            .collect();
        let admin = with_database(url, "postgres");
        let create = format!("CREATE DATABASE {name}");
        off_runtime(|| {
            let mut client = Client::connect(&admin, NoTls).unwrap_or_else(|e| {
                panic!("connecting to {admin} (from TYPEPPER_TEST_POSTGRES_URL): {e}")
            });
            client
                .batch_execute(&create)
                .unwrap_or_else(|e| panic!("creating the story's database: {e}"));
        });
        FreshDb {
            url: with_database(url, &name),
            admin,
            name,
            _turn: turn,
        }
    }

    /// Runs `sql` (any number of statements) on the database.
    #[allow(dead_code)] // The store tests set up old schemas; the HTTP tests don't.
    pub fn execute(&self, sql: &str) {
        off_runtime(|| {
            let mut client = Client::connect(&self.url, NoTls).expect("connecting");
            client.batch_execute(sql).expect("running the SQL");
        });
    }

    /// The one number `sql` selects, read beside the store's own connections.
    #[allow(dead_code)] // The store story doesn't count; the HTTP tests do.
    pub fn count(&self, sql: &str) -> i64 {
        off_runtime(|| {
            let mut client = Client::connect(&self.url, NoTls).expect("connecting to count");
            client.query_one(sql, &[]).expect("counting").get(0)
        })
    }

    /// The rows of three text columns `sql` selects.
    #[allow(dead_code)] // The store tests read the schema; the HTTP tests don't.
    pub fn rows(&self, sql: &str) -> Vec<(String, String, String)> {
        off_runtime(|| {
            let mut client = Client::connect(&self.url, NoTls).expect("connecting to read");
            let rows = client.query(sql, &[]).expect("reading");
            rows.iter()
                .map(|r| (r.get(0), r.get(1), r.get(2)))
                .collect()
        })
    }
}

/// Runs `f` on a thread of its own: the synchronous client drives a runtime of its own,
/// which may not start on a thread of the async tests'.
fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| s.spawn(f).join().expect("the database thread"))
}

impl Drop for FreshDb {
    fn drop(&mut self) {
        let drop = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
        let dropped = off_runtime(|| {
            Client::connect(&self.admin, NoTls).and_then(|mut c| c.batch_execute(&drop))
        });
        if let Err(e) = dropped {
            let _ = writeln!(
                std::io::stderr(),
                "could not drop the story's database {}: {e}",
                self.name
            );
        }
    }
}

/// `url` with its database (the path) replaced by `database`, its query kept.
///
/// Only the URL form: a `host=… dbname=…` string is no URL, and the store wouldn't take
/// one either (`store::open` tells them apart by the `postgres://` scheme).
fn with_database(url: &str, database: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or_else(|| {
        panic!("TYPEPPER_TEST_POSTGRES_URL must be a postgres:// URL, not {url:?}")
    });
    let (rest, query) = match rest.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (rest, None),
    };
    // A '/' or '?' in a user name or password is percent-encoded in a URL, so the
    // authority ends at the first '/'.
    let authority = rest
        .split_once('/')
        .map_or(rest, |(authority, _)| authority);
    match query {
        Some(q) => format!("{scheme}://{authority}/{database}?{q}"),
        None => format!("{scheme}://{authority}/{database}"),
    }
}

#[test]
fn a_url_gets_another_database_and_keeps_the_rest() {
    let cases = [
        (
            "postgres://u@127.0.0.1:5433/postgres",
            "postgres://u@127.0.0.1:5433/x",
        ),
        (
            "postgres://u:p%2Fq@h/db?sslmode=disable",
            "postgres://u:p%2Fq@h/x?sslmode=disable",
        ),
        ("postgresql://h", "postgresql://h/x"),
        (
            "postgres://h?connect_timeout=5",
            "postgres://h/x?connect_timeout=5",
        ),
    ];
    for (url, want) in cases {
        assert_eq!(with_database(url, "x"), want, "{url}");
    }
}
