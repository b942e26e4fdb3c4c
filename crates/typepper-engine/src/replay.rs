//! Replay formats 1 and 2: a round's mode, seed and every input at its millisecond, and in
//! format 2 the round's own text. The full reference, with every refusal and where replays
//! are kept, is the repository's `docs/spec/replays.md`.
//!
//! The byte layout, to the byte:
//!
//! ```text
//! magic "TPR" | format u8 = 1 | engine u32 LE | mode len u8 | mode UTF-8 | seed u64 LE
//! | count varint | count × (Δms varint, op varint)
//! ```
//!
//! Format 2 is format 1 with the text after the seed: `text len varint | text UTF-8`
//! (its length in bytes), then the count and inputs as before. A replay with a text is
//! written as format 2, one without as format 1, so every format 1 replay keeps its bytes.
//!
//! Everything up to the seed is the [`Header`], readable with [`Header::peek`] without
//! decoding the inputs, so a server holding two engines can pick one first.
//!
//! The format is canonical: one replay has exactly one encoding. Varints are unsigned
//! LEB128 in their shortest form, and a longer spelling of the same number (`80 00` for
//! 0) is refused as [`DecodeError::Overlong`]. Without that, a stored round could be sent
//! again as new bytes by padding one of its numbers; with it, whatever decodes re-encodes
//! to exactly the bytes it came from.

use core::fmt;

/// The three bytes every replay starts with.
pub const MAGIC: [u8; 3] = *b"TPR";
/// The byte layout of a replay without a text: every replay before custom text came.
pub const FORMAT: u8 = 1;
/// The byte layout of a replay that carries its text (a CUSTOM round's).
pub const FORMAT_2: u8 = 2;
/// The largest replay either decoder accepts: 1 MiB, about seven hours of ZEN at 60 wpm.
pub const MAX_BYTES: usize = 1 << 20;
/// The longest mode key a header may carry, in bytes.
pub const MAX_MODE_LEN: usize = 32;

/// One keystroke, as the engine sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Delete the last typed character (or step back into a mistyped word).
    Backspace,
    /// End the round: ZEN's esc.
    End,
    /// A typed character; the space commits a word.
    Char(char),
}

impl Op {
    /// The op's number in format 1: 0 Backspace, 1 End, n ≥ 2 the char n − 2.
    pub const fn code(self) -> u32 {
        match self {
            Op::Backspace => 0,
            Op::End => 1,
            Op::Char(c) => c as u32 + 2,
        }
    }

    /// The op a format 1 number stands for; [`DecodeError::Char`] past `char::MAX` or on a
    /// surrogate.
    pub fn from_code(code: u64) -> Result<Op, DecodeError> {
        match code {
            0 => Ok(Op::Backspace),
            1 => Ok(Op::End),
            n => u32::try_from(n - 2)
                .ok()
                .and_then(char::from_u32)
                .map(Op::Char)
                .ok_or(DecodeError::Char),
        }
    }
}

/// One input of a replay: an op and the milliseconds since the previous input (since the
/// round started, for the first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Input {
    /// Milliseconds since the previous input.
    pub dt: u32,
    /// What was pressed.
    pub op: Op,
}

/// A whole round: the rules that recorded it, its mode, its seed and its inputs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Replay {
    /// The rules that recorded it: [`crate::VERSION`] when this engine did.
    pub engine: u32,
    /// The mode's key, as in the header (`time:15`, `zen`, `pursuit:7`).
    pub mode: String,
    /// The round's text seed.
    pub seed: u64,
    /// The round's own text, for a CUSTOM round (format 2); `None` for a drawn text or a
    /// quote, which the mode and seed name (format 1). A decoded text is always
    /// [`check`]ed.
    pub text: Option<String>,
    /// Every input in order.
    pub inputs: Vec<Input>,
}

/// Why bytes were refused as a replay: every refusal of formats 1 and 2, and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeError {
    /// Over [`MAX_BYTES`].
    TooBig,
    /// The magic isn't `TPR`.
    NotAReplay,
    /// A format other than 1.
    Format(u8),
    /// The bytes ran out, or `count` claims more inputs than the bytes could hold.
    Truncated,
    /// The mode key is over [`MAX_MODE_LEN`] bytes or isn't UTF-8.
    Mode,
    /// An op that isn't a Unicode scalar value (a surrogate, past `char::MAX`).
    Char,
    /// Bytes after the last input ([`Replay::decode`] only).
    Leftover,
    /// The inputs' times run past `u32` milliseconds.
    Clock,
    /// A varint is not in its shortest form (`80 00` for 0): the format is canonical.
    Overlong,
    /// Format 2's text is not one a round can be played on: not UTF-8, empty, too long,
    /// or not in its normal form.
    Text(TextFault),
}

/// What is wrong with a text (a format 2 replay's, or one a player pasted): the sentence
/// says it to the player. [`check`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextFault {
    /// Its bytes are not UTF-8.
    NotUtf8,
    /// It has no characters.
    Empty,
    /// It has more than [`MAX_TEXT_CHARS`] characters.
    TooLong,
    /// It holds a character no key types: a control character (a tab, a newline) or an
    /// invisible one (a soft hyphen, a zero-width space, a byte order mark, a bidirectional
    /// control).
    Unseen(char),
    /// Whitespace other than single spaces between words: a space at either end, two in
    /// a row, or another kind of space.
    Spacing,
}

/// The most characters a text may have: a long essay, and about a quarter of an hour at
/// 130 wpm.
pub const MAX_TEXT_CHARS: usize = 10_000;

impl fmt::Display for TextFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextFault::NotUtf8 => f.write_str("the text is not UTF-8"),
            TextFault::Empty => f.write_str("the text is empty"),
            TextFault::TooLong => write!(f, "the text is over {MAX_TEXT_CHARS} characters"),
            TextFault::Unseen(c) => write!(
                f,
                "the text holds U+{:04X}, a control or invisible character no key types",
                u32::from(*c)
            ),
            TextFault::Spacing => f.write_str(
                "the text is not spaced normally: one space between words, none at either end",
            ),
        }
    }
}

impl DecodeError {
    /// The variant's name, as the CLI's and the server's JSON carry it (`"Truncated"`).
    pub const fn kind(self) -> &'static str {
        match self {
            DecodeError::TooBig => "TooBig",
            DecodeError::NotAReplay => "NotAReplay",
            DecodeError::Format(_) => "Format",
            DecodeError::Truncated => "Truncated",
            DecodeError::Mode => "Mode",
            DecodeError::Char => "Char",
            DecodeError::Leftover => "Leftover",
            DecodeError::Clock => "Clock",
            DecodeError::Overlong => "Overlong",
            DecodeError::Text(_) => "Text",
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::TooBig => write!(f, "a replay is at most {MAX_BYTES} bytes"),
            DecodeError::NotAReplay => f.write_str("not a typepper replay (no TPR magic)"),
            DecodeError::Format(n) => {
                write!(
                    f,
                    "replay format {n}; this build reads formats {FORMAT} and {FORMAT_2}"
                )
            }
            DecodeError::Truncated => f.write_str("the replay is cut short"),
            DecodeError::Mode => write!(
                f,
                "the mode key is not UTF-8 text of at most {MAX_MODE_LEN} bytes"
            ),
            DecodeError::Char => f.write_str("an input is not a Unicode character"),
            DecodeError::Leftover => f.write_str("bytes follow the last input"),
            DecodeError::Clock => f.write_str("the inputs' times run past u32 milliseconds"),
            DecodeError::Overlong => {
                f.write_str("a number is written in more bytes than it needs (not canonical)")
            }
            DecodeError::Text(fault) => fault.fmt(f),
        }
    }
}

impl std::error::Error for DecodeError {}

/// The fixed part of a replay: everything up to and including the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header<'a> {
    /// The byte layout: [`FORMAT`], or [`FORMAT_2`] when a text follows the header.
    pub format: u8,
    /// The rules that recorded it.
    pub engine: u32,
    /// The mode key.
    pub mode: &'a str,
    /// The text seed.
    pub seed: u64,
    /// How many bytes the header took: format 1's inputs start here, format 2's text.
    pub len: usize,
}

impl<'a> Header<'a> {
    /// Reads the header off the front of `bytes` without looking at the inputs.
    pub fn peek(bytes: &'a [u8]) -> Result<Header<'a>, DecodeError> {
        let mut r = Reader::new(bytes);
        let magic = r.take(3);
        match magic {
            Ok(m) if m == MAGIC => {}
            Ok(_) => return Err(DecodeError::NotAReplay),
            // A cut-off "TP" is a truncated replay; anything else is not one at all.
            Err(_) if MAGIC.starts_with(bytes) => return Err(DecodeError::Truncated),
            Err(_) => return Err(DecodeError::NotAReplay),
        }
        let format = r.byte()?;
        if format != FORMAT && format != FORMAT_2 {
            return Err(DecodeError::Format(format));
        }
        let engine = u32::from_le_bytes(r.array()?);
        let mode_len = usize::from(r.byte()?);
        if mode_len > MAX_MODE_LEN {
            return Err(DecodeError::Mode);
        }
        let mode = core::str::from_utf8(r.take(mode_len)?).map_err(|_| DecodeError::Mode)?;
        let seed = u64::from_le_bytes(r.array()?);
        Ok(Header {
            format,
            engine,
            mode,
            seed,
            len: r.pos,
        })
    }
}

impl Replay {
    /// Decodes exactly one replay: [`DecodeError::Leftover`] if bytes follow it.
    pub fn decode(bytes: &[u8]) -> Result<Replay, DecodeError> {
        if bytes.len() > MAX_BYTES {
            return Err(DecodeError::TooBig);
        }
        let (replay, rest) = Replay::decode_prefix(bytes)?;
        if !rest.is_empty() {
            return Err(DecodeError::Leftover);
        }
        Ok(replay)
    }

    /// Decodes one replay off the front of `bytes` and returns it with the bytes after it,
    /// for a submission's back-to-back replays.
    pub fn decode_prefix(bytes: &[u8]) -> Result<(Replay, &[u8]), DecodeError> {
        // Only the first MAX_BYTES can belong to this replay; running out of them while
        // more bytes follow means the replay itself is too big.
        let window = &bytes[..bytes.len().min(MAX_BYTES)];
        let too_big = |e: DecodeError| {
            if e == DecodeError::Truncated && bytes.len() > MAX_BYTES {
                DecodeError::TooBig
            } else {
                e
            }
        };
        let header = Header::peek(window).map_err(too_big)?;
        let mut r = Reader::new(window);
        r.pos = header.len;
        let text = match header.format {
            FORMAT_2 => Some(read_text(&mut r).map_err(too_big)?),
            _ => None,
        };
        let inputs = read_inputs(&mut r).map_err(too_big)?;
        let end = r.pos;
        Ok((
            Replay {
                engine: header.engine,
                mode: header.mode.to_owned(),
                seed: header.seed,
                text,
                inputs,
            },
            &bytes[end..],
        ))
    }

    /// The replay's bytes: format 2 if it has a text, else format 1.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.encoded_len());
        self.encode_into(&mut out);
        out
    }

    /// Appends the replay's bytes to `out` (back-to-back replays for one submission).
    ///
    /// A mode key over [`MAX_MODE_LEN`] bytes is written cut to its longest UTF-8 prefix
    /// that fits, which no [`crate::Mode`] ever needs.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&MAGIC);
        out.push(if self.text.is_some() {
            FORMAT_2
        } else {
            FORMAT
        });
        out.extend_from_slice(&self.engine.to_le_bytes());
        let mode = mode_prefix(&self.mode);
        out.push(mode.len() as u8);
        out.extend_from_slice(mode.as_bytes());
        out.extend_from_slice(&self.seed.to_le_bytes());
        if let Some(text) = &self.text {
            put_varint(out, text.len() as u64);
            out.extend_from_slice(text.as_bytes());
        }
        put_varint(out, self.inputs.len() as u64);
        for input in &self.inputs {
            put_varint(out, u64::from(input.dt));
            put_varint(out, u64::from(input.op.code()));
        }
    }

    /// How many bytes [`Replay::encode`] writes.
    pub fn encoded_len(&self) -> usize {
        let header = header_len(&self.mode) + self.text.as_deref().map_or(0, text_len);
        let inputs: usize = self
            .inputs
            .iter()
            .map(|i| varint_len(u64::from(i.dt)) + varint_len(u64::from(i.op.code())))
            .sum();
        header + varint_len(self.inputs.len() as u64) + inputs
    }

    /// Each input with its time since the round started, in order. `None` for an input
    /// whose time runs past `u32` ms (a decoded replay never has one).
    pub fn timeline(&self) -> impl Iterator<Item = (Option<u32>, Op)> + '_ {
        let mut at = Some(0u32);
        self.inputs.iter().map(move |i| {
            at = at.and_then(|t| t.checked_add(i.dt));
            (at, i.op)
        })
    }
}

/// The readable text form of a replay, for golden files and hand-written test rounds:
///
/// ```text
/// typepper replay
/// engine 1
/// mode time:15
/// seed 72623859790382856
/// +0 'h'
/// +130 'i'
/// +95 backspace
/// ```
///
/// A replay with a text (format 2) has a `text "…"` line after the seed, the text in
/// double quotes with Rust's escapes. Each input is `+Δms` and an op: `backspace`, `end`, `space`, or a character in single
/// quotes with Rust's escapes (`'\''`, `'\u{1f336}'`). Lines starting with `#` are comments.
impl fmt::Display for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "typepper replay")?;
        writeln!(f, "engine {}", self.engine)?;
        writeln!(f, "mode {}", mode_text(&self.mode))?;
        writeln!(f, "seed {}", self.seed)?;
        if let Some(text) = &self.text {
            writeln!(f, "text \"{}\"", text.escape_debug())?;
        }
        for input in &self.inputs {
            write!(f, "+{} ", input.dt)?;
            match input.op {
                Op::Backspace => writeln!(f, "backspace")?,
                Op::End => writeln!(f, "end")?,
                Op::Char(' ') => writeln!(f, "space")?,
                // Whitespace is written as a code so that trimming a line never eats it.
                Op::Char(c) if c.is_whitespace() => writeln!(f, "'\\u{{{:x}}}'", u32::from(c))?,
                Op::Char(c) => writeln!(f, "'{}'", c.escape_debug())?,
            }
        }
        Ok(())
    }
}

/// A line of a replay's text form that doesn't read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// The line, from 1.
    pub line: usize,
    /// What was wrong with it.
    pub message: String,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TextError {}

impl core::str::FromStr for Replay {
    type Err = TextError;

    fn from_str(text: &str) -> Result<Replay, TextError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let mut field = |name: &str| {
            let (line, l) = lines.next().ok_or(TextError {
                line: 0,
                message: format!("no {name:?} line"),
            })?;
            let value = l.strip_prefix(name).and_then(|v| v.strip_prefix(' '));
            value.map(|v| (line, v.to_owned())).ok_or(TextError {
                line,
                message: format!("expected {name:?}, found {l:?}"),
            })
        };
        let bad = |line: usize, message: String| TextError { line, message };
        let (line, magic) = field("typepper")?;
        if magic != "replay" {
            return Err(bad(
                line,
                "a replay's text starts with \"typepper replay\"".into(),
            ));
        }
        let (line, engine) = field("engine")?;
        let engine = engine
            .parse()
            .map_err(|e| bad(line, format!("engine: {e}")))?;
        let (line, mode) = field("mode")?;
        let mode = match mode.strip_prefix('"').and_then(|m| m.strip_suffix('"')) {
            Some(quoted) => {
                unescape(quoted).ok_or_else(|| bad(line, "mode: a bad escape".into()))?
            }
            None => mode,
        };
        let (line, seed) = field("seed")?;
        let seed = seed.parse().map_err(|e| bad(line, format!("seed: {e}")))?;
        let mut inputs = Vec::new();
        let mut text = None;
        let mut lines = lines.peekable();
        if let Some((line, l)) = lines.next_if(|(_, l)| l.starts_with("text ")) {
            let quoted = &l["text ".len()..];
            let inner = quoted.strip_prefix('"').and_then(|q| q.strip_suffix('"'));
            let t = inner
                .and_then(unescape)
                .ok_or_else(|| bad(line, "text: expected \"…\" with Rust's escapes".into()))?;
            check(&t).map_err(|e| bad(line, e.to_string()))?;
            text = Some(t);
        }
        for (line, l) in lines {
            let (dt, op) = l
                .strip_prefix('+')
                .and_then(|l| l.split_once(' '))
                .ok_or_else(|| bad(line, format!("expected \"+Δms op\", found {l:?}")))?;
            let dt = dt.parse().map_err(|e| bad(line, format!("Δms: {e}")))?;
            let op = match op.trim() {
                "backspace" => Op::Backspace,
                "end" => Op::End,
                "space" => Op::Char(' '),
                quoted => Op::Char(unquote(quoted).ok_or_else(|| {
                    bad(
                        line,
                        format!("expected backspace, end, space or 'c', found {quoted:?}"),
                    )
                })?),
            };
            inputs.push(Input { dt, op });
        }
        Ok(Replay {
            engine,
            mode,
            seed,
            text,
            inputs,
        })
    }
}

/// A character in single quotes with the escapes `char::escape_debug` writes.
fn unquote(s: &str) -> Option<char> {
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    let text = unescape(inner)?;
    let mut chars = text.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

/// Undoes `escape_debug`: `\n`, `\t`, `\r`, `\0`, `\\`, `\'`, `\"` and `\u{…}`.
fn unescape(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next()? {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            '0' => '\0',
            e @ ('\\' | '\'' | '"') => e,
            'u' => {
                let rest = chars.as_str().strip_prefix('{')?;
                let (hex, after) = rest.split_once('}')?;
                chars = after.chars();
                u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)?
            }
            _ => return None,
        });
    }
    Some(out)
}

/// A mode key as the text form writes it: bare when it reads back unchanged.
fn mode_text(mode: &str) -> String {
    let bare = !mode.is_empty()
        && !mode.starts_with('"')
        && mode.trim() == mode
        && !mode.chars().any(char::is_control);
    if bare {
        mode.to_owned()
    } else {
        format!("\"{}\"", mode.escape_debug())
    }
}

/// The bytes of a replay's header (magic to seed) for a mode key.
pub(crate) fn header_len(mode: &str) -> usize {
    MAGIC.len() + 1 + 4 + 1 + mode_prefix(mode).len() + 8
}

/// The most bytes a replay's header and text take: the longest mode key, and
/// [`MAX_TEXT_CHARS`] characters of four bytes with their length's varint.
pub(crate) const HEAD_MOST: usize =
    MAGIC.len() + 1 + 4 + 1 + MAX_MODE_LEN + 8 + 3 + 4 * MAX_TEXT_CHARS;
/// The most bytes an input takes: a `u32`'s varint and a `char`'s.
pub(crate) const INPUT_MOST: usize = 5 + 3;

/// The bytes format 2's text takes: its length's varint and its UTF-8.
fn text_len(text: &str) -> usize {
    varint_len(text.len() as u64) + text.len()
}

/// Format 2's text: its length in bytes, its bytes, and a check that it is a text a round
/// plays. Its length is checked before its bytes are read: a claimed length past what
/// [`MAX_TEXT_CHARS`] characters could take is refused at once.
fn read_text(r: &mut Reader<'_>) -> Result<String, DecodeError> {
    let len = match r.varint() {
        Ok(v) => v,
        Err(VarintError::Truncated) => return Err(DecodeError::Truncated),
        Err(VarintError::Overflow) => return Err(DecodeError::Text(TextFault::TooLong)),
        Err(VarintError::Overlong) => return Err(DecodeError::Overlong),
    };
    let len = usize::try_from(len)
        .ok()
        .filter(|&n| n <= MAX_TEXT_CHARS * 4)
        .ok_or(DecodeError::Text(TextFault::TooLong))?;
    let bytes = r.take(len)?;
    let text = core::str::from_utf8(bytes).map_err(|_| DecodeError::Text(TextFault::NotUtf8))?;
    check(text).map_err(DecodeError::Text)?;
    Ok(text.to_owned())
}

fn mode_prefix(mode: &str) -> &str {
    let mut end = mode.len().min(MAX_MODE_LEN);
    while !mode.is_char_boundary(end) {
        end -= 1;
    }
    mode.get(..end).unwrap_or_default()
}

fn read_inputs(r: &mut Reader<'_>) -> Result<Vec<Input>, DecodeError> {
    let count = match r.varint() {
        Ok(v) => v,
        Err(VarintError::Overlong) => return Err(DecodeError::Overlong),
        // A count past 64 bits claims more inputs than any bytes could hold.
        Err(VarintError::Truncated | VarintError::Overflow) => return Err(DecodeError::Truncated),
    };
    // Every input takes at least two bytes: refuse an impossible count before allocating.
    let room = (r.bytes.len() - r.pos) / 2;
    let count = usize::try_from(count)
        .ok()
        .filter(|&c| c <= room)
        .ok_or(DecodeError::Truncated)?;
    let mut inputs = Vec::with_capacity(count);
    let mut clock = 0u32;
    for _ in 0..count {
        // Nearly every input is a gap under 16,384 ms (one byte or two) and a key of
        // ASCII: read whole, they are decoded at twice the speed. Natively only: the
        // server decodes thousands a second, the browser a few, where bytes count more.
        #[cfg(not(target_arch = "wasm32"))]
        let short = match r.bytes.get(r.pos..r.pos + 3) {
            Some(&[dt, code, _]) if (dt | code) < 0x80 => Some((u32::from(dt), code, 2)),
            Some(&[low, high, code]) if low >= 0x80 && high != 0 && (high | code) < 0x80 => {
                Some((u32::from(low & 0x7f) | u32::from(high) << 7, code, 3))
            }
            _ => None,
        };
        #[cfg(not(target_arch = "wasm32"))]
        if let Some((dt, code, len)) = short {
            r.pos += len;
            clock = clock.checked_add(dt).ok_or(DecodeError::Clock)?;
            let op = Op::from_code(code.into())?;
            inputs.push(Input { dt, op });
            continue;
        }
        let dt = match r.varint() {
            Ok(v) => u32::try_from(v).map_err(|_| DecodeError::Clock)?,
            Err(VarintError::Truncated) => return Err(DecodeError::Truncated),
            Err(VarintError::Overflow) => return Err(DecodeError::Clock),
            Err(VarintError::Overlong) => return Err(DecodeError::Overlong),
        };
        clock = clock.checked_add(dt).ok_or(DecodeError::Clock)?;
        let op = match r.varint() {
            Ok(code) => Op::from_code(code)?,
            Err(VarintError::Truncated) => return Err(DecodeError::Truncated),
            Err(VarintError::Overflow) => return Err(DecodeError::Char),
            Err(VarintError::Overlong) => return Err(DecodeError::Overlong),
        };
        inputs.push(Input { dt, op });
    }
    Ok(inputs)
}

/// Appends `v` as unsigned LEB128.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub(crate) const fn varint_len(v: u64) -> usize {
    let bits = 64 - (v | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

#[derive(Debug, PartialEq, Eq)]
enum VarintError {
    Truncated,
    /// More than 64 bits.
    Overflow,
    /// Not the shortest form: a last byte of 0 after others adds nothing.
    Overlong,
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        let end = self.pos.checked_add(n).ok_or(DecodeError::Truncated)?;
        let out = self
            .bytes
            .get(self.pos..end)
            .ok_or(DecodeError::Truncated)?;
        self.pos = end;
        Ok(out)
    }

    fn byte(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take(1)?[0])
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    /// Unsigned LEB128 in its shortest form, stopping at 64 bits: a tenth byte may carry
    /// only the top bit.
    #[inline]
    fn varint(&mut self) -> Result<u64, VarintError> {
        // Most gaps and nearly every op fit one byte: keep that path short.
        if let Some(&b) = self.bytes.get(self.pos)
            && b < 0x80
        {
            self.pos += 1;
            return Ok(u64::from(b));
        }
        let (v, end) = varint_long(self.bytes, self.pos)?;
        self.pos = end;
        Ok(v)
    }
}

/// A varint of more than one byte at `pos`, and the position after it. By value, not
/// through a [`Reader`]: a reader's position then stays in a register while inputs are
/// read (a third of decoding went to keeping it in memory).
#[cold]
fn varint_long(bytes: &[u8], mut pos: usize) -> Result<(u64, usize), VarintError> {
    let mut v = 0u64;
    for i in 0..10 {
        let b = *bytes.get(pos).ok_or(VarintError::Truncated)?;
        pos += 1;
        let low = u64::from(b & 0x7f);
        if i == 9 && (b > 1) {
            return Err(VarintError::Overflow);
        }
        v |= low << (7 * i);
        if b & 0x80 == 0 {
            // This path has read a byte with the top bit set before this one, so a
            // last byte of 0 only spelled the same number longer.
            return if b == 0 {
                Err(VarintError::Overlong)
            } else {
                Ok((v, pos))
            };
        }
    }
    Err(VarintError::Overflow)
}

/// Characters no key types: a soft hyphen, a zero-width space, a word joiner, a byte order
/// mark, and Unicode's bidirectional controls (which make a page show the text around
/// them otherwise than it is typed: a right-to-left override turns `gnp.exe` into
/// `exe.png`). [`tidy`] drops them; [`check`] refuses them.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{61c}'
            | '\u{200b}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
    )
}

/// A pasted text in the form a round plays it, but for Unicode NFC (which the shells
/// apply first: the browser's `String.normalize`, the terminal's and the server's
/// `unicode-normalization`; the engine carries no composition tables): every run of
/// whitespace (tabs and newlines too) is one space, none at either end, and the
/// invisible characters [`check`] refuses are gone. Control characters are left for
/// [`check`] to name.
pub fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split(char::is_whitespace).filter(|w| !w.is_empty()) {
        let word = word.chars().filter(|&c| !invisible(c));
        let start = out.len();
        if start > 0 {
            out.push(' ');
        }
        out.extend(word);
        if out.len() == start + 1 {
            out.pop();
        }
    }
    out
}

/// Whether `text` is one a round is played on (a custom text, a quote, format 2's text):
/// 1 to [`MAX_TEXT_CHARS`] characters, words split by single spaces, no control or
/// invisible character. Whether it is in Unicode's NFC needs Unicode's composition
/// tables, which the engine doesn't carry (the browser's wasm has no room for them): the
/// shells compose a pasted text before they play it, and the server, which stores every
/// text anyone watches, refuses one not in NFC before it stores it (docs/spec/replays.md,
/// "Format 2").
pub fn check(text: &str) -> Result<(), TextFault> {
    if text.is_empty() {
        return Err(TextFault::Empty);
    }
    let mut chars = 0;
    let mut space = true;
    for c in text.chars() {
        chars += 1;
        if c == ' ' {
            if space {
                return Err(TextFault::Spacing);
            }
        } else if c.is_control() || invisible(c) {
            return Err(TextFault::Unseen(c));
        } else if c.is_whitespace() {
            return Err(TextFault::Spacing);
        }
        space = c == ' ';
    }
    if space {
        return Err(TextFault::Spacing);
    }
    if chars > MAX_TEXT_CHARS {
        return Err(TextFault::TooLong);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_a_head_and_an_input_take_is_so() {
        let replay = Replay {
            engine: u32::MAX,
            mode: "x".repeat(MAX_MODE_LEN),
            seed: u64::MAX,
            text: Some("\u{1f336}".repeat(MAX_TEXT_CHARS)),
            inputs: vec![],
        };
        assert_eq!(replay.encoded_len() - 1, HEAD_MOST);
        let longest = Op::Char(char::MAX);
        assert_eq!(
            varint_len(u32::MAX.into()) + varint_len(longest.code().into()),
            INPUT_MOST
        );
    }

    /// (value, bytes): one table for both directions of the varint.
    const VARINTS: &[(u64, &[u8])] = &[
        (0, &[0x00]),
        (1, &[0x01]),
        (95, &[0x5f]),
        (127, &[0x7f]),
        (128, &[0x80, 0x01]),
        (130, &[0x82, 0x01]),
        (16383, &[0xff, 0x7f]),
        (16384, &[0x80, 0x80, 0x01]),
        (u32::MAX as u64, &[0xff, 0xff, 0xff, 0xff, 0x0f]),
        (
            u64::MAX,
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
        ),
    ];

    #[test]
    fn the_text_form_round_trips() {
        let r = Replay {
            engine: 1,
            mode: "zen".into(),
            seed: u64::MAX,
            text: None,
            inputs: [
                Op::Char('h'),
                Op::Char(' '),
                Op::Char('\''),
                Op::Char('\\'),
                Op::Char('\n'),
                Op::Char('é'),
                Op::Char('🌶'),
                Op::Char('\u{200b}'),
                Op::Char('\u{3000}'),
                Op::Char('\t'),
                Op::Backspace,
                Op::End,
            ]
            .into_iter()
            .enumerate()
            .map(|(i, op)| Input {
                dt: i as u32 * 1000,
                op,
            })
            .collect(),
        };
        let text = r.to_string();
        assert_eq!(text.parse::<Replay>(), Ok(r));
        let err = "typepper replay\nengine 1\nmode zen\nseed 1\n+5 'ab'\n"
            .parse::<Replay>()
            .unwrap_err();
        assert_eq!(err.line, 5);
    }

    #[test]
    fn varints_read_and_write_the_table() {
        for &(value, bytes) in VARINTS {
            let mut out = Vec::new();
            put_varint(&mut out, value);
            assert_eq!(out, bytes, "writing {value}");
            assert_eq!(varint_len(value), bytes.len(), "length of {value}");
            let mut r = Reader::new(bytes);
            assert_eq!(r.varint(), Ok(value), "reading {bytes:02x?}");
            assert_eq!(r.pos, bytes.len());
        }
    }

    #[test]
    fn varint_reader_stops_at_64_bits() {
        let over = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
        assert_eq!(Reader::new(&over).varint(), Err(VarintError::Overflow));
        let endless = [0x80; 11];
        assert_eq!(Reader::new(&endless).varint(), Err(VarintError::Overflow));
        assert_eq!(Reader::new(&[0x80]).varint(), Err(VarintError::Truncated));
    }

    #[test]
    fn varints_have_one_spelling() {
        for overlong in [
            &[0x80, 0x00][..],
            &[0xff, 0x00],
            &[0x82, 0x81, 0x00],
            &[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
        ] {
            assert_eq!(
                Reader::new(overlong).varint(),
                Err(VarintError::Overlong),
                "{overlong:02x?}"
            );
        }
        // A lone zero byte is 0's one spelling.
        assert_eq!(Reader::new(&[0x00]).varint(), Ok(0));
    }

    /// (op, code): one table for both directions of the op numbering.
    const OPS: &[(Op, u64)] = &[
        (Op::Backspace, 0),
        (Op::End, 1),
        (Op::Char('\0'), 2),
        (Op::Char('h'), 0x6a),
        (Op::Char('é'), 0xe9 + 2),
        (Op::Char('🌶'), 0x1f336 + 2),
        (Op::Char(char::MAX), 0x10ffff + 2),
    ];

    #[test]
    fn ops_number_as_the_table() {
        for &(op, code) in OPS {
            assert_eq!(u64::from(op.code()), code);
            assert_eq!(Op::from_code(code), Ok(op));
        }
        assert_eq!(Op::from_code(0xd800 + 2), Err(DecodeError::Char));
        assert_eq!(Op::from_code(0x110000 + 2), Err(DecodeError::Char));
        assert_eq!(Op::from_code(u64::MAX), Err(DecodeError::Char));
    }
}
