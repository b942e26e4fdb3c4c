//! The browser build, as wasm-pack.toml sets it: cargo for wasm32, wasm-bindgen's glue,
//! the imports' names shortened (crate::imports), npm's wasm-opt, the service worker
//! stamped with the build's hashes, then the size budget. (The settings file keeps
//! wasm-pack's name and layout; the steps are wasm-pack's, run by the xtask itself.)

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
    shorten_imports(&wasm, &out.join("typepper_web.js"))?;
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
    stamp_worker(&out)?;
    check_budget(&s.budget, &out)
}

/// Renames the functions `wasm` imports, in it and in its JavaScript `glue` alike
/// (crate::imports says why).
fn shorten_imports(wasm: &Path, glue: &Path) -> Result<()> {
    step("shortening the names of the wasm's imports, in the wasm and its glue");
    let read = |p: &Path| std::fs::read(p).with_context(|| format!("reading {}", p.display()));
    let text = String::from_utf8(read(glue)?).context("the JavaScript glue is not UTF-8")?;
    let (wasm_bytes, text) =
        crate::imports::shorten(&read(wasm)?, &text).context("renaming the wasm's imports")?;
    std::fs::write(wasm, wasm_bytes).with_context(|| format!("writing {}", wasm.display()))?;
    std::fs::write(glue, text).with_context(|| format!("writing {}", glue.display()))
}

/// The files a build is made of, as the server serves them, from the repository root:
/// what the service worker keeps, each checked against its hash.
const BUILD_FILES: [(&str, &str); 5] = [
    ("/web/boot.js", "web/boot.js"),
    ("/web/style.css", "web/style.css"),
    ("/web/icon.svg", "web/icon.svg"),
    ("/web/pkg/typepper_web.js", "web/pkg/typepper_web.js"),
    (
        "/web/pkg/typepper_web_bg.wasm",
        "web/pkg/typepper_web_bg.wasm",
    ),
];

/// Writes `out/sw.js`: web/sw.js with the build's name and its files' SHA-256 filled in,
/// so that a new build is a new worker, byte for byte (web/sw.js says why).
fn stamp_worker(out: &Path) -> Result<()> {
    use sha2::{Digest as _, Sha256};
    let hex = |bytes: &[u8]| -> String {
        Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let r = root();
    let read = |path: &str| std::fs::read(r.join(path)).with_context(|| format!("reading {path}"));
    let mut files = vec![];
    // The build's name covers the page too, which the worker keeps unchecked: the server
    // writes its API's address into it.
    let mut all = format!("/ {}\n", hex(&read("index.html")?));
    for (served, path) in BUILD_FILES {
        let hash = hex(&read(path)?);
        all.push_str(&format!("{served} {hash}\n"));
        files.push(format!("  {served:?}: {hash:?},"));
    }
    let build = &hex(all.as_bytes())[..16];
    let template = String::from_utf8(read("web/sw.js")?).context("web/sw.js is not UTF-8")?;
    let (name, list) = ("const BUILD = \"dev\";", "const FILES = {};");
    if !template.contains(name) || !template.contains(list) {
        bail!("web/sw.js has no `{name}` or `{list}` line to fill in");
    }
    let stamped = template
        .replacen(name, &format!("const BUILD = {build:?};"), 1)
        .replacen(
            list,
            &format!("const FILES = {{\n{}\n}};", files.join("\n")),
            1,
        );
    std::fs::write(out.join("sw.js"), stamped).context("writing the service worker")?;
    step(&format!("stamped the service worker with build {build}"));
    Ok(())
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
    // Fetched once the game is up, and then the build's files again, from the browser's
    // cache: not part of the first load's wait.
    let sw = std::fs::read(out.join("sw.js")).context("reading the service worker")?;
    println!(
        "    {:>8} B raw {:>8} B gzip  web/pkg/sw.js, registered once the game is up",
        sw.len(),
        gzip_len(&sw)?
    );
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

#[cfg(test)]
mod tests {
    use super::root;

    /// index.html carries web/icon.svg whole (its comment says why): the two must agree.
    #[test]
    fn the_pages_icon_is_web_icon_svg() {
        let svg = std::fs::read_to_string(root().join("web/icon.svg")).expect("web/icon.svg");
        let page = std::fs::read_to_string(root().join("index.html")).expect("index.html");
        let one_line: String = svg.lines().map(str::trim).collect();
        let encoded = one_line
            .replace('"', "'")
            .replace('#', "%23")
            .replace('<', "%3C")
            .replace('>', "%3E");
        let link = format!(r#"<link rel="icon" href="data:image/svg+xml,{encoded}""#);
        assert!(
            page.contains(&link),
            "index.html's icon is not web/icon.svg; it should read\n{link}"
        );
    }
}
