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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
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

    /// Nanoseconds (GenAI-Perf, AIPerf), rounded to the nearest microsecond,
    /// saturating at the ends of the range. Readers of file values use
    /// [`Micros::checked_from_nanos`] so that a value that does not fit is
    /// refused, not clamped.
    pub fn from_nanos(ns: i128) -> Micros {
        let rounded = if ns >= 0 { ns.saturating_add(500) / 1_000 } else { ns.saturating_sub(500) / 1_000 };
        Micros(rounded.clamp(i64::MIN as i128, i64::MAX as i128) as i64)
    }

    /// Nanoseconds rounded to the nearest microsecond, or `None` when the
    /// result does not fit (a timestamp near 2^127 in a hostile file).
    pub fn checked_from_nanos(ns: i128) -> Option<Micros> {
        let rounded = if ns >= 0 { ns.checked_add(500)? / 1_000 } else { ns.checked_sub(500)? / 1_000 };
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
        assert_eq!(Micros::from_nanos(1_499), Micros(1));
        assert_eq!(Micros::from_nanos(1_500), Micros(2));
        assert_eq!(Micros::from_nanos(-1_500), Micros(-2));
        assert_eq!(Micros::from_secs_f64(f64::NAN), None);
        assert_eq!(Micros::from_secs_f64(1e300), None);
    }

    #[test]
    fn nanoseconds_that_do_not_fit() {
        assert_eq!(Micros::from_nanos(i128::MAX), Micros(i64::MAX));
        assert_eq!(Micros::from_nanos(i128::MIN), Micros(i64::MIN));
        assert_eq!(Micros::checked_from_nanos(i128::MAX), None);
        assert_eq!(Micros::checked_from_nanos(i128::MIN), None);
        assert_eq!(Micros::checked_from_nanos(1 << 100), None);
        assert_eq!(Micros::checked_from_nanos(1_759_522_419_159_192_408), Some(Micros(1_759_522_419_159_192)));
        assert_eq!(Micros::checked_from_nanos(-1_500), Some(Micros(-2)));
    }

    #[test]
    fn arithmetic_saturates() {
        assert_eq!(Micros(i64::MAX) + Micros(1), Micros(i64::MAX));
        assert_eq!(Micros(i64::MIN) - Micros(1), Micros(i64::MIN));
        assert_eq!(Micros(i64::MAX).checked_add(Micros(1)), None);
    }
}
