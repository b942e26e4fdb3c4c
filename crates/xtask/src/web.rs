//! The browser build, as wasm-pack.toml sets it: cargo for wasm32, wasm-bindgen's glue,
//! npm's wasm-opt, then the size budget. (The settings file keeps wasm-pack's name and
//! layout; the steps are wasm-pack's, run by the xtask itself.)

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use crate::install;
use crate::sh::{cmd, root, run, step};

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
struct Settings {
    build: Build,
    wasm_opt: WasmOpt,
    budget: Budget,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
struct Build {
    #[serde(rename = "crate")]
    krate: String,
    out_dir: String,
    target: String,
    profile: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
struct WasmOpt {
    package: String,
    flags: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
struct Budget {
    page_gzip_kb: u64,
    wasm_gzip_kb: u64,
}

fn settings() -> Result<Settings> {
    let path = root().join("wasm-pack.toml");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    toml::from_str(&text).with_context(|| format!("reading {}", path.display()))
}

/// Builds the game into `web/pkg` and checks it against the budget.
pub fn build() -> Result<()> {
    let s = settings()?;
    install::wasm_tools()?;
    let wasm_opt = binaryen(&s.wasm_opt.package)?;
    let out = root().join(&s.build.out_dir);
    // What wasm-pack would do, without building wasm-pack first (3 minutes on a fresh
    // machine): cargo builds the crate for wasm32, and wasm-bindgen writes its JS glue.
    let package = Path::new(&s.build.krate)
        .file_name()
        .and_then(|n| n.to_str())
        .context("wasm-pack.toml's crate is a directory")?;
    step(&format!(
        "building the game (cargo build -p {package} --profile {} --target {})",
        s.build.profile,
        install::WASM_TARGET
    ));
    run(&mut cmd(
        "cargo",
        &[
            "build",
            "--lib",
            "-p",
            package,
            "--profile",
            &s.build.profile,
            "--target",
            install::WASM_TARGET,
        ],
    ))?;
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let built = target
        .join(install::WASM_TARGET)
        .join(&s.build.profile)
        .join(format!("{}.wasm", package.replace('-', "_")));
    step(&format!(
        "writing its JavaScript glue (wasm-bindgen --target {})",
        s.build.target
    ));
    let mut c = cmd(
        "wasm-bindgen",
        &["--target", &s.build.target, "--no-typescript"],
    );
    c.arg("--out-dir").arg(&out).arg(&built);
    run(&mut c)?;
    let wasm = out.join("typepper_web_bg.wasm");
    step(&format!(
        "optimising the wasm (wasm-opt {})",
        s.wasm_opt.flags.join(" ")
    ));
    let mut c = cmd("node", &[]);
    c.arg(&wasm_opt)
        .arg(&wasm)
        .arg("-o")
        .arg(&wasm)
        .args(&s.wasm_opt.flags);
    run(&mut c)?;
    check_budget(&s.budget, &out)
}

/// `binaryen@<version>` from the npm registry, in target/npm; the path of its wasm-opt.
fn binaryen(package: &str) -> Result<PathBuf> {
    let prefix = root().join("target/npm");
    let bin = prefix.join("node_modules/binaryen/bin/wasm-opt");
    let version = package.rsplit('@').next().unwrap_or("");
    let installed = std::fs::read_to_string(prefix.join("node_modules/binaryen/package.json"))
        .is_ok_and(|p| p.contains(&format!("\"version\": \"{version}\"")));
    if !installed || !bin.exists() {
        step(&format!(
            "installing {package} from the npm registry (for wasm-opt)"
        ));
        std::fs::create_dir_all(&prefix)?;
        let mut c = cmd(
            "npm",
            &[
                "install",
                "--no-audit",
                "--no-fund",
                "--no-save",
                "--prefix",
            ],
        );
        c.arg(&prefix).arg(package);
        run(&mut c)?;
    }
    Ok(bin)
}

/// Sizes of everything a first visit loads, raw and gzip, against the budget.
fn check_budget(budget: &Budget, out: &Path) -> Result<()> {
    let r = root();
    let files = [
        r.join("index.html"),
        r.join("web/style.css"),
        r.join("web/boot.js"),
        out.join("typepper_web.js"),
        out.join("typepper_web_bg.wasm"),
    ];
    let (mut raw_total, mut gz_total, mut wasm_gz) = (0, 0, 0);
    for f in &files {
        let bytes = std::fs::read(f).with_context(|| format!("reading {}", f.display()))?;
        let gz = gzip_len(&bytes)?;
        println!(
            "    {:>8} B raw {:>8} B gzip  {}",
            bytes.len(),
            gz,
            f.strip_prefix(&r).unwrap_or(f).display()
        );
        raw_total += bytes.len() as u64;
        gz_total += gz;
        if f.extension().is_some_and(|e| e == "wasm") {
            wasm_gz = gz;
        }
    }
    println!("    {raw_total:>8} B raw {gz_total:>8} B gzip  the whole first load");
    if wasm_gz > budget.wasm_gzip_kb * 1024 {
        bail!(
            "the wasm is {wasm_gz} B gzip, over its budget of {} KiB",
            budget.wasm_gzip_kb
        );
    }
    if gz_total > budget.page_gzip_kb * 1024 {
        bail!(
            "the first load is {gz_total} B gzip, over its budget of {} KiB",
            budget.page_gzip_kb
        );
    }
    Ok(())
}

fn gzip_len(bytes: &[u8]) -> Result<u64> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes)?;
    Ok(gz.finish()?.len() as u64)
}
