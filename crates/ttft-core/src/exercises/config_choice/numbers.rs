//! The checks of the numbers a learner fills in for a workload: the batch's
//! total tokens (exact), each time to finish (within 1%, close within 5%,
//! unit slips named) and each share of late first tokens.

use crate::exercises::config_choice::{NumberMistake, NumberVerdict, UnitSlip};
use crate::exercises::number::{parse_quantity, NumberError, Unit};
use ttft_latency::split::format_tenths;
use ttft_latency::time::group_thousands;

/// Whether `value` (in thousandths) is within `pct` percent of `num / den`:
/// |value × den − num × 1000| ≤ pct% of num × 1000, in integers. Values too
/// large to compare are not near.
fn near(value: i128, num: u128, den: u128, pct: u128) -> bool {
    let (Ok(num_i), Ok(den_i)) = (i128::try_from(num), i128::try_from(den)) else {
        return false;
    };
    let Some(diff) = value
        .checked_mul(den_i)
        .zip(num_i.checked_mul(1_000))
        .and_then(|(got, exact)| got.checked_sub(exact))
    else {
        return false;
    };
    num.checked_mul(1_000 * pct)
        .is_some_and(|limit| diff.unsigned_abs().saturating_mul(100) <= limit)
}

/// Checks a time to finish in seconds against `total / tps`.
pub fn check_seconds(text: Option<&str>, total: u64, tps: u64) -> NumberVerdict {
    let q = match text.map(parse_quantity) {
        None | Some(Err(NumberError::Empty)) => return NumberVerdict::Missing,
        Some(Err(error)) => return NumberVerdict::Unreadable(error),
        Some(Ok(q)) => q,
    };
    let expected = if tps == 0 {
        "never (no throughput)".to_owned()
    } else {
        format!(
            "{} s",
            group_thousands(
                ((2 * u128::from(total) + u128::from(tps)) / (2 * u128::from(tps))) as u64
            )
        )
    };
    if tps == 0 {
        return NumberVerdict::Wrong(NumberMistake::Value { expected });
    }
    let v = i128::from(q.number.thousandths);
    let (num, den) = (u128::from(total), u128::from(tps));
    let as_seconds = match q.unit {
        None | Some(Unit::Seconds) => Some(v),
        Some(Unit::Minutes) => Some(v * 60),
        Some(Unit::Hours) => Some(v * 3_600),
        Some(Unit::Milliseconds) => Some(v / 1_000),
        Some(_) => None,
    };
    let Some(secs) = as_seconds else {
        return NumberVerdict::Wrong(NumberMistake::Value { expected });
    };
    if near(secs, num, den, 1) {
        return NumberVerdict::Correct;
    }
    if near(secs, num, den, 5) {
        return NumberVerdict::Close(());
    }
    if matches!(q.unit, None | Some(Unit::Seconds)) {
        for (slip, scale_num, scale_den) in [
            (UnitSlip::Minutes, 60, 1),
            (UnitSlip::Hours, 3_600, 1),
            (UnitSlip::Milliseconds, 1, 1_000),
        ] {
            if near(v * scale_num / scale_den, num, den, 1) {
                return NumberVerdict::Wrong(NumberMistake::Unit { slip });
            }
        }
    }
    NumberVerdict::Wrong(NumberMistake::Value { expected })
}

/// Checks a share of late first tokens in percent against `tenths` (tenths
/// of a percent): right to the learner's own precision (a whole percent
/// within 0.5, a decimal within 0.05), close within one percentage point,
/// and a fraction (0.21 for 21%) named as a unit slip.
pub fn check_late(text: Option<&str>, tenths: i64) -> NumberVerdict {
    let q = match text.map(parse_quantity) {
        None | Some(Err(NumberError::Empty)) => return NumberVerdict::Missing,
        Some(Err(error)) => return NumberVerdict::Unreadable(error),
        Some(Ok(q)) => q,
    };
    let expected = format!("{}%", format_tenths(tenths));
    if !matches!(q.unit, None | Some(Unit::Percent)) {
        return NumberVerdict::Wrong(NumberMistake::Value { expected });
    }
    // Both sides in thousandths of a percent.
    let v = i128::from(q.number.thousandths);
    let exact = i128::from(tenths) * 100;
    let precision = if q.number.decimals == 0 { 500 } else { 50 };
    if (v - exact).abs() <= precision {
        return NumberVerdict::Correct;
    }
    if (v - exact).abs() <= 1_000 {
        return NumberVerdict::Close(());
    }
    if q.unit.is_none() && v <= 1_000 && exact != 0 && (v * 100 - exact).abs() <= precision.max(500)
    {
        return NumberVerdict::Wrong(NumberMistake::Unit {
            slip: UnitSlip::Fraction,
        });
    }
    NumberVerdict::Wrong(NumberMistake::Value { expected })
}

/// Checks a total token count, which must be exact.
pub fn check_total(text: Option<&str>, total: u64) -> NumberVerdict {
    let q = match text.map(parse_quantity) {
        None | Some(Err(NumberError::Empty)) => return NumberVerdict::Missing,
        Some(Err(error)) => return NumberVerdict::Unreadable(error),
        Some(Ok(q)) => q,
    };
    let v = i128::from(q.number.thousandths);
    let exact = i128::from(total) * 1_000;
    if !matches!(q.unit, None | Some(Unit::Tokens)) {
        return NumberVerdict::Wrong(NumberMistake::Value {
            expected: group_thousands(total),
        });
    }
    if v == exact {
        return NumberVerdict::Correct;
    }
    if v * 1_000_000 == exact {
        return NumberVerdict::Wrong(NumberMistake::Unit {
            slip: UnitSlip::Millions,
        });
    }
    if v * 1_000 == exact {
        return NumberVerdict::Wrong(NumberMistake::Unit {
            slip: UnitSlip::Thousands,
        });
    }
    NumberVerdict::Wrong(NumberMistake::Value {
        expected: group_thousands(total),
    })
}
