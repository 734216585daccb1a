//! The content test: every file under `content/` against the core.
//!
//! It reads each `content/*.toml` with the same types the app uses, assembles
//! the [`Course`], and collects every problem it finds into one readable list
//! instead of stopping at the first: a file that does not parse, an id used
//! twice, a placeholder that does not fill, markup the parser would show as
//! stray symbols, a misconception the checker names without a text, and
//! wording the course must not carry. Whether each stated answer equals what
//! the core computes is `validate`'s job; this test calls it once that module
//! exists, and adds only the checks that are about the files themselves.

use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::path::PathBuf;
use ttft_core::answer::Misconception;
use ttft_core::content::*;
use ttft_core::markup::{parse, Inline};
use ttft_core::template::fill;

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

/// The whole course, or every reason it could not be assembled.
fn load() -> Result<Course, Vec<String>> {
    let mut problems = Vec::new();
    let lesson = read::<Lesson>("lesson.toml", &mut problems);
    let worked_timeline = read::<WorkedTimeline>("worked_timeline.toml", &mut problems);
    let trace_exercise = read::<TraceExercise>("trace_exercise.toml", &mut problems);
    let config_exercise = read::<ConfigExercise>("config_exercise.toml", &mut problems);
    let interview = read::<Interview>("interview.toml", &mut problems);
    let rubric = read::<Rubric>("rubric.toml", &mut problems);
    match (lesson, worked_timeline, trace_exercise, config_exercise, interview, rubric) {
        (Some(lesson), Some(worked_timeline), Some(trace_exercise), Some(config_exercise), Some(interview), Some(rubric)) => {
            Ok(Course { lesson, worked_timeline, trace_exercise, config_exercise, interview, rubric })
        }
        _ => Err(problems),
    }
}

/// Every prose string in the course, with where it lives.
fn strings(c: &Course) -> Vec<(String, &str)> {
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
                Block::List { items, .. } => {
                    all.extend(items.iter().enumerate().map(|(i, t)| (format!("{at}.items[{i}]"), t.as_str())))
                }
                Block::Table { caption, columns, rows } => {
                    all.push((format!("{at}.caption"), caption));
                    all.extend(columns.iter().enumerate().map(|(i, t)| (format!("{at}.columns[{i}]"), t.as_str())));
                    for (r, row) in rows.iter().enumerate() {
                        all.extend(row.iter().enumerate().map(|(i, t)| (format!("{at}.rows[{r}][{i}]"), t.as_str())));
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
                Block::Checklist { items } => {
                    all.extend(items.iter().map(|i| (format!("{at}.items[{}]", i.id), i.text.as_str())))
                }
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
            all.push((format!("trace_exercise.requests[{}].prompt_note", r.id), note));
        }
        all.push((format!("trace_exercise.requests[{}].answer.reasoning", r.id), &r.answer.reasoning));
    }
    all.extend(t.actions.iter().map(|a| (format!("trace_exercise.actions[{}].label", a.id), a.label.as_str())));
    for m in &t.misconceptions {
        all.push((format!("trace_exercise.misconceptions[{}].title", m.id), &m.title));
        all.push((format!("trace_exercise.misconceptions[{}].text", m.id), &m.text));
    }
    let x = &c.config_exercise;
    all.push(("config_exercise.title".into(), &x.title));
    all.push(("config_exercise.intro".into(), &x.intro));
    for k in &x.configs {
        all.push((format!("config_exercise.configs[{}].weights", k.id), &k.weights));
        all.push((format!("config_exercise.configs[{}].quality_note", k.id), &k.quality_note));
    }
    for wl in &x.workloads {
        let at = format!("config_exercise.workloads[{}]", wl.id);
        all.push((format!("{at}.name"), &wl.name));
        all.push((format!("{at}.description"), &wl.description));
        all.push((format!("{at}.answer.reasoning"), &wl.answer.reasoning));
        all.extend(wl.answer.conditional.iter().map(|k| (format!("{at}.answer.conditional[{}]", k.config), k.condition.as_str())));
    }
    for e in &x.evidence {
        all.push((format!("config_exercise.evidence[{}].label", e.id), &e.label));
        all.push((format!("config_exercise.evidence[{}].why", e.id), &e.why));
    }
    let i = &c.interview;
    for (at, s) in [("title", &i.title), ("question", &i.question), ("scenario", &i.scenario), ("trace_rule", &i.trace_rule)] {
        all.push((format!("interview.{at}"), s));
    }
    for (name, list) in [
        ("constraints", &i.constraints),
        ("deliverables", &i.deliverables),
        ("hints", &i.hints),
        ("reference_answer", &i.reference_answer),
    ] {
        all.extend(list.iter().enumerate().map(|(n, s)| (format!("interview.{name}[{n}]"), s.as_str())));
    }
    for f in &i.followups {
        all.push((format!("interview.followups[{}].question", f.id), &f.question));
        all.push((format!("interview.followups[{}].answer", f.id), &f.answer));
    }
    for d in &c.rubric.dimensions {
        all.push((format!("rubric.dimensions[{}].title", d.id), &d.title));
        all.extend(d.levels.iter().enumerate().map(|(n, s)| (format!("rubric.dimensions[{}].levels[{n}]", d.id), s.as_str())));
    }
    all
}

/// Notes every id that appears more than once in `ids`.
fn check_unique<'a>(list: &str, ids: impl IntoIterator<Item = &'a str>, problems: &mut Vec<String>) {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for id in ids {
        *seen.entry(id).or_default() += 1;
    }
    let mut repeated: Vec<_> = seen.into_iter().filter(|&(_, n)| n > 1).collect();
    repeated.sort();
    for (id, n) in repeated {
        problems.push(format!("{list}: id `{id}` is used {n} times"));
    }
}

fn check_ids(c: &Course, problems: &mut Vec<String>) {
    let sections = &c.lesson.sections;
    check_unique("lesson.sections", sections.iter().map(|s| s.id.as_str()), problems);
    for s in sections {
        let kebab = !s.id.is_empty()
            && s.id.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-')
            && !s.id.starts_with('-')
            && !s.id.ends_with('-');
        if !kebab {
            problems.push(format!("lesson.sections: id `{}` is not a short kebab-case anchor", s.id));
        }
    }
    let checklist = sections.iter().flat_map(|s| &s.blocks).flat_map(|b| match b {
        Block::Checklist { items } => items.iter().map(|i| i.id.as_str()).collect(),
        _ => Vec::new(),
    });
    check_unique("lesson checklist items", checklist, problems);
    let t = &c.trace_exercise;
    check_unique("trace_exercise.requests", t.requests.iter().map(|r| r.id.as_str()), problems);
    check_unique("trace_exercise.actions", t.actions.iter().map(|a| a.id.as_str()), problems);
    check_unique("trace_exercise.misconceptions", t.misconceptions.iter().map(|m| m.id.as_str()), problems);
    let x = &c.config_exercise;
    check_unique("config_exercise.configs", x.configs.iter().map(|k| k.id.as_str()), problems);
    check_unique("config_exercise.workloads", x.workloads.iter().map(|w| w.id.as_str()), problems);
    check_unique("config_exercise.evidence", x.evidence.iter().map(|e| e.id.as_str()), problems);
    check_unique("interview.followups", c.interview.followups.iter().map(|f| f.id.as_str()), problems);
    check_unique("interview.reference_scores", c.interview.reference_scores.iter().map(|s| s.dimension.as_str()), problems);
    check_unique("rubric.dimensions", c.rubric.dimensions.iter().map(|d| d.id.as_str()), problems);
    // Placeholders name trace rows and workloads by id in one namespace.
    let subjects = t.requests.iter().map(|r| r.id.as_str()).chain(x.workloads.iter().map(|w| w.id.as_str()));
    check_unique("placeholder subjects (trace rows and workloads)", subjects.chain(["worked"]), problems);
}

/// Every misconception the checker can name has a text, and every text
/// belongs to a misconception the checker names.
fn check_misconceptions(c: &Course, problems: &mut Vec<String>) {
    let texts = &c.trace_exercise.misconceptions;
    for m in Misconception::ALL {
        if !texts.iter().any(|t| t.id == m.id()) {
            problems.push(format!("trace_exercise.misconceptions: no text for `{}`, which the checker names", m.id()));
        }
    }
    for t in texts {
        if Misconception::from_id(&t.id).is_none() {
            problems.push(format!("trace_exercise.misconceptions: `{}` is not a misconception the checker names", t.id));
        }
    }
}

/// Markup the parser leaves as plain text would show the learner stray
/// asterisks, backticks or brackets.
fn stray_markup(inlines: &[Inline]) -> Option<String> {
    inlines.iter().find_map(|inline| match inline {
        Inline::Text(t) => ["*", "`", "](", "<"].into_iter().find(|d| t.contains(d)).map(|d| format!("`{d}` left as text in {t:?}")),
        Inline::Strong(inner) | Inline::Emphasis(inner) => stray_markup(inner),
        Inline::Link { text, .. } => stray_markup(text),
        Inline::Code(_) => None,
    })
}

fn check_strings(c: &Course, problems: &mut Vec<String>) {
    const FORBIDDEN: [&str; 4] = ["codesnatch", "sign up", "related on", "todo"];
    for (at, s) in strings(c) {
        match fill(s, c) {
            Ok(filled) => {
                if let Some(why) = stray_markup(&parse(&filled)) {
                    problems.push(format!("{at}: {why}"));
                }
            }
            Err(e) => problems.push(format!("{at}: {e}")),
        }
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
                    problems.push(format!("lesson sources: `{}` is not an https link", item.url));
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
    let mut problems = Vec::new();
    check_ids(&course, &mut problems);
    check_misconceptions(&course, &mut problems);
    check_strings(&course, &mut problems);
    problems
}

#[test]
fn content_files_are_sound() {
    let problems = problems();
    assert!(problems.is_empty(), "{} problem(s) in content/:\n  - {}", problems.len(), problems.join("\n  - "));
}

#[test]
fn reference_answer_reads_with_the_cores_numbers() {
    let course = match load() {
        Ok(course) => course,
        Err(problems) => panic!("content does not load:\n  - {}", problems.join("\n  - ")),
    };
    let answer: Vec<String> = course.interview.reference_answer.iter().filter_map(|p| fill(p, &course).ok()).collect();
    let answer = answer.join("\n");
    for figure in ["96.9%", "97.9%", "60.6%", "38.8%", "70%", "2,400 ms"] {
        assert!(answer.contains(figure), "the reference answer should cite {figure}:\n{answer}");
    }
    assert!(!answer.contains('{'), "a placeholder was left unfilled:\n{answer}");
}
