//! A text the player brings: pasted, typed, or read from a file, made into the text a
//! CUSTOM TEXT round plays (docs/spec/replays.md, "Format 2").

use typepper_engine::{TextFault, text};

/// `raw` in the form a round plays it, or why it can't be: Unicode NFC, every run of
/// whitespace (tabs and newlines too) one space and none at either end, the invisible
/// characters no key types gone; then refused if it is empty, over 10,000 characters,
/// or holds a control character.
pub fn prepare(raw: &str) -> Result<String, TextFault> {
    let ready = ready(raw);
    text::check(&ready)?;
    Ok(ready)
}

/// `raw` made ready as [`prepare`] makes it, before it is checked: what the text screen
/// counts.
pub fn ready(raw: &str) -> String {
    text::tidy(&nfc(raw))
}

#[cfg(not(target_arch = "wasm32"))]
fn nfc(raw: &str) -> String {
    use unicode_normalization::UnicodeNormalization as _;
    raw.nfc().collect()
}

/// The browser's text area hands its value over as `String.normalize("NFC")`, so the
/// wasm needs no composition tables of its own.
#[cfg(target_arch = "wasm32")]
fn nfc(raw: &str) -> String {
    raw.to_owned()
}

/// Whether `text` is in NFC by Unicode's full rule (the engine's [`text::check`] decides
/// all but a combining mark that should have composed): the server's door for format 2.
#[cfg(not(target_arch = "wasm32"))]
pub fn is_nfc(text: &str) -> bool {
    unicode_normalization::is_nfc(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paste_is_composed_spaced_and_checked() {
        // "é" decomposed, a tab, a newline pair, a soft hyphen, a right-to-left override
        // and runs of spaces.
        let raw = "  Cafe\u{301}\tau\r\n\r\nlait\u{ad}\u{202e} —  bon.  ";
        assert_eq!(prepare(raw).as_deref(), Ok("Café au lait — bon."));
        assert_eq!(prepare(" \n\t "), Err(TextFault::Empty));
        assert_eq!(prepare("a\u{7}b"), Err(TextFault::Unseen('\u{7}')));
        assert_eq!(prepare(&"ab ".repeat(3_334)), Err(TextFault::TooLong));
        assert!(prepare(&"ab ".repeat(3_333)).is_ok());
        // The angstrom sign is Å in NFC, and the text keeps the letter.
        assert_eq!(prepare("\u{212b}ngstr\u{f6}m").as_deref(), Ok("Ångström"));
        assert!(is_nfc("Café") && !is_nfc("Cafe\u{301}"));
    }
}
