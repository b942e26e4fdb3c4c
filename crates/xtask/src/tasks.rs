//! The commands.

use std::process::Command;

use anyhow::{Context as _, Result, bail};

use crate::install;
use crate::sh::{cmd, root, run, step};

/// Where `cargo xtask serve` speaks SSH to the terminal game.
const SSH_LISTEN: &str = "127.0.0.1:2222";

/// Seconds each fuzz target runs for in `cargo xtask test`.
const FUZZ_SECS: u32 = 20;

/// Every check, as CI runs it; then, whatever became of them, no game or server the checks
/// started may still be running.
pub fn test(args: &[String]) -> Result<()> {
    let before = crate::procs::ours();
    let checked = checks(args);
    let left: Vec<_> = crate::procs::ours()
        .into_iter()
        .filter(|p| !before.contains(p))
        .collect();
    crate::procs::kill(&left);
    checked?;
    if !left.is_empty() {
        let list: Vec<String> = left.iter().map(ToString::to_string).collect();
        bail!(
            "the tests left these running (now killed): {}; the test that started each must \
             end it, even when it fails",
            list.join(", ")
        );
    }
    step("all checks passed, and nothing they started is still running");
    Ok(())
}

/// Every check.
fn checks(_args: &[String]) -> Result<()> {
    install::wasm_target()?;
    step("checking formatting (cargo fmt --check)");
    run(&mut cmd("cargo", &["fmt", "--all", "--check"]))?;
    step("linting (cargo clippy -D warnings)");
    run(&mut cmd(
        "cargo",
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
    ))?;
    // The terminal game's tests play the release binary in tmux, against the release
    // server over SSH with OpenSSH's client.
    install::debian(&["tmux"], std::path::Path::new("/usr/bin/tmux"))?;
    install::debian(&["openssh-client"], std::path::Path::new("/usr/bin/ssh"))?;
    let server = crate::build::release_server()?;
    let cli = server.with_file_name("typepper");
    // The store story runs on SQLite always, and on PostgreSQL in a throwaway cluster,
    // which one test stops and starts again under load.
    crate::pg::with_cluster_ctl(|url, ctl| {
        step("running every test (cargo test --workspace), PostgreSQL's and the terminal's too");
        let mut c = cmd("cargo", &["test", "--workspace"]);
        c.env("TYPEPPER_TEST_POSTGRES_URL", url)
            .env("TYPEPPER_TEST_POSTGRES_CTL", ctl)
            .env("TYPEPPER_CLI", &cli)
            .env("TYPEPPER_SERVER_BIN", &server)
            // Everything a test needs is here: a test that would skip fails instead.
            .env("TYPEPPER_TEST_ALL", "1");
        run(&mut c)
    })?;
    step("building the engine for wasm32 (it must build with no feature flags)");
    run(&mut cmd(
        "cargo",
        &[
            "build",
            "-p",
            "typepper-engine",
            "--target",
            install::WASM_TARGET,
        ],
    ))?;
    wasm_goldens()?;
    crate::web::build()?;
    crate::e2e::run_suite(&[])?;
    fuzz()
}

/// Every golden scenario (VERSION 1's, the drills', the keys analysis's) played by the
/// engine and the game built for wasm32, in Node, against the files the native tests
/// hold: so both builds agree on every one.
fn wasm_goldens() -> Result<()> {
    install::wasm_tools()?;
    if !crate::sh::has("node") {
        install::debian(&["nodejs"], std::path::Path::new("/usr/bin/node"))?;
    }
    step("playing every golden scenario in wasm32 (wasm-bindgen-test-runner, Node)");
    let wasm = ["--target", install::WASM_TARGET];
    let golden = [
        "-p",
        "typepper-engine",
        "-p",
        "typepper-game",
        "--test",
        "wasm",
    ];
    run(&mut in_node(&[&golden[..], &wasm].concat()))?;
    step("drawing every screen of the game's tour on the canvas (wasm32, Node)");
    run(&mut in_node(
        &[&["-p", "typepper-web", "--lib"][..], &wasm].concat(),
    ))
}

/// `cargo test` with `args`, its wasm32 tests run by wasm-bindgen-test-runner in Node.
fn in_node(args: &[&str]) -> Command {
    let mut c = cmd("cargo", &[&["test"][..], args].concat());
    c.env(
        "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
        "wasm-bindgen-test-runner",
    );
    c
}

/// A short run of every fuzz target, where nightly exists.
fn fuzz() -> Result<()> {
    if !install::nightly() {
        step("skipping the fuzz run: no nightly toolchain here (cargo fuzz needs one)");
        return Ok(());
    }
    install::cargo_fuzz()?;
    for (krate, targets) in fuzz_targets() {
        for target in &targets {
            step(&format!(
                "fuzzing {krate} {target} for {FUZZ_SECS} s (cargo +nightly fuzz)"
            ));
            let dir = root().join("crates").join(&krate).join("fuzz");
            // New corpus entries go to a scratch dir; the committed corpus only seeds.
            let scratch = std::env::temp_dir().join(format!("typepper-fuzz-{krate}-{target}"));
            std::fs::create_dir_all(&scratch)?;
            let seeds = dir.join("corpus").join(target);
            let max_time = format!("-max_total_time={FUZZ_SECS}");
            let mut c = cmd("cargo", &["+nightly", "fuzz", "run", target.as_str()]);
            c.arg(&scratch);
            if seeds.is_dir() {
                c.arg(&seeds);
            }
            c.args(["--", &max_time, "-print_final_stats=0"])
                .current_dir(&dir);
            run(&mut c)?;
        }
    }
    Ok(())
}

/// Every crate with a `fuzz/` folder and its targets (the files in fuzz_targets/).
fn fuzz_targets() -> Vec<(String, Vec<String>)> {
    let mut out = vec![];
    let Ok(crates) = std::fs::read_dir(root().join("crates")) else {
        return out;
    };
    for krate in crates.flatten() {
        let targets = krate.path().join("fuzz/fuzz_targets");
        let Ok(files) = std::fs::read_dir(&targets) else {
            continue;
        };
        let mut names: Vec<String> = files
            .flatten()
            .filter_map(|f| {
                let p = f.path();
                let stem = p.file_stem()?.to_string_lossy().into_owned();
                (p.extension()? == "rs").then_some(stem)
            })
            .collect();
        names.sort();
        out.push((krate.file_name().to_string_lossy().into_owned(), names));
    }
    out.sort();
    out
}

/// Builds the game and the server, then serves them on an embedded SQLite database
/// until Ctrl-C. Flags after `serve` go to the server (`cargo xtask serve -- --help`).
pub fn serve(args: &[String]) -> Result<()> {
    crate::web::build()?;
    let server = crate::build::release_server()?;
    let args: Vec<&String> = args.iter().filter(|a| a.as_str() != "--").collect();
    // The SSH address the server will listen on: the one given, or ours.
    let ssh = args
        .iter()
        .position(|a| a.as_str() == "--ssh-listen")
        .and_then(|i| args.get(i + 1).map(|a| a.as_str()))
        .or_else(|| args.iter().find_map(|a| a.strip_prefix("--ssh-listen=")))
        .unwrap_or(SSH_LISTEN)
        .to_owned();
    step(&format!(
        "starting the server (data in data/; Ctrl-C stops it); the terminal game plays \
         against it with `{} --server ssh://{ssh}`",
        server.with_file_name("typepper").display()
    ));
    let mut c = cmd(
        server.to_str().unwrap_or("target/release/typepper-server"),
        &[],
    );
    c.arg("--static-dir")
        .arg(root())
        .arg("--data-dir")
        .arg(root().join("data"));
    if !args.iter().any(|a| a.starts_with("--ssh-listen")) {
        c.args(["--ssh-listen", SSH_LISTEN]);
    }
    c.args(args);
    let mut child = c.spawn().context("could not start the server")?;
    // Ctrl-C in the terminal reaches the server itself (one process group). A SIGTERM or
    // SIGINT sent to the xtask alone (a service manager, `kill`) is passed on, so the
    // server never outlives it; a second signal to the server changes nothing.
    let mut passed_on = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if crate::sh::interrupted() && !passed_on {
            passed_on = true;
            let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX));
            let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    // Ctrl-C is how the server is stopped here: the server shuts down on it too.
    if status.success() || crate::sh::interrupted() {
        Ok(())
    } else {
        bail!("the server failed ({status})")
    }
}

/// The benchmarks: the engine's and the server's (criterion; flags after `bench` go to
/// them), then the server's load test on SQLite and PostgreSQL.
pub fn bench(args: &[String]) -> Result<()> {
    step("running the engine's benchmarks (cargo bench -p typepper-engine)");
    let mut c = cmd(
        "cargo",
        &["bench", "-p", "typepper-engine", "--bench", "engine", "--"],
    );
    // `cargo xtask bench -- <filter>` as well as `cargo xtask bench <filter>`.
    c.args(args.iter().filter(|a| a.as_str() != "--"));
    run(&mut c)?;
    step(
        "running the server's benchmarks (cargo bench -p typepper-server): the trust checks' cost",
    );
    let mut c = cmd(
        "cargo",
        &["bench", "-p", "typepper-server", "--bench", "judge", "--"],
    );
    c.args(args.iter().filter(|a| a.as_str() != "--"));
    run(&mut c)?;
    crate::load::run(&[])?;
    browser_figures()
}

/// The game's own figures in headless Chromium: first load, first frame, frame time,
/// keydown-to-paint (e2e/perf/frames.mjs), a live room's (rooms.mjs), and a language's
/// pick to its first word (lists.mjs).
pub fn browser_figures() -> Result<()> {
    crate::web::build()?;
    let e2e = root().join("e2e");
    install::npm(&e2e)?;
    let chromium = install::chromium()?;
    let server = crate::e2e::Server::start(
        &crate::build::release_server()?,
        None,
        &["--ip-rate", "0", "--quiet"],
    )?;
    step(&format!(
        "measuring the game in headless Chromium against {}",
        server.url
    ));
    for script in ["perf/frames.mjs", "perf/rooms.mjs", "perf/lists.mjs"] {
        let mut c = cmd("node", &[script]);
        c.current_dir(&e2e)
            .env("TYPEPPER_URL", &server.url)
            .env("TYPEPPER_CHROMIUM", &chromium);
        run(&mut c)?;
    }
    Ok(())
}
