//! Summaries of many requests: percentiles, dominant delays, outcomes, and a
//! plain-words reading built from those numbers.
//!
//! A summary is made from [`Observation`]s, not from splits, so that every
//! source fits: a request split into its three parts, a request whose trace
//! gives only a TTFT (most benchmark clients), and a request with no first
//! token at all (rejected, failed early, cancelled). `From<&RequestSplit>`
//! and [`Observation::unsplit`] build them.
//!
//! **Which requests enter which numbers.** This is the rule, stated once:
//!
//! - *Every* request counts in `requests` and in the outcome counts.
//! - TTFT percentiles are over every request that has a TTFT, whatever its
//!   outcome: a first token that reached the stream happened, even if the
//!   request failed later.
//! - Part percentiles and dominant-delay counts are over the requests whose
//!   TTFT is split into parts (a subset of the above; `parts.count` says how
//!   many).
//! - Requests with no TTFT cannot enter a latency percentile, so they are
//!   never silently dropped: they are counted by outcome in
//!   `no_first_token`, and against a target they count as *missed* (a
//!   rejected hint did not start in time), next to the ones over it.
//!
//! This module does not split requests (see `split`), parse trace files (the
//! importers do), or format tables.

use crate::percentile::{percentiles, Convention, Percentiles};
use crate::split::{Dominant, Part, RequestSplit, TtftSplit};
use crate::time::{group_count, Micros};
use crate::timing::Outcome;
use serde::{Deserialize, Serialize};

/// What a summary needs to know about one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// How it ended.
    pub outcome: Outcome,
    /// Server TTFT, when there was a first token and the source records it.
    pub ttft: Option<Micros>,
    /// The three parts, when the source records them. When present, their
    /// sum is the TTFT used (it overrides `ttft`).
    pub parts: Option<TtftSplit>,
}

impl Observation {
    /// A request with only a TTFT, as benchmark clients record it.
    pub fn ttft_only(outcome: Outcome, ttft: Micros) -> Observation {
        Observation {
            outcome,
            ttft: Some(ttft),
            parts: None,
        }
    }

    /// A request that could not be split or had no first token.
    pub fn unsplit(outcome: Outcome) -> Observation {
        Observation {
            outcome,
            ttft: None,
            parts: None,
        }
    }

    /// The TTFT this observation contributes: the parts' sum when split.
    pub fn first_token(&self) -> Option<Micros> {
        self.parts.map(|p| p.ttft()).or(self.ttft)
    }
}

impl From<&RequestSplit> for Observation {
    fn from(r: &RequestSplit) -> Observation {
        Observation {
            outcome: r.outcome,
            ttft: Some(r.ttft()),
            parts: Some(r.split),
        }
    }
}

/// Requests counted by how they ended: the one outcome count of the
/// workspace (the importer and the page use it too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeCounts {
    pub completed: usize,
    pub failed: usize,
    pub rejected: usize,
    pub cancelled: usize,
    /// Nothing produced and no error recorded ([`Outcome::Empty`]).
    #[serde(default)]
    pub empty: usize,
}

impl OutcomeCounts {
    /// Adds one request with this outcome.
    pub fn add(&mut self, outcome: Outcome) {
        let slot = match outcome {
            Outcome::Completed => &mut self.completed,
            Outcome::Failed => &mut self.failed,
            Outcome::Rejected => &mut self.rejected,
            Outcome::Cancelled => &mut self.cancelled,
            Outcome::Empty => &mut self.empty,
        };
        *slot = slot.saturating_add(1);
    }

    /// How many have this outcome.
    pub fn get(&self, outcome: Outcome) -> usize {
        match outcome {
            Outcome::Completed => self.completed,
            Outcome::Failed => self.failed,
            Outcome::Rejected => self.rejected,
            Outcome::Cancelled => self.cancelled,
            Outcome::Empty => self.empty,
        }
    }

    /// All of them.
    pub fn total(&self) -> usize {
        Outcome::ALL
            .into_iter()
            .fold(0usize, |sum, o| sum.saturating_add(self.get(o)))
    }

    /// Counts `outcomes`.
    pub fn of(outcomes: impl IntoIterator<Item = Outcome>) -> OutcomeCounts {
        let mut c = OutcomeCounts::default();
        for o in outcomes {
            c.add(o);
        }
        c
    }

    /// "2 rejected, 1 cancelled": the non-zero counts in outcome order.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = Outcome::ALL
            .into_iter()
            .filter(|&o| self.get(o) > 0)
            .map(|o| format!("{} {}", group_count(self.get(o)), o.label()))
            .collect();
        parts.join(", ")
    }
}

/// Split requests counted by their dominant delay; ties are their own count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DominantCounts {
    pub queue_wait: usize,
    pub prefill: usize,
    pub emit: usize,
    /// Two or three parts equal and largest.
    pub ties: usize,
}

impl DominantCounts {
    fn add(&mut self, d: &Dominant) {
        let slot = match d {
            Dominant::Single(Part::QueueWait) => &mut self.queue_wait,
            Dominant::Single(Part::Prefill) => &mut self.prefill,
            Dominant::Single(Part::Emit) => &mut self.emit,
            Dominant::Tie(_) => &mut self.ties,
        };
        *slot = slot.saturating_add(1);
    }

    /// Requests with this part strictly dominant.
    pub fn get(&self, part: Part) -> usize {
        match part {
            Part::QueueWait => self.queue_wait,
            Part::Prefill => self.prefill,
            Part::Emit => self.emit,
        }
    }

    /// All counted requests.
    pub fn total(&self) -> usize {
        self.queue_wait
            .saturating_add(self.prefill)
            .saturating_add(self.emit)
            .saturating_add(self.ties)
    }

    /// The part that dominates more than half of the counted requests.
    pub fn majority(&self) -> Option<Part> {
        let total = self.total();
        Part::ALL
            .into_iter()
            .find(|&p| self.get(p).saturating_mul(2) > total)
    }
}

/// Percentiles of each part, over the requests split into parts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartPercentiles {
    pub queue_wait: Percentiles,
    pub prefill: Percentiles,
    pub emit: Percentiles,
}

impl PartPercentiles {
    /// One part's percentiles.
    pub fn part(&self, part: Part) -> &Percentiles {
        match part {
            Part::QueueWait => &self.queue_wait,
            Part::Prefill => &self.prefill,
            Part::Emit => &self.emit,
        }
    }
}

/// How the requests stand against a TTFT target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetCounts {
    /// The target.
    pub target: Micros,
    /// Requests with a TTFT at or under it.
    pub within: usize,
    /// Requests with a TTFT over it.
    pub over: usize,
    /// Requests with no first token, which also missed it.
    pub no_first_token: usize,
    /// Dominant delays of the split requests over the target.
    pub over_dominant: DominantCounts,
}

impl TargetCounts {
    /// How `observations` stand against `target`: the only part of a
    /// [`Summary`] that depends on the target, so that a page can recount
    /// it as the learner types one without sorting every TTFT again.
    pub fn count(observations: impl IntoIterator<Item = Observation>, target: Micros) -> TargetCounts {
        let mut t = TargetCounts {
            target,
            within: 0,
            over: 0,
            no_first_token: 0,
            over_dominant: DominantCounts::default(),
        };
        for o in observations {
            // A request that produced nothing and recorded no error is not
            // judged against the target: there is nothing to judge.
            if o.outcome == Outcome::Empty {
                continue;
            }
            match o.first_token() {
                None => t.no_first_token += 1,
                Some(ttft) if ttft <= target => t.within += 1,
                Some(_) => {
                    t.over += 1;
                    if let Some(p) = o.parts {
                        t.over_dominant.add(&p.dominant());
                    }
                }
            }
        }
        t
    }

    /// Over the target or with no first token at all.
    pub fn missed(&self) -> usize {
        self.over.saturating_add(self.no_first_token)
    }
}

/// A summary of many requests. See the module docs for which requests enter
/// which numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// The percentile convention used throughout.
    pub convention: Convention,
    /// Every request, whatever happened to it.
    pub requests: usize,
    /// Every request by outcome.
    pub outcomes: OutcomeCounts,
    /// Requests with no TTFT, by outcome.
    pub no_first_token: OutcomeCounts,
    /// Requests with a TTFT but no parts.
    pub ttft_only: usize,
    /// TTFT percentiles; `None` when no request has a TTFT.
    pub ttft: Option<Percentiles>,
    /// Part percentiles; `None` when no request is split.
    pub parts: Option<PartPercentiles>,
    /// Split requests by dominant delay.
    pub dominant: DominantCounts,
    /// Against a target, when one is given.
    pub target: Option<TargetCounts>,
}

/// Summarises `observations` with percentiles under `convention`, and
/// against `target` when given.
pub fn summarise(
    observations: &[Observation],
    target: Option<Micros>,
    convention: Convention,
) -> Summary {
    let mut outcomes = OutcomeCounts::default();
    let mut no_first_token = OutcomeCounts::default();
    let mut ttfts = Vec::new();
    let mut split_parts: [Vec<Micros>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let mut dominant = DominantCounts::default();
    let mut ttft_only = 0usize;
    for o in observations {
        outcomes.add(o.outcome);
        let Some(ttft) = o.first_token().filter(|_| o.outcome != Outcome::Empty) else {
            no_first_token.add(o.outcome);
            continue;
        };
        ttfts.push(ttft);
        match &o.parts {
            Some(p) => {
                for (slot, part) in split_parts.iter_mut().zip(Part::ALL) {
                    slot.push(p.part(part));
                }
                dominant.add(&p.dominant());
            }
            None => ttft_only += 1,
        }
    }
    let [q, p, e] = split_parts;
    let parts = match (
        percentiles(&q, convention),
        percentiles(&p, convention),
        percentiles(&e, convention),
    ) {
        (Ok(queue_wait), Ok(prefill), Ok(emit)) => Some(PartPercentiles {
            queue_wait,
            prefill,
            emit,
        }),
        _ => None,
    };
    Summary {
        convention,
        requests: observations.len(),
        outcomes,
        no_first_token,
        ttft_only,
        ttft: percentiles(&ttfts, convention).ok(),
        parts,
        dominant,
        target: target.map(|t| TargetCounts::count(observations.iter().copied(), t)),
    }
}

/// Summarises split requests plus, by outcome, the requests that could not be
/// split (their timings were missing or invalid, or they had no first token).
pub fn summarise_splits(
    splits: &[RequestSplit],
    unsplit: &OutcomeCounts,
    target: Option<Micros>,
    convention: Convention,
) -> Summary {
    let mut obs: Vec<Observation> = splits.iter().map(Observation::from).collect();
    for outcome in Outcome::ALL {
        obs.extend(std::iter::repeat_n(
            Observation::unsplit(outcome),
            unsplit.get(outcome),
        ));
    }
    summarise(&obs, target, convention)
}

/// "3 of 40 requests (7.5%)", with the share rounded once to a tenth of a
/// percent. The one such phrase of the workspace (the importer's reading
/// uses it too).
pub fn count_of(n: usize, total: usize) -> String {
    let (shown, of) = (group_count(n), group_count(total));
    if total == 0 {
        return format!("{shown} of {of} requests");
    }
    let tenths = ((n as u128 * 2_000 + total as u128) / (2 * total as u128)) as i64;
    format!(
        "{shown} of {of} requests ({}%)",
        crate::split::format_tenths(tenths)
    )
}

/// What to look at first for slow first tokens dominated by `part` (the
/// importer adds only what its own pieces need beyond these three).
pub fn first_look(part: Part) -> &'static str {
    match part {
        Part::QueueWait => "look at admission and capacity before the prompt",
        Part::Prefill => "look at prompt length and prefix caching before adding capacity",
        Part::Emit => "look at sampling and stream writing",
    }
}

impl Summary {
    /// A short reading of the summary in plain words, sentence by sentence,
    /// built only from its numbers.
    pub fn reading(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.requests == 0 {
            out.push("There are no requests to summarise.".to_owned());
            return out;
        }
        if self.outcomes.empty > 0 {
            out.push(format!(
                "{} produced nothing and recorded no error (no output tokens or no first-token time): they had no \
                 first token, so they are counted on their own, outside the TTFT percentiles and the target counts.",
                count_of(self.outcomes.empty, self.requests)
            ));
        }
        let missing = self
            .no_first_token
            .total()
            .saturating_sub(self.no_first_token.empty);
        if missing > 0 {
            out.push(format!(
                "{} had no first token ({}); latency percentiles cannot include them, so read them \
                 alongside the percentiles rather than ignore them.",
                count_of(missing, self.requests),
                OutcomeCounts { empty: 0, ..self.no_first_token }.describe()
            ));
        }
        let Some(ttft) = &self.ttft else {
            out.push(
                "No request reached a first token, so there is no latency to describe.".to_owned(),
            );
            return out;
        };
        let mut line = format!(
            "Over {} requests with a first token, {} p50 TTFT is {} and p95 is {}",
            group_count(ttft.count), self.convention, ttft.p50.value, ttft.p95.value
        );
        match &self.target {
            Some(t) => line.push_str(&format!(
                "; {} missed the {} target (late or no first token).",
                count_of(
                    t.missed(),
                    self.requests.saturating_sub(self.outcomes.empty)
                ),
                t.target
            )),
            None => line.push('.'),
        }
        out.push(line);
        if let Some(w) = ttft.p95.warning {
            out.push(format!("Read p95 with care: {w}."));
        }
        if self.ttft_only > 0 {
            let (n, verb) = if self.ttft_only == 1 {
                ("request", "records")
            } else {
                ("requests", "record")
            };
            out.push(format!(
                "{} {n} with a first token {verb} only the TTFT, so the delay cannot be split into queue wait, \
                 prefill and emit.",
                group_count(self.ttft_only)
            ));
        }
        // The slow requests when a target says which are slow, else all.
        let (counts, which) = match &self.target {
            Some(t) if t.over_dominant.total() > 0 => (t.over_dominant, "slow first tokens"),
            Some(t) if t.over == 0 => {
                out.push(
                    "Every first token met the target, so there is no slow delay to diagnose here."
                        .to_owned(),
                );
                return out;
            }
            _ => (self.dominant, "first tokens"),
        };
        if counts.total() == 0 {
            return out;
        }
        match counts.majority() {
            Some(part) => {
                out.push(format!(
                    "Most {which} here ({} of {}) are {part}: {}.",
                    group_count(counts.get(part)),
                    group_count(counts.total()),
                    first_look(part)
                ));
            }
            None => out.push(format!(
                "No single delay dominates most {which} (queue wait {}, prefill {}, emit {}, ties {}): diagnose \
                 each request from its own split.",
                group_count(counts.queue_wait),
                group_count(counts.prefill),
                group_count(counts.emit),
                group_count(counts.ties)
            )),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(q: i64, p: i64, e: i64) -> Observation {
        Observation {
            outcome: Outcome::Completed,
            ttft: None,
            parts: Some(TtftSplit {
                queue_wait: Micros::from_ms(q),
                prefill: Micros::from_ms(p),
                emit: Micros::from_ms(e),
            }),
        }
    }

    fn hints() -> Vec<Observation> {
        vec![
            split(20, 70, 10),
            split(2_325, 65, 10),
            split(30, 1_860, 10),
            split(970, 620, 10),
        ]
    }

    /// Summarises `obs` against 1,000 ms with linear percentiles and checks
    /// the reading, sentence by sentence.
    fn check(obs: &[Observation], reading: &[&str]) -> Summary {
        let s = summarise(obs, Some(Micros::from_ms(1_000)), Convention::Linear);
        assert_eq!(s.reading(), reading);
        s
    }

    #[test]
    fn the_four_hints() {
        let s = check(
            &hints(),
            &[
                "Over 4 requests with a first token, linear p50 TTFT is 1,750 ms and p95 is 2,325 ms; 3 of 4 requests \
                 (75%) missed the 1,000 ms target (late or no first token).",
                "Read p95 with care: with 4 requests, linear p95 lies between the two slowest requests, so those \
                 two decide it (p95 needs at least 20 requests).",
                "Most slow first tokens here (2 of 3) are queue wait: look at admission and capacity before the \
                 prompt.",
            ],
        );
        assert_eq!(
            s.dominant,
            DominantCounts {
                queue_wait: 2,
                prefill: 2,
                emit: 0,
                ties: 0
            }
        );
        let t = s.target.unwrap();
        assert_eq!((t.within, t.over, t.no_first_token), (1, 3, 0));
        let parts = s.parts.unwrap();
        assert_eq!(parts.emit.p99.value, Micros::from_ms(10));
        assert_eq!(parts.queue_wait.max, Micros::from_ms(2_325));
        assert_eq!(s.ttft.unwrap().count, 4);
    }

    #[test]
    fn failures_are_reported_not_dropped() {
        let mut obs = hints();
        obs.push(Observation::unsplit(Outcome::Rejected));
        obs.push(Observation::unsplit(Outcome::Rejected));
        obs.push(Observation::unsplit(Outcome::Cancelled));
        obs.push(Observation::ttft_only(
            Outcome::Failed,
            Micros::from_ms(300),
        ));
        let s = check(
            &obs,
            &[
                "3 of 8 requests (37.5%) had no first token (2 rejected, 1 cancelled); latency percentiles cannot \
                 include them, so read them alongside the percentiles rather than ignore them.",
                "Over 5 requests with a first token, linear p50 TTFT is 1,600 ms and p95 is 2,300 ms; 6 of 8 requests \
                 (75%) missed the 1,000 ms target (late or no first token).",
                "Read p95 with care: with 5 requests, linear p95 lies between the two slowest requests, so those \
                 two decide it (p95 needs at least 20 requests).",
                "1 request with a first token records only the TTFT, so the delay cannot be split into queue \
                 wait, prefill and emit.",
                "Most slow first tokens here (2 of 3) are queue wait: look at admission and capacity before the \
                 prompt.",
            ],
        );
        assert_eq!(s.requests, 8);
        assert_eq!(
            s.outcomes,
            OutcomeCounts {
                completed: 4,
                failed: 1,
                rejected: 2,
                cancelled: 1,
                empty: 0
            }
        );
        assert_eq!(s.no_first_token.total(), 3);
        assert_eq!(
            s.parts.unwrap().prefill.count,
            4,
            "part percentiles only over split requests"
        );
        assert_eq!(s.target.unwrap().missed(), 6);
    }

    /// Counts of a thousand and more are grouped as every other count on
    /// the page is ("1,000"), in every sentence that counts requests.
    #[test]
    fn large_counts_are_grouped() {
        let mut obs = vec![split(2_000, 10, 10); 1_200];
        obs.extend(vec![split(10, 1_500, 10); 1_100]);
        obs.extend(vec![split(700, 700, 0); 1_000]);
        obs.extend(vec![Observation::unsplit(Outcome::Failed); 1_001]);
        check(
            &obs,
            &[
                "1,001 of 4,301 requests (23.3%) had no first token (1,001 failed); latency percentiles cannot \
                 include them, so read them alongside the percentiles rather than ignore them.",
                "Over 3,300 requests with a first token, linear p50 TTFT is 1,520 ms and p95 is 2,020 ms; 4,301 of \
                 4,301 requests (100%) missed the 1,000 ms target (late or no first token).",
                "No single delay dominates most slow first tokens (queue wait 1,200, prefill 1,100, emit 0, \
                 ties 1,000): diagnose each request from its own split.",
            ],
        );
        obs.truncate(2_300);
        check(
            &obs,
            &[
                "Over 2,300 requests with a first token, linear p50 TTFT is 2,020 ms and p95 is 2,020 ms; 2,300 of \
                 2,300 requests (100%) missed the 1,000 ms target (late or no first token).",
                "Most slow first tokens here (1,200 of 2,300) are queue wait: look at admission and capacity before \
                 the prompt.",
            ],
        );
        assert_eq!(count_of(12_345, 1_000_000), "12,345 of 1,000,000 requests (1.2%)");
        assert_eq!(count_of(0, 0), "0 of 0 requests");
    }

    #[test]
    fn mixed_and_met_and_empty() {
        check(&[], &["There are no requests to summarise."]);
        check(
            &[Observation::unsplit(Outcome::Rejected)],
            &[
                "1 of 1 requests (100%) had no first token (1 rejected); latency percentiles cannot include them, \
                 so read them alongside the percentiles rather than ignore them.",
                "No request reached a first token, so there is no latency to describe.",
            ],
        );
        let fast = vec![split(20, 70, 10); 20];
        check(
            &fast,
            &[
                "Over 20 requests with a first token, linear p50 TTFT is 100 ms and p95 is 100 ms; 0 of 20 requests \
                 (0%) missed the 1,000 ms target (late or no first token).",
                "Every first token met the target, so there is no slow delay to diagnose here.",
            ],
        );
        let s = summarise(
            &[
                split(2_000, 10, 10),
                split(10, 2_000, 10),
                split(600, 600, 0),
            ],
            None,
            Convention::NearestRank,
        );
        assert_eq!(s.dominant.ties, 1);
        assert_eq!(
            s.reading().last().map(String::as_str),
            Some("No single delay dominates most first tokens (queue wait 1, prefill 1, emit 0, ties 1): diagnose each request from its own split.")
        );
    }

    #[test]
    fn summarise_splits_counts_the_unsplit() {
        let unsplit = OutcomeCounts {
            completed: 1,
            failed: 0,
            rejected: 2,
            cancelled: 0,
            empty: 0,
        };
        let s = summarise_splits(&[], &unsplit, None, Convention::Linear);
        assert_eq!(s.requests, 3);
        assert_eq!(s.no_first_token, unsplit);
        assert!(s.ttft.is_none() && s.parts.is_none());
    }

    #[test]
    fn an_empty_reply_enters_no_percentile_and_no_target_count() {
        let obs = [
            Observation::ttft_only(Outcome::Completed, Micros::from_ms(200)),
            Observation::ttft_only(Outcome::Completed, Micros::from_ms(1_500)),
            Observation::ttft_only(Outcome::Empty, Micros::ZERO),
            Observation::unsplit(Outcome::Rejected),
        ];
        let s = summarise(&obs, Some(Micros::from_ms(1_000)), Convention::NearestRank);
        assert_eq!(
            s.outcomes,
            OutcomeCounts {
                completed: 2,
                rejected: 1,
                empty: 1,
                ..OutcomeCounts::default()
            }
        );
        assert_eq!(s.ttft.as_ref().map(|p| p.count), Some(2));
        assert_eq!(
            s.ttft.as_ref().map(|p| p.p50.value),
            Some(Micros::from_ms(200))
        );
        let t = s.target.expect("a target");
        assert_eq!((t.within, t.over, t.no_first_token), (1, 1, 1));
        let reading = s.reading();
        assert_eq!(
            reading[0],
            "1 of 4 requests (25%) produced nothing and recorded no error (no output tokens or no first-token time): \
             they had no first token, so they are counted on their own, outside the TTFT percentiles and the target counts."
        );
        assert!(
            reading[1].starts_with("1 of 4 requests (25%) had no first token (1 rejected)"),
            "{}",
            reading[1]
        );
        assert!(
            reading[2].ends_with(
                "2 of 3 requests (66.7%) missed the 1,000 ms target (late or no first token)."
            ),
            "{}",
            reading[2]
        );
    }
}
