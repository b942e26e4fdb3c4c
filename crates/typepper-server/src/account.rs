//! A player's data: everything the server holds of them as an archive, and deleting their
//! account (docs/spec/players.md, "Your data"). Every door calls these.

use std::time::Instant;

use crate::store::{Played, Player};
use crate::{ServiceError, Shared};

/// Runs read from the database at a time while an archive is written.
const PAGE: u32 = 100;

/// Exports a player may ask for in an hour (and at once): each reads every run of theirs.
pub const EXPORTS_PER_HOUR: u32 = 10;

/// A tar entry of `data` named `name`, padded to whole blocks.
fn entry(name: &str, data: &[u8], mtime_ms: i64) -> Vec<u8> {
    let mut header = tar::Header::new_ustar();
    // Names here are ASCII and short (`runs/7Xf9qyuC.replay`): a path always fits.
    let _ = header.set_path(name);
    header.set_size(data.len() as u64);
    header.set_mode(0o644);
    header.set_mtime(u64::try_from(mtime_ms / 1000).unwrap_or(0));
    header.set_cksum();
    let mut out = header.as_bytes().to_vec();
    out.extend_from_slice(data);
    out.resize(out.len().next_multiple_of(512), 0);
    out
}

/// A run's line of `index.json`.
fn indexed(run: &Played) -> serde_json::Value {
    let title = run.mode.parse::<typepper_engine::Mode>().map(|m| m.title());
    serde_json::json!({
        "id": run.id,
        "file": format!("runs/{}.replay", run.id),
        "mode": run.mode,
        "title": title.unwrap_or_default(),
        "score": run.score,
        "wpm": f64::from(run.wpm_x100) / 100.0,
        "accuracy": f64::from(run.accuracy_x100) / 100.0,
        "duration_ms": run.duration_ms,
        "time": typepper_api::Utc::of(run.created_ms).rfc3339(),
        "ranked": run.on_boards(),
        "unranked": run.unranked,
        "pending": run.pending,
    })
}

/// An archive being written: the runs read so far, the index of them, and where the
/// next page starts.
pub struct Export {
    player: Player,
    after: String,
    index: Vec<serde_json::Value>,
    done: bool,
}

impl Shared {
    /// Starts `player`'s archive, from their allowance of exports.
    pub(crate) fn export(&self, player: Player) -> Result<Export, ServiceError> {
        self.export_limit
            .take(&player.id, Instant::now())
            .map_err(ServiceError::RateLimited)?;
        Ok(Export {
            player,
            after: String::new(),
            index: vec![],
            done: false,
        })
    }

    /// The archive's next bytes: a page of runs, each `runs/<id>.replay`, then
    /// `index.json` and the archive's end; `None` once it has ended.
    pub(crate) async fn export_next(
        &self,
        export: &mut Export,
    ) -> Result<Option<Vec<u8>>, ServiceError> {
        if export.done {
            return Ok(None);
        }
        let page = (self.store)
            .runs_of(export.player.id, export.after.clone(), PAGE)
            .await?;
        let mut out = vec![];
        for run in &page {
            let name = format!("runs/{}.replay", run.id);
            out.extend(entry(&name, &run.replay, run.created_ms));
            export.index.push(indexed(run));
        }
        match page.last() {
            Some(last) if page.len() == PAGE as usize => export.after = last.id.clone(),
            _ => {
                let index = serde_json::json!({
                    "name": export.player.name,
                    "exported": typepper_api::Utc::of(self.now_ms()).rfc3339(),
                    "runs": export.index,
                });
                let json = serde_json::to_vec_pretty(&index).unwrap_or_default();
                out.extend(entry("index.json", &json, self.now_ms()));
                // The end of a tar archive: two empty blocks.
                out.extend([0; 1024]);
                export.done = true;
            }
        }
        Ok(Some(out))
    }

    /// Deletes `player`'s account now: their runs are off the boards and gone from their
    /// links at once (the runs read lately are forgotten), every device of theirs stops
    /// working, their rows go within a day and their name is free in 30 days.
    pub(crate) async fn delete_account(
        &self,
        player: &Player,
    ) -> Result<typepper_api::Deleted, ServiceError> {
        let now = self.now_ms();
        self.store.delete_player(player.id, now).await?;
        self.runs.clear();
        self.profiles.forget(player.id);
        let day = 86_400_000;
        let free = now + crate::sweep::DELETED_NAME_DAYS * day;
        Ok(typepper_api::Deleted {
            name: player.name.clone(),
            rows_gone_by: typepper_api::Utc::of(now + day).rfc3339(),
            name_free_from: typepper_api::Utc::of(free).rfc3339(),
        })
    }
}
