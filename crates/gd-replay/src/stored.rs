//! Replay strings as Geometry Dash stores them: URL-safe base64 of gzip data.
//!
//! The game keeps level data in its save file, and sends it to its servers, as gzip
//! compressed and then base64 encoded with the URL-safe alphabet (`-` and `_`). A gzip
//! stream starts with the bytes `1f 8b 08`, so such a string starts `H4sI`. A plain
//! replay string starts `0` or `-0`, so the two forms can't be mistaken for each other.
//! Players who dig a replay out of their save or a request will often have it this way.
//!
//! [`decode`] takes either form and says which it was. Base64 is read in either alphabet
//! (`-_` or `+/`, even mixed), with or without its `=` padding. The gzip stream must be
//! one whole member, with nothing after it, whose checksum and length match. It may
//! inflate to at most [`MAX_INFLATED`] bytes, which must be UTF-8. [`encode`] writes the
//! URL-safe alphabet with padding, and inflating what it writes gives back the same
//! string.
//!
//! Every refusal is a [`StoredError`] that says where and why. No input panics; the fuzz
//! target `stored` holds that.

use std::borrow::Cow;
use std::fmt;
use std::io::{Read as _, Write as _};

use base64::Engine as _;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, URL_SAFE};

/// How a replay string arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// The replay string itself.
    Plain,
    /// URL-safe base64 of gzip data, as the game stores it.
    Base64Gzip,
}

impl Encoding {
    /// `plain` or `base64-gzip`.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Plain => "plain",
            Encoding::Base64Gzip => "base64-gzip",
        }
    }
}

/// What every gzip stream looks like in base64: its first three bytes, `1f 8b 08`.
pub const PREFIX: &str = "H4sI";

/// The most an encoded string may inflate to, 64 MiB: far past any replay, and a bound
/// on what a few bytes of crafted gzip can make a reader allocate.
pub const MAX_INFLATED: usize = 64 << 20;

/// Why an encoded string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoredError {
    /// A byte that is in neither base64 alphabet, or padding where it can't be, at
    /// `offset` in the string.
    Base64 {
        /// Where the byte is, from 0.
        offset: usize,
        /// The byte.
        byte: u8,
    },
    /// The base64 stops mid-byte: its length, less padding, leaves 1 over a multiple of
    /// 4, which no bytes encode to.
    Base64Length {
        /// The string's length.
        len: usize,
    },
    /// The bytes under the base64 are not a whole gzip stream: the sentence from the
    /// inflater.
    Gzip(String),
    /// The gzip stream ends, and more bytes follow it.
    Trailing {
        /// How many bytes follow.
        bytes: usize,
    },
    /// It inflates to more than [`MAX_INFLATED`] bytes.
    TooBig,
    /// It inflates to bytes that are not UTF-8, so not to a replay string.
    NotText {
        /// Where in the inflated bytes the first bad one is.
        offset: usize,
    },
}

impl StoredError {
    /// The error's name, for the CLI's JSON.
    pub const fn kind(&self) -> &'static str {
        match self {
            StoredError::Base64 { .. } | StoredError::Base64Length { .. } => "Base64",
            StoredError::Gzip(_) | StoredError::Trailing { .. } => "Gzip",
            StoredError::TooBig => "TooBig",
            StoredError::NotText { .. } => "NotText",
        }
    }
}

impl fmt::Display for StoredError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoredError::Base64 { offset, byte } => write!(
                f,
                "not base64 at byte {offset}: {:?} is in neither alphabet (A-Z a-z 0-9 - _ or + /), or is padding before the end",
                char::from(*byte)
            ),
            StoredError::Base64Length { len } => write!(
                f,
                "the base64 is cut short: {len} characters leave one over, which encodes no byte"
            ),
            StoredError::Gzip(why) => write!(f, "the base64 holds no whole gzip stream: {why}"),
            StoredError::Trailing { bytes } => {
                write!(f, "{bytes} bytes follow the end of the gzip stream")
            }
            StoredError::TooBig => write!(
                f,
                "it inflates to more than {} MiB, far past any replay string",
                MAX_INFLATED >> 20
            ),
            StoredError::NotText { offset } => write!(
                f,
                "it inflates to bytes that are not text (at inflated byte {offset}), so not to a replay string"
            ),
        }
    }
}

impl std::error::Error for StoredError {}

/// Padding is optional on the way in. A last character with bits to spare is let
/// through, so that a string cut short reads as the gzip stream it cuts, and is refused
/// as that: `it is cut short`.
const LENIENT: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

/// A replay string given either way: the plain string, and how it came. A string that
/// starts [`PREFIX`] is inflated; any other is returned as it is, for the parser to
/// judge.
pub fn decode(text: &str) -> Result<(Cow<'_, str>, Encoding), StoredError> {
    if !text.starts_with(PREFIX) {
        return Ok((Cow::Borrowed(text), Encoding::Plain));
    }
    let gzip = from_base64(text)?;
    let mut inflater = flate2::bufread::GzDecoder::new(&gzip[..]);
    let mut plain = Vec::new();
    (&mut inflater)
        .take(MAX_INFLATED as u64 + 1)
        .read_to_end(&mut plain)
        .map_err(|e| {
            StoredError::Gzip(match e.kind() {
                std::io::ErrorKind::UnexpectedEof => "it is cut short".to_owned(),
                _ => e.to_string(),
            })
        })?;
    if plain.len() > MAX_INFLATED {
        return Err(StoredError::TooBig);
    }
    let rest = inflater.into_inner();
    if !rest.is_empty() {
        return Err(StoredError::Trailing { bytes: rest.len() });
    }
    let plain = String::from_utf8(plain).map_err(|e| StoredError::NotText {
        offset: e.utf8_error().valid_up_to(),
    })?;
    Ok((Cow::Owned(plain), Encoding::Base64Gzip))
}

/// `plain` as the game stores it: gzip, then URL-safe base64 with padding.
pub fn encode(plain: &str) -> String {
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a Vec can't fail.
    let _ = gzip.write_all(plain.as_bytes());
    let bytes = gzip.finish().unwrap_or_default();
    URL_SAFE.encode(bytes)
}

/// Base64 in either alphabet, padded or not; refusals at the string's own offsets.
fn from_base64(text: &str) -> Result<Vec<u8>, StoredError> {
    // The standard alphabet's two symbols map one to one onto the URL-safe ones, so
    // offsets stay where they were.
    let urlsafe: Vec<u8> = text
        .bytes()
        .map(|b| match b {
            b'+' => b'-',
            b'/' => b'_',
            b => b,
        })
        .collect();
    LENIENT.decode(&urlsafe).map_err(|e| match e {
        base64::DecodeError::InvalidByte(offset, _)
        | base64::DecodeError::InvalidLastSymbol(offset, _) => StoredError::Base64 {
            offset,
            byte: text.as_bytes()[offset],
        },
        base64::DecodeError::InvalidLength(len) => StoredError::Base64Length { len },
        base64::DecodeError::InvalidPadding => StoredError::Base64 {
            offset: text.find('=').unwrap_or(text.len().saturating_sub(1)),
            byte: b'=',
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_strings_pass_through_untouched() {
        let (text, how) = decode("0;1#1,1,22,47,1,").unwrap();
        assert!(matches!(text, Cow::Borrowed(_)));
        assert_eq!(how, Encoding::Plain);
    }

    #[test]
    fn either_alphabet_and_padding_or_none() {
        let plain = "0;-460,3;960#1234,1,22,47,1,";
        let encoded = encode(plain);
        assert!(encoded.starts_with(PREFIX) && encoded.ends_with('='));
        let standard = encoded.replace('-', "+").replace('_', "/");
        for text in [&encoded, &standard, encoded.trim_end_matches('=')] {
            assert_eq!(
                decode(text).unwrap(),
                (Cow::Owned(plain.to_owned()), Encoding::Base64Gzip)
            );
        }
    }

    #[test]
    fn junk_in_the_base64_is_refused_where_it_stands() {
        let mut text = encode("0;1#1,1,22,47,1,");
        text.insert(9, '!');
        assert_eq!(
            decode(&text).unwrap_err(),
            StoredError::Base64 {
                offset: 9,
                byte: b'!'
            }
        );
        let kind = decode("H4sIA").unwrap_err();
        assert_eq!(kind, StoredError::Base64Length { len: 5 });
    }
}
