//! One interaction record per check of an exercise and per saved
//! self-score, in each standard's vocabulary.
//!
//! Both standards journal interactions: each record is a new index
//! `cmi.interactions.n`, written once. A record has an id (the exercise's
//! or question's), a type, the learner's response, the result and the
//! latency (from opening the part, or the previous check, to this one).
//! The trace exercise and the configuration choice are multi-field tasks:
//! `performance` in SCORM 1.2, whose response is free text of up to 255
//! characters, and `other` in SCORM 2004, whose `performance` type wants
//! step identifiers our answers do not have. A saved self-score is
//! `numeric`, its response the total. Results are `correct` or `wrong`
//! (1.2) / `incorrect` (2004); a self-score is correct when it meets the
//! readiness rule.
//!
//! What it deliberately does not do: count records or decide when to write
//! them (the app reads `cmi.interactions._count` and writes the next).

use crate::content::{ConfigExercise, Rubric, TraceExercise};
use crate::embed::xapi::{choice_response, iso8601_duration, trace_response};
use crate::exercises::config_choice::{check_config, WorkloadCheck, WorkloadInput};
use crate::exercises::trace_exercise::{check_trace, LearnerAnswer};
use crate::history::Entry;
use crate::lms::cmi::Standard;
use crate::rubric::RubricScore;
use ttft_latency::time::Micros;

/// What kind of task a record is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// An answer of several fields (an exercise check).
    MultiField,
    /// One number (a self-score's total).
    Number,
}

/// One interaction, in neither standard's words yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interaction {
    /// The exercise's or question's id.
    pub id: String,
    /// What the learner sees it called.
    pub description: String,
    /// The kind of task.
    pub task: Task,
    /// The learner's response, one line.
    pub response: String,
    /// Whether it was right.
    pub correct: bool,
    /// From opening the part, or the previous check, to this one.
    pub latency: Micros,
}

/// The learner's response with `[,]` between items.
fn one_line(items: &[String]) -> String {
    items.join("[,]")
}

/// A check of the trace exercise with `answers` (in request order).
pub fn trace(exercise: &TraceExercise, answers: &[LearnerAnswer], latency: Micros) -> Interaction {
    let ids: Vec<String> = exercise.requests.iter().map(|r| r.id.clone()).collect();
    Interaction {
        id: exercise.id.clone(),
        description: exercise.title.clone(),
        task: Task::MultiField,
        response: one_line(&trace_response(&ids, answers)),
        correct: check_trace(exercise, answers).all_correct(),
        latency,
    }
}

/// A check of the configuration choice with every workload's inputs as
/// last checked.
pub fn choice(exercise: &ConfigExercise, inputs: &[WorkloadInput], latency: Micros) -> Interaction {
    let ids: Vec<String> = exercise.workloads.iter().map(|w| w.id.clone()).collect();
    let checks = check_config(exercise, inputs);
    Interaction {
        id: exercise.id.clone(),
        description: exercise.title.clone(),
        task: Task::MultiField,
        response: one_line(&choice_response(&ids, inputs)),
        correct: !checks.is_empty()
            && checks
                .iter()
                .all(|c| c.as_ref().is_ok_and(WorkloadCheck::all_correct)),
        latency,
    }
}

/// A saved self-score on the interview question `id`, titled `title`.
pub fn self_score(
    id: &str,
    title: &str,
    entry: &Entry,
    rubric: &Rubric,
    latency: Micros,
) -> Interaction {
    let score = RubricScore {
        scores: entry.scores.clone(),
    };
    let readiness = score.assess(rubric);
    Interaction {
        id: id.to_owned(),
        description: title.to_owned(),
        task: Task::Number,
        response: readiness.total.to_string(),
        correct: readiness.ready(),
        latency,
    }
}

/// `text` on one line, cut to at most `max` characters.
fn at_most(text: &str, max: usize) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(max)
        .collect()
}

/// An identifier the standards accept: no white space, never empty.
fn identifier(id: &str) -> String {
    let clean: String = id
        .chars()
        .map(|c| if c.is_whitespace() { '-' } else { c })
        .take(255)
        .collect();
    if clean.is_empty() {
        "ttft-lab".into()
    } else {
        clean
    }
}

/// SCORM 1.2's CMITimespan: `HHHH:MM:SS.SS`, hours capped at 9999.
pub fn timespan_12(t: Micros) -> String {
    let hundredths = t.0.max(0) / 10_000;
    let hours = (hundredths / 360_000).min(9_999);
    let minutes = (hundredths / 6_000) % 60;
    let secs = (hundredths / 100) % 60;
    let frac = hundredths % 100;
    format!("{hours:04}:{minutes:02}:{secs:02}.{frac:02}")
}

impl Interaction {
    /// The elements and values that record it as interaction `n`.
    pub fn values(&self, standard: Standard, n: u32) -> Vec<(String, String)> {
        let at = |field: &str| format!("cmi.interactions.{n}.{field}");
        match standard {
            Standard::Scorm12 => {
                let kind = match self.task {
                    Task::MultiField => "performance",
                    Task::Number => "numeric",
                };
                vec![
                    (at("id"), identifier(&self.id)),
                    (at("type"), kind.into()),
                    (at("student_response"), at_most(&self.response, 255)),
                    (at("result"), if self.correct { "correct" } else { "wrong" }.into()),
                    (at("latency"), timespan_12(self.latency)),
                ]
            }
            Standard::Scorm2004 => {
                let kind = match self.task {
                    Task::MultiField => "other",
                    Task::Number => "numeric",
                };
                // A description starting with "{" would be read as a
                // language tag.
                let description = at_most(self.description.trim_start_matches('{'), 250);
                vec![
                    (at("id"), identifier(&self.id)),
                    (at("type"), kind.into()),
                    (at("description"), description),
                    (at("learner_response"), at_most(&self.response, 4_000)),
                    (at("result"), if self.correct { "correct" } else { "incorrect" }.into()),
                    (at("latency"), iso8601_duration(self.latency)),
                ]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lms::progress::tests::{course, full_marks, rubric};

    fn check(i: &Interaction, standard: Standard, expected: &[(&str, &str)]) {
        let got = i.values(standard, 3);
        let got: Vec<(&str, &str)> = got.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn records_in_each_standard() {
        let course = course();
        let p = full_marks(&course);
        let x = &course.trace_exercise;
        let answers: Vec<LearnerAnswer> = x.requests.iter().map(|r| p.trace.answers[&r.id].clone()).collect();
        let t = trace(x, &answers, Micros::from_ms(65_500));
        assert!(t.correct);
        assert!(t.response.starts_with(&format!("{}: ", x.requests[0].id)), "{}", t.response);
        let v12 = t.values(Standard::Scorm12, 0);
        assert_eq!(v12[1], ("cmi.interactions.0.type".into(), "performance".into()));
        assert_eq!(v12[3].1, "correct");
        assert_eq!(v12[4].1, "0000:01:05.50");
        assert!(v12[2].1.chars().count() <= 255);
        let v04 = t.values(Standard::Scorm2004, 0);
        assert_eq!(v04[1].1, "other");
        assert_eq!(v04[5].1, "PT1M5.5S");
        let wrong = trace(x, &[], Micros(0));
        assert!(!wrong.correct);
        assert_eq!(wrong.values(Standard::Scorm2004, 1)[4].1, "incorrect");
        let entry = &p.scores.history.entries[0];
        let s = self_score("q one", "Interview", entry, &rubric(), Micros::from_ms(1_000));
        check(
            &s,
            Standard::Scorm12,
            &[
                ("cmi.interactions.3.id", "q-one"),
                ("cmi.interactions.3.type", "numeric"),
                ("cmi.interactions.3.student_response", "10"),
                ("cmi.interactions.3.result", "correct"),
                ("cmi.interactions.3.latency", "0000:00:01.00"),
            ],
        );
        let c = choice(&course.config_exercise, &[], Micros(0));
        assert!(!c.correct);
        assert!(c.response.contains(": -"), "{}", c.response);
    }

    #[test]
    fn long_and_odd_text_stays_inside_the_standards() {
        let i = Interaction {
            id: String::new(),
            description: "{lang=fr}x".into(),
            task: Task::MultiField,
            response: format!("a\nb{}", "é".repeat(5_000)),
            correct: false,
            latency: Micros(i64::MAX),
        };
        let v = i.values(Standard::Scorm12, 0);
        assert_eq!(v[0].1, "ttft-lab");
        assert_eq!(v[2].1.chars().count(), 255);
        assert!(!v[2].1.contains('\n'));
        assert!(v[4].1.starts_with("9999:"), "{}", v[4].1);
        let v = i.values(Standard::Scorm2004, 0);
        assert_eq!(v[2].1, "lang=fr}x");
        assert_eq!(v[3].1.chars().count(), 4_000);
    }
}
