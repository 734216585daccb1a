//! The lenient reader for numbers a learner types, shared by both
//! exercises ([`parse_quantity`]): "96.9", "96.9%", " 97 ", "4,000,000
//! tokens", "27.8 min", "4e6". It is exact (thousandths, no floats) and
//! returns a typed [`NumberError`] for anything else.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A decimal number as typed, kept exactly in thousandths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Number {
    /// The value times 1,000 (digits past the third decimal are rounded
    /// half up, once).
    pub thousandths: i64,
    /// Digits the learner wrote after the decimal point, at most 3.
    pub decimals: u8,
}

/// A unit written after a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Percent,
    Milliseconds,
    Seconds,
    Minutes,
    Hours,
    Tokens,
}

impl Unit {
    /// The unit's usual name.
    pub fn label(self) -> &'static str {
        match self {
            Unit::Percent => "percent",
            Unit::Milliseconds => "milliseconds",
            Unit::Seconds => "seconds",
            Unit::Minutes => "minutes",
            Unit::Hours => "hours",
            Unit::Tokens => "tokens",
        }
    }
}

/// A number with the unit written after it, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quantity {
    pub number: Number,
    pub unit: Option<Unit>,
}

/// Why typed text is not a number this course can read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum NumberError {
    /// Nothing was typed.
    Empty,
    /// The text is not a number.
    NotANumber { text: String },
    /// A number followed by a unit this exercise does not use.
    UnknownUnit { unit: String },
    /// Shares, times and counts here are never below zero.
    Negative,
    /// More than fifteen digits before the decimal point.
    TooLarge,
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumberError::Empty => f.write_str("nothing is filled in"),
            NumberError::NotANumber { text } => {
                write!(f, "\"{text}\" is not a number; write digits, like 96.9")
            }
            NumberError::UnknownUnit { unit } => {
                write!(f, "\"{unit}\" is not a unit this answer uses")
            }
            NumberError::Negative => f.write_str("this cannot be below zero"),
            NumberError::TooLarge => f.write_str("this number is too large to be an answer here"),
        }
    }
}

impl std::error::Error for NumberError {}

/// Longest text the reader looks at; anything longer is not a number.
const MAX_NUMBER_TEXT: usize = 64;
/// Fifteen digits before the point: far beyond any answer, and safe in i64
/// once scaled by 1,000.
const MAX_INTEGER: i128 = 999_999_999_999_999;

/// Reads a number with an optional unit, leniently: surrounding spaces,
/// thousands separators (`4,000,000`, `4 000 000`), a decimal comma
/// (`96,9`), a leading `+`, an exponent (`4e6`), and a unit after it
/// (`%`, `ms`, `s`, `min`, `h`, `tokens`).
pub fn parse_quantity(text: &str) -> Result<Quantity, NumberError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NumberError::Empty);
    }
    let not_a_number = || NumberError::NotANumber {
        text: t.chars().take(MAX_NUMBER_TEXT).collect(),
    };
    if t.len() > MAX_NUMBER_TEXT {
        return Err(not_a_number());
    }
    let at = t
        .find(|c: char| c.is_alphabetic() || c == '%')
        .unwrap_or(t.len());
    let (digits, rest) = t.split_at(at);
    if !digits.chars().any(|c| c.is_ascii_digit()) {
        return Err(not_a_number());
    }
    let mut rest = rest.trim();
    let mut exponent: i32 = 0;
    if let Some(after_e) = rest.strip_prefix(['e', 'E']) {
        let (negative, body) = match after_e.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, after_e.strip_prefix('+').unwrap_or(after_e)),
        };
        let end = body
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(body.len());
        if end > 0 {
            let e: i32 = body
                .get(..end)
                .and_then(|s| s.parse().ok())
                .ok_or(NumberError::TooLarge)?;
            exponent = if negative { -e } else { e };
            rest = body.get(end..).unwrap_or("").trim();
        }
    }
    // The units are ASCII words: a letter outside ASCII matches none of them.
    let unit = match rest.to_ascii_lowercase().as_str() {
        "" => None,
        "%" | "percent" | "pct" => Some(Unit::Percent),
        "ms" | "msec" | "millisecond" | "milliseconds" => Some(Unit::Milliseconds),
        "s" | "sec" | "secs" | "second" | "seconds" => Some(Unit::Seconds),
        "min" | "mins" | "minute" | "minutes" => Some(Unit::Minutes),
        "h" | "hr" | "hrs" | "hour" | "hours" => Some(Unit::Hours),
        "token" | "tokens" | "tok" => Some(Unit::Tokens),
        _ => {
            return Err(NumberError::UnknownUnit {
                unit: rest.chars().take(MAX_NUMBER_TEXT).collect(),
            })
        }
    };
    let mut body: String = digits
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect();
    if let Some(b) = body.strip_prefix('+') {
        body = b.to_owned();
    }
    let negative = body.starts_with('-');
    if negative {
        body.remove(0);
    }
    let dots = body.matches('.').count();
    let commas = body.matches(',').count();
    let normalised = if dots > 1 {
        return Err(not_a_number());
    } else if dots == 1 {
        body.replace(',', "")
    } else if commas == 1 && body.split(',').nth(1).is_some_and(|after| after.len() != 3) {
        body.replace(',', ".")
    } else {
        body.replace(',', "")
    };
    let (int_part, frac_part) = normalised
        .split_once('.')
        .unwrap_or((normalised.as_str(), ""));
    let all_digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if (int_part.is_empty() && frac_part.is_empty())
        || !all_digits(int_part)
        || !all_digits(frac_part)
    {
        return Err(not_a_number());
    }
    let int_trimmed = int_part.trim_start_matches('0');
    if int_trimmed.len() > 15 {
        return Err(NumberError::TooLarge);
    }
    let int_value: i128 = if int_trimmed.is_empty() {
        0
    } else {
        int_trimmed.parse().map_err(|_| not_a_number())?
    };
    let frac_bytes = frac_part.as_bytes();
    let digit = |i: usize| frac_bytes.get(i).map_or(0, |b| i128::from(b - b'0'));
    let mut value = int_value * 1_000 + digit(0) * 100 + digit(1) * 10 + digit(2);
    if digit(3) >= 5 {
        value += 1;
    }
    let mut decimals = frac_part.len().min(3) as i32;
    if exponent != 0 {
        if exponent > 15 {
            return Err(NumberError::TooLarge);
        }
        if exponent > 0 {
            value *= 10i128.pow(exponent as u32);
        } else {
            let div = 10i128.pow(exponent.unsigned_abs().min(30));
            value = (value * 2 + div) / (2 * div);
        }
        decimals = (decimals - exponent).clamp(0, 3);
    }
    if value > MAX_INTEGER * 1_000 {
        return Err(NumberError::TooLarge);
    }
    if negative && value != 0 {
        return Err(NumberError::Negative);
    }
    Ok(Quantity {
        number: Number {
            thousandths: value as i64,
            decimals: decimals as u8,
        },
        unit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercises::trace_exercise::ShareEntry;

    fn check_number(text: &str, expected: Result<(i64, u8, Option<Unit>), NumberError>) {
        let got = parse_quantity(text).map(|q| (q.number.thousandths, q.number.decimals, q.unit));
        assert_eq!(got, expected, "{text:?}");
    }

    #[test]
    fn numbers_are_read_leniently_and_exactly() {
        check_number("96.9", Ok((96_900, 1, None)));
        check_number("96.9%", Ok((96_900, 1, Some(Unit::Percent))));
        check_number(" 97 ", Ok((97_000, 0, None)));
        check_number("96,9", Ok((96_900, 1, None)));
        check_number("4,000,000", Ok((4_000_000_000, 0, None)));
        check_number(
            "4 000 000 tokens",
            Ok((4_000_000_000, 0, Some(Unit::Tokens))),
        );
        check_number("4e6", Ok((4_000_000_000, 0, None)));
        check_number("1.5E-2", Ok((15, 3, None)));
        check_number("1,666.67 s", Ok((1_666_670, 2, Some(Unit::Seconds))));
        check_number("27.8 min", Ok((27_800, 1, Some(Unit::Minutes))));
        check_number("0.96875", Ok((969, 3, None)));
        check_number(".5", Ok((500, 1, None)));
        check_number("+3", Ok((3_000, 0, None)));
        check_number("-0", Ok((0, 0, None)));
        check_number("", Err(NumberError::Empty));
        check_number("-3", Err(NumberError::Negative));
        check_number(
            "1.2.3",
            Err(NumberError::NotANumber {
                text: "1.2.3".into(),
            }),
        );
        check_number(
            "9 lives",
            Err(NumberError::UnknownUnit {
                unit: "lives".into(),
            }),
        );
        check_number("%", Err(NumberError::NotANumber { text: "%".into() }));
        check_number("1234567890123456", Err(NumberError::TooLarge));
        check_number("1e99", Err(NumberError::TooLarge));
        check_number("1e16", Err(NumberError::TooLarge));
        check_number("٣", Err(NumberError::NotANumber { text: "٣".into() }));
        assert_eq!(
            ShareEntry::Number(96.9).parse().map(|q| q.number),
            Ok(Number {
                thousandths: 96_900,
                decimals: 1
            })
        );
        assert!(ShareEntry::Number(f64::NAN).parse().is_err());
        assert_eq!(
            NumberError::NotANumber {
                text: "lots".into()
            }
            .to_string(),
            "\"lots\" is not a number; write digits, like 96.9"
        );
    }
}
