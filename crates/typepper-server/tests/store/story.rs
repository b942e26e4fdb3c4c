//! One season of typepper, told to a [`Store`]: players link, seeds are issued, runs
//! arrive in batches over two months, boards are read, and retention sweeps behind them.
//!
//! The numbers on each run (score, wpm) are chosen to tell the story; the replay bytes
//! are real rounds from the synthetic typist, because to the store a replay is only bytes
//! to keep exactly, and one run carries every byte value to prove it.

use sha2::{Digest, Sha256};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use typepper_engine::Blitz::{S15, S30, S60};
use typepper_engine::synth::{Typist, synth};
use typepper_engine::{Base, Blitz, Mode};
use typepper_server::month_of;

use std::collections::HashSet;
use typepper_server::store::{
    BoardRow, Done, Horizon, IssuedSeed, Job, Known, NewRun, Pick, Played, Player, PlayerId,
    Ranked, RoundPrint, Run, Span, Step, Store, StoreError, Stored, Swept, Usage,
};

const DAY: i64 = 86_400_000;
/// 2026-03-01T00:00Z.
const MARCH: i64 = 1_772_323_200_000;
/// 2026-04-01T00:00Z.
const APRIL: i64 = 1_775_001_600_000;

fn blitz15() -> String {
    Mode::BLITZ_15.key()
}

fn blitz30() -> String {
    Mode::BLITZ_30.key()
}

/// A real round's bytes, a different round for every id.
fn replay_for(id: &str, blitz: Blitz) -> Vec<u8> {
    let seed = id
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(131) + u64::from(b));
    synth(Mode::plain(Base::Blitz(blitz)), seed, &Typist::default()).encode()
}

fn hash(replay: &[u8]) -> [u8; 32] {
    Sha256::digest(replay).into()
}

/// A run as the server would store it, with `replay` as its bytes.
fn run_with(
    id: &str,
    player: &Player,
    blitz: Blitz,
    (score, wpm_x100): (u32, u32),
    created_ms: i64,
    replay: Vec<u8>,
) -> NewRun {
    let round = RoundPrint {
        key: hash(&replay),
        blocks: vec![score as u8],
        seed: u64::from_le_bytes(hash(&replay)[..8].try_into().unwrap()),
        prefix: vec![],
    };
    NewRun {
        played: Played {
            id: id.to_owned(),
            mode: Mode::plain(Base::Blitz(blitz)).key(),
            score,
            wpm_x100,
            accuracy_x100: 9_000 + score,
            duration_ms: blitz.secs() * 1000,
            created_ms,
            replay,
            unranked: None,
            pending: None,
        },
        player: player.id,
        month: month_of(created_ms),
        day: typepper_api::Utc::of(created_ms).day(),
        round,
        confirms: vec![],
        uses_seed: None,
        daily: None,
    }
}

/// A run of `player` numbered `n`, with a real round of its own.
#[allow(dead_code)] // For the group commit test, in the same crate.
pub fn run_for(player: PlayerId, n: u8) -> NewRun {
    let who = Player {
        id: player,
        name: String::new(),
    };
    run(
        &format!("grp{n:05}"),
        &who,
        S15,
        (40 + u32::from(n), 4000),
        MARCH,
    )
}

/// A job for `player` on `keys` and `seeds` whose plan is `plan`.
fn job(
    player: PlayerId,
    keys: Vec<[u8; 32]>,
    seeds: Vec<u64>,
    plan: impl FnMut(&Known) -> Result<Vec<Step>, String> + Send + 'static,
) -> Job {
    Job {
        player,
        day: "2026-05-01".into(),
        keys,
        seeds,
        deadline: Instant::now() + Duration::from_secs(60),
        plan: Box::new(plan),
    }
}

/// Stores `runs` in one transaction, as a submission does: all or none.
async fn insert(store: &dyn Store, runs: &[NewRun]) -> Result<Vec<Stored>, StoreError> {
    let steps: Vec<Step> = runs
        .iter()
        .cloned()
        .map(|r| Step::Store(Box::new(r)))
        .collect();
    let player = runs.first().map_or(0, |r| r.player);
    let done = store
        .submit(job(player, vec![], vec![], move |_| Ok(steps.clone())))
        .await?
        .expect("the plan stores");
    Ok(done
        .into_iter()
        .map(|d| match d {
            Done::Stored(_, stored) => stored,
            Done::Answered(line) => panic!("answered {line}"),
        })
        .collect())
}

/// What a submission for `player` on `keys` and `seeds` finds, storing nothing.
async fn known(store: &dyn Store, player: PlayerId, keys: Vec<[u8; 32]>, seeds: Vec<u64>) -> Known {
    known_on(store, player, keys, seeds, "2026-05-01").await
}

/// The same, for a submission on UTC `day`.
async fn known_on(
    store: &dyn Store,
    player: PlayerId,
    keys: Vec<[u8; 32]>,
    seeds: Vec<u64>,
    day: &str,
) -> Known {
    let seen = Arc::new(Mutex::new(None));
    let keep = seen.clone();
    let plan = move |known: &Known| {
        *keep.lock().unwrap() = Some(known.clone());
        Err("looked only".into())
    };
    let mut job = job(player, keys, seeds, plan);
    job.day = day.to_owned();
    let answer = store.submit(job).await.unwrap();
    assert_eq!(answer, Err("looked only".into()));
    let known = seen.lock().unwrap().take();
    known.expect("the plan ran")
}

/// The runs a stored round with `run`'s fingerprint key points at.
async fn rounds_of(store: &dyn Store, run: &NewRun) -> Vec<String> {
    known(store, run.player, vec![run.round.key], vec![])
        .await
        .rounds
        .into_iter()
        .map(|k| k.run)
        .collect()
}

/// Every row expired at `horizon`, deleted in batches of `batch`, none of which fails.
pub async fn sweep_all(store: &dyn Store, horizon: &Horizon, batch: u32) -> Swept {
    let swept = typepper_server::sweep::sweep(store, horizon, batch).await;
    assert_eq!(swept.failed, 0, "no batch fails: {swept:?}");
    swept
}

/// The runs a sweep at these times deletes, in batches of `batch`.
async fn sweep(store: &dyn Store, runs_before_ms: i64, batch: u32) -> u64 {
    let horizon = Horizon {
        runs_before_ms,
        seeds_before_ms: 0,
        usage_before_day: "0000-00-00".into(),
        unused_players_before_ms: 0,
        deleted_rows_before_ms: 0,
        deleted_names_before_ms: 0,
    };
    sweep_all(store, &horizon, batch).await.runs
}

/// A run with a real round of its own as the replay.
fn run(id: &str, player: &Player, blitz: Blitz, score: (u32, u32), created_ms: i64) -> NewRun {
    run_with(id, player, blitz, score, created_ms, replay_for(id, blitz))
}

/// What a board shows, short enough to compare a whole board at a glance.
fn shown(board: &[BoardRow]) -> Vec<(u32, &str, u32, u32, &str)> {
    board
        .iter()
        .map(|r| (r.rank, r.name.as_str(), r.score, r.wpm_x100, r.run.as_str()))
        .collect()
}

fn pbs(stored: &[Stored]) -> Vec<bool> {
    stored.iter().map(|s| s.pb).collect()
}

/// Every run a board links to is there to play, with the bytes it was stored with.
async fn board_plays(store: &dyn Store, board: &[BoardRow], stored: &[&NewRun]) {
    for row in board {
        let run = store
            .run(String::from(&row.run))
            .await
            .unwrap()
            .unwrap_or_else(|| {
                panic!(
                    "board row {} links to run {}, which is gone",
                    row.rank, row.run
                )
            });
        let kept = stored
            .iter()
            .find(|r| r.played.id == row.run)
            .expect("a run of the story");
        assert_eq!(run.played.replay, kept.played.replay, "run {}", row.run);
    }
}

/// The story. Every step checks what the one before it left.
pub async fn story(store: &dyn Store) {
    // --- Players link a game by name; names are unique ignoring case.
    let ana = store
        .create_player(String::from("ana"), [1; 32], "dev".into(), MARCH)
        .await
        .unwrap();
    let bob = store
        .create_player(String::from("Bob"), [2; 32], "dev".into(), MARCH)
        .await
        .unwrap();
    let cy = store
        .create_player(String::from("cy"), [3; 32], "dev".into(), MARCH)
        .await
        .unwrap();
    let zoe = store
        .create_player(String::from("Zoë"), [4; 32], "dev".into(), MARCH)
        .await
        .unwrap();
    assert_eq!(ana.name, "ana");
    assert_eq!(zoe.name, "Zoë");
    let mut ids = vec![ana.id, bob.id, cy.id, zoe.id];
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 4, "every player has an id of their own");
    for taken in ["ANA", "bob", "ZOË"] {
        match store
            .create_player(String::from(taken), [9; 32], "dev".into(), MARCH)
            .await
        {
            Err(StoreError::NameTaken(name)) => assert_eq!(name, taken),
            other => panic!("{taken:?} after ana, Bob and Zoë: {other:?}"),
        }
    }

    // --- A player is found by the hash of the token they keep.
    assert_eq!(
        store.player_by_token([2; 32]).await.unwrap(),
        Some(bob.clone())
    );
    assert_eq!(
        store.player_by_token([4; 32]).await.unwrap(),
        Some(zoe.clone())
    );
    assert_eq!(store.player_by_token([0xaa; 32]).await.unwrap(), None);
    assert_eq!(
        store.player_by_token([9; 32]).await.unwrap(),
        None,
        "a refused name leaves no player behind"
    );

    // --- March: one batch, one transaction. `pb` is whether the run beats the player's
    // best so far in its mode: a higher score, or the same score at a higher wpm.
    let every_byte: Vec<u8> = (0..=255u8).chain([0x00, 0xff, 0x00]).collect();
    let march = [
        run("ana00001", &ana, S15, (60, 6000), MARCH + DAY),
        run("bob00001", &bob, S15, (70, 7000), MARCH + DAY + 60_000),
        run("ana00002", &ana, S15, (55, 5500), MARCH + 2 * DAY),
        run("ana00003", &ana, S15, (60, 6050), MARCH + 3 * DAY),
        run("ana00004", &ana, S15, (60, 6050), MARCH + 4 * DAY),
        run("ana00005", &ana, S15, (60, 5900), MARCH + 4 * DAY + 1),
        run("cy000001", &cy, S15, (60, 6050), MARCH + 5 * DAY),
        run("cy000002", &cy, S30, (40, 4000), MARCH + 5 * DAY + 1),
        run("ana00006", &ana, S30, (30, 3000), MARCH + 6 * DAY),
        run_with(
            "zoe00001",
            &zoe,
            S15,
            (10, 1000),
            MARCH + 7 * DAY,
            every_byte.clone(),
        ),
    ];
    let stored = insert(store, &march).await.unwrap();
    assert_eq!(
        pbs(&stored),
        [
            true,  // ana's first
            true,  // Bob's first
            false, // a lower score
            true,  // the same score, faster
            false, // an exact tie beats nothing
            false, // the same score, slower
            true,  // cy's first
            true,  // cy's first in another mode
            true,  // ana's first in that mode, though below her BLITZ 15 score
            true,  // Zoë's first
        ]
    );

    // --- A batch is all or nothing. Its first run alone would be ana's best by far; the
    // second reuses an id, so neither is stored, nor counted towards a best. (The store
    // asks the plan again for fresh ids a few times; this plan's ids never change.)
    let lost = run("ana00099", &ana, S15, (99, 9900), MARCH + 8 * DAY);
    let other_round = replay_for("another round", S15);
    let reused = run_with(
        "bob00001",
        &bob,
        S15,
        (80, 8000),
        MARCH + 8 * DAY,
        other_round,
    );
    match insert(store, &[lost.clone(), reused.clone()]).await {
        Err(StoreError::Db(why)) => assert!(why.contains("taken"), "{why}"),
        other => panic!("a batch reusing a stored id: {other:?}"),
    }
    // The same when the id is one the batch itself used a moment before.
    let twin = run("new00001", &cy, S15, (65, 6500), MARCH + 8 * DAY);
    let mut twin_again = run("twin0002", &cy, S15, (66, 6600), MARCH + 8 * DAY);
    twin_again.played.id = "new00001".into();
    match insert(store, &[twin.clone(), twin_again.clone()]).await {
        Err(StoreError::Db(why)) => assert!(why.contains("taken"), "{why}"),
        other => panic!("a batch using one id twice: {other:?}"),
    }
    for id in ["ana00099", "new00001"] {
        assert_eq!(store.run(String::from(id)).await.unwrap(), None, "{id}");
    }
    for gone in [&lost, &reused, &twin, &twin_again] {
        assert_eq!(
            rounds_of(store, gone).await,
            Vec::<String>::new(),
            "{}",
            gone.played.id
        );
    }
    // A plan that says no keeps nothing either: it is asked before anything is written.
    let refused = job(ana.id, vec![lost.round.key], vec![], |_| Err("no".into()));
    assert_eq!(store.submit(refused).await.unwrap(), Err("no".into()));
    assert_eq!(store.run(String::from("ana00099")).await.unwrap(), None);
    assert_eq!(
        store
            .run(String::from("bob00001"))
            .await
            .unwrap()
            .unwrap()
            .played
            .score,
        70
    );

    // --- April: pbs are all-time, so April is measured against March. ana's 61 is a pb
    // only because the failed batch's 99 never counted.
    let april = [
        run("ana00007", &ana, S15, (61, 6100), APRIL + DAY),
        run("bob00002", &bob, S15, (50, 5000), APRIL + DAY + 1),
        run("ana00008", &ana, S15, (45, 4500), APRIL + 2 * DAY),
    ];
    assert_eq!(
        pbs(&insert(store, &april).await.unwrap()),
        [true, false, false]
    );

    // --- Boards: each player's best of the month in a mode, best first; equal runs in
    // the order they were played; ranks from 1; other months and modes apart.
    let b15 = blitz15();
    let b30 = blitz30();
    let full = store
        .board(String::from(&b15), Span::month("2026-03"), 10)
        .await
        .unwrap();
    assert_eq!(
        shown(&full),
        [
            (1, "Bob", 70, 7000, "bob00001"),
            (2, "ana", 60, 6050, "ana00003"), // not ana00004: the same run, played later
            (3, "cy", 60, 6050, "cy000001"),  // ties ana, but played after her
            (4, "Zoë", 10, 1000, "zoe00001"),
        ]
    );
    assert_eq!(
        full[1],
        BoardRow {
            rank: 2,
            name: "ana".into(),
            score: 60,
            wpm_x100: 6050,
            accuracy_x100: 9060,
            run: "ana00003".into(),
            created_ms: MARCH + 3 * DAY,
        }
    );
    assert_eq!(
        shown(
            &store
                .board(String::from(&b15), Span::month("2026-03"), 2)
                .await
                .unwrap()
        ),
        shown(&full[..2])
    );
    assert_eq!(
        store
            .board(String::from(&b15), Span::month("2026-03"), 0)
            .await
            .unwrap(),
        []
    );
    assert_eq!(
        shown(
            &store
                .board(String::from(&b30), Span::month("2026-03"), 10)
                .await
                .unwrap()
        ),
        [
            (1, "cy", 40, 4000, "cy000002"),
            (2, "ana", 30, 3000, "ana00006")
        ]
    );
    assert_eq!(
        shown(
            &store
                .board(String::from(&b15), Span::month("2026-04"), 10)
                .await
                .unwrap()
        ),
        [
            (1, "ana", 61, 6100, "ana00007"),
            (2, "Bob", 50, 5000, "bob00002")
        ]
    );
    assert_eq!(
        store
            .board(String::from(&b30), Span::month("2026-04"), 10)
            .await
            .unwrap(),
        []
    );
    assert_eq!(
        store
            .board(String::from(&b15), Span::month("2026-05"), 10)
            .await
            .unwrap(),
        []
    );
    assert_eq!(
        store
            .board(
                String::from(&Mode::BLITZ_60.key()),
                Span::month("2026-03"),
                10
            )
            .await
            .unwrap(),
        []
    );

    // --- A stored round is found by its fingerprint's key, with its run while stored.
    assert_eq!(rounds_of(store, &march[2]).await, ["ana00002"]);
    assert_eq!(rounds_of(store, &march[9]).await, ["zoe00001"]);
    let found = known(store, zoe.id, vec![march[9].round.key, [0; 32]], vec![]).await;
    assert_eq!(
        found.rounds.len(),
        1,
        "nothing is stored under a key of zeros"
    );
    assert_eq!(found.rounds[0].key, march[9].round.key);
    assert_eq!(found.rounds[0].player, zoe.id);
    assert_eq!(found.rounds[0].blocks, march[9].round.blocks);
    assert_eq!(found.rounds[0].stored, Some((10, Ranked::Yes)));

    // --- A run comes back as stored, its replay byte for byte.
    assert_eq!(
        store.run(String::from("zoe00001")).await.unwrap(),
        Some(Run {
            played: Played {
                id: "zoe00001".into(),
                mode: b15.clone(),
                score: 10,
                wpm_x100: 1000,
                accuracy_x100: 9010,
                duration_ms: 15_000,
                created_ms: MARCH + 7 * DAY,
                unranked: None,
                pending: None,
                replay: every_byte.clone(),
            },
            player: "Zoë".into(),
            guest: false,
            hidden: false,
            daily: None,
        })
    );
    let cy30 = store.run(String::from("cy000002")).await.unwrap().unwrap();
    assert_eq!(cy30.played.replay, march[7].played.replay);
    assert_eq!(
        typepper_engine::Replay::decode(&cy30.played.replay)
            .unwrap()
            .mode,
        b30,
        "a stored replay still decodes"
    );
    assert_eq!(store.run(String::from("nope0000")).await.unwrap(), None);

    // --- Retention. Everything before April 4 may go unless it is someone's monthly
    // best: ana's four March runs below her best, and her April 45. Her April best
    // (ana00007) is older than the cutoff but stays while it is her best.
    let cutoff = APRIL + 3 * DAY;
    assert_eq!(sweep(store, MARCH, 100).await, 0, "nothing is that old");
    assert_eq!(sweep(store, cutoff, 0).await, 0, "a batch of 0 deletes 0");
    assert_eq!(sweep(store, cutoff, 2).await, 5, "in three batches of 2");
    assert_eq!(sweep(store, cutoff, 2).await, 0);
    let swept = [&march[0], &march[2], &march[4], &march[5], &april[2]];
    for run in swept {
        assert_eq!(
            store.run(String::from(&run.played.id)).await.unwrap(),
            None,
            "{} is swept",
            run.played.id
        );
        // The round outlives its run, so that a copy of it is still known.
        assert_eq!(
            rounds_of(store, run).await,
            std::slice::from_ref(&run.played.id)
        );
    }
    let found = known(store, ana.id, vec![march[0].round.key], vec![]).await;
    assert_eq!(
        found.rounds[0].stored, None,
        "the run is gone, its round stays"
    );
    let kept: Vec<&NewRun> = march.iter().chain(&april).collect();
    for (month, mode) in [("2026-03", &b15), ("2026-03", &b30), ("2026-04", &b15)] {
        let board = store
            .board(String::from(mode), Span::month(month), 10)
            .await
            .unwrap();
        board_plays(store, &board, &kept).await;
    }
    assert_eq!(
        shown(
            &store
                .board(String::from(&b15), Span::month("2026-03"), 10)
                .await
                .unwrap()
        ),
        shown(&full),
        "a sweep takes nothing off a board"
    );

    // --- ana beats her April best; the old best is just an old run now, and goes.
    let better = run("ana00009", &ana, S15, (66, 6600), APRIL + 5 * DAY);
    assert_eq!(
        pbs(&insert(store, std::slice::from_ref(&better)).await.unwrap()),
        [true]
    );
    let april_board = store
        .board(String::from(&b15), Span::month("2026-04"), 10)
        .await
        .unwrap();
    assert_eq!(
        shown(&april_board),
        [
            (1, "ana", 66, 6600, "ana00009"),
            (2, "Bob", 50, 5000, "bob00002")
        ]
    );
    assert_eq!(sweep(store, cutoff, 100).await, 1);
    assert_eq!(store.run(String::from("ana00007")).await.unwrap(), None);
    assert!(
        store.run(String::from("bob00002")).await.unwrap().is_some(),
        "Bob's only April run is his best"
    );
    let kept: Vec<&NewRun> = kept.into_iter().chain([&better]).collect();
    board_plays(store, &april_board, &kept).await;

    // --- A sweep that covers every run deletes no best, and leaves the pbs as they were:
    // ana's tie is still no pb, Bob's faster 70 is one.
    assert_eq!(sweep(store, APRIL + 60 * DAY, 100).await, 0);
    for (month, mode) in [("2026-03", &b15), ("2026-03", &b30), ("2026-04", &b15)] {
        let board = store
            .board(String::from(mode), Span::month(month), 10)
            .await
            .unwrap();
        assert!(!board.is_empty());
        board_plays(store, &board, &kept).await;
    }
    let may = APRIL + 30 * DAY;
    let tie = run("ana00010", &ana, S15, (66, 6600), may);
    let bob_best = run("bob00003", &bob, S15, (70, 7001), may + 1);
    assert_eq!(
        pbs(&insert(store, &[tie, bob_best]).await.unwrap()),
        [false, true]
    );

    // --- An unranked run is stored and plays, but is on no board and no pb.
    let mut offline = run("ana00011", &ana, S15, (99, 9900), may + 2);
    offline.played.unranked = Some("not played on a seed the server issued to you".into());
    assert_eq!(pbs(&insert(store, &[offline]).await.unwrap()), [false]);
    let kept = store.run(String::from("ana00011")).await.unwrap().unwrap();
    assert_eq!(
        kept.played.unranked.as_deref(),
        Some("not played on a seed the server issued to you")
    );
    assert_eq!(
        store
            .board(String::from(&b15), Span::month("2026-05"), 10)
            .await
            .unwrap()[0]
            .run,
        "bob00003"
    );

    seeds(store, &ana, &bob, may).await;
    usage(store, &cy, may).await;
    unused_names(store, may).await;
    guard(store, may).await;
    guests(store, may).await;
    saves(store, may).await;
    quotes(store, may).await;
    periods(store).await;
}

/// Boards by period: today's and this week's rank each player by their best of the runs
/// played in them, all time's by their best ever, which a sweep keeps after its month
/// and the rest of its week are gone. Told in July 2025, before any other chapter's
/// runs, so that its sweep touches no other chapter's.
async fn periods(store: &dyn Store) {
    /// 2025-07-07T00:00Z, a Monday; and the Wednesday after.
    const MONDAY: i64 = 1_751_846_400_000;
    const WEDNESDAY: i64 = MONDAY + 2 * DAY;
    let b60 = Mode::BLITZ_60.key();
    let dee = player(store, "dee", 91, MONDAY - 40 * DAY).await;
    let eve = player(store, "eve", 92, MONDAY - 40 * DAY).await;
    for run in [
        // dee's best ever is in June; this week she is slower, and slower again today.
        run("dee00001", &dee, S60, (90, 9000), MONDAY - 30 * DAY),
        run("dee00002", &dee, S60, (70, 7000), MONDAY + 1000),
        run("dee00003", &dee, S60, (60, 6000), WEDNESDAY + 1000),
        // eve's best was last Sunday, the last instant of last week.
        run("eve00001", &eve, S60, (85, 8500), MONDAY - 1),
        run("eve00002", &eve, S60, (80, 8000), WEDNESDAY + 2000),
    ] {
        insert(store, &[run]).await.unwrap();
    }
    let read = |span| {
        let (store, mode) = (store, b60.clone());
        async move { store.board(mode, span, 10).await.unwrap() }
    };
    let today = Span::Between(WEDNESDAY, WEDNESDAY + DAY);
    let week = Span::Between(MONDAY, MONDAY + 7 * DAY);
    assert_eq!(
        shown(&read(today.clone()).await),
        [
            (1, "eve", 80, 8000, "eve00002"),
            (2, "dee", 60, 6000, "dee00003")
        ]
    );
    assert_eq!(
        shown(&read(week.clone()).await),
        [
            (1, "eve", 80, 8000, "eve00002"),
            (2, "dee", 70, 7000, "dee00002")
        ],
        "eve's Sunday is last week's"
    );
    assert_eq!(
        shown(&read(Span::month("2025-07")).await),
        [
            (1, "eve", 85, 8500, "eve00001"),
            (2, "dee", 70, 7000, "dee00002")
        ]
    );
    let all_time = [
        (1, "dee", 90, 9000, "dee00001"),
        (2, "eve", 85, 8500, "eve00001"),
    ];
    assert_eq!(shown(&read(Span::All).await), all_time);
    assert_eq!(
        read(Span::Between(WEDNESDAY + DAY, WEDNESDAY + 2 * DAY)).await,
        []
    );

    // A sweep of everything before September takes the runs that are no one's best of a
    // month or of all time, and none of the all-time board.
    let horizon = Horizon {
        runs_before_ms: MONDAY + 56 * DAY,
        seeds_before_ms: 0,
        usage_before_day: "0000-00-00".into(),
        unused_players_before_ms: 0,
        deleted_rows_before_ms: 0,
        deleted_names_before_ms: 0,
    };
    assert_eq!(sweep_all(store, &horizon, 100).await.runs, 2);
    for (id, kept) in [
        ("dee00001", true),
        ("dee00002", true),
        ("dee00003", false),
        ("eve00001", true),
        ("eve00002", false),
    ] {
        let found = store.run(id.into()).await.unwrap();
        assert_eq!(found.is_some(), kept, "{id} kept");
    }
    assert_eq!(shown(&read(Span::All).await), all_time);
    assert_eq!(
        shown(&read(today).await),
        [],
        "today's runs went with the sweep"
    );

    // The operator hides dee's best: her all-time best is her best left.
    assert!(store.hide_run("dee00001".into()).await.unwrap());
    assert_eq!(
        shown(&read(Span::All).await),
        [
            (1, "eve", 85, 8500, "eve00001"),
            (2, "dee", 70, 7000, "dee00002")
        ]
    );
    assert_eq!(
        shown(&read(week).await),
        [(1, "dee", 70, 7000, "dee00002")],
        "the week's other runs went with the sweep"
    );
}

/// A quote's seed for `player` at `now`, on `seed`, for the first of `pool` they were
/// never shown.
async fn ask_quote(
    store: &dyn Store,
    player: &Player,
    seed: u64,
    pool: &'static [&'static str],
    now: i64,
) -> Result<Option<IssuedSeed>, StoreError> {
    let template = IssuedSeed {
        seed,
        player: player.id,
        mode: String::new(),
        issued_ms: now,
        expires_ms: now + 3_600_000,
        run: None,
        room: false,
    };
    let pick: Pick = Box::new(move |shown: &HashSet<String>| {
        (pool.iter())
            .find(|q| !shown.contains(**q))
            .map(|q| (*q).to_owned())
    });
    store.issue_quote(template, pick, 32).await
}

/// The quotes a player was shown: a quote's seed is issued only for one they never were,
/// a round of one stored shows it too, and nothing is kept of an ask that found none.
async fn quotes(store: &dyn Store, now: i64) {
    const POOL: &[&str] = &["quote:1", "quote:2", "quote:3@de"];
    let ivy = player(store, "ivy", 81, now).await;
    let first = ask_quote(store, &ivy, 1001, POOL, now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((first.mode.as_str(), first.seed), ("quote:1", 1001));
    let found = known(store, ivy.id, vec![], vec![1001]).await.seeds;
    assert_eq!(found, [first], "kept as a seed issued for its passage");
    // A round of quote:2 stored shows it: the next seed skips it.
    let mut practised = run("ivy00001", &ivy, S15, (40, 4000), now);
    practised.played.mode = "quote:2".into();
    insert(store, &[practised]).await.unwrap();
    let next = ask_quote(store, &ivy, 1002, POOL, now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(next.mode, "quote:3@de");
    assert_eq!(ask_quote(store, &ivy, 1003, POOL, now).await.unwrap(), None);
    assert!(
        known(store, ivy.id, vec![], vec![1003])
            .await
            .seeds
            .is_empty()
    );
    // A seed drawn twice is refused as any seed is, and shows nothing.
    let jo = player(store, "jo", 82, now).await;
    match ask_quote(store, &jo, 1001, POOL, now).await {
        Err(StoreError::SeedTaken(1001)) => {}
        other => panic!("a seed issued twice: {other:?}"),
    }
    let again = ask_quote(store, &jo, 1004, POOL, now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        again.mode, "quote:1",
        "every passage is new to another player"
    );
}

/// What the game keeps for a player over `ssh host`: one entry per key, the last
/// written, each player's own.
async fn saves(store: &dyn Store, now: i64) {
    let kim = player(store, "kim", 71, now).await;
    let lou = player(store, "lou", 72, now).await;
    let put = |p: &Player, key: &str, value: Option<&str>| {
        store.save(p.id, key.into(), value.map(String::from), now)
    };
    put(&kim, "history", Some("1 1 aa -")).await.unwrap();
    put(&kim, "history", Some("1 1 aa -\n1 2 bb -"))
        .await
        .unwrap();
    put(&kim, "outbox/5", Some("cc")).await.unwrap();
    put(&kim, "drill", Some("qz")).await.unwrap();
    put(&kim, "drill", None).await.unwrap();
    // Forgetting what was never kept is no error.
    put(&kim, "live", None).await.unwrap();
    put(&lou, "history", Some("1 3 dd -")).await.unwrap();
    assert_eq!(
        store.saves(kim.id).await.unwrap(),
        vec![
            ("history".into(), "1 1 aa -\n1 2 bb -".into()),
            ("outbox/5".into(), "cc".into())
        ]
    );
    assert_eq!(
        store.saves(lou.id).await.unwrap(),
        vec![("history".into(), "1 3 dd -".into())]
    );
}

/// A room's racer who never linked: a player row of their own, whatever their name.
async fn guests(store: &dyn Store, now: i64) {
    // The guests raced ten days ago: old enough to release, and no one else is.
    let raced_at = now - 10 * DAY;
    // Taken names are a guest's to race under; each guest is a row of its own.
    let ana = store
        .create_guest(String::from("ana"), [61; 32], raced_at)
        .await
        .unwrap();
    let again = store
        .create_guest(String::from("ana"), [62; 32], raced_at)
        .await
        .unwrap();
    assert_ne!(ana.id, again.id);
    assert_eq!(ana.name, "ana");
    // A guest's run is stored like any, and says whose it is as a guest's.
    let mut raced = run("guest001", &ana, S30, (70, 9700), now);
    raced.played.unranked = Some("played as a guest".into());
    insert(store, &[raced]).await.unwrap();
    let kept = store.run(String::from("guest001")).await.unwrap().unwrap();
    assert!(kept.guest);
    assert_eq!(kept.by(), "ana (guest)");
    // A player's runs are no guest's, and a guest takes no name: one raced only by
    // guests is still free to link.
    let real = store.run(String::from("ana00011")).await.unwrap().unwrap();
    assert_eq!((real.guest, real.by()), (false, String::from("ana")));
    store
        .create_guest(String::from("zed"), [63; 32], raced_at)
        .await
        .unwrap();
    let linked = store
        .create_player(String::from("ZED"), [64; 32], "dev".into(), now)
        .await
        .unwrap();
    assert_eq!(linked.name, "ZED");
    // Whatever a released player kept goes with them.
    store
        .save(again.id, "drill".into(), Some("xy".into()), raced_at)
        .await
        .unwrap();
    // A guest is never a used name: the sweep releases its row once it is old, with
    // whatever of its rows are left (the runs are gone by then: kept 8 days, released
    // after 30). Players with runs stay.
    let horizon = Horizon {
        runs_before_ms: 0,
        seeds_before_ms: 0,
        usage_before_day: "0000-00-00".into(),
        unused_players_before_ms: now - 5 * DAY,
        deleted_rows_before_ms: 0,
        deleted_names_before_ms: 0,
    };
    let swept = sweep_all(store, &horizon, 100).await;
    assert_eq!(swept.players, 3, "ana's two guests and zed: {swept:?}");
    assert_eq!(store.run(String::from("guest001")).await.unwrap(), None);
    assert!(store.player_by_token([64; 32]).await.unwrap().is_some());
}

/// A fresh player named `name`, linked at `at`, with token hash `[n; 32]`.
async fn player(store: &dyn Store, name: &str, n: u8, at: i64) -> Player {
    store
        .create_player(String::from(name), [n; 32], "dev".into(), at)
        .await
        .unwrap()
}

/// What guards the boards: look-alike names, keys, pending runs, the operator, rounds found
/// by their seed, and the retention a linked key once stopped.
async fn guard(store: &dyn Store, now: i64) {
    // --- Names that look alike are one name.
    let lil = player(store, "ll1", 40, now).await;
    for taken in ["Il1", "LLI", "lil"] {
        assert!(
            matches!(
                store
                    .create_player(String::from(taken), [41; 32], "dev".into(), now)
                    .await,
                Err(StoreError::NameTaken(_))
            ),
            "{taken} after ll1"
        );
    }
    player(store, "B0B0", 42, now).await;
    assert!(
        store
            .create_player(String::from("bobo"), [43; 32], "dev".into(), now)
            .await
            .is_err()
    );

    // --- A key belongs to one player, and a player has a few keys at most.
    store
        .link_key("SHA256:a".into(), lil.id, now, 2)
        .await
        .unwrap();
    store
        .link_key("SHA256:a".into(), lil.id, now, 2)
        .await
        .unwrap();
    store
        .link_key("SHA256:b".into(), lil.id, now, 2)
        .await
        .unwrap();
    assert!(matches!(
        store.link_key("SHA256:c".into(), lil.id, now, 2).await,
        Err(StoreError::TooManyKeys(2))
    ));
    let other = player(store, "other", 44, now).await;
    match store.link_key("SHA256:a".into(), other.id, now, 2).await {
        Err(StoreError::KeyLinked(name)) => assert_eq!(name, "ll1"),
        got => panic!("a key linked twice: {got:?}"),
    }
    assert_eq!(
        store.player_by_key("SHA256:a".into()).await.unwrap(),
        Some(lil.clone())
    );

    // --- A pending run is stored but off the boards until a later run confirms it.
    let month = month_of(now);
    let b15 = blitz15();
    let board = async || {
        shown(
            &store
                .board(b15.clone(), Span::month(&month), 10)
                .await
                .unwrap(),
        )
        .into_iter()
        .filter(|r| r.1 == "ll1")
        .map(|r| (r.2, r.4.to_owned()))
        .collect::<Vec<_>>()
    };
    let steady = run("ll100001", &lil, S15, (60, 6000), now);
    insert(store, std::slice::from_ref(&steady)).await.unwrap();
    let mut fast = run("ll100002", &lil, S15, (120, 12_000), now + 1);
    fast.played.pending = Some("far above".into());
    assert_eq!(
        pbs(&insert(store, std::slice::from_ref(&fast)).await.unwrap()),
        [false]
    );
    assert_eq!(
        board().await,
        [(60, "ll100001".into())],
        "a pending run waits"
    );
    // The record, as the day the runs were stored began: none yet. As of the next day:
    // the run on the boards.
    let record = known(store, lil.id, vec![], vec![]).await.record;
    assert_eq!(
        record.best_wpm_x100, None,
        "a day's runs don't raise the day's record"
    );
    let tomorrow = "2026-05-02";
    let record = known_on(store, lil.id, vec![], vec![], tomorrow)
        .await
        .record;
    assert_eq!(record.best_wpm_x100, Some(6000));
    assert_eq!(record.pending.len(), 1);
    assert_eq!(record.pending[0].id, "ll100002");
    let stored = store.run("ll100002".into()).await.unwrap().unwrap();
    assert_eq!(stored.played.pending.as_deref(), Some("far above"));
    let mut again = run("ll100003", &lil, S15, (100, 10_000), now + 2);
    again.confirms = vec!["ll100002".into()];
    insert(store, std::slice::from_ref(&again)).await.unwrap();
    assert_eq!(
        board().await,
        [(120, "ll100002".into())],
        "confirmed, it goes on"
    );
    let record = known_on(store, lil.id, vec![], vec![], tomorrow)
        .await
        .record;
    assert_eq!(
        (record.best_wpm_x100, record.pending.len()),
        (Some(12_000), 0)
    );

    // --- The operator hides a run: the player's next best takes its place.
    assert!(store.hide_run("ll100002".into()).await.unwrap());
    assert!(!store.hide_run("nosuch00".into()).await.unwrap());
    assert_eq!(board().await, [(100, "ll100003".into())]);
    assert!(store.run("ll100002".into()).await.unwrap().unwrap().hidden);
    let record = known_on(store, lil.id, vec![], vec![], tomorrow)
        .await
        .record;
    assert_eq!(record.best_wpm_x100, Some(10_000), "the record without it");
    // And bans a player, by any name that looks like theirs: off the boards for good.
    assert_eq!(
        store.ban_player("LL1".into()).await.unwrap().as_deref(),
        Some("ll1")
    );
    assert_eq!(store.ban_player("nobody".into()).await.unwrap(), None);
    assert_eq!(board().await, []);
    assert!(store.run("ll100001".into()).await.unwrap().unwrap().hidden);
    assert!(known(store, lil.id, vec![], vec![]).await.record.banned);

    // --- A round is found by its seed too, with its mode and prefix chain.
    let mut on_seed = run("other001", &other, S15, (50, 5000), now);
    on_seed.round.seed = u64::MAX - 1;
    on_seed.round.prefix = vec![1, 2, 3, 4];
    on_seed.played.unranked = Some("not played on a seed the server issued to you".into());
    insert(store, std::slice::from_ref(&on_seed)).await.unwrap();
    let found = known(store, other.id, vec![], vec![u64::MAX - 1])
        .await
        .rounds;
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].run, "other001");
    assert_eq!(
        found[0].on,
        Some((b15.clone(), u64::MAX - 1, vec![1, 2, 3, 4]))
    );
}

/// Issued seeds: kept, found, used up once, withdrawn past the cap, swept once expired.
async fn seeds(store: &dyn Store, ana: &Player, bob: &Player, now: i64) {
    let issued = |seed: u64, player: &Player, at: i64| IssuedSeed {
        seed,
        player: player.id,
        mode: blitz15(),
        issued_ms: at,
        expires_ms: at + 3_600_000,
        run: None,
        room: false,
    };
    // The top bit set: a u64 past i64 comes back as itself.
    let big = u64::MAX - 5;
    store.issue_seed(issued(big, ana, now), 3).await.unwrap();
    match store.issue_seed(issued(big, bob, now), 3).await {
        Err(StoreError::SeedTaken(s)) => assert_eq!(s, big),
        other => panic!("a seed issued twice: {other:?}"),
    }
    let found = async |seed| known(store, ana.id, vec![], vec![seed]).await.seeds.pop();
    assert_eq!(found(big).await, Some(issued(big, ana, now)));
    assert_eq!(found(7).await, None);

    // A run on it uses it up.
    let mut on_seed = run("ana00012", ana, S15, (50, 5000), now + 20_000);
    on_seed.uses_seed = Some(big);
    insert(store, &[on_seed]).await.unwrap();
    assert_eq!(found(big).await.unwrap().run.as_deref(), Some("ana00012"));

    // Past three open seeds, the oldest open ones are withdrawn; a used one stays.
    for (i, seed) in (1..=4).enumerate() {
        store
            .issue_seed(issued(seed, ana, now + i as i64), 3)
            .await
            .unwrap();
    }
    assert_eq!(found(1).await, None, "the oldest open seed is withdrawn");
    assert!(found(2).await.is_some() && found(4).await.is_some());
    assert!(found(big).await.is_some(), "a used seed isn't open");

    // Expired seeds are swept, used or not.
    let horizon = Horizon {
        runs_before_ms: 0,
        seeds_before_ms: now + 3_600_000 + 10,
        usage_before_day: "0000-00-00".into(),
        unused_players_before_ms: 0,
        deleted_rows_before_ms: 0,
        deleted_names_before_ms: 0,
    };
    let swept = sweep_all(store, &horizon, 100).await;
    assert_eq!(swept.seeds, 4);
    assert_eq!(found(big).await, None);
}

/// A player's usage counts the runs and bytes stored each day.
async fn usage(store: &dyn Store, cy: &Player, now: i64) {
    let day = typepper_api::Utc::of(now).day();
    let read = async || {
        let mut job = job(cy.id, vec![[1; 32], [0; 32]], vec![], |_| {
            Err("looked".into())
        });
        job.day = day.clone();
        let seen = Arc::new(Mutex::new(Usage::default()));
        let keep = seen.clone();
        job.plan = Box::new(move |known| {
            *keep.lock().unwrap() = known.usage;
            Err("looked".into())
        });
        store.submit(job).await.unwrap().unwrap_err();
        *seen.lock().unwrap()
    };
    assert_eq!(read().await, Usage::default());
    let runs = [
        run("cy000010", cy, S15, (50, 5000), now),
        run("cy000011", cy, S15, (51, 5100), now + 1),
    ];
    insert(store, &runs).await.unwrap();
    let bytes = (runs[0].played.replay.len() + runs[1].played.replay.len()) as u64;
    assert_eq!(read().await, Usage { runs: 2, bytes });
    let horizon = Horizon {
        runs_before_ms: 0,
        seeds_before_ms: 0,
        usage_before_day: "9999-12-31".into(),
        unused_players_before_ms: 0,
        deleted_rows_before_ms: 0,
        deleted_names_before_ms: 0,
    };
    sweep_all(store, &horizon, 100).await;
    assert_eq!(read().await, Usage::default(), "past days' usage is swept");
}

/// A name that never had a run stored is released; one that had a run never is.
async fn unused_names(store: &dyn Store, now: i64) {
    let idle = store
        .create_player(String::from("idle"), [7; 32], "dev".into(), now)
        .await
        .unwrap();
    store
        .issue_seed(
            IssuedSeed {
                seed: 99,
                player: idle.id,
                mode: blitz15(),
                issued_ms: now,
                expires_ms: now + 3_600_000,
                run: None,
                room: false,
            },
            32,
        )
        .await
        .unwrap();
    // And a quote it was shown: released with it.
    ask_quote(store, &idle, 98, &["quote:1"], now)
        .await
        .unwrap()
        .unwrap();
    let horizon = Horizon {
        runs_before_ms: 0,
        seeds_before_ms: 0,
        usage_before_day: "0000-00-00".into(),
        unused_players_before_ms: now + 1,
        deleted_rows_before_ms: 0,
        deleted_names_before_ms: 0,
    };
    let swept = sweep_all(store, &horizon, 100).await;
    assert_eq!(
        swept,
        Swept {
            players: 1,
            ..Swept::default()
        },
        "idle is released, its open seeds and the quotes it was shown with it; the story's \
         players have runs"
    );
    assert_eq!(store.player_by_token([7; 32]).await.unwrap(), None);
    store
        .create_player(String::from("IDLE"), [8; 32], "dev".into(), now)
        .await
        .unwrap();
    assert!(
        store.player_by_token([1; 32]).await.unwrap().is_some(),
        "ana stays"
    );
}

/// What a store opened again on the story's database finds.
pub async fn reopened(store: &dyn Store) {
    assert_eq!(
        store
            .player_by_token([3; 32])
            .await
            .unwrap()
            .map(|p| p.name),
        Some("cy".into())
    );
    assert_eq!(
        shown(
            &store
                .board(String::from(&blitz15()), Span::month("2026-05"), 10)
                .await
                .unwrap()
        ),
        [
            (1, "Bob", 70, 7001, "bob00003"),
            (2, "ana", 66, 6600, "ana00010"),
            (3, "cy", 51, 5100, "cy000011")
        ]
    );
    assert!(store.player_by_token([8; 32]).await.unwrap().is_some());
    assert!(matches!(
        store
            .create_player(String::from("CY"), [5; 32], "dev".into(), APRIL)
            .await,
        Err(StoreError::NameTaken(_))
    ));
}

/// The attack: a key linked a player who never stored a run; the player was made 31 days
/// ago and another's run 9 days ago. Every sweep then failed on the key, for good.
pub async fn a_linked_key_never_stops_retention(store: &dyn Store) {
    let now = MARCH;
    let other = player(store, "other", 44, now).await;
    let day = 86_400_000;
    let later = now + 40 * day;
    let quiet = player(store, "quiet", 45, later - 31 * day).await;
    store
        .link_key("SHA256:quiet".into(), quiet.id, later - 31 * day, 8)
        .await
        .unwrap();
    let old = run("other002", &other, S15, (40, 4000), later - 9 * day);
    insert(store, std::slice::from_ref(&old)).await.unwrap();
    let newer = run("other003", &other, S15, (45, 4500), later - 9 * day + 1);
    insert(store, std::slice::from_ref(&newer)).await.unwrap();
    let swept = sweep_all(
        store,
        &Horizon {
            runs_before_ms: later - 8 * day,
            seeds_before_ms: later,
            usage_before_day: typepper_api::Utc::of(later - day).day(),
            unused_players_before_ms: later - 30 * day,
            deleted_rows_before_ms: 0,
            deleted_names_before_ms: 0,
        },
        1,
    )
    .await;
    assert!(swept.players >= 1 && swept.runs >= 1, "{swept:?}");
    assert_eq!(
        store.run("other002".into()).await.unwrap(),
        None,
        "the old run went"
    );
    assert_eq!(
        store.player_by_key("SHA256:quiet".into()).await.unwrap(),
        None
    );
    assert_eq!(store.player_by_token([45; 32]).await.unwrap(), None);
    store
        .create_player(String::from("quiet"), [46; 32], "dev".into(), later)
        .await
        .expect("the name is free again");
}
