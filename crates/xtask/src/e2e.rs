//! The browser tests: a real server on a free port, Playwright driving Debian's Chromium.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use anyhow::{Context, Result, bail};

use crate::install;
use crate::sh::{cmd, root, run, step};

/// The server's flags that turn its rate limits off (a test sends faster than a person),
/// and lift what one address may hold of live rooms: every test's browser comes from
/// 127.0.0.1, and a room lives on a minute after its last racer leaves.
pub const RATE_LIMITS_OFF: &[&str] = &[
    "--ip-rate",
    "0",
    "--player-rate",
    "0",
    "--register-rate",
    "0",
    "--rooms-per-ip",
    "1000",
    "--room-connections-per-ip",
    "4000",
];

/// A server started for a test run, stopped when dropped.
pub struct Server {
    child: Child,
    /// Its URL, `http://127.0.0.1:<port>`.
    pub url: String,
    /// Its metrics' URL, when it serves them.
    pub metrics: Option<String>,
    /// `host:port` of its SSH, when started with `--ssh-listen`.
    pub ssh: Option<String>,
    data: Option<TempDir>,
}

/// A temporary directory, removed when dropped.
pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    /// A fresh directory under the system's temp dir.
    pub fn new(prefix: &str) -> Result<TempDir> {
        TempDir::new_in(&std::env::temp_dir(), prefix)
    }

    /// A fresh directory under `base`.
    pub fn new_in(base: &Path, prefix: &str) -> Result<TempDir> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = base.join(format!("{prefix}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Server {
    /// Starts `binary` on a free port over a fresh SQLite database (or `database_url`),
    /// serving the game from the repository, with `extra` flags.
    pub fn start(binary: &Path, database_url: Option<&str>, extra: &[&str]) -> Result<Server> {
        Server::start_in(&std::env::temp_dir(), binary, database_url, extra)
    }

    /// [`Server::start`] with its data dir under `base` (a tmpfs, say).
    pub fn start_in(
        base: &Path,
        binary: &Path,
        database_url: Option<&str>,
        extra: &[&str],
    ) -> Result<Server> {
        let data = TempDir::new_in(base, "typepper-server")?;
        // Its standard error goes to a file beside its data, not a pipe nobody reads, so
        // that a server which dies on start can say why.
        let log = data.0.join("server.log");
        let stderr =
            std::fs::File::create(&log).with_context(|| format!("creating {}", log.display()))?;
        let mut c = Command::new(binary);
        c.args(["--listen", "127.0.0.1:0", "--static-dir"])
            .arg(root())
            .arg("--data-dir")
            .arg(&data.0)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(stderr);
        if let Some(url) = database_url {
            c.args(["--database-url", url]);
        }
        let mut child = c
            .spawn()
            .with_context(|| format!("starting {}", binary.display()))?;
        let stdout = child.stdout.take().context("the server's stdout")?;
        let mut stdout = BufReader::new(stdout);
        let mut line = String::new();
        stdout.read_line(&mut line)?;
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .map(str::to_owned);
        let Some(url) = url else {
            let _ = child.kill();
            let _ = child.wait();
            let said = std::fs::read_to_string(&log).unwrap_or_default();
            bail!(
                "the server did not say where it serves (it printed {line:?}); its standard \
                 error:\n{}",
                said.trim_end()
            );
        };
        // With SSH, then metrics on ports of their own, it says where on the next lines:
        // the word that starts `scheme`, if `flag` was given.
        let mut next_address = |flag: &str, scheme: &str| -> Result<Option<String>> {
            if !extra.contains(&flag) {
                return Ok(None);
            }
            let mut line = String::new();
            stdout.read_line(&mut line)?;
            Ok(line
                .split_whitespace()
                .find(|w| w.starts_with(scheme))
                .map(str::to_owned))
        };
        let ssh = next_address("--ssh-listen", "ssh://")?
            .map(|a| a.trim_start_matches("ssh://").to_owned());
        let metrics = next_address("--metrics-listen", "http://")?;
        Ok(Server {
            child,
            url,
            metrics,
            ssh,
            data: Some(data),
        })
    }
}

impl Server {
    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Its data dir, when it made one (where its SQLite database is).
    pub fn data_dir(&self) -> Option<&Path> {
        self.data.as_ref().map(|d| d.0.as_path())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs the Playwright suite (or what `args` pick of it) against a fresh server.
pub fn run_suite(args: &[String]) -> Result<()> {
    let e2e = root().join("e2e");
    install::npm(&e2e)?;
    let chromium = install::chromium()?;
    // A terminal racer plays in tmux, over SSH with OpenSSH's client.
    install::debian(&["tmux"], std::path::Path::new("/usr/bin/tmux"))?;
    install::debian(&["openssh-client"], std::path::Path::new("/usr/bin/ssh"))?;
    step("building the server and the CLI for the browser tests");
    run(&mut cmd(
        "cargo",
        &["build", "-p", "typepper-server", "-p", "typepper-cli"],
    ))?;
    let target = crate::sh::target_dir().join("debug");
    let server = Server::start(
        &target.join("typepper-server"),
        None,
        &[RATE_LIMITS_OFF, &["--quiet", "--ssh-listen", "127.0.0.1:0"]].concat(),
    )?;
    let ssh = server
        .ssh
        .clone()
        .context("the server did not say where its SSH is")?;
    step(&format!(
        "running the browser tests against {} (Playwright, {})",
        server.url,
        chromium.display()
    ));
    let mut c = cmd("npx", &["playwright", "test"]);
    c.args(args.iter().filter(|a| a.as_str() != "--"))
        .current_dir(&e2e)
        .env("TYPEPPER_URL", &server.url)
        .env("TYPEPPER_SSH_ADDR", &ssh)
        .env("TYPEPPER_CLI", target.join("typepper"))
        .env("TYPEPPER_CHROMIUM", &chromium);
    let result = run(&mut c);
    drop(server);
    result.context("the browser tests failed (screenshots are in e2e/screenshots)")
}
