//! The configuration choice's checks over the seed's two configurations
//! and two workloads.

use super::*;
use crate::content::{ConditionalChoice, EvidenceOption, WorkloadAnswer, WorkloadNeed};
use ttft_latency::time::Micros;

/// The seed's two configurations and two workloads.
pub(crate) fn exercise() -> ConfigExercise {
    let config = |id: &str, tps, p95, late, quality, note: &str| ServingConfig {
        id: id.into(),
        weights: String::new(),
        max_sequences_per_batch: 16,
        throughput_tps: tps,
        p95_ttft_ms: p95,
        late_first_token_tenths: late,
        failed_or_rejected_tenths: 4,
        quality,
        quality_note: note.into(),
    };
    let evidence = |id: &str| EvidenceOption {
        id: id.into(),
        label: format!("label {id}"),
        why: format!("why {id}"),
    };
    ConfigExercise {
        id: "configs".into(),
        title: String::new(),
        intro: String::new(),
        late_after_ms: 1_000,
        configs: vec![
            config("A", 2_400, 2_800, 210, QualityStatus::NotRun, "Not run yet"),
            config(
                "B",
                1_600,
                600,
                30,
                QualityStatus::Passed,
                "Passed (current release)",
            ),
        ],
        workloads: vec![
            Workload {
                id: "live_hints".into(),
                name: "Live interview hints".into(),
                description: String::new(),
                need: WorkloadNeed::Interactive {
                    ttft_target_ms: 1_000,
                },
                answer: WorkloadAnswer {
                    choice: "B".into(),
                    conditional: vec![],
                    evidence_needed: vec!["hint_traffic".into()],
                    reasoning: "live".into(),
                },
            },
            Workload {
                id: "overnight".into(),
                name: "Overnight drafts".into(),
                description: String::new(),
                need: WorkloadNeed::Batch {
                    items: 5_000,
                    output_tokens_per_item: 800,
                    window_secs: 21_600,
                },
                answer: WorkloadAnswer {
                    choice: "B".into(),
                    conditional: vec![ConditionalChoice {
                        config: "A".into(),
                        condition: "quality passes".into(),
                    }],
                    evidence_needed: vec!["quality_a".into(), "real_lengths".into()],
                    reasoning: "batch".into(),
                },
            },
        ],
        evidence: vec![
            evidence("hint_traffic"),
            evidence("quality_a"),
            evidence("real_lengths"),
            evidence("gpu_price"),
        ],
    }
}

/// Checks workload `index` with `input` and hands back the result.
fn check(index: usize, input: WorkloadInput) -> WorkloadCheck {
    check_workload(&exercise(), index, &input)
        .expect("workload exists")
        .expect("arithmetic works")
}

fn batch_input(total: &str, a: &str, b: &str) -> WorkloadInput {
    WorkloadInput {
        choice: Some("B".into()),
        total_tokens: Some(total.into()),
        seconds: [
            ("A".to_owned(), a.to_owned()),
            ("B".to_owned(), b.to_owned()),
        ]
        .into(),
        fits: [("A".to_owned(), true), ("B".to_owned(), true)].into(),
        evidence: vec!["quality_a".into(), "real_lengths".into()],
        late_percent: ttft_latency::small_map::SmallMap::new(),
    }
}

#[test]
fn lateness_is_written_as_the_content_sets_it() {
    let mut ex = exercise();
    assert_eq!(ex.late_after(), "1 s");
    ex.late_after_ms = 1_500;
    assert_eq!(ex.late_after(), "1,500 ms");
    ex.late_after_ms = 120_000;
    assert_eq!(ex.late_after(), "120 s");
    let without: ConfigExercise = serde_json::from_value(serde_json::json!({
        "id": "x", "title": "", "intro": "", "configs": [], "workloads": [], "evidence": []
    }))
    .unwrap();
    assert_eq!(without.late_after_ms, 1_000, "files from before the field");
}

#[test]
fn the_seed_arithmetic() {
    let ex = exercise();
    let WorkloadPlan::Batch(b) = plan(&ex.workloads[1], &ex.configs).unwrap() else {
        panic!("batch")
    };
    assert_eq!(b.total_tokens, 4_000_000);
    assert_eq!(
        (
            b.configs[0].seconds,
            b.configs[0].rounded,
            b.configs[0].fits
        ),
        (Some(1_667), true, true)
    );
    assert_eq!(
        (
            b.configs[1].seconds,
            b.configs[1].rounded,
            b.configs[1].fits
        ),
        (Some(2_500), false, true)
    );
    assert_eq!(
        b.configs[0].describe(b.total_tokens),
        "1,667 s (4,000,000 ÷ 2,400 = 1,666.67, rounded to the nearest second)"
    );
    assert_eq!(
        b.configs[1].describe(b.total_tokens),
        "2,500 s (4,000,000 ÷ 1,600)"
    );
    let WorkloadPlan::Interactive { target, configs } =
        plan(&ex.workloads[0], &ex.configs).unwrap()
    else {
        panic!("interactive")
    };
    assert_eq!(target, Micros::from_ms(1_000));
    assert_eq!(
        (configs[0].meets_target, configs[1].meets_target),
        (false, true)
    );
}

#[test]
fn choices() {
    let input = |c: &str| WorkloadInput {
        choice: Some(c.into()),
        evidence: vec!["hint_traffic".into()],
        ..Default::default()
    };
    let right = check(0, input("B"));
    assert_eq!(right.choice, ChoiceVerdict::Correct);
    assert!(right.evidence.complete());
    assert!(
        !right.all_correct(),
        "the interactive answers are still missing"
    );
    assert_eq!(
        check(0, input("A")).choice,
        ChoiceVerdict::Wrong("A's p95 TTFT is 2,800 ms against the 1,000 ms target, and 21% of its first tokens were late."
                .into())
    );
    assert_eq!(
        check(1, input("A")).choice,
        ChoiceVerdict::Close("quality passes".into())
    );
    assert_eq!(
        check(0, input("C")).choice,
        ChoiceVerdict::Wrong("There is no configuration \"C\" in this exercise.".into())
    );
    assert_eq!(
        check(0, WorkloadInput::default()).choice,
        ChoiceVerdict::Missing
    );
}

#[test]
fn batch_numbers() {
    let all = check(1, batch_input("4,000,000", "1667", "2500 s"));
    assert!(all.all_correct(), "{all:?}");
    let n = check(1, batch_input("4", "27.8", "41.7 min"))
        .numbers
        .unwrap();
    assert_eq!(
        n.total_tokens,
        NumberVerdict::Wrong(NumberMistake::Unit {
            slip: UnitSlip::Millions
        })
    );
    assert_eq!(
        n.seconds[0].1,
        NumberVerdict::Wrong(NumberMistake::Unit {
            slip: UnitSlip::Minutes
        })
    );
    assert_eq!(
        n.seconds[1].1,
        NumberVerdict::Correct,
        "a stated unit is converted"
    );
    let n = check(1, batch_input("5,800", "1,700", "0.69"))
        .numbers
        .unwrap();
    assert_eq!(
        n.total_tokens,
        NumberVerdict::Wrong(NumberMistake::Value {
            expected: "4,000,000".into()
        })
    );
    assert_eq!(n.seconds[0].1, NumberVerdict::Close(()));
    assert_eq!(
        n.seconds[1].1,
        NumberVerdict::Wrong(NumberMistake::Unit {
            slip: UnitSlip::Hours
        })
    );
    let n = check(1, batch_input("4000 thousand", "1666.7", ""))
        .numbers
        .unwrap();
    assert!(matches!(n.total_tokens, NumberVerdict::Unreadable(_)));
    assert_eq!(n.seconds[0].1, NumberVerdict::Correct);
    assert_eq!(n.seconds[1].1, NumberVerdict::Missing);
    let mut wrong_fit = batch_input("4e6", "1667", "2500");
    wrong_fit.fits.insert("A".into(), false);
    wrong_fit.fits.remove("B");
    let n = check(1, wrong_fit).numbers.unwrap();
    assert_eq!(n.total_tokens, NumberVerdict::Correct);
    assert_eq!(
        n.fits,
        vec![
            ("A".into(), FitVerdict::Wrong(())),
            ("B".into(), FitVerdict::Missing)
        ]
    );
}

#[test]
fn interactive_answers() {
    let input = |a: bool, b: bool, late_a: &str, late_b: &str| WorkloadInput {
        choice: Some("B".into()),
        fits: [("A".to_owned(), a), ("B".to_owned(), b)].into(),
        late_percent: [
            ("A".to_owned(), late_a.to_owned()),
            ("B".to_owned(), late_b.to_owned()),
        ]
        .into(),
        evidence: vec!["hint_traffic".into()],
        ..Default::default()
    };
    let right = check(0, input(false, true, "21", "3.0%"));
    assert!(right.all_correct(), "{right:?}");
    assert!(
        right.numbers.is_none(),
        "an interactive workload has no batch numbers"
    );
    let n = check(0, input(true, true, "0.21", "3.8"))
        .interactive
        .unwrap();
    assert_eq!(
        n.meets,
        vec![
            ("A".into(), FitVerdict::Wrong(())),
            ("B".into(), FitVerdict::Correct)
        ]
    );
    assert_eq!(
        n.late[0].1,
        NumberVerdict::Wrong(NumberMistake::Unit {
            slip: UnitSlip::Fraction
        })
    );
    assert_eq!(n.late[1].1, NumberVerdict::Close(()));
    let wrong = check(0, input(false, true, "79", "")).interactive.unwrap();
    assert_eq!(
        wrong.late[0].1,
        NumberVerdict::Wrong(NumberMistake::Value {
            expected: "21%".into()
        })
    );
    assert_eq!(wrong.late[1].1, NumberVerdict::Missing);
    assert!(!check(
        0,
        WorkloadInput {
            choice: Some("B".into()),
            evidence: vec!["hint_traffic".into()],
            ..Default::default()
        }
    )
    .all_correct());
    assert!(check(1, batch_input("4,000,000", "1667", "2500"))
        .interactive
        .is_none());
    assert_eq!(check_late(Some("21.0"), 210), NumberVerdict::Correct);
    assert_eq!(check_late(Some("21.1"), 210), NumberVerdict::Close(()));
    assert_eq!(
        check_late(Some("21 ms"), 210),
        NumberVerdict::Wrong(NumberMistake::Value {
            expected: "21%".into()
        })
    );
}

#[test]
fn summaries() {
    let all = check(1, batch_input("4,000,000", "1667", "2500"));
    assert_eq!(
        all.summary(),
        "Everything is right: the choice, the arithmetic and the evidence"
    );
    let mut input = batch_input("4", "1667", "");
    input.choice = Some("A".into());
    input.evidence = vec!["quality_a".into(), "gpu_price".into()];
    assert_eq!(
        check(1, input).summary(),
        "The choice is acceptable only under a condition; 3 of 5 answers right; evidence: 1 still needed, 1 not needed"
    );
    assert_eq!(
        check(0, WorkloadInput::default()).summary(),
        "No configuration is chosen; 0 of 4 answers right; evidence: 1 still needed"
    );
}

#[test]
fn evidence() {
    let mut input = batch_input("4,000,000", "1667", "2500");
    input.evidence = vec![
        "quality_a".into(),
        "gpu_price".into(),
        "nope".into(),
        "quality_a".into(),
    ];
    let e = check(1, input).evidence;
    assert_eq!(
        e.found.iter().map(|n| n.id.as_str()).collect::<Vec<_>>(),
        ["quality_a"]
    );
    assert_eq!(
        e.missing,
        vec![EvidenceNote {
            id: "real_lengths".into(),
            label: "label real_lengths".into(),
            why: "why real_lengths".into()
        }]
    );
    assert_eq!(
        e.unnecessary
            .iter()
            .map(|n| n.why.as_str())
            .collect::<Vec<_>>(),
        ["why gpu_price"]
    );
    assert_eq!(e.unknown, ["nope"]);
    assert!(!e.complete());
}

#[test]
fn the_numbers_follow_the_data() {
    let mut ex = exercise();
    ex.configs[0].throughput_tps = 150;
    ex.configs[1].throughput_tps = 0;
    let WorkloadPlan::Batch(b) = plan(&ex.workloads[1], &ex.configs).unwrap() else {
        panic!("batch")
    };
    assert_eq!(
        (b.configs[0].seconds, b.configs[0].fits),
        (Some(26_667), false)
    );
    assert_eq!((b.configs[1].seconds, b.configs[1].fits), (None, false));
    let mut input = batch_input("4,000,000", "26667", "1");
    input.choice = Some("A".into());
    let c = check_workload(&ex, 1, &input).unwrap().unwrap();
    assert_eq!(
        c.choice,
        ChoiceVerdict::Close("quality passes".into()),
        "the content's conditions still apply"
    );
    let n = c.numbers.unwrap();
    assert_eq!(n.seconds[0].1, NumberVerdict::Correct);
    assert_eq!(
        n.seconds[1].1,
        NumberVerdict::Wrong(NumberMistake::Value {
            expected: "never (no throughput)".into()
        })
    );
    ex.workloads[1].need = WorkloadNeed::Batch {
        items: u64::MAX,
        output_tokens_per_item: 2,
        window_secs: 1,
    };
    assert!(matches!(
        check_config(&ex, &[]).get(1),
        Some(Err(ChoiceError::TotalOverflows { .. }))
    ));
}
