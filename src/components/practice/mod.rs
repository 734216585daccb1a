//! The practice parts of the course: the trace exercise, the configuration
//! choice and the interview question (with its self-score and history).
//!
//! Each part is one module with one page component, rendered from the
//! course content. Each keeps the learner's work in one plain value
//! (answers, attempts, what is revealed), declared in `crate::learner_state`
//! and kept by `crate::storage`, so it survives a reload and merges between
//! tabs; every verdict and figure on show is computed from
//! that value by `ttft_core`. What this module deliberately does not do:
//! share state between parts, or hold any latency arithmetic.

pub mod config_choice;
pub mod history;
pub mod interview;
pub mod self_score;
pub mod trace_exercise;

/// An element id made from content ids: lower case, letters, digits and
/// dashes only (`H2` and `share` give `tx-h2-share`).
pub fn dom_id(parts: &[&str]) -> String {
    let mut out = String::new();
    for part in parts {
        if !out.is_empty() {
            out.push('-');
        }
        out.extend(part.chars().map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dom_ids_are_lower_case_words() {
        assert_eq!(dom_id(&["tx", "H2", "share"]), "tx-h2-share");
        assert_eq!(dom_id(&["cc", "live hints!"]), "cc-live-hints-");
    }
}
