//! Issue 14, "count only what happened": in every client format, a request
//! recorded as completed that produced nothing (0 output tokens, a TTFT of
//! exactly 0 or none, an empty error string, or a first token at the
//! instant it started) is an empty reply: its own outcome, outside the TTFT
//! percentiles and the target counts, and named so in the CSV export.
//! Each file here is small and written for this test from the format as the
//! readers document it.

use ttft_import::{export, import, report, Format, Import, OutcomeCounts};
use ttft_latency::{Convention, Micros, Outcome};

/// Imports `text` as `format` and checks it holds one empty reply among
/// `total` requests, that the empty reply has no first token, and that the
/// percentiles and the target counts leave it out.
fn check(text: &str, format: Format, total: usize, empty_id: &str) -> Import {
    let imp = import(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(imp.format, format);
    assert!(imp.problems.is_empty(), "{:?}", imp.problems);
    assert_eq!(imp.requests.len(), total);
    let empty: Vec<_> = imp
        .requests
        .iter()
        .filter(|r| r.outcome == Outcome::Empty)
        .collect();
    assert_eq!(
        empty.len(),
        1,
        "{:?}",
        imp.requests
            .iter()
            .map(|r| (&r.id, r.outcome))
            .collect::<Vec<_>>()
    );
    assert_eq!(empty[0].id, empty_id);
    assert_eq!(
        (report::first_token(empty[0]), empty[0].breakdown.ttft),
        (None, None)
    );
    assert_eq!(
        report::standing(empty[0], Micros::from_ms(1_000)),
        report::Standing::NotJudged
    );
    let s = imp.summarise(Some(Micros::from_ms(1_000)), Convention::NearestRank);
    assert_eq!(s.outcomes.empty, 1);
    let t = s.target.expect("target");
    assert_eq!(
        t.within + t.over + t.no_first_token,
        total - 1,
        "the empty reply is not judged"
    );
    assert_eq!(
        s.ttft.as_ref().map(|p| p.count),
        Some(
            imp.requests
                .iter()
                .filter(|r| report::first_token(r).is_some())
                .count()
        )
    );
    assert!(s
        .reading()
        .iter()
        .any(|l| l.contains("produced nothing and recorded no error")));
    let csv = export::to_csv(&imp.requests);
    let row = csv
        .lines()
        .find(|l| l.starts_with(&format!("{empty_id},")))
        .expect("a row");
    assert!(row.starts_with(&format!("{empty_id},empty,")), "{row}");
    imp
}

#[test]
fn vllm_bench_zero_ttft_with_an_empty_error_string() {
    let text = r#"{"model_id":"m","completed":3,"mean_ttft_ms":80.0,"median_ttft_ms":100.0,
      "input_lens":[10,20,30],"output_lens":[5,0,7],"ttfts":[0.1,0.0,0.12],
      "itls":[[0.01,0.01,0.01,0.01],[],[0.02,0.02,0.02,0.02,0.02,0.02]],"generated_texts":["a","",""],"errors":["","",""]}"#;
    check(text, Format::VllmBench, 3, "1");
}

#[test]
fn sglang_zero_output_tokens() {
    let text = r#"{"dataset_name":"random","mean_e2e_latency_ms":500.0,"input_lens":[10,10],"output_lens":[0,8],"ttfts":[0.0,0.2],"itls":[[],[0.01]],"generated_texts":["","x"],"errors":["",""]}"#;
    check(text, Format::SglangBench, 2, "r1-0");
}

#[test]
fn llmperf_zero_ttft_without_an_error_code() {
    let text = r#"[{"error_code":null,"error_msg":"","ttft_s":0.25,"end_to_end_latency_s":1.5,"number_input_tokens":100,"number_output_tokens":20},
      {"error_code":null,"error_msg":"","ttft_s":0,"end_to_end_latency_s":0.4,"number_input_tokens":100,"number_output_tokens":0}]"#;
    let imp = check(text, Format::LlmPerf, 2, "1");
    assert_eq!(
        imp.requests[1].breakdown.e2e,
        Some(Micros(400_000)),
        "its end-to-end time is kept"
    );
}

#[test]
fn aiperf_record_without_a_first_token() {
    let text = concat!(
        r#"{"metadata":{"x_request_id":"a","request_start_ns":1000000000},"metrics":{"time_to_first_token":{"value":120.0,"unit":"ms"},"request_latency":{"value":900.0,"unit":"ms"},"output_sequence_length":{"value":30,"unit":"tokens"}},"error":null}"#,
        "\n",
        r#"{"metadata":{"x_request_id":"b","request_start_ns":2000000000},"metrics":{"request_latency":{"value":50.0,"unit":"ms"},"output_sequence_length":{"value":0,"unit":"tokens"}},"error":null}"#,
        "\n"
    );
    check(text, Format::AiperfRecords, 2, "b");
}

#[test]
fn genai_perf_request_with_no_response() {
    let text = r#"{"service_kind":"openai","experiments":[{"experiment":{},"requests":[
      {"timestamp":1000000000,"response_timestamps":[1200000000,1250000000]},
      {"timestamp":2000000000,"response_timestamps":[]}]}]}"#;
    check(text, Format::GenaiPerf, 2, "1");
}

#[test]
fn guidellm_successful_request_with_null_ttft() {
    let text = r#"{"benchmarks":[{"requests":{"successful":[
      {"request_id":"g1","time_to_first_token_ms":180.0,"request_latency":2.0,"prompt_tokens":50,"output_tokens":40},
      {"request_id":"g2","time_to_first_token_ms":null,"request_latency":0.3,"prompt_tokens":50,"output_tokens":0}],
      "errored":[],"incomplete":[]}}]}"#;
    check(text, Format::GuideLlm, 2, "g2");
}

#[test]
fn csv_first_token_at_arrival_and_the_outcome_column() {
    let text = "id,arrival_ms,admitted_ms,prefill_end_ms,first_token_ms\n\
                a,0,10,200,210\n\
                b,1000,1000,1000,1000\n";
    check(text, Format::Csv, 2, "b");
    // The export's outcome column reads back as the same outcome.
    let text = "id,queue_ms,prefill_ms,emit_ms,outcome\nx,1,2,3,completed\ny,,,,empty\n";
    let imp = check(text, Format::Csv, 2, "y");
    assert_eq!(
        imp.counts(),
        OutcomeCounts {
            completed: 1,
            empty: 1,
            ..OutcomeCounts::default()
        }
    );
}

#[test]
fn a_real_request_with_an_error_is_not_an_empty_reply() {
    let text = r#"{"model_id":"m","input_lens":[10,20],"output_lens":[0,5],"ttfts":[0.0,0.1],"itls":[[],[0.01]],"generated_texts":["",""],"errors":["Bad Gateway",""]}"#;
    let imp = import(text).expect("vLLM bench");
    assert_eq!(
        imp.counts(),
        OutcomeCounts {
            completed: 1,
            failed: 1,
            ..OutcomeCounts::default()
        }
    );
}
