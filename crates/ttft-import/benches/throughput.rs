//! Parse-and-split throughput, natively in release: generates 100,000-request
//! files in the main formats (vLLM OTLP JSONL, vLLM bench JSON, CSV), times
//! `import` plus each request's split, and on the same OTLP file times
//! `bench/split.py` (Python's `json`) in the same run and prints the ratio.
//!
//! Run: `cargo bench -p ttft-import`. Set `TTFT_BENCH_REQUESTS` for another
//! size. Not a statistics harness: best of three rounds, printed plainly.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;
use ttft_import::{import, Format};

/// A small deterministic generator, so every run times the same files.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn otlp(n: usize) -> String {
    let mut rng = Lcg(7);
    let mut s = String::with_capacity(n * 1_200);
    for i in 0..n {
        let q = rng.next() * 2.0;
        let p = 0.05 + rng.next() * 1.5;
        let ttft = q + p + 0.002 + rng.next() * 0.01;
        let out = 1 + (rng.next() * 500.0) as u64;
        let dec = out as f64 * 0.025;
        let start = 1_700_000_000_000_000_000u64 + i as u64 * 10_000_000;
        let _ = writeln!(
            s,
            r#"{{"resourceSpans":[{{"resource":{{"attributes":[{{"key":"service.name","value":{{"stringValue":"vllm"}}}}]}},"scopeSpans":[{{"scope":{{"name":"vllm.llm_engine"}},"spans":[{{"traceId":"{i:032x}","spanId":"{i:016x}","name":"llm_request","kind":2,"startTimeUnixNano":"{start}","endTimeUnixNano":"{end}","attributes":[{{"key":"gen_ai.response.model","value":{{"stringValue":"meta-llama/Llama-3.1-8B-Instruct"}}}},{{"key":"gen_ai.request.id","value":{{"stringValue":"cmpl-{i:08x}"}}}},{{"key":"gen_ai.request.temperature","value":{{"doubleValue":0.7}}}},{{"key":"gen_ai.request.top_p","value":{{"doubleValue":0.95}}}},{{"key":"gen_ai.request.max_tokens","value":{{"intValue":"1024"}}}},{{"key":"gen_ai.usage.prompt_tokens","value":{{"intValue":"{pt}"}}}},{{"key":"gen_ai.usage.completion_tokens","value":{{"intValue":"{out}"}}}},{{"key":"gen_ai.latency.time_in_queue","value":{{"doubleValue":{q}}}}},{{"key":"gen_ai.latency.time_to_first_token","value":{{"doubleValue":{ttft}}}}},{{"key":"gen_ai.latency.e2e","value":{{"doubleValue":{e2e}}}}},{{"key":"gen_ai.latency.time_in_model_prefill","value":{{"doubleValue":{p}}}}},{{"key":"gen_ai.latency.time_in_model_decode","value":{{"doubleValue":{dec}}}}},{{"key":"gen_ai.latency.time_in_model_inference","value":{{"doubleValue":{inf}}}}}],"status":{{}}}}]}}]}}]}}"#,
            end = start + ((ttft + dec) * 1e9) as u64,
            pt = 100 + (rng.next() * 8_000.0) as u64,
            e2e = ttft + dec,
            inf = p + dec,
        );
    }
    s
}

fn vllm_bench(n: usize) -> String {
    let mut rng = Lcg(11);
    let (mut ins, mut outs, mut ttfts, mut itls, mut errs) =
        (vec![], vec![], vec![], vec![], vec![]);
    for _ in 0..n {
        let out = 1 + (rng.next() * 16.0) as usize;
        ins.push(format!("{}", 10 + (rng.next() * 2_000.0) as u64));
        outs.push(out.to_string());
        ttfts.push(format!("{}", 0.02 + rng.next()));
        let gaps: Vec<String> = (1..out)
            .map(|_| format!("{}", 0.02 + rng.next() * 0.01))
            .collect();
        itls.push(format!("[{}]", gaps.join(",")));
        errs.push("\"\"".to_owned());
    }
    format!(
        r#"{{"date":"20250414-141621","backend":"vllm","model_id":"m","tokenizer_id":"m","num_prompts":{n},"request_rate":"inf","completed":{n},"request_goodput:":null,"input_lens":[{}],"output_lens":[{}],"ttfts":[{}],"itls":[{}],"errors":[{}],"mean_ttft_ms":50.0}}"#,
        ins.join(","),
        outs.join(","),
        ttfts.join(","),
        itls.join(","),
        errs.join(",")
    )
}

fn csv(n: usize) -> String {
    let mut rng = Lcg(13);
    let mut s = String::from("id,arrival_ms,admitted_ms,prefill_end_ms,first_token_ms,last_token_ms,prompt_tokens,output_tokens,queued_at_arrival,outcome\n");
    for i in 0..n {
        let a = i as f64 * 10.0;
        let adm = a + rng.next() * 2_000.0;
        let pe = adm + 50.0 + rng.next() * 1_500.0;
        let ft = pe + 10.0;
        let out = 1 + (rng.next() * 500.0) as u64;
        let lt = ft + (out - 1) as f64 * 25.0;
        let _ = writeln!(
            s,
            "r{i},{a:.3},{adm:.3},{pe:.3},{ft:.3},{lt:.3},{},{out},{},completed",
            100 + i % 8_000,
            i % 7
        );
    }
    s
}

/// Best of three: seconds to import and split every request.
fn time_import(text: &str, format: Format) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut n = 0;
    for _ in 0..3 {
        let start = Instant::now();
        let imp = import(text).expect("generated files are detected");
        assert_eq!(imp.format, format);
        let mut split = 0usize;
        for r in &imp.requests {
            if r.breakdown.pieces().is_some() && r.breakdown.largest().is_some() {
                split += 1;
            }
        }
        std::hint::black_box(split);
        best = best.min(start.elapsed().as_secs_f64());
        n = imp.requests.len();
        assert!(imp.problems.is_empty(), "{:?}", imp.problems.first());
    }
    (best, n)
}

/// Best of three: seconds for what the page computes over an imported file
/// on its main thread besides the split: the table in TTFT order and in id
/// order, the 20 slowest, the TTFT percentiles.
fn time_report(text: &str) -> [f64; 4] {
    use ttft_import::report::{order, slowest, Column};
    use ttft_latency::{percentiles, Convention, Micros};
    let imp = import(text).expect("generated files are detected");
    let target = Micros(1_000_000);
    let ttfts: Vec<Micros> = imp.requests.iter().filter_map(|r| r.breakdown.split_ttft()).collect();
    let mut best = [f64::MAX; 4];
    for _ in 0..3 {
        let times = [
            time(|| order(&imp.requests, Column::Ttft, true, target).len()),
            time(|| order(&imp.requests, Column::Id, false, target).len()),
            time(|| slowest(&imp.requests, 20).len()),
            time(|| percentiles(&ttfts, Convention::default()).map(|p| p.count).unwrap_or(0)),
        ];
        for (b, t) in best.iter_mut().zip(times) {
            *b = b.min(t);
        }
    }
    best
}

/// Seconds `f` takes.
fn time(f: impl FnOnce() -> usize) -> f64 {
    let start = Instant::now();
    std::hint::black_box(f());
    start.elapsed().as_secs_f64()
}

fn main() {
    let n: usize = std::env::var("TTFT_BENCH_REQUESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/ttft-import-bench");
    std::fs::create_dir_all(&dir).expect("bench dir");
    println!("ttft-import throughput, {n} requests a file, best of 3 (parse + split)");
    let mut otlp_secs = 0.0;
    let otlp_path = dir.join("bench.otlp.jsonl");
    for (name, format, text) in [
        ("vLLM OTLP JSONL", Format::VllmOtlp, otlp(n)),
        ("vLLM bench JSON", Format::VllmBench, vllm_bench(n)),
        ("CSV events", Format::Csv, csv(n)),
    ] {
        if format == Format::VllmOtlp {
            std::fs::write(&otlp_path, &text).expect("write OTLP file");
        }
        let (secs, count) = time_import(&text, format);
        assert_eq!(count, n);
        let mb = text.len() as f64 / 1e6;
        println!(
            "{name:<16} {mb:8.1} MB  {secs:7.3} s  {:9.0} requests/s  {:7.1} MB/s",
            n as f64 / secs,
            mb / secs
        );
        if format == Format::VllmOtlp {
            otlp_secs = secs;
            let [by_ttft, by_id, slow, pct] = time_report(&text);
            println!(
                "  then, on the page's main thread: the table by TTFT {:.1} ms, by id {:.1} ms; the 20 slowest {:.1} ms; TTFT percentiles {:.1} ms",
                by_ttft * 1e3, by_id * 1e3, slow * 1e3, pct * 1e3
            );
        }
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench/split.py");
    match Command::new("python3")
        .arg(&script)
        .arg(&otlp_path)
        .arg("3")
        .output()
    {
        Ok(out) if out.status.success() => {
            let line = String::from_utf8_lossy(&out.stdout);
            let py: Option<f64> = line
                .split_whitespace()
                .find_map(|kv| kv.strip_prefix("python_seconds="))
                .and_then(|v| v.parse().ok());
            match py {
                Some(py) => println!(
                    "Python json, same OTLP file: {py:.3} s; native is {:.1}x faster (target: at least 10x)",
                    py / otlp_secs
                ),
                None => println!("bench/split.py printed no time: {line}"),
            }
        }
        Ok(out) => println!(
            "bench/split.py failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => println!("python3 not run ({e}); no ratio"),
    }
}
