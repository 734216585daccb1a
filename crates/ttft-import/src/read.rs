//! What every format reader fills: the [`Import`] of one file (its
//! requests, run figures and problems), and the two helpers all the JSON
//! readers share ([`parse_json`], [`line_at`]).
//!
//! It sits below the readers and the [`Importer`](crate::Importer) that
//! drives them: a reader imports it, and it imports no reader, so the
//! crate's modules form a tree (importer -> readers -> this -> model,
//! format). It reads no format's fields.

use crate::format::{Capability, Format};
use crate::model::{Clock, ImportedRequest, Location, PrefillConvention, Problem, RunSummary};
use serde::{Deserialize, Serialize};
use ttft_latency::{
    summarise, Convention, Micros, Observation, Outcome, OutcomeCounts, Summary, TargetCounts, TtftSplit,
};

/// Most problems kept in a result; beyond this they are only counted, so a
/// file of garbage cannot fill the page's memory with messages.
pub const MAX_PROBLEMS: usize = 1_000;

/// Everything read from one file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Import {
    /// The format it was read as.
    pub format: Format,
    /// Its requests, in file order.
    pub requests: Vec<ImportedRequest>,
    /// The figures it states about whole runs, if any.
    pub summaries: Vec<RunSummary>,
    /// What could not be read and was skipped (at most [`MAX_PROBLEMS`]).
    pub problems: Vec<Problem>,
    /// Problems beyond [`MAX_PROBLEMS`], counted but not listed.
    pub problems_not_listed: usize,
    /// Records that are valid but are not requests (other spans in a trace).
    pub ignored_records: usize,
    /// True when reading stopped before the end of the file (a document
    /// that is not valid JSON, or larger than its format's limit), so the
    /// file may hold requests that were not imported. When false, every
    /// problem cost only its own line or record.
    #[serde(default)]
    pub stopped: bool,
}

impl Import {
    /// An empty result for `format`.
    pub fn new(format: Format) -> Import {
        Import {
            format,
            requests: Vec::new(),
            summaries: Vec::new(),
            problems: Vec::new(),
            problems_not_listed: 0,
            ignored_records: 0,
            stopped: false,
        }
    }

    /// What the format can and cannot split, in plain words for the page.
    pub fn capability(&self) -> Capability {
        self.format.capability()
    }

    /// Records a problem after which nothing more of the file is read.
    pub fn stop(&mut self, location: Location, message: impl Into<String>) {
        self.stopped = true;
        self.problem(location, message);
    }

    /// Records a problem, or counts it once the list is full.
    pub fn problem(&mut self, location: Location, message: impl Into<String>) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(Problem {
                location,
                message: message.into(),
            });
        } else {
            self.problems_not_listed += 1;
        }
    }

    /// Requests by outcome (their total is the number of requests).
    pub fn counts(&self) -> OutcomeCounts {
        OutcomeCounts::of(self.requests.iter().map(|r| r.outcome))
    }

    /// True when the file holds run figures but no per-request records.
    pub fn summary_only(&self) -> bool {
        self.requests.is_empty() && !self.summaries.is_empty()
    }

    /// Each request as the core's summary sees it. Only a course-style split
    /// whose parts add up to its TTFT (no unattributed remainder) is handed
    /// over with its three parts; every other request with a TTFT enters as
    /// TTFT only, because the core's split has no place for vLLM's
    /// prefill-with-emit or a remainder, and inventing one would be wrong.
    /// Requests without a TTFT (errors, cancellations) enter with none.
    pub fn observations(&self) -> Vec<Observation> {
        self.requests.iter().map(observation).collect()
    }

    /// The core's summary of this file's requests (percentiles, outcomes,
    /// dominant delays where split), against `target` when given.
    pub fn summarise(&self, target: Option<Micros>, convention: Convention) -> Summary {
        summarise(&self.observations(), target, convention)
    }

    /// How this file's requests stand against `target` (what
    /// [`Import::summarise`] puts in its `target`), counted without sorting.
    pub fn target_counts(&self, target: Micros) -> TargetCounts {
        TargetCounts::count(self.requests.iter().map(observation), target)
    }

    /// All problems, listed and not, for a count on the page.
    pub fn problem_count(&self) -> usize {
        self.problems.len() + self.problems_not_listed
    }
}

fn observation(r: &ImportedRequest) -> Observation {
    let b = &r.breakdown;
    let course_split = match (b.clock, b.queue_wait, b.prefill, b.emit, b.unattributed) {
        (Clock::Server, Some(q), Some(p), Some(e), None | Some(Micros::ZERO))
            if p.convention == PrefillConvention::Course =>
        {
            Some(TtftSplit {
                queue_wait: q,
                prefill: p.duration,
                emit: e,
            })
        }
        _ => None,
    };
    if r.outcome == Outcome::Empty {
        return Observation::unsplit(r.outcome);
    }
    match (course_split, b.ttft) {
        (Some(parts), _) => Observation {
            outcome: r.outcome,
            ttft: Some(parts.ttft()),
            parts: Some(parts),
        },
        (None, Some(t)) => Observation::ttft_only(r.outcome, t),
        (None, None) => Observation::unsplit(r.outcome),
    }
}

/// Parses `text` as one JSON document, recording a problem on failure (after
/// which nothing of the document is read).
pub fn parse_json(text: &str, import: &mut Import) -> Option<serde_json::Value> {
    match serde_json::from_str(text) {
        Ok(v) => Some(v),
        Err(e) => {
            import.stop(
                Location::Line(e.line()),
                format!("not valid JSON, so nothing in it was read: {e}"),
            );
            None
        }
    }
}

/// The 1-based line on which byte `offset` of `text` lies, counting from
/// `first_line`.
pub fn line_at(text: &str, offset: usize, first_line: usize) -> usize {
    let upto = text.get(..offset.min(text.len())).unwrap_or(text);
    first_line + upto.bytes().filter(|&b| b == b'\n').count()
}
