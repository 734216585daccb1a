//! Reading typed figures out of loosely typed JSON, the way real tools write
//! them: numbers that arrive as strings (`"intValue": "700"`), `"inf"` for a
//! rate, nulls for "not measured", and units named beside the value.
//!
//! Every function returns `None` for anything it cannot read, so an importer
//! decides what a missing figure means; nothing here panics or guesses a unit.

use serde_json::Value;
use ttft_latency::Micros;

/// A finite number, from a JSON number or a numeric string.
pub fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64().filter(|x| x.is_finite()),
        Value::String(s) => s.trim().parse::<f64>().ok().filter(|x| x.is_finite()),
        _ => None,
    }
}

/// A whole, non-negative count, from a JSON integer, an integral float, or a
/// numeric string.
pub fn count(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64().or_else(|| n.as_f64().and_then(whole)),
        Value::String(s) => s.trim().parse::<u64>().ok(),
        _ => None,
    }
}

fn whole(x: f64) -> Option<u64> {
    (x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x < 1.8e19).then_some(x as u64)
}

/// An integer, for nanosecond timestamps that do not fit an `f64` exactly.
/// Values past i128's range come back clamped to it, so a time conversion
/// refuses them rather than a missing value hiding them.
pub fn integer(v: &Value) -> Option<i128> {
    match v {
        // A float too large for i128 saturates (`as` never panics); the
        // caller's checked conversion to a time then refuses it.
        Value::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
            .or_else(|| {
                n.as_f64()
                    .filter(|x| x.is_finite())
                    .map(|x| x.round() as i128)
            }),
        Value::String(s) => s.trim().parse::<i128>().ok(),
        _ => None,
    }
}

/// Seconds as a number, converted to microseconds.
pub fn secs(v: &Value) -> Option<Micros> {
    number(v).and_then(Micros::from_secs_f64)
}

/// Milliseconds as a number, converted to microseconds.
pub fn millis(v: &Value) -> Option<Micros> {
    number(v).and_then(Micros::from_ms_f64)
}

/// A value in a named time unit (`ns`, `us`, `ms`, `s`), converted to
/// microseconds. An unknown unit gives `None` rather than a guess.
pub fn in_unit(value: &Value, unit: &str) -> Option<Micros> {
    match unit.trim().to_ascii_lowercase().as_str() {
        "ns" | "nanoseconds" => integer(value).and_then(Micros::checked_from_nanos),
        "us" | "µs" | "microseconds" => {
            number(value).and_then(|x| Micros::from_ms_f64(x / 1_000.0))
        }
        "ms" | "milliseconds" => millis(value),
        "s" | "sec" | "seconds" => secs(value),
        _ => None,
    }
}

/// Epoch seconds as a float (GuideLLM) to microseconds since the epoch.
pub fn epoch_secs(v: &Value) -> Option<Micros> {
    secs(v)
}

/// A string field, if it is a non-empty string.
pub fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// Short description of a JSON value's kind, for problem messages.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(unit: &str, value: Value, expected: Option<i64>) {
        assert_eq!(
            in_unit(&value, unit),
            expected.map(Micros),
            "{value} {unit}"
        );
    }

    #[test]
    fn units_are_named_never_guessed() {
        check("ms", json!(1680.543782), Some(1_680_544));
        check(
            "ns",
            json!(1759522419159192408_u64),
            Some(1_759_522_419_159_192),
        );
        check("s", json!("0.25"), Some(250_000));
        check("us", json!(12.0), Some(12));
        check("tokens", json!(5), None);
        check("ms", json!(null), None);
        check("ms", json!("inf"), None);
    }

    #[test]
    fn counts() {
        assert_eq!(count(&json!("700")), Some(700));
        assert_eq!(count(&json!(481.0)), Some(481));
        assert_eq!(count(&json!(-1)), None);
        assert_eq!(count(&json!(1.5)), None);
        assert_eq!(
            integer(&json!("1759522419159192408")),
            Some(1_759_522_419_159_192_408)
        );
    }
}
