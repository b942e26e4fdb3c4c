//! The connection loop: accept, serve over HTTP/1 with timeouts, and shut down on time.
//!
//! `axum::serve` builds hyper without a timer, and hyper then drops its header-read
//! timeout: a client that sends half a header, a line at a time, or nothing at all, holds
//! its connection for ever. This loop is the same few steps with every limit set:
//! 1. A connection is accepted only with a permit ([`Limits::max_connections`]). Past the
//!    cap, new connections wait in the kernel's listen backlog, which costs no file
//!    descriptor here, so the process never runs out of them and starves.
//! 2. Each connection is served by hyper's HTTP/1 with a timer: a request's headers must
//!    arrive within [`Limits::header_timeout`], which hyper also starts when a kept-alive
//!    connection goes idle, so it is the idle timeout too.
//! 3. On shutdown the listener closes (no new connections), every connection is told to
//!    finish the request it is serving and close, and whatever is still open after
//!    [`Limits::grace`] is dropped.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How the loop serves.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections served at once.
    pub max_connections: usize,
    /// The time a client has for a request's headers, and a kept-alive connection may
    /// sit idle.
    pub header_timeout: Duration,
    /// How long a shutdown waits for requests in flight.
    pub grace: Duration,
    /// Connections open now, for the metrics.
    pub open: Arc<AtomicUsize>,
}

impl Limits {
    /// The limits `config` sets.
    pub fn of(config: &crate::Config) -> Limits {
        Limits {
            max_connections: config.max_connections.max(1),
            header_timeout: Duration::from_secs(config.header_timeout_secs.max(1)),
            grace: Duration::from_secs(config.shutdown_secs),
            open: Arc::new(AtomicUsize::new(0)),
        }
    }
}

/// Takes connections off a listener, each with a permit from the connection cap.
pub(crate) struct Acceptor<'a> {
    listener: &'a TcpListener,
    permits: Arc<Semaphore>,
    /// Accepting is failing: said once when it starts, and once when it works again.
    failing: bool,
}

impl<'a> Acceptor<'a> {
    pub(crate) fn new(listener: &'a TcpListener, max_connections: usize) -> Acceptor<'a> {
        Acceptor {
            listener,
            permits: Arc::new(Semaphore::new(max_connections.max(1))),
            failing: false,
        }
    }

    /// The next connection (`TCP_NODELAY` set) and its permit, which it holds while
    /// open; `None` once `shutdown` has resolved. Past the cap it waits for a permit,
    /// leaving new connections in the kernel's backlog.
    pub(crate) async fn next(
        &mut self,
        shutdown: &mut std::pin::Pin<&mut impl Future<Output = ()>>,
    ) -> Option<(OwnedSemaphorePermit, TcpStream, SocketAddr)> {
        loop {
            let permit = tokio::select! {
                permit = self.permits.clone().acquire_owned() => permit.ok()?,
                () = shutdown.as_mut() => return None,
            };
            let accepted = tokio::select! {
                accepted = self.listener.accept() => accepted,
                () = shutdown.as_mut() => return None,
            };
            match accepted {
                Ok((stream, addr)) => {
                    if std::mem::take(&mut self.failing) {
                        tracing::info!("accepting connections again");
                    }
                    // Small answers go out at once, not after Nagle's wait for an ACK.
                    let _ = stream.set_nodelay(true);
                    return Some((permit, stream, addr));
                }
                Err(e) => {
                    // Out of file descriptors, or a connection reset before it was taken:
                    // wait a moment rather than spin, and go on. The connections waiting
                    // are served as others close.
                    if !std::mem::replace(&mut self.failing, true) {
                        tracing::warn!("accepting a connection failed ({e}); trying again");
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }
}

/// Serves `router` on `listener` until `shutdown` resolves, then lets the requests in
/// flight finish for up to `limits.grace` and returns.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // Told once to stop: each connection then finishes the request in flight and closes.
    // (hyper-util's GracefulShutdown can't watch a connection that may be upgraded.)
    let (stopping, stop) = tokio::sync::watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let mut shutdown = std::pin::pin!(shutdown);
    let mut acceptor = Acceptor::new(&listener, limits.max_connections);
    while let Some((permit, stream, addr)) = acceptor.next(&mut shutdown).await {
        let service = router
            .clone()
            .layer(axum::Extension(ConnectInfo::<SocketAddr>(addr)));
        // With upgrades: a live room's WebSocket takes its connection over.
        let connection = http
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
            .with_upgrades();
        let open = limits.open.clone();
        open.fetch_add(1, Ordering::Relaxed);
        let mut stop = stop.clone();
        tokio::spawn(async move {
            // A client that goes away, or times out, ends its connection: not an error
            // of the server's.
            let mut connection = std::pin::pin!(connection);
            let stopped = async move {
                // The guard `wait_for` returns isn't Send: drop it before any await.
                let _ = stop.wait_for(|stop| *stop).await.map(drop);
            };
            tokio::select! {
                _ = connection.as_mut() => {}
                () = stopped => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            open.fetch_sub(1, Ordering::Relaxed);
            drop(permit);
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    let drained = async {
        while limits.open.load(Ordering::Relaxed) > 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::select! {
        () = drained => {}
        () = tokio::time::sleep(limits.grace) => {
            tracing::warn!(
                "shutdown: {} connections still open after {} s are closed",
                limits.open.load(Ordering::Relaxed),
                limits.grace.as_secs()
            );
        }
    }
    Ok(())
}
