//! Running commands, saying what runs.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result, bail};

/// The workspace root (this crate lives in `crates/xtask`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/xtask is two levels down")
        .to_path_buf()
}

/// Cargo's target dir: `CARGO_TARGET_DIR` (relative to the workspace root, where cargo
/// runs), else `target/` in the root.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root().join(dir),
        _ => root().join("target"),
    }
}

/// Prints a step's line: what is being done, and why if it's an install.
pub fn step(what: &str) {
    // Not println!: a step said while unwinding (a guard's clean-up) must not panic
    // because whoever read our output has gone.
    let _ = writeln!(std::io::stdout(), "==> {what}");
}

/// A command in the workspace root.
pub fn cmd(program: &str, args: &[&str]) -> Command {
    let mut c = Command::new(program);
    c.args(args).current_dir(root());
    c
}

/// Set once Ctrl-C (or SIGTERM) has come.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// From now on Ctrl-C and SIGTERM don't kill the xtask outright. The programs it runs
/// share the terminal's process group, so Ctrl-C stops them; the xtask then fails the
/// step and unwinds, and its guards clean up on the way out (the throwaway PostgreSQL
/// cluster is stopped and deleted). A second Ctrl-C exits at once.
pub fn catch_interrupts() -> Result<()> {
    ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            eprintln!("xtask: interrupted again: exiting without cleaning up");
            std::process::exit(130);
        }
        eprintln!("xtask: interrupted: cleaning up, then stopping (Ctrl-C again to leave now)");
    })
    .context("catching Ctrl-C")
}

/// Whether Ctrl-C or SIGTERM has come.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Runs `c` to completion, failing if it fails or the xtask was interrupted meanwhile.
pub fn run(c: &mut Command) -> Result<()> {
    let shown = show(c);
    let status = c
        .status()
        .with_context(|| format!("could not start {shown}"))?;
    if interrupted() {
        bail!("interrupted while running {shown}");
    }
    if !status.success() {
        bail!("{shown} failed ({status})");
    }
    Ok(())
}

/// Runs `c` and returns its standard output, or None if it can't start or fails.
pub fn output(c: &mut Command) -> Option<String> {
    let out = c.stderr(Stdio::null()).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Whether `program` answers `--version`.
pub fn has(program: &str) -> bool {
    output(Command::new(program).arg("--version")).is_some()
}

fn show(c: &Command) -> String {
    let mut s = c.get_program().to_string_lossy().into_owned();
    for a in c.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}
