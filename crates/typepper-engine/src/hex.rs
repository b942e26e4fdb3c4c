//! Hex text for replays, as the game keeps `last.replay` in localStorage.

/// Lower-case hex of `bytes`, two digits a byte.
pub fn encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

/// Bytes from hex text (either case; ASCII whitespace between digits is skipped), or
/// `None` if it isn't hex.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let digits: Vec<u8> = text
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .map(|b| char::from(b).to_digit(16).map(|d| d as u8))
        .collect::<Option<_>>()?;
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    Some(digits.chunks_exact(2).map(|p| p[0] << 4 | p[1]).collect())
}

#[cfg(test)]
mod tests {
    #[test]
    fn hex_round_trips() {
        let bytes = [0x54, 0x50, 0x52, 0x00, 0xff, 0x0a];
        assert_eq!(super::encode(&bytes), "54505200ff0a");
        assert_eq!(
            super::decode("545052 00FF0a\n").as_deref(),
            Some(&bytes[..])
        );
        assert_eq!(super::decode("5"), None);
        assert_eq!(super::decode("zz"), None);
    }
}
