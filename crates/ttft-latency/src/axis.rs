//! Round numbers for a chart's axis: 1, 2 or 5 times a power of ten. The
//! import page's charts end their axes on one ([`nice_ceiling`]); this is
//! the one rule every chart of ttft-lab rounds by. Geometry (where a value
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
}
