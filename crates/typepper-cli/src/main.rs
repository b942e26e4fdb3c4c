//! `typepper`: the game in a terminal, and typepper's replays on the command line.
//!
//! With no subcommand it opens the game ([`typepper_term`]); `--replay` watches a round first.
//! The subcommands inspect, score and make replays.

mod json;
mod keys;

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use typepper_engine::synth::{Typist, synth_on};
use typepper_engine::{
    DecodeError, Header, MAX_TEXT_CHARS, Mode, Op, PlayError, Replay, Round, Rules, TextFault, hex,
};

/// typepper, the typing game where every round is a replay: play it in this terminal,
/// or work with replays.
#[derive(Parser)]
#[command(
    name = "typepper",
    version,
    max_term_width = 100,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    /// Watch a round first: the last one played on this machine, or FILE (raw replay
    /// bytes, or hex).
    #[arg(long, value_name = "FILE", num_args = 0..=1)]
    replay: Option<Option<PathBuf>>,
    /// Race a round first, key by key against its ghost: the last one played on this
    /// machine, or FILE (raw replay bytes, or hex).
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with = "replay")]
    race: Option<Option<PathBuf>>,
    /// Join a friend's live room first: its code, or its link (…/?room=<code>). Needs a
    /// server.
    #[arg(long, value_name = "CODE", conflicts_with_all = ["replay", "race"])]
    room: Option<String>,
    /// Play a round on the text in FILE first (`-` reads standard input): up to 10,000
    /// characters, whose lines and runs of spaces become one space.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["replay", "race", "room"])]
    text: Option<PathBuf>,
    /// The server to link, send rounds to and fetch boards from: ssh://host[:port].
    /// The game runs the system's ssh (or $TYPEPPER_SSH) with your keys.
    #[arg(long, env = "TYPEPPER_SERVER", value_name = "URL")]
    server: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Show a replay's header and input timeline.
    ///
    /// FILE holds raw replay bytes, the hex text the game stores as `last.replay`, or the
    /// readable text form (`typepper synth --readable`);
    /// `-` reads standard input.
    Inspect {
        /// The replay file, or `-`.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Re-play a replay through this engine and print its score, by the rules that
    /// recorded it.
    Score {
        /// The replay file (raw or hex), or `-`.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Play it by the rules of this VERSION instead (the newest shows what an old
        /// round would score today; the score it has never changes).
        #[arg(long, value_name = "N")]
        rules: Option<u32>,
    },
    /// What your replays say about each key and letter pair: how often each went wrong,
    /// how long it took, the worst, the trend, and letters to drill.
    ///
    /// With no FILE, the rounds in the history (TYPEPPER_DATA_DIR, or the data dir).
    Keys {
        /// Replay files (raw, hex or text), or `-`.
        files: Vec<PathBuf>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Every theme's text roles, each on what it is drawn on, with its contrast: what the
    /// contrast test reads.
    Themes {
        /// Print JSON instead of text: `[{"name", "pairs": [{"role", "fg", "bg",
        /// "large"}]}]`.
        #[arg(long)]
        json: bool,
    },
    /// Download everything the server holds of your player (this machine's SSH key's):
    /// a tar archive of every run's replay (`runs/<id>.replay`) and `index.json`.
    Export {
        /// The server: ssh://host[:port].
        #[arg(long, env = "TYPEPPER_SERVER", value_name = "URL")]
        server: String,
        /// Where to write the archive; `-` is standard output.
        #[arg(long, value_name = "FILE", default_value = "typepper-export.tar")]
        out: PathBuf,
    },
    /// Make a replay: a synthetic typist plays the round's own text.
    Synth {
        /// The mode key: time:15|30|60|120, words:10|25|50|100, zen, pursuit:1 …
        /// pursuit:20, each with /p (punctuation), /n (numbers), /s (stop on error), /b
        /// (no backspace) and @<language> (fr, de, es, pt, it, nl, pl, cs, sv, tr, ru,
        /// uk, en10k) if wanted (time:30/p/s@fr); drill2:<letters> (a drill as the game
        /// plays it), drill:<letters> (the first drills); quote:<n>, with /s, /b and @de,
        /// @es or @ru if wanted. Not with --text.
        #[arg(long, required_unless_present = "text", conflicts_with = "text")]
        mode: Option<String>,
        /// A CUSTOM TEXT round on the text in FILE (`-` reads standard input), made
        /// ready as the game makes a pasted text: NFC, whitespace to single spaces.
        #[arg(long, value_name = "FILE")]
        text: Option<PathBuf>,
        /// The round's text seed.
        #[arg(long)]
        seed: u64,
        /// The typist's speed.
        #[arg(long, default_value_t = 80, value_parser = clap::value_parser!(u32).range(1..=400))]
        wpm: u32,
        /// The typist's keystroke accuracy, in percent.
        #[arg(long, default_value_t = 96, value_parser = clap::value_parser!(u32).range(0..=100))]
        accuracy: u32,
        /// The typist's own randomness (timing and mistakes).
        #[arg(long, default_value_t = 1)]
        typist_seed: u64,
        /// ZEN: seconds to type before ending with esc.
        #[arg(long, default_value_t = 30)]
        zen_secs: u32,
        /// Write hex text (as `last.replay`) instead of raw bytes.
        #[arg(long, conflicts_with = "readable")]
        hex: bool,
        /// Write the readable text form (as the engine's golden files) instead of bytes.
        #[arg(long)]
        readable: bool,
        /// Where to write it; `-` is standard output.
        #[arg(long)]
        out: PathBuf,
        /// Record it by the rules of this VERSION (1 makes a round as an older game
        /// recorded it); the newest if not given.
        #[arg(long, value_name = "N")]
        rules: Option<u32>,
    },
}

/// A refusal the CLI reports as `{"error": kind, "message": ...}`.
#[derive(Debug)]
struct Refused {
    kind: &'static str,
    message: String,
}

impl From<DecodeError> for Refused {
    fn from(e: DecodeError) -> Refused {
        Refused {
            kind: e.kind(),
            message: e.to_string(),
        }
    }
}

impl From<PlayError> for Refused {
    fn from(e: PlayError) -> Refused {
        let kind = match e {
            PlayError::OtherRules { .. } => "OtherRules",
            PlayError::Mode(_) => "Mode",
            PlayError::Refused { .. } => "Refused",
            PlayError::NotOver => "NotOver",
            PlayError::Unlisted(_) => "Unlisted",
            PlayError::Unquoted(_) => "Unquoted",
            PlayError::NoQuote(..) => "NoQuote",
            PlayError::NoText => "NoText",
            PlayError::NotCustom => "NotCustom",
            PlayError::Text(_) => "Text",
            PlayError::Clock => "Clock",
            // A kind a later engine adds, until this CLI names it.
            _ => "Play",
        };
        Refused {
            kind,
            message: e.to_string(),
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        let first = match (cli.replay, cli.race) {
            (Some(file), _) => Some((file, false)),
            (None, Some(file)) => Some((file, true)),
            (None, None) => None,
        };
        // Said with `writeln!`, not `eprintln!`, which panics when the terminal is gone.
        let mut err = std::io::stderr();
        return match open_game(first, cli.server, cli.room, cli.text) {
            Ok(warnings) => {
                for w in warnings {
                    let _ = writeln!(err, "typepper: {w}");
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                let _ = writeln!(err, "typepper: {e}");
                ExitCode::FAILURE
            }
        };
    };
    let (json, result) = match command {
        Command::Inspect { file, json } => (json, inspect(&file, json)),
        Command::Score { file, json, rules } => (json, score(&file, json, rules)),
        Command::Keys { files, json } => (json, keys::run(&files, json)),
        Command::Export { server, out } => (false, export(&server, &out)),
        Command::Themes { json } => (json, Ok(themes(json))),
        Command::Synth {
            mode,
            seed,
            wpm,
            accuracy,
            typist_seed,
            zen_secs,
            hex,
            readable,
            text,
            out,
            rules,
        } => {
            let typist = Typist {
                wpm,
                accuracy,
                seed: typist_seed,
                zen_ms: zen_secs.saturating_mul(1000),
            };
            let form = match (hex, readable) {
                (true, _) => Form::Hex,
                (_, true) => Form::Text,
                _ => Form::Raw,
            };
            let round = rules_of(rules).and_then(|rules| match (mode, text) {
                (_, Some(file)) => custom_round(&file, seed, rules),
                (Some(mode), None) => mode_round(&mode, seed, rules),
                (None, None) => unreachable!("clap requires --mode without --text"),
            });
            (false, round.and_then(|r| make(r, &typist, form, &out)))
        }
    };
    match result {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            if json {
                println!("{}", json::error(e.kind, &e.message));
            } else {
                eprintln!("typepper: {} ({})", e.message, e.kind);
            }
            ExitCode::FAILURE
        }
    }
}

/// Opens the game in this terminal, watching or racing (`.1`) a replay first (the last
/// round for an empty path), or joining a live room. Replays the game can't show, and a
/// room with no server to reach it, are refused before the terminal is touched.
fn open_game(
    first: Option<(Option<PathBuf>, bool)>,
    server: Option<String>,
    room: Option<String>,
    text: Option<PathBuf>,
) -> Result<Vec<String>, String> {
    use std::io::IsTerminal as _;
    let data = typepper_term::data::DataDir::open()?;
    let first = match first {
        None => None,
        Some((None, race)) => {
            let last = data.read(typepper_game::storage::LAST).ok_or_else(|| {
                format!(
                    "no round played on this machine yet (no last.replay in {})",
                    data.path().display()
                )
            })?;
            let bytes =
                hex::decode(&last).ok_or("last.replay is not hex: play a round to replace it")?;
            Some(typepper_term::First {
                bytes,
                race,
                who: Some("your last round".into()),
            })
        }
        Some((Some(file), race)) => Some(typepper_term::First {
            bytes: load(&file).map_err(|e| e.message)?.bytes,
            race,
            who: None,
        }),
    };
    let remote = server
        .filter(|s| !s.is_empty())
        .map(|url| {
            let ssh = std::env::var(typepper_term::net::SSH_VAR).ok();
            typepper_term::net::Remote::parse(&url, ssh.as_deref())
        })
        .transpose()?;
    if let Some(first) = &first {
        typepper_term::check_watchable(&first.bytes)?;
    }
    // Read and checked before the terminal is touched, as a replay is.
    let text = text
        .map(|file| {
            let round = custom_round(&file, 0, Rules::NEWEST).map_err(|e| e.message)?;
            Ok::<_, String>(round.custom_text().unwrap_or_default().to_owned())
        })
        .transpose()?;
    // A link's code is what follows `room=`.
    let room = room.map(|r| match r.rsplit_once("room=") {
        Some((_, code)) => code.trim_end_matches('/').to_owned(),
        None => r,
    });
    if room.is_some() && remote.is_none() {
        return Err("--room joins a room on a server: add --server ssh://host[:port]".into());
    }
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(
            "the game needs a terminal; `typepper score FILE` scores a replay without one".into(),
        );
    }
    typepper_term::play(typepper_term::Start {
        data,
        first,
        remote,
        room,
        text,
    })
}

/// How a replay is written to a file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Raw,
    Hex,
    Text,
}

/// A replay file's bytes, and the form they came in.
struct Loaded {
    bytes: Vec<u8>,
    form: Form,
}

/// The most bytes a replay file may hold: a replay of [`typepper_engine::MAX_BYTES`]
/// written as hex, with room for a line break.
pub const REPLAY_FILE_MAX: usize = 2 * typepper_engine::MAX_BYTES + 2;

/// The bytes of `file`, or of standard input for `-`, as [`cli_input::read_input`] reads
/// them.
fn read_input(file: &Path, limit: usize, what: &str) -> Result<Vec<u8>, Refused> {
    cli_input::read_input(file, limit, what).map_err(|e| Refused {
        kind: e.kind(),
        message: e.to_string(),
    })
}

fn load(file: &Path) -> Result<Loaded, Refused> {
    let raw = read_input(
        file,
        REPLAY_FILE_MAX,
        "a replay file (a replay written as hex)",
    )?;
    if !raw.starts_with(b"TPR") {
        let text = std::str::from_utf8(&raw).unwrap_or("");
        if text.starts_with("typepper replay") {
            let replay: Replay =
                text.parse()
                    .map_err(|e: typepper_engine::replay::TextError| Refused {
                        kind: "Text",
                        message: format!("{}: {e}", file.display()),
                    })?;
            return Ok(Loaded {
                bytes: replay.encode(),
                form: Form::Text,
            });
        }
        if let Some(bytes) = hex::decode(text).filter(|b| !b.is_empty()) {
            return Ok(Loaded {
                bytes,
                form: Form::Hex,
            });
        }
    }
    Ok(Loaded {
        bytes: raw,
        form: Form::Raw,
    })
}

fn op_text(op: Op) -> String {
    match op {
        Op::Backspace => "backspace".to_owned(),
        Op::End => "end".to_owned(),
        Op::Char(' ') => "space".to_owned(),
        Op::Char(c) => format!("{:?}", c),
    }
}

fn inspect(file: &Path, as_json: bool) -> Result<String, Refused> {
    let loaded = load(file)?;
    let replay = Replay::decode(&loaded.bytes)?;
    let header = Header::peek(&loaded.bytes)?;
    if as_json {
        return Ok(json::inspect(
            &replay,
            &loaded.bytes,
            loaded.form.name(),
            &header,
        ));
    }
    let mut out = String::new();
    let encoding = loaded.form.name();
    let rules = match replay.rules() {
        Ok(Rules::NEWEST) => "the newest rules".to_owned(),
        Ok(rules) => format!(
            "{rules}'s rules, which it plays by; the newest are {}",
            Rules::NEWEST
        ),
        Err(e) => e.to_string(),
    };
    let title = replay
        .mode
        .parse::<Mode>()
        .map_or_else(|_| "not a mode of this build".to_owned(), |m| m.title());
    let total: u64 = replay.inputs.iter().map(|i| u64::from(i.dt)).sum();
    let _ = writeln!(out, "bytes   {} ({encoding})", loaded.bytes.len());
    let _ = writeln!(out, "format  {}", header.format);
    let _ = writeln!(out, "engine  {} ({rules})", replay.engine);
    let _ = writeln!(out, "mode    {} ({title})", replay.mode);
    let _ = writeln!(out, "seed    {} ({:#018x})", replay.seed, replay.seed);
    if let Some(text) = &replay.text {
        let chars = text.chars().count();
        let _ = writeln!(out, "text    {chars} characters: {text}");
    }
    let _ = writeln!(out, "inputs  {} over {total} ms", replay.inputs.len());
    let _ = writeln!(out, "{:>9} {:>9}  op", "Δms", "at ms");
    for (input, (at, op)) in replay.inputs.iter().zip(replay.timeline()) {
        let at = at.map_or_else(|| "-".to_owned(), |t| t.to_string());
        let _ = writeln!(
            out,
            "{:>9} {at:>9}  {}",
            format!("+{}", input.dt),
            op_text(op)
        );
    }
    Ok(out)
}

fn score(file: &Path, as_json: bool, rules: Option<u32>) -> Result<String, Refused> {
    let loaded = load(file)?;
    let replay = Replay::decode(&loaded.bytes)?;
    let rules = match rules {
        None => replay.rules()?,
        n => rules_of(n)?,
    };
    let (_, score) = replay.play_under(rules)?;
    if as_json {
        return Ok(json::score(&replay, rules, &score));
    }
    let mut out = String::new();
    let _ = write!(
        out,
        "{} · seed {} · engine {}",
        score.mode, replay.seed, replay.engine
    );
    if rules.version() != replay.engine {
        let _ = write!(out, " · played under {rules}'s rules");
    }
    let _ = writeln!(out);
    let _ = write!(out, "{score}");
    let tier = typepper_engine::Tier::of(score.peak_heat);
    let _ = writeln!(out, "peak tier {tier}");
    Ok(out)
}

impl Form {
    fn name(self) -> &'static str {
        match self {
            Form::Raw => "raw",
            Form::Hex => "hex",
            Form::Text => "text",
        }
    }
}

/// A fresh round of the mode `key` on `seed`, if this build plays it.
fn mode_round(key: &str, seed: u64, rules: Rules) -> Result<Round, Refused> {
    let mode: Mode = key
        .parse()
        .map_err(|e: typepper_engine::ModeError| Refused {
            kind: "Mode",
            message: e.to_string(),
        })?;
    let blank = Replay {
        engine: rules.version(),
        mode: mode.key(),
        seed,
        text: None,
        inputs: Vec::new(),
    };
    Ok(blank.setup()?)
}

/// `typepper themes`: every theme's pairs of a text role and its background, as JSON or
/// a table with each pair's contrast and what it needs.
fn themes(json: bool) -> String {
    use typepper_game::theme::{PAIRS, THEMES, contrast};
    let hex = |rgb: u32| format!("#{rgb:06x}");
    if json {
        let themes: Vec<serde_json::Value> = THEMES
            .iter()
            .map(|t| {
                let pairs: Vec<serde_json::Value> = PAIRS
                    .iter()
                    .map(|p| {
                        serde_json::json!({
                            "role": p.role,
                            "fg": hex(t.rgb(p.fg)),
                            "bg": hex(t.rgb(p.bg)),
                            "large": p.large,
                        })
                    })
                    .collect();
                serde_json::json!({ "name": t.name, "pairs": pairs })
            })
            .collect();
        return format!("{}\n", serde_json::Value::Array(themes));
    }
    let mut out = String::new();
    for t in &THEMES {
        out.push_str(&format!("{}\n", t.name));
        for p in PAIRS {
            let (fg, bg) = (t.rgb(p.fg), t.rgb(p.bg));
            out.push_str(&format!(
                "  {:<26} {} on {}  {:>5.2}:1 (needs {}:1)\n",
                p.role,
                hex(fg),
                hex(bg),
                contrast(fg, bg),
                p.needs(t)
            ));
        }
    }
    out
}

/// The rules of VERSION `n` (`--rules`), the newest if none is asked for.
fn rules_of(n: Option<u32>) -> Result<Rules, Refused> {
    let Some(n) = n else {
        return Ok(Rules::NEWEST);
    };
    Rules::of(n).ok_or_else(|| Refused {
        kind: "NoRules",
        message: format!(
            "there are no rules VERSION {n}: this engine plays VERSION {}",
            Rules::versions()
        ),
    })
}

/// A fresh CUSTOM TEXT round on `file`'s text, made ready as a pasted one.
fn custom_round(file: &Path, seed: u64, rules: Rules) -> Result<Round, Refused> {
    // Four bytes a character at most, and room for the whitespace tidying takes out.
    let raw = read_input(file, 4 * MAX_TEXT_CHARS + (1 << 16), "a text file")?;
    let refuse = |message: String| Refused {
        kind: "Text",
        message: format!("{}: {message}", file.display()),
    };
    let raw = String::from_utf8(raw).map_err(|_| refuse(TextFault::NotUtf8.to_string()))?;
    let text = typepper_game::custom::prepare(&raw).map_err(|e| refuse(e.to_string()))?;
    Round::custom_under(rules, Mode::CUSTOM, &text, seed).map_err(|e| refuse(e.to_string()))
}

/// `typepper export`: the server's archive of this key's player, written to `out`; what
/// was written, said.
fn export(server: &str, out: &Path) -> Result<String, Refused> {
    let refused = |kind, message: String| Refused { kind, message };
    let ssh = std::env::var(typepper_term::net::SSH_VAR).ok();
    let remote = typepper_term::net::Remote::parse(server, ssh.as_deref())
        .map_err(|e| refused("Server", e))?;
    let archive = remote
        .export()
        .map_err(|e| refused("Export", e.to_string()))?;
    if out == Path::new("-") {
        std::io::stdout()
            .write_all(&archive)
            .map_err(|e| refused("Write", e.to_string()))?;
        return Ok(String::new());
    }
    std::fs::write(out, &archive)
        .map_err(|e| refused("Write", format!("writing {}: {e}", out.display())))?;
    Ok(format!(
        "typepper: wrote {} ({} bytes): each run's replay, and index.json\n",
        out.display(),
        archive.len()
    ))
}

fn make(round: Round, typist: &Typist, form: Form, out: &Path) -> Result<String, Refused> {
    let mode = round.mode();
    let replay = synth_on(round, typist);
    let bytes = replay.encode();
    let body = match form {
        Form::Raw => bytes.clone(),
        Form::Hex => format!("{}\n", hex::encode(&bytes)).into_bytes(),
        Form::Text => replay.to_string().into_bytes(),
    };
    let write = |e: std::io::Error| Refused {
        kind: "Io",
        message: format!("cannot write {}: {e}", out.display()),
    };
    if out.as_os_str() == "-" {
        std::io::stdout().write_all(&body).map_err(write)?;
    } else {
        std::fs::write(out, &body).map_err(write)?;
    }
    let summary = match replay.play() {
        Ok((_, s)) => format!("{}, {} in {} ms", mode, s.headline(), s.duration_ms),
        Err(e) => format!("{mode}, which does not play: {e}"),
    };
    eprintln!(
        "typepper: wrote {} bytes, {} inputs: {summary}",
        bytes.len(),
        replay.inputs.len()
    );
    Ok(String::new())
}
