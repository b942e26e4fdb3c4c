//! The boards and the runs on them: a run, a board, and taking a run off them.

use super::backend::{Access, Backend};
use super::submission::ALL_TIME;
use super::tx::{self, Arg, Row, Tx};
use super::{BoardRow, Fut, Played, PlayerId, Run, Span, StoreError};

/// The run with `id`.
pub fn run<B: Backend>(b: &B, id: String) -> Fut<'_, Option<Run>> {
    b.work(Access::Read, move |tx| {
        Box::pin(async move { read_run(tx, &id).await })
    })
}

/// The best ranked run per player of `mode` in `span`, best first, at most `limit`.
pub fn board<B: Backend>(b: &B, mode: String, span: Span, limit: u32) -> Fut<'_, Vec<BoardRow>> {
    b.work(Access::Read, move |tx| {
        Box::pin(async move {
            let limit = Arg::I64(limit.into());
            let found = match &span {
                Span::Month(month) => bests(tx, &mode, month, limit).await?,
                Span::All => bests(tx, &mode, ALL_TIME, limit).await?,
                // Each player's best of the span's runs, as a monthly best is chosen
                // (`rerank`), then the board's order.
                Span::Between(from, until) => {
                    tx.query(
                        "SELECT p.name, r.score, r.wpm_x100, r.accuracy_x100, r.id, r.created_ms
                         FROM (SELECT player_id, id, score, wpm_x100, accuracy_x100, created_ms,
                                      row_number() OVER (PARTITION BY player_id
                                   ORDER BY score DESC, wpm_x100 DESC, created_ms) AS n
                               FROM runs
                               WHERE mode = $1 AND created_ms >= $2 AND created_ms < $3
                                 AND unranked IS NULL AND pending IS NULL AND NOT hidden
                                 AND daily IS NULL
                              ) AS r JOIN players p ON p.id = r.player_id
                         WHERE r.n = 1 AND NOT p.banned AND p.deleted_ms IS NULL
                         ORDER BY r.score DESC, r.wpm_x100 DESC, r.created_ms ASC,
                                  r.player_id ASC
                         LIMIT $4",
                        &[Arg::Text(&mode), Arg::I64(*from), Arg::I64(*until), limit],
                    )
                    .await?
                }
            };
            Ok(rows(&found))
        })
    })
}

/// A board's rows, best first, from `name, score, wpm_x100, accuracy_x100, id,
/// created_ms` (a mode's board, a daily's).
pub(super) fn rows(found: &[Row]) -> Vec<BoardRow> {
    (found.iter().enumerate())
        .map(|(i, r)| BoardRow {
            rank: i as u32 + 1,
            name: r.text(0),
            score: r.uint(1),
            wpm_x100: r.uint(2),
            accuracy_x100: r.uint(3),
            run: r.text(4),
            created_ms: r.int(5).unwrap_or(0),
        })
        .collect()
}

/// The board of `month`'s rows in `bests` (a month's, or [`ALL_TIME`]).
async fn bests(
    tx: &mut impl Tx,
    mode: &str,
    month: &str,
    limit: Arg<'_>,
) -> Result<Vec<Row>, StoreError> {
    tx.query(
        "SELECT p.name, b.score, b.wpm_x100, r.accuracy_x100, b.run_id, b.created_ms
         FROM bests b JOIN players p ON p.id = b.player_id JOIN runs r ON r.id = b.run_id
         WHERE b.mode = $1 AND b.month = $2 AND NOT p.banned AND p.deleted_ms IS NULL
         ORDER BY b.score DESC, b.wpm_x100 DESC, b.created_ms ASC, b.player_id ASC
         LIMIT $3",
        &[Arg::Text(mode), Arg::Text(month), limit],
    )
    .await
}

/// Takes run `id` off the boards (see [`Store::hide_run`](super::Store::hide_run)).
pub fn hide_run<B: Backend>(b: &B, id: String) -> Fut<'_, bool> {
    b.work(Access::Transaction, move |tx| {
        Box::pin(async move {
            let found = tx
                .query(
                    "SELECT player_id, mode FROM runs WHERE id = $1",
                    &[Arg::Text(&id)],
                )
                .await?;
            let Some((player, mode)) = found.first().map(|r| (r.int(0).unwrap_or(0), r.text(1)))
            else {
                return Ok(false);
            };
            // The player's row first, as a submission takes it, then the run's: two
            // transactions that take them in one order never wait on each other.
            tx::lock_player(tx, player).await?;
            tx.execute(
                "UPDATE runs SET hidden = true WHERE id = $1",
                &[Arg::Text(&id)],
            )
            .await?;
            rerank(tx, player, &mode).await?;
            Ok(true)
        })
    })
}

/// Works out a player's monthly bests, all-time best and personal best in `mode` again from their runs
/// on the boards, after one of them was hidden.
async fn rerank(tx: &mut impl Tx, player: PlayerId, mode: &str) -> Result<(), StoreError> {
    macro_rules! on_board {
        () => {
            "player_id = $1 AND mode = $2 AND unranked IS NULL AND pending IS NULL AND NOT hidden
             AND daily IS NULL"
        };
    }
    for sql in [
        "DELETE FROM bests WHERE player_id = $1 AND mode = $2",
        // Each month's best: a higher score, then a higher wpm, then the earlier.
        concat!(
            "INSERT INTO bests (player_id, mode, month, run_id, score, wpm_x100, created_ms)
             SELECT player_id, mode, month, id, score, wpm_x100, created_ms FROM (
                 SELECT *, row_number() OVER (PARTITION BY month
                     ORDER BY score DESC, wpm_x100 DESC, created_ms) AS n
                 FROM runs WHERE ",
            on_board!(),
            ") AS ranked WHERE n = 1"
        ),
        // And all time's: the best of every month's.
        "INSERT INTO bests (player_id, mode, month, run_id, score, wpm_x100, created_ms)
         SELECT player_id, mode, 'all', run_id, score, wpm_x100, created_ms FROM bests
         WHERE player_id = $1 AND mode = $2
         ORDER BY score DESC, wpm_x100 DESC, created_ms LIMIT 1",
        "DELETE FROM pbs WHERE player_id = $1 AND mode = $2",
        concat!(
            "INSERT INTO pbs (player_id, mode, score, wpm_x100)
             SELECT player_id, mode, score, wpm_x100 FROM runs WHERE ",
            on_board!(),
            " ORDER BY score DESC, wpm_x100 DESC LIMIT 1"
        ),
    ] {
        tx.execute(sql, &[Arg::I64(player), Arg::Text(mode)])
            .await?;
    }
    // Its record, the best left on the boards, as of any day.
    tx.execute(
        "UPDATE players SET best_day = NULL, record_x100 = NULL,
             best_x100 = (SELECT max(wpm_x100) FROM bests WHERE player_id = $1)
         WHERE id = $1",
        &[Arg::I64(player)],
    )
    .await?;
    Ok(())
}

/// `player`'s runs with ids after `after`, in id order, at most `limit`: what the server
/// holds of them, a page at a time (`GET /v1/export`).
pub fn runs_of<B: Backend>(
    b: &B,
    player: PlayerId,
    after: String,
    limit: u32,
) -> Fut<'_, Vec<Played>> {
    b.work(Access::Read, move |tx| {
        Box::pin(async move {
            let rows = tx
                .query(
                    "SELECT id, mode, score, wpm_x100, accuracy_x100, duration_ms, created_ms,
                            unranked, replay, pending
                     FROM runs WHERE player_id = $1 AND id > $2 ORDER BY id LIMIT $3",
                    &[Arg::I64(player), Arg::Text(&after), Arg::I64(limit.into())],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| Played {
                    id: r.text(0),
                    mode: r.text(1),
                    score: r.uint(2),
                    wpm_x100: r.uint(3),
                    accuracy_x100: r.uint(4),
                    duration_ms: r.uint(5),
                    created_ms: r.int(6).unwrap_or(0),
                    unranked: r.maybe_text(7),
                    replay: r.bytes(8),
                    pending: r.maybe_text(9),
                })
                .collect())
        })
    })
}

/// The run with `id`, unless its player deleted their account.
async fn read_run(tx: &mut impl Tx, id: &str) -> Result<Option<Run>, StoreError> {
    let rows = tx
        .query(
            "SELECT r.id, p.name, r.mode, r.score, r.wpm_x100, r.accuracy_x100, r.duration_ms,
                    r.created_ms, r.unranked, r.replay, r.pending, r.hidden OR p.banned, p.guest,
                    r.daily
             FROM runs r JOIN players p ON p.id = r.player_id
             WHERE r.id = $1 AND p.deleted_ms IS NULL",
            &[Arg::Text(id)],
        )
        .await?;
    Ok(rows.first().map(|r| Run {
        played: Played {
            id: r.text(0),
            mode: r.text(2),
            score: r.uint(3),
            wpm_x100: r.uint(4),
            accuracy_x100: r.uint(5),
            duration_ms: r.uint(6),
            created_ms: r.int(7).unwrap_or(0),
            unranked: r.maybe_text(8),
            replay: r.bytes(9),
            pending: r.maybe_text(10),
        },
        player: r.text(1),
        hidden: r.bool(11),
        guest: r.bool(12),
        daily: r.int(13).map(|n| n as u32),
    }))
}
