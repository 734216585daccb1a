//! Settings in the address bar, so every run is reproducible from its URL.
//!
//! [`to_query`] writes every setting (not only those that differ from a
//! default, so a link keeps meaning the same run when defaults change) as
//! `key=value` pairs joined by `&`, starting with the version, `sim=1`. Times
//! are milliseconds (`_ms` keys), rates requests a second, lengths tokens.
//! Classes are `cls=name:share:prompt:output:target_ms,...`, a name's own
//! `%`, `:` and `,` escaped before the value is.
//!
//! [`from_query`] is lenient about form and strict about values:
//! - a leading `?`, empty pairs, `+` for a space, percent-escapes in any
//!   case, upper-case keys and choices, spaces around values, and keys it
//!   does not know (the page's own `part=`, another run's `b.` keys) are all
//!   accepted; unknown keys are listed in [`Parsed::ignored`];
//! - a missing key, or one with an empty value, takes the default (the
//!   preset's, for the engine and the coefficients); a key that does not
//!   apply (`cv` with Poisson arrivals) is not read;
//! - a value that is there but wrong (not a number, out of range, not a
//!   choice) is an error naming the setting, never silently replaced; a
//!   version above [`VERSION`] is refused.
//!
//! Then [`Settings::validate`] runs, so anything parsed is runnable.

use crate::preset::Preset;
use crate::settings::{
    Arrivals, Class, Lengths, Policy, Problem, Setting, Settings, SettingsError, Stop,
};
use serde::{Deserialize, Serialize};
use ttft_latency::decimal::{shortest, shortest_exponent};
use ttft_latency::{parse_ms, Convention, Micros};

/// The settings format this crate writes and reads.
pub const VERSION: u32 = 1;

/// Settings read from a query string, and the keys that were not read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Parsed {
    pub settings: Settings,
    /// Keys present but not settings, in the order they came.
    pub ignored: Vec<String>,
}

/// `x` as the shortest text that reads back as the same double: `0.5`,
/// `7.8`, `5.16e-6`.
pub fn float_text(x: f64) -> String {
    if x != 0.0 && x.is_finite() && !(1e-3..1e16).contains(&x.abs()) {
        shortest_exponent(x)
    } else {
        shortest(x)
    }
}

/// Milliseconds with up to three decimals, exact: `1000`, `0.5`.
pub fn ms_text(t: Micros) -> String {
    ttft_import::export::ms_text(t)
}

/// The query string for `settings` (without a leading `?`).
pub fn to_query(settings: &Settings) -> String {
    to_query_with(settings, "")
}

/// The same with every key prefixed (`b.` for the second of two runs).
pub fn to_query_with(s: &Settings, prefix: &str) -> String {
    join(values(s).iter().map(|(k, v)| (*k, v.as_str())), prefix)
}

/// Each setting `to_query` writes and its value as text (not encoded): what
/// a form shows in its fields.
pub fn values(s: &Settings) -> Vec<(Setting, String)> {
    let mut pairs: Vec<(Setting, String)> = vec![
        (Setting::Version, VERSION.to_string()),
        (Setting::Seed, s.seed.to_string()),
    ];
    match s.stop {
        Stop::Requests(n) => pairs.push((Setting::Requests, n.to_string())),
        Stop::Duration(d) => pairs.push((Setting::Duration, ms_text(d))),
    }
    match s.arrivals {
        Arrivals::Poisson { rate } => {
            pairs.push((Setting::Arrivals, "poisson".into()));
            pairs.push((Setting::Rate, float_text(rate)));
        }
        Arrivals::Gamma { rate, cv } => {
            pairs.push((Setting::Arrivals, "gamma".into()));
            pairs.push((Setting::Rate, float_text(rate)));
            pairs.push((Setting::Cv, float_text(cv)));
        }
        Arrivals::Replay { speed } => {
            pairs.push((Setting::Arrivals, "replay".into()));
            pairs.push((Setting::Speed, float_text(speed)));
        }
    }
    match &s.lengths {
        Lengths::Fixed { prompt, output } => {
            pairs.push((Setting::Lengths, "fixed".into()));
            pairs.push((Setting::Prompt, prompt.to_string()));
            pairs.push((Setting::Output, output.to_string()));
        }
        Lengths::LogNormal {
            prompt,
            prompt_spread,
            output,
            output_spread,
        } => {
            pairs.push((Setting::Lengths, "lognormal".into()));
            pairs.push((Setting::Prompt, prompt.to_string()));
            pairs.push((Setting::PromptSpread, float_text(*prompt_spread)));
            pairs.push((Setting::Output, output.to_string()));
            pairs.push((Setting::OutputSpread, float_text(*output_spread)));
        }
        Lengths::Classes(classes) => {
            pairs.push((Setting::Lengths, "classes".into()));
            let text: Vec<String> = classes
                .iter()
                .map(|c| {
                    format!(
                        "{}:{}:{}:{}:{}",
                        escape_name(&c.name),
                        float_text(c.share),
                        c.prompt,
                        c.output,
                        ms_text(c.target)
                    )
                })
                .collect();
            pairs.push((Setting::Classes, text.join(",")));
        }
        Lengths::Replay => pairs.push((Setting::Lengths, "replay".into())),
    }
    let e = &s.engine;
    let opt = |v: Option<String>| v.unwrap_or_else(|| "none".into());
    pairs.extend([
        (Setting::SharedPrefix, s.shared_prefix.to_string()),
        (Setting::Target, ms_text(s.target)),
        (Setting::MaxNumSeqs, e.max_num_seqs.to_string()),
        (Setting::Budget, e.max_num_batched_tokens.to_string()),
        (Setting::ChunkedPrefill, bool_text(e.chunked_prefill)),
        (
            Setting::PrefillChunk,
            opt(e.max_prefill_chunk.map(|c| c.to_string())),
        ),
        (Setting::Policy, e.policy.id().into()),
        (Setting::KvCapacity, e.kv_capacity.to_string()),
        (Setting::Watermark, float_text(e.watermark)),
        (Setting::PrefixCaching, bool_text(e.prefix_caching)),
        (
            Setting::QueueLimit,
            opt(e.queue_limit.map(|q| q.to_string())),
        ),
        (Setting::Deadline, opt(e.deadline.map(ms_text))),
        (
            Setting::Priority,
            opt(e.priority.as_deref().map(escape_name)),
        ),
        (Setting::Preset, s.cost.preset.id().into()),
        (Setting::Floor, float_text(s.cost.floor_ms)),
        (Setting::PerToken, float_text(s.cost.per_token_ms)),
        (Setting::Attention, float_text(s.cost.attention_ms)),
        (Setting::Context, float_text(s.cost.context_ms)),
        (Setting::Emit, float_text(s.cost.emit_ms)),
        (Setting::Convention, convention_id(s.convention).into()),
    ]);
    pairs
}

/// A query string of settings and their text values, each key prefixed.
pub fn join<'a>(pairs: impl IntoIterator<Item = (Setting, &'a str)>, prefix: &str) -> String {
    pairs
        .into_iter()
        .map(|(k, v)| format!("{prefix}{}={}", k.key(), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The known settings in a query string (keys with `prefix`), each with its
/// value decoded, in the order given; the last of a repeated key wins.
pub fn read_values(query: &str, prefix: &str) -> Vec<(Setting, String)> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut out: Vec<(Setting, String)> = Vec::new();
    for pair in query.split('&').filter(|p| !p.trim().is_empty()) {
        let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode(raw_key).trim().to_ascii_lowercase();
        let Some(setting) = key.strip_prefix(prefix).and_then(Setting::from_key) else {
            continue;
        };
        let value = decode(raw_value).trim().to_owned();
        out.retain(|(s, _)| *s != setting);
        out.push((setting, value));
    }
    out
}

fn bool_text(b: bool) -> String {
    if b { "1" } else { "0" }.into()
}

fn convention_id(c: Convention) -> &'static str {
    match c {
        Convention::Linear => "linear",
        Convention::NearestRank => "nearest",
    }
}

/// Reads settings from a query string (with or without its `?`).
pub fn from_query(query: &str) -> Result<Parsed, SettingsError> {
    from_query_with(query, "")
}

/// Reads the settings whose keys start with `prefix`; other keys are
/// ignored (and listed when they are not another prefix's settings).
pub fn from_query_with(query: &str, prefix: &str) -> Result<Parsed, SettingsError> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut values: Vec<Option<String>> = vec![None; Setting::ALL.len()];
    let mut ignored = Vec::new();
    for pair in query.split('&') {
        if pair.trim().is_empty() {
            continue;
        }
        let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode(raw_key).trim().to_ascii_lowercase();
        let setting = key
            .strip_prefix(prefix)
            .and_then(Setting::from_key)
            .filter(|s| *s != Setting::Trace);
        match setting {
            Some(s) => {
                let value = decode(raw_value).trim().to_owned();
                let slot = &mut values[s as usize];
                // An empty value means "the default", and the last
                // occurrence of a key wins.
                *slot = (!value.is_empty()).then_some(value);
            }
            None => ignored.push(key),
        }
    }
    let get = |s: Setting| values[s as usize].as_deref();
    if let Some(v) = get(Setting::Version) {
        let version = int(Setting::Version, v)?;
        if version > VERSION as u64 {
            return Err(SettingsError::new(
                Setting::Version,
                v,
                Problem::NewerVersion,
            ));
        }
        if version == 0 {
            return Err(SettingsError::new(
                Setting::Version,
                v,
                Problem::OutOfRange {
                    min: "1".into(),
                    max: VERSION.to_string(),
                },
            ));
        }
    }
    let preset = match get(Setting::Preset) {
        None => Preset::default(),
        Some(v) => Preset::from_id(&v.to_ascii_lowercase()).ok_or_else(|| {
            let ids: Vec<&str> = Preset::ALL.iter().map(|p| p.id()).collect();
            SettingsError::new(Setting::Preset, v, Problem::NotAChoice(ids.join(", ")))
        })?,
    };
    let mut s = Settings::for_preset(preset);
    if let Some(v) = get(Setting::Seed) {
        s.seed = int(Setting::Seed, v)?;
    }
    match (get(Setting::Requests), get(Setting::Duration)) {
        (Some(n), Some(_)) => {
            return Err(SettingsError::new(
                Setting::Requests,
                n,
                Problem::Conflict(Setting::Duration),
            ))
        }
        (Some(n), None) => s.stop = Stop::Requests(small_int(Setting::Requests, n)?),
        (None, Some(d)) => s.stop = Stop::Duration(ms(Setting::Duration, d)?),
        (None, None) => {}
    }
    let default_rate = s.arrivals.rate().unwrap_or(1.0);
    let rate = |s: Setting| get(s).map(|v| float(s, v)).transpose();
    s.arrivals = match get(Setting::Arrivals)
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None | Some("poisson") => Arrivals::Poisson {
            rate: rate(Setting::Rate)?.unwrap_or(default_rate),
        },
        Some("gamma") | Some("bursty") => Arrivals::Gamma {
            rate: rate(Setting::Rate)?.unwrap_or(default_rate),
            cv: rate(Setting::Cv)?.unwrap_or(2.0),
        },
        Some("replay") => Arrivals::Replay {
            speed: rate(Setting::Speed)?.unwrap_or(1.0),
        },
        Some(_) => {
            return Err(not_a_choice(
                Setting::Arrivals,
                get(Setting::Arrivals),
                "poisson, gamma, replay",
            ))
        }
    };
    let tokens = |s: Setting, default: u32| {
        get(s)
            .map(|v| small_int(s, v))
            .transpose()
            .map(|v| v.unwrap_or(default))
    };
    s.lengths = match get(Setting::Lengths)
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None => match get(Setting::Classes) {
            Some(v) => Lengths::Classes(classes(v)?),
            None => s.lengths,
        },
        Some("classes") | Some("mix") => match get(Setting::Classes) {
            Some(v) => Lengths::Classes(classes(v)?),
            None => Lengths::Classes(crate::settings::default_classes()),
        },
        Some("fixed") => Lengths::Fixed {
            prompt: tokens(Setting::Prompt, 700)?,
            output: tokens(Setting::Output, 120)?,
        },
        Some("lognormal") | Some("log-normal") => Lengths::LogNormal {
            prompt: tokens(Setting::Prompt, 700)?,
            prompt_spread: rate(Setting::PromptSpread)?.unwrap_or(0.5),
            output: tokens(Setting::Output, 120)?,
            output_spread: rate(Setting::OutputSpread)?.unwrap_or(0.5),
        },
        Some("replay") => Lengths::Replay,
        Some(_) => {
            return Err(not_a_choice(
                Setting::Lengths,
                get(Setting::Lengths),
                "fixed, lognormal, classes, replay",
            ))
        }
    };
    if let Some(v) = get(Setting::SharedPrefix) {
        s.shared_prefix = small_int(Setting::SharedPrefix, v)?;
    }
    if let Some(v) = get(Setting::Target) {
        s.target = ms(Setting::Target, v)?;
    }
    let e = &mut s.engine;
    if let Some(v) = get(Setting::MaxNumSeqs) {
        e.max_num_seqs = small_int(Setting::MaxNumSeqs, v)?;
    }
    if let Some(v) = get(Setting::Budget) {
        e.max_num_batched_tokens = small_int(Setting::Budget, v)?;
    }
    if let Some(v) = get(Setting::ChunkedPrefill) {
        e.chunked_prefill = boolean(Setting::ChunkedPrefill, v)?;
    }
    if let Some(v) = get(Setting::PrefillChunk) {
        e.max_prefill_chunk = none_or(v, |v| small_int(Setting::PrefillChunk, v))?;
    }
    if let Some(v) = get(Setting::Policy) {
        e.policy = match v.to_ascii_lowercase().as_str() {
            "decode" | "decode-first" | "decode_first" => Policy::DecodeFirst,
            "prefill" | "prefill-first" | "prefill_first" => Policy::PrefillFirst,
            _ => return Err(not_a_choice(Setting::Policy, Some(v), "decode, prefill")),
        };
    }
    if let Some(v) = get(Setting::KvCapacity) {
        e.kv_capacity = int(Setting::KvCapacity, v)?;
    }
    if let Some(v) = get(Setting::Watermark) {
        e.watermark = float(Setting::Watermark, v)?;
    }
    if let Some(v) = get(Setting::PrefixCaching) {
        e.prefix_caching = boolean(Setting::PrefixCaching, v)?;
    }
    if let Some(v) = get(Setting::QueueLimit) {
        e.queue_limit = none_or(v, |v| small_int(Setting::QueueLimit, v))?;
    }
    if let Some(v) = get(Setting::Deadline) {
        e.deadline = none_or(v, |v| ms(Setting::Deadline, v))?;
    }
    if let Some(v) = get(Setting::Priority) {
        e.priority = none_or(v, |v| Ok(unescape_name(v)))?;
    }
    let c = &mut s.cost;
    for (setting, slot) in [
        (Setting::Floor, &mut c.floor_ms),
        (Setting::PerToken, &mut c.per_token_ms),
        (Setting::Attention, &mut c.attention_ms),
        (Setting::Context, &mut c.context_ms),
        (Setting::Emit, &mut c.emit_ms),
    ] {
        if let Some(v) = get(setting) {
            *slot = float(setting, v)?;
        }
    }
    if let Some(v) = get(Setting::Convention) {
        s.convention = match v.to_ascii_lowercase().as_str() {
            "linear" => Convention::Linear,
            "nearest" | "nearest-rank" | "nearest_rank" => Convention::NearestRank,
            _ => {
                return Err(not_a_choice(
                    Setting::Convention,
                    Some(v),
                    "linear, nearest",
                ))
            }
        };
    }
    s.validate()?;
    Ok(Parsed {
        settings: s,
        ignored,
    })
}

fn not_a_choice(setting: Setting, given: Option<&str>, choices: &str) -> SettingsError {
    SettingsError::new(
        setting,
        given.unwrap_or_default(),
        Problem::NotAChoice(choices.into()),
    )
}

fn none_or<T>(
    v: &str,
    read: impl FnOnce(&str) -> Result<T, SettingsError>,
) -> Result<Option<T>, SettingsError> {
    if v.eq_ignore_ascii_case("none") || v.eq_ignore_ascii_case("off") {
        Ok(None)
    } else {
        read(v).map(Some)
    }
}

/// A whole number: digits, or a decimal or exponent form that is whole
/// (`2e3`).
fn int(setting: Setting, v: &str) -> Result<u64, SettingsError> {
    if let Ok(n) = v.parse::<u64>() {
        return Ok(n);
    }
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x <= 9.007_199_254_740_992e15 => {
            Ok(x as u64)
        }
        Ok(x) if x.is_finite() && x >= 0.0 && x.fract() == 0.0 => Err(SettingsError::new(
            setting,
            v,
            Problem::OutOfRange {
                min: "0".into(),
                max: "2^53".into(),
            },
        )),
        _ => Err(SettingsError::new(setting, v, Problem::NotANumber)),
    }
}

/// A whole number that fits a `u32`; a larger one is out of range, so the
/// message gives the range rather than "not a number".
fn small_int(setting: Setting, v: &str) -> Result<u32, SettingsError> {
    let n = int(setting, v)?;
    u32::try_from(n).map_err(|_| {
        SettingsError::new(
            setting,
            v,
            Problem::OutOfRange {
                min: "0".into(),
                max: crate::settings::group(u32::MAX as u64),
            },
        )
    })
}

/// A finite decimal number.
fn float(setting: Setting, v: &str) -> Result<f64, SettingsError> {
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(SettingsError::new(setting, v, Problem::NotANumber)),
    }
}

/// Milliseconds, read exactly into microseconds.
fn ms(setting: Setting, v: &str) -> Result<Micros, SettingsError> {
    parse_ms(v).map_err(|_| SettingsError::new(setting, v, Problem::NotANumber))
}

fn boolean(setting: Setting, v: &str) -> Result<bool, SettingsError> {
    match v.to_ascii_lowercase().as_str() {
        "1" | "true" | "on" | "yes" => Ok(true),
        "0" | "false" | "off" | "no" => Ok(false),
        _ => Err(not_a_choice(setting, Some(v), "1 (on), 0 (off)")),
    }
}

/// `name:share:prompt:output:target_ms,...`.
fn classes(v: &str) -> Result<Vec<Class>, SettingsError> {
    let mut out = Vec::new();
    // Numbered as the form's lines show them: empty entries do not count.
    for entry in v.split(',').filter(|e| !e.trim().is_empty()) {
        let i = out.len();
        let fields: Vec<&str> = entry.split(':').map(str::trim).collect();
        let bad = |why: String| {
            SettingsError::new(
                Setting::Classes,
                entry,
                Problem::Invalid(format!("class {}: {why}", i + 1)),
            )
        };
        let [name, share, prompt, output, target] = fields[..] else {
            return Err(bad(
                "write name:share:prompt tokens:output tokens:target ms".into(),
            ));
        };
        let num = |what: &str, t: &str| {
            int(Setting::Classes, t)
                .ok()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| bad(format!("{what} {t:?} is not a whole number of tokens")))
        };
        out.push(Class {
            name: unescape_name(name).trim().to_owned(),
            share: share
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(format!("share {share:?} is not a number")))?,
            prompt: num("prompt", prompt)?,
            output: num("output", output)?,
            target: parse_ms(target)
                .map_err(|_| bad(format!("target {target:?} is not a number of milliseconds")))?,
        });
        if out.len() > crate::settings::MAX_CLASSES {
            return Err(bad(format!(
                "give at most {} classes",
                crate::settings::MAX_CLASSES
            )));
        }
    }
    Ok(out)
}

/// The classes' value as the settings form shows it: one class a line.
pub fn class_lines(value: &str) -> String {
    value
        .split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The classes' value from the form's lines: a line break or a comma ends
/// a class (so a value pasted from an address still reads), and blank
/// lines and spaces at either end of a class are dropped.
pub fn classes_from_lines(text: &str) -> String {
    text.split(['\n', ','])
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .collect::<Vec<_>>()
        .join(",")
}

/// A class name with its own `%`, `:` and `,` escaped, so the value can be
/// split before names are unescaped.
fn escape_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        match c {
            '%' => out.push_str("%25"),
            ':' => out.push_str("%3A"),
            ',' => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

fn unescape_name(s: &str) -> String {
    decode_with(s, false)
}

/// Percent-encodes everything but letters, digits, `-._~` and the
/// separators `:` and `,` (kept readable; decoders treat both forms alike).
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b':' | b',' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Form decoding: `+` is a space, `%XX` a byte; a `%` not followed by two
/// hex digits is kept as it is; bytes that are not UTF-8 become U+FFFD.
fn decode(s: &str) -> String {
    decode_with(s, true)
}

fn decode_with(s: &str, plus_is_space: bool) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' if plus_is_space => out.push(b' '),
            b'%' => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (
                    bytes.get(i + 1).and_then(|&b| hex(b)),
                    bytes.get(i + 2).and_then(|&b| hex(b)),
                ) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod form_tests {
    use super::*;

    #[test]
    fn values_read_back_as_the_same_query() {
        let s = Settings::default();
        let q = to_query(&s);
        let v = read_values(&q, "");
        assert_eq!(v, values(&s));
        assert_eq!(join(v.iter().map(|(k, v)| (*k, v.as_str())), ""), q);
        let b = to_query_with(&s, "b.");
        assert_eq!(read_values(&format!("{q}&{b}"), "b."), values(&s));
        assert_eq!(read_values("seqs=1&seqs=2&x=3", ""), vec![(Setting::MaxNumSeqs, "2".to_owned())]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Engine;

    #[test]
    fn default_settings_round_trip_and_read_plainly() {
        let s = Settings::default();
        let q = to_query(&s);
        assert_eq!(
            q,
            "sim=1&seed=1&n=2000&arr=poisson&rate=1.5&len=classes\
             &cls=hint:85:700:120:1000,long%20log:10:6000:250:3000,full%20history:5:18000:400:8000\
             &prefix=0&target_ms=1000&seqs=256&budget=2048&chunked=1&chunk=none&policy=decode&kv=400000&wm=0.01\
             &cache=1&qlimit=none&deadline_ms=none&prio=none&hw=a100-llama3-8b&floor_ms=7.8\
             &tok_ms=0.0667&attn_ms=5.16e-6&ctx_ms=9.78e-5&emit_ms=1&pct=linear"
        );
        assert_eq!(from_query(&q).unwrap().settings, s);
        assert_eq!(from_query(&format!("?{q}")).unwrap().settings, s);
    }

    #[test]
    fn lenient_about_form() {
        let p = from_query(
            "?part=simulate&&SEED=+7+&Arr=Gamma&rate=2&cv=3&len=FIXED&in=100&out=5&chunked=off&x=1",
        )
        .unwrap();
        assert_eq!(p.ignored, ["part", "x"]);
        let s = p.settings;
        assert_eq!(s.seed, 7);
        assert_eq!(s.arrivals, Arrivals::Gamma { rate: 2.0, cv: 3.0 });
        assert_eq!(
            s.lengths,
            Lengths::Fixed {
                prompt: 100,
                output: 5
            }
        );
        assert!(!s.engine.chunked_prefill);
        // Empty values and absent keys take the defaults.
        let d = from_query("seqs=&n=").unwrap().settings;
        assert_eq!(d, Settings::default());
        assert_eq!(from_query("").unwrap().settings, Settings::default());
        // The preset's limits and coefficients are the defaults under it.
        let h = from_query("hw=h100-llama2-7b").unwrap().settings;
        assert_eq!(h, Settings::for_preset(Preset::H100Llama2_7b));
        // Whole numbers in exponent form, percent-escapes in any case.
        // (A name's own ':' and ',' are escaped twice: once in the name,
        // once in the value.)
        let e = from_query("n=2e3&cls=a%253ab:1:10:2:5,%E2%82%AC%252c:1:10:2:5")
            .unwrap()
            .settings;
        assert_eq!(e.stop, Stop::Requests(2000));
        let Lengths::Classes(c) = e.lengths else {
            panic!("classes")
        };
        assert_eq!(c[0].name, "a:b");
        assert_eq!(c[1].name, "€,");
        // A separator escaped only once is a separator.
        assert!(from_query("cls=a%3ab:1:10:2:5").is_err());
    }

    #[test]
    fn names_with_separators_survive() {
        let mut s = Settings {
            lengths: Lengths::Classes(vec![Class {
                name: "a:b,c%d e+f&g=h".into(),
                share: 1.0,
                prompt: 10,
                output: 2,
                target: Micros(1_500),
            }]),
            ..Settings::default()
        };
        s.engine.priority = Some("a:b,c%d e+f&g=h".into());
        let q = to_query(&s);
        assert_eq!(from_query(&q).unwrap().settings, s, "{q}");
    }

    #[test]
    fn classes_one_a_line_in_the_form() {
        let value = "hint:85:700:120:1000,long log:10:6000:250:3000";
        let lines = class_lines(value);
        assert_eq!(lines, "hint:85:700:120:1000\nlong log:10:6000:250:3000");
        assert_eq!(classes_from_lines(&lines), value);
        assert_eq!(
            classes_from_lines(" a:1:2:3:4 \r\n\n b:1:2:3:4, c:1:2:3:4\n"),
            "a:1:2:3:4,b:1:2:3:4,c:1:2:3:4"
        );
        assert_eq!(class_lines(" a:1:2:3:4 ,, b:1:2:3:4,"), "a:1:2:3:4\nb:1:2:3:4");
        // A refused class is numbered as the form's lines count it, blank
        // lines and empty entries left out.
        let q = format!("cls={}", classes_from_lines("hint:85:700:120:1000\n\nlong:10:6000"));
        assert_eq!(
            from_query(&q).unwrap_err().to_string(),
            "request classes (cls): class 2: write name:share:prompt tokens:output tokens:target ms"
        );
        assert_eq!(
            from_query("cls=,,a:1:2:3:4,,b:1").unwrap_err().to_string(),
            "request classes (cls): class 2: write name:share:prompt tokens:output tokens:target ms"
        );
    }

    #[test]
    fn strict_about_values() {
        let err = |q: &str| from_query(q).unwrap_err().to_string();
        assert_eq!(
            err("seqs=lots"),
            "batch slots (max_num_seqs) (seqs): \"lots\" is not a number it can take"
        );
        assert_eq!(
            err("seqs=0"),
            "batch slots (max_num_seqs) (seqs): 0 is out of range; use 1 to 65,536"
        );
        assert_eq!(err("seqs=99999999999"), "batch slots (max_num_seqs) (seqs): 99999999999 is out of range; use 0 to 4,294,967,295");
        assert_eq!(
            err("rate=inf"),
            "arrival rate (requests a second) (rate): \"inf\" is not a number it can take"
        );
        assert_eq!(err("sim=2"), "settings version (sim): these settings were written by a newer version (2); this page reads version 1");
        assert_eq!(
            err("n=5&dur_ms=100"),
            "request count (n) and duration (ms) (dur_ms) cannot both be given; keep one"
        );
        assert_eq!(
            err("arr=sometimes"),
            "arrivals (arr): \"sometimes\" is not one of poisson, gamma, replay"
        );
        assert_eq!(err("cls=hint:85:700"), "request classes (cls): class 1: write name:share:prompt tokens:output tokens:target ms");
        assert_eq!(
            err("cls=hint:85:700:0:1000"),
            "request classes (cls): class 1 (hint): an output is 1 to 100,000 tokens"
        );
        assert_eq!(err("hw=tpu"), "hardware preset (hw): \"tpu\" is not one of a100-llama3-8b, a100-llama2-7b, h100-llama2-7b");
        assert_eq!(
            err("chunked=maybe"),
            "chunked prefill (chunked): \"maybe\" is not one of 1 (on), 0 (off)"
        );
    }

    #[test]
    fn prefixed_settings_for_a_second_run() {
        let a = Settings::default();
        let mut b = Settings::default();
        b.engine = Engine {
            max_num_seqs: 8,
            ..b.engine
        };
        let q = format!("{}&{}", to_query(&a), to_query_with(&b, "b."));
        assert_eq!(from_query(&q).unwrap().settings, a);
        assert_eq!(from_query_with(&q, "b.").unwrap().settings, b);
    }

    #[test]
    fn floats_round_trip_as_text() {
        for x in [
            0.0,
            0.1,
            7.8,
            5.16e-6,
            1e-300,
            123456789.125,
            1e20,
            f64::MIN_POSITIVE,
            0.01,
        ] {
            assert_eq!(
                float_text(x).parse::<f64>().unwrap(),
                x,
                "{}",
                float_text(x)
            );
        }
    }
}
