//! The server, as the terminal game reaches it: the `v1` commands over the system's `ssh`,
//! as git does, so the player's keys, agent and `~/.ssh/config` just work. Over SSH a
//! player is their key: the token the game keeps is for the web.
//!
//! Each request runs `ssh` on a thread of its own; its answer comes back to the frame
//! loop as an [`Arrival`], whose answer the loop hands to the app. A live room is one `ssh`
//! running `v1 room <code>` for as long as the game is in it ([`RoomLink`]): the game's
//! messages go to its standard input and the room's come from its standard output, a JSON
//! line each, read by a thread of its own.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex};

use typepper_api::Exit;
use typepper_api::room::{Ask, Say};
use typepper_game::request::{Answer, Failure, Request};

/// The variable that replaces the `ssh` command (its words split at spaces), as
/// `GIT_SSH_COMMAND` does for git: `ssh -i ~/.ssh/typepper`.
pub const SSH_VAR: &str = "TYPEPPER_SSH";

/// What reaches the game from the server: a request's answer, or what room connection
/// `room` heard. The game drops what a room connection closed since says.
#[derive(Debug)]
pub struct Arrival {
    /// The room connection it is from, if any.
    pub room: Option<u64>,
    /// What it says.
    pub answer: Answer,
}

impl Arrival {
    /// A request's answer.
    pub fn answer(answer: Answer) -> Arrival {
        Arrival { room: None, answer }
    }
}

/// What the game says when it has no server to ask.
pub const NO_SERVER: &str = "no server set: start typepper with --server ssh://host[:port]";

/// What the game says when the server takes none of the player's keys.
const NO_KEY: &str = "no SSH key the server takes: make one with `ssh-keygen -t ed25519`, \
                      or name yours in TYPEPPER_SSH (`ssh -i ~/.ssh/<key>`)";

/// The failure of a server that takes none of the player's keys.
fn no_key() -> Failure {
    Failure::CantAsk(NO_KEY.into())
}

/// Why `ssh` failed, from what it said on stderr when it exited 255: its own failure.
/// Its warnings are never the reason.
fn of_ssh(said: &str, status: std::process::ExitStatus) -> Failure {
    of_stderr(said).unwrap_or_else(|| Failure::Unreachable(format!("ssh failed ({status})")))
}

/// What `said` on `ssh`'s stderr means, but for its warnings; `None` when that is
/// nothing.
fn of_stderr(said: &str) -> Option<Failure> {
    let lines: Vec<&str> = said
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Warning:"))
        .collect();
    if lines.iter().any(|l| l.contains("Permission denied")) {
        return Some(no_key());
    }
    (!lines.is_empty()).then(|| Failure::Unreachable(lines.join("; ")))
}

/// Carries out `request` with `exec` (a `v1` command and its standard input, to its
/// standard output) and reads what comes back.
fn answer(request: Request, exec: impl Fn(&str, &[u8]) -> Result<Vec<u8>, Failure>) -> Answer {
    match command(&request) {
        Some((command, stdin)) => read_answer(request, exec(&command, &stdin)),
        None => request
            .answered_here()
            .unwrap_or_else(|| request.failed(no_command())),
    }
}

/// Why a request no `v1` command carries isn't sent.
fn no_command() -> Failure {
    Failure::CantAsk("no v1 command carries this request".into())
}

/// The `v1` command that carries out `request`, and its standard input; `None` for a
/// request this build answers itself (a word list: it carries every one).
fn command(request: &Request) -> Option<(String, Vec<u8>)> {
    Some(match request {
        Request::Submit { body, .. } => ("v1 submit".into(), body.clone()),
        Request::Link(name) => (format!("v1 link {name}"), vec![]),
        Request::Board(mode, period) => (format!("v1 board {mode} {}", period.name()), vec![]),
        Request::Run(id) => (format!("v1 replay {id}"), vec![]),
        Request::Seed { mode, .. } => (format!("v1 seed {mode}"), vec![]),
        // A custom room's text goes as the command's stdin, as a submission's body does.
        Request::OpenRoom(open) => (
            format!("v1 room-open {}", open.mode),
            open.text
                .clone()
                .map(String::into_bytes)
                .unwrap_or_default(),
        ),
        Request::Claim(code) => (format!("v1 claim {code}"), vec![]),
        Request::DeviceCode(_) => ("v1 device-code".into(), vec![]),
        Request::Devices(_) => ("v1 devices".into(), vec![]),
        Request::RemoveDevice { id, .. } => (format!("v1 device-remove {id}"), vec![]),
        Request::Profile(name) => (format!("v1 profile {name}"), vec![]),
        // Over SSH the key is the player: its place comes without a token.
        Request::Daily { number, .. } => match number {
            Some(n) => (format!("v1 daily {n}"), vec![]),
            None => ("v1 daily".into(), vec![]),
        },
        Request::Settings(_) => ("v1 settings".into(), vec![]),
        // The file goes as the command's stdin.
        Request::SaveSettings { text, .. } => ("v1 settings-set".into(), text.clone().into_bytes()),
        Request::File(_) => return None,
    })
}

/// The answer to `request`, from what its [`command`] wrote on its standard output, or
/// why it failed.
fn read_answer(request: Request, out: Result<Vec<u8>, Failure>) -> Answer {
    let out = match out {
        Ok(out) => out,
        Err(why) => return request.failed(why),
    };
    match request {
        Request::Submit { keys, .. } => Answer::Submitted {
            keys,
            answer: Ok(String::from_utf8_lossy(&out).into_owned()),
        },
        Request::Link(_) => Answer::Linked(json(&out, "a player")),
        Request::Board(mode, period) => Answer::Board {
            period,
            rows: json(&out, "a board").map(|board: typepper_api::Board| board.rows),
            mode,
        },
        Request::Run(id) => Answer::Run { bytes: Ok(out), id },
        Request::Seed { mode, .. } => Answer::Seed {
            answer: json(&out, "a seed"),
            mode,
        },
        Request::OpenRoom(_) => Answer::RoomOpened(json(&out, "a room")),
        // Over SSH the key is the device: the code's player comes back with no token.
        Request::Claim(_) => Answer::Linked(json(&out, "a player")),
        Request::DeviceCode(_) => Answer::DeviceCode(json(&out, "a code")),
        Request::Devices(_) => Answer::Devices(json(&out, "a list of devices")),
        Request::RemoveDevice { id, .. } => Answer::DeviceRemoved { id, done: Ok(()) },
        Request::Profile(name) => Answer::Profile {
            profile: json(&out, "a profile"),
            name,
        },
        Request::Daily { number, .. } => Answer::Daily {
            number,
            daily: json(&out, "a daily"),
        },
        Request::Settings(_) => Answer::Settings(Ok(String::from_utf8_lossy(&out).into_owned())),
        Request::SaveSettings { .. } => Answer::SettingsSaved(Ok(())),
        Request::File(_) => request.failed(no_command()),
    }
}

/// A JSON answer read as `what`, or why not.
fn json<T: serde::de::DeserializeOwned>(out: &[u8], what: &'static str) -> Result<T, Failure> {
    serde_json::from_slice(out).map_err(|e| Failure::Unreadable {
        what,
        why: Some(e.to_string()),
    })
}

/// Requests over SSH at once. The server lets one address log in 4 connections at a
/// time (`--ssh-handshakes`): a linked game asks for five seeds together, and the fifth
/// was refused under load and waited half a minute to be asked again. A live room's
/// connection is the fourth.
const AT_ONCE: usize = 3;

/// A server reached over SSH.
#[derive(Clone, Debug)]
pub struct Remote {
    /// `[user@]host`.
    host: String,
    port: Option<u16>,
    /// The command that runs `ssh`, and its own arguments.
    ssh: Vec<String>,
    /// Requests running now, at most [`AT_ONCE`], and the signal that one ended.
    running: Arc<(Mutex<usize>, Condvar)>,
}

impl Remote {
    /// The server at `ssh://[user@]host[:port]`, reached with `ssh` (or the words of
    /// `ssh_command`, from [`SSH_VAR`]).
    pub fn parse(url: &str, ssh_command: Option<&str>) -> Result<Remote, String> {
        let rest = url
            .strip_prefix("ssh://")
            .ok_or_else(|| format!("{url:?} is not ssh://host[:port]"))?
            .trim_end_matches('/');
        // `[v6 address]:port`, or `host:port`; the port is optional.
        let (host, port) = match rest.strip_prefix('[') {
            Some(v6) => {
                let (host, after) = v6
                    .split_once(']')
                    .ok_or_else(|| format!("{url:?} has no closing ]"))?;
                (host, after.strip_prefix(':'))
            }
            None => match rest.rsplit_once(':') {
                Some((host, port)) => (host, Some(port)),
                None => (rest, None),
            },
        };
        let port = port
            .map(|p| p.parse::<u16>())
            .transpose()
            .map_err(|_| format!("the port in {url:?} is not a port"))?;
        let ok = |c: char| c.is_ascii_alphanumeric() || ".-_@:".contains(c);
        if host.is_empty() || host.starts_with('-') || !host.chars().all(ok) {
            return Err(format!("{host:?} in {url:?} is not a host"));
        }
        let ssh: Vec<String> = ssh_command
            .unwrap_or("ssh")
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        if ssh.is_empty() {
            return Err(format!("{SSH_VAR} is empty"));
        }
        Ok(Remote {
            host: host.to_owned(),
            port,
            ssh,
            running: Arc::default(),
        })
    }

    /// Sends `request` in the background, once fewer than [`AT_ONCE`] others run; its
    /// answer goes to `tx`.
    pub fn send(&self, request: Request, tx: Sender<Arrival>) {
        let remote = self.clone();
        std::thread::spawn(move || {
            let (count, ended) = &*remote.running;
            {
                let mut running = count.lock().unwrap_or_else(|p| p.into_inner());
                while *running >= AT_ONCE {
                    running = ended.wait(running).unwrap_or_else(|p| p.into_inner());
                }
                *running += 1;
            }
            let answer = answer(request, |command, stdin| remote.exec(command, stdin));
            *count.lock().unwrap_or_else(|p| p.into_inner()) -= 1;
            ended.notify_one();
            // The game may have ended meanwhile: then no one waits for the answer.
            let _ = tx.send(Arrival::answer(answer));
        });
    }

    /// Joins live room `code` as connection `conn`: the room's messages and the
    /// connection's end go to `tx`. Dropping the link leaves the room.
    pub fn join(&self, code: &str, conn: u64, tx: Sender<Arrival>) -> Result<RoomLink, String> {
        // A connection that went quiet (a network gone) is noticed within 15 s, so the
        // game can try again while the round still runs.
        let alive = ["-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"];
        let mut c = self.command(&alive, &format!("v1 room {code}"));
        c.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", self.ssh[0]))?;
        let (Some(stdin), Some(stdout), Some(mut stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("ssh's pipes did not open".into());
        };
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let say = serde_json::from_str(&line).unwrap_or_else(|e| {
                    Say::Refused(format!("the room said something the game can't read ({e})"))
                });
                let heard = Arrival {
                    room: Some(conn),
                    answer: Answer::RoomSaid(say),
                };
                if tx.send(heard).is_err() {
                    return;
                }
            }
            // Its standard output ended: so did ssh, and stderr says why if anything
            // went wrong on the way.
            let mut said = String::new();
            let _ = stderr.read_to_string(&mut said);
            let why = of_stderr(&said).map_or("the server ended it".into(), |f| f.to_string());
            let _ = tx.send(Arrival {
                room: Some(conn),
                answer: Answer::RoomClosed(why),
            });
        });
        Ok(RoomLink { child, stdin })
    }

    /// Everything the server holds of this key's player: a tar archive of each run's
    /// replay and an index (`v1 export`, as `GET /v1/export` answers it).
    pub fn export(&self) -> Result<Vec<u8>, Failure> {
        self.exec("v1 export", b"")
    }

    /// Runs a `v1` command on the server: its standard output, or why not. A board or a
    /// replay, which the server shows anyone, is read as a guest when it takes none of
    /// the player's keys.
    fn exec(&self, command: &str, stdin: &[u8]) -> Result<Vec<u8>, Failure> {
        let read = command.starts_with("v1 board ") || command.starts_with("v1 replay ");
        match self.exec_as(command, stdin, false) {
            Err(why) if read && why == no_key() => self.exec_as(command, stdin, true),
            out => out,
        }
    }

    /// [`Remote::exec`] with the player's keys, or as a `guest`: keyboard-interactive,
    /// which the typepper server asks nothing of. A guest's `ssh` runs in a session of
    /// its own, with no terminal to ask on: a server that did ask gets no answer, and the
    /// game's screen is never written to.
    fn exec_as(&self, command: &str, stdin: &[u8], guest: bool) -> Result<Vec<u8>, Failure> {
        let options: &[&str] = if guest {
            &[
                "-o",
                "BatchMode=no",
                "-o",
                "PreferredAuthentications=keyboard-interactive",
            ]
        } else {
            &[]
        };
        let mut c = self.command(options, command);
        if guest {
            use std::os::unix::process::CommandExt as _;
            // SAFETY: setsid is async-signal-safe, and touches nothing of the parent's.
            #[allow(unsafe_code)]
            unsafe {
                c.pre_exec(|| {
                    libc::setsid();
                    Ok(())
                });
            }
        }
        c.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c
            .spawn()
            .map_err(|e| Failure::Unreachable(format!("cannot run {}: {e}", self.ssh[0])))?;
        if let Some(mut input) = child.stdin.take() {
            // A server that stops reading early answers why on stderr.
            let _ = input.write_all(stdin);
        }
        let out = child
            .wait_with_output()
            .map_err(|e| Failure::Unreachable(e.to_string()))?;
        if out.status.success() {
            return Ok(out.stdout);
        }
        let said = String::from_utf8_lossy(&out.stderr).trim().to_owned();
        // 255 is ssh's own failure (no connection, no key); anything else is the server's.
        match out.status.code() {
            Some(255) | None => Err(of_ssh(&said, out.status)),
            Some(code) if Exit::of(code) == Some(Exit::NotLinked) => Err(Failure::NotLinked(said)),
            Some(_) => Err(Failure::Refused(said)),
        }
    }

    /// `ssh` to the server with `options` of its own, running `command` there.
    fn command(&self, options: &[&str], command: &str) -> Command {
        let mut c = Command::new(&self.ssh[0]);
        // The caller's options first: ssh takes the first value given for each (a guest's
        // `BatchMode=no` over the default's).
        c.args(&self.ssh[1..]).args(options);
        // No prompts: the game owns the terminal. A new server's key is taken on first
        // sight and checked from then on, as `ssh` does with accept-new.
        c.args([
            "-o",
            "BatchMode=yes",
            "-o",
            "ConnectTimeout=10",
            "-o",
            "StrictHostKeyChecking=accept-new",
            // Its warnings (a host key added) are not the game's to show.
            "-o",
            "LogLevel=ERROR",
        ]);
        if let Some(port) = self.port {
            c.args(["-p", &port.to_string()]);
        }
        c.arg("--").arg(&self.host).arg(command);
        c
    }
}

/// A live room's connection: `ssh … v1 room <code>`, running until dropped.
pub struct RoomLink {
    child: Child,
    stdin: ChildStdin,
}

impl RoomLink {
    /// Says `ask` to the room. A connection that broke says so through its reader
    /// ([`Answer::RoomClosed`]), so a failed write is left to it.
    pub fn say(&mut self, ask: &Ask) {
        if let Ok(mut line) = serde_json::to_string(ask) {
            line.push('\n');
            let _ = self.stdin.write_all(line.as_bytes());
            let _ = self.stdin.flush();
        }
    }
}

impl Drop for RoomLink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use typepper_api::Period;

    #[test]
    fn server_urls_read_as_ssh_reads_them() {
        let r = Remote::parse("ssh://play.typepper.com", None).unwrap();
        assert_eq!((r.host.as_str(), r.port), ("play.typepper.com", None));
        let r = Remote::parse("ssh://ada@127.0.0.1:2222/", Some("ssh -i key")).unwrap();
        assert_eq!((r.host.as_str(), r.port), ("ada@127.0.0.1", Some(2222)));
        assert_eq!(r.ssh, ["ssh", "-i", "key"]);
        let r = Remote::parse("ssh://[::1]:2222", None).unwrap();
        assert_eq!((r.host.as_str(), r.port), ("::1", Some(2222)));
        for bad in [
            "http://x",
            "ssh://",
            "ssh://-oProxyCommand=x",
            "ssh://a b",
            "ssh://h:port",
        ] {
            assert!(Remote::parse(bad, None).is_err(), "{bad}");
        }
    }

    /// The attack of a newcomer: with no key, linking said `the server is unreachable
    /// (Warning: Permanently added …`, cut off.
    #[test]
    fn ssh_failing_is_said_as_what_it_means() {
        use std::os::unix::process::ExitStatusExt as _;
        let status = std::process::ExitStatus::from_raw(255 << 8);
        let no_key = "Warning: Permanently added '[127.0.0.1]:2222' (ED25519) to the list of \
                      known hosts.\r\nplayer@127.0.0.1: Permission denied (publickey).";
        assert_eq!(of_ssh(no_key, status).to_string(), NO_KEY);
        let refused = "ssh: connect to host 127.0.0.1 port 2222: Connection refused";
        assert_eq!(
            of_ssh(refused, status).to_string(),
            format!("the server is unreachable ({refused})")
        );
        let warned = "Warning: Permanently added 'x' (ED25519) to the list of known hosts.";
        assert!(!of_ssh(warned, status).to_string().contains("Warning"));
    }

    /// A board is the JSON the server answers, as HTTP's; a key linked to no player is
    /// told by its exit status, whatever the sentence says.
    #[test]
    fn boards_read_as_json_and_a_missing_link_by_its_status() {
        let board = typepper_api::Board {
            mode: "time:15".into(),
            title: "BLITZ 15s".into(),
            unit: "wpm".into(),
            month: "2026-12".into(),
            period: "day".into(),
            rows: vec![typepper_api::BoardRow {
                rank: 1,
                name: "ada".into(),
                score: 108,
                wpm: 108.5,
                accuracy: 98.25,
                run: "7Xf9qyuC".into(),
                time: "2026-12-01T19:52:00Z".into(),
            }],
        };
        let json = serde_json::to_vec(&board).unwrap();
        let Answer::Board { rows, .. } =
            answer(Request::Board("time:15".into(), Period::Day), |_, _| {
                Ok(json.clone())
            })
        else {
            panic!()
        };
        assert_eq!(rows, Ok(board.rows));
        let Answer::Board { rows, .. } =
            answer(Request::Board("zen".into(), Period::Day), |_, _| {
                Ok(b"1 ada".to_vec())
            })
        else {
            panic!()
        };
        assert!(rows.unwrap_err().to_string().contains("isn't a board"));

        let submit = || Request::Submit {
            token: String::new(),
            body: vec![],
            keys: vec![],
        };
        let reworded = "link this key first";
        let Answer::Submitted { answer: said, .. } =
            answer(submit(), |_, _| Err(Failure::NotLinked(reworded.into())))
        else {
            panic!()
        };
        assert_eq!(said, Err(Failure::NotLinked(reworded.into())));
        let Answer::Submitted { answer: said, .. } = answer(submit(), |_, _| {
            Err(Failure::Refused("not linked, oddly".into()))
        }) else {
            panic!()
        };
        assert!(matches!(said, Err(Failure::Refused(_))));
    }
}
