//! The game in a pseudo-terminal (util-linux's `script`), as a player's terminal runs it:
//! started locally or over OpenSSH's `ssh -tt`, typed into a key at a time, and each
//! key's frame found by where it leaves the caret.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::e2e::Server;

/// What the menu's first frame says.
const MENU: &[u8] = b"every round is a replay";

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// The release game in a pseudo-terminal of 100×30, its output read on a thread.
pub struct Game {
    child: Child,
    stdin: ChildStdin,
    out: mpsc::Receiver<Vec<u8>>,
    /// Its output since it was last taken.
    seen: Vec<u8>,
}

impl Game {
    /// The release game `cli` with its data dir `data`, once its menu is on screen.
    pub fn spawn(cli: &Path, data: &Path) -> Result<Game> {
        std::fs::create_dir_all(data)?;
        let mut game = Game::in_pty(&cli.display().to_string(), &[("TYPEPPER_DATA_DIR", data)])?;
        game.until(|out| contains(out, MENU), "the menu")?;
        Ok(game)
    }

    /// OpenSSH's client playing the game on `server`'s SSH port as a guest (no key:
    /// keyboard-interactive, which asks nothing), once its menu is on screen.
    pub fn over_ssh(server: &Server) -> Result<Game> {
        let ssh = server.ssh.as_deref().context("the server's SSH address")?;
        let port = ssh.rsplit_once(':').context("host:port")?.1;
        let command = format!(
            "ssh -tt -p {port} -o PubkeyAuthentication=no \
             -o PreferredAuthentications=keyboard-interactive -o StrictHostKeyChecking=no \
             -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR 127.0.0.1"
        );
        let mut game = Game::in_pty(&command, &[])?;
        game.until(|out| contains(out, MENU), "the menu over ssh")?;
        Ok(game)
    }

    /// `command` in a pseudo-terminal of 100×30, with `env`.
    fn in_pty(command: &str, env: &[(&str, &Path)]) -> Result<Game> {
        let command = format!("stty cols 100 rows 30; exec {command}");
        let mut child = Command::new("script")
            .args(["-qfc", &command, "/dev/null"])
            .envs(env.iter().copied())
            .env("TERM", "xterm-256color")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("running the game under script (util-linux)")?;
        let stdin = child.stdin.take().context("its stdin")?;
        let mut stdout = child.stdout.take().context("its stdout")?;
        let (tx, out) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 65536];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Ok(Game {
            child,
            stdin,
            out,
            seen: vec![],
        })
    }

    /// Waits until the output since the last call satisfies `done`.
    fn until(&mut self, done: impl Fn(&[u8]) -> bool, what: &str) -> Result<()> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if done(&self.seen) {
                self.seen.clear();
                return Ok(());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.out.recv_timeout(left) {
                Ok(chunk) => self.seen.extend(chunk),
                Err(_) => bail!("no {what} from the game within 20 s"),
            }
        }
    }

    /// Writes `bytes` to its terminal, as keys.
    pub fn send(&mut self, bytes: &[u8]) -> Result<()> {
        self.stdin.write_all(bytes)?;
        self.stdin.flush()?;
        Ok(())
    }

    /// Lets go of its output so far, unread.
    pub fn discard(&mut self) {
        while self.out.try_recv().is_ok() {}
        self.seen.clear();
    }

    /// Ctrl-C, and the process reaped.
    pub fn quit(mut self) {
        let _ = self.send(b"\x03");
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the frame in `out` left the cursor: the move after its last "show cursor".
fn caret(out: &[u8]) -> Option<(u32, u32)> {
    const SHOW: &[u8] = b"\x1b[?25h\x1b[";
    let at = out.windows(SHOW.len()).rposition(|w| w == SHOW)? + SHOW.len();
    let rest = &out[at..];
    let end = rest.iter().position(|&b| b == b'H')?;
    let text = std::str::from_utf8(&rest[..end]).ok()?;
    let (row, col) = text.split_once(';')?;
    Some((row.parse().ok()?, col.parse().ok()?))
}

/// Starts a ZEN round on `game`'s menu: where its caret is, and the bytes of the round's
/// first screen.
pub fn zen(game: &mut Game) -> Result<((u32, u32), usize)> {
    game.send(b"z")?;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match game
            .out
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(chunk) => game.seen.extend(chunk),
            Err(_) => bail!("no ZEN round on screen"),
        }
        if let Some(at) = caret(&game.seen) {
            let screen = game.seen.len();
            game.seen.clear();
            return Ok((at, screen));
        }
    }
}

/// Keys typed, timed.
pub struct Typed {
    /// From each key written to the frame that moved the caret.
    pub times: Vec<Duration>,
    /// Keys whose caret was not seen to move within a second: the text scrolled a line
    /// under it, or the frame was that late.
    pub lost: usize,
    /// Bytes the game wrote from the first key to the last key's frame.
    pub bytes: usize,
    /// From the first key to the last key's frame.
    pub took: Duration,
}

/// Types `keys` keys of a round whose caret is at `at`, one every `every` (from when the
/// last was sent, or when its frame came if that was later), each timed from its write to
/// the frame that moves the caret.
pub fn type_round(game: &mut Game, at: (u32, u32), keys: usize, every: Duration) -> Result<Typed> {
    let (mut at, mut times, mut lost, mut bytes) = (at, vec![], 0, 0);
    let letters = b"typepper";
    let started = Instant::now();
    let mut due = started;
    for i in 0..keys {
        // A word of four letters, then a space: every key moves the caret.
        let key = if i % 5 == 4 {
            b' '
        } else {
            letters[i % letters.len()]
        };
        std::thread::sleep(due.saturating_duration_since(Instant::now()));
        while let Ok(chunk) = game.out.try_recv() {
            bytes += chunk.len();
            game.seen.extend(chunk);
        }
        let before = caret(&game.seen).unwrap_or(at);
        game.seen.clear();
        let sent = Instant::now();
        due = sent + every;
        game.send(&[key])?;
        // A key whose caret lands where it was (the text scrolled by a line under it)
        // can't be told from a clock's redraw: it is left out after a second.
        let window = sent + Duration::from_secs(1);
        let mut moved = false;
        while let Ok(chunk) = game
            .out
            .recv_timeout(window.saturating_duration_since(Instant::now()))
        {
            bytes += chunk.len();
            game.seen.extend(chunk);
            let now = caret(&game.seen);
            if let Some(now) = now.filter(|&now| now != before) {
                times.push(sent.elapsed());
                at = now;
                moved = true;
                break;
            }
        }
        lost += usize::from(!moved);
    }
    Ok(Typed {
        times,
        lost,
        bytes,
        took: started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caret_is_where_the_last_frame_left_the_cursor() {
        let frame = b"\x1b[10;15Hab\x1b[0m\x1b[?25h\x1b[10;17H\x1b[7;15H15\x1b[?25h\x1b[11;2H";
        assert_eq!(caret(frame), Some((11, 2)));
        assert_eq!(caret(b"\x1b[?25l no cursor"), None);
    }
}
