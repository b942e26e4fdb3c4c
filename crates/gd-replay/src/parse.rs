//! The parser: one pass over the bytes, refusing at the first byte the format doesn't allow.
//!
//! Every production is a method on [`Cursor`]; each says what it expected in words, so an
//! error points at a byte and names what would have fit there.

use crate::error::ParseError;
use crate::input::{Checkpoint, CheckpointData, CheckpointKind, Input, Key, KeyInput};
use crate::item_pers::{ItemPersData, PersItem, PersTimer, Remaps, TimerData};
use crate::number::{Decimal, Int, Uint};
use crate::{Metadata, Replay};

const START: &str = "`0` or `-0` (whether jump is held on the first half-step)";
const AFTER_JUMP: &str = "`,` and a key, `;` or `#`";
const AFTER_KEY: &str = "`;` or `#` (only checkpoint actions carry `:` data)";
const AFTER_CHECKPOINT_KEY: &str = "`:` and checkpoint data, `;` or `#`";
const SEPARATOR: &str = "`;` or `#`";
const DELTA: &str = "a half-step count";
const U32: &str = "a number from 0 to 4294967295";
const I64: &str = "an integer from -9223372036854775808 to 9223372036854775807";
const KEY_DIGITS: &str = "an input key";
const KEY: &str = "2 to 10, 98 or 99, without leading zeros (P1 jump, 0, is written without a key)";
const INT: &str = "an integer";
const COMMA: &str = "`,`";
const DATA_COMMA: &str = "`,` (checkpoint data ends with a comma)";
const FLAG: &str = "`0` or `1`";
const TIMER_FIELD: &str = "`&` (a timer has twelve fields)";
const BARE_TIMER: &str =
    "`&` (item pers data with `&` and no `@` is timers alone, which have twelve fields)";
const ITEMS_NEXT: &str = "`|` and another item, or `@`";
const BAR: &str = "`|` (items and timers come in ID|value pairs)";
const REMAP_NEXT: &str = "`_` (a remap chain ends with `_-` and a runtime ID)";
const REMAP_ID: &str = "a remap ID, or `-` and the trigger's runtime ID";
const META_END: &str = "the end of the string (item pers data is the last of six values)";

/// The checkpoint data keys in order, and what to say when one is missing.
const CHECKPOINT_KEYS: [(u8, &str); 8] = [
    (b'1', "`1,` (checkpoint data key 1, the seed)"),
    (b'2', "`2,` (checkpoint data key 2, the checkpoint ID)"),
    (b'3', "`3,` (checkpoint data key 3, the attempt)"),
    (b'4', "`4,` (checkpoint data key 4, the ticks)"),
    (b'5', "`5,` (checkpoint data key 5, the clicks)"),
    (b'6', "`6,` (checkpoint data key 6, the points)"),
    (b'7', "`7,` (checkpoint data key 7, the time)"),
    (b'8', "`8,` (checkpoint data key 8, the item pers data)"),
];

/// Parses a whole replay string.
pub(crate) fn replay(text: &str) -> Result<Replay, ParseError> {
    let mut c = Cursor { text, pos: 0 };
    let holding = if c.eat_all(b"0") {
        true
    } else if c.eat_all(b"-0") {
        false
    } else {
        return Err(c.fail(START));
    };
    let mut inputs = Vec::new();
    // The first input is only `0` or `-0`: no key may follow it.
    let mut after = SEPARATOR;
    loop {
        if c.eat(b'#') {
            break;
        }
        if !c.eat(b';') {
            return Err(c.fail(after));
        }
        let (input, next) = c.input()?;
        inputs.push(input);
        after = next;
    }
    let meta = c.metadata()?;
    Ok(Replay {
        holding,
        inputs,
        meta,
    })
}

/// Parses item pers data alone (the part after `8,` or the metadata's last value).
pub(crate) fn item_pers(text: &str) -> Result<ItemPersData, ParseError> {
    let mut c = Cursor { text, pos: 0 };
    let data = c.item_pers()?;
    c.end("the end of the item pers data")?;
    Ok(data)
}

struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl Cursor<'_> {
    fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        self.pos += usize::from(hit);
        hit
    }

    fn eat_all(&mut self, bs: &[u8]) -> bool {
        let hit = self.bytes()[self.pos..].starts_with(bs);
        if hit {
            self.pos += bs.len();
        }
        hit
    }

    fn expect(&mut self, b: u8, expected: &'static str) -> Result<(), ParseError> {
        if self.eat(b) {
            Ok(())
        } else {
            Err(self.fail(expected))
        }
    }

    fn end(&self, expected: &'static str) -> Result<(), ParseError> {
        if self.pos == self.bytes().len() {
            Ok(())
        } else {
            Err(self.fail(expected))
        }
    }

    fn fail(&self, expected: &'static str) -> ParseError {
        self.fail_at(self.pos, expected)
    }

    /// A syntax error at `offset`, or an early end when that is past the last byte.
    fn fail_at(&self, offset: usize, expected: &'static str) -> ParseError {
        if offset >= self.bytes().len() {
            ParseError::End {
                offset: self.bytes().len(),
                expected,
            }
        } else {
            ParseError::Syntax { offset, expected }
        }
    }

    /// One or more ASCII digits.
    fn digits(&mut self, expected: &'static str) -> Result<&[u8], ParseError> {
        let start = self.pos;
        let n = self.bytes()[start..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if n == 0 {
            return Err(self.fail(expected));
        }
        self.pos += n;
        Ok(&self.bytes()[start..start + n])
    }

    /// Digits as a magnitude and its count of extra leading zeros; `None` past `u64`.
    fn magnitude(&mut self, expected: &'static str) -> Result<Option<(u64, u32)>, ParseError> {
        let digits = self.digits(expected)?;
        // A zero alone is the number's one digit, not a leading zero.
        let zeros = digits.iter().take_while(|&&b| b == b'0').count();
        let zeros = zeros.min(digits.len() - 1);
        let mut value = 0u64;
        for &d in &digits[zeros..] {
            let next = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d - b'0')));
            match next {
                Some(v) => value = v,
                None => return Ok(None),
            }
        }
        Ok(u32::try_from(zeros).ok().map(|z| (value, z)))
    }

    fn uint(&mut self, expected: &'static str) -> Result<Uint, ParseError> {
        let start = self.pos;
        let (value, zeros) = self.magnitude(expected)?.ok_or(ParseError::Number {
            offset: start,
            expected: U32,
        })?;
        let value = u32::try_from(value).map_err(|_| ParseError::Number {
            offset: start,
            expected: U32,
        })?;
        Ok(Uint::new(value).with_zeros(zeros))
    }

    fn int(&mut self) -> Result<Int, ParseError> {
        let start = self.pos;
        let minus = self.eat(b'-');
        let out_of_range = ParseError::Number {
            offset: start,
            expected: I64,
        };
        let (magnitude, zeros) = self.magnitude(INT)?.ok_or(out_of_range)?;
        // i128 holds both i64::MIN's magnitude and a too-big one without overflowing.
        let signed = if minus {
            -i128::from(magnitude)
        } else {
            i128::from(magnitude)
        };
        let value = i64::try_from(signed).map_err(|_| out_of_range)?;
        Ok(Int::spelled(minus, value, zeros))
    }

    fn decimal(&mut self) -> Result<Decimal, ParseError> {
        let start = self.pos;
        let len = Decimal::scan(&self.bytes()[start..])
            .map_err(|(at, expected)| self.fail_at(start + at, expected))?;
        // The scanned bytes are ASCII, so both ends are char boundaries; `get` keeps even
        // a mistake here from panicking.
        let text = self
            .text
            .get(start..start + len)
            .ok_or(self.fail_at(start, "a decimal number"))?;
        self.pos += len;
        Ok(Decimal::from_scanned(text))
    }

    fn flag(&mut self) -> Result<bool, ParseError> {
        if self.eat(b'0') {
            Ok(false)
        } else if self.eat(b'1') {
            Ok(true)
        } else {
            Err(self.fail(FLAG))
        }
    }

    /// One input after a `;`, and what may follow it.
    fn input(&mut self) -> Result<(Input, &'static str), ParseError> {
        let start = self.pos;
        let release = self.eat(b'-');
        let delta = self.uint(DELTA)?;
        if !self.eat(b',') {
            let input = Input::Key(KeyInput {
                delta,
                release,
                key: Key::P1Jump,
            });
            return Ok((input, AFTER_JUMP));
        }
        let key_at = self.pos;
        let digits = self.digits(KEY_DIGITS)?;
        // Keys are written plainly: a leading zero would have to be kept, and no key in
        // the table needs one.
        let id = match digits {
            [d] => Some(u32::from(d - b'0')),
            [b'1'..=b'9', d] => Some(u32::from(digits[0] - b'0') * 10 + u32::from(d - b'0')),
            _ => None,
        };
        let kind = match id {
            Some(98) => Some(CheckpointKind::Load),
            Some(99) => Some(CheckpointKind::Respawn),
            _ => None,
        };
        if let Some(kind) = kind {
            if !release {
                return Err(ParseError::PressedCheckpoint {
                    offset: start,
                    expected: "`-` before a checkpoint action's step",
                });
            }
            let data = if self.eat(b':') {
                Some(Box::new(self.checkpoint_data()?))
            } else {
                None
            };
            let next = if data.is_some() {
                SEPARATOR
            } else {
                AFTER_CHECKPOINT_KEY
            };
            let checkpoint = Checkpoint {
                kind,
                step: delta,
                data,
            };
            return Ok((Input::Checkpoint(checkpoint), next));
        }
        let key = id
            .filter(|&id| id != 0)
            .and_then(Key::from_id)
            .ok_or(ParseError::Key {
                offset: key_at,
                expected: KEY,
            })?;
        let input = Input::Key(KeyInput {
            delta,
            release,
            key,
        });
        Ok((input, AFTER_KEY))
    }

    fn checkpoint_data(&mut self) -> Result<CheckpointData, ParseError> {
        let mut ints = [Int::default(); 7];
        for (slot, &(key, expected)) in ints.iter_mut().zip(&CHECKPOINT_KEYS) {
            self.expect(key, expected)?;
            self.expect(b',', COMMA)?;
            *slot = self.int()?;
            self.expect(b',', COMMA)?;
        }
        let (key, expected) = CHECKPOINT_KEYS[7];
        self.expect(key, expected)?;
        self.expect(b',', COMMA)?;
        let item_pers = self.item_pers()?;
        self.expect(b',', DATA_COMMA)?;
        let [seed, id, attempt, ticks, clicks, points, time] = ints;
        Ok(CheckpointData {
            seed,
            id,
            attempt,
            ticks,
            clicks,
            points,
            time,
            item_pers,
        })
    }

    fn metadata(&mut self) -> Result<Metadata, ParseError> {
        let seed = self.int()?;
        self.expect(b',', COMMA)?;
        let attempts = self.int()?;
        self.expect(b',', COMMA)?;
        let game_version = self.decimal()?;
        self.expect(b',', COMMA)?;
        let binary_version = self.decimal()?;
        self.expect(b',', COMMA)?;
        let level_version = self.int()?;
        self.expect(b',', COMMA)?;
        let item_pers = self.item_pers()?;
        self.end(META_END)?;
        Ok(Metadata {
            seed,
            attempts,
            game_version,
            binary_version,
            level_version,
            item_pers,
        })
    }

    /// Item pers data up to whatever ends it (a `,` or the end), which the caller checks.
    fn item_pers(&mut self) -> Result<ItemPersData, ParseError> {
        // Whether this is `items@timers` or the bug's bare `timers` is only known from
        // whether an `@` comes before the data ends: look ahead over the bytes item pers
        // data can hold.
        let rest = &self.bytes()[self.pos..];
        let extent = rest
            .iter()
            .take_while(|b| b.is_ascii_digit() || b"-+.eE|@&_".contains(b))
            .count();
        let data = &rest[..extent];
        if !data.contains(&b'@') {
            // One part alone: timers always hold `&`, items never do. Items and timers
            // with no `@` between them fail here, at the first item's `|`: say why.
            if data.contains(&b'&') {
                let timers =
                    self.pairs(|c| c.timer(BARE_TIMER), |id, data| PersTimer { id, data })?;
                return Ok(ItemPersData {
                    items: vec![],
                    timers,
                    at: false,
                });
            }
            let items = self.pairs(Cursor::decimal, |id, value| PersItem { id, value })?;
            return Ok(ItemPersData {
                items,
                timers: vec![],
                at: false,
            });
        }
        let items = self.pairs(Cursor::decimal, |id, value| PersItem { id, value })?;
        let at = self.pos;
        self.expect(b'@', ITEMS_NEXT)?;
        let timers = self.timers()?;
        if items.is_empty() && timers.is_empty() {
            return Err(ParseError::LoneAt {
                offset: at,
                expected: "persistent items before the `@` or timers after it",
            });
        }
        Ok(ItemPersData {
            items,
            timers,
            at: true,
        })
    }

    fn timers(&mut self) -> Result<Vec<PersTimer>, ParseError> {
        self.pairs(|c| c.timer(TIMER_FIELD), |id, data| PersTimer { id, data })
    }

    /// `id|value|id|value…`, or nothing when no ID starts here.
    fn pairs<T, P>(
        &mut self,
        value: fn(&mut Self) -> Result<T, ParseError>,
        pair: fn(Int, T) -> P,
    ) -> Result<Vec<P>, ParseError> {
        let mut out = Vec::new();
        if !matches!(self.peek(), Some(b'0'..=b'9' | b'-')) {
            return Ok(out);
        }
        loop {
            let id = self.int()?;
            self.expect(b'|', BAR)?;
            out.push(pair(id, value(self)?));
            if !self.eat(b'|') {
                return Ok(out);
            }
        }
    }

    /// A timer's twelve fields; `first` is what to say when the first `&` is missing.
    fn timer(&mut self, first: &'static str) -> Result<TimerData, ParseError> {
        let id = self.int()?;
        self.expect(b'&', first)?;
        let value = self.decimal()?;
        self.expect(b'&', TIMER_FIELD)?;
        let running = self.flag()?;
        self.expect(b'&', TIMER_FIELD)?;
        let time_mod = self.decimal()?;
        self.expect(b'&', TIMER_FIELD)?;
        let ignore_timewarp = self.flag()?;
        self.expect(b'&', TIMER_FIELD)?;
        let stop_time = self.decimal()?;
        self.expect(b'&', TIMER_FIELD)?;
        let stop_time_enabled = self.flag()?;
        self.expect(b'&', TIMER_FIELD)?;
        let target_group = self.int()?;
        self.expect(b'&', TIMER_FIELD)?;
        let runtime_id = self.int()?;
        self.expect(b'&', TIMER_FIELD)?;
        let control_id = self.int()?;
        self.expect(b'&', TIMER_FIELD)?;
        let paused = self.flag()?;
        self.expect(b'&', TIMER_FIELD)?;
        let remaps = self.remaps()?;
        Ok(TimerData {
            id,
            value,
            running,
            time_mod,
            ignore_timewarp,
            stop_time,
            stop_time_enabled,
            target_group,
            runtime_id,
            control_id,
            paused,
            remaps,
        })
    }

    /// `id_id_…_-runtimeID`, `-runtimeID`, or nothing.
    fn remaps(&mut self) -> Result<Option<Remaps>, ParseError> {
        let mut ids = Vec::new();
        match self.peek() {
            Some(b'-') => {}
            Some(b'0'..=b'9') => loop {
                ids.push(self.uint(REMAP_ID)?);
                self.expect(b'_', REMAP_NEXT)?;
                if self.peek() == Some(b'-') {
                    break;
                }
            },
            _ => return Ok(None),
        }
        self.expect(b'-', REMAP_ID)?;
        let trigger = self.uint("the trigger's runtime ID")?;
        Ok(Some(Remaps { ids, trigger }))
    }
}
