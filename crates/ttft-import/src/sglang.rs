//! SGLang `bench_serving` output: JSONL, one line a run, appended to on
//! every run. With `--output-details` a line also holds the per-request
//! arrays (`input_lens`, `output_lens`, `ttfts`, `itls`, `generated_texts`,
//! `errors`), in seconds, exactly as vLLM's bench result does; without it a
//! line is a summary only (`mean_ttft_ms`, `mean_e2e_latency_ms`, ...).
//!
//! Each run's requests get ids `r<run>-<position>`. This module does not
//! split TTFT: the clock is the benchmark client's.

use crate::field;
use crate::model::Location;
use crate::read::{line_at, Import};
use crate::vllm_bench::{read_arrays, summary_of};
use serde_json::Value;

/// Runs seen so far.
#[derive(Clone, Copy, Debug, Default)]
pub struct State {
    runs: usize,
}

fn read_run(state: &mut State, value: &Value, line: usize, import: &mut Import) {
    let Some(obj) = value.as_object() else {
        import.problem(
            Location::Line(line),
            format!("a run must be a JSON object, found {}", field::kind(value)),
        );
        return;
    };
    state.runs += 1;
    let run = state.runs;
    import
        .summaries
        .push(summary_of(obj, format!("run {run} (line {line})")));
    read_arrays(obj, &format!("r{run}-"), "$", Some(line), import);
}

/// Reads one line (one run).
pub fn read_line(state: &mut State, line: &str, n: usize, import: &mut Import) {
    if line.trim().is_empty() {
        return;
    }
    match serde_json::from_str::<Value>(line) {
        Ok(v) => read_run(state, &v, n, import),
        Err(e) => import.problem(
            Location::Line(n),
            format!("not valid JSON: {e}; the line was skipped"),
        ),
    }
}

/// Reads one or more whole run documents (pretty-printed or not).
pub fn read_stream(state: &mut State, text: &str, first_line: usize, import: &mut Import) {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    loop {
        let start = stream.byte_offset();
        let lead = text
            .get(start..)
            .map(|t| t.len() - t.trim_start().len())
            .unwrap_or(0);
        let line = line_at(text, start + lead, first_line);
        match stream.next() {
            None => break,
            Some(Ok(v)) => read_run(state, &v, line, import),
            Some(Err(e)) => {
                import.stop(
                    Location::Line(first_line + e.line().saturating_sub(1)),
                    format!("not valid JSON: {e}; reading stopped here"),
                );
                break;
            }
        }
    }
}
