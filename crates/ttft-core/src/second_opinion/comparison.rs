//! The AI's grade beside the learner's self-score: the difference on each
//! dimension, adopting one of the AI's scores, and the gap between totals.

use crate::content::Rubric;
use crate::rubric::RubricScore;
use crate::second_opinion::reply::AiGrade;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How the AI's score on a dimension compares with the learner's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Difference {
    Same,
    AiHigher,
    AiLower,
    /// The learner has not scored this dimension.
    SelfUnscored,
}

impl Difference {
    /// Plain words for the table cell.
    pub fn label(self) -> &'static str {
        match self {
            Difference::Same => "same",
            Difference::AiHigher => "AI higher",
            Difference::AiLower => "AI lower",
            Difference::SelfUnscored => "not self-scored yet",
        }
    }
}

/// One row of the side-by-side table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DimensionComparison {
    pub dimension: String,
    pub title: String,
    pub self_score: Option<u8>,
    pub ai_score: u8,
    pub difference: Difference,
}

/// The learner's score and the AI's, dimension by dimension, in rubric
/// order. Dimensions the grade lacks are left out (a parsed grade has all).
pub fn compare(
    self_score: &RubricScore,
    ai: &AiGrade,
    rubric: &Rubric,
) -> Vec<DimensionComparison> {
    rubric
        .dimensions
        .iter()
        .filter_map(|d| {
            let a = ai.get(&d.id)?;
            let own = self_score.get(&d.id);
            let difference = match own {
                None => Difference::SelfUnscored,
                Some(s) if s == a.score => Difference::Same,
                Some(s) if a.score > s => Difference::AiHigher,
                Some(_) => Difference::AiLower,
            };
            Some(DimensionComparison {
                dimension: d.id.clone(),
                title: d.title.clone(),
                self_score: own,
                ai_score: a.score,
                difference,
            })
        })
        .collect()
}

/// The AI grade has no score for this dimension.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotGraded {
    pub dimension: String,
}

impl fmt::Display for NotGraded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the AI gave no score for {}, so there is nothing to adopt",
            self.dimension
        )
    }
}

impl std::error::Error for NotGraded {}

/// Takes the AI's score on `dimension` as the learner's own.
pub fn adopt(self_score: &mut RubricScore, ai: &AiGrade, dimension: &str) -> Result<(), NotGraded> {
    let a = ai.get(dimension).ok_or_else(|| NotGraded {
        dimension: dimension.to_owned(),
    })?;
    // A parsed grade is in range, so `set` cannot refuse it; map it anyway.
    self_score.set(dimension, a.score).map_err(|_| NotGraded {
        dimension: dimension.to_owned(),
    })
}

/// The AI's total minus the learner's, over dimensions both scored: above
/// zero means the learner scored themselves lower than the AI did.
pub fn gap(self_score: &RubricScore, ai: &RubricScore, rubric: &Rubric) -> i32 {
    rubric
        .dimensions
        .iter()
        .filter_map(|d| Some(i32::from(ai.get(&d.id)?) - i32::from(self_score.get(&d.id)?)))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rubric::tests::rubric;
    use crate::second_opinion::reply::parse_reply;
    use crate::second_opinion::reply::tests::{five, owned, reply, ANSWER};

    #[test]
    fn compare_adopt_and_gap() {
        let r = rubric();
        let g = parse_reply(&reply(&owned(&five("1"))), &r, ANSWER).unwrap();
        let mut own = RubricScore::default();
        own.set("latency_metrics", 1).unwrap();
        own.set("clocks", 2).unwrap();
        own.set("changes", 0).unwrap();
        let rows: Vec<Difference> = compare(&own, &g, &r).iter().map(|c| c.difference).collect();
        assert_eq!(
            rows,
            vec![
                Difference::Same,
                Difference::AiLower,
                Difference::AiHigher,
                Difference::SelfUnscored,
                Difference::SelfUnscored
            ]
        );
        assert_eq!(gap(&own, &g.as_rubric_score(), &r), 0);
        adopt(&mut own, &g, "clocks").unwrap();
        assert_eq!(own.get("clocks"), Some(1));
        assert_eq!(gap(&own, &g.as_rubric_score(), &r), 1);
        assert_eq!(
            adopt(&mut own, &g, "vibes"),
            Err(NotGraded {
                dimension: "vibes".into()
            })
        );
    }
}
