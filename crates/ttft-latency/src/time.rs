//! Integer time for every latency figure in ttft-lab.
//!
//! The course is about being careful with clocks and units, so the core never
//! stores a latency as a bare `f64` whose unit is guessed. [`Micros`] is a
//! signed count of whole microseconds: instants on one monotonic clock and the
//! durations between them use the same type, and sums are exact. Conversions
//! from the seconds or nanoseconds that real tools write round once, at the
//! edge, and say so in their names.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, Sub};

/// A time on one monotonic clock, or a duration, in whole microseconds.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Micros(pub i64);

impl Micros {
    /// Zero microseconds.
    pub const ZERO: Micros = Micros(0);

    /// Whole milliseconds, saturating at the ends of the range.
    pub const fn from_ms(ms: i64) -> Micros {
        Micros(ms.saturating_mul(1_000))
    }

    /// Seconds as a float (what vLLM, LLMPerf and OTel write), rounded to the
    /// nearest microsecond. Not-a-number and infinities give `None`.
    pub fn from_secs_f64(secs: f64) -> Option<Micros> {
        Self::from_f64_scaled(secs, 1_000_000.0)
    }

    /// Milliseconds as a float (GuideLLM, AIPerf), rounded to the nearest
    /// microsecond. Not-a-number and infinities give `None`.
    pub fn from_ms_f64(ms: f64) -> Option<Micros> {
        Self::from_f64_scaled(ms, 1_000.0)
    }

    /// Nanoseconds (GenAI-Perf, AIPerf) rounded to the nearest microsecond,
    /// or `None` when the result does not fit (a timestamp near 2^127 in a
    /// hostile file): a value that does not fit is refused, not clamped.
    pub fn checked_from_nanos(ns: i128) -> Option<Micros> {
        let rounded = if ns >= 0 {
            ns.checked_add(500)? / 1_000
        } else {
            ns.checked_sub(500)? / 1_000
        };
        i64::try_from(rounded).ok().map(Micros)
    }

    fn from_f64_scaled(value: f64, scale: f64) -> Option<Micros> {
        if !value.is_finite() {
            return None;
        }
        let us = (value * scale).round();
        if us >= i64::MAX as f64 || us <= i64::MIN as f64 {
            return None;
        }
        Some(Micros(us as i64))
    }

    /// The value in milliseconds, for display and charts only.
    pub fn as_ms_f64(self) -> f64 {
        self.0 as f64 / 1_000.0
    }

    /// The value in seconds, for display and rates only.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1_000_000.0
    }

    /// True when below zero.
    pub const fn is_negative(self) -> bool {
        self.0 < 0
    }

    /// Addition that reports overflow instead of wrapping or panicking.
    pub fn checked_add(self, other: Micros) -> Option<Micros> {
        self.0.checked_add(other.0).map(Micros)
    }

    /// Subtraction that reports overflow instead of wrapping or panicking.
    pub fn checked_sub(self, other: Micros) -> Option<Micros> {
        self.0.checked_sub(other.0).map(Micros)
    }
}

/// Why decimal text is not a number of milliseconds that fits a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MsError {
    /// Not a decimal number (empty, letters, `inf`, `NaN`).
    NotANumber,
    /// A number, but beyond what a time can hold (about 292,000 years).
    TooLarge,
}

/// Reads decimal milliseconds as typed or written in a file (`1500`,
/// `0.25`, `-3`, `1.2e3`) straight into whole microseconds, rounding half
/// away from zero once, with no float in between. The one reader of
/// millisecond text in the workspace: the importer's CSV cells and the
/// import page's target box both use it.
pub fn parse_ms(text: &str) -> Result<Micros, MsError> {
    let t = text.trim();
    let (negative, rest) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (number, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (
            &rest[..at],
            rest[at + 1..]
                .parse::<i32>()
                .map_err(|_| MsError::NotANumber)?,
        ),
        None => (rest, 0),
    };
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    if (whole.is_empty() && frac.is_empty())
        || !whole
            .bytes()
            .chain(frac.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return Err(MsError::NotANumber);
    }
    // The digits as one integer, and the power of ten that makes them microseconds.
    let digits = format!("{whole}{frac}");
    let digits = digits.trim_start_matches('0');
    let power = i64::from(exponent) + 3 - frac.len() as i64;
    if digits.is_empty() {
        return Ok(Micros::ZERO);
    }
    if digits.len() as i64 + power > 20 {
        return Err(MsError::TooLarge);
    }
    let value: i128 = if power >= 0 {
        let mantissa: i128 = digits.parse().map_err(|_| MsError::TooLarge)?;
        mantissa
            .checked_mul(10i128.checked_pow(power as u32).ok_or(MsError::TooLarge)?)
            .ok_or(MsError::TooLarge)?
    } else {
        // Keep one digit past the microsecond to round with; digits beyond it cannot change the result.
        let keep = (digits.len() as i64 + power + 1).max(0) as usize;
        let kept = digits.get(..keep).unwrap_or(digits);
        let tenths: i128 = if kept.is_empty() {
            0
        } else {
            kept.parse().map_err(|_| MsError::TooLarge)?
        };
        let tenths = if keep == 0 { 0 } else { tenths };
        (tenths + 5) / 10
    };
    let value = if negative { -value } else { value };
    i64::try_from(value)
        .map(Micros)
        .map_err(|_| MsError::TooLarge)
}

/// Saturating, so that no input can make the core panic in a debug build.
impl Add for Micros {
    type Output = Micros;
    fn add(self, rhs: Micros) -> Micros {
        Micros(self.0.saturating_add(rhs.0))
    }
}

/// Saturating, so that no input can make the core panic in a debug build.
impl Sub for Micros {
    type Output = Micros;
    fn sub(self, rhs: Micros) -> Micros {
        Micros(self.0.saturating_sub(rhs.0))
    }
}

/// Milliseconds with a thousands separator, and up to three decimals only
/// when the value is not whole: `12,360 ms`, `0.5 ms`.
impl fmt::Display for Micros {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms", format_ms(*self))
    }
}

/// The number part of [`Micros`]'s display, without the unit: `12,360`.
pub fn format_ms(t: Micros) -> String {
    let neg = t.0 < 0;
    let abs = t.0.unsigned_abs();
    let whole = abs / 1_000;
    let frac = abs % 1_000;
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    out.push_str(&group_thousands(whole));
    if frac != 0 {
        let digits = format!("{frac:03}");
        out.push('.');
        out.push_str(digits.trim_end_matches('0'));
    }
    out
}

/// A count (of requests, steps, tokens) as the page writes every count:
/// `1,000`.
pub fn group_count(n: usize) -> String {
    group_thousands(n as u64)
}

/// `1234567` as `1,234,567`.
pub fn group_thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_display(us: i64, expected: &str) {
        assert_eq!(Micros(us).to_string(), expected);
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(group_count(0), "0");
        assert_eq!(group_count(999), "999");
        assert_eq!(group_count(1_000), "1,000");
        assert_eq!(group_count(1_234_567), "1,234,567");
        assert_eq!(group_thousands(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn display() {
        check_display(0, "0 ms");
        check_display(360_000, "360 ms");
        check_display(12_360_000, "12,360 ms");
        check_display(500, "0.5 ms");
        check_display(1_234_567, "1,234.567 ms");
        check_display(-40_000, "-40 ms");
        check_display(i64::MIN, "-9,223,372,036,854,775.808 ms");
    }

    #[test]
    fn conversions_round_once() {
        assert_eq!(Micros::from_secs_f64(0.0123456), Some(Micros(12_346)));
        assert_eq!(Micros::from_ms_f64(1.0004), Some(Micros(1_000)));
        assert_eq!(Micros::checked_from_nanos(1_499), Some(Micros(1)));
        assert_eq!(Micros::checked_from_nanos(1_500), Some(Micros(2)));
        assert_eq!(Micros::from_secs_f64(f64::NAN), None);
        assert_eq!(Micros::from_secs_f64(1e300), None);
    }

    #[test]
    fn milliseconds_from_text_stay_integer() {
        let ok = |t: &str, us: i64| assert_eq!(parse_ms(t), Ok(Micros(us)), "{t}");
        ok("1500", 1_500_000);
        ok(" 0.25 ", 250);
        ok("0.0005", 1);
        ok("0.0004999", 0);
        ok("-3", -3_000);
        ok("-0.0005", -1);
        ok("1.2e3", 1_200_000);
        ok("5e-4", 1);
        ok(".5", 500);
        ok("2.", 2_000);
        ok("0.1234567890123456789", 123);
        ok("9e15", 9_000_000_000_000_000_000);
        ok("0", 0);
        assert_eq!(parse_ms("1e16"), Err(MsError::TooLarge));
        assert_eq!(
            parse_ms("99999999999999999999999999"),
            Err(MsError::TooLarge)
        );
        assert_eq!(parse_ms("1e999999"), Err(MsError::TooLarge));
        for bad in [
            "", "-", ".", "inf", "NaN", "1,5", "1e", "e3", "0x10", "1.2.3",
        ] {
            assert_eq!(parse_ms(bad), Err(MsError::NotANumber), "{bad}");
        }
    }

    #[test]
    fn nanoseconds_that_do_not_fit() {
        assert_eq!(Micros::checked_from_nanos(i128::MAX), None);
        assert_eq!(Micros::checked_from_nanos(i128::MIN), None);
        assert_eq!(Micros::checked_from_nanos(1 << 100), None);
        assert_eq!(
            Micros::checked_from_nanos(1_759_522_419_159_192_408),
            Some(Micros(1_759_522_419_159_192))
        );
        assert_eq!(Micros::checked_from_nanos(-1_500), Some(Micros(-2)));
    }

    #[test]
    fn arithmetic_saturates() {
        assert_eq!(Micros(i64::MAX) + Micros(1), Micros(i64::MAX));
        assert_eq!(Micros(i64::MIN) - Micros(1), Micros(i64::MIN));
        assert_eq!(Micros(i64::MAX).checked_add(Micros(1)), None);
    }
}
