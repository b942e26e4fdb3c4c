//! The server's settings: flags and environment variables (see `typepper-server --help`).
//!
//! Each setting's flag, variable and default are written once, on its field; `main`
//! flattens these structs into its command line, and `defaults::of` gives the same
//! values to code that builds a server itself (the tests).

use std::net::SocketAddr;
use std::path::PathBuf;

/// Everything the server is told at start.
#[derive(Clone, Debug, clap::Args)]
pub struct Config {
    /// The game's public URL, e.g. `https://typepper.com`: share pages link to it. Set
    /// with [`Urls`], once the server knows its address.
    #[arg(skip)]
    pub public_url: String,
    /// Where the game reaches the API, e.g. `https://api.typepper.com`; the same as
    /// `public_url` when one host serves both.
    #[arg(skip)]
    pub api_url: String,
    /// What share links start with: `https://r.typepper.com` gives
    /// `https://r.typepper.com/<id>`; by default `<public_url>/r`.
    #[arg(skip)]
    pub share_url: String,
    /// The folder holding index.html and web/ (the built game).
    #[arg(long, env = "TYPEPPER_STATIC_DIR", default_value = ".")]
    pub static_dir: PathBuf,
    /// Requests a second per IP to /v1 (bursts of twice that); 0 turns the limit off.
    #[arg(long, env = "TYPEPPER_IP_RATE", default_value_t = 50)]
    pub ip_rate: u32,
    /// Runs a second per player (bursts of ten times that, and at least a full body of
    /// 50); 0 turns it off.
    #[arg(long, env = "TYPEPPER_PLAYER_RATE", default_value_t = 2)]
    pub player_rate: u32,
    /// Players linked an hour per IP; 0 turns the limit off.
    #[arg(
        long = "register-rate",
        value_name = "REGISTER_RATE",
        env = "TYPEPPER_REGISTER_RATE",
        default_value_t = 10
    )]
    pub register_per_hour: u32,
    /// Live rooms opened an hour per IP; 0 turns the limit off.
    #[arg(long, env = "TYPEPPER_ROOM_RATE", default_value_t = 30)]
    pub room_rate: u32,
    /// Joins of live rooms a second per IP (bursts of twice that); 0 turns it off.
    #[arg(long, env = "TYPEPPER_ROOM_JOIN_RATE", default_value_t = 5)]
    pub room_join_rate: u32,
    /// Rounds of guests (racers in rooms who never linked) stored an hour per IP, in
    /// bursts of as many; 0 turns the limit off. Counted by the process holding the room.
    #[arg(long, env = "TYPEPPER_GUEST_RUNS_PER_HOUR", default_value_t = 120)]
    pub guest_runs_per_hour: u32,
    /// Live rooms open at once on this server.
    #[arg(long, env = "TYPEPPER_MAX_ROOMS", default_value_t = 1_000)]
    pub max_rooms: usize,
    /// Connections to live rooms (racers and spectators) at once on this server.
    #[arg(long, env = "TYPEPPER_MAX_ROOM_CONNECTIONS", default_value_t = 4_000)]
    pub max_room_connections: usize,
    /// Runs stored a UTC day per player.
    #[arg(long, env = "TYPEPPER_DAILY_RUNS", default_value_t = 1_000)]
    pub daily_runs: u32,
    /// Replay bytes stored a UTC day per player (16 MiB).
    #[arg(long, env = "TYPEPPER_DAILY_BYTES", default_value_t = 16 << 20)]
    pub daily_bytes: u64,
    /// Days a run is kept unless it is a player's best of a month or of all time.
    #[arg(long, env = "TYPEPPER_RETENTION_DAYS", default_value_t = 8)]
    pub retention_days: u32,
    /// Seconds between retention sweeps.
    #[arg(long, env = "TYPEPPER_SWEEP_SECS", default_value_t = 600)]
    pub sweep_secs: u64,
    /// Seconds before a request is answered 408.
    #[arg(
        long = "request-timeout",
        value_name = "REQUEST_TIMEOUT",
        env = "TYPEPPER_REQUEST_TIMEOUT",
        default_value_t = 10
    )]
    pub request_timeout_secs: u64,
    /// Seconds a client has to send a request's headers, and a kept-alive connection may
    /// sit idle.
    #[arg(
        long = "header-timeout",
        value_name = "HEADER_TIMEOUT",
        env = "TYPEPPER_HEADER_TIMEOUT",
        default_value_t = 10
    )]
    pub header_timeout_secs: u64,
    /// Connections served at once; past it, new ones wait to be accepted.
    #[arg(long, env = "TYPEPPER_MAX_CONNECTIONS", default_value_t = 1024)]
    pub max_connections: usize,
    /// Seconds a shutdown (SIGINT or SIGTERM) waits for requests in flight.
    #[arg(
        long = "shutdown-timeout",
        value_name = "SHUTDOWN_TIMEOUT",
        env = "TYPEPPER_SHUTDOWN_TIMEOUT",
        default_value_t = 10
    )]
    pub shutdown_secs: u64,
    /// Whose `X-Forwarded-For` to believe (behind proxies you run).
    #[command(flatten)]
    pub proxies: crate::client::Proxies,
    /// Bytes of recently read runs kept in memory (runs over 1/256 of it are not kept).
    #[arg(long, env = "TYPEPPER_CACHE_BYTES", default_value_t = 64 << 20)]
    pub cache_bytes: usize,
    /// Bytes of runs' cards (link preview PNGs) kept in memory once drawn.
    #[arg(long, env = "TYPEPPER_CARD_CACHE_BYTES", default_value_t = 16 << 20)]
    pub card_cache_bytes: usize,
    /// Don't log a line per request.
    #[arg(long, env = "TYPEPPER_QUIET")]
    pub quiet: bool,
    /// When a ranked run waits off the boards for its player to confirm it.
    #[command(flatten)]
    pub watch: crate::submit::rank::Watch,
    /// SSH keys one player may link.
    #[arg(long, env = "TYPEPPER_MAX_KEYS", default_value_t = 8)]
    pub max_keys: u32,
    /// The SSH server's limits.
    #[command(flatten)]
    pub ssh: SshLimits,
    /// What one address may hold of live rooms, and how long a room lives.
    #[command(flatten)]
    pub rooms: RoomLimits,
}

/// What one client may hold of live rooms, and how long a room lives.
#[derive(Clone, Debug, PartialEq, Eq, clap::Args)]
pub struct RoomLimits {
    /// Live rooms open at once that one address opened (an IPv6 /64 counts as one).
    #[arg(
        long = "rooms-per-ip",
        value_name = "ROOMS_PER_IP",
        env = "TYPEPPER_ROOMS_PER_IP",
        default_value_t = 4
    )]
    pub open_per_ip: usize,
    /// Connections to live rooms (racers and spectators) at once from one address: a
    /// classroom behind one address races together.
    #[arg(
        long = "room-connections-per-ip",
        value_name = "ROOM_CONNECTIONS_PER_IP",
        env = "TYPEPPER_ROOM_CONNECTIONS_PER_IP",
        default_value_t = 40
    )]
    pub connections_per_ip: usize,
    /// Seconds a room stays open with no racer saying anything; then it closes, with
    /// every connection to it.
    #[arg(
        long = "room-idle-timeout",
        value_name = "ROOM_IDLE_TIMEOUT",
        env = "TYPEPPER_ROOM_IDLE_TIMEOUT",
        default_value_t = 600
    )]
    pub idle_timeout_secs: u64,
    /// Seconds a room stays open at most (a race under way finishes first); then it
    /// closes, with every connection to it.
    #[arg(
        long = "room-max-time",
        value_name = "ROOM_MAX_TIME",
        env = "TYPEPPER_ROOM_MAX_TIME",
        default_value_t = 7_200
    )]
    pub max_time_secs: u64,
}

/// What one SSH client may hold of the server.
#[derive(Clone, Debug, PartialEq, Eq, clap::Args)]
pub struct SshLimits {
    /// SSH connections open at once from one address (an IPv6 /64 counts as one).
    #[arg(
        long = "ssh-per-ip",
        value_name = "SSH_PER_IP",
        env = "TYPEPPER_SSH_PER_IP",
        default_value_t = 16
    )]
    pub per_ip: usize,
    /// SSH connections at once that have not authenticated yet; past it, new ones are
    /// closed at once.
    #[arg(
        long = "ssh-handshakes",
        value_name = "SSH_HANDSHAKES",
        env = "TYPEPPER_SSH_HANDSHAKES",
        default_value_t = 64
    )]
    pub handshakes: usize,
    /// Seconds an SSH connection has to authenticate, whatever it sends meanwhile.
    #[arg(
        long = "ssh-auth-timeout",
        value_name = "SSH_AUTH_TIMEOUT",
        env = "TYPEPPER_SSH_AUTH_TIMEOUT",
        default_value_t = 15
    )]
    pub auth_secs: u64,
    /// Seconds an SSH connection may stay open at most.
    #[arg(
        long = "ssh-max-time",
        value_name = "SSH_MAX_TIME",
        env = "TYPEPPER_SSH_MAX_TIME",
        default_value_t = 3_600
    )]
    pub max_secs: u64,
    /// Seconds a logged-in SSH connection may sit with no command running.
    #[arg(
        long = "ssh-idle-timeout",
        value_name = "SSH_IDLE_TIMEOUT",
        env = "TYPEPPER_SSH_IDLE_TIMEOUT",
        default_value_t = 60
    )]
    pub idle_secs: u64,
    /// Commands one SSH connection may run; then it is closed (the client connects again).
    #[arg(
        long = "ssh-max-commands",
        value_name = "SSH_MAX_COMMANDS",
        env = "TYPEPPER_SSH_MAX_COMMANDS",
        default_value_t = 10_000
    )]
    pub max_commands: u32,
    /// Bytes of `v1 submit` bodies the SSH server holds at once while they arrive; past
    /// it a body is refused (64 MiB).
    //
    // Without it, every connection's four channels could hold a megabyte each for the
    // request's time.
    #[arg(
        long = "ssh-body-budget",
        value_name = "SSH_BODY_BUDGET",
        env = "TYPEPPER_SSH_BODY_BUDGET",
        default_value_t = 64 << 20
    )]
    pub body_budget: usize,
    /// Games (`ssh host` with a terminal) played at once from one address.
    #[arg(
        long = "ssh-games-per-ip",
        value_name = "SSH_GAMES_PER_IP",
        env = "TYPEPPER_SSH_GAMES_PER_IP",
        default_value_t = 4
    )]
    pub games_per_ip: usize,
    /// Games played at once over SSH, from everyone.
    #[arg(
        long = "ssh-games",
        value_name = "SSH_GAMES",
        env = "TYPEPPER_SSH_GAMES",
        default_value_t = 500
    )]
    pub games: usize,
    /// Seconds a game over SSH may go without a key before it is closed.
    #[arg(
        long = "ssh-game-idle-timeout",
        value_name = "SSH_GAME_IDLE_TIMEOUT",
        env = "TYPEPPER_SSH_GAME_IDLE_TIMEOUT",
        default_value_t = 300
    )]
    pub game_idle_secs: u64,
    /// Seconds a game over SSH may last at most (its connection's `--ssh-max-time` too).
    #[arg(
        long = "ssh-game-max-time",
        value_name = "SSH_GAME_MAX_TIME",
        env = "TYPEPPER_SSH_GAME_MAX_TIME",
        default_value_t = 3_600
    )]
    pub game_max_secs: u64,
}

impl Default for SshLimits {
    fn default() -> SshLimits {
        crate::defaults::of()
    }
}

/// Where the server is reached, which only `main` knows once it is listening.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Urls {
    /// The game's public URL (share pages link to it); by default http://<listen>.
    #[arg(
        long = "public-url",
        value_name = "PUBLIC_URL",
        env = "TYPEPPER_PUBLIC_URL"
    )]
    pub public: Option<String>,
    /// Where the game reaches the API; by default the public URL.
    #[arg(long = "api-url", value_name = "API_URL", env = "TYPEPPER_API_URL")]
    pub api: Option<String>,
    /// What share links start with, e.g. https://r.typepper.com; by default <public URL>/r.
    #[arg(
        long = "share-url",
        value_name = "SHARE_URL",
        env = "TYPEPPER_SHARE_URL"
    )]
    pub share: Option<String>,
}

impl Config {
    /// Settings for a server at `public_url` serving `static_dir`, with the defaults.
    pub fn new(public_url: &str, static_dir: PathBuf) -> Config {
        let mut config: Config = crate::defaults::of();
        config.static_dir = static_dir;
        config.locate(Urls {
            public: Some(public_url.to_owned()),
            ..Urls::default()
        });
        config
    }

    /// Sets the URLs `urls` gives, without trailing slashes: the API's and the share
    /// links' follow the public one unless given.
    pub fn locate(&mut self, urls: Urls) {
        fn trim(url: String) -> String {
            url.trim_end_matches('/').to_owned()
        }
        self.public_url = trim(urls.public.unwrap_or_default());
        self.api_url = urls.api.map_or_else(|| self.public_url.clone(), trim);
        self.share_url = urls
            .share
            .map_or_else(|| format!("{}/r", self.public_url), trim);
    }

    /// [`Config::locate`], with `http://<addr>` as the public URL unless `urls` gives one.
    pub fn listening(&mut self, mut urls: Urls, addr: SocketAddr) {
        urls.public.get_or_insert_with(|| format!("http://{addr}"));
        self.locate(urls);
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
