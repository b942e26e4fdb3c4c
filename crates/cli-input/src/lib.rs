//! A command-line tool's input, read the one way both CLIs (`typepper`, `gd-replay`) read
//! it: a file, or standard input for `-`, and never more than a limit. `/dev/zero` or a
//! 300 MB file is refused at once, not read whole.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// Why the input was not read.
#[derive(Debug, PartialEq, Eq)]
pub enum InputError {
    /// The file could not be opened or read: the sentence says which, and why.
    Io(String),
    /// There was more than the limit: the sentence says how much `what` may be.
    TooBig(String),
}

impl InputError {
    /// The kind a CLI reports it under: `Io`, `TooBig`.
    pub fn kind(&self) -> &'static str {
        match self {
            InputError::Io(_) => "Io",
            InputError::TooBig(_) => "TooBig",
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Io(why) | InputError::TooBig(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for InputError {}

/// The bytes of `file`, or of standard input for `-`: at most `limit`, read no further.
/// `what` names what the input should be, for the refusal (`a replay`).
pub fn read_input(file: &Path, limit: usize, what: &str) -> Result<Vec<u8>, InputError> {
    let io = |e: std::io::Error| InputError::Io(format!("cannot read {}: {e}", file.display()));
    let stdin = file.as_os_str() == "-";
    let source: Box<dyn Read> = if stdin {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(file).map_err(io)?)
    };
    let mut raw = Vec::new();
    source
        .take(limit as u64 + 1)
        .read_to_end(&mut raw)
        .map_err(io)?;
    if raw.len() > limit {
        let name = if stdin {
            "standard input".to_owned()
        } else {
            file.display().to_string()
        };
        return Err(InputError::TooBig(format!(
            "{name} holds more than {limit} bytes, and {what} is at most that"
        )));
    }
    Ok(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_whole_up_to_the_limit_and_refused_past_it() {
        let dir = std::env::temp_dir().join(format!("cli-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("four");
        std::fs::write(&file, b"abcd").unwrap();
        assert_eq!(read_input(&file, 4, "x").unwrap(), b"abcd");
        let big = read_input(&file, 3, "a thing").unwrap_err();
        assert_eq!(big.kind(), "TooBig");
        assert!(
            big.to_string()
                .ends_with("holds more than 3 bytes, and a thing is at most that")
        );
        let gone = read_input(&dir.join("none"), 3, "x").unwrap_err();
        assert_eq!(gone.kind(), "Io");
        // /dev/zero never ends: it is refused at the limit, not read for ever.
        let zero = read_input(Path::new("/dev/zero"), 1 << 20, "x").unwrap_err();
        assert_eq!(zero.kind(), "TooBig");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
