//! The two exercises read from a JSON value, by hand, for the page.
//!
//! An instructor's file is parsed once into a [`Value`] and walked against
//! the published schema (`crate::authoring`); the exercise is then read
//! from that same value here, instead of parsing the text a second time
//! with serde's derived readers. Those readers are the bulk of what an
//! instructor's exercise adds to a phone's download (about 10 KB gzip of
//! generic code); these functions are a few. Natively, serde's derives
//! still read the course's TOML, and `tests/authoring.rs` holds the two
//! readers to the same result on every file it has.
//!
//! Each reader takes what serde would: the same field names, `null` or no
//! field at all for an `Option` or a field with a default, integers only
//! where the type is an integer and within its range, any number for an
//! `f64`, snake_case names for the unit enums and a `kind` tag for
//! [`WorkloadNeed`]. Fields it does not know are left alone (the schema
//! refuses them first). A value that does not fit is a [`ContentProblem`]
//! at its path, though the schema walk has normally said so already; the
//! reader then goes on with a default in its place, so that it has no
//! early exits (each would carry code to drop what was read so far) and
//! names every such problem, not only the first.

use crate::content::validate::ContentProblem;
use crate::content::{
    Action, CauseClass, ConditionalChoice, ConfigExercise, EvidenceOption, MisconceptionText,
    QualityStatus, RowAnswer, ServingConfig, TraceExercise, TraceRow, Workload, WorkloadAnswer,
    WorkloadNeed,
};
use serde_json::{Map, Value};
use std::cell::RefCell;
use ttft_latency::split::Part;

/// The problems met while reading, in document order.
type Problems = RefCell<Vec<ContentProblem>>;

/// One JSON object being read, with its path for problems.
struct Fields<'a> {
    map: Option<&'a Map<String, Value>>,
    path: String,
    problems: &'a Problems,
}

fn note(problems: &Problems, path: &str, message: &str) {
    problems.borrow_mut().push(ContentProblem {
        path: path.to_owned(),
        message: message.to_owned(),
    });
}

fn object<'a>(v: &'a Value, path: &str, problems: &'a Problems) -> Fields<'a> {
    let map = v.as_object();
    if map.is_none() {
        note(problems, path, "expected an object");
    }
    Fields {
        map,
        path: path.to_owned(),
        problems,
    }
}

impl<'a> Fields<'a> {
    fn at(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn wrong(&self, key: &str, message: &str) {
        note(self.problems, &self.at(key), message);
    }

    /// The field, `None` when it is absent or `null`.
    fn maybe(&self, key: &str) -> Option<&'a Value> {
        self.map?.get(key).filter(|v| !v.is_null())
    }

    /// Whether the field is there at all (`null` included).
    fn present(&self, key: &str) -> bool {
        self.map.is_some_and(|m| m.contains_key(key))
    }

    /// The field, or `null` (and a problem) when it is absent.
    fn get(&self, key: &str) -> &'a Value {
        match self.map.and_then(|m| m.get(key)) {
            Some(v) => v,
            None => {
                self.wrong(key, "missing: this field is required");
                &Value::Null
            }
        }
    }

    /// The field read by `read`, or the default (and `problem`) when it
    /// does not fit.
    fn read<T: Default>(&self, key: &str, problem: &str, read: impl Fn(&Value) -> Option<T>) -> T {
        let v = self.get(key);
        read(v).unwrap_or_else(|| {
            if self.present(key) {
                self.wrong(key, problem);
            }
            T::default()
        })
    }

    fn string(&self, key: &str) -> String {
        self.read(key, "expected text", |v| v.as_str().map(str::to_owned))
    }

    fn optional_string(&self, key: &str) -> Option<String> {
        self.maybe(key).map(|_| self.string(key))
    }

    fn int(&self, key: &str) -> i64 {
        self.read(key, "expected a whole number that fits here", Value::as_i64)
    }

    fn int_or(&self, key: &str, default: i64) -> i64 {
        match self.maybe(key) {
            None => default,
            Some(_) => self.int(key),
        }
    }

    fn uint(&self, key: &str) -> u64 {
        self.read(key, "expected a whole number of at least 0", Value::as_u64)
    }

    fn uint32(&self, key: &str) -> u32 {
        self.read(key, "expected a whole number up to 4294967295", |v| {
            v.as_u64().and_then(|n| u32::try_from(n).ok())
        })
    }

    fn number(&self, key: &str) -> f64 {
        self.read(key, "expected a number", Value::as_f64)
    }

    fn flag_or_false(&self, key: &str) -> bool {
        match self.maybe(key) {
            None => false,
            Some(_) => self.read(key, "expected true or false", Value::as_bool),
        }
    }

    fn fields(&self, key: &str) -> Fields<'a> {
        object(self.get(key), &self.at(key), self.problems)
    }

    /// A list, each entry read by `read` at its own path.
    fn list<T>(&self, key: &str, read: fn(&Value, &str, &Problems) -> T) -> Vec<T> {
        let path = self.at(key);
        match self.get(key) {
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, item)| read(item, &format!("{path}[{i}]"), self.problems))
                .collect(),
            _ => {
                if self.present(key) {
                    note(self.problems, &path, "expected a list");
                }
                Vec::new()
            }
        }
    }

    /// A list that may be absent (`#[serde(default)]`).
    fn list_or_empty<T>(&self, key: &str, read: fn(&Value, &str, &Problems) -> T) -> Vec<T> {
        match self.maybe(key) {
            None => Vec::new(),
            Some(_) => self.list(key, read),
        }
    }

    /// A unit enum written in snake_case, one of `names` (the first when
    /// it is none of them, with a problem).
    fn one_of<T: Copy>(&self, key: &str, names: &[(&str, T)]) -> T {
        let v = self.get(key);
        match v.as_str().and_then(|s| names.iter().find(|(name, _)| *name == s)) {
            Some((_, t)) => *t,
            None => {
                if self.present(key) {
                    let all: Vec<&str> = names.iter().map(|(name, _)| *name).collect();
                    self.wrong(key, &format!("expected one of: {}", all.join(", ")));
                }
                names[0].1
            }
        }
    }
}

fn text(v: &Value, path: &str, problems: &Problems) -> String {
    v.as_str().map(str::to_owned).unwrap_or_else(|| {
        note(problems, path, "expected text");
        String::new()
    })
}

const PARTS: [(&str, Part); 3] = [
    ("queue_wait", Part::QueueWait),
    ("prefill", Part::Prefill),
    ("emit", Part::Emit),
];

const CAUSES: [(&str, CauseClass); 4] = [
    ("queue", CauseClass::Queue),
    ("prefill", CauseClass::Prefill),
    ("emit", CauseClass::Emit),
    ("within_target", CauseClass::WithinTarget),
];

const QUALITY: [(&str, QualityStatus); 3] = [
    ("not_run", QualityStatus::NotRun),
    ("passed", QualityStatus::Passed),
    ("failed", QualityStatus::Failed),
];

/// Reads one exercise with `read`: it, or every problem met.
fn whole<T>(v: &Value, path: &str, read: fn(&Value, &str, &Problems) -> T) -> Result<T, Vec<ContentProblem>> {
    let problems = Problems::default();
    let x = read(v, path, &problems);
    let problems = problems.into_inner();
    if problems.is_empty() {
        Ok(x)
    } else {
        Err(problems)
    }
}

/// The trace exercise in `v`, at `path`.
pub fn trace_exercise(v: &Value, path: &str) -> Result<TraceExercise, Vec<ContentProblem>> {
    whole(v, path, |v, path, problems| {
        let f = object(v, path, problems);
        TraceExercise {
            id: f.string("id"),
            title: f.string("title"),
            intro: f.string("intro"),
            target_ms: f.int("target_ms"),
            share_tolerance_tenths: f.int("share_tolerance_tenths"),
            requests: f.list("requests", trace_row),
            actions: f.list("actions", action),
            misconceptions: f.list("misconceptions", misconception),
        }
    })
}

fn trace_row(v: &Value, path: &str, problems: &Problems) -> TraceRow {
    let f = object(v, path, problems);
    let answer = f.fields("answer");
    TraceRow {
        id: f.string("id"),
        prompt_tokens: f.uint("prompt_tokens"),
        prompt_note: f.optional_string("prompt_note"),
        queued_at_arrival: f.uint("queued_at_arrival"),
        queue_wait_ms: f.int("queue_wait_ms"),
        prefill_ms: f.int("prefill_ms"),
        emit_ms: f.int("emit_ms"),
        ttft_ms: f.int("ttft_ms"),
        output_rate_tps: f.uint32("output_rate_tps"),
        answer: RowAnswer {
            dominant: answer.one_of("dominant", &PARTS),
            share_percent: answer.number("share_percent"),
            investigate: answer.one_of("investigate", &CAUSES),
            reasoning: answer.string("reasoning"),
        },
    }
}

fn action(v: &Value, path: &str, problems: &Problems) -> Action {
    let f = object(v, path, problems);
    Action {
        id: f.string("id"),
        label: f.string("label"),
        class: f.one_of("class", &CAUSES),
        protects_others: f.flag_or_false("protects_others"),
    }
}

fn misconception(v: &Value, path: &str, problems: &Problems) -> MisconceptionText {
    let f = object(v, path, problems);
    MisconceptionText {
        id: f.string("id"),
        title: f.string("title"),
        text: f.string("text"),
    }
}

/// The configuration exercise in `v`, at `path`.
pub fn config_exercise(v: &Value, path: &str) -> Result<ConfigExercise, Vec<ContentProblem>> {
    whole(v, path, |v, path, problems| {
        let f = object(v, path, problems);
        ConfigExercise {
            id: f.string("id"),
            title: f.string("title"),
            intro: f.string("intro"),
            late_after_ms: f.int_or("late_after_ms", crate::content::default_late_after_ms()),
            configs: f.list("configs", serving_config),
            workloads: f.list("workloads", workload),
            evidence: f.list("evidence", evidence_option),
        }
    })
}

fn serving_config(v: &Value, path: &str, problems: &Problems) -> ServingConfig {
    let f = object(v, path, problems);
    ServingConfig {
        id: f.string("id"),
        weights: f.string("weights"),
        max_sequences_per_batch: f.uint32("max_sequences_per_batch"),
        throughput_tps: f.uint("throughput_tps"),
        p95_ttft_ms: f.int("p95_ttft_ms"),
        late_first_token_tenths: f.int("late_first_token_tenths"),
        failed_or_rejected_tenths: f.int("failed_or_rejected_tenths"),
        quality: f.one_of("quality", &QUALITY),
        quality_note: f.string("quality_note"),
    }
}

fn workload(v: &Value, path: &str, problems: &Problems) -> Workload {
    let f = object(v, path, problems);
    let answer = f.fields("answer");
    Workload {
        id: f.string("id"),
        name: f.string("name"),
        description: f.string("description"),
        need: need(&f.fields("need")),
        answer: WorkloadAnswer {
            choice: answer.string("choice"),
            conditional: answer.list_or_empty("conditional", conditional_choice),
            evidence_needed: answer.list("evidence_needed", text),
            reasoning: answer.string("reasoning"),
        },
    }
}

fn need(f: &Fields<'_>) -> WorkloadNeed {
    if f.one_of("kind", &[("interactive", true), ("batch", false)]) {
        WorkloadNeed::Interactive {
            ttft_target_ms: f.int("ttft_target_ms"),
        }
    } else {
        WorkloadNeed::Batch {
            items: f.uint("items"),
            output_tokens_per_item: f.uint("output_tokens_per_item"),
            window_secs: f.int("window_secs"),
        }
    }
}

fn conditional_choice(v: &Value, path: &str, problems: &Problems) -> ConditionalChoice {
    let f = object(v, path, problems);
    ConditionalChoice {
        config: f.string("config"),
        condition: f.string("condition"),
    }
}

fn evidence_option(v: &Value, path: &str, problems: &Problems) -> EvidenceOption {
    let f = object(v, path, problems);
    EvidenceOption {
        id: f.string("id"),
        label: f.string("label"),
        why: f.string("why"),
    }
}
