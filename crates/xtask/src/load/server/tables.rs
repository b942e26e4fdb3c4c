//! The tables the load test prints: each route's rate against `/healthz`'s, where the CPU
//! went, the caches and memory, and the goals met or not.

use std::fmt::Write as _;

use super::measure::TWO_SERVERS;
use super::wrk::{Report, SUBMIT_CONNECTIONS, WRK_CONNECTIONS, WRK_THREADS, wrk_flags};
use super::{BODIES_VAR, FILL_VAR, Plan, SCRIPTED_HEALTHZ};
use crate::load::procfs::machine;

/// Every table the load test prints.
#[derive(Default)]
pub struct Results {
    pub rows: Vec<Row>,
    /// `(what, RSS in KiB)`.
    pub memory: Vec<(String, u64)>,
    /// What the OS held of each database's files around its cold reads.
    pub caches: Vec<String>,
}

/// One route on one set-up.
pub struct Row {
    pub backend: &'static str,
    pub route: &'static str,
    pub report: Report,
}

/// The goals the brief sets.
const RUNS_GOAL: f64 = 0.5;
const SUBMIT_GOAL: f64 = 1_000.0;

/// Durable PostgreSQL's verified runs against SQLite's with group commit (issue 25).
const POSTGRES_GOAL: f64 = 0.5;

/// Prints every table, the machine and the wrk command lines first.
pub fn print_results(plan: &Plan, results: &Results) {
    let rows = &results.rows;
    println!();
    println!("{}", machine());
    let flags = wrk_flags(plan.form.secs, WRK_CONNECTIONS).join(" ");
    let submit_flags = wrk_flags(plan.form.secs, SUBMIT_CONNECTIONS).join(" ");
    println!("wrk:     wrk {flags} <url>");
    println!(
        "         wrk {submit_flags} -s submit.lua <url>/v1/submit -- <bodies file> {WRK_THREADS}"
    );
    println!(
        "         ({} distinct ranked rounds of {} on issued seeds for each set-up; \
         SQLite: synchronous=FULL, WAL; \"PostgreSQL, fsync off\" is the tests' throwaway \
         cluster, \"PostgreSQL\" syncs every commit)",
        plan.count, plan.form.mode
    );
    println!();
    print!("{}", table(rows));
    println!();
    print!("{}", cpu_table(rows));
    if !results.caches.is_empty() {
        println!();
        println!(
            "cold reads: runs loaded straight in ({} each), read in a shuffled order, each \
             once; before them PostgreSQL was restarted (its own cache, shared_buffers, \
             empty) and the OS's cache of each database's files dropped:",
            plan.form.fill
        );
        for line in &results.caches {
            println!("  {line}");
        }
    }
    if !results.memory.is_empty() {
        println!();
        println!("server memory (RssAnon: its own, not the database's mapped pages):");
        for (what, kib) in &results.memory {
            println!("  {what}: {:.1} MiB", *kib as f64 / 1024.0);
        }
    }
    println!();
    for line in verdicts(rows) {
        println!("{line}");
    }
}

/// Where the CPU went in each run: CPU seconds of the servers, PostgreSQL and wrk, and
/// what was left of the machine's cores over the run.
fn cpu_table(rows: &[Row]) -> String {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get()) as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "where the CPU went (CPU seconds from /proc, of {cores:.0} cores × the run's seconds):"
    );
    let _ = writeln!(
        out,
        "{:<26} {:<33} {:>7} {:>9} {:>10} {:>7} {:>7}",
        "backend", "route", "run s", "server", "PostgreSQL", "wrk", "idle"
    );
    for row in rows {
        let Some(cpu) = &row.report.cpu else {
            continue;
        };
        let servers: f64 = cpu.watched.iter().sum();
        let server = match &cpu.watched[..] {
            [one] => format!("{one:.2}"),
            many => many
                .iter()
                .map(|s| format!("{s:.2}"))
                .collect::<Vec<_>>()
                .join("+"),
        };
        let idle = (cores * cpu.wall - servers - cpu.postgres - cpu.children).max(0.0);
        let line = format!(
            "{:<26} {:<33} {:>7.2} {:>9} {:>10.2} {:>7.2} {:>7.2}",
            row.backend,
            row.route.trim_end_matches(", server A"),
            cpu.wall,
            server,
            cpu.postgres,
            cpu.children,
            idle
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<26} {:<33} {:>9} {:>9} {:>9} {:>8}  notes",
        "backend", "route", "req/s", "p50", "p99", "÷healthz"
    );
    for row in rows {
        let r = &row.report;
        let base = healthz(rows, row.backend);
        let ratio = base.map_or_else(|| "-".into(), |b| percent(r.rps / b));
        let mut notes = vec![];
        if let (Some(s), Some(v)) = (&r.submit, r.verified_per_sec()) {
            notes.push(format!(
                "{} verified/s ({} ok, {} of them ranked; {} no, {} other)",
                thousands(v),
                s.ok,
                s.ranked,
                s.no,
                s.other
            ));
            if s.ran_out {
                notes.push(format!(
                    "bodies ran out before the end: a lower bound (raise {BODIES_VAR})"
                ));
            }
            if !s.first_no.is_empty() {
                notes.push(format!("first refusal: {}", s.first_no));
            }
            if let Some(group) = r.group {
                notes.push(format!("{group:.1} submissions a commit"));
            }
            if let Some((statements, trips)) = r.trips {
                notes.push(format!(
                    "{statements:.1} statements and {trips:.1} round trips a submission"
                ));
            }
        }
        if r.errors > 0 {
            notes.push(format!("{} errors (non-2xx or socket)", r.errors));
        }
        let line = format!(
            "{:<26} {:<33} {:>9} {:>9} {:>9} {:>8}  {}",
            row.backend,
            row.route,
            thousands(r.rps),
            time(r.p50_us),
            time(r.p99_us),
            ratio,
            notes.join("; ")
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// The goals, met or not.
fn verdicts(rows: &[Row]) -> Vec<String> {
    let mut out = vec![];
    let verified = |backend: &str| {
        rows.iter()
            .filter(|r| r.backend == backend)
            .filter_map(|r| r.report.verified_per_sec())
            .sum::<f64>()
    };
    for row in rows {
        let Some(base) = healthz(rows, row.backend) else {
            continue;
        };
        if row.report.exhausted {
            out.push(format!(
                "{}: {} at least {} of /healthz: nearly every filled run was read, so \
                 this is a floor set by how many were filled, not a measure (raise {FILL_VAR})",
                row.backend,
                row.route,
                percent(row.report.rps / base),
            ));
            continue;
        }
        if row.route.starts_with("GET /v1/runs/") {
            let ratio = row.report.rps / base;
            out.push(format!(
                "{}: {} at {} of /healthz (goal ≥ {}): {}",
                row.backend,
                row.route,
                percent(ratio),
                percent(RUNS_GOAL),
                met(ratio >= RUNS_GOAL)
            ));
            if let Some(scripted) = rows
                .iter()
                .find(|r| r.backend == row.backend && r.route == SCRIPTED_HEALTHZ)
                .filter(|s| row.route.ends_with("cold") && !s.report.exhausted)
            {
                let ratio = row.report.rps / scripted.report.rps;
                out.push(format!(
                    "{}: {} at {} of /healthz asked by the same script (goal ≥ {}): {}",
                    row.backend,
                    row.route,
                    percent(ratio),
                    percent(RUNS_GOAL),
                    met(ratio >= RUNS_GOAL)
                ));
            }
        }
    }
    let sqlite = verified("SQLite");
    out.push(format!(
        "SQLite: {} verified runs/s (goal ≥ {}): {}",
        thousands(sqlite),
        thousands(SUBMIT_GOAL),
        met(sqlite >= SUBMIT_GOAL)
    ));
    let each = verified("SQLite, a commit each");
    if each > 0.0 {
        out.push(format!(
            "SQLite: group commit {:.1}× a commit each ({} against {}; goal ≥ 2×): {}",
            sqlite / each,
            thousands(sqlite),
            thousands(each),
            met(sqlite >= 2.0 * each)
        ));
    }
    let tmpfs = verified("SQLite on tmpfs");
    if tmpfs > 0.0 {
        out.push(format!(
            "SQLite: {} of the same server on tmpfs ({}; goal within 25 %): {}",
            percent(sqlite / tmpfs),
            thousands(tmpfs),
            met(sqlite >= 0.75 * tmpfs)
        ));
    }
    let (one, two) = (verified("PostgreSQL"), verified(TWO_SERVERS));
    if one > 0.0 && sqlite > 0.0 {
        out.push(format!(
            "PostgreSQL: {} verified runs/s, {} of SQLite's with group commit (goal ≥ {}): {}; \
             with fsync off {}",
            thousands(one),
            percent(one / sqlite),
            percent(POSTGRES_GOAL),
            met(one >= POSTGRES_GOAL * sqlite),
            thousands(verified("PostgreSQL, fsync off")),
        ));
    }
    if one > 0.0 && two > 0.0 {
        out.push(format!(
            "PostgreSQL: two servers {} verified runs/s together, {:.2}× one server's {}",
            thousands(two),
            two / one,
            thousands(one)
        ));
    }
    let cold = |backend: &str| {
        rows.iter()
            .filter(|r| r.backend == backend && r.route.starts_with("GET /v1/runs/<id> cold"))
            .map(|r| r.report.rps)
            .sum::<f64>()
    };
    let (one, two) = (cold("PostgreSQL"), cold(TWO_SERVERS));
    if one > 0.0 && two > 0.0 {
        out.push(format!(
            "PostgreSQL: two servers read {} cold runs/s together, {:.2}× one server's {}",
            thousands(two),
            two / one,
            thousands(one)
        ));
    }
    out
}

fn healthz(rows: &[Row], backend: &str) -> Option<f64> {
    rows.iter()
        .find(|r| r.backend == backend && r.route == "GET /healthz")
        .map(|r| r.report.rps)
}

fn met(yes: bool) -> &'static str {
    if yes { "met" } else { "NOT met" }
}

fn percent(ratio: f64) -> String {
    if ratio < 0.1 {
        format!("{:.1}%", ratio * 100.0)
    } else {
        format!("{:.0}%", ratio * 100.0)
    }
}

/// A rate with thousands separated: `12,345`.
fn thousands(v: f64) -> String {
    let digits = format!("{:.0}", v.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Microseconds as wrk would print them, rounded for a table.
fn time(us: f64) -> String {
    if us < 1_000.0 {
        format!("{us:.0} µs")
    } else if us < 1_000_000.0 {
        format!("{:.2} ms", us / 1e3)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_and_times_print() {
        assert_eq!(thousands(1_234_567.4), "1,234,567");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(time(251.0), "251 µs");
        assert_eq!(time(24_900.0), "24.90 ms");
        assert_eq!(percent(0.634), "63%");
        assert_eq!(percent(0.018), "1.8%");
    }
}
