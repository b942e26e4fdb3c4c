//! Retention's reads and deletes: the keys of expired rows, and deleting them a batch at
//! a time (`sweep.rs` walks them).

use super::backend::{Access, Backend};
use super::tx::{Arg, Dialect, Tx};
use super::{Expiring, Fut, Horizon, PLAYER_ROWS, RowKey};

/// The keys of at most `batch` rows of `kind` expired at `horizon`, after `after`, in
/// key order.
pub fn expired<B: Backend>(
    b: &B,
    kind: Expiring,
    horizon: Horizon,
    after: RowKey,
    batch: u32,
) -> Fut<'_, Vec<RowKey>> {
    b.work(Access::Read, move |tx| {
        Box::pin(async move {
            let ((table, key), expired) = (kind.table(), expired_when(tx.dialect(), kind));
            let (at, [a, b]) = (horizon.bound(kind), after.args());
            let sql = format!(
                "SELECT {key} FROM {table} WHERE {expired} AND ({key}) > ($2, $3)
                 ORDER BY {key} LIMIT $4"
            );
            let rows = tx.query(&sql, &[at, a, b, Arg::I64(batch.into())]).await?;
            Ok(rows
                .iter()
                .map(|r| {
                    let int = |i| r.int(i).unwrap_or(0);
                    match kind {
                        Expiring::Runs => RowKey::Run(int(0), r.text(1)),
                        Expiring::Seeds | Expiring::RoomSeeds => RowKey::Seed(int(0), int(1)),
                        Expiring::Usage => RowKey::Usage(r.text(0), int(1)),
                        Expiring::Players | Expiring::Deleted | Expiring::DeletedNames => {
                            RowKey::Player(int(0))
                        }
                    }
                })
                .collect())
        })
    })
}

/// What makes a row of `kind` expired, reading its horizon ([`Horizon::bound`]) as $1.
fn expired_when(dialect: Dialect, kind: Expiring) -> &'static str {
    match kind {
        Expiring::Runs => dialect.expired_runs,
        Expiring::Seeds => "expires_ms < $1",
        Expiring::Usage => "day < $1",
        Expiring::Players => "created_ms < $1 AND NOT used AND deleted_ms IS NULL",
        Expiring::Deleted => "deleted_ms < $1 AND NOT rows_gone",
        Expiring::DeletedNames => "deleted_ms < $1",
        Expiring::RoomSeeds => "until_ms < $1",
    }
}

/// Deletes, in one transaction, the rows of `kind` still expired at `horizon` with keys
/// in `(after, through]`, and a released player's rows before the player; how many rows
/// of `kind`.
pub fn delete_expired<B: Backend>(
    b: &B,
    kind: Expiring,
    horizon: Horizon,
    after: RowKey,
    through: RowKey,
) -> Fut<'_, u64> {
    b.work(Access::Transaction, move |tx| {
        Box::pin(async move {
            let ((table, key), expired) = (kind.table(), expired_when(tx.dialect(), kind));
            let (at, [a, b], [y, z]) = (horizon.bound(kind), after.args(), through.args());
            let range = format!("{expired} AND ({key}) > ($2, $3) AND ({key}) <= ($4, $5)");
            let args = [at, a, b, y, z];
            let players = [Expiring::Players, Expiring::Deleted, Expiring::DeletedNames];
            if !players.contains(&kind) {
                return tx
                    .execute(&format!("DELETE FROM {table} WHERE {range}"), &args)
                    .await;
            }
            // Locked, where rows are, so that a submission that starts meanwhile waits,
            // then finds no player (its token no longer links) rather than a half-deleted
            // one; and one that stored a run first makes the player used, and kept.
            let lock = tx.dialect().for_update;
            let sql = format!("SELECT id FROM players WHERE {range} ORDER BY id{lock}");
            let found = tx.query(&sql, &args).await?;
            let ids: Vec<i64> = found.iter().filter_map(|r| r.int(0)).collect();
            let among = tx.dialect().in_ids;
            for rows in PLAYER_ROWS {
                let sql = format!("DELETE FROM {rows} WHERE player_id {among}");
                tx.execute(&sql, &[Arg::Ids(&ids)]).await?;
            }
            // A deleted player's row keeps their name for 30 days; an unused player's
            // goes with its rows, unless it stored a run meanwhile.
            let sql = match kind {
                Expiring::Deleted => {
                    format!("UPDATE players SET rows_gone = true WHERE id {among}")
                }
                Expiring::DeletedNames => format!("DELETE FROM players WHERE id {among}"),
                _ => format!("DELETE FROM players WHERE id {among} AND NOT used"),
            };
            tx.execute(&sql, &[Arg::Ids(&ids)]).await
        })
    })
}
