//! Authored exercises against the published schema and the core.
//!
//! The example files under `content/schema/examples/` read as documented
//! (the valid one passes, the broken one yields exactly the expected
//! path-level errors); the built-in trace and configuration exercises, put
//! in an authored file, pass and travel through a URL; an authored answer
//! that disagrees with the computed split is refused with its path; and the
//! schema cannot drift from the Rust types: walking the serialised built-in
//! content beside the schema, every object's fields are exactly the
//! properties the schema names for it, and every object the schema
//! describes is met at least once.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;
use ttft_core::authoring::{
    decode_from_url, encode_for_url, load_from_url, parse_authored, AuthoredExercise, SCHEMA_TEXT,
};
use ttft_core::content::{ConfigExercise, TraceExercise};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn built_in() -> AuthoredExercise {
    let trace: TraceExercise =
        toml::from_str(&read("content/trace_exercise.toml")).expect("trace exercise parses");
    let config: ConfigExercise =
        toml::from_str(&read("content/config_exercise.toml")).expect("config exercise parses");
    AuthoredExercise::new(Some(trace), Some(config))
}

/// Parses `text` and compares the problems (as `path: message`) with
/// `expected`; an empty `expected` means the file must pass.
fn check(text: &str, expected: &[&str]) {
    let got: Vec<String> = match parse_authored(text) {
        Ok(_) => Vec::new(),
        Err(problems) => problems.iter().map(ToString::to_string).collect(),
    };
    assert_eq!(got, expected);
}

#[test]
fn the_valid_example_passes() {
    check(&read("content/schema/examples/review-bot.json"), &[]);
    let file = parse_authored(&read("content/schema/examples/review-bot.json")).unwrap();
    let trace = file.trace_exercise.as_ref().unwrap();
    assert_eq!(trace.requests.len(), 3);
    assert_ne!(
        Some(trace.id.clone()),
        built_in().trace_exercise.map(|t| t.id),
        "differs from the built-in content"
    );
}

#[test]
fn the_broken_example_names_every_error() {
    check(
        &read("content/schema/examples/broken.json"),
        &[
            "config_exercise.configs: needs at least 1 entry",
            "config_exercise.workloads[0].need.output_tokens_per_item: missing: this field is required",
            "trace_exercise.id: must not be empty",
            "trace_exercise.requests[0].prefill_ms: missing: this field is required",
            "trace_exercise.requests[0].answer.dominant: the text \"decode\" is not one of: queue_wait, prefill, emit",
            "trace_exercise.requests[0].prefil_ms: \"prefil_ms\" is not a field here; check its spelling (fields: answer, emit_ms, id, output_rate_tps, prefill_ms, prompt_note, prompt_tokens, queue_wait_ms, queued_at_arrival, ttft_ms)",
            "trace_exercise.requests[0].prompt_tokens: must be at least 0, not -5",
            "trace_exercise.target_ms: expected a whole number, found the text \"1000\"",
        ],
    );
}

#[test]
fn stated_answers_are_checked_against_the_split() {
    let mut v: Value =
        serde_json::from_str(&read("content/schema/examples/review-bot.json")).unwrap();
    v["trace_exercise"]["requests"][1]["answer"]["share_percent"] = Value::from(85.0);
    v["trace_exercise"]["requests"][2]["ttft_ms"] = Value::from(2600);
    v["config_exercise"]["workloads"][1]["answer"]["choice"] = Value::from("Y");
    check(
        &v.to_string(),
        &[
            "trace_exercise.requests[1].answer.share_percent: R2: states 85% but queue wait is 90% of TTFT",
            "trace_exercise.requests[2].ttft_ms: R3: TTFT is stated as 2,600 ms but queue wait + prefill + emit add up to 2,500 ms",
            "config_exercise.workloads[1].answer.choice: nightly-audit: the stated choice Y does not meet the workload's need on these figures",
        ],
    );
}

#[test]
fn the_built_in_exercises_pass_as_an_authored_file() {
    let file = built_in();
    check(&file.to_json(), &[]);
    let encoded = encode_for_url(&file).expect("the built-in exercises fit in a URL");
    assert_eq!(decode_from_url(&encoded).unwrap(), file.to_json());
    assert_eq!(load_from_url(&encoded), Ok(file.clone()));
    let trace_only = AuthoredExercise::new(file.trace_exercise.clone(), None);
    check(&trace_only.to_json(), &[]);
    let config_only = AuthoredExercise::new(None, file.config_exercise.clone());
    check(&config_only.to_json(), &[]);
}

/// Walks `content` beside `schema`, recording in `seen` every schema object
/// (by pointer) met, and in `problems` every object whose fields differ from
/// the properties the schema names.
fn walk(
    content: &Value,
    schema: &Value,
    root: &Value,
    path: &str,
    seen: &mut BTreeSet<String>,
    problems: &mut Vec<String>,
) {
    let (schema, name) = resolve(schema, root);
    if let Some(Value::Array(branches)) = schema.get("oneOf") {
        let kind = content.get("kind");
        let branch = branches
            .iter()
            .enumerate()
            .find(|(_, b)| b["properties"]["kind"]["const"] == *kind.unwrap_or(&Value::Null));
        match branch {
            Some((i, b)) => {
                seen.insert(format!("{name}/oneOf/{i}"));
                walk(content, b, root, path, seen, &mut *problems);
            }
            None => problems.push(format!("{path}: no oneOf branch for kind {kind:?}")),
        }
        return;
    }
    match content {
        Value::Object(map) => {
            let Some(props) = schema.get("properties").and_then(Value::as_object) else {
                problems.push(format!(
                    "{path}: the content has an object where the schema ({name}) describes none"
                ));
                return;
            };
            seen.insert(name.clone());
            let in_schema: BTreeSet<&str> = props.keys().map(String::as_str).collect();
            let in_content: BTreeSet<&str> = map.keys().map(String::as_str).collect();
            for missing in in_schema.difference(&in_content) {
                problems.push(format!("{path}: the schema ({name}) names \"{missing}\" but the serialised type has no such field"));
            }
            for extra in in_content.difference(&in_schema) {
                problems.push(format!("{path}: the serialised type has \"{extra}\" but the schema ({name}) does not name it"));
            }
            for (k, v) in map {
                if let Some(s) = props.get(k) {
                    walk(v, s, root, &format!("{path}.{k}"), seen, problems);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    walk(
                        item,
                        item_schema,
                        root,
                        &format!("{path}[{i}]"),
                        seen,
                        problems,
                    );
                }
            }
        }
        _ => {}
    }
}

/// Follows `$ref`s; the name is the last definition reached (or "root").
fn resolve<'a>(mut schema: &'a Value, root: &'a Value) -> (&'a Value, String) {
    let mut name = "root".to_owned();
    while let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let def = r.trim_start_matches("#/$defs/");
        name = def.to_owned();
        schema = &root["$defs"][def];
    }
    (schema, name)
}

#[test]
fn the_schema_and_the_types_name_the_same_fields() {
    let schema: Value = serde_json::from_str(SCHEMA_TEXT).unwrap();
    let content = serde_json::to_value(built_in()).unwrap();
    let mut seen = BTreeSet::new();
    let mut problems = Vec::new();
    walk(&content, &schema, &schema, "", &mut seen, &mut problems);
    assert_eq!(problems, Vec::<String>::new());
    // Every object the schema describes was compared with real content.
    let mut described: BTreeSet<String> = BTreeSet::from(["root".to_owned()]);
    for (name, def) in schema["$defs"].as_object().unwrap() {
        if def.get("properties").is_some() {
            described.insert(name.clone());
        }
        if let Some(Value::Array(branches)) = def.get("oneOf") {
            for i in 0..branches.len() {
                described.insert(format!("{name}/oneOf/{i}"));
            }
        }
    }
    let unmet: Vec<&String> = described.difference(&seen).collect();
    assert!(
        unmet.is_empty(),
        "schema objects the built-in content never exercises: {unmet:?}"
    );
}
