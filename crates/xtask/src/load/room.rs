//! A live room's client for the load tools: open a room, join it over a WebSocket, and say
//! and hear what a game says and hears, with keys due as a game sends them.

use std::net::TcpStream;
use std::time::Duration;

use anyhow::{Context, Result};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};
use typepper_api::room::{Ask, Key, MAX_KEYS_PER_MESSAGE, Open, Opened, Say};
use typepper_engine::Mode;
use typepper_engine::synth::{Typist, synth};

use super::http::{http, wanted};

/// A WebSocket to a room.
pub type Socket = WebSocket<TcpStream>;

/// Opens a room of `mode` at `addr`: its code.
pub fn open(addr: &str, mode: Mode) -> Result<String> {
    let body = serde_json::to_vec(&Open {
        mode: mode.key(),
        text: None,
    })?;
    let headers = [("Content-Type", "application/json")];
    let answer = http(addr, "POST", "/v1/rooms", &headers, &body)?;
    let answer = wanted("opening a room", 201, answer)?;
    Ok(serde_json::from_slice::<Opened>(&answer)?.code)
}

/// A WebSocket to room `code` at `addr`, from `from` (an `X-Forwarded-For`) if given, whose
/// reads give up after `patience`.
pub fn connect(addr: &str, code: &str, from: Option<&str>, patience: Duration) -> Result<Socket> {
    let tcp = TcpStream::connect(addr).with_context(|| format!("connecting to {addr}"))?;
    tcp.set_nodelay(true)?;
    tcp.set_read_timeout(Some(patience))?;
    let mut request = format!("ws://{addr}/v1/rooms/{code}/live").into_client_request()?;
    if let Some(from) = from {
        request
            .headers_mut()
            .insert("X-Forwarded-For", from.parse()?);
    }
    let (ws, _) = tungstenite::client(request, tcp).context("joining the room")?;
    Ok(ws)
}

/// The hello of a guest named `name`.
pub fn hello(name: &str) -> Ask {
    Ask::Hello {
        name: Some(name.into()),
        token: None,
        resume: None,
    }
}

/// Says `ask` to the room.
pub fn say(ws: &mut Socket, ask: &Ask) -> Result<()> {
    let text = serde_json::to_string(ask)?;
    ws.send(Message::text(text)).context("writing to the room")
}

/// The room's next message, or none within the read timeout.
pub fn hear(ws: &mut Socket) -> Result<Option<Say>> {
    match ws.read() {
        Ok(Message::Text(text)) => Ok(serde_json::from_str(text.as_str()).ok()),
        Ok(_) => Ok(None),
        Err(tungstenite::Error::Io(e))
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            Ok(None)
        }
        Err(e) => Err(e).context("reading the room"),
    }
}

/// The room's next message within `wait`, if any.
pub fn hear_within(ws: &mut Socket, wait: Duration) -> Result<Option<Say>> {
    ws.get_ref()
        .set_read_timeout(Some(wait.max(Duration::from_millis(1))))?;
    hear(ws)
}

/// The keys of `typist`'s round of `mode` on `seed`, as a game sends them.
pub fn keys(mode: Mode, seed: u64, typist: &Typist) -> Vec<Key> {
    synth(mode, seed, typist)
        .timeline()
        .filter_map(|(t, op)| Some((t?, op.code())))
        .collect()
}

/// How many of `keys` from the `next`th are due `since_go` into the round: a message's
/// worth at most.
pub fn due(keys: &[Key], next: usize, since_go: Duration) -> usize {
    let now = u32::try_from(since_go.as_millis()).unwrap_or(u32::MAX);
    let due = keys[next..].iter().take_while(|k| k.0 <= now).count();
    due.min(MAX_KEYS_PER_MESSAGE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_due_by_their_time_a_message_at_most() {
        let keys: Vec<Key> = (0..100).map(|i| (i * 10, 1)).collect();
        assert_eq!(due(&keys, 0, Duration::ZERO), 1);
        assert_eq!(due(&keys, 0, Duration::from_millis(95)), 10);
        assert_eq!(due(&keys, 5, Duration::from_millis(95)), 5);
        assert_eq!(due(&keys, 0, Duration::from_secs(60)), 64);
        assert_eq!(due(&keys, 100, Duration::from_secs(60)), 0);
    }
}
