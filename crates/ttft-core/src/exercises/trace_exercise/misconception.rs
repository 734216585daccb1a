//! The mistakes the trace exercise can name when the evidence in an answer
//! points to one. Their explanations are content, keyed by
//! [`Misconception::id`].

use serde::{Deserialize, Serialize};
use std::fmt;

/// A mistake the evidence in an answer points to. The explanation text is
/// content, looked up by [`Misconception::id`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Misconception {
    /// A time in milliseconds given as the share: written with `ms`, or a
    /// bare number equal to one of the request's durations (a part or TTFT)
    /// and to no part's share.
    MillisecondsNotShare,
    /// The share given as a fraction (0.969) rather than a percent.
    FractionNotPercent,
    /// The share of end-to-end latency instead of TTFT (needs end-to-end).
    ShareOfEndToEnd,
    /// The share of a part other than the one being judged (the part the
    /// learner named, or the dominant one when none is named).
    ShareOfOtherPart,
    /// The output rate after the first token named as the pause's cause.
    OutputRateAsCause,
    /// Prefill named where queue wait dominates and the prompt is short.
    QueueAsPrefill,
    /// Prefill named for a queue-bound request because its prompt is long.
    LongPromptMeansPrefill,
    /// Queue wait named where prefill dominates.
    PrefillAsQueue,
    /// An action chosen for a request that met its target.
    ActionWithinTarget,
    /// "No action" chosen for a request over its target.
    NoActionOverTarget,
    /// An action for a different cause than the dominant delay.
    WrongCauseClass,
    /// An action of the right class that protects other requests rather
    /// than shortening this one's first token (chunked prefill for a long
    /// prompt), chosen first for a request over its target.
    ProtectsOthers,
}

impl Misconception {
    /// Every misconception the checker can name.
    pub const ALL: [Misconception; 12] = [
        Misconception::MillisecondsNotShare,
        Misconception::FractionNotPercent,
        Misconception::ShareOfEndToEnd,
        Misconception::ShareOfOtherPart,
        Misconception::OutputRateAsCause,
        Misconception::QueueAsPrefill,
        Misconception::LongPromptMeansPrefill,
        Misconception::PrefillAsQueue,
        Misconception::ActionWithinTarget,
        Misconception::NoActionOverTarget,
        Misconception::WrongCauseClass,
        Misconception::ProtectsOthers,
    ];

    /// The snake_case id that keys its text in `TraceExercise.misconceptions`.
    pub fn id(self) -> &'static str {
        match self {
            Misconception::MillisecondsNotShare => "milliseconds_not_share",
            Misconception::FractionNotPercent => "fraction_not_percent",
            Misconception::ShareOfEndToEnd => "share_of_end_to_end",
            Misconception::ShareOfOtherPart => "share_of_other_part",
            Misconception::OutputRateAsCause => "output_rate_as_cause",
            Misconception::QueueAsPrefill => "queue_as_prefill",
            Misconception::LongPromptMeansPrefill => "long_prompt_means_prefill",
            Misconception::PrefillAsQueue => "prefill_as_queue",
            Misconception::ActionWithinTarget => "action_within_target",
            Misconception::NoActionOverTarget => "no_action_over_target",
            Misconception::WrongCauseClass => "wrong_cause_class",
            Misconception::ProtectsOthers => "protects_others",
        }
    }

    /// The misconception with this id.
    pub fn from_id(id: &str) -> Option<Misconception> {
        Misconception::ALL.into_iter().find(|m| m.id() == id)
    }
}

impl fmt::Display for Misconception {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}
