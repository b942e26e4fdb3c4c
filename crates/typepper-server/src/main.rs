//! `typepper-server`: the HTTP and SSH server, and the operator's commands (`backup`,
//! `hide`, `ban`). Every setting is a flag or an environment variable; see `--help`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use clap::Parser;
use typepper_server::config::Urls;
use typepper_server::{Config, Shared, app, serve, store, sweep};

/// typepper's server: scores every submitted replay by playing it, stores runs, and
/// serves boards, share pages and the game.
#[derive(Parser)]
#[command(version, max_term_width = 100)]
struct Args {
    /// Something to do instead of serving.
    #[command(subcommand)]
    command: Option<Command>,
    /// Address to listen on (port 0 picks a free one).
    #[arg(long, env = "TYPEPPER_LISTEN", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    #[command(flatten)]
    store: store::Options,
    #[command(flatten)]
    urls: Urls,
    #[command(flatten)]
    config: Config,
    /// How the log is written: text for people, json (one object a line) for machines.
    #[arg(long, env = "TYPEPPER_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// Serve GET /metrics (Prometheus' text format) on this address, for the operator;
    /// off unless given. Keep it off the public network.
    #[arg(long, env = "TYPEPPER_METRICS_LISTEN")]
    metrics_listen: Option<SocketAddr>,
    /// Address to speak the `v1` line protocol over SSH on, for the terminal game (off
    /// unless set).
    #[arg(long, env = "TYPEPPER_SSH_LISTEN")]
    ssh_listen: Option<SocketAddr>,
    /// The SSH host key (OpenSSH format); by default `ssh_host_ed25519_key` in the data
    /// dir, made on first start.
    #[arg(long, env = "TYPEPPER_SSH_HOST_KEY")]
    ssh_host_key: Option<std::path::PathBuf>,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Copy the embedded database to PATH while the server runs: a consistent snapshot,
    /// taken with SQLite's online backup. (PostgreSQL is backed up with pg_dump.)
    Backup {
        /// Where the copy goes; it appears whole or not at all.
        path: PathBuf,
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

/// How the log is written.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum LogFormat {
    /// A line of text an event.
    Text,
    /// A JSON object an event.
    Json,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let level = if args.config.quiet {
        tracing::Level::WARN
    } else {
        tracing::Level::INFO
    };
    let log = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    match args.log_format {
        LogFormat::Text => log.init(),
        LogFormat::Json => log.json().init(),
    }
    match &args.command {
        Some(Command::Backup { path }) => return backup(&args, path),
        Some(Command::Hide { run }) => return moderate(&args, Moderate::Hide(run)).await,
        Some(Command::Ban { name }) => return moderate(&args, Moderate::Ban(name)).await,
        None => {}
    }
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("listening on {}", args.listen))?;
    let addr = listener.local_addr()?;
    let mut config = args.config.clone();
    config.listening(args.urls.clone(), addr);
    if config.ssh.body_budget / typepper_server::ssh::BODY_SHARES < typepper_server::MAX_BODY {
        tracing::warn!(
            "--ssh-body-budget {} gives an address {} bytes at once, less than one whole \
             submission ({} bytes): the largest will always be refused over SSH",
            config.ssh.body_budget,
            config.ssh.body_budget / typepper_server::ssh::BODY_SHARES,
            typepper_server::MAX_BODY
        );
    }
    if !config
        .static_dir
        .join("web/pkg/typepper_web_bg.wasm")
        .exists()
    {
        tracing::warn!(
            "{} has no built game (web/pkg): run `cargo xtask serve` to build it",
            config.static_dir.display()
        );
    }
    let store = store::open(&args.store)
        .await
        .context("opening the database")?;
    let database = match &args.store.url {
        Some(u) if u.starts_with("postgres") => "PostgreSQL".to_owned(),
        Some(u) => format!("SQLite at {u}"),
        None => format!(
            "SQLite at {}",
            args.store.data_dir.join("typepper.sqlite3").display()
        ),
    };
    let state = Arc::new(Shared::new(store, config));
    tokio::spawn(sweep::run(state.clone()));
    if let Some(url) = args
        .store
        .url
        .as_deref()
        .filter(|_| args.store.is_postgres())
    {
        // Several servers on one PostgreSQL race in each other's rooms through it.
        typepper_server::rooms::relay::start(state.clone(), url)
            .await
            .context("listening for the other servers' rooms on PostgreSQL")?;
    }
    let metrics = match args.metrics_listen {
        Some(at) => Some(
            tokio::net::TcpListener::bind(at)
                .await
                .with_context(|| format!("listening for metrics on {at}"))?,
        ),
        None => None,
    };
    let ssh = match args.ssh_listen {
        Some(at) => {
            let path = args
                .ssh_host_key
                .clone()
                .unwrap_or_else(|| args.store.data_dir.join("ssh_host_ed25519_key"));
            let key = typepper_server::ssh::host_key(&path)?;
            let listener = tokio::net::TcpListener::bind(at)
                .await
                .with_context(|| format!("listening for SSH on {at}"))?;
            Some((listener, key))
        }
        None => None,
    };
    // One signal stops both protocols.
    let (stop, stopping) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        stop_signal().await;
        let _ = stop.send(true);
    });
    let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|stop| *stop).await;
    };
    println!("typepper is serving on http://{addr} ({database})");
    let ssh = match ssh {
        Some((listener, key)) => {
            println!(
                "ssh on ssh://{} (host key {})",
                listener.local_addr()?,
                typepper_server::ssh::fingerprint(key.public_key())
            );
            let (router, state) = (app(state.clone()), state.clone());
            let serving = typepper_server::ssh::serve_ssh(
                listener,
                key,
                state,
                router,
                stopped(stopping.clone()),
            );
            Some(tokio::spawn(serving))
        }
        None => None,
    };
    if let Some(metrics) = metrics {
        // Said after the line above, which scripts read first for the address.
        println!("metrics on http://{}/metrics", metrics.local_addr()?);
        let (limits, router) = (state.limits(), typepper_server::metrics_app(state.clone()));
        tokio::spawn(serve(metrics, router, limits, std::future::pending()));
    }
    serve(
        listener,
        app(state.clone()),
        state.limits(),
        stopped(stopping),
    )
    .await?;
    // Each room stores the rounds it was storing, tells its connections why, and closes.
    let within = std::time::Duration::from_secs(state.config.shutdown_secs);
    if state
        .rooms
        .close_all("the server is stopping: this room ends", within)
        .await
        > 0
    {
        // A moment for the connections to send that line.
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    if let Some(ssh) = ssh {
        ssh.await??;
    }
    tracing::info!("typepper stopped");
    Ok(())
}

/// `typepper-server backup PATH`.
fn backup(args: &Args, to: &std::path::Path) -> anyhow::Result<()> {
    let Some(from) = args.store.sqlite_path() else {
        anyhow::bail!(
            "the database is PostgreSQL: back it up with pg_dump (see the README), not this"
        );
    };
    let bytes = store::sqlite::backup(&from, to)?;
    println!(
        "backed up {} to {} ({bytes} bytes)",
        from.display(),
        to.display()
    );
    Ok(())
}

/// What the operator takes off the boards.
enum Moderate<'a> {
    Hide(&'a str),
    Ban(&'a str),
}

/// `typepper-server hide RUN` and `typepper-server ban NAME`, on the database the server
/// uses (it may be running: SQLite waits for its writer, PostgreSQL locks the rows).
async fn moderate(args: &Args, what: Moderate<'_>) -> anyhow::Result<()> {
    let options = &args.store;
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
            println!("run {id} is off the boards {later}");
        }
        Moderate::Ban(name) => {
            let Some(banned) = store.ban_player(name.to_owned()).await? else {
                anyhow::bail!("nobody is called {name}, or anything like it");
            };
            println!("{banned} and every run of theirs are off the boards {later}");
        }
    }
    Ok(())
}

/// SIGINT (Ctrl-C) or SIGTERM (what a service manager or `docker stop` sends).
async fn stop_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let term = async {
        match signal(SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = term => {}
    }
    tracing::info!("typepper is stopping: finishing the requests in flight");
}
