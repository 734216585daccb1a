//! Writes the course as Rust source: one expression that builds the
//! `Course` value the content files hold, one for the `Lesson` and one for
//! the `InterviewPart`,
//! which `build.rs` puts in `$OUT_DIR/course.rs` and `src/course.rs`
//! includes.
//!
//! Why Rust and not embedded JSON: parsing JSON at start-up put serde_json
//! and a deserializer for every content type into every build of the app,
//! even the lesson's, which never reads JSON otherwise (the size report
//! counted about 130 KB of the lesson build's wasm before wasm-opt). Built
//! from code, the course costs only what constructing it costs.
//!
//! Each type's impl destructures the value without `..`, so a field added
//! to a content type stops this build script from compiling until it is
//! written here too; nothing can be left out quietly. The app's test
//! `tests/course_code.rs` checks the generated value against the TOML
//! files read again.

use std::fmt::Write as _;
use ttft_core::content::{
    Action, Block, CauseClass, ChecklistItem, ConditionalChoice, ConfigExercise, Course,
    Dimension, DimensionScore, EvidenceOption, Followup, Interview, InterviewPart, Lesson,
    MisconceptionText,
    QualityStatus, Rubric, Section, ServingConfig, Source, Term, TraceExercise, TraceRow,
    RowAnswer, Widget, WorkedExpected, WorkedTimeline, Workload, WorkloadAnswer, WorkloadNeed,
};
use ttft_latency::split::Part;

/// A value that can write the Rust expression that rebuilds it.
pub trait Bake {
    fn bake(&self, out: &mut String);
}

/// The Rust expression that builds `value` (the course, the interview part).
pub fn expression(value: &impl Bake) -> String {
    let mut out = String::new();
    value.bake(&mut out);
    out
}

impl Bake for String {
    fn bake(&self, out: &mut String) {
        // `{:?}` of a str is a valid Rust string literal: quotes and
        // backslashes escaped, control and unprintable characters as \u{..}.
        let _ = write!(out, "String::from({self:?})");
    }
}

impl Bake for bool {
    fn bake(&self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

macro_rules! bake_integers {
    ($($t:ty),*) => {$(
        impl Bake for $t {
            fn bake(&self, out: &mut String) {
                let _ = write!(out, "{self}{}", stringify!($t));
            }
        }
    )*};
}
bake_integers!(u8, u32, u64, i64, usize);

impl Bake for f64 {
    fn bake(&self, out: &mut String) {
        if self.is_nan() {
            out.push_str("f64::NAN");
        } else if self.is_infinite() {
            out.push_str(if *self > 0.0 { "f64::INFINITY" } else { "f64::NEG_INFINITY" });
        } else {
            // `{:?}` prints the shortest text that reads back as the same
            // f64, always with a `.` or an exponent.
            let _ = write!(out, "{self:?}f64");
        }
    }
}

impl<T: Bake> Bake for Option<T> {
    fn bake(&self, out: &mut String) {
        match self {
            None => out.push_str("None"),
            Some(value) => {
                out.push_str("Some(");
                value.bake(out);
                out.push(')');
            }
        }
    }
}

fn items<T: Bake>(values: &[T], out: &mut String) {
    for value in values {
        value.bake(out);
        out.push_str(", ");
    }
}

impl<T: Bake> Bake for Vec<T> {
    fn bake(&self, out: &mut String) {
        if self.is_empty() {
            out.push_str("Vec::new()");
        } else {
            out.push_str("vec![");
            items(self, out);
            out.push(']');
        }
    }
}

impl<T: Bake, const N: usize> Bake for [T; N] {
    fn bake(&self, out: &mut String) {
        out.push('[');
        items(self, out);
        out.push(']');
    }
}

/// `Name { a, b }`: a struct, written field by field. The pattern names
/// every field, so a new field is a compile error here.
macro_rules! bake_struct {
    ($name:ident { $($field:ident),* $(,)? }) => {
        impl Bake for $name {
            fn bake(&self, out: &mut String) {
                let $name { $($field),* } = self;
                bake_fields(stringify!($name), &[$((stringify!($field), $field as &dyn Bake)),*], out);
            }
        }
    };
}

/// `path { name: value, .. }`: a struct or an enum's struct variant.
fn bake_fields(path: &str, fields: &[(&str, &dyn Bake)], out: &mut String) {
    out.push_str(path);
    out.push_str(" { ");
    for (name, value) in fields {
        out.push_str(name);
        out.push_str(": ");
        value.bake(out);
        out.push_str(", ");
    }
    out.push('}');
}

/// An enum of unit variants, matched exhaustively.
macro_rules! bake_unit_enum {
    ($name:ident { $($variant:ident),* $(,)? }) => {
        impl Bake for $name {
            fn bake(&self, out: &mut String) {
                out.push_str(match self {
                    $($name::$variant => concat!(stringify!($name), "::", stringify!($variant)),)*
                });
            }
        }
    };
}

bake_struct!(Course { worked_timeline, trace_exercise, config_exercise });
bake_struct!(InterviewPart { interview, rubric });
bake_struct!(Lesson { title, summary, study_minutes, sections });
bake_struct!(Section { id, title, blocks });
bake_struct!(Term { term, meaning });
bake_struct!(ChecklistItem { id, text });
bake_struct!(Source { title, url, note });
bake_unit_enum!(Widget { WorkedTimeline });
bake_struct!(WorkedTimeline {
    request_id, description, prompt_tokens, output_tokens, arrival_ms, admitted_ms,
    prefill_end_ms, first_token_ms, last_token_ms, browser_first_text_ms, expected,
});
bake_struct!(WorkedExpected {
    queue_wait_ms, prefill_ms, emit_ms, ttft_ms, dominant, dominant_share_percent,
    time_per_token_ms, output_rate_tps, end_to_end_ms, unseen_by_server_ms,
});
bake_unit_enum!(Part { QueueWait, Prefill, Emit });
bake_unit_enum!(CauseClass { Queue, Prefill, Emit, WithinTarget });
bake_struct!(TraceExercise {
    id, title, intro, target_ms, share_tolerance_tenths, requests, actions, misconceptions,
});
bake_struct!(TraceRow {
    id, prompt_tokens, prompt_note, queued_at_arrival, queue_wait_ms, prefill_ms, emit_ms,
    ttft_ms, output_rate_tps, answer,
});
bake_struct!(RowAnswer { dominant, share_percent, investigate, reasoning });
bake_struct!(Action { id, label, class, protects_others });
bake_struct!(MisconceptionText { id, title, text });
bake_unit_enum!(QualityStatus { NotRun, Passed, Failed });
bake_struct!(ServingConfig {
    id, weights, max_sequences_per_batch, throughput_tps, p95_ttft_ms, late_first_token_tenths,
    failed_or_rejected_tenths, quality, quality_note,
});
bake_struct!(Workload { id, name, description, need, answer });
bake_struct!(WorkloadAnswer { choice, conditional, evidence_needed, reasoning });
bake_struct!(ConditionalChoice { config, condition });
bake_struct!(EvidenceOption { id, label, why });
bake_struct!(ConfigExercise { id, title, intro, late_after_ms, configs, workloads, evidence });
bake_struct!(Interview {
    id, title, question, scenario, trace_rule, constraints, deliverables, hints,
    reference_answer, reference_scores, followups, answer_limit,
});
bake_struct!(DimensionScore { dimension, score });
bake_struct!(Followup { id, question, answer });
bake_struct!(Rubric { dimensions, ready_at, gate, threshold_note });
bake_struct!(Dimension { id, title, levels });

// The two enums with struct variants, matched exhaustively.
impl Bake for Block {
    fn bake(&self, out: &mut String) {
        let (path, fields): (&str, Vec<(&str, &dyn Bake)>) = match self {
            Block::Paragraph { text } => ("Block::Paragraph", vec![("text", text)]),
            Block::List { items, ordered } => {
                ("Block::List", vec![("items", items), ("ordered", ordered)])
            }
            Block::Table { caption, columns, rows } => (
                "Block::Table",
                vec![("caption", caption), ("columns", columns), ("rows", rows)],
            ),
            Block::Note { title, text } => ("Block::Note", vec![("title", title), ("text", text)]),
            Block::Terms { items } => ("Block::Terms", vec![("items", items)]),
            Block::Checklist { items } => ("Block::Checklist", vec![("items", items)]),
            Block::Sources { items } => ("Block::Sources", vec![("items", items)]),
            Block::Widget { widget } => ("Block::Widget", vec![("widget", widget)]),
        };
        bake_fields(path, &fields, out);
    }
}

impl Bake for WorkloadNeed {
    fn bake(&self, out: &mut String) {
        let (path, fields): (&str, Vec<(&str, &dyn Bake)>) = match self {
            WorkloadNeed::Interactive { ttft_target_ms } => {
                ("WorkloadNeed::Interactive", vec![("ttft_target_ms", ttft_target_ms)])
            }
            WorkloadNeed::Batch { items, output_tokens_per_item, window_secs } => (
                "WorkloadNeed::Batch",
                vec![
                    ("items", items),
                    ("output_tokens_per_item", output_tokens_per_item),
                    ("window_secs", window_secs),
                ],
            ),
        };
        bake_fields(path, &fields, out);
    }
}
