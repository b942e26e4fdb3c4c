//! The project's own programs still running: what a test must not leave behind.
//!
//! A process is ours when its executable is one of the workspace's binaries in the target
//! dir (`typepper`, `typepper-server`, in any profile). They are told apart by their PID
//! and the moment they started, so that a PID the system gives again is another process.

use std::fmt;
use std::path::Path;

use crate::load::procfs::stat_field;

/// One of our processes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proc {
    pid: i32,
    /// Clock ticks after boot that it started (`/proc/<pid>/stat`, field 22).
    started: u64,
    exe: String,
}

impl fmt::Display for Proc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (pid {})", self.exe, self.pid)
    }
}

/// Our processes running now.
pub fn ours() -> Vec<Proc> {
    let target = crate::sh::target_dir();
    let target = std::fs::canonicalize(&target).unwrap_or(target);
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return vec![];
    };
    entries
        .flatten()
        .filter_map(|e| {
            let pid: i32 = e.file_name().to_str()?.parse().ok()?;
            let exe = std::fs::read_link(e.path().join("exe")).ok()?;
            ours_at(&exe, &target)?;
            let started = stat_field(pid as u32, 22)?;
            Some(Proc {
                pid,
                started,
                exe: exe.display().to_string(),
            })
        })
        .collect()
}

/// Whether `exe` is one of our binaries under `target`.
fn ours_at(exe: &Path, target: &Path) -> Option<()> {
    let name = exe.file_name()?.to_str()?;
    (exe.starts_with(target) && matches!(name, "typepper" | "typepper-server")).then_some(())
}

/// Ends `procs` (SIGKILL).
pub fn kill(procs: &[Proc]) {
    for p in procs {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(p.pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_workspaces_binaries_in_the_target_dir_are_ours() {
        let target = Path::new("/w/target");
        assert!(ours_at(Path::new("/w/target/release/typepper"), target).is_some());
        assert!(ours_at(Path::new("/w/target/debug/typepper-server"), target).is_some());
        assert!(ours_at(Path::new("/usr/bin/typepper"), target).is_none());
        assert!(ours_at(Path::new("/w/target/release/xtask"), target).is_none());
        // A test's own executable, under deps/, isn't a game or a server.
        assert!(ours_at(Path::new("/w/target/debug/deps/ssh-0123"), target).is_none());
    }
}
