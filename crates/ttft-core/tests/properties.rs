//! Property tests of the core's invariants, and the fuzz targets' bodies run
//! over their corpus so they keep compiling and passing without a fuzzer.
//!
//! The invariants: the three parts always add up to TTFT; an answer built
//! from the computed split is always accepted; percentiles are monotone in p
//! and lie within [min, max]; and no input makes a public function panic
//! (random text to every parser, random numbers to the split, percentiles,
//! summaries and answer checks). These tests do not check particular values;
//! the unit tests beside each module do.

use proptest::prelude::*;
use ttft_core::answer::{check_trace, parse_quantity, DominantChoice, LearnerAnswer, ShareEntry};
use ttft_core::content::{Action, CauseClass, RowAnswer, TraceExercise, TraceRow};
use ttft_core::history;
use ttft_core::percentile::{percentile, Convention};
use ttft_core::split::format_tenths;
use ttft_core::summary::{summarise, Observation};
use ttft_core::{split_request, Durations, Events, Micros, Outcome, Part, RequestTrace, Timing, TtftSplit};

#[path = "../../../fuzz/src/lib.rs"]
mod fuzz_bodies;

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
    prop_oneof![Just(Outcome::Completed), Just(Outcome::Failed), Just(Outcome::Rejected), Just(Outcome::Cancelled)]
}

/// A one-row trace exercise with an action of every class.
fn one_row(q: i64, p: i64, e: i64, target_ms: i64) -> TraceExercise {
    let action = |id: &str, class| Action { id: id.into(), label: id.into(), class };
    TraceExercise {
        id: "x".into(),
        title: String::new(),
        intro: String::new(),
        target_ms,
        share_tolerance_tenths: 20,
        requests: vec![TraceRow {
            id: "R".into(),
            prompt_tokens: 1_000,
            prompt_note: None,
            queued_at_arrival: 0,
            queue_wait_ms: q,
            prefill_ms: p,
            emit_ms: e,
            ttft_ms: q + p + e,
            output_rate_tps: 40,
            answer: RowAnswer { dominant: Part::Prefill, share_percent: 0.0, investigate: CauseClass::Prefill, reasoning: String::new() },
        }],
        actions: vec![
            action("q", CauseClass::Queue),
            action("p", CauseClass::Prefill),
            action("e", CauseClass::Emit),
            action("w", CauseClass::WithinTarget),
        ],
        misconceptions: vec![],
    }
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
    fn a_correct_answer_is_always_accepted(
        q in 0i64..100_000, p in 0i64..100_000, e in 0i64..100_000, target in 1i64..200_000, whole in any::<bool>()
    ) {
        prop_assume!(q + p + e > 0);
        let x = one_row(q, p, e, target);
        let split = TtftSplit { queue_wait: Micros::from_ms(q), prefill: Micros::from_ms(p), emit: Micros::from_ms(e) };
        let dominant = Part::ALL.into_iter().find(|&part| split.dominant().includes(part)).expect("some part dominates");
        let share = split.share(dominant);
        let text = if whole {
            share.whole_percent().expect("positive TTFT").to_string()
        } else {
            format!("{}%", format_tenths(share.tenths().expect("positive TTFT")))
        };
        let class = if split.ttft() <= Micros::from_ms(target) {
            CauseClass::WithinTarget
        } else {
            match dominant { Part::QueueWait => CauseClass::Queue, Part::Prefill => CauseClass::Prefill, Part::Emit => CauseClass::Emit }
        };
        let action = x.actions.iter().find(|a| a.class == class).expect("every class has an action").id.clone();
        let choice = match dominant { Part::QueueWait => DominantChoice::QueueWait, Part::Prefill => DominantChoice::Prefill, Part::Emit => DominantChoice::Emit };
        let answer = LearnerAnswer { dominant: Some(choice), share_percent: Some(ShareEntry::Text(text.clone())), investigate: Some(action) };
        let result = check_trace(&x, &[answer]);
        prop_assert!(result.all_correct(), "{} {:?}", text, result);
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

    #[test]
    fn answer_checks_never_panic(q in any::<i64>(), p in any::<i64>(), e in any::<i64>(), target in any::<i64>(),
                                 share in ".{0,30}", num in any::<f64>(), action in ".{0,5}") {
        let mut x = one_row(0, 0, 0, target);
        if let Some(row) = x.requests.first_mut() {
            row.queue_wait_ms = q;
            row.prefill_ms = p;
            row.emit_ms = e;
            row.ttft_ms = q.saturating_add(p).saturating_add(e);
        }
        for entry in [ShareEntry::Text(share.clone()), ShareEntry::Number(num)] {
            for choice in DominantChoice::ALL {
                let a = LearnerAnswer { dominant: Some(choice), share_percent: Some(entry.clone()), investigate: Some(action.clone()) };
                let _ = check_trace(&x, &[a]).tally();
            }
        }
        let _ = ttft_core::validate::validate_trace_exercise(&x);
    }

    #[test]
    fn parsers_never_panic(text in ".{0,200}", bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = parse_quantity(&text);
        let _ = history::parse(&text);
        fuzz_bodies::history(&bytes);
        fuzz_bodies::share(&bytes);
        fuzz_bodies::course(&bytes);
        fuzz_bodies::share(text.as_bytes());
    }

    #[test]
    fn numbers_read_back_exactly(int in 0u64..1_000_000_000, frac in 0u32..1000) {
        let q = parse_quantity(&format!("{int}.{frac:03}")).expect("a plain decimal");
        prop_assert_eq!(q.number.thousandths as i128, int as i128 * 1000 + frac as i128);
    }
}

/// The fuzz targets' bodies over the committed corpus and a few hand-made
/// inputs, so the targets cannot rot between fuzzing runs.
#[test]
fn fuzz_bodies_over_their_corpus() {
    let corpus = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    let mut ran = 0;
    for (name, body) in [
        ("history", fuzz_bodies::history as fn(&[u8])),
        ("share", fuzz_bodies::share as fn(&[u8])),
        ("course", fuzz_bodies::course as fn(&[u8])),
    ] {
        let dir = corpus.join(name);
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("corpus {}: {e}", dir.display()));
        for entry in entries.flatten() {
            let data = std::fs::read(entry.path()).unwrap_or_default();
            body(&data);
            ran += 1;
        }
    }
    assert!(ran >= 6, "the corpus has at least two inputs a target; ran {ran}");
}
