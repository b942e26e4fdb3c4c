//! Seeds the server issues to players, and those live rooms hold.

use super::backend::{Access, Backend};
use super::tx::{Arg, Dialect, Tx};
use super::{Fut, IssuedSeed, StoreError};

/// Keeps an issued seed, and withdraws its player's oldest open seeds past `max_open`
/// (see [`Store::issue_seed`](super::Store::issue_seed)).
pub fn issue<B: Backend>(b: &B, seed: IssuedSeed, max_open: u32) -> Fut<'_, ()> {
    b.work(Access::Transaction, move |tx| {
        Box::pin(async move {
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
        })
    })
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
