//! The server's host key, and the players' keys it takes.

use std::path::Path;

use anyhow::Context as _;
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::ssh_key::{Algorithm, HashAlg, LineEnding, PrivateKey, PublicKey};

/// The smallest RSA key a player may connect with, in bits.
pub const MIN_RSA_BITS: u32 = 2048;

/// The host key at `path`, made (Ed25519, mode 0600) if there is none.
pub fn host_key(path: &Path) -> anyhow::Result<PrivateKey> {
    if path.exists() {
        return PrivateKey::read_openssh_file(path)
            .with_context(|| format!("reading the SSH host key {}", path.display()));
    }
    let mut seed = [0u8; 32];
    crate::secrets::random(&mut seed);
    let key = PrivateKey::from(Ed25519Keypair::from_seed(&seed));
    let text = key
        .to_openssh(LineEnding::LF)
        .context("writing the SSH host key")?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // Written whole under a temporary name, then renamed: never half a key.
    let tmp = path.with_extension("tmp");
    {
        use std::io::Write as _;
        use std::os::unix::fs::OpenOptionsExt as _;
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&tmp)
            .with_context(|| format!("writing {}", tmp.display()))?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    tracing::info!("made an SSH host key in {}", path.display());
    Ok(key)
}

/// The fingerprint players see for a key: `SHA256:…`, as `ssh-keygen -l` prints it.
pub fn fingerprint(key: &PublicKey) -> String {
    key.fingerprint(HashAlg::Sha256).to_string()
}

/// The keys a player may connect with: not RSA under [`MIN_RSA_BITS`], and no RSA
/// signature over SHA-1 (`ssh-rsa`), which OpenSSH has refused since 8.8.
pub(super) fn acceptable(key: &PublicKey, algorithm: &Algorithm) -> bool {
    if *algorithm == (Algorithm::Rsa { hash: None }) {
        return false;
    }
    match key.key_data().rsa() {
        None => true,
        Some(rsa) => {
            let n = rsa.n().as_positive_bytes().unwrap_or_default();
            let bits = n.first().map_or(0, |top| {
                u32::try_from(n.len() * 8).unwrap_or(u32::MAX) - top.leading_zeros()
            });
            bits >= MIN_RSA_BITS
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_key_is_made_once_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ssh_host_ed25519_key");
        let made = host_key(&path).unwrap();
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(&path).unwrap().permissions(),
        );
        assert_eq!(mode & 0o777, 0o600);
        let kept = host_key(&path).unwrap();
        assert_eq!(
            fingerprint(made.public_key()),
            fingerprint(kept.public_key())
        );
        assert!(fingerprint(made.public_key()).starts_with("SHA256:"));
    }
}
