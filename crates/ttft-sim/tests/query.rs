//! Settings in the address bar: any valid settings read back the same
//! (property test); no text makes the parser panic, and what it accepts is
//! stable under writing and reading again; the fuzz body runs over its
//! committed seeds (`fuzz/corpus/sim_query/`).

use proptest::prelude::*;
use ttft_latency::{Convention, Micros};
use ttft_sim::{
    from_query, query::to_query_with, to_query, Arrivals, Class, Engine, Lengths, Policy, Preset,
    Settings, StepCost, Stop,
};

#[path = "../../../fuzz/src/sim_query.rs"]
mod fuzz_body;

fn name() -> impl Strategy<Value = String> {
    // Separators, escapes, spaces and non-ASCII, never at either end a space.
    "[a-zA-Z0-9é€:,%&=+#?/ ]{0,12}[a-zA-Z0-9€:%]"
        .prop_map(|s| s.trim().to_owned())
        .prop_filter("a name", |s| !s.is_empty())
}

/// Text made of the pieces a query string is made of, shuffled.
fn tricky() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "sim",
        "seed",
        "n",
        "dur_ms",
        "arr",
        "rate",
        "cv",
        "speed",
        "len",
        "in",
        "out",
        "in_sd",
        "cls",
        "prefix",
        "target_ms",
        "seqs",
        "budget",
        "chunked",
        "chunk",
        "policy",
        "kv",
        "wm",
        "cache",
        "qlimit",
        "deadline_ms",
        "prio",
        "hw",
        "floor_ms",
        "tok_ms",
        "pct",
        "b.",
        "=",
        "=",
        "&",
        "&",
        "?",
        ":",
        ",",
        "%",
        "%3A",
        "%253A",
        "%2C",
        "%25",
        "%zz",
        "+",
        " ",
        "0",
        "1",
        "2",
        "7",
        "9",
        ".",
        "e",
        "-",
        "e308",
        "inf",
        "NaN",
        "none",
        "gamma",
        "replay",
        "classes",
        "lognormal",
        "fixed",
        "prefill",
        "nearest",
        "hint",
        "a100-llama3-8b",
        "18446744073709551616",
        "4294967296",
        "é",
        "\u{feff}",
    ]);
    prop::collection::vec(atoms, 0..40).prop_map(|v| v.concat())
}

fn micros() -> impl Strategy<Value = Micros> {
    (1i64..86_400_000_000).prop_map(Micros)
}

fn settings() -> impl Strategy<Value = Settings> {
    let stop = prop_oneof![
        (1u32..=1_000_000).prop_map(Stop::Requests),
        (1i64..=10_000_000).prop_map(|us| Stop::Duration(Micros(us))),
    ];
    let arrivals = prop_oneof![
        (1e-6f64..1e5).prop_map(|rate| Arrivals::Poisson { rate }),
        (1e-6f64..1e5, 0.1f64..=10.0).prop_map(|(rate, cv)| Arrivals::Gamma { rate, cv }),
        (0.01f64..=100.0).prop_map(|speed| Arrivals::Replay { speed }),
    ];
    let class = (
        name(),
        1e-9f64..1e6,
        1u32..=1_000_000,
        1u32..=100_000,
        micros(),
    )
        .prop_map(|(name, share, prompt, output, target)| Class {
            name,
            share,
            prompt,
            output,
            target,
        });
    let lengths = prop_oneof![
        (1u32..=1_000_000, 1u32..=100_000)
            .prop_map(|(prompt, output)| Lengths::Fixed { prompt, output }),
        (1u32..=1_000_000, 0.0f64..=3.0, 1u32..=100_000, 0.0f64..=3.0).prop_map(
            |(prompt, prompt_spread, output, output_spread)| {
                Lengths::LogNormal {
                    prompt,
                    prompt_spread,
                    output,
                    output_spread,
                }
            }
        ),
        prop::collection::vec(class, 1..=8).prop_map(Lengths::Classes),
        Just(Lengths::Replay),
    ];
    let engine = (
        (
            1u32..=65_536,
            1u32..=1 << 20,
            any::<bool>(),
            any::<bool>(),
            16u64..=100_000_000,
            0.0f64..=0.5,
        ),
        (
            any::<bool>(),
            prop::option::of(1u32..=10_000_000),
            prop::option::of(micros()),
            any::<prop::sample::Index>(),
            prop::option::of(1u32..=1 << 20),
        ),
    );
    let cost = (
        0usize..3,
        0.0f64..=10_000.0,
        0.0f64..=1_000.0,
        0.0f64..=1.0,
        0.0f64..=1.0,
        0.0f64..=10_000.0,
    );
    (
        any::<u64>(),
        stop,
        arrivals,
        lengths,
        0u32..=1_000_000,
        micros(),
        engine,
        cost,
        any::<bool>(),
    )
        .prop_map(
            |(seed, stop, arrivals, lengths, shared_prefix, target, (e, f), c, nearest)| {
                let mut s = Settings {
                    seed,
                    stop,
                    arrivals,
                    lengths,
                    shared_prefix,
                    target,
                    engine: Engine {
                        max_num_seqs: e.0,
                        max_num_batched_tokens: e.1,
                        chunked_prefill: e.2,
                        max_prefill_chunk: f.4,
                        policy: if e.3 {
                            Policy::DecodeFirst
                        } else {
                            Policy::PrefillFirst
                        },
                        kv_capacity: e.4,
                        watermark: e.5,
                        prefix_caching: f.0,
                        queue_limit: f.1,
                        deadline: f.2,
                        priority: None,
                    },
                    cost: StepCost {
                        preset: Preset::ALL[c.0],
                        floor_ms: c.1,
                        per_token_ms: c.2,
                        attention_ms: c.3,
                        context_ms: c.4,
                        emit_ms: c.5,
                    },
                    convention: if nearest {
                        Convention::NearestRank
                    } else {
                        Convention::Linear
                    },
                };
                let names: Vec<String> = s.classes().into_iter().map(|c| c.name).collect();
                if f.3.index(3) == 0 {
                    s.engine.priority = Some(f.3.get(&names).clone());
                }
                s
            },
        )
        .prop_filter("valid settings", |s| s.validate().is_ok())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Settings -> query -> the same settings, also under a prefix.
    #[test]
    fn valid_settings_round_trip(s in settings()) {
        let q = to_query(&s);
        let back = from_query(&q).map_err(|e| TestCaseError::fail(format!("{e}\n{q}")))?;
        prop_assert_eq!(&back.settings, &s, "{}", q);
        prop_assert!(back.ignored.is_empty());
        let b = to_query_with(&s, "b.");
        let both = format!("{q}&{b}");
        prop_assert_eq!(ttft_sim::query::from_query_with(&both, "b.").unwrap().settings, s);
    }

    /// Any text: no panic; what is accepted writes back to itself.
    #[test]
    fn any_text_is_safe(text in tricky()) {
        fuzz_body::parse_and_write_back(text.as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Key-value pairs with arbitrary values, and a small run of what is
    /// accepted (the whole fuzz body).
    #[test]
    fn any_values_are_safe(pairs in prop::collection::vec(("(seed|n|dur_ms|arr|rate|cv|speed|len|in|out|in_sd|out_sd|cls|prefix|target_ms|seqs|budget|chunked|chunk|policy|kv|wm|cache|qlimit|deadline_ms|prio|hw|floor_ms|tok_ms|attn_ms|ctx_ms|emit_ms|pct|sim)", ".{0,16}"), 0..12)) {
        let q: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        fuzz_body::sim_query(q.join("&").as_bytes());
    }
}

#[test]
fn the_fuzz_body_over_its_committed_seeds() {
    let dir =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/sim_query");
    let mut ran = 0;
    for entry in std::fs::read_dir(&dir)
        .expect("fuzz/corpus/sim_query")
        .flatten()
    {
        let data = std::fs::read(entry.path()).expect("a seed");
        fuzz_body::sim_query(&data);
        ran += 1;
    }
    assert!(ran >= 3, "ran {ran} seeds");
    // Each committed seed parses (they are there to start the fuzzer from
    // settings that run).
    for seed in ["default", "extremes", "escaped-names"] {
        let text = std::fs::read_to_string(dir.join(seed)).unwrap();
        assert!(
            from_query(&text).is_ok(),
            "{seed}: {:?}",
            from_query(&text).err().map(|e| e.to_string())
        );
    }
}
