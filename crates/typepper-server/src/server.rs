//! The server as one value: [`Server::start`] binds its ports, opens its database and
//! starts its background work from its [`Options`]; [`Server::run`] serves every door
//! (HTTP, SSH, metrics) until a stop, then ends each room and waits for SSH. `main` only
//! parses flags, says where it serves and waits for a signal.

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use russh::keys::ssh_key::PrivateKey;
use tokio::net::TcpListener;

use crate::config::Urls;
use crate::{Config, Shared, app, metrics_app, serve, ssh, store, sweep};

/// Everything a server is started with: flags and environment variables.
#[derive(Clone, Debug, clap::Args)]
// Its own name: the store's settings are `Options` too.
#[group(id = "ServerOptions")]
pub struct Options {
    /// Address to listen on (port 0 picks a free one).
    #[arg(long, env = "TYPEPPER_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    #[command(flatten)]
    pub store: store::Options,
    #[command(flatten)]
    pub urls: Urls,
    #[command(flatten)]
    pub config: Config,
    /// Serve GET /metrics (Prometheus' text format) on this address, for the operator;
    /// off unless given. Keep it off the public network.
    #[arg(long, env = "TYPEPPER_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,
    /// Address to speak the `v1` line protocol over SSH on, for the terminal game (off
    /// unless set).
    #[arg(long, env = "TYPEPPER_SSH_LISTEN")]
    pub ssh_listen: Option<SocketAddr>,
    /// The SSH host key (OpenSSH format); by default `ssh_host_ed25519_key` in the data
    /// dir, made on first start.
    #[arg(long, env = "TYPEPPER_SSH_HOST_KEY")]
    pub ssh_host_key: Option<PathBuf>,
    /// How the log is written: text for people, json (one object a line) for machines.
    #[arg(long, env = "TYPEPPER_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// How the log is written.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum LogFormat {
    /// A line of text an event.
    Text,
    /// A JSON object an event.
    Json,
}

impl Options {
    /// A server on `listen` (port 0 picks one) over the database `store`, with `config`
    /// (its URLs as they are), serving HTTP alone: what a test or an embedder starts.
    pub fn new(listen: SocketAddr, store: store::Options, config: Config) -> Options {
        Options {
            listen,
            store,
            urls: Urls {
                public: Some(config.public_url.clone()),
                api: Some(config.api_url.clone()),
                share: Some(config.share_url.clone()),
            },
            config,
            ..crate::defaults::of()
        }
    }

    /// Sends the log to stderr, as `--log-format` and `--quiet` say.
    pub fn init_log(&self) {
        let level = if self.config.quiet {
            tracing::Level::WARN
        } else {
            tracing::Level::INFO
        };
        let log = tracing_subscriber::fmt()
            .with_max_level(level)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .with_writer(std::io::stderr);
        match self.log_format {
            LogFormat::Text => log.init(),
            LogFormat::Json => log.json().init(),
        }
    }
}

/// A server whose ports are bound and whose database is open, not serving yet.
pub struct Server {
    /// What every door shares.
    pub state: Arc<Shared>,
    http: TcpListener,
    metrics: Option<TcpListener>,
    ssh: Option<(TcpListener, PrivateKey)>,
    /// Where it serves HTTP (the port 0 picked, too).
    pub addr: SocketAddr,
    /// Where it serves SSH, and its host key's fingerprint.
    pub ssh_at: Option<(SocketAddr, String)>,
    /// Where it serves `GET /metrics`.
    pub metrics_at: Option<SocketAddr>,
    /// Where its database is, as the operator reads it: `SQLite at data/typepper.sqlite3`.
    pub database: String,
}

impl Server {
    /// Binds every port `options` names, opens (and migrates) the database, and starts
    /// the sweep and, on PostgreSQL, the relay between servers' rooms.
    pub async fn start(options: Options) -> anyhow::Result<Server> {
        let http = bind(options.listen, "").await?;
        let mut config = options.config;
        config.listening(options.urls, http.local_addr()?);
        let share = config.ssh.body_budget / ssh::BODY_SHARES;
        if share < crate::MAX_BODY {
            tracing::warn!(
                "--ssh-body-budget {} gives an address {share} bytes at once, less than one \
                 whole submission ({} bytes): the largest will always be refused over SSH",
                config.ssh.body_budget,
                crate::MAX_BODY
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
        let db = store::open(&options.store)
            .await
            .context("opening the database")?;
        let state = Arc::new(Shared::new(db, config));
        tokio::spawn(sweep::run(state.clone()));
        if let Some(url) = options
            .store
            .url
            .as_deref()
            .filter(|_| options.store.is_postgres())
        {
            // Several servers on one PostgreSQL race in each other's rooms through it.
            crate::rooms::relay::start(state.clone(), url)
                .await
                .context("listening for the other servers' rooms on PostgreSQL")?;
        }
        let metrics = match options.metrics_listen {
            Some(at) => Some(bind(at, " for metrics").await?),
            None => None,
        };
        let ssh = match options.ssh_listen {
            Some(at) => {
                let path = options
                    .ssh_host_key
                    .unwrap_or_else(|| options.store.data_dir.join("ssh_host_ed25519_key"));
                let key = ssh::host_key(&path)?;
                Some((bind(at, " for SSH").await?, key))
            }
            None => None,
        };
        let ssh_at = match &ssh {
            Some((listener, key)) => {
                Some((listener.local_addr()?, ssh::fingerprint(key.public_key())))
            }
            None => None,
        };
        Ok(Server {
            addr: http.local_addr()?,
            ssh_at,
            metrics_at: metrics.as_ref().map(TcpListener::local_addr).transpose()?,
            state,
            http,
            metrics,
            ssh,
            database: options.store.describe(),
        })
    }

    /// Where it serves, as the operator reads it: HTTP and its database first (scripts
    /// read the first line for the address), then SSH and the metrics if served.
    pub fn announce(&self) -> String {
        let mut lines = format!(
            "typepper is serving on http://{} ({})",
            self.addr, self.database
        );
        if let Some((at, key)) = &self.ssh_at {
            lines.push_str(&format!("\nssh on ssh://{at} (host key {key})"));
        }
        if let Some(at) = self.metrics_at {
            lines.push_str(&format!("\nmetrics on http://{at}/metrics"));
        }
        lines
    }

    /// Serves until `stop`; then each room stores what it was storing, tells its
    /// connections why and closes, and the SSH games end.
    pub async fn run(self, stop: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let Server {
            state,
            http,
            metrics,
            ssh,
            ..
        } = self;
        // One stop for both protocols.
        let (tell, told) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            stop.await;
            let _ = tell.send(true);
        });
        let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
            let _ = rx.wait_for(|stop| *stop).await;
        };
        let ssh = ssh.map(|(listener, key)| {
            let serving = ssh::serve_ssh(listener, key, state.clone(), stopped(told.clone()));
            tokio::spawn(serving)
        });
        if let Some(metrics) = metrics {
            let (limits, router) = (state.limits(), metrics_app(state.clone()));
            tokio::spawn(serve(metrics, router, limits, std::future::pending()));
        }
        serve(http, app(state.clone()), state.limits(), stopped(told)).await?;
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
}

/// A listener on `at`, or why not, saying what it was `for`.
async fn bind(at: SocketAddr, purpose: &str) -> anyhow::Result<TcpListener> {
    TcpListener::bind(at)
        .await
        .with_context(|| format!("listening{purpose} on {at}"))
}

/// SIGINT (Ctrl-C) or SIGTERM (what a service manager or `docker stop` sends).
pub async fn stop_signal() {
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
