//! The store's story: one script of calls and checks ([`story::story`]) played
//! against each backend, so that SQLite and PostgreSQL keep the same promises.
//!
//! 1. SQLite always runs, on a file in a temp dir.
//! 2. PostgreSQL runs when `TYPEPPER_TEST_POSTGRES_URL` names a server
//!    (`cargo xtask test` starts a throwaway one); the story gets a database of its own,
//!    created for the run and dropped after it ([`pg::FreshDb`]). Without the
//!    variable the test says it skipped and passes.

// The workspace warns on `unwrap` for input from outside; here every value is the story's
// own, and a failed unwrap is a failed step, with its line.
#![allow(clippy::unwrap_used)]

mod story;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::support::pg;
use typepper_server::store::sqlite::SqliteStore;
use typepper_server::store::{Done, Job, Options, Span, Step, Store, StoreError};

use story::{reopened, story};

/// The store `url` names, as the server opens it.
async fn open(url: &str) -> std::sync::Arc<dyn typepper_server::store::Store> {
    let options = Options::new(Some(url), std::path::Path::new("unused"));
    typepper_server::store::open(&options).await.unwrap()
}

#[tokio::test]
async fn sqlite_keeps_the_story() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("story.sqlite3");
    let url = path.to_str().unwrap();
    story(&*open(url).await).await;
    // Opening again runs no migration twice and finds the runs where they were.
    reopened(&*open(url).await).await;
}

#[tokio::test]
async fn sqlite_commits_many_submissions_as_one_group() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("group.sqlite3");
    let store = SqliteStore::open(&path, 64).unwrap();
    one_group(&store).await;
}

#[tokio::test]
async fn postgres_commits_many_submissions_as_one_group() {
    let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") else {
        return;
    };
    let db = pg::FreshDb::create(&url);
    one_group(&*open(&db.url).await).await;
    drop(db);
}

/// Submissions that wait while a writer is busy are committed together, as one group
/// (`--group-commit` 64): those given up on are skipped, those past their deadline
/// refused, and one that fails its own checks, or whose run can't be stored, fails alone
/// while the rest of its group is stored.
async fn one_group(store: &dyn Store) {
    let player = store
        .create_player("ada".into(), [1; 32], "dev".into(), 0)
        .await
        .unwrap()
        .id;
    let holding = Arc::new(AtomicBool::new(false));
    let job = |n: u8, deadline: Instant, slow: bool| {
        let run = story::run_for(player, n);
        let holding = holding.clone();
        Job {
            player,
            day: "2026-05-01".into(),
            keys: vec![],
            seeds: vec![],
            deadline,
            plan: Box::new(move |_| {
                if slow {
                    // Holds the writer, so that what comes meanwhile waits together.
                    holding.store(true, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(300));
                }
                Ok(vec![Step::Store(Box::new(run.clone()))])
            }),
        }
    };
    let later = Instant::now() + Duration::from_secs(60);
    let commits = store.commits().unwrap().0;
    let first = store.submit(job(0, later, true));
    while !holding.load(Ordering::SeqCst) {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    // While the first holds the writer: fifty-six more; one whose asker gives up; one
    // whose deadline has passed; one its checks refuse; one whose run id is another's.
    let waiting: Vec<_> = (1..=56)
        .map(|n| store.submit(job(n, later, false)))
        .collect();
    drop(store.submit(job(61, later, false)));
    let late = store.submit(job(62, Instant::now() - Duration::from_millis(1), false));
    let refused = store.submit(Job {
        plan: Box::new(|_| Err("not this one".into())),
        ..job(63, later, false)
    });
    let taken = store.submit(job(1, later, false));
    assert!(first.await.unwrap().is_ok());
    for answer in futures_join(waiting).await {
        assert!(matches!(&answer.unwrap().unwrap()[..], [Done::Stored(..)]));
    }
    assert!(matches!(late.await, Err(StoreError::Late)));
    assert_eq!(refused.await.unwrap(), Err("not this one".into()));
    let taken = taken.await;
    assert!(
        matches!(&taken, Err(StoreError::Db(why)) if why.contains("taken")),
        "{taken:?}"
    );
    let (now, carried) = store.commits().unwrap();
    assert!(
        now <= commits + 2,
        "fifty-seven submissions in {} commits",
        now - commits
    );
    assert!(carried >= 57, "{carried} submissions committed");
    for n in 0..=56 {
        let id = story::run_for(player, n).played.id;
        assert!(store.run(id).await.unwrap().is_some());
    }
    for gone in [61, 62, 63] {
        let id = story::run_for(player, gone).played.id;
        assert_eq!(store.run(id).await.unwrap(), None, "{gone} is not stored");
    }
}

/// Every future's output, in order, polled together.
async fn futures_join<T>(futures: Vec<impl std::future::Future<Output = T>>) -> Vec<T> {
    let mut out = vec![];
    for f in futures {
        out.push(f.await);
    }
    out
}

#[tokio::test]
async fn postgres_keeps_the_story() {
    let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") else {
        return;
    };
    let db = pg::FreshDb::create(&url);
    {
        story(&*open(&db.url).await).await;
        reopened(&*open(&db.url).await).await;
    }
    // The stores are dropped (their connections closed) before the database is.
    drop(db);
}

/// A database from before issued seeds: one player with a run that is her monthly best.
const BEFORE_SEEDS: &str = "
    INSERT INTO players (id, name, name_key, token_hash, created_ms) VALUES (1, 'ada', 'ada', X'01', 0);
    INSERT INTO players (id, name, name_key, token_hash, created_ms) VALUES (2, 'idle', 'idle', X'02', 0);
    INSERT INTO players (id, name, name_key, token_hash, created_ms) VALUES (3, 'Rnike_8', 'rnike_8', X'03', 10);
    INSERT INTO players (id, name, name_key, token_hash, created_ms) VALUES (4, 'mike-b', 'mike-b', X'04', 10);
    INSERT INTO runs (id, player_id, mode, score, wpm_x100, accuracy_x100, duration_ms,
                      created_ms, month, replay_hash, replay)
        VALUES ('abcdEFGH', 1, 'time:15', 90, 9000, 9700, 15000, 0, '1970-01', X'aa', X'545052');
    INSERT INTO bests (player_id, mode, month, run_id, score, wpm_x100, created_ms)
        VALUES (1, 'time:15', '1970-01', 'abcdEFGH', 90, 9000, 0);
    INSERT INTO pbs (player_id, mode, score, wpm_x100) VALUES (1, 'time:15', 90, 9000);
";

/// What the migration to issued seeds leaves of [`BEFORE_SEEDS`]: the run, unranked; no
/// board; the player who had a run kept when names are released, the other not.
async fn migrated(store: &dyn typepper_server::store::Store) {
    let run = store
        .run("abcdEFGH".into())
        .await
        .unwrap()
        .expect("the run is kept");
    assert_eq!(run.played.replay, b"TPR");
    assert_eq!(
        run.played.unranked.as_deref(),
        Some("played before the server issued seeds")
    );
    let board = store
        .board("time:15".into(), Span::month("1970-01"), 10)
        .await;
    assert!(board.unwrap().is_empty());
    let horizon = typepper_server::store::Horizon {
        runs_before_ms: 0,
        seeds_before_ms: 0,
        usage_before_day: "0000-00-00".into(),
        unused_players_before_ms: 1,
        deleted_rows_before_ms: 0,
        deleted_names_before_ms: 0,
    };
    assert_eq!(story::sweep_all(store, &horizon, 10).await.players, 1);
    let ada = store
        .create_player("ADA".into(), [3; 32], "dev".into(), 5)
        .await;
    assert!(ada.is_err(), "ada is kept");
    let idle = store
        .create_player("IDLE".into(), [4; 32], "dev".into(), 5)
        .await;
    assert!(idle.is_ok(), "idle is released");
    // The migration folds the names as `name_key` does: the older of two look-alikes
    // keeps the name, and neither can be taken again.
    for alike in ["mikeb", "MIKE8", "rn1ke-b"] {
        let taken = store
            .create_player(alike.into(), [9; 32], "dev".into(), 5)
            .await;
        assert!(taken.is_err(), "{alike} after Rnike_8 and mike-b");
    }
}

#[tokio::test]
async fn a_sqlite_database_from_before_issued_seeds_migrates() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite3");
    {
        let old = rusqlite::Connection::open(&path).unwrap();
        old.execute_batch(include_str!("../migrations/sqlite/0001_init.sql"))
            .unwrap();
        old.pragma_update(None, "user_version", 1).unwrap();
        old.execute_batch(BEFORE_SEEDS).unwrap();
    }
    migrated(&*open(path.to_str().unwrap()).await).await;
    // Its pages stay the size they were made (a page size is for new databases only).
    assert_eq!(page_size(&path), 4096);
}

#[tokio::test]
async fn a_new_sqlite_database_has_small_pages() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.sqlite3");
    story(&*open(path.to_str().unwrap()).await).await;
    assert_eq!(page_size(&path), 2048);
}

fn page_size(path: &std::path::Path) -> i64 {
    let c = rusqlite::Connection::open(path).unwrap();
    c.pragma_query_value(None, "page_size", |r| r.get(0))
        .unwrap()
}

#[tokio::test]
async fn a_postgres_database_from_before_issued_seeds_migrates() {
    let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") else {
        return;
    };
    let db = pg::FreshDb::create(&url);
    // bytea's hex form where SQLite writes a blob literal.
    db.execute(&format!(
        "{}
         CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY);
         INSERT INTO schema_migrations VALUES (1);
         {}",
        include_str!("../migrations/postgres/0001_init.sql"),
        BEFORE_SEEDS.replace("X'", "'\\x")
    ));
    migrated(&*open(&db.url).await).await;
    drop(db);
}

/// A PostgreSQL that takes the connection and never answers: opening gives up after the
/// connect timeout instead of hanging.
#[tokio::test]
async fn a_postgres_that_never_answers_fails_fast() {
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("postgres://x@{}/typepper", silent.local_addr().unwrap());
    let mut options = Options::new(Some(&url), std::path::Path::new("unused"));
    options.pg_timeout = Duration::from_secs(1);
    // Not a timing assertion: the guard only turns a hang into a failure.
    let opened = tokio::time::timeout(
        Duration::from_secs(60),
        typepper_server::store::open(&options),
    )
    .await;
    let Ok(Err(e)) = opened else {
        panic!(
            "opening a silent PostgreSQL did not fail: {:?}",
            opened.map(|r| r.is_ok())
        );
    };
    let said = format!("{e:#}").to_lowercase();
    assert!(
        said.contains("timeout") || said.contains("timed out"),
        "{said}"
    );
    drop(silent);
}

/// With every pooled connection busy, a request waits at most the pool timeout, then is
/// told the database is unavailable (503), instead of waiting for ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_postgres_pool_makes_a_request_wait_no_longer_than_its_timeout() {
    let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") else {
        return;
    };
    let db = pg::FreshDb::create(&url);
    let mut options = Options::new(Some(&db.url), std::path::Path::new("unused"));
    options.pg_connections = 1;
    options.pg_timeout = Duration::from_secs(1);
    let store = typepper_server::store::open(&options).await.unwrap();
    // Another client holds a lock on runs for 4 s; a read of a run waits on it, holding
    // the pool's only connection.
    let (locked, held) = std::sync::mpsc::channel();
    let locker = {
        let url = db.url.clone();
        std::thread::spawn(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            let mut tx = c.transaction().unwrap();
            tx.batch_execute("LOCK TABLE runs IN ACCESS EXCLUSIVE MODE")
                .unwrap();
            locked.send(()).unwrap();
            std::thread::sleep(Duration::from_secs(4));
            tx.commit().unwrap();
        })
    };
    held.recv().unwrap();
    let slow = {
        let store = store.clone();
        tokio::spawn(async move { store.run("aaaaaaaa".into()).await })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !slow.is_finished(),
        "the first read did not wait on the lock"
    );
    let waited = store.run("bbbbbbbb".into()).await;
    assert!(
        matches!(waited, Err(StoreError::Unavailable(_))),
        "{waited:?}"
    );
    assert!(matches!(slow.await.unwrap(), Ok(None)));
    locker.join().unwrap();
    drop(store);
    drop(db);
}

/// A fresh store on each backend there is: SQLite in a temp dir, and PostgreSQL when
/// `TYPEPPER_TEST_POSTGRES_URL` names one. Each comes with a way to run SQL beside it.
async fn each_store() -> Vec<(Arc<dyn typepper_server::store::Store>, Backdoor)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("each.sqlite3");
    let mut out = vec![(
        open(path.to_str().unwrap()).await,
        Backdoor::Sqlite(path, dir),
    )];
    if let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") {
        let db = pg::FreshDb::create(&url);
        out.push((open(&db.url).await, Backdoor::Postgres(db)));
    }
    out
}

/// SQL run on a store's database beside the store, as an operator (or a bug) would.
enum Backdoor {
    /// The file, and the dir that holds it (kept while the store is used).
    Sqlite(std::path::PathBuf, #[allow(dead_code)] tempfile::TempDir),
    Postgres(pg::FreshDb),
}

impl Backdoor {
    fn execute(&self, sql: &str) {
        match self {
            Backdoor::Sqlite(path, _) => rusqlite::Connection::open(path)
                .unwrap()
                .execute_batch(sql)
                .unwrap(),
            Backdoor::Postgres(db) => db.execute(sql),
        }
    }

    /// Every `(table, column, referenced table or "")` of the schema whose column is
    /// named `player_id` or `run_id`, or is a foreign key.
    fn references(&self) -> Vec<(String, String, String)> {
        match self {
            Backdoor::Sqlite(path, _) => {
                let c = rusqlite::Connection::open(path).unwrap();
                let mut s = c
                    .prepare(
                        "SELECT m.name, i.name, coalesce(
                             (SELECT f.\"table\" FROM pragma_foreign_key_list(m.name) f
                              WHERE f.\"from\" = i.name), '')
                         FROM sqlite_master m, pragma_table_info(m.name) i
                         WHERE m.type = 'table'",
                    )
                    .unwrap();
                s.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                    .unwrap()
                    .map(Result::unwrap)
                    .collect()
            }
            Backdoor::Postgres(db) => db.rows(
                "SELECT c.table_name::text, c.column_name::text, coalesce(
                     (SELECT ccu.table_name::text
                      FROM information_schema.key_column_usage k
                      JOIN information_schema.referential_constraints rc
                        ON rc.constraint_name = k.constraint_name
                      JOIN information_schema.constraint_column_usage ccu
                        ON ccu.constraint_name = rc.unique_constraint_name
                      WHERE k.table_name = c.table_name AND k.column_name = c.column_name
                      LIMIT 1), '')
                 FROM information_schema.columns c WHERE c.table_schema = 'public'",
            ),
        }
        .into_iter()
        .filter(|(_, column, to)| column == "player_id" || column == "run_id" || !to.is_empty())
        .collect()
    }
}

#[tokio::test]
async fn a_linked_ssh_key_never_stops_retention() {
    for (store, _db) in each_store().await {
        story::a_linked_key_never_stops_retention(&*store).await;
    }
}

/// A table no one cleans that refers to one unused player: its batch fails, is said, and
/// the sweep goes on to the players after it and to the other kinds.
#[tokio::test]
async fn a_batch_that_fails_is_stepped_over() {
    for (store, db) in each_store().await {
        let names = ["early", "stuck", "later"];
        let mut ids = vec![];
        for (n, name) in names.into_iter().enumerate() {
            let p = store
                .create_player(name.into(), [n as u8 + 1; 32], "dev".into(), 1_000)
                .await
                .unwrap();
            ids.push(p.id);
        }
        db.execute(&format!(
            "CREATE TABLE mischief (player_id BIGINT NOT NULL REFERENCES players(id));
             INSERT INTO mischief VALUES ({});",
            ids[1]
        ));
        let horizon = typepper_server::store::Horizon {
            runs_before_ms: 0,
            seeds_before_ms: 0,
            usage_before_day: "0000-00-00".into(),
            unused_players_before_ms: 2_000,
            deleted_rows_before_ms: 0,
            deleted_names_before_ms: 0,
        };
        let swept = typepper_server::sweep::sweep(&*store, &horizon, 1).await;
        assert_eq!((swept.players, swept.failed), (2, 1), "{swept:?}");
        for (n, released) in [true, false, true].into_iter().enumerate() {
            let found = store.player_by_token([n as u8 + 1; 32]).await.unwrap();
            assert_eq!(found.is_none(), released, "{}", names[n]);
        }
    }
}

/// The attempt: many asks for a quote's seed at once, from one player (several tabs, a
/// script), each reading the passages shown before the others wrote theirs, to be issued
/// one passage twice and get a second first try. Each ask waits for the one before it.
#[tokio::test]
async fn asks_for_a_quote_at_once_never_issue_one_passage_twice() {
    use std::collections::HashSet;
    use typepper_server::store::{IssuedSeed, Pick};
    const POOL: [&str; 6] = [
        "quote:1", "quote:2", "quote:3", "quote:4", "quote:5", "quote:6",
    ];
    for (store, _db) in each_store().await {
        let ada = store
            .create_player("ada".into(), [1; 32], "dev".into(), 0)
            .await
            .unwrap();
        let asks = (0..8u64).map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                let seed = IssuedSeed {
                    seed: 100 + i,
                    player: ada.id,
                    mode: String::new(),
                    issued_ms: 0,
                    expires_ms: 3_600_000,
                    run: None,
                    room: false,
                };
                let pick: Pick = Box::new(|shown: &HashSet<String>| {
                    (POOL.iter())
                        .find(|q| !shown.contains(**q))
                        .map(|q| (*q).to_owned())
                });
                store.issue_quote(seed, pick, 32).await.unwrap()
            })
        });
        let mut issued = vec![];
        for ask in asks.collect::<Vec<_>>() {
            issued.push(ask.await.unwrap());
        }
        let modes: HashSet<String> = issued.iter().flatten().map(|s| s.mode.clone()).collect();
        assert_eq!(modes.len(), POOL.len(), "{issued:?}");
        assert_eq!(issued.iter().filter(|s| s.is_none()).count(), 2);
    }
}

/// Every table that refers to a player is one retention cleans when it releases the
/// player, and no table has a foreign key to a run (retention deletes runs): a table
/// added without either fails here, on each backend's own schema.
#[tokio::test]
async fn every_table_that_refers_to_players_or_runs_is_cleaned() {
    use typepper_server::store::{PLAYER_ROWS, RUN_REFERENCES};
    for (_store, db) in each_store().await {
        let references = db.references();
        assert!(!references.is_empty());
        for (table, column, to) in references {
            let what = format!("{table}.{column} (refers to {to:?})");
            if column == "player_id" || to == "players" {
                assert!(PLAYER_ROWS.contains(&table.as_str()), "{what}: not cleaned");
            }
            if to == "runs" {
                panic!("{what}: a foreign key to runs stops retention");
            }
            if column == "run_id" {
                assert!(
                    RUN_REFERENCES.iter().any(|(t, _)| *t == table),
                    "{what}: not known to retention"
                );
            }
        }
    }
}

/// One submission of the together test: whose, its round's key and seed, and what its
/// plan does.
struct Spec {
    player: usize,
    key: u8,
    seed: Option<u64>,
    score: u32,
    ranked: bool,
    /// Its plan refuses it.
    refused: bool,
    /// Its plan stores a second run too.
    twice: bool,
    /// Its run's id is another's, the first time.
    taken: bool,
}

/// A job of [`Spec`]'s, numbered `n`, whose plan stores what it read: a digest of its
/// `Known` goes into its run's duration, so that a job that read otherwise stores
/// otherwise. A round already stored with its key is refused as a copy.
fn spec_job(spec: &Spec, n: u8, players: &[i64], slow: Option<Arc<AtomicBool>>) -> Job {
    let player = players[spec.player];
    let first_player = players[0];
    let key = [spec.key; 32];
    let mut first = true;
    let (seed, score, ranked, refused, twice, taken) = (
        spec.seed,
        spec.score,
        spec.ranked,
        spec.refused,
        spec.twice,
        spec.taken,
    );
    Job {
        player,
        day: "2026-03-01".into(),
        keys: vec![key],
        seeds: seed.into_iter().collect(),
        deadline: Instant::now() + Duration::from_secs(60),
        plan: Box::new(move |known| {
            if let Some(holding) = &slow {
                holding.store(true, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(300));
            }
            if refused {
                return Err("not this one".into());
            }
            if known.rounds.iter().any(|r| r.key == key) {
                return Err("a copy".into());
            }
            // In any order: the order rows come in is not what a plan reads.
            let mut read: Vec<String> = (known.rounds.iter().map(|r| format!("{r:?}")))
                .chain(known.seeds.iter().map(|s| format!("{s:?}")))
                .chain(known.record.pending.iter().map(|p| format!("{p:?}")))
                .collect();
            read.sort();
            read.push(format!(
                "{:?} {} {:?}",
                known.usage, known.record.banned, known.record.best_wpm_x100
            ));
            let digest = read.concat().bytes().fold(2_166_136_261u32, |h, b| {
                (h ^ u32::from(b)).wrapping_mul(16_777_619)
            });
            let mut run = story::run_for(player, n);
            if taken && first {
                // Run 0's id: stored before this group.
                run.played.id = story::run_for(first_player, 0).played.id;
            }
            first = false;
            run.played.score = score;
            run.played.wpm_x100 = score * 100;
            run.played.duration_ms = digest % 1_000_000;
            run.played.unranked = (!ranked).then(|| "practice".into());
            run.round.key = key;
            run.round.seed = seed.unwrap_or(u64::from(n));
            run.uses_seed = seed.filter(|s| known.seeds.iter().any(|k| k.seed == *s));
            let mut steps = vec![Step::Store(Box::new(run.clone()))];
            if twice {
                run.played.id.push('x');
                run.round.key = [key[0].wrapping_add(128); 32];
                steps.push(Step::Store(Box::new(run)));
            }
            Ok(steps)
        }),
    }
}

/// Plays `groups` of specs into `store`: the first job of each group holds the one
/// writer while the rest queue behind it. What became of each job.
async fn play_specs(store: &dyn Store, groups: &[Vec<Spec>], players: &[i64]) -> Vec<String> {
    let mut out = vec![];
    let mut n = 0u8;
    for group in groups {
        let holding = Arc::new(AtomicBool::new(false));
        let mut answers = vec![];
        for (i, spec) in group.iter().enumerate() {
            let slow = (i == 0).then(|| holding.clone());
            answers.push(store.submit(spec_job(spec, n, players, slow)));
            n += 1;
            if i == 0 {
                while !holding.load(Ordering::SeqCst) {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
            }
        }
        for answer in futures_join(answers).await {
            // What a player is told, and what a stored run read (its duration), shortly.
            out.push(match answer {
                Ok(Ok(done)) => done
                    .iter()
                    .map(|d| match d {
                        Done::Stored(run, stored) => format!(
                            "{} {} read {} pb {}",
                            run.played.id, run.played.score, run.played.duration_ms, stored.pb
                        ),
                        Done::Answered(answer) => format!("{answer:?}"),
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                other => format!("{other:?}"),
            });
        }
    }
    out
}

/// Everything the submissions wrote, table by table, a row a line.
fn dump(db: &pg::FreshDb) -> Vec<String> {
    [
        "SELECT id, player_id, mode, score, wpm_x100, duration_ms, unranked FROM runs",
        "SELECT encode(round_key, 'hex'), run_id, player_id, seed FROM rounds",
        "SELECT player_id, day, runs, bytes FROM usage",
        "SELECT id, used, best_x100, record_x100, best_day FROM players",
        "SELECT player_id, mode, month, run_id, score FROM bests",
        "SELECT player_id, mode, score, wpm_x100 FROM pbs",
        "SELECT seed, player_id, run_id FROM seeds",
    ]
    .iter()
    .flat_map(|sql| {
        db.rows(&format!(
            "SELECT row_to_json(t)::text, '', '' FROM ({sql}) t ORDER BY 1"
        ))
        .into_iter()
        .map(|(row, _, _)| row)
    })
    .collect()
}

/// A group's submissions that share no player, key or seed are done together, in a few
/// multi-row statements; the rest one by one. Whatever the mix (a player twice, a copy,
/// two rounds on one issued seed, a refusal, a plan storing two runs, a taken run id),
/// what each is answered and what the database holds after are exactly what one commit
/// a submission gives.
#[tokio::test]
async fn postgres_submissions_done_together_store_what_one_by_one_stores() {
    let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") else {
        return;
    };
    let spec = |player, key, seed, score| Spec {
        player,
        key,
        seed,
        score,
        ranked: true,
        refused: false,
        twice: false,
        taken: false,
    };
    let groups = vec![
        vec![
            spec(0, 1, None, 50),
            spec(1, 2, Some(1001), 60),
            spec(2, 3, Some(1002), 70),
            spec(3, 4, None, 40),
            // Player 1 again, a better round: after the first.
            spec(1, 5, None, 65),
            // A copy of player 3's round by player 4.
            spec(4, 4, None, 41),
            // Player 6 on player 2's seed.
            spec(6, 7, Some(1002), 71),
            Spec {
                refused: true,
                ..spec(5, 8, None, 80)
            },
            Spec {
                twice: true,
                ..spec(7, 9, None, 90)
            },
            Spec {
                ranked: false,
                ..spec(5, 10, Some(1005), 30)
            },
        ],
        vec![
            spec(0, 20, None, 55),
            // A taken id: the group is done again one by one.
            Spec {
                taken: true,
                ..spec(2, 21, None, 75)
            },
            spec(3, 22, None, 45),
            spec(4, 23, None, 20),
        ],
        vec![
            spec(0, 30, None, 10),
            spec(1, 31, None, 99),
            spec(2, 32, None, 60),
            spec(6, 33, Some(1006), 61),
            spec(7, 34, None, 91),
        ],
    ];
    let mut seen = vec![];
    for group_commit in [64, 1] {
        let db = pg::FreshDb::create(&url);
        let options = Options {
            group_commit,
            pg_writers: 1,
            ..Options::new(Some(&db.url), std::path::Path::new("unused"))
        };
        let store = typepper_server::store::open(&options).await.unwrap();
        let mut players = vec![];
        for p in 0..8u8 {
            let name = format!("p{p}");
            players.push(
                store
                    .create_player(name, [p; 32], "dev".into(), 0)
                    .await
                    .unwrap()
                    .id,
            );
        }
        for seed in [1001, 1002, 1005, 1006] {
            let issued = typepper_server::store::IssuedSeed {
                seed,
                player: players[(seed % 10) as usize],
                mode: typepper_engine::Mode::BLITZ_15.key(),
                issued_ms: 0,
                expires_ms: i64::MAX,
                run: None,
                room: false,
            };
            store.issue_seed(issued, 10).await.unwrap();
        }
        let commits = store.commits().unwrap().0;
        let answers = play_specs(&*store, &groups, &players).await;
        let trips = store.round_trips().unwrap().1;
        let commits = store.commits().unwrap().0 - commits;
        seen.push((answers, dump(&db), commits, trips));
        drop(store);
        drop(db);
    }
    let (together, alone) = (&seen[0], &seen[1]);
    assert_eq!(together.0, alone.0, "the answers");
    assert_eq!(together.1, alone.1, "what the database holds");
    assert!(together.1.iter().any(|r| r.contains("\"used\":true")));
    assert_eq!(alone.2, 19, "one by one: a commit each");
    assert!(together.2 <= 6, "{} commits for three groups", together.2);
    assert!(
        together.3 < alone.3,
        "round trips together {} and alone {}",
        together.3,
        alone.3
    );
}
