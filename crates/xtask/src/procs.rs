//! The project's own programs still running: what a test must not leave behind.
//!
//! A process is ours when its executable is one of the workspace's binaries in the target
//! dir (`typepper`, `typepper-server`, in any profile). They are told apart by their PID
//! and the moment they started, so that a PID the system gives again is another process.

use std::fmt;
use std::path::Path;

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

/// Field `n` of `/proc/<pid>/stat`, numbered from 1 as proc(5) numbers them: 14 and 15
/// are its user and system CPU time in clock ticks, 22 the tick it started at.
pub fn stat_field(pid: u32, n: usize) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's name, which is in parentheses and may hold anything: field 3 on.
    let after = stat.rsplit_once(')')?.1;
    after
        .split_whitespace()
        .nth(n.checked_sub(3)?)?
        .parse()
        .ok()
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

    #[test]
    fn this_processs_stat_gives_its_start_and_its_cpu_times() {
        let me = std::process::id();
        let started = stat_field(me, 22).unwrap();
        assert_eq!(stat_field(me, 22), Some(started), "a process starts once");
        assert!(stat_field(me, 14).is_some() && stat_field(me, 15).is_some());
        // Field 1 is the pid, before the name: not a field this reads.
        assert_eq!(stat_field(me, 1), None);
        assert_eq!(stat_field(u32::MAX, 22), None, "no such process");
    }
}
