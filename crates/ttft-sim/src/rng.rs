//! A small, self-contained random number generator and the samplers the
//! workload needs, so that a run is the same for the same seed on every
//! build, natively and in the browser.
//!
//! - [`SplitMix64`] (Steele, Lea and Flood, "Fast splittable pseudorandom
//!   number generators", OOPSLA 2014; the constants of Vigna's reference C
//!   code) turns one 64-bit seed into the 256-bit state of the main
//!   generator, and derives one independent stream per purpose
//!   ([`Rng::stream`]).
//! - [`Rng`] is xoshiro256** 1.0 (Blackman and Vigna, "Scrambled linear
//!   pseudorandom number generators", ACM TOMS 2021), checked below against
//!   the reference implementation's outputs.
//!
//! Samplers, each documented where it is defined: uniform on [0, 1) and on
//! (0, 1], exponential (inversion), normal (Marsaglia's polar method),
//! gamma (Marsaglia and Tsang 2000, with the `U^(1/k)` boost below shape 1),
//! log-normal (`median * exp(sigma * N)`).
//!
//! **Same bits on every build.** The samplers need a logarithm and an
//! exponential. The platform's `ln` and `exp` are not specified to the last
//! bit and differ between a native libm and the one compiled into the wasm,
//! which would make a URL give a slightly different run natively than in the
//! browser. So [`ln`] and [`exp`] here use only `+ - * /` and `sqrt`, which
//! IEEE 754 rounds exactly on every platform. They are accurate to a couple
//! of units in the last place (tested against the standard library).

/// SplitMix64: a 64-bit state advanced by a Weyl sequence and mixed.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next output.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// xoshiro256**: 256 bits of state, period 2^256 - 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

/// 2^-53, the spacing of the doubles in [0.5, 1).
const UNIT: f64 = 1.0 / (1u64 << 53) as f64;

impl Rng {
    /// A generator whose state is four SplitMix64 outputs of `seed`, as
    /// the xoshiro authors recommend.
    pub fn new(seed: u64) -> Rng {
        let mut sm = SplitMix64(seed);
        let mut s = [sm.next_u64(), sm.next_u64(), sm.next_u64(), sm.next_u64()];
        if s == [0; 4] {
            // The one state xoshiro cannot leave; SplitMix64 never gives
            // four zeros in a row, but the guard costs nothing.
            s[0] = 1;
        }
        Rng { s }
    }

    /// An independent stream for one purpose (arrivals, lengths, classes):
    /// the seed and the stream number are mixed by SplitMix64 first, so
    /// streams of nearby seeds do not overlap in any way that matters here.
    pub fn stream(seed: u64, stream: u64) -> Rng {
        let mut sm = SplitMix64(seed ^ stream.wrapping_mul(0xd1b5_4a32_d192_ed03));
        Rng::new(sm.next_u64())
    }

    /// The state as four words, as in the reference implementation.
    pub fn from_state(s: [u64; 4]) -> Rng {
        Rng { s }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform on [0, 1): the top 53 bits as a fraction.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * UNIT
    }

    /// Uniform on (0, 1], for logarithms that must not see zero.
    pub fn uniform_open(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 * UNIT
    }

    /// Exponential with mean 1, by inversion: `-ln(U)`, U on (0, 1].
    pub fn exponential(&mut self) -> f64 {
        -ln(self.uniform_open())
    }

    /// Standard normal by Marsaglia's polar method: draw (u, v) uniform in
    /// the square (-1, 1)^2 until s = u^2 + v^2 lies in (0, 1), then
    /// `u * sqrt(-2 ln(s) / s)` is normal. The second normal the method
    /// gives is dropped, so the state is only the four words.
    pub fn normal(&mut self) -> f64 {
        loop {
            let u = 2.0 * self.uniform() - 1.0;
            let v = 2.0 * self.uniform() - 1.0;
            let s = u * u + v * v;
            if s > 0.0 && s < 1.0 {
                return u * (-2.0 * ln(s) / s).sqrt();
            }
        }
    }

    /// Gamma with shape `k` and scale 1 (mean `k`, variance `k`), by
    /// Marsaglia and Tsang, "A simple method for generating gamma
    /// variables" (ACM TOMS 26(3), 2000): with d = k - 1/3 and
    /// c = 1/sqrt(9d), take x normal and v = (1 + cx)^3; accept d*v when
    /// u < 1 - 0.0331 x^4 (the squeeze) or ln u < x^2/2 + d(1 - v + ln v).
    /// For k < 1 it returns Gamma(k + 1) * U^(1/k), the paper's boost.
    /// A shape that is not positive and finite gives 0.
    pub fn gamma(&mut self, k: f64) -> f64 {
        if !(k > 0.0 && k.is_finite()) {
            return 0.0;
        }
        if k < 1.0 {
            let g = self.gamma(k + 1.0);
            return g * exp(ln(self.uniform_open()) / k);
        }
        let d = k - 1.0 / 3.0;
        let c = 1.0 / (9.0 * d).sqrt();
        loop {
            let x = self.normal();
            let t = 1.0 + c * x;
            if t <= 0.0 {
                continue;
            }
            let v = t * t * t;
            let u = self.uniform_open();
            let x2 = x * x;
            if u < 1.0 - 0.0331 * x2 * x2 || ln(u) < 0.5 * x2 + d * (1.0 - v + ln(v)) {
                return d * v;
            }
        }
    }

    /// Log-normal with the given median and spread: `median * exp(sigma * N)`,
    /// N standard normal. Its mean is `median * exp(sigma^2 / 2)`.
    pub fn log_normal(&mut self, median: f64, sigma: f64) -> f64 {
        median * exp(sigma * self.normal())
    }
}

/// ln 2 with its low 32 bits cleared (fdlibm's `ln2_hi`), so that k times
/// it is exact for the k these functions meet.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
/// ln 2 - LN2_HI (fdlibm's `ln2_lo`).
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
const LN2: f64 = std::f64::consts::LN_2;

/// 1/25, 1/23, ..., 1/3, 1: the odd series of atanh, highest term first.
const ATANH_SERIES: [f64; 13] = [
    1.0 / 25.0,
    1.0 / 23.0,
    1.0 / 21.0,
    1.0 / 19.0,
    1.0 / 17.0,
    1.0 / 15.0,
    1.0 / 13.0,
    1.0 / 11.0,
    1.0 / 9.0,
    1.0 / 7.0,
    1.0 / 5.0,
    1.0 / 3.0,
    1.0,
];

/// 1/14!, 1/13!, ..., 1/1!, 1: the Taylor series of e^r, highest first.
const EXP_SERIES: [f64; 15] = [
    1.0 / 87_178_291_200.0,
    1.0 / 6_227_020_800.0,
    1.0 / 479_001_600.0,
    1.0 / 39_916_800.0,
    1.0 / 3_628_800.0,
    1.0 / 362_880.0,
    1.0 / 40_320.0,
    1.0 / 5_040.0,
    1.0 / 720.0,
    1.0 / 120.0,
    1.0 / 24.0,
    1.0 / 6.0,
    1.0 / 2.0,
    1.0,
    1.0,
];

/// Natural logarithm from `+ - * /` only (see the module docs): x = m * 2^e
/// with m in [sqrt(1/2), sqrt(2)), then ln m = 2 atanh(s), s = (m-1)/(m+1),
/// |s| < 0.172, by its odd series to s^25. Zero gives -inf, a negative
/// number or not-a-number gives NaN, +inf gives +inf.
pub fn ln(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    let (mut x, mut e) = (x, 0i64);
    if x < f64::MIN_POSITIVE {
        // Subnormal: scale into the normal range first.
        x *= (1u64 << 54) as f64;
        e -= 54;
    }
    let bits = x.to_bits();
    e += ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m > std::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    // 2 * (s + s^3/3 + s^5/5 + ... + s^25/25), by Horner from the top.
    let mut poly = 0.0;
    for c in ATANH_SERIES {
        poly = poly * s2 + c;
    }
    let e = e as f64;
    e * LN2_HI + (2.0 * s * poly + e * LN2_LO)
}

/// e^x from `+ - * /` only: x = k ln 2 + r with |r| <= ln(2)/2 (ln 2 split
/// in two, as Cody and Waite do, so r is exact), e^r by its Taylor series
/// to r^14, then scaled by 2^k through the exponent bits. Overflows to
/// +inf above 709.78 and underflows to 0 below -745.13.
pub fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x > 709.782_712_893_384 {
        return f64::INFINITY;
    }
    if x < -745.133_219_101_941_1 {
        return 0.0;
    }
    let k = (x / LN2 + if x < 0.0 { -0.5 } else { 0.5 }) as i64;
    let kf = k as f64;
    let r = (x - kf * LN2_HI) - kf * LN2_LO;
    let mut sum = 0.0;
    for c in EXP_SERIES {
        sum = sum * r + c;
    }
    scale_by_two_to(sum, k)
}

/// `v * 2^k` for the k [`exp`] can produce, in at most three exact steps.
fn scale_by_two_to(mut v: f64, mut k: i64) -> f64 {
    let pow2 = |k: i64| f64::from_bits(((k + 1023) as u64) << 52);
    while k > 1023 {
        v *= pow2(1023);
        k -= 1023;
    }
    while k < -1022 {
        v *= pow2(-1022);
        k += 1022;
    }
    v * pow2(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_outputs() {
        // Vigna's splitmix64.c from state 0; the first value is the
        // widely quoted 0xe220a8397b1dcdaf.
        let mut sm = SplitMix64(0);
        assert_eq!(sm.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(sm.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(sm.next_u64(), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn xoshiro256starstar_reference_outputs() {
        // The reference xoshiro256starstar.c from state {1, 2, 3, 4}.
        let mut r = Rng::from_state([1, 2, 3, 4]);
        let got: Vec<u64> = (0..6).map(|_| r.next_u64()).collect();
        assert_eq!(
            got,
            [
                11520,
                0,
                1509978240,
                1215971899390074240,
                1216172134540287360,
                607988272756665600
            ]
        );
    }

    #[test]
    fn streams_differ_and_repeat() {
        let a: Vec<u64> = (0..4).map(|_| Rng::stream(7, 1).next_u64()).collect();
        assert!(
            a.windows(2).all(|w| w[0] == w[1]),
            "same stream, same start"
        );
        let mut s1 = Rng::stream(7, 1);
        let mut s2 = Rng::stream(7, 2);
        assert_ne!(s1.next_u64(), s2.next_u64());
        assert_ne!(Rng::stream(7, 1), Rng::stream(8, 1));
    }

    #[test]
    fn ln_and_exp_match_the_standard_library() {
        let mut r = Rng::new(1);
        let mut worst_ln = 0.0f64;
        let mut worst_exp = 0.0f64;
        for i in 0..40_000 {
            // Values across the whole range, and many near 1.
            let x = if i % 2 == 0 {
                exp_std(r.uniform() * 1400.0 - 700.0)
            } else {
                1.0 + (r.uniform() - 0.5) * 1e-3
            };
            let want = x.ln();
            let got = ln(x);
            let err = if want == 0.0 {
                got.abs()
            } else {
                ((got - want) / want).abs()
            };
            worst_ln = worst_ln.max(err);
            let y = r.uniform() * 1400.0 - 700.0;
            let e = ((exp(y) - y.exp()) / y.exp()).abs();
            worst_exp = worst_exp.max(e);
        }
        assert!(worst_ln < 1e-15, "ln relative error {worst_ln:e}");
        assert!(worst_exp < 1e-14, "exp relative error {worst_exp:e}");
        assert_eq!(ln(1.0), 0.0);
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(ln(0.0), f64::NEG_INFINITY);
        assert!(ln(-1.0).is_nan());
        assert_eq!(exp(1000.0), f64::INFINITY);
        assert_eq!(exp(-1000.0), 0.0);
        let tiny = f64::from_bits(1);
        assert!((ln(tiny) - tiny.ln()).abs() < 1e-12);
        assert!((exp(-740.0) - (-740.0f64).exp()).abs() <= f64::from_bits(2));
    }

    fn exp_std(x: f64) -> f64 {
        x.exp()
    }

    /// Mean and variance of `n` draws.
    fn moments(n: usize, mut draw: impl FnMut() -> f64) -> (f64, f64) {
        let xs: Vec<f64> = (0..n).map(|_| draw()).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
        (mean, var)
    }

    #[test]
    fn samplers_have_their_moments() {
        let n = 60_000;
        let mut r = Rng::new(42);
        let (m, v) = moments(n, || r.uniform());
        assert!((m - 0.5).abs() < 0.005 && (v - 1.0 / 12.0).abs() < 0.002);
        let (m, v) = moments(n, || r.exponential());
        assert!((m - 1.0).abs() < 0.02 && (v - 1.0).abs() < 0.05, "{m} {v}");
        let (m, v) = moments(n, || r.normal());
        assert!(m.abs() < 0.02 && (v - 1.0).abs() < 0.03, "{m} {v}");
        for k in [0.25, 0.5, 1.0, 2.5, 9.0] {
            let (m, v) = moments(n, || r.gamma(k));
            assert!((m - k).abs() < 0.02 * k.max(1.0), "gamma({k}) mean {m}");
            assert!((v - k).abs() < 0.06 * k.max(1.0), "gamma({k}) variance {v}");
        }
        let (m, _) = moments(n, || r.log_normal(700.0, 0.5));
        let want = 700.0 * (0.125f64).exp();
        assert!(
            (m - want).abs() / want < 0.01,
            "log-normal mean {m}, want {want}"
        );
        let mut below = 0;
        for _ in 0..n {
            if r.log_normal(700.0, 0.5) < 700.0 {
                below += 1;
            }
        }
        assert!((below as f64 / n as f64 - 0.5).abs() < 0.01, "median");
        assert_eq!(r.gamma(0.0), 0.0);
        assert_eq!(r.gamma(f64::NAN), 0.0);
    }
}
