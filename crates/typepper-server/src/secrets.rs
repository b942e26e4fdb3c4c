//! What is drawn from the OS's randomness (run ids, player tokens, seeds, host keys), and
//! how a token is kept: only its hash is stored, so a leaked database links no game.

use sha2::{Digest, Sha256};

/// Fills `buf` from the OS's random source.
pub fn random(buf: &mut [u8]) {
    if let Err(e) = getrandom::fill(buf) {
        // No OS randomness means no safe ids or tokens: stop rather than guess.
        panic!("the OS random source failed: {e}");
    }
}

/// A new player's token: 32 random bytes in hex.
pub fn token() -> String {
    let mut bytes = [0u8; 32];
    random(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What the store keeps of a token.
pub fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// A new run's id: 8 base62 characters.
pub fn run_id() -> String {
    const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut id = String::with_capacity(8);
    while id.len() < 8 {
        let mut bytes = [0u8; 16];
        random(&mut bytes);
        // 248 = 4 × 62: bytes above it would favour the first characters.
        for b in bytes.into_iter().filter(|&b| b < 248) {
            if id.len() < 8 {
                id.push(char::from(ALPHABET[usize::from(b % 62)]));
            }
        }
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_eight_base62_characters() {
        for _ in 0..100 {
            assert!(typepper_api::is_run_id(&run_id()));
        }
        assert_ne!(run_id(), run_id());
    }

    #[test]
    fn tokens_are_64_hex_digits() {
        let token = token();
        assert!(token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit()));
    }
}
