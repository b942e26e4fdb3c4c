//! The one reader of `/proc` for the load tools, and for the processes a test left behind
//! (`procs`): a process's CPU time and memory, the machine's busy time, and the machine
//! line the tools' tables print.
//!
//! Linux only, as the tools are: a figure that can't be read (the process has gone) reads
//! as nothing, and the table says 0 rather than the run failing at its end.

use std::collections::HashMap;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::sh::output;

/// `/proc/<pid>/stat`, read once.
struct Stat {
    /// The command's name (field 2), which may hold spaces and parentheses.
    name: String,
    /// Field 3 on.
    rest: String,
}

impl Stat {
    fn read(pid: u32) -> Option<Stat> {
        Stat::parse(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
    }

    fn parse(stat: &str) -> Option<Stat> {
        // The name is in parentheses and may hold anything: it ends at the last ')'.
        let (head, rest) = stat.rsplit_once(')')?;
        Some(Stat {
            name: head.split_once('(')?.1.to_owned(),
            rest: rest.to_owned(),
        })
    }

    /// Field `n`, numbered from 1 as proc(5) numbers them.
    fn field(&self, n: usize) -> Option<u64> {
        self.rest
            .split_whitespace()
            .nth(n.checked_sub(3)?)?
            .parse()
            .ok()
    }

    /// Its own CPU time in clock ticks: user and system (fields 14 and 15).
    fn own(&self) -> u64 {
        self.field(14).unwrap_or(0) + self.field(15).unwrap_or(0)
    }
}

/// Field `n` of `/proc/<pid>/stat`, numbered from 1 as proc(5) numbers them: 14 and 15
/// are its user and system CPU time in clock ticks, 22 the tick it started at.
pub fn stat_field(pid: u32, n: usize) -> Option<u64> {
    Stat::read(pid)?.field(n)
}

/// Process `pid`'s CPU time so far, in clock ticks (user and system); 0 once it has gone.
pub fn cpu_ticks(pid: u32) -> u64 {
    Stat::read(pid).map_or(0, |s| s.own())
}

/// The CPU time, in clock ticks, of this process's children that ended and were waited
/// for (fields 16 and 17).
fn ended_children_ticks() -> u64 {
    Stat::read(std::process::id())
        .map_or(0, |s| s.field(16).unwrap_or(0) + s.field(17).unwrap_or(0))
}

/// Every process named `name`'s CPU ticks, by pid.
fn ticks_of_every(name: &str) -> HashMap<u32, u64> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return HashMap::new();
    };
    dir.filter_map(|e| {
        let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = Stat::read(pid)?;
        (stat.name == name).then(|| (pid, stat.own()))
    })
    .collect()
}

/// Clock ticks a second (`getconf CLK_TCK`; Linux's is 100).
fn clock_ticks() -> f64 {
    static HZ: OnceLock<f64> = OnceLock::new();
    *HZ.get_or_init(|| {
        output(Command::new("getconf").arg("CLK_TCK"))
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(100.0)
    })
}

/// CPU seconds a process took between two readings of [`cpu_ticks`], over `wall`
/// seconds: the cores it kept busy.
pub fn cores(before: u64, after: u64, wall: f64) -> f64 {
    after.saturating_sub(before) as f64 / clock_ticks() / wall
}

/// Process `pid`'s own memory now, in KiB: resident and not backed by a file
/// (`RssAnon`). The database's pages that SQLite reads through a memory map are the
/// OS's file cache, shared and reclaimable, and not counted.
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("RssAnon:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The machine's busy time so far, all cores, in clock ticks: `/proc/stat`'s first line,
/// user to softirq, less idle and I/O wait (steal is the host's, guest counted in user).
pub fn busy_ticks() -> Result<u64> {
    let stat = std::fs::read_to_string("/proc/stat")?;
    let ticks: Vec<u64> = stat
        .lines()
        .next()
        .context("/proc/stat's first line")?
        .split_whitespace()
        .skip(1)
        .take(7)
        .filter_map(|t| t.parse().ok())
        .collect();
    let idle = ticks.get(3).copied().unwrap_or(0) + ticks.get(4).copied().unwrap_or(0);
    Ok(ticks.iter().sum::<u64>() - idle)
}

/// CPU seconds the processes sharing the machine took over a stretch of time.
#[derive(Clone, Debug, Default)]
pub struct Cpu {
    /// The stretch's length.
    pub wall: f64,
    /// Each watched process's.
    pub watched: Vec<f64>,
    /// Every PostgreSQL process's together (its backends, writer, WAL writer…).
    pub postgres: f64,
    /// This process's children that ended meanwhile (the load tool's wrk runs).
    pub children: f64,
}

/// The clock ticks each process had used at one moment.
pub struct CpuMark {
    at: Instant,
    pids: Vec<u32>,
    watched: Vec<u64>,
    /// Every `postgres` process's, by pid: one that starts meanwhile counts from 0.
    postgres: HashMap<u32, u64>,
    children: u64,
}

impl CpuMark {
    /// Marks now, watching the processes `pids`.
    pub fn now(pids: &[u32]) -> CpuMark {
        CpuMark {
            at: Instant::now(),
            pids: pids.to_vec(),
            watched: pids.iter().map(|&pid| cpu_ticks(pid)).collect(),
            postgres: ticks_of_every("postgres"),
            children: ended_children_ticks(),
        }
    }

    /// What each took since the mark.
    pub fn since(&self) -> Cpu {
        let now = CpuMark::now(&self.pids);
        let secs = |t: u64| t as f64 / clock_ticks();
        Cpu {
            wall: self.at.elapsed().as_secs_f64(),
            watched: now
                .watched
                .iter()
                .zip(&self.watched)
                .map(|(b, a)| secs(b.saturating_sub(*a)))
                .collect(),
            postgres: secs(
                now.postgres
                    .iter()
                    .map(|(pid, t)| t.saturating_sub(*self.postgres.get(pid).unwrap_or(&0)))
                    .sum(),
            ),
            children: secs(now.children.saturating_sub(self.children)),
        }
    }
}

/// The machine line: cores, CPU model, and the file system the databases lived on
/// (SQLite syncs every commit, so the disk matters).
pub fn machine() -> String {
    let cores = output(&mut Command::new("nproc")).map_or_else(
        || {
            std::thread::available_parallelism()
                .map_or(0, |n| n.get())
                .to_string()
        },
        |n| n.trim().to_owned(),
    );
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|v| v.trim_start_matches([' ', '\t', ':']).trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let tmp = std::env::temp_dir();
    let fs = output(Command::new("df").arg("--output=fstype").arg(&tmp))
        .and_then(|t| t.lines().nth(1).map(|l| l.trim().to_owned()))
        .unwrap_or_else(|| "?".into());
    format!(
        "machine: nproc {cores}, {cpu}; databases in {} ({fs})",
        tmp.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_processs_stat_gives_its_start_and_its_cpu_times() {
        let me = std::process::id();
        let started = stat_field(me, 22).unwrap();
        assert_eq!(stat_field(me, 22), Some(started), "a process starts once");
        assert!(stat_field(me, 14).is_some() && stat_field(me, 15).is_some());
        // Field 1 is the pid, before the name: not a field this reads.
        assert_eq!(stat_field(me, 1), None);
        assert_eq!(stat_field(u32::MAX, 22), None, "no such process");
        assert_eq!(cpu_ticks(u32::MAX), 0, "a process gone took nothing more");
    }

    #[test]
    fn a_name_with_spaces_and_parentheses_ends_at_the_last_one() {
        let stat =
            Stat::parse("42 (a (b) c) S 1 42 42 0 -1 0 9 0 0 0 7 3 2 1 20 0 1 0 555").unwrap();
        assert_eq!(stat.name, "a (b) c");
        assert_eq!(stat.field(3), None, "the state is no number");
        assert_eq!((stat.field(14), stat.field(15)), (Some(7), Some(3)));
        assert_eq!(stat.own(), 10);
        assert_eq!(stat.field(22), Some(555));
        assert!(Stat::parse("42 no name").is_none());
        assert!(rss_kib(std::process::id()).is_some_and(|kib| kib > 0));
    }
}
