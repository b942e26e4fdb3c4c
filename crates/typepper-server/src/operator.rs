//! The operator's commands, run on the database a server uses (it may be running: SQLite
//! waits for its writer, PostgreSQL locks the rows). Each answers a line to print, or
//! why not.

use std::path::Path;

use anyhow::Context;

use crate::store;

/// `typepper-server backup PATH`: a consistent copy of the embedded database, taken with
/// SQLite's online backup.
pub fn backup(options: &store::Options, to: &Path) -> anyhow::Result<String> {
    let Some(from) = options.sqlite_path() else {
        anyhow::bail!(
            "the database is PostgreSQL: back it up with pg_dump (see the README), not this"
        );
    };
    let bytes = store::sqlite::backup(&from, to)?;
    Ok(format!(
        "backed up {} to {} ({bytes} bytes)",
        from.display(),
        to.display()
    ))
}

/// What the operator takes off the boards.
pub enum Moderate<'a> {
    /// A run, by its id.
    Hide(&'a str),
    /// A player, by name, with every run of theirs.
    Ban(&'a str),
}

/// `typepper-server hide RUN` and `typepper-server ban NAME`.
pub async fn moderate(options: &store::Options, what: Moderate<'_>) -> anyhow::Result<String> {
    if options.sqlite_path().is_some_and(|p| !p.exists()) {
        anyhow::bail!(
            "there is no database in {}: give the server's --data-dir or --database-url",
            options.data_dir.display()
        );
    }
    let store = store::open(options).await.context("opening the database")?;
    // Servers running now keep a read run for up to ten minutes: their share pages say
    // so once it is read again.
    let later = "(a running server's share page says so within 10 minutes)";
    match what {
        Moderate::Hide(id) => {
            if !typepper_api::is_run_id(id) {
                anyhow::bail!("{id:?} is not a run id: it is 8 letters and digits");
            }
            if !store.hide_run(id.to_owned()).await? {
                anyhow::bail!("there is no run {id}");
            }
            Ok(format!("run {id} is off the boards {later}"))
        }
        Moderate::Ban(name) => {
            let Some(banned) = store.ban_player(name.to_owned()).await? else {
                anyhow::bail!("nobody is called {name}, or anything like it");
            };
            Ok(format!(
                "{banned} and every run of theirs are off the boards {later}"
            ))
        }
    }
}
