//! A throwaway PostgreSQL cluster, for the tests that need a real server.
//!
//! 1. Debian's server binaries are found (or installed) by [`crate::install::postgres`].
//! 2. `initdb` makes a cluster in a fresh temp dir; the server listens on a free port of
//!    127.0.0.1 only, with its unix socket in the same dir, so that it meets no other
//!    cluster on the machine.
//! 3. `pg_ctl start -w` returns once it accepts connections; the caller gets its URL.
//! 4. A guard stops the server and deletes the dir when it is dropped: after the caller
//!    returns, fails or panics, and when a step of the set-up fails half way.
//!
//! PostgreSQL refuses to run as root. As root, initdb, pg_ctl and the server run as
//! `nobody` through `runuser` (util-linux, essential on Debian, so on every machine
//! that can have Debian's postgresql): `nobody` exists on every Debian system, and
//! nothing is added to the machine for a test run, whereas a `useradd --system` user
//! would stay in /etc/passwd after it. Only the temp dir is handed to `nobody`, and it
//! is deleted with the cluster.

use std::fs::OpenOptions;
use std::io::Write;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};

use crate::sh::{has, output, run, step};

/// The cluster's superuser, named by initdb; the URL connects as it.
const SUPERUSER: &str = "postgres";

/// Who runs the cluster when we are root.
const UNPRIVILEGED: &str = "nobody";

/// Seconds to wait for the server to start or stop.
const WAIT_SECS: &str = "60";

/// Runs `f` with the URL of a fresh PostgreSQL server's `postgres` database, then stops
/// the server and deletes its files, whether `f` succeeded or not.
pub fn with_cluster<T>(f: impl FnOnce(&str) -> Result<T>) -> Result<T> {
    with_cluster_ctl(|url, _| f(url))
}

/// [`with_cluster`] on a cluster that syncs every commit to disk (`fsync` and
/// `synchronous_commit` on, as in production), for measuring, not for tests; `f` may
/// restart it and read its files.
pub fn with_durable_cluster<T>(f: impl FnOnce(&Cluster) -> Result<T>) -> Result<T> {
    let bin = crate::install::postgres()?;
    let cluster = Cluster::start(bin, true)?;
    f(&cluster)
}

/// [`with_cluster`], also giving `f` the command that controls the server: `pg_ctl` with
/// the cluster's data dir and log, as the user it runs as, for a test that stops and
/// starts it (`<ctl> --wait --mode fast stop`, `<ctl> --wait start`). Its words are
/// separated by spaces; none of them holds one.
pub fn with_cluster_ctl<T>(f: impl FnOnce(&str, &str) -> Result<T>) -> Result<T> {
    let bin = crate::install::postgres()?;
    let cluster = Cluster::start(bin, false)?;
    f(&cluster.url(), &cluster.ctl())
}

/// `cargo xtask pg`: a throwaway cluster for working on the PostgreSQL store by hand,
/// until Ctrl-C, which stops it and deletes its files. It prints what the tests read.
pub fn hold() -> Result<()> {
    with_cluster_ctl(|url, ctl| {
        println!("TYPEPPER_TEST_POSTGRES_URL={url}");
        println!("TYPEPPER_TEST_POSTGRES_CTL='{ctl}'");
        step("PostgreSQL runs until Ctrl-C, which stops it and deletes its files");
        while !crate::sh::interrupted() {
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        Ok(())
    })
}

/// A running throwaway cluster; dropping it stops it and deletes its dir.
pub struct Cluster {
    /// PostgreSQL's bin dir.
    bin: PathBuf,
    /// The temp dir: `data/` (the cluster), `postgres.log`, and the unix socket.
    dir: PathBuf,
    /// Who the server runs as, when that is not us.
    user: Option<&'static str>,
    port: u16,
}

impl Cluster {
    /// A new cluster; `durable` keeps PostgreSQL's syncing on.
    fn start(bin: PathBuf, durable: bool) -> Result<Cluster> {
        let dir = fresh_dir()?;
        let user = is_root().then_some(UNPRIVILEGED);
        // From here on the guard owns the dir: an early return deletes it.
        let mut cluster = Cluster {
            bin,
            dir,
            user,
            port: 0,
        };
        let dir = cluster.dir.clone();
        if let Some(user) = user {
            if !has("runuser") {
                bail!(
                    "PostgreSQL refuses to run as root, and runuser (util-linux) is missing \
                     to run it as {user}"
                );
            }
            run(Command::new("chown").arg(format!("{user}:")).arg(&dir))?;
        }
        let data = dir.join("data");
        let who = user.map_or(String::new(), |u| {
            format!(", as {u}: PostgreSQL refuses to run as root")
        });
        step(&format!(
            "creating a throwaway PostgreSQL cluster in {} (initdb{who})",
            dir.display()
        ));
        // Trust on 127.0.0.1 keeps passwords out of the URL; the cluster holds nothing but
        // test data and lives for one run. No fsync either, unless measuring durably:
        // nothing in it must survive a crash, and the tests commit often.
        let mut initdb = cluster.command("initdb");
        initdb
            .arg("--pgdata")
            .arg(&data)
            .args([
                "--username",
                SUPERUSER,
                "--auth",
                "trust",
                "--encoding",
                "UTF8",
                "--locale",
                "C",
                "--no-sync",
            ])
            .stdout(Stdio::null());
        run(&mut initdb).with_context(|| {
            format!(
                "initdb failed (as {}); {} must be able to reach {}",
                user.unwrap_or("this user"),
                user.unwrap_or("it"),
                dir.display()
            )
        })?;
        cluster.port = free_port()?;
        let syncing = if durable {
            ""
        } else {
            "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
        };
        let settings = format!(
            "\n# cargo xtask: a throwaway cluster\n\
             listen_addresses = '127.0.0.1'\n\
             port = {}\n\
             unix_socket_directories = '{}'\n\
             max_connections = 200\n\
             {syncing}",
            cluster.port,
            dir.display().to_string().replace('\'', "''"),
        );
        // Appending keeps the file's owner (nobody, as root) as it was.
        OpenOptions::new()
            .append(true)
            .open(data.join("postgresql.conf"))
            .and_then(|mut f| f.write_all(settings.as_bytes()))
            .context("writing the cluster's settings into its postgresql.conf")?;
        step(&format!(
            "starting PostgreSQL on 127.0.0.1:{} (pg_ctl start -w)",
            cluster.port
        ));
        let log = dir.join("postgres.log");
        let mut start = cluster.command("pg_ctl");
        start
            .arg("--pgdata")
            .arg(&data)
            .arg("--log")
            .arg(&log)
            .args(["--wait", "--timeout", WAIT_SECS, "start"])
            .stdout(Stdio::null());
        if let Err(e) = run(&mut start) {
            let said = std::fs::read_to_string(&log).unwrap_or_default();
            return Err(e.context(format!("PostgreSQL did not start; its log:\n{said}")));
        }
        Ok(cluster)
    }

    /// The URL of its `postgres` database, as its superuser.
    pub fn url(&self) -> String {
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/postgres", self.port)
    }

    /// Its data dir: the database's files.
    pub fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// Stops it and starts it again (`pg_ctl restart`, fast): its own cache is then
    /// empty. Clients see their connections end and must make new ones.
    pub fn restart(&self) -> Result<()> {
        step("restarting PostgreSQL (pg_ctl restart --mode fast), which empties its cache");
        let mut restart = self.command("pg_ctl");
        restart
            .arg("--pgdata")
            .arg(self.data())
            .arg("--log")
            .arg(self.dir.join("postgres.log"))
            .args([
                "--wait",
                "--timeout",
                WAIT_SECS,
                "--mode",
                "fast",
                "restart",
            ])
            .stdout(Stdio::null());
        run(&mut restart)
    }

    /// `pg_ctl` for this cluster, as a line of words (see [`with_cluster_ctl`]).
    fn ctl(&self) -> String {
        let user = self
            .user
            .map_or(String::new(), |u| format!("runuser -u {u} -- "));
        format!(
            "{user}{} --pgdata {} --log {}",
            self.bin.join("pg_ctl").display(),
            self.dir.join("data").display(),
            self.dir.join("postgres.log").display()
        )
    }

    /// Fails while the server's pid file is there.
    fn gone(&self) -> Result<()> {
        for _ in 0..50 {
            if !self.dir.join("data/postmaster.pid").exists() {
                return Ok(());
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        bail!("the server's pid file is still there")
    }

    /// One of PostgreSQL's programs, run as the cluster's user, in its dir (which that
    /// user can enter, unlike perhaps our working dir).
    fn command(&self, program: &str) -> Command {
        let program = self.bin.join(program);
        let mut c = match self.user {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(program);
                c
            }
            None => Command::new(program),
        };
        c.current_dir(&self.dir);
        c
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // A server runs (or may, if its start timed out) while its pid file is there.
        if self.dir.join("data/postmaster.pid").exists() {
            step("stopping the throwaway PostgreSQL cluster (pg_ctl stop)");
            let mut stop = self.command("pg_ctl");
            stop.arg("--pgdata")
                .arg(self.dir.join("data"))
                .args(["--wait", "--timeout", WAIT_SECS, "--mode", "fast", "stop"])
                .stdout(Stdio::null());
            // Stopping fails when the server is gone already (Ctrl-C reaches it too when
            // nothing put it in a session of its own); then its pid file is gone too.
            // After Ctrl-C, `run` fails whatever pg_ctl did: the pid file tells.
            let stopped = run(&mut stop);
            if self.gone().is_err() {
                let why = stopped
                    .err()
                    .map_or("its pid file stayed".into(), |e| format!("{e:#}"));
                // Deleting the dir under a live server would leave it running unseen.
                eprintln!(
                    "xtask: {why}; the cluster is left in {} (stop it with pg_ctl -D {}/data stop)",
                    self.dir.display(),
                    self.dir.display()
                );
                return;
            }
        }
        step(&format!("removing {}", self.dir.display()));
        if let Err(e) = std::fs::remove_dir_all(&self.dir) {
            eprintln!("xtask: could not remove {}: {e}", self.dir.display());
        }
    }
}

/// A new, empty dir of our own under the temp dir.
fn fresh_dir() -> Result<PathBuf> {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let base = std::env::temp_dir();
    for attempt in 0..100u32 {
        let dir = base.join(format!(
            "typepper-pg-{}-{}",
            std::process::id(),
            nanos.wrapping_add(attempt)
        ));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e).with_context(|| format!("creating {}", dir.display())),
        }
    }
    bail!("no free name for a temp dir under {}", base.display())
}

/// A TCP port of 127.0.0.1 that was free a moment ago. Another process could take it
/// before the server binds it; then the start fails and says so in its log.
fn free_port() -> Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0").context("finding a free port on 127.0.0.1")?;
    Ok(listener.local_addr()?.port())
}

fn is_root() -> bool {
    output(Command::new("id").arg("-u")).is_some_and(|id| id.trim() == "0")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Starts real clusters (minutes the first time, if postgresql must be installed).
    #[test]
    #[ignore = "starts PostgreSQL servers"]
    fn a_cluster_serves_until_dropped_and_leaves_nothing_behind() {
        let cluster = Cluster::start(crate::install::postgres().unwrap(), false).unwrap();
        let dir = cluster.dir.clone();
        let port = cluster.port;
        assert_eq!(
            cluster.url(),
            format!("postgres://postgres@127.0.0.1:{port}/postgres")
        );
        std::net::TcpStream::connect(("127.0.0.1", port)).expect("the server listens");
        assert!(
            dir.join(format!(".s.PGSQL.{port}")).exists(),
            "its socket is in its dir"
        );
        drop(cluster);
        assert!(!dir.exists(), "{} is removed", dir.display());
        assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_err());

        // A failing caller gets its own error back, and the server is stopped all the same.
        let mut port = None;
        let failed: Result<()> = with_cluster(|url| {
            let (_, tail) = url.rsplit_once(':').unwrap();
            port = Some(tail.trim_end_matches("/postgres").parse::<u16>().unwrap());
            bail!("the caller fails")
        });
        assert_eq!(failed.unwrap_err().to_string(), "the caller fails");
        assert!(std::net::TcpStream::connect(("127.0.0.1", port.unwrap())).is_err());
    }
}
