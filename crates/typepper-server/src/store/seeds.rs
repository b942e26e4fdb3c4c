//! Seeds the server issues to players, and those live rooms hold; and the quotes each
//! player was shown, which a quote's seed is never issued for again.

use std::collections::HashSet;

use super::backend::{Access, Backend};
use super::tx::{Arg, Dialect, Tx, lock_player};
use super::{Fut, IssuedSeed, Pick, StoreError};

/// Keeps an issued seed, and withdraws its player's oldest open seeds past `max_open`
/// (see [`Store::issue_seed`](super::Store::issue_seed)).
pub fn issue<B: Backend>(b: &B, seed: IssuedSeed, max_open: u32) -> Fut<'_, ()> {
    b.work(Access::Transaction, move |tx| {
        Box::pin(async move { keep(tx, &seed, max_open).await })
    })
}

/// Keeps a seed for the passage `pick` chooses among those its player was never shown,
/// and remembers the passage as shown (see [`Store::issue_quote`](super::Store::issue_quote)).
pub fn issue_quote<B: Backend>(
    b: &B,
    seed: IssuedSeed,
    pick: Pick,
    max_open: u32,
) -> Fut<'_, Option<IssuedSeed>> {
    b.work(Access::Transaction, move |tx| {
        Box::pin(async move {
            // Two asks of one player at once would read the same passages shown, and pick
            // the same one: the second waits for the first, then reads its passage too.
            lock_player(tx, seed.player).await?;
            let rows = tx
                .query(
                    "SELECT mode FROM shown_quotes WHERE player_id = $1",
                    &[Arg::I64(seed.player)],
                )
                .await?;
            let shown: HashSet<String> = rows.iter().map(|r| r.text(0)).collect();
            let Some(mode) = pick(&shown) else {
                return Ok(None);
            };
            let seed = IssuedSeed { mode, ..seed };
            keep(tx, &seed, max_open).await?;
            tx.execute(
                "INSERT INTO shown_quotes (player_id, mode, shown_ms) VALUES ($1, $2, $3)
                 ON CONFLICT (player_id, mode) DO NOTHING",
                &[
                    Arg::I64(seed.player),
                    Arg::Text(&seed.mode),
                    Arg::I64(seed.issued_ms),
                ],
            )
            .await?;
            Ok(Some(seed))
        })
    })
}

/// Writes `seed`, and withdraws its player's oldest open seeds past `max_open`.
async fn keep<T: Tx>(tx: &mut T, seed: &IssuedSeed, max_open: u32) -> Result<(), StoreError> {
    let inserted = tx
        .execute(
            "INSERT INTO seeds (seed, player_id, mode, issued_ms, expires_ms)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (seed) DO NOTHING",
            &[
                Arg::I64(seed.seed as i64),
                Arg::I64(seed.player),
                Arg::Text(&seed.mode),
                Arg::I64(seed.issued_ms),
                Arg::I64(seed.expires_ms),
            ],
        )
        .await?;
    if inserted == 0 {
        return Err(StoreError::SeedTaken(seed.seed));
    }
    let withdraw = withdraw(tx.dialect());
    let args = [
        Arg::I64(seed.player),
        Arg::I64(seed.issued_ms),
        Arg::I64(max_open.into()),
    ];
    tx.execute(&withdraw, &args).await?;
    Ok(())
}

/// What deletes a player's (`$1`) open seeds (unused, expiring at `$2` or later) but the
/// newest `$3`.
fn withdraw(dialect: Dialect) -> String {
    format!(
        "DELETE FROM seeds WHERE seed IN (
             SELECT seed FROM seeds
             WHERE player_id = $1 AND run_id IS NULL AND expires_ms >= $2
             ORDER BY issued_ms DESC, seed {} OFFSET $3)",
        dialect.no_limit
    )
}

/// Holds `seed` for a live room until `until_ms`.
pub fn live<B: Backend>(b: &B, seed: u64, until_ms: i64) -> Fut<'_, ()> {
    b.work(Access::Write, move |tx| {
        Box::pin(async move {
            tx.execute(
                "INSERT INTO room_seeds (seed, until_ms) VALUES ($1, $2)
                 ON CONFLICT (seed) DO UPDATE SET until_ms = excluded.until_ms",
                &[Arg::I64(seed as i64), Arg::I64(until_ms)],
            )
            .await?;
            Ok(())
        })
    })
}
