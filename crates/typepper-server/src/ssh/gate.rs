//! Admission: who holds the SSH server's slots and memory. Connections and handshakes in
//! progress are capped per address and in all when a connection is accepted, and the
//! bodies held at once per address and in all, so that no one host takes what everyone
//! shares.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::game;
use crate::Shared;
use crate::config::SshLimits;

/// Handshakes one address may have in progress at once.
pub const HANDSHAKES_PER_IP: usize = 4;

/// An address's share of the bodies held at once: a sixteenth of the budget.
pub const BODY_SHARES: usize = 16;

/// Who holds the SSH server's slots and memory: connections, handshakes and bodies, per
/// address and in all. An address (an IPv6 /64 is one) is held to its share of each, so
/// that no one host takes what everyone shares.
pub(super) struct Gate {
    limits: SshLimits,
    state: Arc<Shared>,
    addresses: Mutex<HashMap<IpAddr, Address>>,
    handshaking: AtomicUsize,
    /// Keys being linked now: a key links one player, even asked for twice at once.
    linking: Mutex<HashSet<String>>,
    /// The games being played.
    pub(super) games: Arc<game::Games>,
}

/// What one address holds.
#[derive(Default)]
struct Address {
    open: usize,
    handshaking: usize,
    body_bytes: usize,
}

/// One connection's place at the [`Gate`], given back when it is dropped.
pub(super) struct Slot {
    pub(super) gate: Arc<Gate>,
    ip: IpAddr,
    handshaking: AtomicBool,
}

impl Gate {
    /// Nothing held yet, under the server's SSH limits.
    pub(super) fn new(state: &Arc<Shared>) -> Gate {
        Gate {
            limits: state.config.ssh.clone(),
            state: state.clone(),
            addresses: Mutex::default(),
            handshaking: AtomicUsize::new(0),
            linking: Mutex::default(),
            games: state.games.clone(),
        }
    }

    fn addresses(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, Address>> {
        self.addresses.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A slot for a connection from `ip`, or why there is none. Past half the handshakes,
    /// a new one is let in less and less often (as OpenSSH's `MaxStartups` does), so that
    /// hosts that keep the handshakes full still leave others a chance.
    pub(super) fn enter(self: &Arc<Gate>, ip: IpAddr) -> Result<Slot, &'static str> {
        let ip = crate::client::bucket(ip);
        let mut addresses = self.addresses();
        let mine = addresses.entry(ip).or_default();
        if mine.open >= self.limits.per_ip {
            return Err("too many connections from your address");
        }
        if mine.handshaking >= HANDSHAKES_PER_IP {
            return Err("too many connections from your address are logging in");
        }
        let (all, cap) = (
            self.handshaking.load(Ordering::SeqCst),
            self.limits.handshakes,
        );
        let half = cap / 2;
        let refused = all >= cap
            || (all > half && {
                let mut draw = [0u8; 2];
                crate::secrets::random(&mut draw);
                usize::from(u16::from_le_bytes(draw)) % (cap - half) < all - half
            });
        if refused {
            if mine.open == 0 {
                addresses.remove(&ip);
            }
            return Err("too many connections are logging in");
        }
        mine.open += 1;
        mine.handshaking += 1;
        self.handshaking.fetch_add(1, Ordering::SeqCst);
        Ok(Slot {
            gate: self.clone(),
            ip,
            handshaking: AtomicBool::new(true),
        })
    }
}

impl Slot {
    /// The connection authenticated: it no longer counts as a handshake.
    pub(super) fn authenticated(&self) {
        if self.handshaking.swap(false, Ordering::SeqCst) {
            self.gate.handshaking.fetch_sub(1, Ordering::SeqCst);
            if let Some(mine) = self.gate.addresses().get_mut(&self.ip) {
                mine.handshaking -= 1;
            }
        }
    }

    /// Holds `n` more bytes of a body for this address, or says why not: past the
    /// address's share, or past the budget of every address.
    pub(super) fn hold(&self, n: usize) -> Result<(), &'static str> {
        let budget = self.gate.limits.body_budget;
        let mut addresses = self.gate.addresses();
        let mine = addresses.entry(self.ip).or_default();
        if mine.body_bytes + n > budget / BODY_SHARES {
            return Err("your address is sending too many submissions at once");
        }
        let all = &self.gate.state.ssh_body_bytes;
        if all.load(Ordering::Relaxed) + n > budget {
            return Err("the server is taking in too many submissions at once");
        }
        mine.body_bytes += n;
        all.fetch_add(n, Ordering::Relaxed);
        Ok(())
    }

    /// Lets go of `n` bytes of a body.
    pub(super) fn release(&self, n: usize) {
        if n == 0 {
            return;
        }
        if let Some(mine) = self.gate.addresses().get_mut(&self.ip) {
            mine.body_bytes -= n;
        }
        self.gate
            .state
            .ssh_body_bytes
            .fetch_sub(n, Ordering::Relaxed);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.authenticated();
        let mut addresses = self.gate.addresses();
        if let Some(mine) = addresses.get_mut(&self.ip) {
            mine.open -= 1;
            if mine.open == 0 && mine.body_bytes == 0 {
                addresses.remove(&self.ip);
            }
        }
    }
}

/// A key being linked, let go when dropped.
pub(super) struct Linking(Arc<Gate>, String);

impl Linking {
    /// The key `fingerprint`, now being linked; `None` if it is already.
    pub(super) fn start(gate: &Arc<Gate>, fingerprint: &str) -> Option<Linking> {
        let mut linking = gate.linking.lock().unwrap_or_else(|p| p.into_inner());
        linking
            .insert(fingerprint.to_owned())
            .then(|| Linking(gate.clone(), fingerprint.to_owned()))
    }
}

impl Drop for Linking {
    fn drop(&mut self) {
        let mut linking = self.0.linking.lock().unwrap_or_else(|p| p.into_inner());
        linking.remove(&self.1);
    }
}
