//! Property tests of the suspend data: any progress packs within the limit
//! it is given, reads back exactly when nothing was left out, and, when
//! something was, keeps every part it did not name whole.

use proptest::prelude::*;
use ttft_latency::small_map::SmallMap;
use ttft_core::content::{Dimension, Rubric};
use ttft_core::exercises::config_choice::WorkloadInput;
use ttft_core::exercises::trace_exercise::{DominantChoice, LearnerAnswer, ShareEntry};
use ttft_core::history::{Entry, SavedScores};
use ttft_core::lms::progress::{
    ChecklistTicks, ChoiceProgress, InterviewProgress, Progress, Tick, TraceProgress,
    WorkloadProgress,
};
use ttft_core::lms::suspend::{host_length, pack, unpack, LeftOut, LIMIT_12, LIMIT_2004};
use ttft_core::rubric::RubricScore;

fn id() -> impl Strategy<Value = String> {
    "[a-z0-9-]{1,12}"
}

/// Free text as a learner might type it, any script, quotes and all.
fn words(max: usize) -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!(".{{0,{max}}}")).unwrap()
}

fn answer() -> impl Strategy<Value = LearnerAnswer> {
    let share = prop_oneof![
        Just(None),
        words(8).prop_map(|t| Some(ShareEntry::Text(t))),
        (0i32..10_000).prop_map(|n| Some(ShareEntry::Number(f64::from(n) / 10.0))),
    ];
    (
        proptest::option::of(proptest::sample::select(DominantChoice::ALL.to_vec())),
        share,
        proptest::option::of(id()),
    )
        .prop_map(|(dominant, share_percent, investigate)| LearnerAnswer {
            dominant,
            share_percent,
            investigate,
        })
}

/// A small map from proptest's `BTreeMap` strategy.
fn small_map<K: Ord + std::fmt::Debug, V: std::fmt::Debug>(
    keys: impl Strategy<Value = K>,
    values: impl Strategy<Value = V>,
    size: std::ops::Range<usize>,
) -> impl Strategy<Value = SmallMap<K, V>> {
    proptest::collection::btree_map(keys, values, size).prop_map(|m| m.into_iter().collect())
}

fn answers() -> impl Strategy<Value = SmallMap<String, LearnerAnswer>> {
    small_map(id(), answer(), 0..6)
}

fn trace() -> impl Strategy<Value = TraceProgress> {
    (answers(), 0u8..3, any::<u32>(), any::<bool>(), any::<i64>()).prop_map(
        |(answers, checked, attempts, revealed, changed_ms)| TraceProgress {
            checked: match checked {
                0 => None,
                1 => Some(answers.clone()),
                _ => Some(SmallMap::new()),
            },
            answers,
            attempts,
            revealed,
            changed_ms,
        },
    )
}

fn input() -> impl Strategy<Value = WorkloadInput> {
    (
        proptest::option::of(id()),
        proptest::option::of(words(10)),
        small_map(id(), words(6), 0..3),
        small_map(id(), any::<bool>(), 0..3),
        small_map(id(), words(6), 0..3),
        proptest::collection::vec(id(), 0..3),
    )
        .prop_map(
            |(choice, total_tokens, seconds, fits, late_percent, evidence)| WorkloadInput {
                choice,
                total_tokens,
                seconds,
                fits,
                late_percent,
                evidence,
            },
        )
}

fn choice() -> impl Strategy<Value = ChoiceProgress> {
    let workload = (input(), 0u8..3, input(), any::<u32>(), any::<bool>()).prop_map(
        |(input, k, other, attempts, revealed)| WorkloadProgress {
            checked: match k {
                0 => None,
                1 => Some(input.clone()),
                _ => Some(other),
            },
            input,
            attempts,
            revealed,
        },
    );
    (
        small_map("[a-z_]{1,8}", workload, 0..4),
        any::<i64>(),
    )
        .prop_map(|(workloads, changed_ms)| ChoiceProgress {
            workloads,
            changed_ms,
        })
}

fn rubric() -> Rubric {
    Rubric {
        dimensions: ["split", "clocks", "memory"]
            .iter()
            .map(|d| Dimension {
                id: (*d).into(),
                title: (*d).into(),
                levels: Default::default(),
            })
            .collect(),
        ready_at: 4,
        gate: "split".into(),
        threshold_note: String::new(),
    }
}

fn score() -> impl Strategy<Value = RubricScore> {
    proptest::collection::btree_map(
        proptest::sample::select(vec!["split", "clocks", "memory"]),
        0u8..=2,
        0..4,
    )
    .prop_map(|m| RubricScore {
        scores: m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
    })
}

fn scores() -> impl Strategy<Value = SavedScores> {
    proptest::collection::vec((score(), 0u32..5, 0u32..5_000, 0i64..1_000), 0..30).prop_map(
        |saves| {
            let rubric = rubric();
            let mut s = SavedScores::default();
            for (n, (score, hints, chars, late)) in saves.into_iter().enumerate() {
                let at = 1_764_600_000_000 + n as i64 * 1_000;
                let entry = Entry::new(at, &score, &rubric, hints, chars);
                let id = entry.id.clone();
                s.add(entry, at + late);
                if late % 7 == 0 {
                    s.remove(&id, at + 2_000);
                }
            }
            s
        },
    )
}

fn progress() -> impl Strategy<Value = Progress> {
    (
        small_map(
            id(),
            (any::<bool>(), any::<i64>()).prop_map(|(done, changed_ms)| Tick { done, changed_ms }),
            0..8,
        ),
        trace(),
        choice(),
        (prop_oneof![words(200), words(6_000)], any::<u32>(), score(), any::<i64>()),
        scores(),
    )
        .prop_map(|(items, trace, choice, (answer, hints_shown, score, changed_ms), scores)| Progress {
            checklist: ChecklistTicks { items },
            trace,
            choice,
            interview: InterviewProgress {
                answer,
                hints_shown,
                score,
                changed_ms,
            },
            scores,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn progress_packs_within_the_limit_and_reads_back(p in progress(), limit in prop_oneof![Just(LIMIT_12), Just(LIMIT_2004), 200usize..5_000]) {
        let packed = pack(&p, limit);
        let back = unpack(&packed.text);
        prop_assert!(back.is_ok(), "{:?}", back);
        let back = back.unwrap_or_default();
        let fits = host_length(&packed.text) <= limit;
        prop_assert!(fits || packed.left_out.last() == Some(&LeftOut::Checklist), "{} > {}", host_length(&packed.text), limit);
        if packed.left_out.is_empty() {
            prop_assert_eq!(&back, &p);
            prop_assert!(packed.summary().is_none());
        } else {
            prop_assert!(packed.summary().is_some());
        }
        // Every part not named is kept whole; a named one is left out whole.
        let named = |l: &LeftOut| packed.left_out.contains(l);
        let whole_or_empty = |named: bool, same: bool, empty: bool| if named { empty } else { same };
        prop_assert!(whole_or_empty(named(&LeftOut::Trace), back.trace == p.trace, back.trace == TraceProgress::default()));
        prop_assert!(whole_or_empty(named(&LeftOut::Choice), back.choice == p.choice, back.choice == ChoiceProgress::default()));
        prop_assert!(whole_or_empty(named(&LeftOut::Interview), back.interview == p.interview, back.interview == InterviewProgress::default()));
        prop_assert!(whole_or_empty(named(&LeftOut::Checklist), back.checklist == p.checklist, back.checklist.items.is_empty()));
        // Saved scores kept are the newest ones, each exactly as saved.
        let kept = &back.scores.history.entries;
        prop_assert!(kept.len() <= p.scores.history.entries.len());
        prop_assert_eq!(kept.as_slice(), &p.scores.history.entries[..kept.len()]);
        if !named(&LeftOut::Deletions) && !named(&LeftOut::AllScores) {
            prop_assert_eq!(&back.scores.removed, &p.scores.removed);
        }
    }

    #[test]
    fn the_reader_never_panics(text in ".{0,300}") {
        let _ = unpack(&text);
        let _ = unpack(&format!("ttft1{text}"));
    }
}

#[test]
fn a_text_at_the_limit_is_read() {
    // An answer long enough that the pack lands within a few characters of
    // 4,096, then padded to exactly the limit.
    let mut p = Progress::default();
    p.interview.answer = "x".repeat(4_000);
    p.interview.changed_ms = 1;
    let text = pack(&p, LIMIT_12).text;
    let pad = LIMIT_12 - host_length(&text);
    p.interview.answer.push_str(&"y".repeat(pad));
    let packed = pack(&p, LIMIT_12);
    assert_eq!(host_length(&packed.text), LIMIT_12);
    assert!(packed.left_out.is_empty());
    assert_eq!(unpack(&packed.text), Ok(p.clone()));
    p.interview.answer.push('z');
    let over = pack(&p, LIMIT_12);
    assert_eq!(over.left_out, vec![LeftOut::Interview]);
}
