//! The published schema as the app applies it, made at compile time.
//!
//! `content/schema/authored-exercise.schema.json` is written for
//! instructors: indented, with a title and a description on most
//! definitions. The schema walker in `authoring` reads none of those words,
//! so the text compiled into the app is the same schema with whitespace
//! between tokens removed and every annotation member (`description`,
//! `title`, `$schema`, `$id`, `$comment`) whose value is a string dropped:
//! about half the bytes, which an instructor's exercise pays for before it
//! works. A property that happens to be called `description` or `title`
//! (a workload has one) has an object as its value and is kept.
//!
//! It is done by a `const fn` over the file's bytes rather than by a build
//! script, so the crate stays free of I/O and the published file stays the
//! only copy. A test parses both and checks that they differ by exactly
//! those members.

/// Keys of annotation members, which describe and never constrain.
const ANNOTATIONS: [&[u8]; 5] = [b"description", b"title", b"$schema", b"$id", b"$comment"];

const fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

/// The index just past the string literal that opens at `start` (a quote);
/// the end of the text when it is not closed.
const fn string_end(src: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < src.len() {
        match src[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    src.len()
}

const fn skip_space(src: &[u8], mut i: usize) -> usize {
    while i < src.len() && is_space(src[i]) {
        i += 1;
    }
    i
}

/// True when `src[start..end]` is the string literal of an annotation key.
const fn is_annotation(src: &[u8], start: usize, end: usize) -> bool {
    let mut k = 0;
    while k < ANNOTATIONS.len() {
        let key = ANNOTATIONS[k];
        if end - start == key.len() + 2 {
            let mut j = 0;
            while j < key.len() && src[start + 1 + j] == key[j] {
                j += 1;
            }
            if j == key.len() {
                return true;
            }
        }
        k += 1;
    }
    false
}

/// Compacts the JSON text `src` as the module describes, writing at most
/// `N` bytes; returns them and the compacted length (which may be more
/// than `N`, so `compact::<0>` measures it).
pub(crate) const fn compact<const N: usize>(src: &[u8]) -> ([u8; N], usize) {
    let mut out = [0u8; N];
    let mut n = 0;
    let mut last = 0u8;
    let mut i = 0;
    while i < src.len() {
        let b = src[i];
        if is_space(b) {
            i += 1;
            continue;
        }
        if b == b'"' {
            let end = string_end(src, i);
            // A key is followed by a colon; an annotation's value by a
            // string, then by a comma or the object's end.
            let colon = skip_space(src, end);
            let value = skip_space(src, colon + 1);
            if colon < src.len()
                && src[colon] == b':'
                && value < src.len()
                && src[value] == b'"'
                && is_annotation(src, i, end)
            {
                let after = skip_space(src, string_end(src, value));
                if after < src.len() && src[after] == b',' {
                    i = after + 1;
                } else {
                    // The object's last member: take back the comma
                    // written before it, if any.
                    if last == b',' {
                        n -= 1;
                        last = b'"';
                    }
                    i = after;
                }
                continue;
            }
            while i < end {
                if n < N {
                    out[n] = src[i];
                }
                n += 1;
                i += 1;
            }
            last = b'"';
            continue;
        }
        if n < N {
            out[n] = b;
        }
        n += 1;
        last = b;
        i += 1;
    }
    (out, n)
}

const SOURCE: &[u8] = crate::authoring::SCHEMA_TEXT.as_bytes();
const LEN: usize = compact::<0>(SOURCE).1;

const APPLIED_BYTES: [u8; LEN] = compact::<LEN>(SOURCE).0;

/// The schema the walker applies: the published one, compacted. Text, not
/// bytes: every other JSON the builds read goes through
/// `serde_json::from_str`, and reading this one with `from_slice` compiled
/// a second copy of serde_json's reader into each build that takes an
/// instructor's file (1.8 KB of its wasm gzipped, more than compacting
/// saved). Compacting drops only ASCII bytes and whole strings, so the
/// text stays UTF-8.
pub(crate) static APPLIED: &str = match std::str::from_utf8(&APPLIED_BYTES) {
    Ok(text) => text,
    Err(_) => panic!("the compacted schema is not UTF-8"),
};

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn compacted(text: &str) -> Value {
        let (out, n) = compact::<4096>(text.as_bytes());
        assert!(n <= out.len());
        serde_json::from_slice(&out[..n]).expect("compacted text is JSON")
    }

    #[test]
    fn annotations_go_wherever_they_stand_and_commas_stay_right() {
        let text = r#"{ "description": "first", "type": "object",
            "properties": { "a": { "title": "t", "type": "string" },
                            "b": { "type": "integer", "$comment": "last" },
                            "c": { "description": "only" } },
            "$id": "x" }"#;
        assert_eq!(
            compacted(text),
            json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}, "c": {}}})
        );
    }

    #[test]
    fn a_property_named_like_an_annotation_stays() {
        let text = r##"{"properties": {"description": {"$ref": "#/$defs/Text"}, "title": {"type": "string"}}}"##;
        assert_eq!(
            compacted(text),
            json!({"properties": {"description": {"$ref": "#/$defs/Text"}, "title": {"type": "string"}}})
        );
    }

    #[test]
    fn strings_keep_their_spaces_escapes_and_non_ascii() {
        let text = "{ \"const\" : \"a \\\"b\\\" , c\" , \"enum\": [ \"é x\", \"description\" ] }";
        assert_eq!(compacted(text), json!({"const": "a \"b\" , c", "enum": ["é x", "description"]}));
    }

    /// Drops every annotation member with a string value, at any depth.
    fn without_annotations(v: &Value) -> Value {
        match v {
            Value::Object(map) => Value::Object(
                map.iter()
                    .filter(|(k, v)| !(v.is_string() && ANNOTATIONS.contains(&k.as_bytes())))
                    .map(|(k, v)| (k.clone(), without_annotations(v)))
                    .collect(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(without_annotations).collect()),
            other => other.clone(),
        }
    }

    #[test]
    fn the_applied_schema_is_the_published_one_without_its_words() {
        let published: Value = serde_json::from_str(crate::authoring::SCHEMA_TEXT).expect("published schema");
        let applied: Value = serde_json::from_str(APPLIED).expect("applied schema");
        assert_eq!(applied, without_annotations(&published));
        assert_ne!(applied, published, "the published schema has annotations to drop");
        assert!(APPLIED.len() * 3 < crate::authoring::SCHEMA_TEXT.len() * 2, "{} bytes", APPLIED.len());
    }
}
