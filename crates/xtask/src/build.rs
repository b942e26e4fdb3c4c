//! What several commands build.

use anyhow::Result;

use crate::sh::{cmd, run, step, target_dir};

/// Builds the server and the CLI for release; the server's path.
pub fn release_server() -> Result<std::path::PathBuf> {
    step("building the server and the CLI (cargo build --release)");
    let packages = ["-p", "typepper-server", "-p", "typepper-cli"];
    run(cmd("cargo", &["build", "--release"]).args(packages))?;
    Ok(target_dir().join("release/typepper-server"))
}

/// Builds `package`'s example `name` for release; its path.
pub fn release_example(package: &str, name: &str) -> Result<std::path::PathBuf> {
    step(&format!(
        "building {package}'s example {name} (cargo build --release --example {name})"
    ));
    run(&mut cmd(
        "cargo",
        &["build", "--release", "-p", package, "--example", name],
    ))?;
    Ok(target_dir().join("release/examples").join(name))
}
