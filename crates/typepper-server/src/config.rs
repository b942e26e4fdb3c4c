//! The server's settings: flags and environment variables (see `typepper-server --help`).

use std::path::PathBuf;

/// Everything the server is told at start.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game's public URL, e.g. `https://typepper.com`: share pages link to it.
    pub public_url: String,
    /// Where the game reaches the API, e.g. `https://api.typepper.com`; the same as
    /// `public_url` when one host serves both.
    pub api_url: String,
    /// What share links start with: `https://r.typepper.com` gives
    /// `https://r.typepper.com/<id>`; by default `<public_url>/r`.
    pub share_url: String,
    /// The folder holding `index.html` and `web/`.
    pub static_dir: PathBuf,
    /// Requests a second one IP may make to `/v1` (bursts of twice that); 0 for no limit.
    pub ip_rate: u32,
    /// Runs a second one player may submit (bursts of ten times that, and at least a full
    /// body); 0 for no limit.
    pub player_rate: u32,
    /// Players one IP may link an hour (bursts of as many); 0 for no limit.
    pub register_per_hour: u32,
    /// Runs one player may have stored a UTC day.
    pub daily_runs: u32,
    /// Replay bytes one player may have stored a UTC day.
    pub daily_bytes: u64,
    /// Runs are kept this many days, or longer while they are a player's monthly best.
    pub retention_days: u32,
    /// Seconds between retention sweeps.
    pub sweep_secs: u64,
    /// Seconds a request may take before it is answered 408.
    pub request_timeout_secs: u64,
    /// Seconds a client has to send a request's headers, and a kept-alive connection may
    /// sit idle before its next request: past it, the connection is closed.
    pub header_timeout_secs: u64,
    /// Connections served at once; past it, new ones wait in the listen backlog.
    pub max_connections: usize,
    /// Seconds a shutdown waits for the requests in flight before closing what is left.
    pub shutdown_secs: u64,
    /// Whose `X-Forwarded-For` to believe (behind proxies you run).
    pub proxies: crate::client::Proxies,
    /// Bytes of runs kept in memory for reading again.
    pub cache_bytes: usize,
    /// Log one line a request to standard error.
    pub log_requests: bool,
    /// When a ranked run waits off the boards for its player to confirm it.
    pub watch: crate::submit::rank::Watch,
    /// SSH keys one player may link.
    pub max_keys: u32,
    /// The SSH server's limits.
    pub ssh: SshLimits,
}

/// What one SSH client may hold of the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SshLimits {
    /// Connections open at once from one address (an IPv6 /64 is one address).
    pub per_ip: usize,
    /// Connections at once that have not authenticated yet.
    pub handshakes: usize,
    /// Seconds a connection has to authenticate, whatever it sends meanwhile.
    pub auth_secs: u64,
    /// Seconds a connection may stay open at most.
    pub max_secs: u64,
    /// Seconds a logged-in connection may sit with no channel open.
    pub idle_secs: u64,
    /// Commands one connection may run; then it is closed.
    pub max_commands: u32,
    /// Bytes of `v1 submit` bodies held at once, over every connection, while they
    /// arrive: past it a body is refused at once, and its bytes go. Without it, every
    /// connection's four channels could hold a megabyte each for the request's time.
    pub body_budget: usize,
}

impl Default for SshLimits {
    fn default() -> SshLimits {
        SshLimits {
            per_ip: 16,
            handshakes: 64,
            auth_secs: 15,
            max_secs: 3_600,
            idle_secs: 60,
            max_commands: 10_000,
            body_budget: 64 << 20,
        }
    }
}

impl Config {
    /// Settings for a server at `public_url` serving `static_dir`, with the defaults.
    pub fn new(public_url: &str, static_dir: PathBuf) -> Config {
        let public_url = public_url.trim_end_matches('/').to_owned();
        Config {
            api_url: public_url.clone(),
            share_url: format!("{public_url}/r"),
            public_url,
            static_dir,
            ip_rate: 50,
            player_rate: 2,
            register_per_hour: 10,
            daily_runs: 1_000,
            daily_bytes: 16 << 20,
            retention_days: 8,
            sweep_secs: 600,
            request_timeout_secs: 10,
            header_timeout_secs: 10,
            max_connections: 1024,
            shutdown_secs: 10,
            proxies: crate::client::Proxies {
                trust: false,
                hops: 1,
                ranges: vec![],
            },
            cache_bytes: 64 << 20,
            log_requests: true,
            watch: crate::submit::rank::Watch::default(),
            max_keys: 8,
            ssh: SshLimits::default(),
        }
    }

    /// The share link of run `id`.
    pub fn share_link(&self, id: &str) -> String {
        format!("{}/{id}", self.share_url)
    }

    /// The host (and port) of a URL: `r.typepper.com` of `https://r.typepper.com/x`.
    pub fn host_of(url: &str) -> &str {
        let rest = url.split_once("://").map_or(url, |(_, r)| r);
        rest.split('/').next().unwrap_or(rest)
    }

    /// The origin (scheme and host) of a URL.
    pub fn origin_of(url: &str) -> String {
        match url.split_once("://") {
            Some((scheme, _)) => format!("{scheme}://{}", Config::host_of(url)),
            None => url.to_owned(),
        }
    }
}
