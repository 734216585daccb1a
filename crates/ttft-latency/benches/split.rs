//! How fast the core splits and summarises many requests: 1,000,000
//! synthetic requests, split one by one and then summarised, reported by
//! Criterion as requests per second (its `thrpt` line, in elements/s).
//!
//! Run: `cargo bench -p ttft-latency --bench split`. The requests are made once,
//! before timing, from a fixed-seed generator, so runs compare. This
//! measures the native build; the app's wasm build is tuned for size and
//! will be slower. It does not measure parsing of trace files (the
//! importers have their own concerns).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;
use ttft_latency::{
    split_request, summarise_splits, Convention, Durations, Micros, Outcome, OutcomeCounts,
    RequestTrace, Timing,
};

const REQUESTS: usize = 1_000_000;

/// A fixed-seed xorshift, so every run splits the same requests.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

/// Requests shaped like a busy hint service: mostly short waits, some long
/// queues, some long prompts.
fn synthetic(n: usize) -> Vec<RequestTrace> {
    let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
    (0..n)
        .map(|i| {
            let queue = if rng.next(10) < 2 {
                500_000 + rng.next(2_000_000)
            } else {
                rng.next(50_000)
            };
            let prefill_span = if rng.next(10) < 1 { 2_000_000 } else { 200_000 };
            let prefill = 20_000 + rng.next(prefill_span);
            let emit = 5_000 + rng.next(10_000);
            RequestTrace {
                id: format!("r{i}"),
                prompt_tokens: Some(100 + rng.next(18_000)),
                output_tokens: Some(1 + rng.next(800)),
                queued_at_arrival: Some(rng.next(20)),
                outcome: Outcome::Completed,
                timing: Timing::Durations(Durations {
                    queue_wait: Some(Micros(queue as i64)),
                    prefill: Some(Micros(prefill as i64)),
                    emit: Some(Micros(emit as i64)),
                    ttft: None,
                    decode: None,
                }),
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let requests = synthetic(REQUESTS);
    let splits: Vec<_> = requests
        .iter()
        .filter_map(|r| split_request(r).ok())
        .collect();
    assert_eq!(splits.len(), REQUESTS, "every synthetic request splits");
    let unsplit = OutcomeCounts::default();
    let target = Some(Micros::from_ms(1_000));

    let mut group = c.benchmark_group("one million requests");
    group.sample_size(10);
    group.throughput(Throughput::Elements(REQUESTS as u64));
    group.bench_function("split", |b| {
        b.iter(|| {
            // Each result goes through black_box so none of the work (the id's
            // allocation included) can be optimised away.
            for r in &requests {
                let _ = black_box(split_request(black_box(r)));
            }
        })
    });
    group.bench_function("summarise", |b| {
        b.iter(|| {
            black_box(summarise_splits(
                &splits,
                &unsplit,
                target,
                Convention::Linear,
            ))
        })
    });
    group.bench_function("split and summarise", |b| {
        b.iter_batched(
            || (),
            |()| {
                let splits: Vec<_> = requests
                    .iter()
                    .filter_map(|r| split_request(r).ok())
                    .collect();
                black_box(summarise_splits(
                    &splits,
                    &unsplit,
                    target,
                    Convention::Linear,
                ))
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
