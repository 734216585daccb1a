//! Content validation: every problem in a course, each with a path and a
//! plain message, so content cannot drift from the logic that checks it.
//!
//! Stated answers are compared with what the core computes from the same
//! data: a trace row's TTFT with its parts, its stated dominant delay, share
//! and investigate class with the split's; the worked timeline's expected
//! values with its events; each workload's stated choice with the
//! configuration arithmetic; the reference scores with the rubric. Ids must
//! be unique, references must resolve, and every misconception the checker
//! can name must have its text.
//!
//! The parts validate on their own too ([`validate_trace_exercise`],
//! [`validate_config_exercise`], ...), because instructors will author a
//! trace or configuration exercise alone; their paths start with the field
//! name the part has in a [`Course`]. Validation collects every problem
//! instead of stopping at the first, and never panics. It does not read
//! files (the content test does) or check prose wording.
//!
//! The rules about prose apply here too, so an instructor's file meets the
//! same ones as the built-in course: section ids are kebab-case anchors,
//! every placeholder fills and no markup would reach a learner as stray
//! symbols. An exercise's prose is filled from that exercise alone (an
//! authored file can only cite its own figures); the lesson, interview and
//! rubric from the whole course, where a placeholder subject must name one
//! thing only.

use crate::content::markup::{parse, Inline};
use crate::content::template::{fill_from, Sources};
use crate::content::{
    Block, CauseClass, ConfigExercise, Course, Interview, InterviewPart, Lesson, Rubric, TraceExercise,
    WorkedTimeline, WorkloadNeed,
};
use crate::exercises::config_choice::{plan, WorkloadPlan};
use crate::exercises::trace_exercise::{expect, Misconception};
use crate::rubric::MAX_SCORE;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use ttft_latency::decimal::shortest;
use ttft_latency::split::{split_request, unseen_by_server, Dominant};
use ttft_latency::time::Micros;
use ttft_latency::timing::{Field, TimingError};

/// One problem in the content: where, and what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContentProblem {
    /// Where, like `trace_exercise.requests[1].answer.share_percent`.
    pub path: String,
    /// What is wrong, in a sentence.
    pub message: String,
}

impl fmt::Display for ContentProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Collects problems under a path prefix.
struct Problems(Vec<ContentProblem>);

impl Problems {
    fn add(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.push(ContentProblem {
            path: path.into(),
            message: message.into(),
        });
    }

    /// Every id used more than once in `ids` (with the path of each repeat).
    fn unique<'a>(&mut self, what: &str, ids: impl IntoIterator<Item = (String, &'a str)>) {
        let mut seen: HashMap<&str, String> = HashMap::new();
        for (path, id) in ids {
            if id.trim().is_empty() {
                self.add(path, format!("the {what} id is empty"));
            } else if let Some(first) = seen.get(id) {
                self.add(
                    path,
                    format!("the {what} id \"{id}\" is already used at {first}"),
                );
            } else {
                seen.insert(id, path);
            }
        }
    }
}

impl Problems {
    /// Every string fills from `sources` and leaves no markup as text.
    fn prose<'a>(
        &mut self,
        sources: &Sources<'_>,
        strings: impl IntoIterator<Item = (String, &'a str)>,
    ) {
        for (path, text) in strings {
            match fill_from(text, sources) {
                Ok(filled) => {
                    if let Some(why) = stray_markup(&parse(&filled)) {
                        self.add(path, why);
                    }
                }
                Err(e) => self.add(path, e.to_string()),
            }
        }
    }
}

/// Markup the parser leaves as plain text would show the learner stray
/// asterisks, backticks or brackets.
fn stray_markup(inlines: &[Inline]) -> Option<String> {
    inlines.iter().find_map(|inline| match inline {
        Inline::Text(t) => ["*", "`", "](", "<"]
            .into_iter()
            .find(|d| t.contains(d))
            .map(|d| format!("`{d}` left as text in {t:?}")),
        Inline::Strong(inner) | Inline::Emphasis(inner) => stray_markup(inner),
        Inline::Link { text, .. } => stray_markup(text),
        Inline::Code(_) => None,
    })
}

/// The lesson's prose strings, each with its path.
fn lesson_strings(l: &Lesson) -> Vec<(String, &str)> {
    let mut all: Vec<(String, &str)> = vec![
        ("lesson.title".into(), &l.title),
        ("lesson.summary".into(), &l.summary),
    ];
    for (i, s) in l.sections.iter().enumerate() {
        let at = format!("lesson.sections[{i}]");
        all.push((format!("{at}.title"), &s.title));
        for (b, block) in s.blocks.iter().enumerate() {
            let at = format!("{at}.blocks[{b}]");
            match block {
                Block::Paragraph { text } => all.push((format!("{at}.text"), text)),
                Block::List { items, .. } => all.extend(
                    items
                        .iter()
                        .enumerate()
                        .map(|(k, t)| (format!("{at}.items[{k}]"), t.as_str())),
                ),
                Block::Table {
                    caption,
                    columns,
                    rows,
                } => {
                    all.push((format!("{at}.caption"), caption));
                    all.extend(
                        columns
                            .iter()
                            .enumerate()
                            .map(|(k, t)| (format!("{at}.columns[{k}]"), t.as_str())),
                    );
                    for (r, row) in rows.iter().enumerate() {
                        all.extend(
                            row.iter()
                                .enumerate()
                                .map(|(k, t)| (format!("{at}.rows[{r}][{k}]"), t.as_str())),
                        );
                    }
                }
                Block::Note { title, text } => {
                    all.extend(title.iter().map(|t| (format!("{at}.title"), t.as_str())));
                    all.push((format!("{at}.text"), text));
                }
                Block::Terms { items } => {
                    for (k, t) in items.iter().enumerate() {
                        all.push((format!("{at}.items[{k}].term"), &t.term));
                        all.push((format!("{at}.items[{k}].meaning"), &t.meaning));
                    }
                }
                Block::Checklist { items } => all.extend(
                    items
                        .iter()
                        .enumerate()
                        .map(|(k, t)| (format!("{at}.items[{k}].text"), t.text.as_str())),
                ),
                Block::Sources { items } => {
                    for (k, s) in items.iter().enumerate() {
                        all.push((format!("{at}.items[{k}].title"), &s.title));
                        all.push((format!("{at}.items[{k}].note"), &s.note));
                    }
                }
                Block::Widget { .. } => {}
            }
        }
    }
    all
}

/// The trace exercise's prose strings, each with its path.
fn trace_strings(x: &TraceExercise) -> Vec<(String, &str)> {
    let base = "trace_exercise";
    let mut all: Vec<(String, &str)> = vec![
        (format!("{base}.title"), &x.title),
        (format!("{base}.intro"), &x.intro),
    ];
    for (i, r) in x.requests.iter().enumerate() {
        all.extend(
            r.prompt_note
                .iter()
                .map(|n| (format!("{base}.requests[{i}].prompt_note"), n.as_str())),
        );
        all.push((
            format!("{base}.requests[{i}].answer.reasoning"),
            &r.answer.reasoning,
        ));
    }
    all.extend(
        x.actions
            .iter()
            .enumerate()
            .map(|(i, a)| (format!("{base}.actions[{i}].label"), a.label.as_str())),
    );
    for (i, m) in x.misconceptions.iter().enumerate() {
        all.push((format!("{base}.misconceptions[{i}].title"), &m.title));
        all.push((format!("{base}.misconceptions[{i}].text"), &m.text));
    }
    all
}

/// The configuration exercise's prose strings, each with its path.
fn config_strings(x: &ConfigExercise) -> Vec<(String, &str)> {
    let base = "config_exercise";
    let mut all: Vec<(String, &str)> = vec![
        (format!("{base}.title"), &x.title),
        (format!("{base}.intro"), &x.intro),
    ];
    for (i, c) in x.configs.iter().enumerate() {
        all.push((format!("{base}.configs[{i}].weights"), &c.weights));
        all.push((format!("{base}.configs[{i}].quality_note"), &c.quality_note));
    }
    for (i, w) in x.workloads.iter().enumerate() {
        let at = format!("{base}.workloads[{i}]");
        all.push((format!("{at}.name"), &w.name));
        all.push((format!("{at}.description"), &w.description));
        all.push((format!("{at}.answer.reasoning"), &w.answer.reasoning));
        all.extend(w.answer.conditional.iter().enumerate().map(|(k, c)| {
            (
                format!("{at}.answer.conditional[{k}].condition"),
                c.condition.as_str(),
            )
        }));
    }
    for (i, e) in x.evidence.iter().enumerate() {
        all.push((format!("{base}.evidence[{i}].label"), &e.label));
        all.push((format!("{base}.evidence[{i}].why"), &e.why));
    }
    all
}

/// The interview's and rubric's prose strings, each with its path.
fn interview_strings<'a>(i: &'a Interview, r: &'a Rubric) -> Vec<(String, &'a str)> {
    let mut all: Vec<(String, &str)> = [
        ("title", &i.title),
        ("question", &i.question),
        ("scenario", &i.scenario),
        ("trace_rule", &i.trace_rule),
    ]
    .into_iter()
    .map(|(at, s)| (format!("interview.{at}"), s.as_str()))
    .collect();
    for (name, list) in [
        ("constraints", &i.constraints),
        ("deliverables", &i.deliverables),
        ("hints", &i.hints),
        ("reference_answer", &i.reference_answer),
    ] {
        all.extend(
            list.iter()
                .enumerate()
                .map(|(k, s)| (format!("interview.{name}[{k}]"), s.as_str())),
        );
    }
    for (k, f) in i.followups.iter().enumerate() {
        all.push((format!("interview.followups[{k}].question"), &f.question));
        all.push((format!("interview.followups[{k}].answer"), &f.answer));
    }
    for (k, d) in r.dimensions.iter().enumerate() {
        all.push((format!("rubric.dimensions[{k}].title"), &d.title));
        all.extend(
            d.levels
                .iter()
                .enumerate()
                .map(|(n, s)| (format!("rubric.dimensions[{k}].levels[{n}]"), s.as_str())),
        );
    }
    all.push(("rubric.threshold_note".into(), &r.threshold_note));
    all
}

/// Every problem in the whole course: what every part reads, the lesson,
/// and the interview part.
pub fn validate_course(course: &Course, lesson: &Lesson, interview: &InterviewPart) -> Vec<ContentProblem> {
    let mut p = Problems(Vec::new());
    p.0.extend(validate_lesson(lesson));
    p.0.extend(validate_worked_timeline(&course.worked_timeline));
    p.0.extend(validate_trace_exercise(&course.trace_exercise));
    p.0.extend(validate_config_exercise(&course.config_exercise));
    p.0.extend(validate_rubric(&interview.rubric));
    p.0.extend(validate_interview(&interview.interview, &interview.rubric));
    p.unique(
        "exercise",
        [
            (
                "trace_exercise.id".to_owned(),
                course.trace_exercise.id.as_str(),
            ),
            (
                "config_exercise.id".to_owned(),
                course.config_exercise.id.as_str(),
            ),
            ("interview.id".to_owned(), interview.interview.id.as_str()),
        ],
    );
    // Placeholders name rows, workloads and `worked` in one namespace.
    let rows = course
        .trace_exercise
        .requests
        .iter()
        .enumerate()
        .map(|(i, r)| (format!("trace_exercise.requests[{i}].id"), r.id.as_str()));
    let workloads = course
        .config_exercise
        .workloads
        .iter()
        .enumerate()
        .map(|(i, w)| (format!("config_exercise.workloads[{i}].id"), w.id.as_str()));
    p.unique(
        "placeholder subject",
        [("worked_timeline".to_owned(), "worked")]
            .into_iter()
            .chain(rows)
            .chain(workloads),
    );
    let all = Sources::course(course);
    p.prose(&all, lesson_strings(lesson));
    p.prose(
        &all,
        [(
            "worked_timeline.description".to_owned(),
            course.worked_timeline.description.as_str(),
        )],
    );
    p.prose(&all, interview_strings(&interview.interview, &interview.rubric));
    p.0
}

/// Section ids and checklist item ids are unique.
pub fn validate_lesson(lesson: &Lesson) -> Vec<ContentProblem> {
    let mut p = Problems(Vec::new());
    p.unique(
        "section",
        lesson
            .sections
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("lesson.sections[{i}].id"), s.id.as_str())),
    );
    for (i, s) in lesson.sections.iter().enumerate() {
        let kebab =
            s.id.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !s.id.starts_with('-')
                && !s.id.ends_with('-');
        if !kebab {
            p.add(
                format!("lesson.sections[{i}].id"),
                format!("\"{}\" is not a kebab-case anchor (a-z, 0-9 and -)", s.id),
            );
        }
    }
    let mut items = Vec::new();
    for (i, s) in lesson.sections.iter().enumerate() {
        for (j, b) in s.blocks.iter().enumerate() {
            if let Block::Checklist { items: list } = b {
                for (k, item) in list.iter().enumerate() {
                    items.push((
                        format!("lesson.sections[{i}].blocks[{j}].items[{k}].id"),
                        item.id.as_str(),
                    ));
                }
            }
        }
    }
    p.unique("checklist item", items);
    p.0
}

/// A cause class as content files spell it.
fn class_id(c: CauseClass) -> &'static str {
    match c {
        CauseClass::Queue => "queue",
        CauseClass::Prefill => "prefill",
        CauseClass::Emit => "emit",
        CauseClass::WithinTarget => "within_target",
    }
}

/// The path of a request field in a trace row.
fn row_field(field: Field) -> &'static str {
    match field {
        Field::QueueWait => "queue_wait_ms",
        Field::Prefill => "prefill_ms",
        Field::Emit => "emit_ms",
        Field::PromptTokens => "prompt_tokens",
        _ => "ttft_ms",
    }
}

/// The path of an event field in the worked timeline.
fn timeline_field(field: Field) -> &'static str {
    match field {
        Field::Arrival => "arrival_ms",
        Field::Admitted => "admitted_ms",
        Field::PrefillEnd => "prefill_end_ms",
        Field::FirstToken => "first_token_ms",
        Field::LastToken => "last_token_ms",
        Field::PromptTokens => "prompt_tokens",
        Field::OutputTokens => "output_tokens",
        _ => "first_token_ms",
    }
}

/// The worked timeline's events split, and every expected value equal to
/// what the core computes.
pub fn validate_worked_timeline(w: &WorkedTimeline) -> Vec<ContentProblem> {
    let mut p = Problems(Vec::new());
    let base = "worked_timeline";
    let s = match split_request(&w.request_trace()) {
        Ok(s) => s,
        Err(e) => {
            p.add(
                format!("{base}.{}", timeline_field(e.field())),
                e.to_string(),
            );
            return p.0;
        }
    };
    let e = &w.expected;
    let mut ms = |field: &str, stated: i64, computed: Option<Micros>| {
        let path = format!("{base}.expected.{field}");
        match computed {
            Some(c) if c == Micros::from_ms(stated) => {}
            Some(c) => p.add(path, format!("states {stated} ms but the events give {c}")),
            None => p.add(path, "the events do not give this value"),
        }
    };
    ms("queue_wait_ms", e.queue_wait_ms, Some(s.split.queue_wait));
    ms("prefill_ms", e.prefill_ms, Some(s.split.prefill));
    ms("emit_ms", e.emit_ms, Some(s.split.emit));
    ms("ttft_ms", e.ttft_ms, Some(s.ttft()));
    ms(
        "time_per_token_ms",
        e.time_per_token_ms,
        s.decode.and_then(|d| d.time_per_token()),
    );
    ms("end_to_end_ms", e.end_to_end_ms, s.end_to_end);
    ms(
        "unseen_by_server_ms",
        e.unseen_by_server_ms,
        Some(unseen_by_server(
            s.ttft(),
            Micros::from_ms(w.browser_first_text_ms),
        )),
    );
    let dominant = s.split.dominant();
    if dominant != Dominant::Single(e.dominant) {
        p.add(
            format!("{base}.expected.dominant"),
            format!("states {} but the events give {dominant}", e.dominant),
        );
    }
    match s.split.share(e.dominant).whole_percent() {
        Some(v) if v == e.dominant_share_percent => {}
        Some(v) => p.add(
            format!("{base}.expected.dominant_share_percent"),
            format!(
                "states {}% but {} is {v}% of TTFT",
                e.dominant_share_percent, e.dominant
            ),
        ),
        None => p.add(
            format!("{base}.expected.dominant_share_percent"),
            "TTFT is zero, so there is no share",
        ),
    }
    let rate = s.decode.and_then(|d| d.output_rate()).map(|r| r.round());
    if rate != Some(e.output_rate_tps as f64) {
        let got = rate.map_or_else(|| "no rate".to_owned(), |r| format!("{} tokens/s", shortest(r)));
        p.add(
            format!("{base}.expected.output_rate_tps"),
            format!(
                "states {} tokens/s but the events give {got}",
                e.output_rate_tps
            ),
        );
    }
    p.0
}

/// Every row splits and its stated answer equals the computed one; ids are
/// unique; every misconception has text; every needed class has an action.
pub fn validate_trace_exercise(x: &TraceExercise) -> Vec<ContentProblem> {
    let mut p = Problems(Vec::new());
    let base = "trace_exercise";
    if x.target_ms <= 0 {
        p.add(format!("{base}.target_ms"), "the target must be above zero");
    }
    if x.share_tolerance_tenths < 0 {
        p.add(
            format!("{base}.share_tolerance_tenths"),
            "the tolerance cannot be below zero",
        );
    }
    if x.requests.is_empty() {
        p.add(format!("{base}.requests"), "the exercise has no requests");
    }
    p.unique(
        "request",
        x.requests
            .iter()
            .enumerate()
            .map(|(i, r)| (format!("{base}.requests[{i}].id"), r.id.as_str())),
    );
    p.unique(
        "action",
        x.actions
            .iter()
            .enumerate()
            .map(|(i, a)| (format!("{base}.actions[{i}].id"), a.id.as_str())),
    );
    p.unique(
        "misconception",
        x.misconceptions
            .iter()
            .enumerate()
            .map(|(i, m)| (format!("{base}.misconceptions[{i}].id"), m.id.as_str())),
    );
    let target = Micros::from_ms(x.target_ms);
    for (i, row) in x.requests.iter().enumerate() {
        let at = format!("{base}.requests[{i}]");
        let split = match split_request(&row.request_trace()) {
            Ok(s) => s.split,
            Err(e) => {
                let field = match &e {
                    TimingError::TtftMismatch { .. } => "ttft_ms",
                    other => row_field(other.field()),
                };
                p.add(format!("{at}.{field}"), e.to_string());
                continue;
            }
        };
        let expected = expect(split, target);
        let a = &row.answer;
        if !expected.dominant.includes(a.dominant) {
            p.add(
                format!("{at}.answer.dominant"),
                format!(
                    "{}: states {} but the parts give {}",
                    row.id, a.dominant, expected.dominant
                ),
            );
            continue;
        }
        let stated_tenths = (a.share_percent.is_finite() && a.share_percent.abs() < 1e12)
            .then(|| (a.share_percent * 10.0).round() as i64);
        let computed = split.share(a.dominant);
        if stated_tenths != computed.tenths() {
            p.add(
                format!("{at}.answer.share_percent"),
                format!(
                    "{}: states {}% but {} is {computed} of TTFT",
                    row.id,
                    shortest(a.share_percent),
                    a.dominant
                ),
            );
        }
        if !expected.classes.contains(&a.investigate) {
            let implied: Vec<&str> = expected.classes.iter().map(|&c| class_id(c)).collect();
            p.add(
                format!("{at}.answer.investigate"),
                format!(
                    "{}: states {} but the dominant delay and the {} target imply {}",
                    row.id,
                    class_id(a.investigate),
                    target,
                    implied.join(" or ")
                ),
            );
        }
        if row.answer.reasoning.trim().is_empty() {
            p.add(
                format!("{at}.answer.reasoning"),
                format!("{}: the reasoning is empty", row.id),
            );
        }
        for class in &expected.classes {
            if !x.actions.iter().any(|act| act.class == *class) {
                p.add(
                    format!("{base}.actions"),
                    format!(
                        "{}: no action offers the {} class this request needs",
                        row.id,
                        class_id(*class)
                    ),
                );
            }
        }
    }
    for m in Misconception::ALL {
        match x.misconceptions.iter().find(|t| t.id == m.id()) {
            None => p.add(
                format!("{base}.misconceptions"),
                format!("no text for the misconception \"{}\"", m.id()),
            ),
            Some(t) if t.text.trim().is_empty() || t.title.trim().is_empty() => p.add(
                format!("{base}.misconceptions"),
                format!(
                    "the misconception \"{}\" has an empty title or text",
                    m.id()
                ),
            ),
            Some(_) => {}
        }
    }
    for (i, t) in x.misconceptions.iter().enumerate() {
        if Misconception::from_id(&t.id).is_none() {
            p.add(
                format!("{base}.misconceptions[{i}].id"),
                format!("\"{}\" is not a misconception the checker names", t.id),
            );
        }
    }
    p.prose(
        &Sources {
            trace: Some(x),
            ..Sources::default()
        },
        trace_strings(x),
    );
    p.0
}

/// Ids unique, references resolve, the arithmetic works, and each stated
/// choice (and each conditional one) meets its workload's need.
pub fn validate_config_exercise(x: &ConfigExercise) -> Vec<ContentProblem> {
    let mut p = Problems(Vec::new());
    let base = "config_exercise";
    p.unique(
        "configuration",
        x.configs
            .iter()
            .enumerate()
            .map(|(i, c)| (format!("{base}.configs[{i}].id"), c.id.as_str())),
    );
    p.unique(
        "workload",
        x.workloads
            .iter()
            .enumerate()
            .map(|(i, w)| (format!("{base}.workloads[{i}].id"), w.id.as_str())),
    );
    p.unique(
        "evidence",
        x.evidence
            .iter()
            .enumerate()
            .map(|(i, e)| (format!("{base}.evidence[{i}].id"), e.id.as_str())),
    );
    if x.late_after_ms <= 0 {
        p.add(
            format!("{base}.late_after_ms"),
            format!(
                "a first token is late after a time above zero, not {} ms",
                x.late_after_ms
            ),
        );
    }
    for (i, c) in x.configs.iter().enumerate() {
        let at = format!("{base}.configs[{i}]");
        if c.throughput_tps == 0 {
            p.add(
                format!("{at}.throughput_tps"),
                format!("{}: throughput must be above zero", c.id),
            );
        }
        if c.p95_ttft_ms < 0 {
            p.add(
                format!("{at}.p95_ttft_ms"),
                format!("{}: a latency cannot be below zero", c.id),
            );
        }
        for (field, v) in [
            ("late_first_token_tenths", c.late_first_token_tenths),
            ("failed_or_rejected_tenths", c.failed_or_rejected_tenths),
        ] {
            if !(0..=1_000).contains(&v) {
                p.add(
                    format!("{at}.{field}"),
                    format!(
                        "{}: a share in tenths of a percent runs from 0 to 1000, not {v}",
                        c.id
                    ),
                );
            }
        }
    }
    for (i, w) in x.workloads.iter().enumerate() {
        let at = format!("{base}.workloads[{i}]");
        if let WorkloadNeed::Interactive { ttft_target_ms } = w.need {
            if ttft_target_ms <= 0 {
                p.add(
                    format!("{at}.need.ttft_target_ms"),
                    format!("{}: the target must be above zero", w.id),
                );
            }
        }
        let plan = match plan(w, &x.configs) {
            Ok(plan) => plan,
            Err(e) => {
                p.add(format!("{at}.need"), e.to_string());
                continue;
            }
        };
        let meets = |config: &str| -> Option<bool> {
            match &plan {
                WorkloadPlan::Interactive { configs, .. } => configs
                    .iter()
                    .find(|f| f.config == config)
                    .map(|f| f.meets_target),
                WorkloadPlan::Batch(b) => b
                    .configs
                    .iter()
                    .find(|f| f.config == config)
                    .map(|f| f.fits),
            }
        };
        match meets(&w.answer.choice) {
            None => p.add(
                format!("{at}.answer.choice"),
                format!("{}: \"{}\" is not a configuration", w.id, w.answer.choice),
            ),
            Some(false) => p.add(
                format!("{at}.answer.choice"),
                format!(
                    "{}: the stated choice {} does not meet the workload's need on these figures",
                    w.id, w.answer.choice
                ),
            ),
            Some(true) => {}
        }
        for (j, c) in w.answer.conditional.iter().enumerate() {
            let path = format!("{at}.answer.conditional[{j}].config");
            match meets(&c.config) {
                None => p.add(
                    path,
                    format!("{}: \"{}\" is not a configuration", w.id, c.config),
                ),
                Some(_) if c.config == w.answer.choice => p.add(
                    path,
                    format!(
                        "{}: {} is already the choice, so it cannot also be conditional",
                        w.id, c.config
                    ),
                ),
                Some(false) => p.add(
                    path,
                    format!(
                        "{}: {} cannot meet the need under any condition on these figures",
                        w.id, c.config
                    ),
                ),
                Some(true) => {}
            }
        }
        for (j, id) in w.answer.evidence_needed.iter().enumerate() {
            if !x.evidence.iter().any(|e| &e.id == id) {
                p.add(
                    format!("{at}.answer.evidence_needed[{j}]"),
                    format!("{}: \"{id}\" is not an evidence option", w.id),
                );
            }
        }
    }
    p.prose(
        &Sources {
            config: Some(x),
            ..Sources::default()
        },
        config_strings(x),
    );
    p.0
}

/// Dimension ids unique, three non-empty levels each, the gate names a
/// dimension, and the threshold is reachable.
pub fn validate_rubric(r: &Rubric) -> Vec<ContentProblem> {
    let mut p = Problems(Vec::new());
    let base = "rubric";
    p.unique(
        "dimension",
        r.dimensions
            .iter()
            .enumerate()
            .map(|(i, d)| (format!("{base}.dimensions[{i}].id"), d.id.as_str())),
    );
    for (i, d) in r.dimensions.iter().enumerate() {
        for (level, text) in d.levels.iter().enumerate() {
            if text.trim().is_empty() {
                p.add(
                    format!("{base}.dimensions[{i}].levels[{level}]"),
                    format!("{}: what earns {level} is empty", d.id),
                );
            }
        }
        if d.title.trim().is_empty() {
            p.add(
                format!("{base}.dimensions[{i}].title"),
                format!("{}: the title is empty", d.id),
            );
        }
    }
    if r.threshold_note.trim().is_empty() {
        p.add(
            format!("{base}.threshold_note"),
            "say what the readiness threshold rests on",
        );
    }
    if !r.dimensions.iter().any(|d| d.id == r.gate) {
        p.add(
            format!("{base}.gate"),
            format!("\"{}\" is not a dimension of the rubric", r.gate),
        );
    }
    let max = r.dimensions.len() * usize::from(MAX_SCORE);
    if r.ready_at == 0 || usize::from(r.ready_at) > max {
        p.add(
            format!("{base}.ready_at"),
            format!(
                "{} cannot be a threshold on a total out of {max}",
                r.ready_at
            ),
        );
    }
    p.0
}

/// The reference scores cover every dimension once and total the maximum;
/// ids are unique; there are hints and an answer limit.
pub fn validate_interview(i: &Interview, rubric: &Rubric) -> Vec<ContentProblem> {
    let mut p = Problems(Vec::new());
    let base = "interview";
    p.unique(
        "follow-up",
        i.followups
            .iter()
            .enumerate()
            .map(|(k, f)| (format!("{base}.followups[{k}].id"), f.id.as_str())),
    );
    p.unique(
        "reference score dimension",
        i.reference_scores.iter().enumerate().map(|(k, s)| {
            (
                format!("{base}.reference_scores[{k}].dimension"),
                s.dimension.as_str(),
            )
        }),
    );
    for (k, s) in i.reference_scores.iter().enumerate() {
        let at = format!("{base}.reference_scores[{k}]");
        if !rubric.dimensions.iter().any(|d| d.id == s.dimension) {
            p.add(
                format!("{at}.dimension"),
                format!("\"{}\" is not a rubric dimension", s.dimension),
            );
        }
        if s.score > MAX_SCORE {
            p.add(
                format!("{at}.score"),
                format!(
                    "{}: {} is above the maximum of {MAX_SCORE}",
                    s.dimension, s.score
                ),
            );
        }
    }
    for d in &rubric.dimensions {
        if !i.reference_scores.iter().any(|s| s.dimension == d.id) {
            p.add(
                format!("{base}.reference_scores"),
                format!("the reference answer has no score for \"{}\"", d.id),
            );
        }
    }
    let total: u32 = i.reference_scores.iter().map(|s| u32::from(s.score)).sum();
    let max = rubric.dimensions.len() as u32 * u32::from(MAX_SCORE);
    if total != max {
        p.add(
            format!("{base}.reference_scores"),
            format!("the reference scores total {total}, not {max}"),
        );
    }
    if i.hints.is_empty() {
        p.add(format!("{base}.hints"), "there are no hints");
    }
    if i.answer_limit == 0 {
        p.add(
            format!("{base}.answer_limit"),
            "the answer box would accept nothing",
        );
    }
    p.0
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::content::{ConditionalChoice, DimensionScore, Followup, WorkedExpected};
    use crate::exercises::config_choice::tests::exercise as config;
    use crate::exercises::trace_exercise::tests::exercise as trace;
    use crate::rubric::tests::rubric;
    use ttft_latency::split::Part;

    /// Checks that `problems` are exactly `expected`, as "path: message".
    fn check(problems: Vec<ContentProblem>, expected: &[&str]) {
        let got: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(got, expected);
    }

    /// The lesson's worked timeline as a test fixture, shared with the
    /// other modules' tests.
    pub(crate) fn timeline() -> WorkedTimeline {
        WorkedTimeline {
            request_id: "review".into(),
            description: String::new(),
            prompt_tokens: 3_000,
            output_tokens: 481,
            arrival_ms: 0,
            admitted_ms: 40,
            prefill_end_ms: 350,
            first_token_ms: 360,
            last_token_ms: 12_360,
            browser_first_text_ms: 450,
            expected: WorkedExpected {
                queue_wait_ms: 40,
                prefill_ms: 310,
                emit_ms: 10,
                ttft_ms: 360,
                dominant: Part::Prefill,
                dominant_share_percent: 86,
                time_per_token_ms: 25,
                output_rate_tps: 40,
                end_to_end_ms: 12_360,
                unseen_by_server_ms: 90,
            },
        }
    }

    fn interview() -> Interview {
        let score = |d: &str, s| DimensionScore {
            dimension: d.into(),
            score: s,
        };
        Interview {
            id: "interview".into(),
            title: String::new(),
            question: String::new(),
            scenario: String::new(),
            trace_rule: String::new(),
            constraints: vec![],
            deliverables: vec![],
            hints: vec!["hint".into()],
            reference_answer: vec![],
            reference_scores: ["latency_metrics", "clocks", "changes", "memory", "overload"]
                .iter()
                .map(|d| score(d, 2))
                .collect(),
            followups: vec![Followup {
                id: "f1".into(),
                question: String::new(),
                answer: String::new(),
            }],
            answer_limit: 5_000,
        }
    }

    #[test]
    fn the_seed_content_is_clean() {
        check(validate_worked_timeline(&timeline()), &[]);
        check(validate_trace_exercise(&trace()), &[]);
        check(validate_config_exercise(&config()), &[]);
        check(validate_rubric(&rubric()), &[]);
        check(validate_interview(&interview(), &rubric()), &[]);
    }

    #[test]
    fn trace_answers_must_equal_the_split() {
        let mut x = trace();
        x.requests[1].answer.share_percent = 96.8;
        x.requests[3].answer.investigate = CauseClass::Prefill;
        x.requests[0].answer.investigate = CauseClass::Prefill;
        x.requests[2].ttft_ms = 1_901;
        x.requests.push(x.requests[0].clone());
        x.misconceptions.retain(|m| m.id != "fraction_not_percent");
        x.misconceptions[0].id = "typo".into();
        check(
            validate_trace_exercise(&x),
            &[
                "trace_exercise.requests[4].id: the request id \"H1\" is already used at trace_exercise.requests[0].id",
                "trace_exercise.requests[0].answer.investigate: H1: states prefill but the dominant delay and the 1,000 ms target imply within_target",
                "trace_exercise.requests[1].answer.share_percent: H2: states 96.8% but queue wait is 96.9% of TTFT",
                "trace_exercise.requests[2].ttft_ms: H3: TTFT is stated as 1,901 ms but queue wait + prefill + emit add up to 1,900 ms",
                "trace_exercise.requests[3].answer.investigate: H4: states prefill but the dominant delay and the 1,000 ms target imply queue",
                "trace_exercise.requests[4].answer.investigate: H1: states prefill but the dominant delay and the 1,000 ms target imply within_target",
                "trace_exercise.misconceptions: no text for the misconception \"milliseconds_not_share\"",
                "trace_exercise.misconceptions: no text for the misconception \"fraction_not_percent\"",
                "trace_exercise.misconceptions[0].id: \"typo\" is not a misconception the checker names",
            ],
        );
        let mut y = trace();
        y.requests[3].answer.dominant = Part::Prefill;
        y.actions.retain(|a| a.class != CauseClass::Queue);
        check(
            validate_trace_exercise(&y),
            &[
                "trace_exercise.actions: H2: no action offers the queue class this request needs",
                "trace_exercise.requests[3].answer.dominant: H4: states prefill but the parts give queue wait",
            ],
        );
    }

    #[test]
    fn prose_rules_apply_to_an_exercise_alone() {
        // An authored exercise meets the built-in course's prose rules, and
        // its placeholders fill from the exercise itself, never the course.
        let mut x = trace();
        x.requests[1].answer.reasoning = "Queue wait is {H2.share.queue_wait}.".into();
        x.requests[2].answer.reasoning = "As in the lesson's {worked.ttft}.".into();
        x.actions[0].label = "**unclosed".into();
        x.intro = "{H9.ttft}".into();
        check(
            validate_trace_exercise(&x),
            &[
                "trace_exercise.intro: {H9.ttft}: the subject is not `worked`, a trace row id or a workload id",
                "trace_exercise.requests[2].answer.reasoning: {worked.ttft}: the subject is not `worked`, a trace row id or a workload id",
                "trace_exercise.actions[0].label: `*` left as text in \"**unclosed\"",
            ],
        );
        let mut c = config();
        c.workloads[1].answer.reasoning = "{live_hints.total_tokens} {H2.ttft}".into();
        let problems: Vec<String> = validate_config_exercise(&c)
            .iter()
            .map(|p| p.path.clone())
            .collect();
        assert_eq!(problems, ["config_exercise.workloads[1].answer.reasoning"]);
    }

    #[test]
    fn section_ids_are_anchors() {
        let lesson = Lesson {
            title: String::new(),
            summary: String::new(),
            study_minutes: 1,
            sections: ["overview", "Worked_Timeline", "-x"]
                .iter()
                .map(|id| crate::content::Section {
                    id: (*id).into(),
                    title: "t".into(),
                    blocks: vec![],
                })
                .collect(),
        };
        check(
            validate_lesson(&lesson),
            &[
                "lesson.sections[1].id: \"Worked_Timeline\" is not a kebab-case anchor (a-z, 0-9 and -)",
                "lesson.sections[2].id: \"-x\" is not a kebab-case anchor (a-z, 0-9 and -)",
            ],
        );
    }

    #[test]
    fn worked_timeline_values() {
        let mut w = timeline();
        w.expected.dominant_share_percent = 85;
        w.expected.output_rate_tps = 41;
        w.expected.unseen_by_server_ms = 450;
        check(
            validate_worked_timeline(&w),
            &[
                "worked_timeline.expected.unseen_by_server_ms: states 450 ms but the events give 90 ms",
                "worked_timeline.expected.dominant_share_percent: states 85% but prefill is 86% of TTFT",
                "worked_timeline.expected.output_rate_tps: states 41 tokens/s but the events give 40 tokens/s",
            ],
        );
        w.admitted_ms = 400;
        check(
            validate_worked_timeline(&w),
            &["worked_timeline.prefill_end_ms: review: end of prefill at 350 ms comes before admission at 400 ms; on one clock it must come at or after it"],
        );
    }

    #[test]
    fn config_choices_follow_the_arithmetic() {
        let mut x = config();
        x.workloads[0].answer.choice = "A".into();
        x.workloads[0].answer.conditional.push(ConditionalChoice {
            config: "Z".into(),
            condition: String::new(),
        });
        x.workloads[1].answer.evidence_needed.push("nope".into());
        x.workloads[1].need = WorkloadNeed::Batch {
            items: 5_000,
            output_tokens_per_item: 800,
            window_secs: 2_000,
        };
        x.configs[1].late_first_token_tenths = 1_001;
        x.late_after_ms = 0;
        check(
            validate_config_exercise(&x),
            &[
                "config_exercise.late_after_ms: a first token is late after a time above zero, not 0 ms",
                "config_exercise.configs[1].late_first_token_tenths: B: a share in tenths of a percent runs from 0 to 1000, not 1001",
                "config_exercise.workloads[0].answer.choice: live_hints: the stated choice A does not meet the workload's need on these figures",
                "config_exercise.workloads[0].answer.conditional[0].config: live_hints: \"Z\" is not a configuration",
                "config_exercise.workloads[1].answer.choice: overnight: the stated choice B does not meet the workload's need on these figures",
                "config_exercise.workloads[1].answer.evidence_needed[2]: overnight: \"nope\" is not an evidence option",
            ],
        );
    }

    #[test]
    fn rubric_and_reference_scores() {
        let mut r = rubric();
        r.gate = "latency".into();
        r.ready_at = 11;
        r.dimensions[1].levels[2] = " ".into();
        r.threshold_note.clear();
        check(
            validate_rubric(&r),
            &[
                "rubric.dimensions[1].levels[2]: clocks: what earns 2 is empty",
                "rubric.threshold_note: say what the readiness threshold rests on",
                "rubric.gate: \"latency\" is not a dimension of the rubric",
                "rubric.ready_at: 11 cannot be a threshold on a total out of 10",
            ],
        );
        let mut i = interview();
        i.reference_scores[4].dimension = "clocks".into();
        i.reference_scores[0].score = 3;
        check(
            validate_interview(&i, &rubric()),
            &[
                "interview.reference_scores[4].dimension: the reference score dimension id \"clocks\" is already used at interview.reference_scores[1].dimension",
                "interview.reference_scores[0].score: latency_metrics: 3 is above the maximum of 2",
                "interview.reference_scores: the reference answer has no score for \"overload\"",
                "interview.reference_scores: the reference scores total 11, not 10",
            ],
        );
    }
}
