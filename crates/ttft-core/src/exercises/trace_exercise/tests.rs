//! The trace exercise's checks, through one `check` helper over the seed's
//! four hint requests.

use super::*;
use crate::content::{MisconceptionText, RowAnswer};
use crate::exercises::number::parse_quantity;
use crate::exercises::verdict::Verdict;
use ttft_latency::split::{Part, TtftSplit};

fn row(
    id: &str,
    tokens: u64,
    (q, p, e): (i64, i64, i64),
    dominant: Part,
    share: f64,
    class: CauseClass,
) -> TraceRow {
    TraceRow {
        id: id.into(),
        prompt_tokens: tokens,
        prompt_note: None,
        queued_at_arrival: 0,
        queue_wait_ms: q,
        prefill_ms: p,
        emit_ms: e,
        ttft_ms: q + p + e,
        output_rate_tps: 40,
        answer: RowAnswer {
            dominant,
            share_percent: share,
            investigate: class,
            reasoning: format!("why {id}"),
        },
    }
}

/// The seed's four hint requests, with one action of each class.
pub(crate) fn exercise() -> TraceExercise {
    let action = |id: &str, class| Action {
        id: id.into(),
        label: id.into(),
        class,
        protects_others: false,
    };
    TraceExercise {
        id: "hints".into(),
        title: "Four hint requests".into(),
        intro: String::new(),
        target_ms: 1_000,
        share_tolerance_tenths: 20,
        requests: vec![
            row(
                "H1",
                700,
                (20, 70, 10),
                Part::Prefill,
                70.0,
                CauseClass::WithinTarget,
            ),
            row(
                "H2",
                650,
                (2_325, 65, 10),
                Part::QueueWait,
                96.9,
                CauseClass::Queue,
            ),
            row(
                "H3",
                18_000,
                (30, 1_860, 10),
                Part::Prefill,
                97.9,
                CauseClass::Prefill,
            ),
            row(
                "H4",
                6_000,
                (970, 620, 10),
                Part::QueueWait,
                60.6,
                CauseClass::Queue,
            ),
        ],
        actions: vec![
            action("capacity", CauseClass::Queue),
            action("prefix_cache", CauseClass::Prefill),
            Action {
                protects_others: true,
                ..action("chunked_prefill", CauseClass::Prefill)
            },
            action("stream_writer", CauseClass::Emit),
            action("none", CauseClass::WithinTarget),
        ],
        misconceptions: Misconception::ALL
            .iter()
            .map(|m| MisconceptionText {
                id: m.id().into(),
                title: m.id().into(),
                text: "text".into(),
            })
            .collect(),
    }
}

fn answer(d: Option<DominantChoice>, share: &str, action: &str) -> LearnerAnswer {
    LearnerAnswer {
        dominant: d,
        share_percent: Some(ShareEntry::Text(share.into())),
        investigate: Some(action.into()),
    }
}

/// Checks request `index` of the seed exercise: the three verdicts. The
/// share's is `Err` with the reading error when it cannot be read.
fn check(
    index: usize,
    a: LearnerAnswer,
    dominant: TraceVerdict,
    share: Result<TraceVerdict, NumberError>,
    investigate: TraceVerdict,
) {
    let share = share.unwrap_or_else(Verdict::Unreadable);
    let mut answers = vec![LearnerAnswer::default(); index + 1];
    answers[index] = a.clone();
    let got = check_trace(&exercise(), &answers)
        .rows
        .swap_remove(index)
        .expect("row splits");
    assert_eq!(
        (got.dominant, got.share, got.investigate),
        (dominant, share, investigate),
        "{index}: {a:?}"
    );
}

fn wrong(m: Misconception) -> TraceVerdict {
    Verdict::Wrong(Some(m))
}

const CLOSE: TraceVerdict = Verdict::Close(());

use DominantChoice::*;
use Verdict::{Correct, Missing};

#[test]
fn reference_answers_are_correct() {
    check(
        0,
        answer(Some(Prefill), "70", "none"),
        Correct,
        Ok(Correct),
        Correct,
    );
    check(
        1,
        answer(Some(QueueWait), "96.9%", "capacity"),
        Correct,
        Ok(Correct),
        Correct,
    );
    check(
        2,
        answer(Some(Prefill), " 97.9 ", "prefix_cache"),
        Correct,
        Ok(Correct),
        Correct,
    );
    check(
        3,
        answer(Some(QueueWait), "60.6", "capacity"),
        Correct,
        Ok(Correct),
        Correct,
    );
    // Precision follows the learner: 97 is 96.875 to a whole percent.
    check(
        1,
        answer(Some(QueueWait), "97", "capacity"),
        Correct,
        Ok(Correct),
        Correct,
    );
    check(
        1,
        answer(Some(QueueWait), "96,88", "capacity"),
        Correct,
        Ok(Correct),
        Correct,
    );
    let all = vec![
        answer(Some(Prefill), "70", "none"),
        answer(Some(QueueWait), "96.9", "capacity"),
        answer(Some(Prefill), "97.9", "prefix_cache"),
        answer(Some(QueueWait), "60.6", "capacity"),
    ];
    let result = check_trace(&exercise(), &all);
    assert!(result.all_correct());
    assert_eq!(result.tally().correct, 12);
    let reveal = &result.rows[3].as_ref().unwrap().reveal;
    assert_eq!(
        (reveal.share_text.as_str(), reveal.class),
        ("60.6%", CauseClass::Queue)
    );
    assert_eq!(reveal.reasoning, "why H4");
}

#[test]
fn shares_close_missing_and_unreadable() {
    check(
        1,
        answer(Some(QueueWait), "95.5", "capacity"),
        Correct,
        Ok(CLOSE),
        Correct,
    );
    check(
        1,
        answer(Some(QueueWait), "96.8", "capacity"),
        Correct,
        Ok(CLOSE),
        Correct,
    );
    check(1, answer(None, "  ", ""), Missing, Ok(Missing), Missing);
    check(
        1,
        answer(Some(QueueWait), "lots", "capacity"),
        Correct,
        Err(NumberError::NotANumber {
            text: "lots".into(),
        }),
        Correct,
    );
    let empty = check_trace(&exercise(), &[]);
    assert_eq!(empty.tally().missing, 12);
    assert!(!empty.all_correct());
}

#[test]
fn share_misconceptions() {
    let ms = Ok(wrong(Misconception::MillisecondsNotShare));
    check(
        1,
        answer(Some(QueueWait), "2,325", "capacity"),
        Correct,
        ms.clone(),
        Correct,
    );
    // Any duration of the request, not only the dominant part's: TTFT
    // itself, and another part's milliseconds.
    check(
        1,
        answer(Some(QueueWait), "2400", "capacity"),
        Correct,
        ms.clone(),
        Correct,
    );
    check(
        1,
        answer(Some(QueueWait), "65", "capacity"),
        Correct,
        ms.clone(),
        Correct,
    );
    check(
        2,
        answer(Some(Prefill), "1860 ms", "prefix_cache"),
        Correct,
        ms,
        Correct,
    );
    // On H1 (TTFT 100 ms) queue wait's 20 ms is also its 20% share: the
    // share is the true reading, so it is another part's share.
    let other = Ok(wrong(Misconception::ShareOfOtherPart));
    check(
        0,
        answer(Some(Prefill), "20", "none"),
        Correct,
        other.clone(),
        Correct,
    );
    check(0, answer(None, "10", "none"), Missing, other, Correct);
    // "20%" is a share someone meant, never milliseconds.
    check(
        1,
        answer(Some(QueueWait), "65%", "capacity"),
        Correct,
        Ok(Verdict::Wrong(None)),
        Correct,
    );
    check(
        1,
        answer(Some(QueueWait), "0.969", "capacity"),
        Correct,
        Ok(wrong(Misconception::FractionNotPercent)),
        Correct,
    );
    check(
        3,
        answer(Some(QueueWait), "38.8", "capacity"),
        Correct,
        Ok(wrong(Misconception::ShareOfOtherPart)),
        Correct,
    );
    check(
        3,
        answer(Some(QueueWait), "12", "capacity"),
        Correct,
        Ok(Verdict::Wrong(None)),
        Correct,
    );
}

#[test]
fn the_share_is_judged_for_the_part_named() {
    // H2 is queue-bound: naming prefill and copying queue wait's 96.9% is
    // not prefill's share.
    let other = Ok(wrong(Misconception::ShareOfOtherPart));
    check(
        1,
        answer(Some(Prefill), "96.9", "capacity"),
        wrong(Misconception::QueueAsPrefill),
        other.clone(),
        Correct,
    );
    // Prefill's own share is right for the part named, while the part is
    // wrong: each field says what it judged.
    check(
        1,
        answer(Some(Prefill), "2.7", "capacity"),
        wrong(Misconception::QueueAsPrefill),
        Ok(Correct),
        Correct,
    );
    check(
        3,
        answer(Some(Prefill), "60.6", "capacity"),
        wrong(Misconception::LongPromptMeansPrefill),
        other,
        Correct,
    );
    // With no part named (or the output rate, which is no part), the
    // dominant part's share is the one judged.
    check(
        1,
        answer(None, "96.9", "capacity"),
        Missing,
        Ok(Correct),
        Correct,
    );
    check(
        1,
        answer(Some(OutputRate), "96.9", "capacity"),
        wrong(Misconception::OutputRateAsCause),
        Ok(Correct),
        Correct,
    );
}

#[test]
fn share_of_end_to_end_needs_end_to_end() {
    // The worked timeline: prefill 310 of TTFT 360 (86.1%), of e2e 12,360 (2.5%).
    let split = TtftSplit {
        queue_wait: Micros::from_ms(40),
        prefill: Micros::from_ms(310),
        emit: Micros::from_ms(10),
    };
    let expected = expect(split, Micros::from_ms(1_000));
    let q = parse_quantity("2.5%").unwrap();
    let known = Context {
        end_to_end: Some(Micros::from_ms(12_360)),
        long_prompt: true,
    };
    assert_eq!(
        check_share(&q, &expected, &known, 20, None),
        wrong(Misconception::ShareOfEndToEnd)
    );
    // Without end-to-end the same 2.5 is nearest emit's 2.8% of TTFT.
    assert_eq!(
        check_share(&q, &expected, &Context::default(), 20, None),
        wrong(Misconception::ShareOfOtherPart)
    );
    assert_eq!(
        check_share(
            &parse_quantity("86").unwrap(),
            &expected,
            &known,
            20,
            Some(Part::Prefill)
        ),
        Correct
    );
}

#[test]
fn dominant_misconceptions() {
    check(
        1,
        answer(Some(Prefill), "2.7", "capacity"),
        wrong(Misconception::QueueAsPrefill),
        Ok(Correct),
        Correct,
    );
    check(
        3,
        answer(Some(Prefill), "38.8", "capacity"),
        wrong(Misconception::LongPromptMeansPrefill),
        Ok(Correct),
        Correct,
    );
    check(
        1,
        answer(Some(OutputRate), "96.9", "capacity"),
        wrong(Misconception::OutputRateAsCause),
        Ok(Correct),
        Correct,
    );
    // H3: nothing queued at arrival, prefill 97.9% of TTFT.
    check(
        2,
        answer(Some(QueueWait), "1.6", "prefix_cache"),
        wrong(Misconception::PrefillAsQueue),
        Ok(Correct),
        Correct,
    );
    check(
        2,
        answer(Some(Emit), "0.5", "prefix_cache"),
        Verdict::Wrong(None),
        Ok(Correct),
        Correct,
    );
}

#[test]
fn investigate_misconceptions() {
    check(
        0,
        answer(Some(Prefill), "70", "prefix_cache"),
        Correct,
        Ok(Correct),
        wrong(Misconception::ActionWithinTarget),
    );
    check(
        1,
        answer(Some(QueueWait), "96.9", "none"),
        Correct,
        Ok(Correct),
        wrong(Misconception::NoActionOverTarget),
    );
    check(
        3,
        answer(Some(QueueWait), "60.6", "prefix_cache"),
        Correct,
        Ok(Correct),
        wrong(Misconception::WrongCauseClass),
    );
    check(
        2,
        answer(Some(Prefill), "97.9", "stream_writer"),
        Correct,
        Ok(Correct),
        wrong(Misconception::WrongCauseClass),
    );
    check(
        2,
        answer(Some(Prefill), "97.9", "no-such-action"),
        Correct,
        Ok(Correct),
        Verdict::Wrong(None),
    );
}

#[test]
fn an_action_that_protects_others_is_not_a_first_step() {
    // Chunked prefill fits H3's class but does not shorten H3's own
    // prefill, so it is not the first thing to try.
    check(
        2,
        answer(Some(Prefill), "97.9", "chunked_prefill"),
        Correct,
        Ok(Correct),
        wrong(Misconception::ProtectsOthers),
    );
    // Elsewhere the usual verdicts apply.
    check(
        0,
        answer(Some(Prefill), "70", "chunked_prefill"),
        Correct,
        Ok(Correct),
        wrong(Misconception::ActionWithinTarget),
    );
    check(
        1,
        answer(Some(QueueWait), "96.9", "chunked_prefill"),
        Correct,
        Ok(Correct),
        wrong(Misconception::WrongCauseClass),
    );
}

#[test]
fn ties_accept_either_part() {
    let split = TtftSplit {
        queue_wait: Micros::from_ms(600),
        prefill: Micros::from_ms(600),
        emit: Micros::ZERO,
    };
    let e = expect(split, Micros::from_ms(1_000));
    assert_eq!(e.classes, vec![CauseClass::Queue, CauseClass::Prefill]);
    let c = Context::default();
    assert_eq!(check_dominant(QueueWait, &e, &c), Correct);
    assert_eq!(check_dominant(Prefill, &e, &c), Correct);
    let prefill = Action {
        id: "p".into(),
        label: "p".into(),
        class: CauseClass::Prefill,
        protects_others: false,
    };
    assert_eq!(check_action(&prefill, &e), Correct);
    assert_eq!(
        check_share(&parse_quantity("50").unwrap(), &e, &c, 20, None),
        Correct
    );
    assert_eq!(
        check_share(
            &parse_quantity("50").unwrap(),
            &e,
            &c,
            20,
            Some(Part::QueueWait)
        ),
        Correct
    );
}

#[test]
fn the_summary_names_every_field_that_is_not_right() {
    let right = vec![
        answer(Some(Prefill), "70", "none"),
        answer(Some(QueueWait), "96.9", "capacity"),
        answer(Some(Prefill), "97.9", "prefix_cache"),
        answer(Some(QueueWait), "60.6", "capacity"),
    ];
    assert_eq!(
        check_trace(&exercise(), &right).summary(),
        "All 4 requests fully right"
    );
    let mut one_off = right.clone();
    one_off[3].dominant = Some(Prefill);
    one_off[3].share_percent = Some(ShareEntry::Text("38.8".into()));
    assert_eq!(
        check_trace(&exercise(), &one_off).summary(),
        "3 of 4 requests fully right; H4's dominant delay is wrong"
    );
    one_off[1].share_percent = Some(ShareEntry::Text("95.5".into()));
    one_off[0].investigate = None;
    one_off[2].share_percent = Some(ShareEntry::Text("lots".into()));
    assert_eq!(
        check_trace(&exercise(), &one_off).summary(),
        "0 of 4 requests fully right; H1's first investigation is missing, H2's share is close, \
         H3's share cannot be read, H4's dominant delay is wrong"
    );
    assert_eq!(
        check_trace(&exercise(), &[]).summary().split("; ").next(),
        Some("0 of 4 requests fully right")
    );
}

#[test]
fn misconception_ids_round_trip() {
    for m in Misconception::ALL {
        assert_eq!(Misconception::from_id(m.id()), Some(m));
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            format!("\"{}\"", m.id())
        );
    }
    let texts = exercise().misconceptions;
    assert!(Misconception::ALL
        .iter()
        .all(|m| texts.iter().any(|t| t.id == m.id())));
}

#[test]
fn long_prompt_is_above_the_median() {
    let all = [700, 650, 18_000, 6_000];
    assert!(is_long_prompt(6_000, &all));
    assert!(is_long_prompt(18_000, &all));
    assert!(!is_long_prompt(700, &all));
    assert!(!is_long_prompt(5, &[]));
    assert!(!is_long_prompt(5, &[5]));
}
