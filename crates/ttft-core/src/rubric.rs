//! The self-score: a 0/1/2 score per rubric dimension, the total, and whether
//! the learner is ready, with the reason in words.
//!
//! Readiness follows the content's rubric: every dimension scored, a total
//! at or above `ready_at`, and no 0 on the `gate` dimension (latency metrics
//! from the trace: an answer that cannot read the trace is not ready however
//! well it does elsewhere). The rubric's dimensions, their order and the
//! threshold are data; nothing here names a dimension.
//!
//! This module does not store scores (see `history`) or grade answer text.

use crate::content::{DimensionScore, Rubric};
use serde::{Deserialize, Serialize};
use ttft_latency::small_map::SmallMap;
use std::fmt;

/// The highest score on a dimension.
pub const MAX_SCORE: u8 = 2;

/// The highest total on `rubric`: every dimension at [`MAX_SCORE`].
pub fn max_total(rubric: &Rubric) -> u32 {
    rubric.dimensions.len() as u32 * u32::from(MAX_SCORE)
}

/// A score outside 0..=2.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreOutOfRange {
    pub dimension: String,
    pub score: u64,
}

impl fmt::Display for ScoreOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} scored {}; a dimension scores 0, 1 or 2",
            self.dimension, self.score
        )
    }
}

impl std::error::Error for ScoreOutOfRange {}

/// A learner's scores by dimension id; a dimension not in the map is not
/// scored yet.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RubricScore {
    pub scores: SmallMap<String, u8>,
}

impl RubricScore {
    /// Scores `dimension`, refusing anything above 2.
    pub fn set(&mut self, dimension: &str, score: u8) -> Result<(), ScoreOutOfRange> {
        if score > MAX_SCORE {
            return Err(ScoreOutOfRange {
                dimension: dimension.to_owned(),
                score: u64::from(score),
            });
        }
        self.scores.insert(dimension.to_owned(), score);
        Ok(())
    }

    /// Takes the score off `dimension`.
    pub fn clear(&mut self, dimension: &str) {
        self.scores.remove(dimension);
    }

    /// The score on `dimension`, if scored.
    pub fn get(&self, dimension: &str) -> Option<u8> {
        self.scores.get(dimension).copied()
    }

    /// Scores as the content states them (the reference answer's).
    pub fn from_dimension_scores(
        scores: &[DimensionScore],
    ) -> Result<RubricScore, ScoreOutOfRange> {
        let mut s = RubricScore::default();
        for d in scores {
            s.set(&d.dimension, d.score)?;
        }
        Ok(s)
    }

    /// The first score outside 0..=2, if any (for scores read from storage).
    pub fn out_of_range(&self) -> Option<ScoreOutOfRange> {
        self.scores
            .iter()
            .find(|(_, &s)| s > MAX_SCORE)
            .map(|(d, &s)| ScoreOutOfRange {
                dimension: d.clone(),
                score: u64::from(s),
            })
    }

    /// Sum over the rubric's dimensions (scores for other ids are ignored).
    pub fn total(&self, rubric: &Rubric) -> u32 {
        rubric
            .dimensions
            .iter()
            .filter_map(|d| self.get(&d.id))
            .map(|s| u32::from(s.min(MAX_SCORE)))
            .sum()
    }

    /// How many of the rubric's dimensions are scored.
    pub fn scored(&self, rubric: &Rubric) -> usize {
        rubric
            .dimensions
            .iter()
            .filter(|d| self.get(&d.id).is_some())
            .count()
    }

    /// The readiness verdict against `rubric`.
    pub fn assess(&self, rubric: &Rubric) -> Readiness {
        let total = self.total(rubric);
        let max = max_total(rubric);
        let unscored: Vec<String> = rubric
            .dimensions
            .iter()
            .filter(|d| self.get(&d.id).is_none())
            .map(|d| d.title.clone())
            .collect();
        let gate_title = rubric
            .dimensions
            .iter()
            .find(|d| d.id == rubric.gate)
            .map_or_else(|| rubric.gate.clone(), |d| d.title.clone());
        let below = total < u32::from(rubric.ready_at);
        let gate_zero = self.get(&rubric.gate) == Some(0);
        let verdict = if !unscored.is_empty() {
            ReadinessVerdict::Incomplete { unscored }
        } else if below || gate_zero {
            ReadinessVerdict::NotReady {
                below_threshold: below,
                gate_zero: gate_zero.then_some(gate_title.clone()),
            }
        } else {
            ReadinessVerdict::Ready
        };
        Readiness {
            total,
            max,
            scored: self.scored(rubric),
            dimensions: rubric.dimensions.len(),
            ready_at: rubric.ready_at,
            gate: gate_title,
            verdict,
        }
    }
}

/// Whether the scores say the learner is ready.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ReadinessVerdict {
    /// These dimensions (by title) are not scored yet.
    Incomplete { unscored: Vec<String> },
    /// Scored in full, at or above the threshold, no 0 on the gate.
    Ready,
    /// Scored in full but not ready: below the threshold, or the gate
    /// dimension (named by title) scored 0, or both.
    NotReady {
        below_threshold: bool,
        gate_zero: Option<String>,
    },
}

/// The readiness verdict with the numbers it rests on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Readiness {
    pub total: u32,
    /// Highest possible total (10 for five dimensions).
    pub max: u32,
    /// Dimensions scored.
    pub scored: usize,
    /// Dimensions in the rubric.
    pub dimensions: usize,
    pub ready_at: u8,
    /// The gate dimension's title.
    pub gate: String,
    pub verdict: ReadinessVerdict,
}

impl Readiness {
    /// True only for a full score that meets the rule.
    pub fn ready(&self) -> bool {
        self.verdict == ReadinessVerdict::Ready
    }

    /// "6 of 10 · Scored 4 of 5 dimensions".
    pub fn progress(&self) -> String {
        format!(
            "{} of {} · Scored {} of {} dimensions",
            self.total, self.max, self.scored, self.dimensions
        )
    }

    /// The rule itself: "Ready at 8 of 10, with no 0 in Latency metrics from
    /// the trace".
    pub fn rule(&self) -> String {
        format!(
            "Ready at {} of {}, with no 0 in {}",
            self.ready_at, self.max, self.gate
        )
    }
}

/// The verdict and why, in a sentence.
impl fmt::Display for Readiness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (total, max, ready_at, gate) = (self.total, self.max, self.ready_at, &self.gate);
        match &self.verdict {
            ReadinessVerdict::Incomplete { unscored } => {
                let n = unscored.len();
                let dims = if n == 1 { "dimension" } else { "dimensions" };
                write!(
                    f,
                    "{total} of {max} so far; score the {n} remaining {dims} ({}) to see readiness",
                    unscored.join(", ")
                )
            }
            ReadinessVerdict::Ready => write!(f, "{total} of {max}, with no 0 in {gate}: ready"),
            ReadinessVerdict::NotReady {
                below_threshold: true,
                gate_zero: Some(g),
            } => write!(
                f,
                "{total} of {max}, below the {ready_at} needed, and {g} scored 0, so not yet ready"
            ),
            ReadinessVerdict::NotReady {
                gate_zero: Some(g), ..
            } => {
                write!(f, "{total} of {max}, but {g} scored 0, so not yet ready")
            }
            ReadinessVerdict::NotReady { .. } => {
                write!(
                    f,
                    "{total} of {max}, below the {ready_at} needed, so not yet ready"
                )
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::content::Dimension;

    pub(crate) fn rubric() -> Rubric {
        let dim = |id: &str, title: &str| Dimension {
            id: id.into(),
            title: title.into(),
            levels: ["misses it".into(), "partly".into(), "fully".into()],
        };
        Rubric {
            dimensions: vec![
                dim("latency_metrics", "Latency metrics from the trace"),
                dim("clocks", "Clock boundaries"),
                dim("changes", "Changes and trade-offs"),
                dim("memory", "Memory and queueing"),
                dim("overload", "Deadlines and overload"),
            ],
            ready_at: 8,
            gate: "latency_metrics".into(),
            threshold_note: "An estimate.".into(),
        }
    }

    /// Scores the five dimensions in order (`None` = unscored) and checks the
    /// sentence and the ready flag.
    fn check(scores: [Option<u8>; 5], text: &str, ready: bool) {
        let r = rubric();
        let mut s = RubricScore::default();
        for (d, score) in r.dimensions.iter().zip(scores) {
            if let Some(v) = score {
                s.set(&d.id, v).unwrap();
            }
        }
        let got = s.assess(&r);
        assert_eq!(got.to_string(), text);
        assert_eq!(got.ready(), ready, "{text}");
    }

    #[test]
    fn the_edges_of_readiness() {
        check(
            [Some(0), Some(2), Some(2), Some(2), Some(2)],
            "8 of 10, but Latency metrics from the trace scored 0, so not yet ready",
            false,
        );
        check(
            [Some(1), Some(2), Some(2), Some(2), Some(1)],
            "8 of 10, with no 0 in Latency metrics from the trace: ready",
            true,
        );
        check(
            [Some(2), Some(2), Some(2), Some(1), Some(0)],
            "7 of 10, below the 8 needed, so not yet ready",
            false,
        );
        check(
            [Some(0), Some(2), Some(2), Some(2), Some(1)],
            "7 of 10, below the 8 needed, and Latency metrics from the trace scored 0, so not yet ready",
            false,
        );
        check(
            [Some(2), Some(2), Some(2), Some(2), Some(2)],
            "10 of 10, with no 0 in Latency metrics from the trace: ready",
            true,
        );
        check(
            [Some(2), None, Some(2), None, Some(2)],
            "6 of 10 so far; score the 2 remaining dimensions (Clock boundaries, Memory and queueing) to see readiness",
            false,
        );
    }

    #[test]
    fn progress_rule_and_range() {
        let r = rubric();
        let mut s = RubricScore::default();
        assert_eq!(
            s.assess(&r).progress(),
            "0 of 10 · Scored 0 of 5 dimensions"
        );
        assert_eq!(
            s.assess(&r).rule(),
            "Ready at 8 of 10, with no 0 in Latency metrics from the trace"
        );
        assert_eq!(max_total(&r), 10);
        let mut three = r.clone();
        three.dimensions.truncate(3);
        assert_eq!(
            max_total(&three),
            6,
            "the maximum follows the rubric, not a literal 10"
        );
        assert_eq!(
            s.set("clocks", 3),
            Err(ScoreOutOfRange {
                dimension: "clocks".into(),
                score: 3
            })
        );
        s.set("clocks", 2).unwrap();
        s.set("not_a_dimension", 2).unwrap();
        assert_eq!(
            (s.total(&r), s.scored(&r)),
            (2, 1),
            "unknown ids do not count"
        );
        s.clear("clocks");
        assert_eq!(s.total(&r), 0);
        let reference = [DimensionScore {
            dimension: "memory".into(),
            score: 2,
        }];
        assert_eq!(
            RubricScore::from_dimension_scores(&reference)
                .unwrap()
                .get("memory"),
            Some(2)
        );
        let bad: RubricScore = serde_json::from_str(r#"{"clocks": 9}"#).unwrap();
        assert_eq!(
            bad.out_of_range().map(|e| e.to_string()).as_deref(),
            Some("clocks scored 9; a dimension scores 0, 1 or 2")
        );
    }
}
