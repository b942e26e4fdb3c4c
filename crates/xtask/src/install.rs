//! Installing what a command needs, when it is missing. Each install says so first.
//!
//! Everything comes from a package registry: rustup and crates.io for Rust tools, the npm
//! registry for npm packages (binaryen's wasm-opt among them), Debian's archive for
//! chromium and postgresql. Nothing is fetched from anywhere else.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::sh::{self, cmd, has, output, run, step};

pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// Pinned so that every machine builds with the same tools.
pub const CARGO_FUZZ_VERSION: &str = "0.13.2";

/// The wasm32 target for rustc.
pub fn wasm_target() -> Result<()> {
    let installed = output(Command::new("rustup").args(["target", "list", "--installed"]));
    if installed.is_some_and(|list| list.lines().any(|l| l.trim() == WASM_TARGET)) {
        return Ok(());
    }
    step(&format!(
        "installing the {WASM_TARGET} target (rustup target add)"
    ));
    run(Command::new("rustup").args(["target", "add", WASM_TARGET]))
}

/// A cargo-installed tool at exactly `version`, checked by `<bin> --version`.
pub fn cargo_tool(krate: &str, version: &str, bin: &str) -> Result<()> {
    let answers = output(Command::new(bin).arg("--version"));
    if answers.is_some_and(|v| v.split_whitespace().any(|w| w == version)) {
        return Ok(());
    }
    step(&format!(
        "installing {krate} {version} (cargo install --locked; a few minutes, once)"
    ));
    let locked =
        run(Command::new("cargo").args(["install", krate, "--version", version, "--locked"]));
    if locked.is_ok() {
        return Ok(());
    }
    // A tool's own lock file can name a version the registry no longer serves (yanked):
    // the same tool version then builds with the newest compatible dependencies.
    step(&format!(
        "installing {krate} {version} again, without its lock file"
    ));
    run(Command::new("cargo").args(["install", krate, "--version", version]))
}

/// The version of `package` Cargo.lock holds.
pub fn locked_version(package: &str) -> Result<String> {
    let lock =
        std::fs::read_to_string(sh::root().join("Cargo.lock")).context("reading Cargo.lock")?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == format!("name = \"{package}\"")
            && let Some(v) = lines.next().and_then(|l| l.strip_prefix("version = \""))
        {
            return Ok(v.trim_end_matches('"').to_owned());
        }
    }
    bail!("{package} is not in Cargo.lock")
}

/// The wasm32 target, and wasm-bindgen-cli at exactly the wasm-bindgen version the game
/// links.
pub fn wasm_tools() -> Result<()> {
    wasm_target()?;
    let bindgen = locked_version("wasm-bindgen")?;
    cargo_tool("wasm-bindgen-cli", &bindgen, "wasm-bindgen")
}

/// Whether a nightly toolchain is installed (the fuzzers need one).
pub fn nightly() -> bool {
    output(Command::new("rustup").args(["toolchain", "list"]))
        .is_some_and(|list| list.lines().any(|l| l.starts_with("nightly")))
}

/// cargo-fuzz, for the fuzz runs.
pub fn cargo_fuzz() -> Result<()> {
    let answers = output(Command::new("cargo").args(["fuzz", "--version"]));
    if answers.is_some_and(|v| v.contains(CARGO_FUZZ_VERSION)) {
        return Ok(());
    }
    step(&format!(
        "installing cargo-fuzz {CARGO_FUZZ_VERSION} (cargo install --locked)"
    ));
    run(Command::new("cargo").args([
        "install",
        "cargo-fuzz",
        "--version",
        CARGO_FUZZ_VERSION,
        "--locked",
    ]))
}

/// Debian packages, installed with apt-get when `probe` (a file they provide) is missing.
pub fn debian(packages: &[&str], probe: &Path) -> Result<()> {
    if probe.exists() {
        return Ok(());
    }
    let list = packages.join(" ");
    step(&format!(
        "installing Debian's {list} (apt-get; {} is missing)",
        probe.display()
    ));
    apt_get(&["update", "-q"])?;
    let mut install = vec!["install", "-y", "-q", "--no-install-recommends"];
    install.extend(packages);
    apt_get(&install)?;
    if !probe.exists() {
        bail!("{list} installed, but {} is still missing", probe.display());
    }
    Ok(())
}

/// Runs apt-get with `args` as root: directly if we are root, else through `sudo -n`.
pub fn apt_get(args: &[&str]) -> Result<()> {
    let root = output(Command::new("id").arg("-u")).is_some_and(|id| id.trim() == "0");
    let mut c = if root {
        Command::new("apt-get")
    } else if has("sudo") {
        let mut c = Command::new("sudo");
        c.args(["-n", "apt-get"]);
        c
    } else {
        bail!("`apt-get {}` needs root: run it as root", args.join(" "));
    };
    c.args(args).env("DEBIAN_FRONTEND", "noninteractive");
    run(&mut c)
}

/// Debian packages at exact versions, unpacked (not installed) each into its own folder
/// of `dir`, `<name>_<version>`, if not there yet: `apt-get download`, then `dpkg-deb -x`.
/// Needs no root unless apt's package lists are missing, which `apt-get update` fetches.
pub fn debian_unpacked(packages: &[(&str, &str)], dir: &Path) -> Result<()> {
    let done = |(name, version): &(&str, &str)| dir.join(format!("{name}_{version}/.unpacked"));
    let missing: Vec<&(&str, &str)> = packages.iter().filter(|p| !done(p).exists()).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let specs: Vec<String> = missing.iter().map(|(n, v)| format!("{n}={v}")).collect();
    step(&format!(
        "unpacking Debian's {} into {} (apt-get download, dpkg-deb -x)",
        specs.join(", "),
        dir.display()
    ));
    let downloads = dir.join("downloads");
    std::fs::create_dir_all(&downloads)
        .with_context(|| format!("creating {}", downloads.display()))?;
    let download = || {
        let mut c = Command::new("apt-get");
        c.arg("download").args(&specs).current_dir(&downloads);
        run(&mut c)
    };
    if download().is_err() {
        step("updating apt's package lists and trying again (apt-get update)");
        apt_get(&["update", "-q"])?;
        download()?;
    }
    for (name, version) in missing {
        // apt-get names the file after the package, its version with the epoch's colon
        // escaped, and its architecture: fortunes-min_1%3a1.99.1-7.3_all.deb.
        let escaped = version.replace(':', "%3a");
        let deb = std::fs::read_dir(&downloads)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(&format!("{name}_{escaped}_")))
            })
            .with_context(|| format!("apt-get download left no {name}_{escaped}_*.deb"))?;
        let into = dir.join(format!("{name}_{version}"));
        run(Command::new("dpkg-deb").arg("-x").arg(&deb).arg(&into))?;
        std::fs::write(done(&(name, version)), "")
            .with_context(|| format!("marking {} unpacked", into.display()))?;
    }
    Ok(())
}

/// npm packages at exact versions, installed into `prefix` if any is missing or at
/// another version; its node_modules.
pub fn npm_packages(prefix: &Path, packages: &[(&str, &str)]) -> Result<PathBuf> {
    let modules = prefix.join("node_modules");
    let installed = |(name, version): &(&str, &str)| {
        std::fs::read_to_string(modules.join(name).join("package.json"))
            .ok()
            .and_then(|json| serde_json::from_str::<serde_json::Value>(&json).ok())
            .is_some_and(|p| p["version"] == *version)
    };
    if packages.iter().all(installed) {
        return Ok(modules);
    }
    if !has("npm") {
        debian(&["nodejs", "npm"], Path::new("/usr/bin/npm"))?;
    }
    let specs: Vec<String> = packages.iter().map(|(n, v)| format!("{n}@{v}")).collect();
    let shown = prefix.strip_prefix(sh::root()).unwrap_or(prefix);
    step(&format!(
        "installing {} into {} (npm install)",
        specs.join(" and "),
        shown.display()
    ));
    run(
        cmd("npm", &["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(prefix)
            .args(&specs),
    )?;
    Ok(modules)
}

/// Debian's chromium, for the browser tests.
pub fn chromium() -> Result<PathBuf> {
    let path = PathBuf::from("/usr/bin/chromium");
    debian(&["chromium"], &path)?;
    Ok(path)
}

/// PostgreSQL's server binaries (initdb, pg_ctl, postgres): Debian's postgresql.
pub fn postgres() -> Result<PathBuf> {
    if let Some(dir) = postgres_bindir() {
        return Ok(dir);
    }
    debian(&["postgresql"], Path::new("/usr/lib/postgresql"))?;
    postgres_bindir()
        .context("postgresql is installed but no initdb was found under /usr/lib/postgresql")
}

fn postgres_bindir() -> Option<PathBuf> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|bin| bin.join("initdb").exists() && bin.join("pg_ctl").exists())
        .collect();
    versions.sort();
    versions.pop()
}

/// The npm packages of `dir` (its package-lock.json), when node_modules is missing or
/// older than the lock file.
pub fn npm(dir: &Path) -> Result<()> {
    if !has("npm") {
        debian(&["nodejs", "npm"], Path::new("/usr/bin/npm"))?;
    }
    let modules = dir.join("node_modules/.package-lock.json");
    let lock = dir.join("package-lock.json");
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    if modified(&modules).is_some_and(|m| modified(&lock).is_some_and(|l| m >= l)) {
        return Ok(());
    }
    step(&format!(
        "installing npm packages in {} (npm ci)",
        dir.display()
    ));
    let mut c = cmd("npm", &["ci", "--no-audit", "--no-fund"]);
    c.current_dir(dir);
    run(&mut c)
}
