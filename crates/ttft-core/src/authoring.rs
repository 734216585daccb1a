//! Exercises an instructor writes as data: reading an authored file with
//! every error named by path, checking its stated answers as the built-in
//! content is checked, and carrying it in a URL.
//!
//! An authored file is JSON:
//! `{"schema": "ttft-lab/authored-exercise/v1", "trace_exercise"?: …, "config_exercise"?: …}`
//! with at least one exercise, in exactly the shapes of `content`'s
//! [`TraceExercise`] and [`ConfigExercise`]. The published JSON Schema
//! (`content/schema/authored-exercise.schema.json`, draft 2020-12) is the
//! one description of that shape: this module compiles it in and walks the
//! file against it, so the page reports *every* structural error with its
//! path (serde stops at the first) and the schema instructors read is the
//! schema the app applies. Only the keywords the file uses are understood
//! (`$ref`, `type`, `properties`, `required`, `additionalProperties`,
//! `items`, `minItems`, `enum`, `const`, `minLength`, `minimum`, `anyOf` of
//! `required`, `oneOf` told apart by a `kind` constant, and the integer
//! `format`s int64, uint64 and uint32, which it enforces). A test in
//! `tests/authoring.rs` keeps the schema and the Rust types in step.
//!
//! Once the shape is right the file is typed and handed to `validate`'s
//! [`validate_trace_exercise`] and [`validate_config_exercise`], so an
//! exercise whose stated answers disagree with the computed split is
//! refused with the reason and the path, as built-in content would be.
//!
//! For URLs the file is compacted and base64url-encoded (RFC 4648 §5, no
//! padding) with the `base64` crate, within [`MAX_URL_CHARS`]. Nothing here reads files or
//! fetches `src=` paths; the app does, and passes the text in.

use crate::content::from_json;
use crate::content::validate::{validate_config_exercise, validate_trace_exercise, ContentProblem};
use crate::content::{ConfigExercise, TraceExercise};
use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::{DecodeError, Engine};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;
use std::sync::OnceLock;

/// The `schema` value this version reads and writes.
pub const SCHEMA_ID: &str = "ttft-lab/authored-exercise/v1";

/// The published JSON Schema, as shipped in `content/schema/`.
pub const SCHEMA_TEXT: &str = include_str!("../../../content/schema/authored-exercise.schema.json");

/// The largest authored file read, in bytes.
pub const MAX_FILE_BYTES: usize = 256 * 1024;

/// The longest `content=` value written or read, in characters: about
/// 24 KB of JSON, well inside what browsers and static hosts accept in a URL.
pub const MAX_URL_CHARS: usize = 32 * 1024;

/// The path shown for problems with the file as a whole.
pub const FILE_PATH: &str = "(file)";

/// An authored file, typed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuthoredExercise {
    /// Always [`SCHEMA_ID`].
    pub schema: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace_exercise: Option<TraceExercise>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_exercise: Option<ConfigExercise>,
}

impl AuthoredExercise {
    /// A file holding these exercises.
    pub fn new(
        trace_exercise: Option<TraceExercise>,
        config_exercise: Option<ConfigExercise>,
    ) -> AuthoredExercise {
        AuthoredExercise {
            schema: SCHEMA_ID.to_owned(),
            trace_exercise,
            config_exercise,
        }
    }

    /// The file as compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A short fingerprint of the file's content: 64-bit FNV-1a over its
    /// compact JSON, as 16 hex digits. Two files that differ anywhere get
    /// different fingerprints (with overwhelming likelihood); reformatting
    /// the same content does not change it. Not a security measure: it only
    /// keeps learners' stored answers for different content apart.
    pub fn content_hash(&self) -> String {
        format!(
            "{:016x}",
            crate::fingerprint::fnv1a64(self.to_json().as_bytes())
        )
    }

    /// The file with each exercise's id made unique to this content:
    /// `authored-<id>-<first 8 hex digits of the fingerprint>`. The app keeps
    /// learners' answers and names activities by exercise id, so authored
    /// answers never mix with the built-in exercise's, nor with an earlier
    /// version of the same file (a changed file is a different activity).
    pub fn keyed(&self) -> AuthoredExercise {
        let hash = self.content_hash();
        let short = hash.get(..8).unwrap_or(&hash);
        let key = |id: &str| format!("authored-{id}-{short}");
        let mut out = self.clone();
        if let Some(x) = out.trace_exercise.as_mut() {
            x.id = key(&x.id);
        }
        if let Some(x) = out.config_exercise.as_mut() {
            x.id = key(&x.id);
        }
        out
    }
}

fn problem(path: &str, message: impl Into<String>) -> ContentProblem {
    let path = if path.is_empty() {
        FILE_PATH.to_owned()
    } else {
        path.to_owned()
    };
    ContentProblem {
        path,
        message: message.into(),
    }
}

/// Reads an authored file: JSON, then the schema, then the stated answers
/// against the core. Every problem found at the first stage that fails is
/// returned, each with its path.
pub fn parse_authored(text: &str) -> Result<AuthoredExercise, Vec<ContentProblem>> {
    if text.len() > MAX_FILE_BYTES {
        return Err(vec![problem(
            "",
            format!(
                "the file is {} bytes; the limit is {MAX_FILE_BYTES}",
                text.len()
            ),
        )]);
    }
    let value: Value = serde_json::from_str(text.trim_start_matches('\u{FEFF}')).map_err(|e| {
        let what = match e.classify() {
            serde_json::error::Category::Eof => {
                "the file ends too early (a bracket or quote is not closed)".to_owned()
            }
            _ => e
                .to_string()
                .split(" at line")
                .next()
                .unwrap_or("")
                .to_owned(),
        };
        vec![problem(
            "",
            format!(
                "not valid JSON at line {}, column {}: {what}",
                e.line(),
                e.column()
            ),
        )]
    })?;
    let schema = compiled_schema().map_err(|e| vec![problem("", e)])?;
    let mut problems = Vec::new();
    Walker {
        root: schema,
        problems: &mut problems,
    }
    .walk(&value, schema, "");
    if !problems.is_empty() {
        return Err(problems);
    }
    // Typed from the same value by hand (`content::from_json`), not by
    // serde's derived readers: those would be most of the bytes an
    // instructor's exercise adds to the page.
    let file = typed(&value)?;
    let mut problems = Vec::new();
    if let Some(x) = &file.trace_exercise {
        problems.extend(validate_trace_exercise(x));
    }
    if let Some(x) = &file.config_exercise {
        problems.extend(validate_config_exercise(x));
    }
    if problems.is_empty() {
        Ok(file)
    } else {
        Err(problems)
    }
}

/// The file in `value`, which has passed the schema.
fn typed(value: &Value) -> Result<AuthoredExercise, Vec<ContentProblem>> {
    let present = |key: &str| value.get(key).filter(|v| !v.is_null());
    Ok(AuthoredExercise {
        schema: value
            .get("schema")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        trace_exercise: present("trace_exercise")
            .map(|v| from_json::trace_exercise(v, "trace_exercise"))
            .transpose()?,
        config_exercise: present("config_exercise")
            .map(|v| from_json::config_exercise(v, "config_exercise"))
            .transpose()?,
    })
}

/// The schema parsed once: the published one without its annotations
/// (`schema_text`).
fn compiled_schema() -> Result<&'static Value, String> {
    static SCHEMA: OnceLock<Result<Value, String>> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            serde_json::from_str(crate::schema_text::APPLIED)
                .map_err(|e| format!("the built-in schema does not parse: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Walks a value against the schema subset described in the module docs.
struct Walker<'p> {
    root: &'static Value,
    problems: &'p mut Vec<ContentProblem>,
}

/// A JSON value described for a learner: "a string", "the number 3".
fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("{b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the text \"{}\"", s.chars().take(40).collect::<String>()),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

fn type_word(t: &str) -> &'static str {
    match t {
        "integer" => "a whole number",
        "number" => "a number",
        "string" => "text in quotes",
        "array" => "a list [ … ]",
        "object" => "an object { … }",
        "boolean" => "true or false",
        "null" => "null",
        _ => "another type",
    }
}

fn has_type(v: &Value, t: &str) -> bool {
    match t {
        "integer" => v.as_i64().is_some() || v.as_u64().is_some(),
        "number" => v.is_number(),
        "string" => v.is_string(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        _ => false,
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn text_list(values: &[Value]) -> String {
    values
        .iter()
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Walker<'_> {
    fn add(&mut self, path: &str, message: impl Into<String>) {
        self.problems.push(problem(path, message));
    }

    /// Follows `$ref` chains (local `#/$defs/…` only), at most a few deep.
    fn resolve(&self, mut schema: &'static Value) -> &'static Value {
        for _ in 0..8 {
            let Some(r) = schema.get("$ref").and_then(Value::as_str) else {
                break;
            };
            let Some(name) = r.strip_prefix("#/$defs/") else {
                break;
            };
            match self.root.get("$defs").and_then(|d| d.get(name)) {
                Some(target) => schema = target,
                None => break,
            }
        }
        schema
    }

    fn walk(&mut self, v: &Value, schema: &'static Value, path: &str) {
        // Keywords beside a `$ref` (a description) add nothing to check.
        let schema = self.resolve(schema);
        if let Some(c) = schema.get("const") {
            if v != c {
                self.add(path, format!("must be {c}, not {}", describe(v)));
            }
            return;
        }
        if let Some(Value::Array(options)) = schema.get("enum") {
            if !options.contains(v) {
                self.add(
                    path,
                    format!("{} is not one of: {}", describe(v), text_list(options)),
                );
            }
            return;
        }
        if let Some(Value::Array(branches)) = schema.get("oneOf") {
            self.one_of(v, branches, path);
            return;
        }
        if let Some(t) = schema.get("type") {
            let types: Vec<&str> = match t {
                Value::String(s) => vec![s.as_str()],
                Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if !types.iter().any(|t| has_type(v, t)) {
                let words: Vec<&str> = types.iter().map(|t| type_word(t)).collect();
                self.add(
                    path,
                    format!("expected {}, found {}", words.join(" or "), describe(v)),
                );
                return;
            }
        }
        match v {
            Value::Object(map) => self.object(map, schema, path),
            Value::Array(items) => {
                if let Some(min) = schema.get("minItems").and_then(Value::as_u64) {
                    if (items.len() as u64) < min {
                        let entries = if min == 1 { "entry" } else { "entries" };
                        self.add(path, format!("needs at least {min} {entries}"));
                    }
                }
                if let Some(item_schema) = schema.get("items") {
                    for (i, item) in items.iter().enumerate() {
                        self.walk(item, item_schema, &format!("{path}[{i}]"));
                    }
                }
            }
            Value::String(s) => {
                if let Some(min) = schema.get("minLength").and_then(Value::as_u64) {
                    if (s.chars().count() as u64) < min {
                        self.add(path, "must not be empty");
                    }
                }
            }
            Value::Number(n) => self.number(n, schema, path),
            _ => {}
        }
    }

    fn number(&mut self, n: &serde_json::Number, schema: &'static Value, path: &str) {
        // A whole number is held as a u64 when it is at least 0, as an
        // i64 below that; any other number is a float.
        let hi = match schema.get("format").and_then(Value::as_str) {
            Some("int64") => Some(i64::MAX.unsigned_abs()),
            Some("uint64") => Some(u64::MAX),
            Some("uint32") => Some(u64::from(u32::MAX)),
            _ => None,
        };
        if let (Some(u), Some(hi)) = (n.as_u64(), hi) {
            if u > hi {
                self.add(path, format!("{n} is too large here (at most {hi})"));
                return;
            }
        }
        if let Some(min) = schema.get("minimum").and_then(Value::as_i64) {
            let below = match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => i < min,
                (None, Some(_)) => false,
                (None, None) => n.as_f64().is_some_and(|f| f < min as f64),
            };
            if below {
                self.add(path, format!("must be at least {min}, not {n}"));
            }
        }
    }

    fn object(&mut self, map: &Map<String, Value>, schema: &'static Value, path: &str) {
        let props = schema.get("properties").and_then(Value::as_object);
        if let Some(Value::Array(required)) = schema.get("required") {
            for r in required.iter().filter_map(Value::as_str) {
                if !map.contains_key(r) {
                    self.add(&join(path, r), "missing: this field is required");
                }
            }
        }
        if let Some(Value::Array(branches)) = schema.get("anyOf") {
            // Only alternatives of `required` are used: "at least one of".
            let names: Vec<&str> = branches
                .iter()
                .filter_map(|b| b.get("required")?.as_array()?.first()?.as_str())
                .collect();
            if !names.is_empty() && !names.iter().any(|n| map.contains_key(*n)) {
                self.add(path, format!("give at least one of: {}", names.join(", ")));
            }
        }
        let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
        for (key, value) in map {
            match props.and_then(|p| p.get(key)) {
                Some(s) => self.walk(value, s, &join(path, key)),
                None if closed => {
                    let mut known: Vec<&str> = props
                        .map(|p| p.keys().map(String::as_str).collect())
                        .unwrap_or_default();
                    ttft_latency::sort::sort(&mut known);
                    self.add(
                        &join(path, key),
                        format!(
                            "\"{key}\" is not a field here; check its spelling (fields: {})",
                            known.join(", ")
                        ),
                    );
                }
                None => {}
            }
        }
    }

    /// `oneOf` branches told apart by their `kind` constant.
    fn one_of(&mut self, v: &Value, branches: &'static [Value], path: &str) {
        let kinds: Vec<Value> = branches
            .iter()
            .filter_map(|b| {
                self.resolve(b)
                    .get("properties")?
                    .get("kind")?
                    .get("const")
                    .cloned()
            })
            .collect();
        let Some(map) = v.as_object() else {
            self.add(
                path,
                format!("expected {}, found {}", type_word("object"), describe(v)),
            );
            return;
        };
        let Some(kind) = map.get("kind") else {
            self.add(
                &join(path, "kind"),
                format!("missing: say which kind ({})", text_list(&kinds)),
            );
            return;
        };
        match branches.iter().find(|b| {
            self.resolve(b)
                .get("properties")
                .and_then(|p| p.get("kind"))
                .and_then(|k| k.get("const"))
                == Some(kind)
        }) {
            Some(branch) => self.walk(v, branch, path),
            None => self.add(
                &join(path, "kind"),
                format!("{} is not one of: {}", describe(kind), text_list(&kinds)),
            ),
        }
    }
}

// ---------------------------------------------------------------- URLs

/// Why authored content cannot travel in (or come out of) a URL.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum UrlContentError {
    /// Longer than [`MAX_URL_CHARS`] once encoded.
    TooLarge { chars: usize, limit: usize },
    /// A character base64url does not use, at this position.
    BadCharacter { at: usize },
    /// A length no base64 text can have (one character left over).
    BadLength,
    /// The decoded bytes are not UTF-8 text.
    NotText,
}

impl fmt::Display for UrlContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlContentError::TooLarge { chars, limit } => write!(
                f,
                "the exercise needs {chars} characters in the URL, more than the {limit} allowed; host the file on the same site and use src= instead"
            ),
            UrlContentError::BadCharacter { at } => {
                write!(f, "the content in the URL is damaged at character {}: it was probably cut or changed when copied", at + 1)
            }
            UrlContentError::BadLength => f.write_str("the content in the URL is cut short: copy the whole link again"),
            UrlContentError::NotText => f.write_str("the content in the URL does not decode to text"),
        }
    }
}

impl std::error::Error for UrlContentError {}

/// base64url (RFC 4648 §5): no padding written; on reading, padding is
/// optional and stray bits in the last character are ignored, as the
/// hand-copied links learners paste need.
const BASE64URL: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true),
);

/// base64url without padding (RFC 4648 §5).
pub fn base64url_encode(bytes: &[u8]) -> String {
    BASE64URL.encode(bytes)
}

/// Decodes base64url, with or without `=` padding.
pub fn base64url_decode(text: &str) -> Result<Vec<u8>, UrlContentError> {
    let body = text.trim_end_matches('=');
    if text.len() - body.len() > 2 {
        return Err(UrlContentError::BadCharacter { at: body.len() + 2 });
    }
    if body.len() % 4 == 1 {
        return Err(UrlContentError::BadLength);
    }
    BASE64URL.decode(body).map_err(|e| match e {
        DecodeError::InvalidByte(at, _) | DecodeError::InvalidLastSymbol(at, _) => {
            UrlContentError::BadCharacter { at }
        }
        DecodeError::InvalidLength(_) | DecodeError::InvalidPadding => UrlContentError::BadLength,
    })
}

/// The file as a `content=` value: compact JSON, base64url.
pub fn encode_for_url(file: &AuthoredExercise) -> Result<String, UrlContentError> {
    let encoded = base64url_encode(file.to_json().as_bytes());
    if encoded.len() > MAX_URL_CHARS {
        return Err(UrlContentError::TooLarge {
            chars: encoded.len(),
            limit: MAX_URL_CHARS,
        });
    }
    Ok(encoded)
}

/// The JSON text a `content=` value carries (parse it with
/// [`parse_authored`]).
pub fn decode_from_url(encoded: &str) -> Result<String, UrlContentError> {
    if encoded.len() > MAX_URL_CHARS {
        return Err(UrlContentError::TooLarge {
            chars: encoded.len(),
            limit: MAX_URL_CHARS,
        });
    }
    String::from_utf8(base64url_decode(encoded)?).map_err(|_| UrlContentError::NotText)
}

/// Decodes and reads a `content=` value in one step; a URL problem comes
/// back as a problem at the file's path.
pub fn load_from_url(encoded: &str) -> Result<AuthoredExercise, Vec<ContentProblem>> {
    let text = decode_from_url(encoded).map_err(|e| vec![problem("", e.to_string())])?;
    parse_authored(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn check_b64(bytes: &[u8], text: &str) {
        assert_eq!(base64url_encode(bytes), text);
        assert_eq!(base64url_decode(text), Ok(bytes.to_vec()));
    }

    #[test]
    fn keyed_ids_follow_the_content() {
        let text = include_str!("../../../content/schema/examples/review-bot.json");
        let file = parse_authored(text).unwrap();
        let hash = file.content_hash();
        assert_eq!(hash.len(), 16);
        assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()));
        // Reformatted, the same content keeps its fingerprint.
        let compact = parse_authored(&file.to_json()).unwrap();
        assert_eq!(compact.content_hash(), hash);
        let keyed = file.keyed();
        let trace_id = keyed.trace_exercise.as_ref().map(|x| x.id.clone()).unwrap();
        assert_eq!(
            trace_id,
            format!("authored-review-bot-trace-{}", &hash[..8])
        );
        // Any change, however small, moves the key.
        let mut changed = file.clone();
        if let Some(x) = changed.trace_exercise.as_mut() {
            x.title.push('!');
        }
        assert_ne!(changed.content_hash(), hash);
        assert_ne!(changed.keyed().trace_exercise.map(|x| x.id), Some(trace_id));
        assert_eq!(
            AuthoredExercise::new(None, None).content_hash(),
            AuthoredExercise::new(None, None).content_hash()
        );
    }

    #[test]
    fn rfc_4648_vectors() {
        check_b64(b"", "");
        check_b64(b"f", "Zg");
        check_b64(b"fo", "Zm8");
        check_b64(b"foo", "Zm9v");
        check_b64(b"foob", "Zm9vYg");
        check_b64(b"fooba", "Zm9vYmE");
        check_b64(b"foobar", "Zm9vYmFy");
        check_b64(&[0xfb, 0xff, 0xfe], "-__-");
        assert_eq!(base64url_decode("Zm9vYg=="), Ok(b"foob".to_vec()));
        assert_eq!(
            base64url_decode("Zm9v+g"),
            Err(UrlContentError::BadCharacter { at: 4 })
        );
        assert_eq!(base64url_decode("Zm9vY"), Err(UrlContentError::BadLength));
        assert_eq!(
            base64url_decode("Zg==="),
            Err(UrlContentError::BadCharacter { at: 4 })
        );
        assert_eq!(decode_from_url("_w"), Err(UrlContentError::NotText));
        assert_eq!(
            decode_from_url(&"A".repeat(MAX_URL_CHARS + 4)),
            Err(UrlContentError::TooLarge {
                chars: MAX_URL_CHARS + 4,
                limit: MAX_URL_CHARS
            })
        );
    }

    fn paths(text: &str) -> Vec<String> {
        parse_authored(text)
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|p| format!("{}: {}", p.path, p.message))
            .collect()
    }

    #[test]
    fn structure_errors_have_paths() {
        assert_eq!(paths("{"), vec!["(file): not valid JSON at line 1, column 1: the file ends too early (a bracket or quote is not closed)"]);
        assert_eq!(
            paths("[]"),
            vec!["(file): expected an object { … }, found a list"]
        );
        assert_eq!(
            paths(r#"{"schema": "v0", "extra": 1}"#),
            vec![
                "(file): give at least one of: trace_exercise, config_exercise",
                "extra: \"extra\" is not a field here; check its spelling (fields: config_exercise, schema, trace_exercise)",
                "schema: must be \"ttft-lab/authored-exercise/v1\", not the text \"v0\"",
            ]
        );
        let need = json!({"schema": SCHEMA_ID, "config_exercise": {"id": "c", "title": "t", "intro": "i", "configs": [], "evidence": [],
            "workloads": [{"id": "w", "name": "n", "description": "d", "need": {"kind": "weekly"}, "answer": {"choice": "A", "evidence_needed": [], "reasoning": "r"}},
                          {"id": "w2", "name": "n", "description": "d", "need": {"kind": "batch", "items": -1, "output_tokens_per_item": 1.5, "window_secs": 1e30}, "answer": {"choice": "", "evidence_needed": [3], "reasoning": "r"}}]}});
        assert_eq!(
            paths(&need.to_string()),
            vec![
                "config_exercise.configs: needs at least 1 entry",
                "config_exercise.workloads[0].need.kind: the text \"weekly\" is not one of: interactive, batch",
                "config_exercise.workloads[1].answer.choice: must not be empty",
                "config_exercise.workloads[1].answer.evidence_needed[0]: expected text in quotes, found the number 3",
                "config_exercise.workloads[1].need.items: must be at least 0, not -1",
                "config_exercise.workloads[1].need.output_tokens_per_item: expected a whole number, found the number 1.5",
                "config_exercise.workloads[1].need.window_secs: expected a whole number, found the number 1e+30",
            ]
        );
    }

    #[test]
    fn the_schema_parses_and_every_ref_resolves() {
        let schema = compiled_schema().unwrap();
        let mut refs = Vec::new();
        fn collect(v: &Value, out: &mut Vec<String>) {
            match v {
                Value::Object(m) => {
                    if let Some(Value::String(r)) = m.get("$ref") {
                        out.push(r.clone());
                    }
                    m.values().for_each(|x| collect(x, out));
                }
                Value::Array(a) => a.iter().for_each(|x| collect(x, out)),
                _ => {}
            }
        }
        collect(schema, &mut refs);
        assert!(refs.len() > 20);
        for r in refs {
            let name = r.strip_prefix("#/$defs/").unwrap();
            assert!(schema["$defs"].get(name).is_some(), "{r} resolves");
        }
    }

    proptest! {
        #[test]
        fn base64url_round_trips(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let text = base64url_encode(&bytes);
            prop_assert!(text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
            prop_assert_eq!(base64url_decode(&text), Ok(bytes));
        }

        #[test]
        fn no_text_panics(text in "\\PC{0,200}") {
            let _ = parse_authored(&text);
            let _ = load_from_url(&text);
        }

        #[test]
        fn no_json_shape_panics(v in arbitrary_json()) {
            let _ = parse_authored(&json!({"schema": SCHEMA_ID, "trace_exercise": v.clone(), "config_exercise": v}).to_string());
        }
    }

    fn arbitrary_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|n| json!(n)),
            "[a-z_]{0,8}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::btree_map(
                    prop_oneof![
                        Just("id".to_owned()),
                        Just("kind".to_owned()),
                        Just("requests".to_owned()),
                        Just("need".to_owned()),
                        "[a-z_]{1,6}"
                    ],
                    inner,
                    0..5
                )
                .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }
}
