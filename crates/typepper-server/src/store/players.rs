//! Players: linking one, finding one by SSH key, their saves, and banning one (by token:
//! `devices.rs`).

use super::backend::{Access, Backend};
use super::tx::{self, Arg, Row, Tx};
use super::{Fut, Player, PlayerId, StoreError};

/// A player from a row of `id, name`.
fn read_player(r: &Row) -> Player {
    Player {
        id: r.int(0).unwrap_or(0),
        name: r.text(1),
    }
}

/// A new player row, its name folded to `key`, and for one who isn't a guest its first
/// device, named `device`; a key some row holds already is [`StoreError::NameTaken`].
pub fn create<B: Backend>(
    b: &B,
    name: String,
    key: String,
    token_hash: [u8; 32],
    device: Option<String>,
    now_ms: i64,
) -> Fut<'_, Player> {
    b.work(Access::Transaction, move |tx| {
        Box::pin(async move {
            let args = [
                Arg::Text(&name),
                Arg::Text(&key),
                Arg::Bytes(&token_hash),
                Arg::I64(now_ms),
                Arg::Bool(device.is_none()),
            ];
            let row = tx
                .query(
                    "INSERT INTO players (name, name_key, token_hash, created_ms, guest)
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name_key) DO NOTHING RETURNING id",
                    &args,
                )
                .await?;
            let Some(id) = row.first().and_then(|r| r.int(0)) else {
                return Err(StoreError::NameTaken(name));
            };
            if let Some(device) = &device {
                super::devices::add_token(tx, id, &token_hash, device, now_ms).await?;
            }
            Ok(Player { id, name })
        })
    })
}

/// The player the SSH key with `fingerprint` is linked to, and their name.
const KEY_HOLDER: &str =
    "SELECT p.id, p.name FROM player_keys k JOIN players p ON p.id = k.player_id
                          WHERE k.fingerprint = $1";

/// The player the SSH key with `fingerprint` is linked to.
pub fn by_key<B: Backend>(b: &B, fingerprint: String) -> Fut<'_, Option<Player>> {
    b.work(Access::Read, move |tx| {
        Box::pin(async move {
            let rows = tx.query(KEY_HOLDER, &[Arg::Text(&fingerprint)]).await?;
            Ok(rows.first().map(read_player))
        })
    })
}

/// Links the SSH key with `fingerprint` to `player` (see [`Store::link_key`]).
///
/// The checks go in PostgreSQL's order, the stricter of the two the backends had: with
/// the player's row locked, count their keys, insert the key unless it is in use, and
/// only when nothing was inserted look at who holds it. So the key's unique column, not
/// a look taken before, decides who holds a key that two servers link at once; SQLite's
/// old order (look, count, insert) was only safe because its writer is the only one.
/// Every answer is the same either way.
///
/// [`Store::link_key`]: super::Store::link_key
pub fn link_key<B: Backend>(
    b: &B,
    fingerprint: String,
    player: PlayerId,
    now_ms: i64,
    max_keys: u32,
) -> Fut<'_, ()> {
    b.work(Access::Transaction, move |tx| {
        Box::pin(async move { link_key_in(tx, &fingerprint, player, now_ms, max_keys).await })
    })
}

/// [`link_key`] in a transaction begun already (a device code's claim).
pub async fn link_key_in(
    tx: &mut impl Tx,
    fingerprint: &str,
    player: PlayerId,
    now_ms: i64,
    max_keys: u32,
) -> Result<(), StoreError> {
    // Two links at once count the player's keys one after the other.
    tx::lock_player(tx, player).await?;
    let keys = tx
        .query(
            "SELECT count(*) FROM player_keys WHERE player_id = $1",
            &[Arg::I64(player)],
        )
        .await?
        .first()
        .and_then(|r| r.int(0))
        .unwrap_or(0);
    let inserted = if keys < i64::from(max_keys) {
        tx.execute(
            "INSERT INTO player_keys (fingerprint, player_id, linked_ms)
             VALUES ($1, $2, $3) ON CONFLICT (fingerprint) DO NOTHING",
            &[Arg::Text(fingerprint), Arg::I64(player), Arg::I64(now_ms)],
        )
        .await?
    } else {
        0
    };
    if inserted == 1 {
        return Ok(());
    }
    let linked = tx.query(KEY_HOLDER, &[Arg::Text(fingerprint)]).await?;
    match linked.first().map(read_player) {
        Some(holder) if holder.id == player => Ok(()),
        Some(holder) => Err(StoreError::KeyLinked(holder.name)),
        None => Err(StoreError::TooManyKeys(
            u32::try_from(keys).unwrap_or(u32::MAX),
        )),
    }
}

/// What the game keeps for `player`: each entry's key and text.
pub fn saves<B: Backend>(b: &B, player: PlayerId) -> Fut<'_, Vec<(String, String)>> {
    b.work(Access::Read, move |tx| {
        Box::pin(async move {
            let sql = "SELECT key, value FROM saves WHERE player_id = $1 ORDER BY key";
            let rows = tx.query(sql, &[Arg::I64(player)]).await?;
            Ok(rows.iter().map(|r| (r.text(0), r.text(1))).collect())
        })
    })
}

/// `player`'s entry `key`, if kept.
pub fn saved<B: Backend>(b: &B, player: PlayerId, key: String) -> Fut<'_, Option<String>> {
    b.work(Access::Read, move |tx| {
        Box::pin(async move {
            let sql = "SELECT value FROM saves WHERE player_id = $1 AND key = $2";
            let rows = tx.query(sql, &[Arg::I64(player), Arg::Text(&key)]).await?;
            Ok(rows.first().map(|r| r.text(0)))
        })
    })
}

/// Keeps `value` under `key` for `player`; `None` forgets what `key` holds.
pub fn save<B: Backend>(
    b: &B,
    player: PlayerId,
    key: String,
    value: Option<String>,
    now_ms: i64,
) -> Fut<'_, ()> {
    b.work(Access::Write, move |tx| {
        Box::pin(async move {
            match &value {
                Some(value) => {
                    tx.execute(
                        "INSERT INTO saves (player_id, key, value, saved_ms)
                         VALUES ($1, $2, $3, $4)
                         ON CONFLICT (player_id, key)
                         DO UPDATE SET value = excluded.value, saved_ms = excluded.saved_ms",
                        &[
                            Arg::I64(player),
                            Arg::Text(&key),
                            Arg::Text(value),
                            Arg::I64(now_ms),
                        ],
                    )
                    .await?
                }
                None => {
                    tx.execute(
                        "DELETE FROM saves WHERE player_id = $1 AND key = $2",
                        &[Arg::I64(player), Arg::Text(&key)],
                    )
                    .await?
                }
            };
            Ok(())
        })
    })
}

/// Whether a linked player (no guest) has `name`, or one that looks like it.
pub fn name_taken<B: Backend>(b: &B, name: String) -> Fut<'_, bool> {
    b.work(Access::Read, move |tx| {
        Box::pin(async move {
            let key = typepper_api::name_key(&name);
            let rows = tx
                .query(
                    "SELECT EXISTS (SELECT 1 FROM players WHERE name_key = $1 AND NOT guest)",
                    &[Arg::Text(&key)],
                )
                .await?;
            Ok(rows.first().is_some_and(|r| r.bool(0)))
        })
    })
}

/// Takes the player named `name` off the boards, with every run of theirs (see
/// [`Store::ban_player`](super::Store::ban_player)).
pub fn ban<B: Backend>(b: &B, name: String) -> Fut<'_, Option<String>> {
    b.work(Access::Transaction, move |tx| {
        Box::pin(async move {
            let key = typepper_api::name_key(&name);
            let banned = tx
                .query(
                    "UPDATE players SET banned = true WHERE id = (
                         SELECT id FROM players WHERE lower(name) = lower($1) OR name_key = $2
                         ORDER BY lower(name) = lower($1) DESC, id LIMIT 1)
                     RETURNING id, name",
                    &[Arg::Text(&name), Arg::Text(&key)],
                )
                .await?;
            let Some(banned) = banned.first().map(read_player) else {
                return Ok(None);
            };
            for sql in [
                "UPDATE runs SET hidden = true WHERE player_id = $1",
                "DELETE FROM bests WHERE player_id = $1",
                "DELETE FROM pbs WHERE player_id = $1",
                // No device may be added to them with a code shown before.
                "DELETE FROM device_codes WHERE player_id = $1",
            ] {
                tx.execute(sql, &[Arg::I64(banned.id)]).await?;
            }
            Ok(Some(banned.name))
        })
    })
}

/// Deletes `player`'s account at `now_ms` (see
/// [`Store::delete_player`](super::Store::delete_player)).
pub fn delete<B: Backend>(b: &B, player: PlayerId, now_ms: i64) -> Fut<'_, ()> {
    b.work(Access::Transaction, move |tx| {
        Box::pin(async move {
            tx::lock_player(tx, player).await?;
            tx.execute(
                "UPDATE players SET deleted_ms = $2 WHERE id = $1 AND deleted_ms IS NULL",
                &[Arg::I64(player), Arg::I64(now_ms)],
            )
            .await?;
            tx.execute(
                "UPDATE devices SET removed_ms = $2 WHERE player_id = $1 AND removed_ms IS NULL",
                &[Arg::I64(player), Arg::I64(now_ms)],
            )
            .await?;
            // Off the boards, and nothing left to act as them.
            for sql in [
                "DELETE FROM bests WHERE player_id = $1",
                "DELETE FROM pbs WHERE player_id = $1",
                "DELETE FROM player_keys WHERE player_id = $1",
                "DELETE FROM device_codes WHERE player_id = $1",
                "DELETE FROM seeds WHERE player_id = $1 AND run_id IS NULL",
                "DELETE FROM saves WHERE player_id = $1",
            ] {
                tx.execute(sql, &[Arg::I64(player)]).await?;
            }
            Ok(())
        })
    })
}
