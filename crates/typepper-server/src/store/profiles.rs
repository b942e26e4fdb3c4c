//! A player's profile: what the store keeps of them that anyone may see.

use super::backend::{Access, Backend};
use super::submission::ALL_TIME;
use super::tx::{Arg, Row, Tx};
use super::{Fut, PlayerId};

/// What the store has of a player for their profile, as its rows say it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProfileRows {
    /// Who.
    pub id: PlayerId,
    /// Their name, as they wrote it.
    pub name: String,
    /// When they became a player.
    pub joined_ms: i64,
    /// Rounds stored, and their time in ms, since they joined…
    pub all: (u32, i64),
    /// …and since the month's start.
    pub month: (u32, i64),
    /// Their all-time best ranked run of each mode.
    pub bests: Vec<RunRow>,
    /// Their latest runs, newest first.
    pub recent: Vec<RunRow>,
    /// wpm and accuracy (hundredths) of every round with its numbers kept, oldest first.
    pub rounds: Vec<(u32, u32)>,
    /// The replays of their latest runs, for the keys analysis.
    pub replays: Vec<Vec<u8>>,
}

/// One of a player's runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunRow {
    /// Its id.
    pub id: String,
    /// `Mode::key`.
    pub mode: String,
    /// The headline number.
    pub score: u32,
    /// wpm in hundredths.
    pub wpm_x100: u32,
    /// Accuracy in hundredths of a percent.
    pub accuracy_x100: u32,
    /// When it was stored.
    pub created_ms: i64,
    /// It counts for the boards.
    pub ranked: bool,
    /// The daily it is a round of, if any.
    pub daily: Option<u32>,
}

/// `SELECT`s a [`RunRow`] from `runs r`.
const RUN_COLUMNS: &str = "r.id, r.mode, r.score, r.wpm_x100, r.accuracy_x100, r.created_ms,
     r.unranked IS NULL AND r.pending IS NULL AND NOT r.hidden, r.daily";

fn run_row(r: &Row) -> RunRow {
    RunRow {
        id: r.text(0),
        mode: r.text(1),
        score: r.uint(2),
        wpm_x100: r.uint(3),
        accuracy_x100: r.uint(4),
        created_ms: r.int(5).unwrap_or(0),
        ranked: r.bool(6),
        daily: r.int(7).and_then(|n| u32::try_from(n).ok()),
    }
}

/// The profile of the player whose name folds to `key`, with `recent` of their latest
/// runs, and the replays of `replays` of them; `None` for no such player, a guest, a
/// banned player, or one who deleted their account. `month_ms` is when this month began.
pub fn profile<B: Backend>(
    b: &B,
    key: String,
    month_ms: i64,
    recent: u32,
    replays: u32,
) -> Fut<'_, Option<ProfileRows>> {
    b.work(Access::Read, move |tx| {
        Box::pin(async move {
            let found = tx
                .query(
                    "SELECT id, name, created_ms FROM players
                     WHERE name_key = $1 AND NOT guest AND NOT banned AND deleted_ms IS NULL",
                    &[Arg::Text(&key)],
                )
                .await?;
            let Some(player) = found.first() else {
                return Ok(None);
            };
            let id: PlayerId = player.int(0).unwrap_or(0);
            let bests = tx
                .query(
                    &format!(
                        "SELECT {RUN_COLUMNS} FROM bests b JOIN runs r ON r.id = b.run_id
                         WHERE b.player_id = $1 AND b.month = $2"
                    ),
                    &[Arg::I64(id), Arg::Text(ALL_TIME)],
                )
                .await?;
            let latest = tx
                .query(
                    &format!(
                        "SELECT {RUN_COLUMNS} FROM runs r
                         WHERE r.player_id = $1 AND NOT r.hidden ORDER BY r.created_ms DESC, r.id LIMIT $2"
                    ),
                    &[Arg::I64(id), Arg::I64(recent.into())],
                )
                .await?;
            // Every round once: the counts, the month's, and the series of those with
            // their numbers kept (migration 12) are all read off it.
            let rounds = tx
                .query(
                    "SELECT wpm_x100, accuracy_x100, duration_ms, created_ms FROM rounds
                     WHERE player_id = $1 ORDER BY created_ms, run_id",
                    &[Arg::I64(id)],
                )
                .await?;
            let (mut all, mut month, mut series) = ((0, 0), (0, 0), vec![]);
            for r in &rounds {
                let ms = r.int(2).unwrap_or(0);
                all = (all.0 + 1, all.1 + ms);
                if r.int(3).unwrap_or(0) >= month_ms {
                    month = (month.0 + 1, month.1 + ms);
                }
                if let (Some(_), Some(_)) = (r.int(0), r.int(1)) {
                    series.push((r.uint(0), r.uint(1)));
                }
            }
            let kept = tx
                .query(
                    "SELECT replay FROM runs WHERE player_id = $1
                     ORDER BY created_ms DESC, id LIMIT $2",
                    &[Arg::I64(id), Arg::I64(replays.into())],
                )
                .await?;
            Ok(Some(ProfileRows {
                id,
                name: player.text(1),
                joined_ms: player.int(2).unwrap_or(0),
                all,
                month,
                bests: bests.iter().map(run_row).collect(),
                recent: latest.iter().map(run_row).collect(),
                rounds: series,
                replays: kept.iter().map(|r| r.bytes(0)).collect(),
            }))
        })
    })
}
