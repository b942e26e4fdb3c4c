//! The daily text: each day's seed, each player's first try of it, and its board.

use super::backend::{Access, Backend};
use super::tx::{Arg, Tx};
use super::{BoardRow, DailyEntry, DailyPlace, DailyTry, Fut, PlayerId};

/// The runs on a daily's board, `$1` its number: each player's first try, stored and
/// ranked, unless the run, its player or their account was taken off.
macro_rules! entries {
    () => {
        "FROM daily_tries t JOIN runs r ON r.id = t.run_id JOIN players p ON p.id = t.player_id
         WHERE t.number = $1 AND r.unranked IS NULL AND r.pending IS NULL AND NOT r.hidden
           AND NOT p.banned AND p.deleted_ms IS NULL"
    };
}

/// The seed of daily `number`: `drawn`, if no server drew it before.
pub fn seed<B: Backend>(b: &B, number: u32, drawn: u64) -> Fut<'_, u64> {
    b.work(Access::Write, move |tx| {
        Box::pin(async move {
            tx.execute(
                "INSERT INTO dailies (number, seed) VALUES ($1, $2) ON CONFLICT (number) DO NOTHING",
                &[Arg::I32(number as i32), Arg::I64(drawn as i64)],
            )
            .await?;
            let rows = tx
                .query(
                    "SELECT seed FROM dailies WHERE number = $1",
                    &[Arg::I32(number as i32)],
                )
                .await?;
            Ok(rows.first().and_then(|r| r.int(0)).unwrap_or(drawn as i64) as u64)
        })
    })
}

/// `player`'s try of daily `number`: this one, at `now_ms`, if it is their first.
pub fn try_it<B: Backend>(b: &B, number: u32, player: PlayerId, now_ms: i64) -> Fut<'_, DailyTry> {
    b.work(Access::Write, move |tx| {
        Box::pin(async move {
            let first = tx
                .execute(
                    "INSERT INTO daily_tries (number, player_id, issued_ms) VALUES ($1, $2, $3)
                     ON CONFLICT (number, player_id) DO NOTHING",
                    &[Arg::I32(number as i32), Arg::I64(player), Arg::I64(now_ms)],
                )
                .await?
                == 1;
            let rows = tx
                .query(
                    "SELECT issued_ms, run_id FROM daily_tries
                     WHERE number = $1 AND player_id = $2",
                    &[Arg::I32(number as i32), Arg::I64(player)],
                )
                .await?;
            let row = rows.first();
            Ok(DailyTry {
                first,
                issued_ms: row.and_then(|r| r.int(0)).unwrap_or(now_ms),
                run: row.and_then(|r| r.maybe_text(1)),
            })
        })
    })
}

/// Daily `number`'s board, best first, at most `limit`, and how many are on it.
pub fn board<B: Backend>(b: &B, number: u32, limit: u32) -> Fut<'_, (Vec<BoardRow>, u32)> {
    b.work(Access::Read, move |tx| {
        Box::pin(async move {
            let n = Arg::I32(number as i32);
            let rows = tx
                .query(
                    concat!(
                        "SELECT p.name, r.score, r.wpm_x100, r.accuracy_x100, r.id, r.created_ms ",
                        entries!(),
                        " ORDER BY r.score DESC, r.wpm_x100 DESC, r.created_ms ASC,
                                   t.player_id ASC
                         LIMIT $2"
                    ),
                    &[n, Arg::I64(limit.into())],
                )
                .await?;
            let count = tx
                .query(concat!("SELECT count(*) ", entries!()), &[n])
                .await?;
            let of = count.first().map_or(0, |r| r.uint(0));
            Ok((super::boards::rows(&rows), of))
        })
    })
}

/// Where `entry` stands on daily `number`'s board: `None` if it isn't on it.
pub fn place<B: Backend>(b: &B, number: u32, entry: DailyEntry) -> Fut<'_, Option<DailyPlace>> {
    b.work(Access::Read, move |tx| {
        Box::pin(async move {
            let (column, arg) = match &entry {
                DailyEntry::Of(player) => ("t.player_id", Arg::I64(*player)),
                DailyEntry::Run(id) => ("t.run_id", Arg::Text(id)),
            };
            // `m` is the entry, one row or none: no row, no place.
            let sql = format!(
                "SELECT m.id, m.score,
                        count(*) FILTER (WHERE e.score > m.score
                            OR (e.score = m.score AND e.wpm_x100 > m.wpm_x100)
                            OR (e.score = m.score AND e.wpm_x100 = m.wpm_x100
                                AND e.created_ms < m.created_ms)),
                        count(*)
                 FROM (SELECT r.id, r.score, r.wpm_x100, r.created_ms {entries} AND {column} = $2) m,
                      (SELECT r.score, r.wpm_x100, r.created_ms {entries}) e
                 GROUP BY m.id, m.score",
                entries = entries!(),
            );
            let rows = tx.query(&sql, &[Arg::I32(number as i32), arg]).await?;
            Ok(rows.first().map(|r| DailyPlace {
                run: r.text(0),
                score: r.uint(1),
                place: r.uint(2) + 1,
                of: r.uint(3),
            }))
        })
    })
}
