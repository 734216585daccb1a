//! Property tests of the course's invariants, and the fuzz targets' bodies
//! run over their corpus so they keep compiling and passing without a fuzzer.
//!
//! The invariants: an answer built from the computed split is always
//! accepted; and no input makes a public function panic (random text to
//! every parser, random numbers to the answer checks). These tests do not
//! check particular values; the unit tests beside each module do. The
//! latency maths' own properties (the parts add up, percentiles are
//! monotone) are in `ttft-latency`'s tests.

use proptest::prelude::*;
use ttft_core::content::{Action, CauseClass, RowAnswer, TraceExercise, TraceRow};
use ttft_core::exercises::number::parse_quantity;
use ttft_core::exercises::trace_exercise::{
    check_trace, DominantChoice, LearnerAnswer, ShareEntry,
};
use ttft_core::history;
use ttft_latency::split::format_tenths;
use ttft_latency::{Micros, Part, TtftSplit};

#[path = "../../../fuzz/src/lib.rs"]
mod fuzz_bodies;

/// A one-row trace exercise with an action of every class.
fn one_row(q: i64, p: i64, e: i64, target_ms: i64) -> TraceExercise {
    let action = |id: &str, class| Action {
        id: id.into(),
        label: id.into(),
        class,
        protects_others: false,
    };
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
            answer: RowAnswer {
                dominant: Part::Prefill,
                share_percent: 0.0,
                investigate: CauseClass::Prefill,
                reasoning: String::new(),
            },
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
        let _ = ttft_core::content::validate::validate_trace_exercise(&x);
    }

    /// A number entry is written as a shortest decimal that reads back as
    /// the same number (JSON's writer, which the core uses to link one float
    /// formatter, not two), and a share as a control gives one (up to three
    /// decimals) is written and read exactly as Rust's `Display` writes it.
    #[test]
    fn a_number_entry_reads_as_its_display_form(v in any::<f64>(), thousandths in -100_000_000i64..100_000_000) {
        if v.is_finite() {
            let text = ShareEntry::Number(v).text();
            prop_assert_eq!(text.parse::<f64>().ok(), Some(v), "{} does not read back", text);
        }
        for share in [thousandths as f64 / 10.0, thousandths as f64 / 100.0, thousandths as f64 / 1000.0] {
            let entry = ShareEntry::Number(share);
            prop_assert_eq!(entry.text(), format!("{share}"));
            prop_assert_eq!(entry.parse(), parse_quantity(&format!("{share}")));
        }
    }

    #[test]
    fn parsers_never_panic(text in ".{0,200}", bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = parse_quantity(&text);
        let _ = history::parse(&text);
        fuzz_bodies::history(&bytes);
        fuzz_bodies::share(&bytes);
        fuzz_bodies::course(&bytes);
        fuzz_bodies::suspend_data(&bytes);
        fuzz_bodies::suspend_data(format!("ttft1{text}").as_bytes());
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
        ("suspend_data", fuzz_bodies::suspend_data as fn(&[u8])),
    ] {
        let dir = corpus.join(name);
        let entries =
            std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("corpus {}: {e}", dir.display()));
        for entry in entries.flatten() {
            let data = std::fs::read(entry.path()).unwrap_or_default();
            body(&data);
            ran += 1;
        }
    }
    assert!(
        ran >= 8,
        "the corpus has at least two inputs a target; ran {ran}"
    );
}
