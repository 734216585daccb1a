//! The fuzz targets' bodies, one function a target, each taking raw bytes.
//!
//! They live here, not in the target files, so that
//! `crates/ttft-core/tests/properties.rs` can include this file and run them
//! over `fuzz/corpus/` in the ordinary test suite. Each body feeds the bytes
//! to a public parser of the core and asserts what must hold for any input
//! the parser accepts; a panic anywhere is a finding. This file depends only
//! on `ttft_core`, `ttft_latency` and `serde_json`, which the core's tests also have.

use ttft_core::content::Course;
use ttft_core::exercises::config_choice::{check_config, check_seconds, check_total};
use ttft_core::exercises::number::parse_quantity;
use ttft_core::exercises::trace_exercise::{check_share, expect, Context};
use ttft_core::history::{merge, parse};
use ttft_core::lms::suspend::{host_length, pack, unpack, LIMIT_12, LIMIT_2004};
use ttft_latency::{Micros, TtftSplit};

/// The saved-history parser: anything it accepts saves and reads back to
/// the same history, and merging it with itself changes nothing.
pub fn history(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(h) = parse(text) {
        let again = parse(&h.to_json());
        assert_eq!(
            again.as_ref(),
            Ok(&h),
            "a parsed history reads back the same"
        );
        assert_eq!(
            merge(&h, &h),
            h,
            "merging a history with itself changes nothing"
        );
        let _ = h.trend().map(|t| t.to_string());
    }
}

/// The learner's number reader, and the checks that take its result: the
/// trace exercise's share check (on H2's split) and the configuration
/// exercise's seconds and token checks.
pub fn share(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(q) = parse_quantity(text) {
        assert!(q.number.thousandths >= 0, "the reader refuses negatives");
        let h2 = TtftSplit {
            queue_wait: Micros::from_ms(2_325),
            prefill: Micros::from_ms(65),
            emit: Micros::from_ms(10),
        };
        let expected = expect(h2, Micros::from_ms(1_000));
        let context = Context {
            end_to_end: Some(Micros::from_ms(9_000)),
            long_prompt: false,
        };
        for named in [
            None,
            Some(ttft_latency::Part::QueueWait),
            Some(ttft_latency::Part::Prefill),
        ] {
            let _ = check_share(&q, &expected, &context, 20, named);
        }
    }
    let _ = check_seconds(Some(text), 4_000_000, 2_400);
    let _ = check_seconds(Some(text), u64::MAX, 1);
    let _ = check_total(Some(text), 4_000_000);
}

/// A whole course from JSON (the course every part reads, the lesson under
/// `lesson`, and the interview part, side by side in one object), validated, with its exercises checked
/// against empty answers.
pub fn course(data: &[u8]) {
    let Ok(whole) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let lesson = whole.get("lesson").cloned().unwrap_or_default();
    let (Ok(course), Ok(lesson), Ok(interview)) = (
        serde_json::from_value::<Course>(whole.clone()),
        serde_json::from_value::<ttft_core::content::Lesson>(lesson),
        serde_json::from_value::<ttft_core::content::InterviewPart>(whole),
    ) else {
        return;
    };
    for problem in ttft_core::content::validate::validate_course(&course, &lesson, &interview) {
        assert!(!problem.path.is_empty(), "every problem has a path");
    }
    let _ = ttft_core::exercises::trace_exercise::check_trace(&course.trace_exercise, &[]).tally();
    let _ = check_config(&course.config_exercise, &[]);
}

/// The suspend-data reader: any text it accepts packs again within both
/// standards' limits and reads back to the same progress (shares typed as
/// numbers compared to the last place, since JSON's float reading may
/// round them by one unit in the last place).
pub fn suspend_data(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(progress) = unpack(text) else {
        return;
    };
    for limit in [LIMIT_12, LIMIT_2004] {
        let packed = pack(&progress, limit);
        assert!(
            host_length(&packed.text) <= limit || !packed.left_out.is_empty(),
            "a pack that does not fit says what it left out"
        );
        let again = unpack(&packed.text);
        assert!(again.is_ok(), "a packed text reads back: {again:?}");
        if packed.left_out.is_empty() {
            let again = again.unwrap_or_default();
            assert_eq!(
                again.checklist, progress.checklist,
                "the checklist reads back the same"
            );
            assert_eq!(again.scores, progress.scores, "the scores read back the same");
            assert_eq!(again.interview, progress.interview);
            assert_eq!(again.choice, progress.choice);
            assert_eq!(again.trace.attempts, progress.trace.attempts);
            assert_eq!(
                again.trace.answers.keys().collect::<Vec<_>>(),
                progress.trace.answers.keys().collect::<Vec<_>>()
            );
        }
    }
}
