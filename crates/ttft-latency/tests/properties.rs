//! Property tests of the latency maths' invariants.
//!
//! The invariants: the three parts always add up to TTFT; percentiles are
//! monotone in p and lie within [min, max]; and no input makes the split or
//! a summary panic. These tests do not check particular values; the unit
//! tests beside each module do.

use proptest::prelude::*;
use ttft_latency::percentile::{percentile, Convention};
use ttft_latency::summary::{summarise, Observation, Summary, TargetCounts};
use ttft_latency::{
    split_request, Decode, Durations, Events, Micros, Outcome, RequestTrace, Timing, TtftSplit,
};

fn durations(q: i64, p: i64, e: i64, ttft: Option<i64>) -> RequestTrace {
    RequestTrace {
        id: "P".into(),
        prompt_tokens: None,
        output_tokens: None,
        queued_at_arrival: None,
        outcome: Outcome::Completed,
        timing: Timing::Durations(Durations {
            queue_wait: Some(Micros(q)),
            prefill: Some(Micros(p)),
            emit: Some(Micros(e)),
            ttft: ttft.map(Micros),
            decode: None,
        }),
    }
}

fn outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![
        Just(Outcome::Completed),
        Just(Outcome::Failed),
        Just(Outcome::Rejected),
        Just(Outcome::Cancelled)
    ]
}

proptest! {
    #[test]
    fn parts_add_up_to_ttft_from_durations(q in 0i64..1 << 40, p in 0i64..1 << 40, e in 0i64..1 << 40) {
        let s = split_request(&durations(q, p, e, None)).expect("non-negative durations split");
        prop_assert_eq!(s.ttft(), Micros(q + p + e));
        prop_assert_eq!(s.split.queue_wait + s.split.prefill + s.split.emit, s.ttft());
        let stated = split_request(&durations(q, p, e, Some(q + p + e))).expect("a true TTFT is accepted");
        prop_assert_eq!(stated.ttft(), s.ttft());
    }

    #[test]
    fn parts_add_up_to_ttft_from_events(start in -(1i64 << 40)..1 << 40, gaps in proptest::array::uniform4(0i64..1 << 36)) {
        let mut t = start;
        let mut at = [0i64; 5];
        at[0] = t;
        for (i, g) in gaps.iter().enumerate() {
            t += g;
            at[i + 1] = t;
        }
        let req = RequestTrace {
            id: "E".into(),
            prompt_tokens: Some(10),
            output_tokens: None,
            queued_at_arrival: None,
            outcome: Outcome::Completed,
            timing: Timing::Events(Events {
                arrival: Some(Micros(at[0])),
                admitted: Some(Micros(at[1])),
                prefill_end: Some(Micros(at[2])),
                first_token: Some(Micros(at[3])),
                last_token: Some(Micros(at[4])),
            }),
        };
        let s = split_request(&req).expect("ordered events split");
        prop_assert_eq!(s.ttft(), Micros(at[3] - at[0]));
        prop_assert_eq!(s.end_to_end, Some(Micros(at[4] - at[0])));
    }

    #[test]
    fn the_output_rate_in_tenths_is_the_rate_rounded(tokens in 1u64..1 << 32, micros in 1i64..1 << 50) {
        let d = Decode { tokens_after_first: tokens, duration: Micros(micros) };
        let rate = d.output_rate().unwrap();
        let tenths = d.output_rate_tenths().unwrap();
        // Within half a tenth, give or take the float's own rounding.
        prop_assert!((tenths as f64 / 10.0 - rate).abs() <= 0.05 + rate * 1e-12, "{tenths} against {rate}");
    }

    #[test]
    fn percentiles_are_monotone_and_bounded(
        samples in proptest::collection::vec(any::<i64>(), 1..60), p1 in 0u8..=100, p2 in 0u8..=100
    ) {
        let samples: Vec<Micros> = samples.into_iter().map(Micros).collect();
        let (lo, hi) = (p1.min(p2), p1.max(p2));
        let min = *samples.iter().min().expect("non-empty");
        let max = *samples.iter().max().expect("non-empty");
        for c in [Convention::NearestRank, Convention::Linear] {
            let a = percentile(&samples, lo, c).expect("valid").value;
            let b = percentile(&samples, hi, c).expect("valid").value;
            prop_assert!(a <= b, "{:?} p{} = {:?} > p{} = {:?}", c, lo, a, hi, b);
            prop_assert!(min <= a && b <= max);
        }
        prop_assert_eq!(percentile(&samples, 0, Convention::Linear).expect("valid").value, min);
        prop_assert_eq!(percentile(&samples, 100, Convention::Linear).expect("valid").value, max);
    }

    #[test]
    fn split_never_panics(q in any::<i64>(), p in any::<i64>(), e in any::<i64>(), t in proptest::option::of(any::<i64>()),
                          tokens in proptest::option::of(any::<u64>()), ev in proptest::array::uniform5(proptest::option::of(any::<i64>()))) {
        let _ = split_request(&durations(q, p, e, t));
        let req = RequestTrace {
            id: String::new(),
            prompt_tokens: tokens,
            output_tokens: tokens,
            queued_at_arrival: None,
            outcome: Outcome::Failed,
            timing: Timing::Events(Events {
                arrival: ev[0].map(Micros),
                admitted: ev[1].map(Micros),
                prefill_end: ev[2].map(Micros),
                first_token: ev[3].map(Micros),
                last_token: ev[4].map(Micros),
            }),
        };
        if let Ok(s) = split_request(&req) {
            let _ = s.decode.map(|d| (d.output_rate(), d.time_per_token()));
            let _ = s.split.verdict(Micros(q));
        }
    }

    #[test]
    fn summaries_never_panic(rows in proptest::collection::vec(
        (outcome(), proptest::option::of(any::<i64>()), proptest::option::of((any::<i64>(), any::<i64>(), any::<i64>()))), 0..40),
        target in proptest::option::of(any::<i64>()), nearest in any::<bool>()) {
        let obs: Vec<Observation> = rows.into_iter().map(|(outcome, ttft, parts)| Observation {
            outcome,
            ttft: ttft.map(Micros),
            parts: parts.map(|(q, p, e)| TtftSplit { queue_wait: Micros(q), prefill: Micros(p), emit: Micros(e) }),
        }).collect();
        let c = if nearest { Convention::NearestRank } else { Convention::Linear };
        let s = summarise(&obs, target.map(Micros), c);
        prop_assert_eq!(s.requests, obs.len());
        prop_assert_eq!(s.outcomes.total(), obs.len());
        let _ = s.reading();
    }

    /// The target changes nothing in a summary but its count against the
    /// target (the import page sorts once and recounts as the learner
    /// types), and that count judges every request but the empty replies.
    #[test]
    fn only_the_target_count_follows_the_target(rows in proptest::collection::vec(
        (prop_oneof![outcome(), Just(Outcome::Empty)], proptest::option::of(0i64..1_000_000),
         proptest::option::of((0i64..400_000, 0i64..400_000, 0i64..400_000))), 0..40),
        target in 0i64..1_200_000) {
        let obs: Vec<Observation> = rows.into_iter().map(|(outcome, ttft, parts)| Observation {
            outcome,
            ttft: ttft.map(Micros),
            parts: parts.map(|(q, p, e)| TtftSplit { queue_wait: Micros(q), prefill: Micros(p), emit: Micros(e) }),
        }).collect();
        let with = summarise(&obs, Some(Micros(target)), Convention::Linear);
        let counts = TargetCounts::count(obs.iter().copied(), Micros(target));
        let without = summarise(&obs, None, Convention::Linear);
        prop_assert_eq!(&with, &Summary { target: Some(counts), ..without });
        prop_assert_eq!(counts.within + counts.missed(), obs.len() - with.outcomes.empty);
        let over_dominant = counts.over_dominant;
        let split_over = obs.iter().filter(|o| {
            o.outcome != Outcome::Empty && o.parts.is_some_and(|p| p.ttft() > Micros(target))
        }).count();
        prop_assert_eq!(over_dominant.queue_wait + over_dominant.prefill + over_dominant.emit + over_dominant.ties, split_over);
    }
}
