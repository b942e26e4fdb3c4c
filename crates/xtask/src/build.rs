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
