//! The content test: every file under `content/` against the core.
//!
//! It reads each `content/*.toml` with the same types the app uses, assembles
//! the [`Course`], runs the core's [`validate_course`] (ids unique and
//! section ids anchors, references resolve, every stated answer equal to
//! what the core computes, every misconception the checker names has its
//! text, every placeholder fills, no stray markup; the same pass an
//! authored file gets), and adds what only this course must meet: no empty
//! string, no wording the course must not carry, https sources. Every
//! problem goes into one readable list instead of stopping at the first.
//! The other tests check facts of the built-in course's teaching.

use serde::de::DeserializeOwned;
use std::path::PathBuf;
use ttft_core::content::template::fill;
use ttft_core::content::validate::validate_course;
use ttft_core::content::*;
use ttft_core::exercises::trace_exercise::{
    check_trace, LearnerAnswer, Misconception, TraceVerdict,
};
use ttft_core::exercises::verdict::Verdict;

fn content_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../content")
}

/// Reads and parses one content file, noting any failure in `problems`.
fn read<T: DeserializeOwned>(name: &str, problems: &mut Vec<String>) -> Option<T> {
    let path = content_dir().join(name);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            problems.push(format!("{name}: cannot read {}: {e}", path.display()));
            return None;
        }
    };
    match toml::from_str(&text) {
        Ok(value) => Some(value),
        Err(e) => {
            problems.push(format!("{name}: {e}"));
            None
        }
    }
}

/// The course every part reads, the lesson and the interview part, as the
/// full app holds them; it reads as the [`Course`] it holds.
struct Whole {
    course: Course,
    lesson: Lesson,
    interview: Interview,
    rubric: Rubric,
}

impl std::ops::Deref for Whole {
    type Target = Course;
    fn deref(&self) -> &Course {
        &self.course
    }
}

impl Whole {
    fn interview_part(&self) -> InterviewPart {
        InterviewPart {
            interview: self.interview.clone(),
            rubric: self.rubric.clone(),
        }
    }
}

/// The whole course, or every reason it could not be assembled.
fn load() -> Result<Whole, Vec<String>> {
    let mut problems = Vec::new();
    let lesson = read::<Lesson>("lesson.toml", &mut problems);
    let worked_timeline = read::<WorkedTimeline>("worked_timeline.toml", &mut problems);
    let trace_exercise = read::<TraceExercise>("trace_exercise.toml", &mut problems);
    let config_exercise = read::<ConfigExercise>("config_exercise.toml", &mut problems);
    let interview = read::<Interview>("interview.toml", &mut problems);
    let rubric = read::<Rubric>("rubric.toml", &mut problems);
    match (
        lesson,
        worked_timeline,
        trace_exercise,
        config_exercise,
        interview,
        rubric,
    ) {
        (
            Some(lesson),
            Some(worked_timeline),
            Some(trace_exercise),
            Some(config_exercise),
            Some(interview),
            Some(rubric),
        ) => Ok(Whole {
            course: Course {
                worked_timeline,
                trace_exercise,
                config_exercise,
            },
            lesson,
            interview,
            rubric,
        }),
        _ => Err(problems),
    }
}

/// Every prose string in the course, with where it lives.
fn strings(c: &Whole) -> Vec<(String, &str)> {
    let mut all: Vec<(String, &str)> = Vec::new();
    let l = &c.lesson;
    all.push(("lesson.title".into(), &l.title));
    all.push(("lesson.summary".into(), &l.summary));
    for s in &l.sections {
        let at = format!("lesson.sections[{}]", s.id);
        all.push((format!("{at}.title"), &s.title));
        for (b, block) in s.blocks.iter().enumerate() {
            let at = format!("{at}.blocks[{b}]");
            match block {
                Block::Paragraph { text } => all.push((at, text)),
                Block::List { items, .. } => all.extend(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, t)| (format!("{at}.items[{i}]"), t.as_str())),
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
                            .map(|(i, t)| (format!("{at}.columns[{i}]"), t.as_str())),
                    );
                    for (r, row) in rows.iter().enumerate() {
                        all.extend(
                            row.iter()
                                .enumerate()
                                .map(|(i, t)| (format!("{at}.rows[{r}][{i}]"), t.as_str())),
                        );
                    }
                }
                Block::Note { title, text } => {
                    if let Some(title) = title {
                        all.push((format!("{at}.title"), title));
                    }
                    all.push((format!("{at}.text"), text));
                }
                Block::Terms { items } => {
                    for (i, t) in items.iter().enumerate() {
                        all.push((format!("{at}.items[{i}].term"), &t.term));
                        all.push((format!("{at}.items[{i}].meaning"), &t.meaning));
                    }
                }
                Block::Checklist { items } => all.extend(
                    items
                        .iter()
                        .map(|i| (format!("{at}.items[{}]", i.id), i.text.as_str())),
                ),
                Block::Sources { items } => {
                    for (i, s) in items.iter().enumerate() {
                        all.push((format!("{at}.items[{i}].title"), &s.title));
                        all.push((format!("{at}.items[{i}].note"), &s.note));
                    }
                }
                Block::Widget { .. } => {}
            }
        }
    }
    let w = &c.worked_timeline;
    all.push(("worked_timeline.description".into(), &w.description));
    let t = &c.trace_exercise;
    all.push(("trace_exercise.title".into(), &t.title));
    all.push(("trace_exercise.intro".into(), &t.intro));
    for r in &t.requests {
        if let Some(note) = &r.prompt_note {
            all.push((
                format!("trace_exercise.requests[{}].prompt_note", r.id),
                note,
            ));
        }
        all.push((
            format!("trace_exercise.requests[{}].answer.reasoning", r.id),
            &r.answer.reasoning,
        ));
    }
    all.extend(t.actions.iter().map(|a| {
        (
            format!("trace_exercise.actions[{}].label", a.id),
            a.label.as_str(),
        )
    }));
    for m in &t.misconceptions {
        all.push((
            format!("trace_exercise.misconceptions[{}].title", m.id),
            &m.title,
        ));
        all.push((
            format!("trace_exercise.misconceptions[{}].text", m.id),
            &m.text,
        ));
    }
    let x = &c.config_exercise;
    all.push(("config_exercise.title".into(), &x.title));
    all.push(("config_exercise.intro".into(), &x.intro));
    for k in &x.configs {
        all.push((
            format!("config_exercise.configs[{}].weights", k.id),
            &k.weights,
        ));
        all.push((
            format!("config_exercise.configs[{}].quality_note", k.id),
            &k.quality_note,
        ));
    }
    for wl in &x.workloads {
        let at = format!("config_exercise.workloads[{}]", wl.id);
        all.push((format!("{at}.name"), &wl.name));
        all.push((format!("{at}.description"), &wl.description));
        all.push((format!("{at}.answer.reasoning"), &wl.answer.reasoning));
        all.extend(wl.answer.conditional.iter().map(|k| {
            (
                format!("{at}.answer.conditional[{}]", k.config),
                k.condition.as_str(),
            )
        }));
    }
    for e in &x.evidence {
        all.push((
            format!("config_exercise.evidence[{}].label", e.id),
            &e.label,
        ));
        all.push((format!("config_exercise.evidence[{}].why", e.id), &e.why));
    }
    let i = &c.interview;
    for (at, s) in [
        ("title", &i.title),
        ("question", &i.question),
        ("scenario", &i.scenario),
        ("trace_rule", &i.trace_rule),
    ] {
        all.push((format!("interview.{at}"), s));
    }
    for (name, list) in [
        ("constraints", &i.constraints),
        ("deliverables", &i.deliverables),
        ("hints", &i.hints),
        ("reference_answer", &i.reference_answer),
    ] {
        all.extend(
            list.iter()
                .enumerate()
                .map(|(n, s)| (format!("interview.{name}[{n}]"), s.as_str())),
        );
    }
    for f in &i.followups {
        all.push((
            format!("interview.followups[{}].question", f.id),
            &f.question,
        ));
        all.push((format!("interview.followups[{}].answer", f.id), &f.answer));
    }
    for d in &c.rubric.dimensions {
        all.push((format!("rubric.dimensions[{}].title", d.id), &d.title));
        all.extend(d.levels.iter().enumerate().map(|(n, s)| {
            (
                format!("rubric.dimensions[{}].levels[{n}]", d.id),
                s.as_str(),
            )
        }));
    }
    all
}

fn check_strings(c: &Whole, problems: &mut Vec<String>) {
    const FORBIDDEN: [&str; 4] = ["codesnatch", "sign up", "related on", "todo"];
    for (at, s) in strings(c) {
        if s.trim().is_empty() {
            problems.push(format!("{at}: empty"));
        }
        let lower = s.to_lowercase();
        for word in FORBIDDEN {
            if lower.contains(word) {
                problems.push(format!("{at}: contains \"{word}\""));
            }
        }
    }
    for s in c.lesson.sections.iter().flat_map(|s| &s.blocks) {
        if let Block::Sources { items } = s {
            for item in items {
                if !item.url.starts_with("https://") {
                    problems.push(format!(
                        "lesson sources: `{}` is not an https link",
                        item.url
                    ));
                }
            }
        }
    }
}

/// Every problem in the course's content files, in one list.
fn problems() -> Vec<String> {
    let course = match load() {
        Ok(course) => course,
        Err(problems) => return problems,
    };
    let mut problems: Vec<String> = validate_course(&course, &course.lesson, &course.interview_part())
        .iter()
        .map(|p| p.to_string())
        .collect();
    check_strings(&course, &mut problems);
    problems
}

#[test]
fn content_files_are_sound() {
    let problems = problems();
    assert!(
        problems.is_empty(),
        "{} problem(s) in content/:\n  - {}",
        problems.len(),
        problems.join("\n  - ")
    );
}

#[test]
fn reference_answer_reads_with_the_cores_numbers() {
    let course = match load() {
        Ok(course) => course,
        Err(problems) => panic!("content does not load:\n  - {}", problems.join("\n  - ")),
    };
    let answer: Vec<String> = course
        .interview
        .reference_answer
        .iter()
        .filter_map(|p| fill(p, &course).ok())
        .collect();
    let answer = answer.join("\n");
    for figure in ["96.9%", "97.9%", "60.6%", "38.8%", "70%", "2,400 ms"] {
        assert!(
            answer.contains(figure),
            "the reference answer should cite {figure}:\n{answer}"
        );
    }
    assert!(
        !answer.contains('{'),
        "a placeholder was left unfilled:\n{answer}"
    );
}

/// The built-in course, or a panic that lists why it does not load.
fn course() -> Whole {
    load().unwrap_or_else(|problems| {
        panic!("content does not load:\n  - {}", problems.join("\n  - "))
    })
}

/// The built-in exercise's checker on one request: the verdict on "investigate
/// first" for the action with `action` id, with a right dominant delay.
fn investigate(course: &Course, request: &str, action: &str) -> TraceVerdict {
    let x = &course.trace_exercise;
    let index = x
        .requests
        .iter()
        .position(|r| r.id == request)
        .expect("request exists");
    let answer = LearnerAnswer {
        dominant: None,
        share_percent: None,
        investigate: Some(action.into()),
    };
    let mut answers = vec![LearnerAnswer::default(); index + 1];
    answers[index] = answer;
    check_trace(x, &answers)
        .rows
        .swap_remove(index)
        .expect("row splits")
        .investigate
}

#[test]
fn chunked_prefill_is_not_a_first_step_for_a_long_prompt() {
    let c = course();
    let chunked: Vec<&Action> = c
        .trace_exercise
        .actions
        .iter()
        .filter(|a| a.label.to_lowercase().contains("chunked prefill"))
        .collect();
    assert_eq!(chunked.len(), 1, "one chunked-prefill action");
    assert_eq!(
        investigate(&c, "H3", &chunked[0].id),
        Verdict::Wrong(Some(Misconception::ProtectsOthers))
    );
    // Its feedback says why: it shields other requests, not this one's prefill.
    let text = &c
        .trace_exercise
        .misconceptions
        .iter()
        .find(|m| m.id == "protects_others")
        .expect("text")
        .text;
    for words in ["other requests", "any shorter", "add a little"] {
        assert!(
            text.contains(words),
            "the feedback should say {words:?}: {text}"
        );
    }
    // Trimming what goes into H3's prompt is still right.
    assert_eq!(investigate(&c, "H3", "trim-history"), Verdict::Correct);
}

#[test]
fn emit_actions_stay_on_the_server() {
    // A proxy buffers after the server has written: that is the gap between
    // server and browser, which no part of the server's split measures.
    for a in course()
        .trace_exercise
        .actions
        .iter()
        .filter(|a| a.class == CauseClass::Emit)
    {
        let label = a.label.to_lowercase();
        assert!(
            !label.contains("prox") && !label.contains("buffer"),
            "{}: {}",
            a.id,
            a.label
        );
    }
}

/// Every string of the lesson section `id`, filled by the core, in one text.
fn section_text(c: &Whole, id: &str) -> String {
    let prefix = format!("lesson.sections[{id}]");
    strings(c)
        .into_iter()
        .filter(|(at, _)| at.starts_with(&prefix))
        .map(|(at, s)| fill(s, c).unwrap_or_else(|e| panic!("{at}: {e}")))
        .collect::<Vec<_>>()
        .join("\n")
}

fn assert_says(text: &str, words: &[&str], what: &str) {
    for w in words {
        assert!(text.contains(w), "{what} should say {w:?}:\n{text}");
    }
}

#[test]
fn vllm_conventions_and_tokenization_are_named_where_conventions_are_compared() {
    let c = course();
    let metrics = section_text(&c, "metrics");
    // vLLM's TTFT from its frontend, queue time from queued to scheduled,
    // prefill from scheduled to the first new token.
    assert_says(
        &metrics,
        &[
            "frontend",
            "tokens and handing the request over to the engine",
            "engine queues",
            "first schedules",
            "to the first new token",
        ],
        "the metrics section",
    );
    assert_says(
        &metrics,
        &["none of our three parts contains it", "Tokenization"],
        "the metrics section",
    );
    let worked = section_text(&c, "worked-timeline");
    assert_says(
        &worked,
        &[
            "vLLM",
            "frontend",
            "tokenizing the prompt",
            "none of our three",
        ],
        "the worked timeline",
    );
    assert!(worked.contains(&format!(
        "prefill of {} ms",
        c.worked_timeline.first_token_ms - c.worked_timeline.admitted_ms
    )));
}

#[test]
fn the_worked_example_states_its_own_conclusion() {
    let c = course();
    let worked = section_text(&c, "worked-timeline");
    assert_says(
        &worked,
        &[
            "dominant delay is prefill, 86.1%",
            "3,000-token prompt",
            "nothing was waiting ahead of it",
        ],
        "the worked timeline",
    );
}

#[test]
fn the_percentile_note_names_the_methods_it_holds_for() {
    use ttft_latency::percentile::{percentile, Convention};
    use ttft_latency::Micros;
    let text = section_text(&course(), "percentiles");
    assert_says(
        &text,
        &[
            "With twenty requests, p95 under nearest-rank is the second-slowest",
            "under linear interpolation a point just above it",
            "Other conventions exist",
        ],
        "the percentile note",
    );
    // What the note claims, computed: twenty requests, 1 to 20 ms.
    let samples: Vec<Micros> = (1..=20).map(Micros::from_ms).collect();
    let nearest = percentile(&samples, 95, Convention::NearestRank)
        .unwrap()
        .value;
    let linear = percentile(&samples, 95, Convention::Linear).unwrap().value;
    assert_eq!(
        nearest,
        Micros::from_ms(19),
        "nearest-rank p95 of 20 is the second-slowest"
    );
    assert!(
        linear > Micros::from_ms(19) && linear < Micros::from_ms(20),
        "linear p95 of 20 is just above it: {linear}"
    );
}

#[test]
fn the_reference_answer_prices_prefix_caching_as_it_works() {
    let c = course();
    let answer = c.interview.reference_answer.join("\n");
    assert!(
        !answer.contains("spends cache memory"),
        "cached blocks are evicted when space is needed"
    );
    assert_says(
        &answer,
        &["hit rate", "isolation", "tenants"],
        "the reference answer",
    );
}

#[test]
fn the_hint_counts_requests_by_their_dominant_part() {
    use ttft_core::exercises::trace_exercise::expect_row;
    use ttft_latency::Part;
    let c = course();
    let x = &c.trace_exercise;
    let count = |part: Part| {
        x.requests
            .iter()
            .filter(|r| expect_row(x, r).unwrap().dominant.includes(part))
            .count()
    };
    let word = |n: usize| ["no", "one", "two", "three", "four"][n];
    let hint = c
        .interview
        .hints
        .iter()
        .find(|h| h.contains("mostly queueing"))
        .expect("a hint counts the requests");
    let queue = format!(
        "{} requests are mostly queueing",
        word(count(Part::QueueWait))
    );
    let prefill = format!("{} mostly prefill", word(count(Part::Prefill)));
    assert!(
        hint.to_lowercase().contains(&queue) && hint.contains(&prefill),
        "{queue}; {prefill}: {hint}"
    );
}

#[test]
fn the_batch_evidence_says_what_the_figures_show() {
    let c = course();
    let why = &c
        .config_exercise
        .evidence
        .iter()
        .find(|e| e.id == "bigger-batch-throughput")
        .expect("option")
        .why;
    assert!(!why.contains("tends to"), "not a general rule: {why}");
    assert_says(
        why,
        &[
            "on these figures",
            "larger batch limit, A",
            "quantization changed at the same time",
        ],
        "the evidence",
    );
}

#[test]
fn the_seed_s_framing_is_all_there() {
    let c = course();
    let checklist = section_text(&c, "checklist");
    assert_says(
        &checklist,
        &[
            "what one user waits for",
            "total output the hardware produces",
        ],
        "the completion checklist",
    );
    assert!(c
        .interview
        .constraints
        .iter()
        .any(|s| s.contains("own words") && s.contains("before you open the reference answer")));
    for (page, text) in [
        ("trace", &c.trace_exercise.intro),
        ("choice", &c.config_exercise.intro),
        ("interview", &c.interview.trace_rule),
    ] {
        assert!(
            text.contains("synthetic"),
            "the {page} page should say its figures are synthetic"
        );
    }
    assert_says(
        &c.rubric.threshold_note,
        &["editors' estimates"],
        "the self-score's threshold note",
    );
}
