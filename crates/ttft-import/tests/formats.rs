//! Each format from hand-written files shaped like the tools' own output
//! (for the formats with no real fixture: vLLM spans in OTLP and Jaeger
//! JSON, GenAI-Perf, SGLang), plus CSV, detection and lenient reading.

use ttft_import::{
    detect, export, import, Clock, Format, Import, Largest, Location, Piece, PrefillConvention,
};
use ttft_latency::{Micros, Outcome};

fn ms(v: i64) -> Option<Micros> {
    Some(Micros::from_ms(v))
}

/// Imports `text`, checks the detected format and the request and problem
/// counts, and returns the import.
fn check(text: &str, format: Format, requests: usize, problems: usize) -> Import {
    let imp = import(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(imp.format, format);
    assert_eq!(imp.requests.len(), requests, "{:?}", imp.problems);
    assert_eq!(imp.problems.len(), problems, "{:?}", imp.problems);
    imp
}

fn otlp_line(id: &str, q: f64, p: f64, ttft: f64, extra: &str) -> String {
    format!(
        r#"{{"resourceSpans":[{{"resource":{{"attributes":[]}},"scopeSpans":[{{"scope":{{"name":"vllm.llm_engine"}},"spans":[{{"traceId":"ab","spanId":"cd{id}","name":"llm_request","kind":2,"startTimeUnixNano":"1700000000000000000","endTimeUnixNano":"1700000001000000000","attributes":[{{"key":"gen_ai.request.id","value":{{"stringValue":"{id}"}}}},{{"key":"gen_ai.usage.prompt_tokens","value":{{"intValue":"700"}}}},{{"key":"gen_ai.usage.completion_tokens","value":{{"intValue":"11"}}}},{{"key":"gen_ai.latency.time_in_queue","value":{{"doubleValue":{q}}}}},{{"key":"gen_ai.latency.time_in_model_prefill","value":{{"doubleValue":{p}}}}},{{"key":"gen_ai.latency.time_to_first_token","value":{{"doubleValue":{ttft}}}}},{{"key":"gen_ai.latency.time_in_model_decode","value":{{"doubleValue":0.2}}}},{{"key":"gen_ai.latency.e2e","value":{{"doubleValue":0.5}}}}]{extra}}}]}}]}}]}}"#
    )
}

#[test]
fn otlp_keeps_the_unattributed_remainder() {
    let text = format!(
        "{}\n{}\nnot json\n{{\"resourceSpans\":[{{\"scopeSpans\":[{{\"spans\":[{{\"name\":\"other\"}}]}}]}}]}}\n{}",
        otlp_line("a", 0.02, 0.07, 0.095, ""),
        otlp_line("b", 0.9, 0.05, 1.0, r#","status":{"code":2,"message":"engine dead"}"#),
        otlp_line("c", -0.1, 0.05, 1.0, ""),
    );
    let imp = check(&text, Format::VllmOtlp, 2, 2);
    assert_eq!(imp.problems[0].location, Location::Line(3));
    assert_eq!(
        imp.problems[1].location,
        Location::LinePath(5, "$.resourceSpans[0].scopeSpans[0].spans[0]".into())
    );
    assert_eq!(imp.ignored_records, 1);
    let a = &imp.requests[0];
    assert_eq!(a.id, "a");
    assert_eq!(a.breakdown.clock, Clock::Server);
    assert_eq!(a.breakdown.queue_wait, ms(20));
    assert_eq!(
        a.breakdown.prefill.map(|p| p.convention),
        Some(PrefillConvention::IncludesEmit)
    );
    assert_eq!(a.breakdown.unattributed, ms(5));
    assert_eq!(
        a.breakdown.pieces(),
        Some(vec![
            (Piece::QueueWait, Micros::from_ms(20)),
            (Piece::PrefillWithEmit, Micros::from_ms(70)),
            (Piece::Unattributed, Micros::from_ms(5))
        ])
    );
    assert_eq!(
        a.breakdown.largest(),
        Some(Largest::Single(Piece::PrefillWithEmit))
    );
    assert_eq!(
        a.breakdown
            .share(Piece::Unattributed)
            .map(|s| s.to_string()),
        Some("5.3%".into())
    );
    assert_eq!(a.output_rate(), Some(50.0));
    assert_eq!(imp.requests[1].outcome, Outcome::Failed);
    assert_eq!(imp.requests[1].error.as_deref(), Some("engine dead"));
    let csv = export::to_csv(&imp.requests);
    assert_eq!(csv.lines().next(), Some(export::HEADER.join(",").as_str()));
    assert_eq!(
        csv.lines().nth(1),
        Some("a,completed,,server,1700000000000,700,11,20,70,includes_emit,,5,95,200,500,50.0,prefill (including emit),21.1,73.7")
    );
}

#[test]
fn otlp_pretty_document_and_slices() {
    let doc: serde_json::Value =
        serde_json::from_str(&otlp_line("p", 0.01, 0.02, 0.03, "")).unwrap();
    let pretty = serde_json::to_string_pretty(&doc).unwrap();
    let imp = check(&pretty, Format::VllmOtlp, 1, 0);
    assert_eq!(imp.requests[0].breakdown.unattributed, Some(Micros::ZERO));
    assert_eq!(
        imp.requests[0].breakdown.largest(),
        Some(Largest::Single(Piece::PrefillWithEmit))
    );
}

#[test]
fn jaeger_spans() {
    let text = r#"{"data":[{"traceID":"t1","spans":[
      {"traceID":"t1","spanID":"s1","operationName":"llm_request","references":[],"startTime":1700000000000000,"duration":500000,
       "tags":[{"key":"gen_ai.request.id","type":"string","value":"j1"},{"key":"gen_ai.usage.prompt_tokens","type":"int64","value":6000},
               {"key":"gen_ai.latency.time_in_queue","type":"float64","value":0.97},{"key":"gen_ai.latency.time_in_model_prefill","type":"float64","value":0.63},
               {"key":"gen_ai.latency.time_to_first_token","type":"float64","value":1.6},{"key":"span.kind","type":"string","value":"server"}],
       "logs":[],"processID":"p1","warnings":null},
      {"traceID":"t1","spanID":"s2","operationName":"llm_request","startTime":1700000000000001,
       "tags":[{"key":"error","type":"bool","value":true},{"key":"otel.status_description","type":"string","value":"boom"}]},
      {"traceID":"t1","spanID":"s3","operationName":"http.request","tags":[]}],
      "processes":{"p1":{"serviceName":"vllm","tags":[]}},"warnings":null}],"total":0,"limit":0,"offset":0,"errors":null}"#;
    let imp = check(text, Format::VllmJaeger, 2, 0);
    let r = &imp.requests[0];
    assert_eq!(
        (r.id.as_str(), r.prompt_tokens, r.start),
        ("j1", Some(6_000), Some(Micros(1_700_000_000_000_000)))
    );
    assert_eq!(r.breakdown.queue_wait, ms(970));
    assert_eq!(r.breakdown.unattributed, Some(Micros::ZERO));
    assert_eq!(
        r.breakdown.largest(),
        Some(Largest::Single(Piece::QueueWait))
    );
    assert_eq!(
        (imp.requests[1].outcome, imp.requests[1].error.as_deref()),
        (Outcome::Failed, Some("boom"))
    );
    assert_eq!(imp.ignored_records, 1);
}

#[test]
fn genai_perf_nanoseconds() {
    let text = r#"{"experiments":[{"experiment":{"mode":"concurrency","value":1},
      "requests":[{"timestamp":1000000000,"request_inputs":{"payload":"{}"},"response_timestamps":[1250000000,1300000000,1750000000],"response_outputs":[{},{},{}]},
                  {"timestamp":2000000000,"response_timestamps":[]},
                  {"timestamp":"bad"}],
      "window_boundaries":[1000000000,3000000000]}],"version":"","service_kind":"openai","endpoint":"v1/chat/completions"}"#;
    let imp = check(text, Format::GenaiPerf, 2, 1);
    let r = &imp.requests[0];
    assert_eq!(
        (r.breakdown.ttft, r.breakdown.decode, r.breakdown.e2e),
        (ms(250), ms(500), ms(750))
    );
    assert_eq!(r.output_tokens, None);
    // No response and no error recorded: an empty reply, not a failure the file never stated.
    assert_eq!(
        (imp.requests[1].outcome, imp.requests[1].error.as_deref()),
        (Outcome::Empty, None)
    );
    assert_eq!(
        imp.problems[0].location,
        Location::Path("$.experiments[0].requests[2]".into())
    );
}

#[test]
fn sglang_runs_with_and_without_details() {
    let text = concat!(
        r#"{"backend":"sglang","dataset_name":"random","request_rate":"inf","completed":2,"mean_ttft_ms":150.0,"mean_e2e_latency_ms":900.0,"input_lens":[100,200],"output_lens":[3,0],"ttfts":[0.1,0.0],"itls":[[0.02,0.03],[]],"generated_texts":["ab",""],"errors":["","Connection reset"]}"#,
        "\n",
        r#"{"backend":"sglang","dataset_name":"random","request_rate":4.0,"completed":10,"mean_ttft_ms":50.0,"mean_e2e_latency_ms":300.0}"#,
        "\n"
    );
    let imp = check(text, Format::SglangBench, 2, 0);
    assert_eq!(imp.summaries.len(), 2);
    let r = &imp.requests[0];
    assert_eq!(
        (r.id.as_str(), r.breakdown.ttft, r.breakdown.decode),
        ("r1-0", ms(100), ms(50))
    );
    assert_eq!(
        (imp.requests[1].outcome, imp.requests[1].breakdown.ttft),
        (Outcome::Failed, None)
    );
    assert_eq!(
        imp.summaries[1].get("mean_ttft_ms"),
        Some(&ttft_import::Quantity::Time(Micros::from_ms(50)))
    );
}

#[test]
fn vllm_summary_only_is_recognised() {
    let text = r#"{"date":"20250101-000000","backend":"vllm","model_id":"m","num_prompts":10,"request_rate":"inf","completed":10,"request_goodput:":null,"mean_ttft_ms":42.5}"#;
    let imp = check(text, Format::VllmBench, 0, 0);
    assert!(imp.summary_only());
    assert_eq!(
        imp.summaries[0].get("mean_ttft_ms"),
        Some(&ttft_import::Quantity::Time(Micros(42_500)))
    );
}

#[test]
fn csv_events_and_durations() {
    let events = "id,arrival_ms,admitted_ms,prefill_end_ms,first_token_ms,last_token_ms,prompt_tokens,output_tokens,outcome\n\
                  review,0,40,350,360,12360,3000,481,completed\n\
                  bad,0,400,350,360,,10,,\n\
                  \"quoted, id\",0,1,2,3,,,,\n";
    let imp = check(events, Format::Csv, 2, 1);
    let r = &imp.requests[0];
    assert_eq!(
        (r.breakdown.queue_wait, r.breakdown.emit, r.breakdown.ttft),
        (ms(40), ms(10), ms(360))
    );
    assert_eq!(r.breakdown.largest(), Some(Largest::Single(Piece::Prefill)));
    assert_eq!((r.output_rate(), r.breakdown.e2e), (Some(40.0), ms(12_360)));
    assert_eq!(imp.problems[0].location, Location::Line(3));
    assert!(
        imp.problems[0].message.contains("end of prefill"),
        "{}",
        imp.problems[0].message
    );
    assert_eq!(imp.requests[1].id, "quoted, id");

    let durations = "id,queue_ms,prefill_ms,emit_ms,ttft_ms,outcome,error\nH4,970,620,10,1600,,\nX,10,20,5,40,,\nR,,,,,rejected,\"429, busy\"\nY,1,x,1,,,\n";
    let imp = check(durations, Format::Csv, 3, 1);
    assert_eq!(imp.requests[0].breakdown.unattributed, Some(Micros::ZERO));
    assert_eq!(
        imp.requests[0]
            .breakdown
            .share(Piece::QueueWait)
            .map(|s| s.to_string()),
        Some("60.6%".into())
    );
    assert_eq!(
        imp.requests[1].breakdown.unattributed,
        ms(5),
        "a stated TTFT above the parts keeps the difference"
    );
    assert_eq!(imp.requests[2].error.as_deref(), Some("429, busy"));
    assert_eq!(imp.requests[2].breakdown.pieces(), None);
    let sum = imp.summarise(
        Some(Micros::from_ms(1_000)),
        ttft_latency::Convention::NearestRank,
    );
    assert_eq!(sum.no_first_token.total(), 1);
}

#[test]
fn unknown_formats_list_what_is_supported() {
    for text in ["", "hello,world\n1,2", "{\"foo\":1}", "[1,2,3]"] {
        let err = detect(text).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("GuideLLM") && msg.contains("CSV"), "{msg}");
    }
}
