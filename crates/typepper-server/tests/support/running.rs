//! A real server on a free port of this machine, in this process: for the tests that need
//! its sockets (slow clients, shutdowns, WebSockets).

use std::net::SocketAddr;
use std::sync::Arc;

use typepper_server::server::{self, Server};
use typepper_server::store::Options;
use typepper_server::{Config, Shared};

/// A server on a free port, stopped when `stop` is sent or dropped.
#[allow(
    dead_code,
    reason = "each test crate including this reads the fields it needs"
)]
pub struct Running {
    pub addr: SocketAddr,
    pub stop: Option<tokio::sync::oneshot::Sender<()>>,
    pub done: tokio::task::JoinHandle<anyhow::Result<()>>,
    pub dir: tempfile::TempDir,
    /// The server's state, as its handlers share it.
    pub state: Arc<Shared>,
}

pub async fn start(tweak: impl FnOnce(&mut Config)) -> Running {
    start_on(None, tweak).await
}

/// [`start`], on the PostgreSQL database at `database` if given: the server `main`
/// starts ([`Server`]), with the test's settings.
pub async fn start_on(database: Option<&str>, tweak: impl FnOnce(&mut Config)) -> Running {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<!doctype html>").unwrap();
    let store = Options::new(database, &dir.path().join("data"));
    let mut config = Config::new("http://typepper.test", dir.path().to_owned());
    config.quiet = true;
    config.ip_rate = 0;
    config.player_rate = 0;
    config.register_per_hour = 0;
    config.header_timeout_secs = 1;
    config.shutdown_secs = 2;
    tweak(&mut config);
    let listen = "127.0.0.1:0".parse().unwrap();
    let server = Server::start(server::Options::new(listen, store, config))
        .await
        .unwrap();
    let (addr, state) = (server.addr, server.state.clone());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let done = tokio::spawn(server.run(async move {
        let _ = stopped.await;
    }));
    Running {
        addr,
        stop: Some(stop),
        done,
        dir,
        state,
    }
}
