//! Numbers as they were spelled: a value plus whatever of its spelling the value alone
//! would lose (leading zeros, a minus sign on zero, a decimal's exact digits).

use core::fmt;
use core::str::FromStr;

/// A signed integer field (a seed, an attempt count, an item ID) with its spelling.
///
/// Equality is on the spelling: `7`, `007` and `Int::new(7).with_zeros(2)` are two
/// different values of this type, because a lossless codec must write each back as it
/// came. Use [`Int::value`] to compare numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Int {
    value: i64,
    zeros: u32,
    minus_zero: bool,
}

impl Int {
    /// `value`, written the plain way.
    pub const fn new(value: i64) -> Int {
        Int {
            value,
            zeros: 0,
            minus_zero: false,
        }
    }

    /// `-0`: zero with a minus sign, which the game's number reader takes as 0.
    pub const MINUS_ZERO: Int = Int {
        value: 0,
        zeros: 0,
        minus_zero: true,
    };

    /// The same number written with `zeros` extra leading zeros (`007` is 7 with 2).
    pub const fn with_zeros(self, zeros: u32) -> Int {
        Int { zeros, ..self }
    }

    /// The number.
    pub const fn value(self) -> i64 {
        self.value
    }

    /// How many zeros were written before the digits the number needs.
    pub const fn zeros(self) -> u32 {
        self.zeros
    }

    /// Whether this is a zero written with a minus sign (`-0`, `-00`).
    pub const fn is_minus_zero(self) -> bool {
        self.minus_zero
    }

    /// Builds the spelling the parser read: `minus` is whether a `-` was written.
    pub(crate) const fn spelled(minus: bool, value: i64, zeros: u32) -> Int {
        Int {
            value,
            zeros,
            minus_zero: minus && value == 0,
        }
    }
}

impl From<i64> for Int {
    fn from(value: i64) -> Int {
        Int::new(value)
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.value < 0 || self.minus_zero {
            f.write_str("-")?;
        }
        write_zeros(f, self.zeros)?;
        write!(f, "{}", self.value.unsigned_abs())
    }
}

/// An unsigned field: a half-step count, a checkpoint's step, a remap ID.
///
/// Like [`Int`], equality is on the spelling (`060` is not `60`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Uint {
    value: u32,
    zeros: u32,
}

impl Uint {
    /// `value`, written the plain way.
    pub const fn new(value: u32) -> Uint {
        Uint { value, zeros: 0 }
    }

    /// The same number written with `zeros` extra leading zeros.
    pub const fn with_zeros(self, zeros: u32) -> Uint {
        Uint { zeros, ..self }
    }

    /// The number.
    pub const fn value(self) -> u32 {
        self.value
    }

    /// How many zeros were written before the digits the number needs.
    pub const fn zeros(self) -> u32 {
        self.zeros
    }
}

impl From<u32> for Uint {
    fn from(value: u32) -> Uint {
        Uint::new(value)
    }
}

impl fmt::Display for Uint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_zeros(f, self.zeros)?;
        write!(f, "{}", self.value)
    }
}

fn write_zeros(f: &mut fmt::Formatter<'_>, zeros: u32) -> fmt::Result {
    for _ in 0..zeros {
        f.write_str("0")?;
    }
    Ok(())
}

/// A number that may have a fraction (a timer's value, a game version), kept as its text.
///
/// The spec gives these fields no type, and the game writes floats. Keeping the digits
/// instead of an `f64` is what makes the codec lossless: `1.10`, `1.1` and `1.1e0` stay
/// themselves. [`Decimal::to_f64`] gives the number.
///
/// The accepted spelling is `-?D+(.D+)?([eE][+-]?D+)?` with `D` an ASCII digit: what C's
/// `%g` and `%f` write for a finite number. `inf`, `nan`, `.5` and `5.` are refused.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decimal(Box<str>);

/// Why a `&str` is not a [`Decimal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecimalError;

impl fmt::Display for DecimalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a decimal number like 1, -0.5 or 1e-05")
    }
}

impl std::error::Error for DecimalError {}

impl Decimal {
    /// The number's text, as it is written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The number as an `f64` (the nearest one, as Rust's float parser rounds).
    pub fn to_f64(&self) -> f64 {
        // Every accepted spelling is one Rust's float parser reads too.
        self.0.parse().unwrap_or(f64::NAN)
    }

    /// An integer as a decimal (`22`).
    pub fn from_int(value: i64) -> Decimal {
        Decimal(value.to_string().into_boxed_str())
    }

    /// The bytes the decimal takes at the start of `s`, or where the spelling breaks and
    /// what it needed there.
    pub(crate) fn scan(s: &[u8]) -> Result<usize, (usize, &'static str)> {
        let digits = |from: usize| s[from..].iter().take_while(|b| b.is_ascii_digit()).count();
        let mut at = usize::from(s.first() == Some(&b'-'));
        let n = digits(at);
        if n == 0 {
            return Err((at, "a digit"));
        }
        at += n;
        if s.get(at) == Some(&b'.') {
            at += 1;
            let n = digits(at);
            if n == 0 {
                return Err((at, "a digit after `.`"));
            }
            at += n;
        }
        if matches!(s.get(at), Some(b'e' | b'E')) {
            at += 1;
            if matches!(s.get(at), Some(b'+' | b'-')) {
                at += 1;
            }
            let n = digits(at);
            if n == 0 {
                return Err((at, "a digit in the exponent"));
            }
            at += n;
        }
        Ok(at)
    }

    /// Wraps text [`Decimal::scan`] accepted whole.
    pub(crate) fn from_scanned(text: &str) -> Decimal {
        Decimal(text.into())
    }
}

impl FromStr for Decimal {
    type Err = DecimalError;

    fn from_str(s: &str) -> Result<Decimal, DecimalError> {
        match Decimal::scan(s.as_bytes()) {
            Ok(n) if n == s.len() => Ok(Decimal(s.into())),
            _ => Err(DecimalError),
        }
    }
}

impl From<i64> for Decimal {
    fn from(value: i64) -> Decimal {
        Decimal::from_int(value)
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_write_back() {
        let rows: &[(Int, &str)] = &[
            (Int::new(0), "0"),
            (Int::new(-7), "-7"),
            (Int::new(7).with_zeros(2), "007"),
            (Int::new(-7).with_zeros(1), "-07"),
            (Int::MINUS_ZERO, "-0"),
            (Int::MINUS_ZERO.with_zeros(1), "-00"),
            (Int::new(i64::MIN), "-9223372036854775808"),
        ];
        for (int, text) in rows {
            assert_eq!(int.to_string(), *text);
        }
        assert_eq!(Uint::new(60).with_zeros(1).to_string(), "060");
    }

    #[test]
    fn decimals_are_c_float_spellings() {
        for ok in ["0", "-0", "1.5", "007.50", "1e-05", "2.5E+10", "-3e7"] {
            assert_eq!(ok.parse::<Decimal>().map(|d| d.to_string()), Ok(ok.into()));
        }
        for bad in [
            "", "-", ".5", "5.", "1e", "1e+", "inf", "nan", "+1", "1.5.2", "0x1",
        ] {
            assert_eq!(bad.parse::<Decimal>(), Err(DecimalError), "{bad:?}");
        }
        assert_eq!(Decimal::from_int(-22).as_str(), "-22");
        assert_eq!("1.25".parse::<Decimal>().unwrap().to_f64(), 1.25);
    }
}
