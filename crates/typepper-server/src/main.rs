//! `typepper-server`: the HTTP and SSH server, and the operator's commands (`backup`,
//! `hide`, `ban`). Every setting is a flag or an environment variable; see `--help`.
//! What it does is the library's ([`typepper_server::server`]): this parses and waits.

use clap::Parser;
use typepper_server::operator::{self, Moderate};
use typepper_server::server::{self, Options, Server};

/// typepper's server: scores every submitted replay by playing it, stores runs, and
/// serves boards, share pages and the game.
#[derive(Parser)]
#[command(version, max_term_width = 100)]
struct Args {
    /// Something to do instead of serving.
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    options: Options,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Copy the embedded database to PATH while the server runs: a consistent snapshot,
    /// taken with SQLite's online backup. (PostgreSQL is backed up with pg_dump.)
    Backup {
        /// Where the copy goes; it appears whole or not at all.
        path: std::path::PathBuf,
    },
    /// Take a run off the boards: its player's monthly and personal bests are worked out
    /// again without it, and its share page says it was removed. The run stays playable.
    Hide {
        /// The run's id (8 letters and digits).
        run: String,
    },
    /// Take a player off the boards, with every run of theirs and every run to come
    /// (stored unranked); their share pages say the runs were removed.
    Ban {
        /// The player's name.
        name: String,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let Args { command, options } = Args::parse();
    options.init_log();
    let store = &options.store;
    let said = match &command {
        Some(Command::Backup { path }) => operator::backup(store, path)?,
        Some(Command::Hide { run }) => operator::moderate(store, Moderate::Hide(run)).await?,
        Some(Command::Ban { name }) => operator::moderate(store, Moderate::Ban(name)).await?,
        None => {
            let server = Server::start(options).await?;
            println!("{}", server.announce());
            return server.run(server::stop_signal()).await;
        }
    };
    println!("{said}");
    Ok(())
}

#[cfg(test)]
mod tests {
    /// clap checks the flags only when they are read: a clash would stop every start.
    #[test]
    fn the_flags_are_well_formed() {
        <super::Args as clap::CommandFactory>::command().debug_assert();
    }
}
