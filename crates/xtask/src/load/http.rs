//! The one HTTP client of the load tools: a request on a fresh loopback connection, timed
//! to its answer's first and last byte, and the API calls the tools make with it.
//!
//! It is written out over a `TcpStream` rather than taken from a crate: the tools ask
//! their own server a handful of things, and a request they time is then exactly the
//! bytes below and nothing more.

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use typepper_api::Line;
use typepper_engine::Mode;

/// An answer, and when its bytes came.
pub struct Answer {
    pub status: u16,
    /// The head, as sent: the status line and the headers.
    head: String,
    /// The body, a chunked one joined.
    pub body: Vec<u8>,
    /// From connecting to the answer's first byte (TTFB), and to its last.
    pub first_byte: Duration,
    pub last_byte: Duration,
}

impl Answer {
    /// `HTTP/1.1 200 OK`.
    pub fn status_line(&self) -> &str {
        self.head.lines().next().unwrap_or("")
    }

    /// Header `name`'s value (a name in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim().eq_ignore_ascii_case(name).then(|| value.trim())
        })
    }
}

/// One HTTP/1.1 request on a fresh connection: the status and the body.
pub fn http(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Result<(u16, Vec<u8>)> {
    let answer = exchange(addr, method, path, headers, body)?;
    Ok((answer.status, answer.body))
}

/// One HTTP/1.1 request on a fresh connection, timed from the connect: the whole answer.
pub fn exchange(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Result<Answer> {
    let start = Instant::now();
    let mut s = TcpStream::connect(addr).with_context(|| format!("connecting to {addr}"))?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        let _ = write!(head, "{k}: {v}\r\n");
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes())?;
    s.write_all(body)?;
    let reading = || format!("reading the answer to {method} {path}");
    let mut answer = vec![0; 1];
    s.read_exact(&mut answer).with_context(reading)?;
    let first_byte = start.elapsed();
    s.read_to_end(&mut answer).with_context(reading)?;
    let last_byte = start.elapsed();
    let end = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .context("an answer without a blank line after its head")?;
    let head = String::from_utf8_lossy(&answer[..end]).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .with_context(|| format!("no status in {head:?}"))?;
    let body = answer[end + 4..].to_vec();
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(&body)?
    } else {
        body
    };
    Ok(Answer {
        status,
        head,
        body,
        first_byte,
        last_byte,
    })
}

/// A chunked body's bytes.
fn dechunk(mut rest: &[u8]) -> Result<Vec<u8>> {
    let mut out = vec![];
    loop {
        let eol = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .context("a chunk size without its line end")?;
        let size = std::str::from_utf8(&rest[..eol])?;
        let size = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16)?;
        rest = &rest[eol + 2..];
        if size == 0 {
            return Ok(out);
        }
        let chunk = rest.get(..size).context("a chunk cut short")?;
        out.extend_from_slice(chunk);
        rest = rest
            .get(size + 2..)
            .context("a chunk without its line end")?;
    }
}

/// `answer`'s body if its status is `want`; else an error that says what `what` answered.
pub fn wanted(what: &str, want: u16, (status, body): (u16, Vec<u8>)) -> Result<Vec<u8>> {
    if status != want {
        bail!(
            "{what} answered {status}: {}",
            String::from_utf8_lossy(&body)
        );
    }
    Ok(body)
}

/// Links a player named `name` and returns its token.
pub fn link(addr: &str, name: &str) -> Result<String> {
    let new = typepper_api::NewPlayer {
        name: name.into(),
        device: None,
    };
    let answer = http(
        addr,
        "POST",
        "/v1/players",
        &[("Content-Type", "application/json")],
        &serde_json::to_vec(&new)?,
    )?;
    let body = wanted("linking a player", 201, answer)?;
    let linked: typepper_api::Player =
        serde_json::from_slice(&body).context("reading the linked player")?;
    Ok(linked.token)
}

/// `POST /v1/seeds` for `mode` as the player with `token`: the seed.
pub fn issue(addr: &str, token: &str, mode: Mode) -> Result<u64> {
    let bearer = format!("Bearer {token}");
    let request = serde_json::to_vec(&typepper_api::SeedRequest { mode: mode.key() })?;
    let answer = http(
        addr,
        "POST",
        "/v1/seeds",
        &[
            ("Authorization", &bearer),
            ("Content-Type", "application/json"),
        ],
        &request,
    )?;
    let body = wanted("a seed request", 201, answer)?;
    let seed: typepper_api::IssuedSeed =
        serde_json::from_slice(&body).context("reading an issued seed")?;
    Ok(seed.seed)
}

/// Submits one body of one round and returns its run id.
pub fn submit_one(addr: &str, token: &str, submission: &[u8]) -> Result<String> {
    let bearer = format!("Bearer {token}");
    let answer = http(
        addr,
        "POST",
        "/v1/submit",
        &[
            ("Authorization", &bearer),
            ("Content-Type", "application/octet-stream"),
        ],
        submission,
    )?;
    let body = wanted("submitting a round", 200, answer)?;
    let text = String::from_utf8_lossy(&body);
    match text.trim_end().parse::<Line>()? {
        Line::Ok { id, .. } => Ok(id),
        Line::No { why, .. } => bail!("the server refused a synthesized round: {why}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_bodies_join() {
        assert_eq!(
            dechunk(b"3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n").unwrap(),
            b"abcde"
        );
        assert!(dechunk(b"5\r\nab").is_err());
    }

    #[test]
    fn a_header_is_found_in_any_case_with_its_value_as_sent() {
        let answer = Answer {
            status: 200,
            head: "HTTP/1.1 200 OK\r\nETag: \"aB9\"\r\ncontent-type: image/png".into(),
            body: vec![],
            first_byte: Duration::ZERO,
            last_byte: Duration::ZERO,
        };
        assert_eq!(answer.status_line(), "HTTP/1.1 200 OK");
        assert_eq!(answer.header("etag"), Some("\"aB9\""));
        assert_eq!(answer.header("Content-Type"), Some("image/png"));
        assert_eq!(answer.header("HTTP/1.1 200 OK"), None);
    }
}
