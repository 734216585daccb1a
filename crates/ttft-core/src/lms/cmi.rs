//! The two SCORM run-time standards' names, and the data model values a
//! report sets.
//!
//! SCORM 1.2 (ADL's Run-Time Environment, 2001) calls the host's object
//! `API` and its methods `LMSInitialize`, `LMSGetValue`, …; SCORM 2004 4th
//! edition calls it `API_1484_11` with `Initialize`, `GetValue`, …, and
//! names the data model differently (`cmi.core.score.raw` against
//! `cmi.score.raw`, one `lesson_status` against `completion_status` and
//! `success_status`). The app's glue asks [`Standard`] for every name, so
//! it holds no string of either standard itself.
//!
//! What it deliberately does not do: call anything, or decide when to
//! report.

use crate::lms::progress::{decimal, Grade, PASS_AT};
use crate::lms::suspend::{LIMIT_12, LIMIT_2004};

/// Which run-time the host speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Standard {
    /// SCORM 1.2.
    Scorm12,
    /// SCORM 2004 4th edition.
    Scorm2004,
}

/// A run-time method, named per standard by [`Standard::method`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Initialize,
    Terminate,
    GetValue,
    SetValue,
    Commit,
    GetLastError,
    GetErrorString,
}

impl Standard {
    /// Both, in the order the page looks for them: 2004 first, since a host
    /// that offers both runs the newer one better.
    pub const ALL: [Standard; 2] = [Standard::Scorm2004, Standard::Scorm12];

    /// The name of the host's object, looked for on each window up the
    /// frame chain.
    pub fn api_name(self) -> &'static str {
        match self {
            Standard::Scorm12 => "API",
            Standard::Scorm2004 => "API_1484_11",
        }
    }

    /// What a learner or instructor calls it.
    pub fn label(self) -> &'static str {
        match self {
            Standard::Scorm12 => "SCORM 1.2",
            Standard::Scorm2004 => "SCORM 2004",
        }
    }

    /// A method's name in this standard.
    pub fn method(self, m: Method) -> &'static str {
        match (self, m) {
            (Standard::Scorm12, Method::Initialize) => "LMSInitialize",
            (Standard::Scorm12, Method::Terminate) => "LMSFinish",
            (Standard::Scorm12, Method::GetValue) => "LMSGetValue",
            (Standard::Scorm12, Method::SetValue) => "LMSSetValue",
            (Standard::Scorm12, Method::Commit) => "LMSCommit",
            (Standard::Scorm12, Method::GetLastError) => "LMSGetLastError",
            (Standard::Scorm12, Method::GetErrorString) => "LMSGetErrorString",
            (Standard::Scorm2004, Method::Initialize) => "Initialize",
            (Standard::Scorm2004, Method::Terminate) => "Terminate",
            (Standard::Scorm2004, Method::GetValue) => "GetValue",
            (Standard::Scorm2004, Method::SetValue) => "SetValue",
            (Standard::Scorm2004, Method::Commit) => "Commit",
            (Standard::Scorm2004, Method::GetLastError) => "GetLastError",
            (Standard::Scorm2004, Method::GetErrorString) => "GetErrorString",
        }
    }

    /// The suspend data element.
    pub fn suspend_data(self) -> &'static str {
        "cmi.suspend_data"
    }

    /// The most suspend data this standard lets a SCO store.
    pub fn suspend_limit(self) -> usize {
        match self {
            Standard::Scorm12 => LIMIT_12,
            Standard::Scorm2004 => LIMIT_2004,
        }
    }

    /// The element that says how the learner left, and its value for
    /// "coming back": the host then keeps the suspend data for the next
    /// launch.
    pub fn exit(self) -> (&'static str, &'static str) {
        match self {
            Standard::Scorm12 => ("cmi.core.exit", "suspend"),
            Standard::Scorm2004 => ("cmi.exit", "suspend"),
        }
    }

    /// The element whose value is `ab-initio` on a first launch and
    /// `resume` after a suspended one.
    pub fn entry(self) -> &'static str {
        match self {
            Standard::Scorm12 => "cmi.core.entry",
            Standard::Scorm2004 => "cmi.entry",
        }
    }

    /// The element counting the interactions already recorded (2004 lets
    /// a SCO read it; 1.2 does too, as `_count`).
    pub fn interaction_count(self) -> &'static str {
        "cmi.interactions._count"
    }

    /// The values that report `grade` and completion, in the order to set
    /// them (score before status, so a host that grades on status sees the
    /// score first). SCORM 1.2 has one status for both: `passed` once the
    /// graded work passes, `failed` when the checklist is done and it does
    /// not, `incomplete` before; a 1.2 host with a mastery score that
    /// overrides the status from the raw score agrees, since both pass at
    /// the same point.
    pub fn report(
        self,
        grade: &Grade,
        completed: bool,
        pass_at: u32,
    ) -> Vec<(&'static str, String)> {
        let t = grade.thousandths();
        let passed = grade.passed_at(pass_at);
        match self {
            Standard::Scorm12 => {
                let status = match (completed, passed) {
                    (_, true) => "passed",
                    (true, false) => "failed",
                    (false, false) => "incomplete",
                };
                vec![
                    ("cmi.core.score.min", "0".into()),
                    ("cmi.core.score.max", "100".into()),
                    ("cmi.core.score.raw", decimal(t, 100)),
                    ("cmi.core.lesson_status", status.into()),
                ]
            }
            Standard::Scorm2004 => {
                let success = match (grade.attempted, passed) {
                    (_, true) => "passed",
                    (true, false) => "failed",
                    (false, false) => "unknown",
                };
                let completion = if completed { "completed" } else { "incomplete" };
                vec![
                    ("cmi.score.min", "0".into()),
                    ("cmi.score.max", "100".into()),
                    ("cmi.score.raw", decimal(t, 100)),
                    ("cmi.score.scaled", decimal(t, 1)),
                    ("cmi.success_status", success.into()),
                    ("cmi.completion_status", completion.into()),
                ]
            }
        }
    }
}

/// The element where the host hands back the manifest's threshold, or the
/// one an instructor set in the learning system: 1.2's mastery score (0 to
/// 100), 2004's scaled passing score (-1 to 1).
pub fn threshold_element(standard: Standard) -> &'static str {
    match standard {
        Standard::Scorm12 => "cmi.student_data.mastery_score",
        Standard::Scorm2004 => "cmi.scaled_passing_score",
    }
}

/// The host's threshold in thousandths of the scaled score, from the text
/// of [`threshold_element`]; `None` when it set none or it is not a
/// number in range, and the course's own (`PASS_AT`) applies.
pub fn host_threshold(standard: Standard, text: &str) -> Option<u32> {
    let value: f64 = text.trim().parse().ok().filter(|v: &f64| v.is_finite())?;
    let scaled = match standard {
        Standard::Scorm12 if (0.0..=100.0).contains(&value) => value / 100.0,
        Standard::Scorm2004 if (-1.0..=1.0).contains(&value) => value.max(0.0),
        _ => return None,
    };
    Some((scaled * 1_000.0).round() as u32)
}

/// The passing threshold as the manifests state it: SCORM 1.2's
/// `adlcp:masteryscore` (0 to 100) and SCORM 2004's
/// `imsss:minNormalizedMeasure` (0 to 1).
pub fn passing_threshold(standard: Standard) -> String {
    match standard {
        Standard::Scorm12 => decimal(PASS_AT, 100),
        Standard::Scorm2004 => decimal(PASS_AT, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lms::progress::Points;

    fn grade(right: u32, ready: bool) -> Grade {
        let p = Points { right, of: 10 };
        Grade {
            trace: p,
            choice: p,
            interview: p,
            ready,
            attempted: right > 0 || ready,
        }
    }

    fn check(standard: Standard, g: Grade, completed: bool, expected: &[(&str, &str)]) {
        let got = standard.report(&g, completed, PASS_AT);
        let got: Vec<(&str, &str)> = got.iter().map(|(k, v)| (*k, v.as_str())).collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn reports_in_each_standard() {
        check(
            Standard::Scorm12,
            grade(10, true),
            false,
            &[
                ("cmi.core.score.min", "0"),
                ("cmi.core.score.max", "100"),
                ("cmi.core.score.raw", "100"),
                ("cmi.core.lesson_status", "passed"),
            ],
        );
        check(
            Standard::Scorm12,
            grade(9, false),
            true,
            &[
                ("cmi.core.score.min", "0"),
                ("cmi.core.score.max", "100"),
                ("cmi.core.score.raw", "67.5"),
                ("cmi.core.lesson_status", "failed"),
            ],
        );
        check(
            Standard::Scorm2004,
            grade(0, false),
            true,
            &[
                ("cmi.score.min", "0"),
                ("cmi.score.max", "100"),
                ("cmi.score.raw", "0"),
                ("cmi.score.scaled", "0"),
                ("cmi.success_status", "unknown"),
                ("cmi.completion_status", "completed"),
            ],
        );
        check(
            Standard::Scorm2004,
            grade(8, true),
            false,
            &[
                ("cmi.score.min", "0"),
                ("cmi.score.max", "100"),
                ("cmi.score.raw", "85"),
                ("cmi.score.scaled", "0.85"),
                ("cmi.success_status", "passed"),
                ("cmi.completion_status", "incomplete"),
            ],
        );
        let strict = Standard::Scorm12.report(&grade(8, true), false, 900);
        assert_eq!(strict[3].1, "incomplete", "the host's own threshold holds");
        assert_eq!(host_threshold(Standard::Scorm12, "80"), Some(800));
        assert_eq!(host_threshold(Standard::Scorm12, " 72.5"), Some(725));
        assert_eq!(host_threshold(Standard::Scorm12, ""), None);
        assert_eq!(host_threshold(Standard::Scorm12, "180"), None);
        assert_eq!(host_threshold(Standard::Scorm2004, "0.6"), Some(600));
        assert_eq!(host_threshold(Standard::Scorm2004, "-0.5"), Some(0));
        assert_eq!(host_threshold(Standard::Scorm2004, "NaN"), None);
        assert_eq!(host_threshold(Standard::Scorm2004, "2"), None);
        assert_eq!(passing_threshold(Standard::Scorm12), "80");
        assert_eq!(passing_threshold(Standard::Scorm2004), "0.8");
        assert_eq!(Standard::Scorm12.method(Method::Terminate), "LMSFinish");
        assert_eq!(Standard::Scorm2004.api_name(), "API_1484_11");
    }
}
