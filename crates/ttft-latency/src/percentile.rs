//! Percentiles of latencies, under a convention that is always named.
//!
//! "p95" is not one number: tools disagree about how to pick it from a
//! sample. This module offers the two conventions a learner meets:
//!
//! - [`Convention::NearestRank`]: the smallest sample with at least p% of the
//!   samples at or below it (rank `ceil(p/100 * n)`), always an observed value.
//! - [`Convention::Linear`]: numpy's default `linear` method, which vLLM's
//!   benchmark and most benchmark tools use: position `(n - 1) * p / 100`
//!   between the sorted samples, interpolated between its two neighbours.
//!
//! Both are computed on integer microseconds. Nearest rank never rounds;
//! linear interpolation rounds once, half up, to the nearest microsecond.
//!
//! **The small-sample rule.** A percentile p describes a tail only when the
//! sample is large enough that some observations are expected above it: at
//! least `1 / (1 - p)` samples (p90: 10, p95: 20, p99: 100; p50: 2). Below
//! that, the value is decided by the slowest one or two requests, and the
//! result carries a [`SmallSample`] warning that says so in words ("with 4
//! requests, nearest-rank p95 is the maximum").
//!
//! This module does not decide which requests enter a sample (see `summary`)
//! and does not format tables.

use crate::time::Micros;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a percentile is picked from a sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Convention {
    /// The smallest observed value with at least p% of samples at or below it.
    NearestRank,
    /// numpy's default: linear interpolation between the two nearest ranks.
    #[default]
    Linear,
}

impl Convention {
    /// Plain name, as shown beside a percentile.
    pub fn label(self) -> &'static str {
        match self {
            Convention::NearestRank => "nearest-rank",
            Convention::Linear => "linear",
        }
    }
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Why no percentile could be computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum PercentileError {
    /// There are no samples, so there is no distribution to describe.
    NoSamples,
    /// Percentiles run from 0 to 100.
    OutOfRange { p: u8 },
}

impl fmt::Display for PercentileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PercentileError::NoSamples => f.write_str("no requests to compute a percentile from"),
            PercentileError::OutOfRange { p } => {
                write!(f, "p{p} is not a percentile: use 0 to 100")
            }
        }
    }
}

impl std::error::Error for PercentileError {}

/// Where a small sample puts a percentile, which is what the warning says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TailPosition {
    /// The value is the slowest request itself.
    Maximum,
    /// The value lies between the two slowest requests.
    BetweenSlowestTwo,
    /// Near the top of a sample smaller than the rule asks for.
    NearTop,
}

/// A warning that a percentile rests on too few samples to describe a tail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SmallSample {
    /// The percentile.
    pub p: u8,
    /// Samples it was computed from.
    pub count: usize,
    /// Samples the rule asks for: `ceil(100 / (100 - p))`.
    pub needed: u64,
    /// The convention used.
    pub convention: Convention,
    /// Where the value falls among the slowest requests.
    pub position: TailPosition,
}

impl fmt::Display for SmallSample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let SmallSample {
            p,
            count,
            needed,
            convention,
            position,
        } = *self;
        let requests = if count == 1 { "request" } else { "requests" };
        match position {
            TailPosition::Maximum => write!(
                f,
                "with {count} {requests}, {convention} p{p} is the maximum: it describes the single slowest \
                 request, not a tail (p{p} needs at least {needed} requests)"
            ),
            TailPosition::BetweenSlowestTwo => write!(
                f,
                "with {count} {requests}, {convention} p{p} lies between the two slowest requests, so those two \
                 decide it (p{p} needs at least {needed} requests)"
            ),
            TailPosition::NearTop => write!(
                f,
                "with {count} {requests}, fewer than one request is expected above {convention} p{p}, so it \
                 says little about the tail (p{p} needs at least {needed} requests)"
            ),
        }
    }
}

/// One percentile of a sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PercentileValue {
    /// The percentile, 0 to 100.
    pub p: u8,
    /// Its value.
    pub value: Micros,
    /// Set when the sample is too small for this percentile to mean much.
    pub warning: Option<SmallSample>,
}

/// The standard percentiles of one sample, with the convention and size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Percentiles {
    /// How the values were picked.
    pub convention: Convention,
    /// How many samples they were computed from.
    pub count: usize,
    /// The fastest sample.
    pub min: Micros,
    /// The slowest sample.
    pub max: Micros,
    /// Median.
    pub p50: PercentileValue,
    /// 90th percentile.
    pub p90: PercentileValue,
    /// 95th percentile.
    pub p95: PercentileValue,
    /// 99th percentile.
    pub p99: PercentileValue,
}

impl Percentiles {
    /// The four values in order p50, p90, p95, p99.
    pub fn values(&self) -> [PercentileValue; 4] {
        [self.p50, self.p90, self.p95, self.p99]
    }

    /// The warnings of the percentiles that have one, lowest p first.
    pub fn warnings(&self) -> Vec<SmallSample> {
        self.values().iter().filter_map(|v| v.warning).collect()
    }
}

/// Samples the small-sample rule asks for at percentile `p`:
/// `ceil(100 / (100 - p))`, so that at least one sample is expected above it.
/// For p100 no sample size is enough; that gives `u64::MAX`.
pub fn samples_needed(p: u8) -> u64 {
    let above = 100u64.saturating_sub(u64::from(p));
    if above == 0 {
        return u64::MAX;
    }
    100u64.div_ceil(above)
}

/// One percentile of `samples` (in any order) under `convention`.
pub fn percentile(
    samples: &[Micros],
    p: u8,
    convention: Convention,
) -> Result<PercentileValue, PercentileError> {
    let mut sorted = samples.to_vec();
    crate::sort::sort_micros(&mut sorted);
    percentile_of_sorted(&sorted, p, convention)
}

/// p50, p90, p95 and p99 of `samples` (in any order), sorting once.
pub fn percentiles(
    samples: &[Micros],
    convention: Convention,
) -> Result<Percentiles, PercentileError> {
    let mut sorted = samples.to_vec();
    crate::sort::sort_micros(&mut sorted);
    let (Some(&min), Some(&max)) = (sorted.first(), sorted.last()) else {
        return Err(PercentileError::NoSamples);
    };
    let at = |p: u8| percentile_of_sorted(&sorted, p, convention);
    Ok(Percentiles {
        convention,
        count: sorted.len(),
        min,
        max,
        p50: at(50)?,
        p90: at(90)?,
        p95: at(95)?,
        p99: at(99)?,
    })
}

/// One percentile of samples already sorted in ascending order. Unsorted
/// input gives a value without meaning but never a panic.
pub fn percentile_of_sorted(
    sorted: &[Micros],
    p: u8,
    convention: Convention,
) -> Result<PercentileValue, PercentileError> {
    if p > 100 {
        return Err(PercentileError::OutOfRange { p });
    }
    let n = sorted.len();
    if n == 0 {
        return Err(PercentileError::NoSamples);
    }
    let n128 = n as u128;
    let p128 = u128::from(p);
    // `index` is the 0-based rank of the value (the lower neighbour for
    // linear); `frac` is how far towards the next one, in hundredths.
    let (value, index, frac) = match convention {
        Convention::NearestRank => {
            let rank = (p128 * n128).div_ceil(100).max(1);
            let index = (rank - 1) as usize;
            (sorted.get(index).copied().unwrap_or(Micros::ZERO), index, 0)
        }
        Convention::Linear => {
            let h = (n128 - 1) * p128;
            let index = (h / 100) as usize;
            let frac = (h % 100) as i128;
            let lo = sorted.get(index).copied().unwrap_or(Micros::ZERO);
            let value = match sorted.get(index + 1) {
                Some(hi) if frac > 0 => {
                    let gap = hi.0 as i128 - lo.0 as i128;
                    // Round half up, once. The gap is never negative on sorted
                    // input, and the result lies between lo and hi, so it fits.
                    let step = (gap * frac * 2 + 100).div_euclid(200);
                    Micros((lo.0 as i128 + step).clamp(i64::MIN as i128, i64::MAX as i128) as i64)
                }
                _ => lo,
            };
            (value, index, frac)
        }
    };
    let needed = samples_needed(p);
    let warning = ((n as u64) < needed).then(|| {
        let last = n - 1;
        let position = if index >= last {
            TailPosition::Maximum
        } else if convention == Convention::Linear && index + 1 == last && frac > 0 {
            TailPosition::BetweenSlowestTwo
        } else {
            TailPosition::NearTop
        };
        SmallSample {
            p,
            count: n,
            needed,
            convention,
            position,
        }
    });
    Ok(PercentileValue { p, value, warning })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(values: &[i64]) -> Vec<Micros> {
        values.iter().map(|&v| Micros::from_ms(v)).collect()
    }

    /// Checks percentile `p` of `samples_ms` under `convention`: its value in
    /// microseconds and its warning text (empty when there is none).
    fn check(samples_ms: &[i64], p: u8, convention: Convention, value_us: i64, warning: &str) {
        let got = percentile(&ms(samples_ms), p, convention).expect("non-empty sample");
        assert_eq!(
            got.value,
            Micros(value_us),
            "p{p} {convention} of {samples_ms:?}"
        );
        let text = got.warning.map(|w| w.to_string()).unwrap_or_default();
        assert_eq!(text, warning, "p{p} {convention} of {samples_ms:?}");
    }

    #[test]
    fn the_four_hint_requests() {
        // TTFTs of H1..H4, deliberately out of order.
        let h = [2_400, 100, 1_600, 1_900];
        check(&h, 50, Convention::NearestRank, 1_600_000, "");
        check(&h, 50, Convention::Linear, 1_750_000, "");
        check(
            &h,
            95,
            Convention::NearestRank,
            2_400_000,
            "with 4 requests, nearest-rank p95 is the maximum: it describes the single slowest request, \
             not a tail (p95 needs at least 20 requests)",
        );
        // numpy: np.percentile([100,1600,1900,2400], 95) == 2325.0
        check(
            &h,
            95,
            Convention::Linear,
            2_325_000,
            "with 4 requests, linear p95 lies between the two slowest requests, so those two decide it \
             (p95 needs at least 20 requests)",
        );
    }

    #[test]
    fn linear_matches_numpy_and_rounds_once() {
        // np.percentile([1,2,3,4,5,6,7,8,9,10], 90) == 9.1 (ms here)
        let ten: Vec<i64> = (1..=10).collect();
        check(&ten, 90, Convention::Linear, 9_100, "");
        check(&ten, 90, Convention::NearestRank, 9_000, "");
        // np.percentile([0, 1], 50) on microseconds: 0.5 rounds half up to 1.
        let got = percentile(&[Micros(0), Micros(1)], 50, Convention::Linear).unwrap();
        assert_eq!(got.value, Micros(1));
        let got = percentile(&[Micros(0), Micros(3)], 99, Convention::Linear).unwrap();
        assert_eq!(got.value, Micros(3), "2.97 rounds to 3");
    }

    #[test]
    fn small_sample_rule() {
        assert_eq!(samples_needed(50), 2);
        assert_eq!(samples_needed(90), 10);
        assert_eq!(samples_needed(95), 20);
        assert_eq!(samples_needed(99), 100);
        assert_eq!(samples_needed(100), u64::MAX);
        assert_eq!(samples_needed(0), 1);
        let twenty: Vec<i64> = (1..=20).collect();
        check(&twenty, 95, Convention::NearestRank, 19_000, "");
        let nineteen: Vec<i64> = (1..=19).collect();
        let got = percentile(&ms(&nineteen), 95, Convention::NearestRank).unwrap();
        assert_eq!(got.warning.map(|w| w.position), Some(TailPosition::Maximum));
        check(&[7], 50, Convention::Linear, 7_000, "with 1 request, linear p50 is the maximum: it describes the single slowest request, not a tail (p50 needs at least 2 requests)");
        let five: Vec<i64> = (1..=5).collect();
        let got = percentile(&ms(&five), 90, Convention::NearestRank).unwrap();
        assert_eq!(got.warning.map(|w| w.position), Some(TailPosition::Maximum));
        let got = percentile(
            &ms(&(1..=9).collect::<Vec<_>>()),
            90,
            Convention::NearestRank,
        )
        .unwrap();
        assert_eq!(got.value, Micros::from_ms(9));
    }

    #[test]
    fn empty_and_out_of_range_are_typed() {
        assert_eq!(
            percentile(&[], 95, Convention::Linear),
            Err(PercentileError::NoSamples)
        );
        assert_eq!(
            percentiles(&[], Convention::NearestRank),
            Err(PercentileError::NoSamples)
        );
        assert_eq!(
            percentile(&[Micros(1)], 101, Convention::Linear),
            Err(PercentileError::OutOfRange { p: 101 })
        );
        assert_eq!(
            PercentileError::NoSamples.to_string(),
            "no requests to compute a percentile from"
        );
    }

    #[test]
    fn extremes_do_not_overflow() {
        let s = [Micros(i64::MIN), Micros(i64::MAX)];
        for p in 0..=100 {
            for c in [Convention::Linear, Convention::NearestRank] {
                let v = percentile(&s, p, c).unwrap().value;
                assert!(v >= s[0] && v <= s[1]);
            }
        }
        let all = percentiles(&s, Convention::Linear).unwrap();
        assert_eq!(all.min, Micros(i64::MIN));
        assert_eq!(all.max, Micros(i64::MAX));
        assert_eq!(all.count, 2);
        assert_eq!(
            all.warnings().len(),
            3,
            "p90, p95 and p99 rest on two requests"
        );
    }
}
