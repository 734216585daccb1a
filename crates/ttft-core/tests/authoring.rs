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
//! describes is met at least once. The page reads authored files with
//! hand-written code (`content::from_json`) where native code uses serde's
//! derives: the two agree on every file here and on generated variations
//! of them, escapes, defaults, odd floats and missing optional fields
//! included.

use proptest::prelude::*;
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

/// The hand-written reader against serde's derives, for `file`.
fn agrees_with_serde(file: &AuthoredExercise) {
    let by_serde = serde_json::to_string(file).unwrap();
    let typed: AuthoredExercise = serde_json::from_str(&by_serde).unwrap();
    // Checked answers aside (a generated file may state wrong ones), the
    // page reads what serde reads.
    match parse_authored(&by_serde) {
        Ok(read) => assert_eq!(read, typed),
        Err(problems) => assert!(
            problems.iter().all(|p| !p.message.starts_with("expected")
                && !p.message.starts_with("missing")),
            "{problems:?}"
        ),
    }
}

#[test]
fn the_page_reads_and_writes_files_as_serde_does() {
    agrees_with_serde(&built_in());
    let example = read("content/schema/examples/review-bot.json");
    let typed: AuthoredExercise = serde_json::from_str(&example).unwrap();
    assert_eq!(parse_authored(&example), Ok(typed.clone()));
    agrees_with_serde(&typed);

    // Fields with defaults, left out or null, read as serde reads them.
    let mut v: Value = serde_json::from_str(&built_in().to_json()).unwrap();
    let trace = &mut v["trace_exercise"];
    trace["requests"][0]["prompt_note"] = Value::Null;
    trace["requests"][1].as_object_mut().unwrap().remove("prompt_note");
    for a in trace["actions"].as_array_mut().unwrap() {
        a.as_object_mut().unwrap().remove("protects_others");
    }
    let config = &mut v["config_exercise"];
    config.as_object_mut().unwrap().remove("late_after_ms");
    for w in config["workloads"].as_array_mut().unwrap() {
        w["answer"].as_object_mut().unwrap().remove("conditional");
    }
    v["ignored_by_serde"] = Value::from("refused by the schema, not the reader");
    let text = v.to_string();
    let by_serde: AuthoredExercise = serde_json::from_str(&text).unwrap();
    v.as_object_mut().unwrap().remove("ignored_by_serde");
    assert_eq!(parse_authored(&v.to_string()), Ok(by_serde.clone()));
    assert_eq!(by_serde.config_exercise.as_ref().unwrap().late_after_ms, 1_000);
    agrees_with_serde(&by_serde);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any text, any float, any optional field, any integer in range: the
    /// page reads a file as serde reads it.
    #[test]
    fn the_page_reads_any_file_as_serde_does(
        title in "\\PC{0,12}",
        reasoning in "[\"\\\\\\n\\t\\u{1}\\u{7f}a-zé€😀/<>]{0,16}",
        share in prop_oneof![any::<f64>().prop_filter("finite", |f| f.is_finite()), 0.0..100.0f64, Just(-0.0), Just(1e-7), Just(1e21)],
        note in proptest::option::of("\\PC{0,8}"),
        protects in any::<bool>(),
        big in any::<u64>(),
        signed in any::<i64>(),
        rate in any::<u32>(),
        batch in any::<bool>(),
    ) {
        let mut file = built_in();
        let trace = file.trace_exercise.as_mut().unwrap();
        trace.title = title.clone();
        trace.target_ms = signed;
        trace.requests[0].answer.share_percent = share;
        trace.requests[0].answer.reasoning = reasoning.clone();
        trace.requests[0].prompt_note = note;
        trace.requests[0].prompt_tokens = big;
        trace.requests[0].output_rate_tps = rate;
        trace.actions[0].protects_others = protects;
        let config = file.config_exercise.as_mut().unwrap();
        config.intro = reasoning;
        config.configs[0].throughput_tps = big;
        config.late_after_ms = signed;
        config.workloads[0].answer.conditional.clear();
        config.workloads[0].need = if batch {
            ttft_core::content::WorkloadNeed::Batch { items: big, output_tokens_per_item: 1, window_secs: signed }
        } else {
            ttft_core::content::WorkloadNeed::Interactive { ttft_target_ms: signed }
        };
        let by_serde = serde_json::to_string(&file).unwrap();
        let typed: AuthoredExercise = serde_json::from_str(&by_serde).unwrap();
        let value: Value = serde_json::from_str(&by_serde).unwrap();
        let read = ttft_core::content::from_json::trace_exercise(&value["trace_exercise"], "trace_exercise");
        prop_assert_eq!(read.as_ref().ok(), typed.trace_exercise.as_ref());
        let read = ttft_core::content::from_json::config_exercise(&value["config_exercise"], "config_exercise");
        prop_assert_eq!(read.as_ref().ok(), typed.config_exercise.as_ref());
    }
}

#[test]
fn a_value_of_the_wrong_kind_is_a_problem_at_its_path() {
    let mut v: Value = serde_json::from_str(&built_in().to_json()).unwrap();
    v["trace_exercise"]["requests"][2]["answer"]["dominant"] = Value::from("decode");
    let got = ttft_core::content::from_json::trace_exercise(&v["trace_exercise"], "trace_exercise");
    assert_eq!(
        got.unwrap_err().iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["trace_exercise.requests[2].answer.dominant: expected one of: queue_wait, prefill, emit"]
    );
    // Every misfit is named, not only the first; an absent field once.
    let config = &mut v["config_exercise"];
    config["configs"][0]["max_sequences_per_batch"] = Value::from(1u64 << 40);
    config["configs"][1].as_object_mut().unwrap().remove("weights");
    config["workloads"][0]["answer"]["evidence_needed"] = Value::Null;
    config["evidence"][0]["why"] = Value::from(7);
    let got = ttft_core::content::from_json::config_exercise(&v["config_exercise"], "config_exercise");
    assert_eq!(
        got.unwrap_err().iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "config_exercise.configs[0].max_sequences_per_batch: expected a whole number up to 4294967295",
            "config_exercise.configs[1].weights: missing: this field is required",
            "config_exercise.workloads[0].answer.evidence_needed: expected a list",
            "config_exercise.evidence[0].why: expected text",
        ]
    );
}

#[test]
fn whole_numbers_are_held_to_their_format() {
    let mut v: Value =
        serde_json::from_str(&read("content/schema/examples/review-bot.json")).unwrap();
    let trace = &mut v["trace_exercise"];
    trace["target_ms"] = Value::from(1u64 << 63);
    trace["requests"][0]["output_rate_tps"] = Value::from(1u64 << 32);
    trace["requests"][1]["output_rate_tps"] = Value::from(u64::from(u32::MAX));
    trace["requests"][2]["prompt_tokens"] = Value::from(u64::MAX);
    trace["requests"][2]["queued_at_arrival"] = Value::from(-1);
    check(
        &v.to_string(),
        &[
            "trace_exercise.requests[0].output_rate_tps: 4294967296 is too large here (at most 4294967295)",
            "trace_exercise.requests[2].queued_at_arrival: must be at least 0, not -1",
            "trace_exercise.target_ms: 9223372036854775808 is too large here (at most 9223372036854775807)",
        ],
    );
}
