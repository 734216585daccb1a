//! Hardware presets: the step-time coefficients, KV-cache capacity and
//! engine limits of one model on one GPU, each with where it comes from.
//!
//! **A teaching model, not a performance claim.** The step time is a
//! straight-line formula fitted to, or scaled from, published profiling
//! data; it leaves out the CPU, the sampler, the network and much else. It
//! is good enough to show why queue wait explodes near capacity and why a
//! long prompt holds up short ones, and not good enough to size a fleet.
//! [`TEACHING_NOTE`] says so in the words the page shows.
//!
//! Where the figures come from (see also the team's SIMULATOR-NOTES):
//! - Vidur's per-operator profiles (microsoft/vidur, commit 7d47513,
//!   `data/profiling/compute/{a100,h100}/meta-llama/*/mlp.csv`, one GPU):
//!   the per-layer token-wise operators summed over 32 layers (attention
//!   kernel, LM head, sampling and CPU time left out). Re-derived for this
//!   crate from the CSVs: Llama-3-8B on A100 9.7 ms for 1 token, 75.1 ms
//!   for 1,024, 273.2 ms for 4,096; Llama-2-7B on A100 9.3, 67.9, 259.9 ms;
//!   on H100 5.6, 21.0, 83.2 ms.
//! - DistServe's simulator (LLMServe/DistServe @ 37a0749,
//!   `simdistserve/timemodule/worktime.py`), OPT-13B on one A100: prefill
//!   `18.89 + 0.0948 x sum(len) + 4.03e-6 x sum(len^2)` ms, decode
//!   `19.88 + 0.000611 x sum(context + 1) + 0.0682 x batch` ms. Vidur's
//!   stored profiles lack the attention kernel, so the two attention
//!   coefficients here are DistServe's, scaled to the model by the
//!   arithmetic stated in each source string.

use crate::settings::StepCost;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What the page says beside every coefficient.
pub const TEACHING_NOTE: &str = "This is a teaching model, not a performance claim: each step's time is a \
straight-line formula fitted to, or scaled from, published profiling data, and it leaves out the CPU, the \
sampler, the network and much else. Use it to see how queue wait, prefill and emit respond to load and \
settings, not to size real hardware.";

/// One model on one GPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Meta-Llama-3-8B on one A100 80 GB.
    #[default]
    A100Llama3_8b,
    /// Llama-2-7B on one A100 80 GB.
    A100Llama2_7b,
    /// Llama-2-7B on one H100 80 GB.
    H100Llama2_7b,
}

/// Where each figure of a preset comes from, in words the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Sources {
    pub floor: &'static str,
    pub per_token: &'static str,
    pub attention: &'static str,
    pub context: &'static str,
    pub emit: &'static str,
    pub kv_capacity: &'static str,
    pub limits: &'static str,
}

const EMIT_SOURCE: &str = "An assumption, not a measurement: sampling the first token, detokenising it and \
writing it to the stream, taken as 1 ms and run beside the engine (as vLLM's separate output process does), \
so it delays the token but not the next step. The course's worked example uses 10 ms.";

const A100_LIMITS: &str =
    "vLLM's defaults for the API server on a GPU that is not one of the large ones \
(vllm/engine/arg_utils.py): 2,048 batched tokens and 256 sequences.";

const H100_LIMITS: &str =
    "vLLM's defaults for the API server on a GPU with at least 70 GiB other than the \
A100 (vllm/engine/arg_utils.py): 8,192 batched tokens and 1,024 sequences.";

impl Preset {
    /// Every preset, in the order the page lists them.
    pub const ALL: [Preset; 3] = [
        Preset::A100Llama3_8b,
        Preset::A100Llama2_7b,
        Preset::H100Llama2_7b,
    ];

    /// The short id used in the query string.
    pub fn id(self) -> &'static str {
        match self {
            Preset::A100Llama3_8b => "a100-llama3-8b",
            Preset::A100Llama2_7b => "a100-llama2-7b",
            Preset::H100Llama2_7b => "h100-llama2-7b",
        }
    }

    /// The preset whose id is `id`, if any.
    pub fn from_id(id: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.id() == id)
    }

    /// Plain name for a learner.
    pub fn label(self) -> &'static str {
        match self {
            Preset::A100Llama3_8b => "Llama 3 8B on one A100 80 GB",
            Preset::A100Llama2_7b => "Llama 2 7B on one A100 80 GB",
            Preset::H100Llama2_7b => "Llama 2 7B on one H100 80 GB",
        }
    }

    /// The step-time coefficients, in milliseconds.
    pub fn cost(self) -> StepCost {
        let (floor_ms, per_token_ms, attention_ms, context_ms) = match self {
            Preset::A100Llama3_8b => (7.8, 0.0667, 5.16e-6, 9.78e-5),
            Preset::A100Llama2_7b => (9.4, 0.065, 5.16e-6, 3.91e-4),
            Preset::H100Llama2_7b => (5.6, 0.021, 1.67e-6, 2.38e-4),
        };
        StepCost {
            preset: self,
            floor_ms,
            per_token_ms,
            attention_ms,
            context_ms,
            emit_ms: 1.0,
        }
    }

    /// KV-cache capacity in tokens.
    pub fn kv_capacity(self) -> u64 {
        match self {
            Preset::A100Llama3_8b => 400_000,
            Preset::A100Llama2_7b | Preset::H100Llama2_7b => 110_000,
        }
    }

    /// vLLM's default `max_num_seqs` and `max_num_batched_tokens` there.
    pub fn limits(self) -> (u32, u32) {
        match self {
            Preset::A100Llama3_8b | Preset::A100Llama2_7b => (256, 2_048),
            Preset::H100Llama2_7b => (1_024, 8_192),
        }
    }

    /// Where each figure comes from.
    pub fn sources(self) -> Sources {
        match self {
            Preset::A100Llama3_8b => Sources {
                floor: "Vidur's A100 profile of Meta-Llama-3-8B (microsoft/vidur, data/profiling/compute/a100/\
meta-llama/Meta-Llama-3-8B/mlp.csv), token-wise operators summed over 32 layers: 7.8 + 0.0667 x tokens ms fits \
within 6% from 1,024 to 8,192 tokens. The 7.8 ms intercept is the floor; a 1-token step measures 9.7 ms, so \
small steps are about 20% fast here.",
                per_token: "The same fit: 0.0667 ms a token (measured 75.1 ms at 1,024 tokens, 273.2 ms at \
4,096).",
                attention: "Derived, not measured: DistServe's OPT-13B A100 fit (LLMServe/DistServe @ 37a0749, \
simdistserve/timemodule/worktime.py) has 4.03e-6 ms x prompt length squared; causal attention over a prompt of \
n tokens reads n^2/2 context tokens, so that is 8.06e-6 ms per token read, scaled by 0.64 for Llama-3-8B's \
smaller attention (32 layers x 4,096 against OPT-13B's 40 x 5,120).",
                context: "Derived, not measured: DistServe's OPT-13B A100 decode fit charges 0.000611 ms per \
context token read; decode attention is bound by reading the KV cache, so it is scaled by the KV bytes per \
token, 128 KiB for Llama-3-8B (32 layers x 8 KV heads x 128 x 2 x 2 bytes) against OPT-13B's 800 KiB.",
                emit: EMIT_SOURCE,
                kv_capacity: "Derived here, an estimate: 80 GiB x 0.9 (vLLM's gpu_memory_utilization) less \
15 GiB of weights and about 5 GiB of activations leaves about 52 GiB, at 128 KiB a token about 400,000 \
tokens.",
                limits: A100_LIMITS,
            },
            Preset::A100Llama2_7b => Sources {
                floor: "Vidur's A100 profile of Llama-2-7B (microsoft/vidur, data/profiling/compute/a100/\
meta-llama/Llama-2-7b-hf/mlp.csv), token-wise operators over 32 layers: about 9.4 ms for a step of one token \
(9.3 measured).",
                per_token: "The same profile: 0.065 ms a token above 1,024 tokens (67.9 ms measured at 1,024, \
259.9 ms at 4,096).",
                attention: "Derived, not measured: DistServe's OPT-13B A100 fit, 4.03e-6 ms x prompt length \
squared (LLMServe/DistServe @ 37a0749, simdistserve/timemodule/worktime.py), is 8.06e-6 ms per context token \
read by causal attention; scaled by 0.64 for Llama-2-7B (32 layers x 4,096 against 40 x 5,120).",
                context: "Derived, not measured: DistServe's 0.000611 ms per context token read by a decode \
(OPT-13B, A100), scaled by the KV bytes per token, 512 KiB for Llama-2-7B (32 layers x 32 heads x 128 x 2 x 2 \
bytes) against OPT-13B's 800 KiB.",
                emit: EMIT_SOURCE,
                kv_capacity: "Derived here, an estimate: 80 GiB x 0.9 less 12.6 GiB of weights and about 5 GiB \
of activations leaves about 54 GiB, at 512 KiB a token about 110,000 tokens.",
                limits: A100_LIMITS,
            },
            Preset::H100Llama2_7b => Sources {
                floor: "Vidur's H100 profile of Llama-2-7B (microsoft/vidur, data/profiling/compute/h100/\
meta-llama/Llama-2-7b-hf/mlp.csv), token-wise operators over 32 layers: about 5.6 ms for a step of one token.",
                per_token: "The same profile: 0.021 ms a token above 1,024 tokens (21.0 ms measured at 1,024, \
83.2 ms at 4,096).",
                attention: "Derived, not measured: the A100 Llama-2-7B attention coefficient (5.16e-6 ms, from \
DistServe's OPT-13B fit) times 0.323, the H100/A100 ratio of Vidur's per-token fits for this model \
(0.021 / 0.065).",
                context: "Derived, not measured: the A100 Llama-2-7B context-read coefficient (3.91e-4 ms) \
times 0.61, the ratio of the two GPUs' memory bandwidths in NVIDIA's data sheets (A100 80 GB SXM 2,039 GB/s, \
H100 SXM 3.35 TB/s).",
                emit: EMIT_SOURCE,
                kv_capacity: "Derived here, an estimate: the same 80 GiB as the A100, so the same 110,000 \
tokens.",
                limits: H100_LIMITS,
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_every_figure_has_a_source() {
        for p in Preset::ALL {
            assert_eq!(Preset::from_id(p.id()), Some(p));
            let s = p.sources();
            for text in [
                s.floor,
                s.per_token,
                s.attention,
                s.context,
                s.emit,
                s.kv_capacity,
                s.limits,
            ] {
                assert!(text.len() > 40, "{p:?}: {text}");
            }
            assert_eq!(p.cost().preset, p);
        }
        assert_eq!(Preset::from_id("tpu"), None);
    }

    /// The derived coefficients are the arithmetic their sources state.
    #[test]
    fn derived_coefficients_follow_their_stated_arithmetic() {
        let close = |a: f64, b: f64| ((a - b) / b).abs() < 0.01;
        let attn = 2.0 * 4.03e-6 * (32.0 * 4096.0) / (40.0 * 5120.0);
        assert!(close(Preset::A100Llama3_8b.cost().attention_ms, attn));
        assert!(close(Preset::A100Llama2_7b.cost().attention_ms, attn));
        assert!(close(
            Preset::H100Llama2_7b.cost().attention_ms,
            attn * 0.021 / 0.065
        ));
        let opt13b_kv = 2.0 * 40.0 * 5120.0 * 2.0;
        let llama3_kv = 2.0 * 32.0 * 8.0 * 128.0 * 2.0;
        let llama2_kv = 2.0 * 32.0 * 32.0 * 128.0 * 2.0;
        assert!(close(
            Preset::A100Llama3_8b.cost().context_ms,
            0.000611 * llama3_kv / opt13b_kv
        ));
        assert!(close(
            Preset::A100Llama2_7b.cost().context_ms,
            0.000611 * llama2_kv / opt13b_kv
        ));
        assert!(close(
            Preset::H100Llama2_7b.cost().context_ms,
            0.000611 * llama2_kv / opt13b_kv * 2039.0 / 3350.0
        ));
    }
}
