//! A float as decimal text, without the standard library's float
//! formatting: with a fixed number of places ([`fixed`], [`signed_fixed`]),
//! exactly what `format!("{x:.places$}")` writes, from integer arithmetic
//! alone; and in the fewest digits that read back ([`shortest`],
//! [`shortest_exponent`]), laid out as `format!("{x}")` and `{x:e}` lay
//! them out.
//!
//! Why: the standard library's float formatting (Grisu with Dragon4 as its
//! fallback, and their big-number code) is about 13 KB of wasm, and the
//! first float a build formats brings all of it. The pages print floats
//! with a few fixed places (chart coordinates, rates, file sizes), and the
//! figures a trace file states and the simulator's settings in their
//! shortest digits, which `zmij` gives: serde_json writes floats with it,
//! so every build that writes JSON already carries it. For fixed places, a
//! float is `m × 2^e` exactly, so `m × 10^places × 2^e` is an exact
//! fraction, rounded half to even as `format!` rounds it. Property tests
//! hold every function to `format!` over all bit patterns.

/// The most places [`fixed`] writes; more are written as this many.
pub const MAX_PLACES: u8 = 17;

/// `x` with `places` digits after the point (at most [`MAX_PLACES`]),
/// rounded half to even, as `format!("{x:.places$}")` writes it: `-0.0`
/// for a negative number that rounds to zero, `NaN`, `inf` and `-inf`.
pub fn fixed(x: f64, places: u8) -> String {
    if x.is_nan() {
        return "NaN".to_owned();
    }
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    if x.is_infinite() {
        out.push_str("inf");
        return out;
    }
    let places = places.min(MAX_PLACES);
    let bits = x.to_bits();
    let stored_exponent = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    // x = mantissa × 2^exponent, exactly.
    let (mantissa, exponent) = if stored_exponent == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), stored_exponent - 1075)
    };
    let scale = 10u128.pow(u32::from(places));
    let mut digits = if exponent >= 0 {
        // A whole number: its digits, then the places as zeros.
        let mut limbs = vec![mantissa as u32, (mantissa >> 32) as u32];
        shift_left(&mut limbs, exponent.unsigned_abs());
        let mut d = decimal_digits(limbs);
        d.extend(std::iter::repeat_n('0', usize::from(places)));
        d
    } else {
        // mantissa × 10^places < 2^53 × 10^17 < 2^110: no overflow.
        let scaled = u128::from(mantissa) * scale;
        let shift = exponent.unsigned_abs();
        let rounded = if shift >= 128 {
            // Below 2^110 / 2^128: less than a half, so zero.
            0
        } else {
            let whole = scaled >> shift;
            let rest = scaled & ((1u128 << shift) - 1);
            let half = 1u128 << (shift - 1);
            if rest > half || (rest == half && whole & 1 == 1) {
                whole + 1
            } else {
                whole
            }
        };
        decimal_digits(vec![rounded as u32, (rounded >> 32) as u32, (rounded >> 64) as u32, (rounded >> 96) as u32])
    };
    let places = usize::from(places);
    if digits.len() <= places {
        let zeros = places + 1 - digits.len();
        digits.splice(0..0, std::iter::repeat_n('0', zeros));
    }
    let point = digits.len() - places;
    out.extend(&digits[..point]);
    if places > 0 {
        out.push('.');
        out.extend(&digits[point..]);
    }
    out
}

/// [`fixed`] with a plus sign on a number that is not negative, as
/// `format!("{x:+.places$}")` writes it: `+5`, `-3`, `+0`, `NaN`.
pub fn signed_fixed(x: f64, places: u8) -> String {
    let text = fixed(x, places);
    if x.is_nan() || x.is_sign_negative() {
        text
    } else {
        format!("+{text}")
    }
}

/// [`fixed`] without the zeros at the end of the places, nor the point when
/// none are left: `54.0` with one place is `54`, `12.50` with two `12.5`.
pub fn trimmed(x: f64, places: u8) -> String {
    let mut text = fixed(x, places);
    if x.is_finite() && text.contains('.') {
        let kept = text.trim_end_matches('0').trim_end_matches('.').len();
        text.truncate(kept);
    }
    text
}

/// `x` in the fewest digits that read back as `x`, laid out as
/// `format!("{x}")` lays it out: no exponent, no `.0` on a whole number
/// (`100`, `0.00000015`, `-0`), `NaN`, `inf` and `-inf`. The digits come
/// from `zmij`, which serde_json uses to write floats; only the point is
/// placed here. They are the standard library's digits but where `x` lies
/// exactly halfway between two shortest readings: then the last digit may
/// be the other one (`772066591.9726562` for `…563`), which reads back as
/// `x` all the same.
pub fn shortest(x: f64) -> String {
    let (mut out, digits, before) = match shortest_start(x) {
        Ok(start) => start,
        Err(text) => return text,
    };
    // The digits before the point, padded with zeros up to it; at least "0".
    let whole = usize::try_from(before).unwrap_or(0);
    if whole == 0 {
        out.push('0');
    }
    for k in 0..whole {
        out.push(digits.get(k).copied().unwrap_or('0'));
    }
    if digits.len() > whole {
        out.push('.');
        let zeros = usize::try_from(-before).unwrap_or(0);
        out.extend(std::iter::repeat_n('0', zeros));
        out.extend(&digits[whole..]);
    }
    out
}

/// `x` in the fewest digits that read back as `x`, in the layout of
/// `format!("{x:e}")`: `5.16e-6`, `1e21`, `-2.5e0`, `0e0`, with the same
/// digits as [`shortest`].
pub fn shortest_exponent(x: f64) -> String {
    let (mut out, digits, before) = match shortest_start(x) {
        Ok(start) => start,
        Err(text) => return text,
    };
    match digits.split_first() {
        None => out.push_str("0e0"),
        Some((first, rest)) => {
            out.push(*first);
            if !rest.is_empty() {
                out.push('.');
                out.extend(rest);
            }
            out.push('e');
            out.push_str(&(before - 1).to_string());
        }
    }
    out
}

/// What both shortest layouts start from: the sign as text, then
/// [`shortest_digits`]; or, for NaN and the infinities, their whole text.
fn shortest_start(x: f64) -> Result<(String, Vec<char>, i64), String> {
    if !x.is_finite() {
        return Err(fixed(x, 0));
    }
    let (negative, digits, before) = shortest_digits(x);
    let sign = if negative { "-" } else { "" };
    Ok((sign.to_owned(), digits, before))
}

/// Whether `x` (finite) is negative, its shortest significant digits (no
/// zeros at either end; none for zero), and how many of them stand before
/// the point: `0.0125` is `(false, 125, -1)`, `1500` is `(false, 15, 4)`.
fn shortest_digits(x: f64) -> (bool, Vec<char>, i64) {
    let mut buffer = zmij::Buffer::new();
    let text = buffer.format_finite(x);
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    // zmij writes `1.5e-7`, `1e+21` or `123.25`: digits, a point, a power of ten.
    let (mantissa, power) = match unsigned.split_once('e') {
        Some((m, p)) => (m, p.parse::<i64>().unwrap_or(0)),
        None => (unsigned, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut before = i64::try_from(whole.len()).unwrap_or(0) + power;
    let mut digits: Vec<char> = whole.chars().chain(fraction.chars()).collect();
    while digits.last() == Some(&'0') {
        digits.pop();
    }
    let leading = digits.iter().take_while(|&&d| d == '0').count();
    digits.drain(..leading);
    before -= i64::try_from(leading).unwrap_or(0);
    if digits.is_empty() {
        before = 1;
    }
    (negative, digits, before)
}

/// Multiplies the little-endian number `limbs` by `2^by`.
fn shift_left(limbs: &mut Vec<u32>, by: u32) {
    let (whole, bits) = (by / 32, by % 32);
    if bits > 0 {
        let mut carry = 0u32;
        for limb in limbs.iter_mut() {
            let next = *limb >> (32 - bits);
            *limb = (*limb << bits) | carry;
            carry = next;
        }
        limbs.push(carry);
    }
    limbs.splice(0..0, std::iter::repeat_n(0, whole as usize));
}

/// The decimal digits of the little-endian number `limbs`, most significant
/// first, with no leading zeros (`0` for zero).
fn decimal_digits(mut limbs: Vec<u32>) -> Vec<char> {
    const CHUNK: u64 = 1_000_000_000;
    let mut chunks = Vec::new();
    loop {
        while limbs.last() == Some(&0) {
            limbs.pop();
        }
        if limbs.is_empty() {
            break;
        }
        // Divide by 10^9, most significant limb first.
        let mut rest = 0u64;
        for limb in limbs.iter_mut().rev() {
            let value = (rest << 32) | u64::from(*limb);
            *limb = (value / CHUNK) as u32;
            rest = value % CHUNK;
        }
        chunks.push(rest as u32);
    }
    let mut digits = Vec::new();
    for (i, chunk) in chunks.iter().rev().enumerate() {
        let mut nine = [b'0'; 9];
        let mut c = *chunk;
        for d in nine.iter_mut().rev() {
            *d = b'0' + (c % 10) as u8;
            c /= 10;
        }
        // Only the first chunk loses its leading zeros.
        let start = if i == 0 { nine.iter().position(|&d| d != b'0').unwrap_or(8) } else { 0 };
        digits.extend(nine[start..].iter().map(|&d| char::from(d)));
    }
    if digits.is_empty() {
        digits.push('0');
    }
    digits
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn same_as_format(x: f64, places: u8) {
        let p = usize::from(places);
        assert_eq!(fixed(x, places), format!("{x:.p$}"), "{x:e} with {places} places");
    }

    #[test]
    fn halves_round_to_even_as_format_does() {
        for (x, places, text) in [
            (0.25, 1, "0.2"),
            (0.35, 1, "0.3"),
            (0.5, 0, "0"),
            (1.5, 0, "2"),
            (2.5, 0, "2"),
            (123_456_789.125, 2, "123456789.12"),
            (0.05, 1, "0.1"),
            (-0.01, 1, "-0.0"),
            (-0.0, 0, "-0"),
            (0.0, 3, "0.000"),
            (1e22, 0, "10000000000000000000000"),
            (1e23, 0, "99999999999999991611392"),
            (5e-324, 2, "0.00"),
            (f64::NAN, 1, "NaN"),
            (f64::INFINITY, 1, "inf"),
            (f64::NEG_INFINITY, 1, "-inf"),
        ] {
            assert_eq!(fixed(x, places), text);
            same_as_format(x, places);
        }
    }

    #[test]
    fn every_place_count_and_the_extremes_agree_with_format() {
        for places in 0..=MAX_PLACES {
            for x in [
                f64::MAX,
                f64::MIN,
                f64::MIN_POSITIVE,
                f64::EPSILON,
                9_007_199_254_740_993.0,
                4_294_967_296.0,
                0.1,
                0.999_999_999_999_999_9,
                9.5,
                -9.5,
                1e-17,
                5e-18,
            ] {
                same_as_format(x, places);
            }
        }
    }

    #[test]
    fn places_beyond_the_most_are_the_most() {
        assert_eq!(fixed(0.1, 40), fixed(0.1, MAX_PLACES));
    }

    #[test]
    fn trimmed_drops_only_the_trailing_zeros_of_the_places() {
        assert_eq!(trimmed(54.0, 1), "54");
        assert_eq!(trimmed(12.5, 2), "12.5");
        assert_eq!(trimmed(100.0, 0), "100");
        assert_eq!(trimmed(-0.04, 1), "-0");
        assert_eq!(trimmed(f64::INFINITY, 1), "inf");
        assert_eq!(trimmed(0.123, 1), "0.1");
    }

    #[test]
    fn shortest_writes_as_format_does() {
        for (x, text) in [
            (1.0, "1"),
            (0.1, "0.1"),
            (1e21, "1000000000000000000000"),
            (1.5e-7, "0.00000015"),
            (123_456.789, "123456.789"),
            (-2.5, "-2.5"),
            (-0.0, "-0"),
            (0.0, "0"),
            (100.0, "100"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(shortest(x), text);
            assert_eq!(shortest(x), format!("{x}"));
        }
        for x in [f64::MAX, f64::MIN, f64::MIN_POSITIVE, 5e-324, f64::EPSILON, 1e16, 1e15, 9_007_199_254_740_993.0] {
            assert_eq!(shortest(x), format!("{x}"));
        }
    }

    /// `ours` reads back as `x`, has as many digits as `format!("{x}")`, and
    /// is the same text but perhaps for the last digit: where `x` lies
    /// exactly halfway between two shortest readings, zmij and the
    /// standard library may each pick a different one.
    fn shortest_agrees(x: f64) -> Result<(), TestCaseError> {
        let ours = shortest(x);
        let theirs = format!("{x}");
        prop_assert_eq!(ours.parse::<f64>().map(f64::to_bits), Ok(x.to_bits()), "{} does not read back", ours);
        same_but_last_digit(&ours, &theirs, ours.len().saturating_sub(1))
    }

    /// `ours` and `theirs` are the same text but perhaps for the digit at
    /// `last`, the last significant one, which may differ by one.
    fn same_but_last_digit(ours: &str, theirs: &str, last: usize) -> Result<(), TestCaseError> {
        prop_assert_eq!(ours.len(), theirs.len(), "{} against {}", ours, theirs);
        prop_assert_eq!(&ours[..last], &theirs[..last], "{} against {}", ours, theirs);
        prop_assert_eq!(&ours[last + 1..], &theirs[last + 1..], "{} against {}", ours, theirs);
        let (a, b) = (ours.as_bytes()[last], theirs.as_bytes()[last]);
        prop_assert!(a.abs_diff(b) <= 1, "{} against {}", ours, theirs);
        Ok(())
    }

    #[test]
    fn shortest_can_pick_the_other_of_two_equally_near_readings() {
        let x = 772_066_591.972_656_2;
        assert_eq!(shortest(x).parse::<f64>(), Ok(x));
        assert_eq!(shortest(x), "772066591.9726562");
        assert_eq!(format!("{x}"), "772066591.9726563");
    }

    #[test]
    fn shortest_exponent_writes_as_format_does() {
        for (x, text) in [
            (5.16e-6, "5.16e-6"),
            (1e21, "1e21"),
            (-2.5, "-2.5e0"),
            (0.0, "0e0"),
            (-0.0, "-0e0"),
            (1500.0, "1.5e3"),
            (f64::INFINITY, "inf"),
        ] {
            assert_eq!(shortest_exponent(x), text);
            assert_eq!(shortest_exponent(x), format!("{x:e}"));
        }
    }

    proptest! {
        #[test]
        fn signed_fixed_agrees_with_format(bits in any::<u64>(), places in 0..=MAX_PLACES) {
            let x = f64::from_bits(bits);
            let p = usize::from(places);
            prop_assert_eq!(signed_fixed(x, places), format!("{x:+.p$}"));
        }

        #[test]
        fn shortest_exponent_of_any_float_agrees_with_format(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assume!(!x.is_nan());
            let (ours, theirs) = (shortest_exponent(x), format!("{x:e}"));
            prop_assert_eq!(ours.parse::<f64>().map(f64::to_bits), Ok(x.to_bits()), "{} does not read back", ours);
            let last = ours.find('e').map_or(ours.len(), |e| e - 1);
            same_but_last_digit(&ours, &theirs, last)?;
        }

        #[test]
        fn shortest_of_any_float_agrees_with_format(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            if x.is_nan() {
                prop_assert_eq!(shortest(x), "NaN");
            } else {
                shortest_agrees(x)?;
            }
        }

        #[test]
        fn shortest_of_ordinary_figures_agrees_with_format(x in -1e9f64..1e9) {
            shortest_agrees(x)?;
        }

        #[test]
        fn any_float_agrees_with_format(bits in any::<u64>(), places in 0..=MAX_PLACES) {
            same_as_format(f64::from_bits(bits), places);
        }

        #[test]
        fn chart_sized_floats_agree_with_format(x in -1e7f64..1e7, places in 0u8..4) {
            same_as_format(x, places);
        }

        #[test]
        fn exact_halves_agree_with_format(n in -1_000_000i64..1_000_000, places in 0u8..4) {
            // n + 0.5 at the last place, exact in binary when it is a
            // multiple of a power of two (places 0 and 1 with .5, .25...).
            let x = (n as f64 + 0.5) / 10f64.powi(i32::from(places));
            same_as_format(x, places);
        }
    }
}
