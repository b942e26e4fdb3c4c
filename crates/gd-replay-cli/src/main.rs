//! `gd-replay`: Geometry Dash 2.208 replay strings (the `gd-replay` crate) on the command
//! line.
//!
//! 1. The file (or standard input) is read, no further than the longest string the crate
//!    may inflate to, and one trailing line ending is set aside.
//! 2. A string as the game stores it (base64 of gzip, `H4sI…`) is inflated.
//! 3. `fmt` parses it and writes it back; `inspect` shows what it holds, as text or as
//!    JSON (the shape is documented in `crates/gd-replay/README.md`).
//!
//! A refusal exits 1 and is said once, here, from its kind and message.

mod inspect;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gd_replay::stored::{self, Encoding, StoredError};
use gd_replay::{ParseError, Replay};
use serde::Serialize;

/// Format and inspect Geometry Dash 2.208 replay strings.
///
/// A string may be plain (`0;460;-120#1234,1,22,47,1,`) or as the game stores it in its save
/// and sends it to its servers (URL-safe base64 of gzip, starting `H4sI`). A refusal says
/// why on standard error (as JSON on standard output with `--json`) and exits 1.
#[derive(Parser)]
#[command(name = "gd-replay", version, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Parse a replay string and write it back: the same bytes for a valid one.
    ///
    /// One trailing newline (as an editor leaves) is not part of the string and is
    /// written back as it was. A string as the game stores it (base64 of gzip, starting
    /// `H4sI`) is inflated, and written back plain unless `--encoded` is given.
    Fmt {
        /// The file holding the replay string, or `-` for standard input.
        file: PathBuf,
        /// Write it as the game stores it: gzip, then URL-safe base64.
        #[arg(long)]
        encoded: bool,
    },
    /// Show a replay string's metadata, input counts, checkpoints and input timeline.
    ///
    /// A string as the game stores it (base64 of gzip, starting `H4sI`) is inflated
    /// first, and the output says so.
    Inspect {
        /// The file holding the replay string, or `-` for standard input.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// A refusal: `gd-replay: <message> (<kind>)` on standard error, or with `--json`
/// `{"error": kind, "message": ...}` on standard output.
#[derive(Debug)]
struct Refused {
    kind: &'static str,
    message: String,
}

impl From<ParseError> for Refused {
    fn from(e: ParseError) -> Refused {
        Refused {
            kind: e.kind(),
            message: e.to_string(),
        }
    }
}

impl From<StoredError> for Refused {
    fn from(e: StoredError) -> Refused {
        Refused {
            kind: e.kind(),
            message: e.to_string(),
        }
    }
}

fn main() -> ExitCode {
    let (json, result) = match Cli::parse().command {
        Command::Fmt { file, encoded } => (false, fmt(&file, encoded)),
        Command::Inspect { file, json } => (json, inspect(&file, json)),
    };
    match result {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            if json {
                let error = ErrorJson {
                    error: e.kind,
                    message: &e.message,
                };
                // The JSON ends in a line break and `println!` adds one: the blank line
                // is what `typepper gd` printed, and `typepper`'s refusals still do.
                println!("{}", to_json(&error));
            } else {
                eprintln!("gd-replay: {} ({})", e.message, e.kind);
            }
            ExitCode::FAILURE
        }
    }
}

#[derive(Serialize)]
struct ErrorJson<'a> {
    error: &'a str,
    message: &'a str,
}

/// A replay string read from a file (inflated, if it came as the game stores it), how it
/// came, and the line ending it came with.
struct Loaded {
    text: String,
    encoding: Encoding,
    /// Its length as it came.
    stored_bytes: usize,
    newline: &'static str,
}

impl Loaded {
    /// Parses the string; a refusal of an inflated one says its offset is in that.
    fn parse(&self) -> Result<Replay, Refused> {
        Replay::parse(&self.text).map_err(|e| {
            let mut refused = Refused::from(e);
            if self.encoding == Encoding::Base64Gzip {
                refused.message += " (an offset in the string inflated from base64-gzip)";
            }
            refused
        })
    }
}

/// The bytes of `file`, or of standard input for `-`, as [`cli_input::read_input`] reads
/// them.
fn read_input(file: &Path, limit: usize, what: &str) -> Result<Vec<u8>, Refused> {
    cli_input::read_input(file, limit, what).map_err(|e| Refused {
        kind: e.kind(),
        message: e.to_string(),
    })
}

fn load(file: &Path) -> Result<Loaded, Refused> {
    // As long as the longest string it may inflate to, and a line break.
    let limit = gd_replay::stored::MAX_INFLATED + 2;
    let mut raw = read_input(file, limit, "a replay string")?;
    let newline = if raw.ends_with(b"\r\n") {
        "\r\n"
    } else if raw.ends_with(b"\n") {
        "\n"
    } else {
        ""
    };
    raw.truncate(raw.len() - newline.len());
    // The format is ASCII, so a byte that isn't UTF-8 is refused where it stands, with
    // what the parser wanted there.
    let text = match String::from_utf8(raw) {
        Ok(text) => text,
        Err(e) => {
            return Err(Replay::parse_bytes(e.as_bytes()).err().map_or_else(
                || Refused {
                    kind: "Syntax",
                    message: "the file is not text".to_owned(),
                },
                Refused::from,
            ));
        }
    };
    let stored_bytes = text.len();
    let (plain, encoding) = stored::decode(&text)?;
    Ok(Loaded {
        text: plain.into_owned(),
        encoding,
        stored_bytes,
        newline,
    })
}

fn fmt(file: &Path, encoded: bool) -> Result<String, Refused> {
    let loaded = load(file)?;
    let replay = loaded.parse()?;
    let plain = replay.write();
    if encoded {
        return Ok(format!("{}{}", stored::encode(&plain), loaded.newline));
    }
    if loaded.encoding == Encoding::Base64Gzip {
        eprintln!(
            "gd-replay: inflated from base64-gzip ({} bytes); --encoded writes it back that way",
            loaded.stored_bytes
        );
    }
    Ok(format!("{plain}{}", loaded.newline))
}

fn inspect(file: &Path, as_json: bool) -> Result<String, Refused> {
    let loaded = load(file)?;
    let replay = loaded.parse()?;
    Ok(if as_json {
        inspect::json(&replay, &loaded)
    } else {
        inspect::text(&replay, &loaded)
    })
}

/// `value` as pretty JSON and a line break.
fn to_json(value: &impl Serialize) -> String {
    let mut s = serde_json::to_string_pretty(value)
        .unwrap_or_else(|e| format!("{{\"error\": \"Json\", \"message\": \"{e}\"}}"));
    s.push('\n');
    s
}
