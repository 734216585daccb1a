//! Round numbers for a chart's axis: 1, 2 or 5 times a power of ten. The
//! import page's charts end their axes on one ([`nice_ceiling`]); the trace
//! exercise's chart steps its ticks by one ([`nice_step`]); this is the one
//! rule every chart of ttft-lab rounds by. Geometry (where a value
//! falls on the page) stays with the chart that draws it.

use crate::time::Micros;

/// A round number at or above `t`: 1, 2 or 5 times a power of ten
/// microseconds. Zero and negative values give one millisecond.
pub fn nice_ceiling(t: Micros) -> Micros {
    if t.0 <= 0 {
        return Micros::from_ms(1);
    }
    Micros(nice_number(t.0))
}

/// A round number at or above `n` (1, 2 or 5 times a power of ten), for a
/// chart's axis; 1 for anything below 1.
pub fn nice_number(n: i64) -> i64 {
    let mut step: i64 = 1;
    loop {
        for m in [1i64, 2, 5] {
            let v = step.saturating_mul(m);
            if v >= n {
                return v;
            }
        }
        if step > i64::MAX / 10 {
            return i64::MAX;
        }
        step *= 10;
    }
}

/// The smallest round number `step` that divides `0..=max` into at most
/// `most` whole steps (`max / step <= most`), for ticks along an axis.
pub fn nice_step(max: i64, most: i64) -> i64 {
    let most = most.max(1);
    let mut step = 1;
    loop {
        step = nice_number(step);
        if max / step <= most || step == i64::MAX {
            return step;
        }
        step += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_numbers() {
        assert_eq!(nice_ceiling(Micros(241_001)), Micros(500_000));
        assert_eq!(nice_ceiling(Micros(200_000)), Micros(200_000));
        assert_eq!(nice_ceiling(Micros(-5)), Micros::from_ms(1));
        assert_eq!(nice_number(18_000), 20_000);
        assert_eq!(nice_number(0), 1);
        assert_eq!(nice_number(i64::MAX), i64::MAX);
    }

    #[test]
    fn steps() {
        // The trace exercise's built-in requests (2,400 ms) and the authored
        // example's (4,000 ms): the steps it always had.
        assert_eq!(nice_step(2_400, 6), 500);
        assert_eq!(nice_step(4_000, 6), 1_000);
        assert_eq!(nice_step(600, 6), 100);
        // Where the old list had 250 and a cap of 100,000, round numbers
        // now go on: 1,500 ms steps by 500, a million by 200,000.
        assert_eq!(nice_step(1_500, 6), 500);
        assert_eq!(nice_step(1_000_000, 6), 200_000);
        assert_eq!(nice_step(0, 6), 1);
        assert_eq!(nice_step(-5, 0), 1);
        assert_eq!(nice_step(i64::MAX, 6), 2_000_000_000_000_000_000);
    }
}
