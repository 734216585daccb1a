//! The learner's progress as one value, and what a learning system is told
//! about it: a score for the graded work and completion.
//!
//! [`Progress`] holds what the app keeps for the built-in course: the
//! checklist ticks, the trace exercise's and the configuration choice's
//! work, the interview work and the saved self-scores. Each part has
//! exactly the serde shape of the value the app stores (the app's
//! `learner_state`), so the app converts through JSON and a test there
//! checks that nothing is lost on the way. The AI key is not part of it.
//!
//! **The score.** Four equal quarters, each in 0..=1: the trace exercise
//! (fields right at its last check, of three per request), the
//! configuration choice (points as `embed::xapi::workload_points` at each
//! workload's last check), the interview (the latest saved self-score's
//! total, of the rubric's maximum) and the readiness rule (1 when that
//! saved self-score meets it). The work is passed at [`PASS_AT`] (0.8):
//! with a quarter on readiness, a learner cannot pass without meeting the
//! readiness rule, and may miss a little elsewhere. Unchecked work counts
//! zero. The arithmetic is in thousandths, so the figure is exact and the
//! same on every machine.
//!
//! **Completion** is every item of the lesson's checklist ticked.
//!
//! What it deliberately does not do: decide when to report (the app does)
//! or merge two copies (the app's `learner_state` merges do).

use crate::content::{Block, ConfigExercise, Course, Lesson, Rubric};
use crate::embed::xapi::workload_points;
use crate::exercises::config_choice::{check_config, WorkloadInput};
use crate::exercises::trace_exercise::{check_trace, LearnerAnswer};
use crate::history::SavedScores;
use crate::rubric::{max_total, RubricScore};
use serde::{Deserialize, Serialize};
use ttft_latency::small_map::SmallMap;

/// The passing threshold for the graded work, in thousandths of the
/// scaled score (0.8).
pub const PASS_AT: u32 = 800;

/// One checklist item's state and when it last changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tick {
    /// Milliseconds since the Unix epoch of the last change.
    pub changed_ms: i64,
    /// Ticked or not.
    pub done: bool,
}

/// The checklist's ticks by item id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChecklistTicks {
    /// Every item the learner has changed.
    #[serde(default)]
    pub items: SmallMap<String, Tick>,
}

/// The trace exercise's work: answers as they stand and at the last check,
/// by request id.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceProgress {
    #[serde(default)]
    pub answers: SmallMap<String, LearnerAnswer>,
    #[serde(default)]
    pub checked: Option<SmallMap<String, LearnerAnswer>>,
    #[serde(default)]
    pub attempts: u32,
    #[serde(default)]
    pub revealed: bool,
    #[serde(default)]
    pub changed_ms: i64,
}

/// The configuration choice's work on one workload: the inputs as they
/// stand and at the last check, how many checks, whether it is revealed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkloadProgress {
    #[serde(default)]
    pub input: WorkloadInput,
    #[serde(default)]
    pub checked: Option<WorkloadInput>,
    #[serde(default)]
    pub attempts: u32,
    #[serde(default)]
    pub revealed: bool,
}

/// The configuration choice's work, by workload id (the app's stored
/// format 2), so a reordered exercise never scores work against the wrong
/// workload.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChoiceProgress {
    #[serde(default)]
    pub workloads: SmallMap<String, WorkloadProgress>,
    #[serde(default)]
    pub changed_ms: i64,
}

impl ChoiceProgress {
    /// Each workload's inputs at its last check, in the exercise's order
    /// (an unchecked workload's are empty).
    pub fn checked_in_order(&self, exercise: &ConfigExercise) -> Vec<WorkloadInput> {
        exercise
            .workloads
            .iter()
            .map(|w| {
                self.workloads
                    .get(&w.id)
                    .and_then(|x| x.checked.clone())
                    .unwrap_or_default()
            })
            .collect()
    }

    /// Whether any workload has been checked.
    pub fn any_checked(&self) -> bool {
        self.workloads.values().any(|w| w.checked.is_some())
    }

    /// Checks made over every workload.
    pub fn attempts(&self) -> u32 {
        self.workloads
            .values()
            .fold(0u32, |n, w| n.saturating_add(w.attempts))
    }
}

/// The interview work: the written answer, hints shown, the self-score in
/// progress.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterviewProgress {
    #[serde(default)]
    pub answer: String,
    #[serde(default)]
    pub hints_shown: u32,
    #[serde(default)]
    pub score: RubricScore,
    #[serde(default)]
    pub changed_ms: i64,
}

/// Everything kept for the learner on the built-in course, but the AI
/// settings and key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// The lesson's checklist.
    pub checklist: ChecklistTicks,
    /// The trace exercise's work.
    pub trace: TraceProgress,
    /// The configuration choice's work.
    pub choice: ChoiceProgress,
    /// The interview work.
    pub interview: InterviewProgress,
    /// The saved self-scores.
    pub scores: SavedScores,
}

/// Right and asked, for one quarter of the score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Points {
    pub right: u32,
    pub of: u32,
}

impl Points {
    /// In thousandths (0 when nothing is asked).
    pub fn thousandths(self) -> u32 {
        if self.of == 0 {
            return 0;
        }
        let t = u64::from(self.right.min(self.of)) * 1_000 / u64::from(self.of);
        u32::try_from(t).unwrap_or(1_000)
    }
}

/// The score for the graded work, part by part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grade {
    /// The trace exercise at its last check.
    pub trace: Points,
    /// The configuration choice at each workload's last check.
    pub choice: Points,
    /// The latest saved self-score.
    pub interview: Points,
    /// Whether the latest saved self-score meets the readiness rule.
    pub ready: bool,
    /// Whether anything graded was done yet (a check or a saved score).
    pub attempted: bool,
}

impl Grade {
    /// The scaled score in thousandths: the mean of the four quarters.
    pub fn thousandths(&self) -> u32 {
        let ready = if self.ready { 1_000 } else { 0 };
        (self.trace.thousandths() + self.choice.thousandths() + self.interview.thousandths() + ready)
            / 4
    }

    /// True at or above [`PASS_AT`].
    pub fn passed(&self) -> bool {
        self.passed_at(PASS_AT)
    }

    /// True at or above `threshold` thousandths (a learning system may
    /// set its own; see `cmi::host_threshold`).
    pub fn passed_at(&self, threshold: u32) -> bool {
        self.thousandths() >= threshold
    }
}

/// Thousandths as a decimal with no trailing zeros: `0.825`, `1`, `0`.
pub fn decimal(thousandths: u32, scale: u32) -> String {
    // `scale` is 1 for 0..1 and 100 for 0..100: thousandths * scale / 1000.
    let milli = u64::from(thousandths) * u64::from(scale);
    let whole = milli / 1_000;
    let frac = milli % 1_000;
    if frac == 0 {
        whole.to_string()
    } else {
        let digits = format!("{frac:03}");
        format!("{whole}.{}", digits.trim_end_matches('0'))
    }
}

/// The ids of the lesson's checklist items, in reading order.
pub fn checklist_ids(lesson: &Lesson) -> Vec<&str> {
    lesson
        .sections
        .iter()
        .flat_map(|s| &s.blocks)
        .filter_map(|b| match b {
            Block::Checklist { items } => Some(items),
            _ => None,
        })
        .flatten()
        .map(|i| i.id.as_str())
        .collect()
}

/// True when every checklist item is ticked (a lesson without a checklist
/// is never complete, so an empty list cannot complete by accident).
pub fn completed(progress: &Progress, lesson: &Lesson) -> bool {
    let ids = checklist_ids(lesson);
    !ids.is_empty()
        && ids
            .iter()
            .all(|id| progress.checklist.items.get(*id).is_some_and(|t| t.done))
}

/// The score for the graded work in `progress` on `course`, the interview's
/// self-score read against its `rubric`.
pub fn grade(progress: &Progress, course: &Course, rubric: &Rubric) -> Grade {
    let x = &course.trace_exercise;
    let rows = u32::try_from(x.requests.len().saturating_mul(3)).unwrap_or(u32::MAX);
    let trace = match &progress.trace.checked {
        Some(checked) => {
            let answers: Vec<LearnerAnswer> = x
                .requests
                .iter()
                .map(|r| checked.get(&r.id).cloned().unwrap_or_default())
                .collect();
            let tally = check_trace(x, &answers).tally();
            Points {
                right: u32::try_from(tally.correct).unwrap_or(u32::MAX),
                of: rows,
            }
        }
        None => Points { right: 0, of: rows },
    };
    let c = &course.config_exercise;
    let inputs = progress.choice.checked_in_order(c);
    let mut choice = Points::default();
    for check in check_config(c, &inputs) {
        let (r, t) = check.as_ref().map_or((0, 1), workload_points);
        choice.right = choice.right.saturating_add(r);
        choice.of = choice.of.saturating_add(t);
    }
    let choice_checked = progress.choice.any_checked();
    if !choice_checked {
        choice.right = 0;
    }
    let latest = progress.scores.history.entries.first();
    let (interview, ready) = match latest {
        Some(entry) => {
            let score = RubricScore {
                scores: entry.scores.clone(),
            };
            let readiness = score.assess(rubric);
            (
                Points {
                    right: readiness.total,
                    of: readiness.max,
                },
                readiness.ready(),
            )
        }
        None => (
            Points {
                right: 0,
                of: max_total(rubric),
            },
            false,
        ),
    };
    Grade {
        trace,
        choice,
        interview,
        ready,
        attempted: progress.trace.checked.is_some() || choice_checked || latest.is_some(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The built-in course, parsed from `content/` as the build does.
    pub(crate) fn course() -> Course {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/");
        let read = |name: &str| std::fs::read_to_string(format!("{dir}{name}")).unwrap_or_default();
        Course {
            worked_timeline: toml::from_str(&read("worked_timeline.toml")).expect("timeline"),
            trace_exercise: toml::from_str(&read("trace_exercise.toml")).expect("trace"),
            config_exercise: toml::from_str(&read("config_exercise.toml")).expect("config"),
        }
    }

    /// The built-in lesson, parsed from `content/` as the build does.
    pub(crate) fn lesson() -> Lesson {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/lesson.toml");
        toml::from_str(&std::fs::read_to_string(path).unwrap_or_default()).expect("lesson")
    }

    /// The built-in rubric, parsed from `content/` as the build does.
    pub(crate) fn rubric() -> Rubric {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/rubric.toml");
        toml::from_str(&std::fs::read_to_string(path).unwrap_or_default()).expect("rubric")
    }

    /// Progress with every graded answer right, a ready self-score and
    /// every checklist item ticked.
    pub(crate) fn full_marks(course: &Course) -> Progress {
        use crate::exercises::trace_exercise::{DominantChoice, ShareEntry};
        use ttft_latency::split::Part;
        let x = &course.trace_exercise;
        let answers: SmallMap<String, LearnerAnswer> = x
            .requests
            .iter()
            .map(|r| {
                let a = LearnerAnswer {
                    dominant: Some(match r.answer.dominant {
                        Part::QueueWait => DominantChoice::QueueWait,
                        Part::Prefill => DominantChoice::Prefill,
                        Part::Emit => DominantChoice::Emit,
                    }),
                    share_percent: Some(ShareEntry::Number(r.answer.share_percent)),
                    investigate: x
                        .actions
                        .iter()
                        .find(|a| a.class == r.answer.investigate)
                        .map(|a| a.id.clone()),
                };
                (r.id.clone(), a)
            })
            .collect();
        let mut scores = SavedScores::default();
        let mut score = RubricScore::default();
        let rubric = rubric();
        for d in &rubric.dimensions {
            let _ = score.set(&d.id, crate::rubric::MAX_SCORE);
        }
        scores.add(
            crate::history::Entry::new(1_000, &score, &rubric, 1, 400),
            1_000,
        );
        let checklist = ChecklistTicks {
            items: checklist_ids(&lesson())
                .into_iter()
                .map(|id| {
                    (
                        id.to_owned(),
                        Tick {
                            changed_ms: 5,
                            done: true,
                        },
                    )
                })
                .collect(),
        };
        Progress {
            checklist,
            trace: TraceProgress {
                answers: answers.clone(),
                checked: Some(answers),
                attempts: 1,
                revealed: false,
                changed_ms: 10,
            },
            choice: ChoiceProgress::default(),
            interview: InterviewProgress {
                answer: "Queue wait dominates.".into(),
                hints_shown: 1,
                score,
                changed_ms: 20,
            },
            scores,
        }
    }

    fn check(progress: &Progress, course: &Course, thousandths: u32, passed: bool, done: bool) {
        let g = grade(progress, course, &rubric());
        assert_eq!(g.thousandths(), thousandths, "{g:?}");
        assert_eq!(g.passed(), passed);
        assert_eq!(completed(progress, &lesson()), done);
    }

    #[test]
    fn the_score_is_four_quarters_and_passes_at_eight_tenths() {
        let course = course();
        check(&Progress::default(), &course, 0, false, false);
        assert!(!grade(&Progress::default(), &course, &rubric()).attempted);
        let full = full_marks(&course);
        // Trace, interview and readiness full; the choice not checked.
        check(&full, &course, 750, false, true);
        assert!(grade(&full, &course, &rubric()).attempted);
        let mut untick = full.clone();
        if let Some(t) = untick.checklist.items.values_mut().next() {
            t.done = false;
        }
        check(&untick, &course, 750, false, false);
        let mut no_ready = full.clone();
        no_ready.scores = SavedScores::default();
        check(&no_ready, &course, 250, false, true);
        assert!(!checklist_ids(&lesson()).is_empty());
    }

    #[test]
    fn decimals_are_exact() {
        assert_eq!(decimal(825, 1), "0.825");
        assert_eq!(decimal(1_000, 1), "1");
        assert_eq!(decimal(0, 1), "0");
        assert_eq!(decimal(800, 1), "0.8");
        assert_eq!(decimal(825, 100), "82.5");
        assert_eq!(decimal(1_000, 100), "100");
        assert_eq!(decimal(333, 100), "33.3");
        assert_eq!(
            Points { right: 5, of: 0 }.thousandths(),
            0,
            "nothing asked"
        );
        assert_eq!(Points { right: 9, of: 3 }.thousandths(), 1_000);
    }
}
