//! Devices: the tokens (browsers, terminal games) and SSH keys that are a player, the
//! one-time codes that add one, and taking one away.

use super::backend::{Access, Backend};
use super::tx::{self, Arg, Row, Tx};
use super::{DeviceRow, Fut, NewDevice, Player, PlayerId, StoreError};

/// A player from a row of `id, name`.
fn read_player(r: &Row) -> Player {
    Player {
        id: r.int(0).unwrap_or(0),
        name: r.text(1),
    }
}

/// The id a token's device goes by in the API: `web-12`.
pub fn token_id(id: i64) -> String {
    format!("web-{id}")
}

/// The player whose device has the token hashing to `token_hash`, unless it was removed.
pub fn by_token<B: Backend>(b: &B, token_hash: [u8; 32]) -> Fut<'_, Option<Player>> {
    b.work(Access::Read, move |tx| {
        Box::pin(async move {
            let rows = tx
                .query(
                    "SELECT p.id, p.name FROM devices d JOIN players p ON p.id = d.player_id
                     WHERE d.token_hash = $1 AND d.removed_ms IS NULL",
                    &[Arg::Bytes(&token_hash)],
                )
                .await?;
            Ok(rows.first().map(read_player))
        })
    })
}

/// Whether the token hashing to `token_hash` was a device its player removed.
pub fn removed<B: Backend>(b: &B, token_hash: [u8; 32]) -> Fut<'_, bool> {
    b.work(Access::Read, move |tx| {
        Box::pin(async move {
            let rows = tx
                .query(
                    "SELECT EXISTS (SELECT 1 FROM devices
                                    WHERE token_hash = $1 AND removed_ms IS NOT NULL)",
                    &[Arg::Bytes(&token_hash)],
                )
                .await?;
            Ok(rows.first().is_some_and(|r| r.bool(0)))
        })
    })
}

/// Adds a token's device to `player`, in the transaction that made them or claimed a code.
pub async fn add_token(
    tx: &mut impl Tx,
    player: PlayerId,
    token_hash: &[u8; 32],
    name: &str,
    now_ms: i64,
) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO devices (player_id, token_hash, name, created_ms) VALUES ($1, $2, $3, $4)",
        &[
            Arg::I64(player),
            Arg::Bytes(token_hash),
            Arg::Text(name),
            Arg::I64(now_ms),
        ],
    )
    .await?;
    Ok(())
}

/// `player`'s devices, tokens and keys, the oldest first.
pub fn list<B: Backend>(b: &B, player: PlayerId) -> Fut<'_, Vec<DeviceRow>> {
    b.work(Access::Read, move |tx| {
        Box::pin(async move {
            let tokens = tx
                .query(
                    "SELECT id, name, created_ms, token_hash FROM devices
                     WHERE player_id = $1 AND removed_ms IS NULL ORDER BY created_ms, id",
                    &[Arg::I64(player)],
                )
                .await?;
            let keys = tx
                .query(
                    "SELECT fingerprint, linked_ms FROM player_keys
                     WHERE player_id = $1 ORDER BY linked_ms, fingerprint",
                    &[Arg::I64(player)],
                )
                .await?;
            let mut all: Vec<DeviceRow> = tokens
                .iter()
                .map(|r| DeviceRow {
                    id: token_id(r.int(0).unwrap_or(0)),
                    name: r.text(1),
                    created_ms: r.int(2).unwrap_or(0),
                    token_hash: r.bytes(3).try_into().ok(),
                })
                .chain(keys.iter().map(|r| DeviceRow {
                    id: r.text(0),
                    name: r.text(0),
                    created_ms: r.int(1).unwrap_or(0),
                    token_hash: None,
                }))
                .collect();
            all.sort_by_key(|d| d.created_ms);
            Ok(all)
        })
    })
}

/// Keeps a new code for `player`, asked for by their device `asked_by`, after letting
/// go of their expired ones; [`StoreError::TooManyCodes`] if `max_live` are live,
/// [`StoreError::Banned`] for a banned player.
pub fn issue_code<B: Backend>(
    b: &B,
    player: PlayerId,
    code_hash: [u8; 32],
    asked_by: String,
    now_ms: i64,
    expires_ms: i64,
    max_live: u32,
) -> Fut<'_, ()> {
    b.work(Access::Transaction, move |tx| {
        Box::pin(async move {
            // Two asks at once count the player's codes one after the other.
            let lock = tx.dialect().for_update;
            let found = tx
                .query(
                    &format!("SELECT banned FROM players WHERE id = $1{lock}"),
                    &[Arg::I64(player)],
                )
                .await?;
            if found.first().is_some_and(|r| r.bool(0)) {
                return Err(StoreError::Banned);
            }
            tx.execute(
                "DELETE FROM device_codes WHERE player_id = $1 AND expires_ms <= $2",
                &[Arg::I64(player), Arg::I64(now_ms)],
            )
            .await?;
            let live = tx
                .query(
                    "SELECT count(*) FROM device_codes WHERE player_id = $1",
                    &[Arg::I64(player)],
                )
                .await?
                .first()
                .and_then(|r| r.int(0))
                .unwrap_or(0);
            if live >= i64::from(max_live) {
                return Err(StoreError::TooManyCodes(max_live));
            }
            tx.execute(
                "INSERT INTO device_codes (code_hash, player_id, asked_by, expires_ms)
                 VALUES ($1, $2, $3, $4)",
                &[
                    Arg::Bytes(&code_hash),
                    Arg::I64(player),
                    Arg::Text(&asked_by),
                    Arg::I64(expires_ms),
                ],
            )
            .await?;
            Ok(())
        })
    })
}

/// Uses the code hashing to `code_hash` at `now_ms`: it goes, and `device` becomes its
/// player, who is answered. [`StoreError::NoSuchCode`] for a code unknown, used or
/// expired; [`StoreError::Banned`] for a banned player's (a ban deletes their codes, so
/// only one shown since can be). Any refusal rolls the use of the code back.
pub fn claim_code<B: Backend>(
    b: &B,
    code_hash: [u8; 32],
    now_ms: i64,
    device: NewDevice,
) -> Fut<'_, Player> {
    b.work(Access::Transaction, move |tx| {
        Box::pin(async move {
            // The player's row first, as a deletion or a code's issue takes it, then the
            // code's: two transactions that take them in one order never wait on each
            // other. Deleted as it is read: of two claims at once, one finds it.
            let owner = tx
                .query(
                    "SELECT player_id FROM device_codes WHERE code_hash = $1",
                    &[Arg::Bytes(&code_hash)],
                )
                .await?;
            let Some(owner) = owner.first().and_then(|r| r.int(0)) else {
                return Err(StoreError::NoSuchCode);
            };
            let lock = tx.dialect().for_update;
            let found = tx
                .query(
                    &format!("SELECT id, name, banned FROM players WHERE id = $1{lock}"),
                    &[Arg::I64(owner)],
                )
                .await?;
            let used = tx
                .query(
                    "DELETE FROM device_codes WHERE code_hash = $1
                     RETURNING player_id, expires_ms",
                    &[Arg::Bytes(&code_hash)],
                )
                .await?;
            let Some(expires_ms) = used.first().map(|r| r.int(1).unwrap_or(0)) else {
                return Err(StoreError::NoSuchCode);
            };
            if expires_ms <= now_ms {
                return Err(StoreError::NoSuchCode);
            }
            let Some(row) = found.first() else {
                return Err(StoreError::NoSuchCode);
            };
            if row.bool(2) {
                return Err(StoreError::Banned);
            }
            let holder = read_player(row);
            match device {
                NewDevice::Token { hash, name } => {
                    add_token(tx, holder.id, &hash, &name, now_ms).await?;
                }
                NewDevice::Key {
                    fingerprint,
                    max_keys,
                } => {
                    super::players::link_key_in(tx, &fingerprint, holder.id, now_ms, max_keys)
                        .await?
                }
            }
            Ok(holder)
        })
    })
}

/// Takes the device `id` from `player` at `now_ms`, with the codes it asked for: a
/// token's is marked removed, a key is unlinked. `false` if the player has no such device;
/// [`StoreError::LastDevice`] for the only one they have.
pub fn remove<B: Backend>(b: &B, player: PlayerId, id: String, now_ms: i64) -> Fut<'_, bool> {
    b.work(Access::Transaction, move |tx| {
        Box::pin(async move {
            tx::lock_player(tx, player).await?;
            let count = tx
                .query(
                    "SELECT (SELECT count(*) FROM devices
                             WHERE player_id = $1 AND removed_ms IS NULL)
                          + (SELECT count(*) FROM player_keys WHERE player_id = $1)",
                    &[Arg::I64(player)],
                )
                .await?;
            let devices = count.first().and_then(|r| r.int(0)).unwrap_or(0);
            let token = id.strip_prefix("web-").and_then(|n| n.parse::<i64>().ok());
            let gone = match token {
                Some(n) => {
                    tx.execute(
                        "UPDATE devices SET removed_ms = $3
                         WHERE id = $1 AND player_id = $2 AND removed_ms IS NULL",
                        &[Arg::I64(n), Arg::I64(player), Arg::I64(now_ms)],
                    )
                    .await?
                }
                None => {
                    tx.execute(
                        "DELETE FROM player_keys WHERE fingerprint = $1 AND player_id = $2",
                        &[Arg::Text(&id), Arg::I64(player)],
                    )
                    .await?
                }
            };
            if gone == 0 {
                return Ok(false);
            }
            // The last device can't go: the account would be out of its player's reach
            // for good (no export, no deletion, the name never free). Rolled back.
            if devices <= 1 {
                return Err(StoreError::LastDevice);
            }
            tx.execute(
                "DELETE FROM device_codes WHERE player_id = $1 AND asked_by = $2",
                &[Arg::I64(player), Arg::Text(&id)],
            )
            .await?;
            Ok(true)
        })
    })
}
