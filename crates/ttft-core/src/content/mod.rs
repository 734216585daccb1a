//! The course content's types: lesson, exercises, rubric, interview question.
//!
//! Content is data. The files under `content/` are TOML, turned into JSON by
//! the app's build script and parsed with these types in the browser; the
//! native content test parses the TOML directly with the same types and
//! checks every stated answer against what the core computes. This module
//! only describes shapes; checking lives in `validate`, `exercises` and
//! `rubric`.
//!
//! Times in content are whole milliseconds (`*_ms`) because that is how the
//! course states them; shares and rates are stated the way a learner would
//! write them and are compared with the core's computed values by the
//! content test, never trusted for display.
//!
//! The only behaviour here is turning a trace row or the worked timeline into
//! the core's [`RequestTrace`], so every module splits content the same way.

pub mod from_json;
pub mod markup;
pub mod template;
pub mod validate;

use serde::{Deserialize, Serialize};
use ttft_latency::split::Part;
use ttft_latency::time::{group_thousands, Micros};
use ttft_latency::timing::{Durations, Events, Outcome, RequestTrace, Timing};

/// What every part of the course reads, one field a content file: the
/// worked timeline and the two exercises, whose figures any part's prose
/// may quote. The [`Lesson`]'s text, and the interview question with its
/// rubric (an [`InterviewPart`]), are values of their own, so a build that
/// does not show them carries none of their text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Course {
    pub worked_timeline: WorkedTimeline,
    pub trace_exercise: TraceExercise,
    pub config_exercise: ConfigExercise,
}

/// The interview part's content: the question and the rubric its answers
/// are self-scored with, one field a content file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InterviewPart {
    pub interview: Interview,
    pub rubric: Rubric,
}

// ---------------------------------------------------------------- lesson

/// The lesson: sections in reading order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lesson {
    pub title: String,
    /// One sentence under the title.
    pub summary: String,
    /// Estimated study time in minutes.
    pub study_minutes: u32,
    pub sections: Vec<Section>,
}

/// A lesson section with a stable id (used as its anchor).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Section {
    pub id: String,
    pub title: String,
    pub blocks: Vec<Block>,
}

/// One block of lesson text. Strings may use the inline markup of
/// `markup`: `**strong**`, `*emphasis*`, `` `code` ``, `[text](https://…)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Block {
    Paragraph {
        text: String,
    },
    List {
        items: Vec<String>,
        #[serde(default)]
        ordered: bool,
    },
    /// A table whose first column heads its row.
    Table {
        caption: String,
        columns: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    /// A set-apart note: a caution, a key idea, a worked example's framing.
    Note {
        #[serde(default)]
        title: Option<String>,
        text: String,
    },
    /// Definition list: term and meaning.
    Terms {
        items: Vec<Term>,
    },
    /// The tickable completion checklist; ticks are remembered by item id.
    Checklist {
        items: Vec<ChecklistItem>,
    },
    /// Sources with links.
    Sources {
        items: Vec<Source>,
    },
    /// An interactive piece the app renders from other content.
    Widget {
        widget: Widget,
    },
}

/// A term and what it means.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Term {
    pub term: String,
    pub meaning: String,
}

/// One tickable line of the checklist.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChecklistItem {
    pub id: String,
    pub text: String,
}

/// A source the lesson draws on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Source {
    pub title: String,
    pub url: String,
    /// What it shows, in a sentence.
    pub note: String,
}

/// Interactive pieces a lesson section can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Widget {
    /// The editable worked timeline of [`WorkedTimeline`].
    WorkedTimeline,
}

// ---------------------------------------------------------------- worked timeline

/// The lesson's worked example: one request's five events, editable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkedTimeline {
    pub request_id: String,
    /// What the request is, in a sentence.
    pub description: String,
    pub prompt_tokens: u64,
    pub output_tokens: u64,
    /// Server clock, ms after arrival.
    pub arrival_ms: i64,
    pub admitted_ms: i64,
    pub prefill_end_ms: i64,
    pub first_token_ms: i64,
    pub last_token_ms: i64,
    /// What the browser measured from sending to first visible text.
    pub browser_first_text_ms: i64,
    /// Stated results, checked against the core by the content test.
    pub expected: WorkedExpected,
}

impl WorkedTimeline {
    /// The request as the core's trace type: five events on the server clock.
    pub fn request_trace(&self) -> RequestTrace {
        let at = |ms: i64| Some(Micros::from_ms(ms));
        RequestTrace {
            id: self.request_id.clone(),
            prompt_tokens: Some(self.prompt_tokens),
            output_tokens: Some(self.output_tokens),
            queued_at_arrival: None,
            outcome: Outcome::Completed,
            timing: Timing::Events(Events {
                arrival: at(self.arrival_ms),
                admitted: at(self.admitted_ms),
                prefill_end: at(self.prefill_end_ms),
                first_token: at(self.first_token_ms),
                last_token: at(self.last_token_ms),
            }),
        }
    }
}

/// The worked timeline's results as the lesson states them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkedExpected {
    pub queue_wait_ms: i64,
    pub prefill_ms: i64,
    pub emit_ms: i64,
    pub ttft_ms: i64,
    pub dominant: Part,
    /// Whole percent.
    pub dominant_share_percent: i64,
    pub time_per_token_ms: i64,
    pub output_rate_tps: i64,
    pub end_to_end_ms: i64,
    pub unseen_by_server_ms: i64,
}

// ---------------------------------------------------------------- trace exercise

/// The class of cause a request's first-token delay belongs to, which decides
/// what to investigate first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CauseClass {
    /// Admission, concurrency, capacity, KV headroom, priority.
    Queue,
    /// Prompt length, history trimming, prefix caching, chunked prefill.
    Prefill,
    /// Sampling and stream writing.
    Emit,
    /// Within target: no action needed.
    WithinTarget,
}

/// The trace exercise: several requests to diagnose against a target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceExercise {
    /// Stable id, used in storage keys and result statements.
    pub id: String,
    pub title: String,
    pub intro: String,
    /// The product's target for server TTFT.
    pub target_ms: i64,
    /// How far a share may be from the computed one and still be "close",
    /// in tenths of a percentage point (20 = 2.0 pp).
    pub share_tolerance_tenths: i64,
    pub requests: Vec<TraceRow>,
    /// The choices for "investigate first", each tied to a cause class.
    pub actions: Vec<Action>,
    /// The sentence or two shown for each misconception the checker names,
    /// keyed by the misconception's snake_case id.
    pub misconceptions: Vec<MisconceptionText>,
}

/// One request of the trace exercise, as the trace table shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceRow {
    pub id: String,
    pub prompt_tokens: u64,
    /// What makes the prompt that size, if anything ("full submission history").
    #[serde(default)]
    pub prompt_note: Option<String>,
    pub queued_at_arrival: u64,
    pub queue_wait_ms: i64,
    pub prefill_ms: i64,
    pub emit_ms: i64,
    /// As the trace states it; must equal the parts' sum.
    pub ttft_ms: i64,
    /// Output rate after the first token, as the trace states it.
    pub output_rate_tps: u32,
    pub answer: RowAnswer,
}

impl TraceRow {
    /// The row as the core's trace type: three stated durations and the
    /// stated TTFT, which the split checks against their sum.
    pub fn request_trace(&self) -> RequestTrace {
        let ms = |v: i64| Some(Micros::from_ms(v));
        RequestTrace {
            id: self.id.clone(),
            prompt_tokens: Some(self.prompt_tokens),
            output_tokens: None,
            queued_at_arrival: Some(self.queued_at_arrival),
            outcome: Outcome::Completed,
            timing: Timing::Durations(Durations {
                queue_wait: ms(self.queue_wait_ms),
                prefill: ms(self.prefill_ms),
                emit: ms(self.emit_ms),
                ttft: ms(self.ttft_ms),
                decode: None,
            }),
        }
    }
}

/// The stated answer for one request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RowAnswer {
    pub dominant: Part,
    /// The dominant part's share of TTFT in percent, as a learner writes it
    /// (one decimal).
    pub share_percent: f64,
    pub investigate: CauseClass,
    /// Why, in two or three sentences, shown on reveal.
    pub reasoning: String,
}

/// A choice for "investigate first".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Action {
    pub id: String,
    pub label: String,
    pub class: CauseClass,
    /// True for a change that protects *other* requests from this one
    /// rather than shortening this request's own first-token time (chunked
    /// prefill keeps others moving during a long prefill, but does not make
    /// that prefill shorter). It fits its class, yet it is never the first
    /// thing to try for a request over its target.
    #[serde(default)]
    pub protects_others: bool,
}

/// Explanation text for one misconception.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MisconceptionText {
    /// The misconception's snake_case id, as the checker names it.
    pub id: String,
    /// A short name ("Milliseconds, not a share").
    pub title: String,
    /// One or two sentences that explain it.
    pub text: String,
}

// ---------------------------------------------------------------- configuration choice

/// Whether quality checks were run on a configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QualityStatus {
    NotRun,
    Passed,
    Failed,
}

/// One measured serving configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServingConfig {
    /// "A", "B".
    pub id: String,
    pub weights: String,
    pub max_sequences_per_batch: u32,
    /// Output tokens per second over all requests.
    pub throughput_tps: u64,
    pub p95_ttft_ms: i64,
    /// Share of requests whose first token came later than the exercise's
    /// `late_after_ms`, in tenths of a percent.
    pub late_first_token_tenths: i64,
    /// Share of requests failed or rejected, in tenths of a percent.
    pub failed_or_rejected_tenths: i64,
    pub quality: QualityStatus,
    /// How the table words the quality status ("Passed (current release)").
    pub quality_note: String,
}

/// What a workload needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WorkloadNeed {
    /// A person is waiting: the first token should come within the target.
    Interactive { ttft_target_ms: i64 },
    /// A batch that must finish within a window.
    Batch {
        items: u64,
        output_tokens_per_item: u64,
        window_secs: i64,
    },
}

/// A workload to choose a configuration for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    pub id: String,
    pub name: String,
    /// What it needs, in the table's words.
    pub description: String,
    pub need: WorkloadNeed,
    pub answer: WorkloadAnswer,
}

/// The stated answer for a workload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkloadAnswer {
    /// The configuration that is right on the evidence in hand.
    pub choice: String,
    /// Configurations acceptable only once more evidence is in, with why.
    #[serde(default)]
    pub conditional: Vec<ConditionalChoice>,
    /// Ids of evidence options that are still needed for this workload.
    pub evidence_needed: Vec<String>,
    /// Why, shown on reveal.
    pub reasoning: String,
}

/// A choice that is acceptable only under a condition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConditionalChoice {
    pub config: String,
    pub condition: String,
}

/// A piece of evidence a learner may say is still needed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvidenceOption {
    pub id: String,
    pub label: String,
    /// Why it matters (or does not), shown in feedback.
    pub why: String,
}

/// The configuration exercise.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigExercise {
    pub id: String,
    pub title: String,
    pub intro: String,
    /// A first token later than this, in ms, counts as late in every
    /// configuration's `late_first_token_tenths`. Files written before the
    /// field existed meant 1,000 ms, so that is its default.
    #[serde(default = "default_late_after_ms")]
    pub late_after_ms: i64,
    pub configs: Vec<ServingConfig>,
    pub workloads: Vec<Workload>,
    pub evidence: Vec<EvidenceOption>,
}

pub(crate) fn default_late_after_ms() -> i64 {
    1_000
}

impl ConfigExercise {
    /// The time after which a first token is late, as the page writes it:
    /// whole seconds as `1 s`, anything else in milliseconds (`1,500 ms`).
    pub fn late_after(&self) -> String {
        let ms = self.late_after_ms;
        if ms > 0 && ms % 1_000 == 0 {
            format!("{} s", group_thousands(ms.unsigned_abs() / 1_000))
        } else {
            Micros::from_ms(ms).to_string()
        }
    }
}

// ---------------------------------------------------------------- interview and rubric

/// The interview question with everything around it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interview {
    pub id: String,
    pub title: String,
    pub question: String,
    pub scenario: String,
    pub trace_rule: String,
    pub constraints: Vec<String>,
    pub deliverables: Vec<String>,
    /// Revealed one at a time, each giving a little more away.
    pub hints: Vec<String>,
    /// Paragraphs of the reference answer.
    pub reference_answer: Vec<String>,
    /// The score the reference answer earns on each rubric dimension, by id.
    pub reference_scores: Vec<DimensionScore>,
    pub followups: Vec<Followup>,
    /// Longest answer the box accepts, in characters.
    pub answer_limit: usize,
}

/// A score on one rubric dimension.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DimensionScore {
    pub dimension: String,
    pub score: u8,
}

/// A follow-up question an interviewer may ask, with a model answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Followup {
    pub id: String,
    pub question: String,
    pub answer: String,
}

/// The self-score rubric.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rubric {
    pub dimensions: Vec<Dimension>,
    /// The total at or above which the learner is ready (8).
    pub ready_at: u8,
    /// The dimension that must not score 0 for readiness.
    pub gate: String,
    /// What the threshold rests on, shown beside it at the self-score (the
    /// course's thresholds are editorial estimates, not measured cut-offs).
    pub threshold_note: String,
}

/// One rubric dimension with what earns each score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dimension {
    pub id: String,
    pub title: String,
    /// What earns 0, 1 and 2, in that order.
    pub levels: [String; 3],
}
