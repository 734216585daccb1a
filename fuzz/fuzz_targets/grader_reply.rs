//! Fuzz target: the AI grader's reply check, on a five-dimension rubric.
//!
//! Any text either yields a grade with exactly the rubric's dimensions, in
//! order, each scored 0 to 2 with feedback, or a non-empty list of problems.
#![no_main]

use ttft_core::content::{Dimension, Rubric};
use ttft_core::second_opinion::reply::parse_reply;

fn rubric() -> Rubric {
    let dim = |id: &str| Dimension { id: id.into(), title: id.into(), levels: ["no".into(), "partly".into(), "yes".into()] };
    Rubric { dimensions: ["a", "b", "c", "d", "e"].map(dim).to_vec(), ready_at: 8, gate: "a".into(), threshold_note: String::new() }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let r = rubric();
    match parse_reply(text, &r, text) {
        Ok(grade) => {
            let ids: Vec<&str> = grade.dimensions.iter().map(|d| d.dimension.as_str()).collect();
            assert_eq!(ids, ["a", "b", "c", "d", "e"]);
            assert!(grade.dimensions.iter().all(|d| d.score <= 2 && !d.feedback.is_empty()));
        }
        Err(problems) => assert!(!problems.is_empty()),
    }
});
