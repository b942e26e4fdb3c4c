//! `typepper-server`: the HTTP and SSH server, and the operator's commands (`backup`,
//! `hide`, `ban`). Every setting is a flag or an environment variable; see `--help`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use clap::Parser;
use typepper_server::{Config, State, app, serve, store, sweep};

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
    /// Database: postgres://… for PostgreSQL, or a SQLite file path (sqlite://path).
    /// Without it, SQLite in the data dir.
    #[arg(long, env = "TYPEPPER_DATABASE_URL", global = true)]
    database_url: Option<String>,
    /// Where the embedded SQLite database lives.
    #[arg(long, env = "TYPEPPER_DATA_DIR", default_value = "data", global = true)]
    data_dir: PathBuf,
    /// The game's public URL (share pages link to it); by default http://<listen>.
    #[arg(long, env = "TYPEPPER_PUBLIC_URL")]
    public_url: Option<String>,
    /// Where the game reaches the API; by default the public URL.
    #[arg(long, env = "TYPEPPER_API_URL")]
    api_url: Option<String>,
    /// What share links start with, e.g. https://r.typepper.com; by default <public URL>/r.
    #[arg(long, env = "TYPEPPER_SHARE_URL")]
    share_url: Option<String>,
    /// The folder holding index.html and web/ (the built game).
    #[arg(long, env = "TYPEPPER_STATIC_DIR", default_value = ".")]
    static_dir: PathBuf,
    /// Requests a second per IP to /v1 (bursts of twice that); 0 turns the limit off.
    #[arg(long, env = "TYPEPPER_IP_RATE", default_value_t = 50)]
    ip_rate: u32,
    /// Runs a second per player (bursts of ten times that, and at least a full body of
    /// 50); 0 turns it off.
    #[arg(long, env = "TYPEPPER_PLAYER_RATE", default_value_t = 2)]
    player_rate: u32,
    /// Players linked an hour per IP; 0 turns the limit off.
    #[arg(long, env = "TYPEPPER_REGISTER_RATE", default_value_t = 10)]
    register_rate: u32,
    /// Runs stored a UTC day per player.
    #[arg(long, env = "TYPEPPER_DAILY_RUNS", default_value_t = 1_000)]
    daily_runs: u32,
    /// Replay bytes stored a UTC day per player (16 MiB).
    #[arg(long, env = "TYPEPPER_DAILY_BYTES", default_value_t = 16 << 20)]
    daily_bytes: u64,
    /// Days a run is kept unless it is a player's monthly best.
    #[arg(long, env = "TYPEPPER_RETENTION_DAYS", default_value_t = 8)]
    retention_days: u32,
    /// Seconds between retention sweeps.
    #[arg(long, env = "TYPEPPER_SWEEP_SECS", default_value_t = 600)]
    sweep_secs: u64,
    /// Seconds before a request is answered 408.
    #[arg(long, env = "TYPEPPER_REQUEST_TIMEOUT", default_value_t = 10)]
    request_timeout: u64,
    /// Seconds a client has to send a request's headers, and a kept-alive connection may
    /// sit idle.
    #[arg(long, env = "TYPEPPER_HEADER_TIMEOUT", default_value_t = 10)]
    header_timeout: u64,
    /// Connections served at once; past it, new ones wait to be accepted.
    #[arg(long, env = "TYPEPPER_MAX_CONNECTIONS", default_value_t = 1024)]
    max_connections: usize,
    /// Seconds a shutdown (SIGINT or SIGTERM) waits for requests in flight.
    #[arg(long, env = "TYPEPPER_SHUTDOWN_TIMEOUT", default_value_t = 10)]
    shutdown_timeout: u64,
    /// Most submissions one SQLite commit carries (group commit); 1 commits each alone.
    #[arg(long, env = "TYPEPPER_GROUP_COMMIT", default_value_t = 64)]
    group_commit: usize,
    /// Most PostgreSQL connections this server opens.
    #[arg(long, env = "TYPEPPER_PG_CONNECTIONS", default_value_t = 16)]
    pg_connections: usize,
    /// Seconds a PostgreSQL connection, or the wait for a free one, may take.
    #[arg(long, env = "TYPEPPER_PG_TIMEOUT", default_value_t = 5)]
    pg_timeout: u64,
    /// Take client IPs from X-Forwarded-For (only behind proxies you run): the address
    /// --proxy-hops from the right, or the rightmost not in --trusted-proxies.
    #[arg(long, env = "TYPEPPER_TRUST_PROXY")]
    trust_proxy: bool,
    /// How many proxies you run in front of the server, each appending to
    /// X-Forwarded-For.
    #[arg(long, env = "TYPEPPER_PROXY_HOPS", default_value_t = 1)]
    proxy_hops: u32,
    /// Your proxies' addresses or ranges (10.0.0.0/8,2001:db8::/32): X-Forwarded-For
    /// counts only on connections from them.
    #[arg(long, env = "TYPEPPER_TRUSTED_PROXIES", value_delimiter = ',')]
    trusted_proxies: Vec<typepper_server::client::Cidr>,
    /// Bytes of recently read runs kept in memory (runs over 1/256 of it are not kept).
    #[arg(long, env = "TYPEPPER_CACHE_BYTES", default_value_t = 64 << 20)]
    cache_bytes: usize,
    /// Don't log a line per request.
    #[arg(long, env = "TYPEPPER_QUIET")]
    quiet: bool,
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
    /// SSH connections open at once from one address (an IPv6 /64 counts as one).
    #[arg(long, env = "TYPEPPER_SSH_PER_IP", default_value_t = 16)]
    ssh_per_ip: usize,
    /// SSH connections at once that have not authenticated yet; past it, new ones are
    /// closed at once.
    #[arg(long, env = "TYPEPPER_SSH_HANDSHAKES", default_value_t = 64)]
    ssh_handshakes: usize,
    /// Seconds an SSH connection has to authenticate, whatever it sends meanwhile.
    #[arg(long, env = "TYPEPPER_SSH_AUTH_TIMEOUT", default_value_t = 15)]
    ssh_auth_timeout: u64,
    /// Seconds an SSH connection may stay open at most.
    #[arg(long, env = "TYPEPPER_SSH_MAX_TIME", default_value_t = 3_600)]
    ssh_max_time: u64,
    /// Seconds a logged-in SSH connection may sit with no command running.
    #[arg(long, env = "TYPEPPER_SSH_IDLE_TIMEOUT", default_value_t = 60)]
    ssh_idle_timeout: u64,
    /// Commands one SSH connection may run; then it is closed (the client connects again).
    #[arg(long, env = "TYPEPPER_SSH_MAX_COMMANDS", default_value_t = 10_000)]
    ssh_max_commands: u32,
    /// Bytes of `v1 submit` bodies the SSH server holds at once while they arrive; past
    /// it a body is refused (64 MiB).
    #[arg(long, env = "TYPEPPER_SSH_BODY_BUDGET", default_value_t = 64 << 20)]
    ssh_body_budget: usize,
    /// SSH keys one player may link.
    #[arg(long, env = "TYPEPPER_MAX_KEYS", default_value_t = 8)]
    max_keys: u32,
    /// A player's first ranked run over this many wpm waits off the boards until they
    /// confirm it; 0 turns this off.
    #[arg(long, env = "TYPEPPER_PENDING_FIRST_WPM", default_value_t = 150)]
    pending_first_wpm: u32,
    /// A ranked run more than this many percent above its player's best wpm waits off the
    /// boards until they confirm it; 0 turns this off.
    #[arg(long, env = "TYPEPPER_PENDING_OVER_BEST", default_value_t = 30)]
    pending_over_best: u32,
    /// A ranked run within this many percent of a waiting run's wpm confirms it.
    #[arg(long, env = "TYPEPPER_CONFIRM_WITHIN", default_value_t = 25)]
    confirm_within: u32,
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
    let level = if args.quiet {
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
    let public = args.public_url.unwrap_or_else(|| format!("http://{addr}"));
    let mut config = Config::new(&public, args.static_dir.clone());
    if let Some(api) = args.api_url {
        config.api_url = api.trim_end_matches('/').to_owned();
    }
    if let Some(share) = args.share_url {
        config.share_url = share.trim_end_matches('/').to_owned();
    }
    config.ip_rate = args.ip_rate;
    config.player_rate = args.player_rate;
    config.register_per_hour = args.register_rate;
    config.daily_runs = args.daily_runs;
    config.daily_bytes = args.daily_bytes;
    config.retention_days = args.retention_days;
    config.sweep_secs = args.sweep_secs;
    config.request_timeout_secs = args.request_timeout;
    config.header_timeout_secs = args.header_timeout;
    config.max_connections = args.max_connections;
    config.shutdown_secs = args.shutdown_timeout;
    config.proxies = typepper_server::client::Proxies {
        trust: args.trust_proxy,
        hops: args.proxy_hops,
        ranges: args.trusted_proxies,
    };
    config.cache_bytes = args.cache_bytes;
    config.log_requests = !args.quiet;
    config.max_keys = args.max_keys;
    config.watch = typepper_server::submit::rank::Watch {
        first_wpm: args.pending_first_wpm,
        over_best_percent: args.pending_over_best,
        confirm_percent: args.confirm_within,
    };
    config.ssh = typepper_server::config::SshLimits {
        per_ip: args.ssh_per_ip,
        handshakes: args.ssh_handshakes,
        auth_secs: args.ssh_auth_timeout,
        max_secs: args.ssh_max_time,
        idle_secs: args.ssh_idle_timeout,
        max_commands: args.ssh_max_commands,
        body_budget: args.ssh_body_budget,
    };
    if config.ssh.body_budget / typepper_server::ssh::BODY_SHARES < typepper_server::MAX_BODY {
        tracing::warn!(
            "--ssh-body-budget {} gives an address {} bytes at once, less than one whole \
             submission ({} bytes): the largest will always be refused over SSH",
            config.ssh.body_budget,
            config.ssh.body_budget / typepper_server::ssh::BODY_SHARES,
            typepper_server::MAX_BODY
        );
    }
    if !args
        .static_dir
        .join("web/pkg/typepper_web_bg.wasm")
        .exists()
    {
        tracing::warn!(
            "{} has no built game (web/pkg): run `cargo xtask serve` to build it",
            args.static_dir.display()
        );
    }
    let mut options = store::Options::new(args.database_url.as_deref(), &args.data_dir);
    options.group_commit = args.group_commit;
    options.pg_connections = args.pg_connections;
    options.pg_timeout = std::time::Duration::from_secs(args.pg_timeout);
    let store = store::open(&options)
        .await
        .context("opening the database")?;
    let database = match &args.database_url {
        Some(u) if u.starts_with("postgres") => "PostgreSQL".to_owned(),
        Some(u) => format!("SQLite at {u}"),
        None => format!(
            "SQLite at {}",
            args.data_dir.join("typepper.sqlite3").display()
        ),
    };
    let state = Arc::new(State::new(store, config));
    tokio::spawn(sweep::run(state.clone()));
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
                .unwrap_or_else(|| args.data_dir.join("ssh_host_ed25519_key"));
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
    if let Some(ssh) = ssh {
        ssh.await??;
    }
    tracing::info!("typepper stopped");
    Ok(())
}

/// `typepper-server backup PATH`.
fn backup(args: &Args, to: &std::path::Path) -> anyhow::Result<()> {
    let options = store::Options::new(args.database_url.as_deref(), &args.data_dir);
    let Some(from) = options.sqlite_path() else {
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
    let options = store::Options::new(args.database_url.as_deref(), &args.data_dir);
    if options.sqlite_path().is_some_and(|p| !p.exists()) {
        anyhow::bail!(
            "there is no database in {}: give the server's --data-dir or --database-url",
            args.data_dir.display()
        );
    }
    let store = store::open(&options)
        .await
        .context("opening the database")?;
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
