//! What a learner chooses: the workload, the engine and the step-time
//! coefficients, and the one check that turns any value into either a
//! runnable simulation or a typed error naming the setting at fault.
//!
//! Every field is plain data (serde), so a page can keep it in a signal and
//! a worker can receive it in a message; [`crate::query`] writes it to and
//! reads it from the address bar. [`Settings::validate`] is the single
//! gate: the simulation never sees a value it has not passed.

use crate::preset::Preset;
use serde::{Deserialize, Serialize};
use std::fmt;
use ttft_latency::{Convention, Micros};

/// Tokens in one KV-cache block, as in vLLM and Vidur.
pub const BLOCK_TOKENS: u32 = 16;
/// Most requests one run may hold.
pub const MAX_REQUESTS: u32 = 1_000_000;
/// Longest prompt, in tokens.
pub const MAX_PROMPT: u32 = 1_000_000;
/// Longest output, in tokens.
pub const MAX_OUTPUT: u32 = 100_000;
/// Most request classes.
pub const MAX_CLASSES: usize = 8;
/// Longest class name, in characters.
pub const MAX_CLASS_NAME: usize = 40;
/// Longest duration, target or deadline: one day.
pub const MAX_TIME: Micros = Micros(86_400_000_000);

/// Everything one run depends on. The same settings give the same run, bit
/// for bit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Seed of every random draw.
    pub seed: u64,
    /// How many requests, or for how long.
    pub stop: Stop,
    /// When requests arrive.
    pub arrivals: Arrivals,
    /// How long their prompts and outputs are.
    pub lengths: Lengths,
    /// Tokens at the start of every prompt that are the same for all
    /// requests (a system prompt), which prefix caching can reuse.
    pub shared_prefix: u32,
    /// TTFT target when the lengths are not classes (classes carry their
    /// own).
    pub target: Micros,
    /// The serving engine.
    pub engine: Engine,
    /// How long a step takes.
    pub cost: StepCost,
    /// How percentiles are picked in the results.
    pub convention: Convention,
}

/// When a run stops taking requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum Stop {
    /// This many requests arrive; the run goes on until each has finished
    /// or been rejected.
    Requests(u32),
    /// Requests arrive for this long; the run stops at that instant, and
    /// requests not finished by then are reported as still running.
    Duration(Micros),
}

/// When requests arrive.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Arrivals {
    /// A Poisson process: independent exponential gaps, `rate` requests a
    /// second on average.
    Poisson { rate: f64 },
    /// Bursty: gamma-distributed gaps with mean `1 / rate` and coefficient
    /// of variation `cv` (1 is Poisson; above 1, bursts and lulls).
    Gamma { rate: f64, cv: f64 },
    /// The arrival times of an imported trace, sped up `speed` times.
    Replay { speed: f64 },
}

impl Arrivals {
    /// The mean arrival rate, when the settings state one.
    pub fn rate(&self) -> Option<f64> {
        match *self {
            Arrivals::Poisson { rate } | Arrivals::Gamma { rate, .. } => Some(rate),
            Arrivals::Replay { .. } => None,
        }
    }

    /// The same arrivals at another mean rate (replayed ones are unchanged).
    pub fn with_rate(self, rate: f64) -> Arrivals {
        match self {
            Arrivals::Poisson { .. } => Arrivals::Poisson { rate },
            Arrivals::Gamma { cv, .. } => Arrivals::Gamma { rate, cv },
            r @ Arrivals::Replay { .. } => r,
        }
    }
}

/// How long prompts and outputs are.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Lengths {
    /// Every request the same.
    Fixed { prompt: u32, output: u32 },
    /// Log-normal around a median, `spread` being the standard deviation of
    /// the logarithm (0.5 puts the middle two thirds within a factor of
    /// 1.65 of the median). Rounded to whole tokens, at least 1.
    LogNormal {
        prompt: u32,
        prompt_spread: f64,
        output: u32,
        output_spread: f64,
    },
    /// A mix of named classes, each with its share, lengths and target.
    Classes(Vec<Class>),
    /// The prompt and output lengths of an imported trace.
    Replay,
}

/// One kind of request in a mix: "hint, 700 tokens, 85%".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Class {
    /// Its name, as the results show it.
    pub name: String,
    /// Its share of requests, as a weight (the shares need not add to 100).
    pub share: f64,
    /// Prompt tokens.
    pub prompt: u32,
    /// Output tokens.
    pub output: u32,
    /// Its TTFT target.
    pub target: Micros,
}

/// The serving engine's scheduler and memory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Engine {
    /// Batch slots: most requests running at once (`max_num_seqs`).
    pub max_num_seqs: u32,
    /// Token budget per step (`max_num_batched_tokens`).
    pub max_num_batched_tokens: u32,
    /// Split a prompt over several steps to fit the budget. Off, a prompt
    /// is taken whole in one step, even past the budget (vLLM then requires
    /// the budget to cover the longest prompt).
    pub chunked_prefill: bool,
    /// With chunked prefill, the most prompt tokens one request takes in a
    /// step (vLLM's `long_prefill_token_threshold`); without it a prompt
    /// being prefilled takes all the budget the decodes leave, and the
    /// requests behind it wait until it is done.
    pub max_prefill_chunk: Option<u32>,
    /// Which work a step takes first.
    pub policy: Policy,
    /// KV-cache capacity, in tokens (whole 16-token blocks are used).
    pub kv_capacity: u64,
    /// Share of the blocks kept free when admitting a request (vLLM's
    /// watermark, 0.01 by default).
    pub watermark: f64,
    /// Reuse the shared prefix's blocks across requests.
    pub prefix_caching: bool,
    /// Most requests waiting; one more is rejected when it arrives.
    pub queue_limit: Option<u32>,
    /// A request still waiting this long after it arrived, never started, is
    /// rejected.
    pub deadline: Option<Micros>,
    /// The class whose requests are admitted first and preempted last.
    pub priority: Option<String>,
}

/// Which work a step takes first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Running requests first (their next token, or the next chunk of their
    /// prompt), then new prompts in what is left of the budget: vLLM's V1
    /// engine and Sarathi.
    #[default]
    DecodeFirst,
    /// New prompts first; a step that holds any prompt tokens holds no
    /// decodes: vLLM's V0 default scheduler, and Vidur's model of it.
    PrefillFirst,
}

impl Policy {
    /// The id used in the query string.
    pub fn id(self) -> &'static str {
        match self {
            Policy::DecodeFirst => "decode",
            Policy::PrefillFirst => "prefill",
        }
    }

    /// Plain name for a learner.
    pub fn label(self) -> &'static str {
        match self {
            Policy::DecodeFirst => "decode-first",
            Policy::PrefillFirst => "prefill-first",
        }
    }
}

/// How long one step takes, from what it holds:
///
/// `floor + per_token x tokens + attention x prompt context + context x decode context`
///
/// in milliseconds, where *tokens* counts every token the step processes
/// (prompt chunks and decodes), *prompt context* sums, over every prompt
/// token processed, the tokens it attends to (a chunk of n tokens after d
/// already computed reads n*d + n(n+1)/2), and *decode context* sums the
/// tokens each decode reads (its context plus itself). Rounded once to whole
/// microseconds, at least 1. `emit` is the time from a token's scores to
/// the token on the stream; it runs beside the engine and does not lengthen
/// the step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepCost {
    /// The preset these coefficients started from (the page shows its
    /// sources, and marks a coefficient that differs from it as edited).
    pub preset: Preset,
    pub floor_ms: f64,
    pub per_token_ms: f64,
    pub attention_ms: f64,
    pub context_ms: f64,
    pub emit_ms: f64,
}

impl StepCost {
    /// The step time in milliseconds, before rounding.
    pub fn step_ms(&self, tokens: f64, prompt_context: f64, decode_context: f64) -> f64 {
        self.floor_ms
            + self.per_token_ms * tokens
            + self.attention_ms * prompt_context
            + self.context_ms * decode_context
    }

    /// True when every coefficient is its preset's.
    pub fn is_preset(&self) -> bool {
        *self == self.preset.cost()
    }
}

impl Default for Settings {
    /// The page's starting point: the lesson's three classes on Llama 3 8B
    /// on an A100 with vLLM's defaults, at 1.5 requests a second (about
    /// 40% of the estimated capacity).
    fn default() -> Settings {
        Settings::for_preset(Preset::default())
    }
}

impl Settings {
    /// True when the run needs an imported trace (replayed arrivals or
    /// lengths).
    pub fn replays(&self) -> bool {
        matches!(self.arrivals, Arrivals::Replay { .. }) || matches!(self.lengths, Lengths::Replay)
    }

    /// The default workload on `preset`, with its KV capacity and vLLM's
    /// default limits there.
    pub fn for_preset(preset: Preset) -> Settings {
        let (max_num_seqs, max_num_batched_tokens) = preset.limits();
        Settings {
            seed: 1,
            stop: Stop::Requests(2_000),
            arrivals: Arrivals::Poisson { rate: 1.5 },
            lengths: Lengths::Classes(default_classes()),
            shared_prefix: 0,
            target: Micros::from_ms(1_000),
            engine: Engine {
                max_num_seqs,
                max_num_batched_tokens,
                chunked_prefill: true,
                max_prefill_chunk: None,
                policy: Policy::DecodeFirst,
                kv_capacity: preset.kv_capacity(),
                watermark: 0.01,
                prefix_caching: true,
                queue_limit: None,
                deadline: None,
                priority: None,
            },
            cost: preset.cost(),
            convention: Convention::Linear,
        }
    }

    /// The classes requests are reported under: the mix, or one class
    /// called "all" with [`Settings::target`].
    pub fn classes(&self) -> Vec<Class> {
        match &self.lengths {
            Lengths::Classes(c) => c.clone(),
            Lengths::Fixed { prompt, output } => vec![Class {
                name: "all".into(),
                share: 100.0,
                prompt: *prompt,
                output: *output,
                target: self.target,
            }],
            Lengths::LogNormal { prompt, output, .. } => vec![Class {
                name: "all".into(),
                share: 100.0,
                prompt: *prompt,
                output: *output,
                target: self.target,
            }],
            Lengths::Replay => vec![Class {
                name: "trace".into(),
                share: 100.0,
                prompt: 0,
                output: 0,
                target: self.target,
            }],
        }
    }

    /// True when the run needs an imported trace.
    pub fn needs_trace(&self) -> bool {
        matches!(self.arrivals, Arrivals::Replay { .. }) || matches!(self.lengths, Lengths::Replay)
    }

    /// Checks every value; the first one out of range is the error.
    pub fn validate(&self) -> Result<(), SettingsError> {
        match self.stop {
            Stop::Requests(n) => int_range(Setting::Requests, n as u64, 1, MAX_REQUESTS as u64)?,
            Stop::Duration(d) => time_range(Setting::Duration, d)?,
        }
        match self.arrivals {
            Arrivals::Poisson { rate } => float_range(Setting::Rate, rate, 1e-6, 1e5)?,
            Arrivals::Gamma { rate, cv } => {
                float_range(Setting::Rate, rate, 1e-6, 1e5)?;
                float_range(Setting::Cv, cv, 0.1, 10.0)?;
            }
            Arrivals::Replay { speed } => float_range(Setting::Speed, speed, 0.01, 100.0)?,
        }
        if let (Stop::Duration(d), Some(rate)) = (self.stop, self.arrivals.rate()) {
            let expected = rate * d.as_secs_f64();
            if expected > MAX_REQUESTS as f64 {
                return Err(SettingsError::new(
                    Setting::Duration,
                    crate::query::ms_text(d),
                    Problem::Invalid(format!(
                        "at {} requests a second that is about {} requests; a run holds at most {}",
                        crate::query::float_text(rate),
                        group(expected as u64),
                        group(MAX_REQUESTS as u64)
                    )),
                ));
            }
        }
        match &self.lengths {
            Lengths::Fixed { prompt, output } => {
                int_range(Setting::Prompt, *prompt as u64, 1, MAX_PROMPT as u64)?;
                int_range(Setting::Output, *output as u64, 1, MAX_OUTPUT as u64)?;
            }
            Lengths::LogNormal {
                prompt,
                prompt_spread,
                output,
                output_spread,
            } => {
                int_range(Setting::Prompt, *prompt as u64, 1, MAX_PROMPT as u64)?;
                float_range(Setting::PromptSpread, *prompt_spread, 0.0, 3.0)?;
                int_range(Setting::Output, *output as u64, 1, MAX_OUTPUT as u64)?;
                float_range(Setting::OutputSpread, *output_spread, 0.0, 3.0)?;
            }
            Lengths::Classes(classes) => validate_classes(classes)?,
            Lengths::Replay => {}
        }
        int_range(
            Setting::SharedPrefix,
            self.shared_prefix as u64,
            0,
            MAX_PROMPT as u64,
        )?;
        time_range(Setting::Target, self.target)?;
        let e = &self.engine;
        int_range(Setting::MaxNumSeqs, e.max_num_seqs as u64, 1, 65_536)?;
        int_range(Setting::Budget, e.max_num_batched_tokens as u64, 1, 1 << 20)?;
        if let Some(c) = e.max_prefill_chunk {
            int_range(Setting::PrefillChunk, c as u64, 1, 1 << 20)?;
        }
        int_range(
            Setting::KvCapacity,
            e.kv_capacity,
            BLOCK_TOKENS as u64,
            100_000_000,
        )?;
        float_range(Setting::Watermark, e.watermark, 0.0, 0.5)?;
        if let Some(q) = e.queue_limit {
            int_range(Setting::QueueLimit, q as u64, 1, 10_000_000)?;
        }
        if let Some(d) = e.deadline {
            time_range(Setting::Deadline, d)?;
        }
        if let Some(p) = &e.priority {
            let names: Vec<String> = self.classes().into_iter().map(|c| c.name).collect();
            if !names.iter().any(|n| n == p) {
                return Err(SettingsError::new(
                    Setting::Priority,
                    p.clone(),
                    Problem::NotAChoice(names.join(", ")),
                ));
            }
        }
        let c = &self.cost;
        float_range(Setting::Floor, c.floor_ms, 0.0, 10_000.0)?;
        float_range(Setting::PerToken, c.per_token_ms, 0.0, 1_000.0)?;
        float_range(Setting::Attention, c.attention_ms, 0.0, 1.0)?;
        float_range(Setting::Context, c.context_ms, 0.0, 1.0)?;
        float_range(Setting::Emit, c.emit_ms, 0.0, 10_000.0)?;
        Ok(())
    }
}

/// The lesson's mix: short hints, some long logs, a few full histories.
pub fn default_classes() -> Vec<Class> {
    vec![
        Class {
            name: "hint".into(),
            share: 85.0,
            prompt: 700,
            output: 120,
            target: Micros::from_ms(1_000),
        },
        Class {
            name: "long log".into(),
            share: 10.0,
            prompt: 6_000,
            output: 250,
            target: Micros::from_ms(3_000),
        },
        Class {
            name: "full history".into(),
            share: 5.0,
            prompt: 18_000,
            output: 400,
            target: Micros::from_ms(8_000),
        },
    ]
}

fn validate_classes(classes: &[Class]) -> Result<(), SettingsError> {
    let bad = |i: usize, c: &Class, given: String, why: String| {
        Err(SettingsError::new(
            Setting::Classes,
            given,
            Problem::Invalid(format!("class {} ({}): {why}", i + 1, c.name)),
        ))
    };
    if classes.is_empty() || classes.len() > MAX_CLASSES {
        return Err(SettingsError::new(
            Setting::Classes,
            classes.len().to_string(),
            Problem::Invalid(format!("give 1 to {MAX_CLASSES} classes")),
        ));
    }
    for (i, c) in classes.iter().enumerate() {
        let name = c.name.trim();
        if name.is_empty() || name != c.name || c.name.chars().count() > MAX_CLASS_NAME {
            return bad(
                i,
                c,
                c.name.clone(),
                format!("a name is 1 to {MAX_CLASS_NAME} characters, without spaces at either end"),
            );
        }
        if c.name.chars().any(char::is_control) {
            return bad(
                i,
                c,
                c.name.clone(),
                "a name cannot hold control characters".into(),
            );
        }
        if classes[..i].iter().any(|o| o.name == c.name) {
            return bad(i, c, c.name.clone(), "two classes have this name".into());
        }
        if !(c.share > 0.0 && c.share <= 1e6) {
            return bad(
                i,
                c,
                crate::query::float_text(c.share),
                "a share is above 0 and at most 1,000,000".into(),
            );
        }
        if c.prompt == 0 || c.prompt > MAX_PROMPT {
            return bad(
                i,
                c,
                c.prompt.to_string(),
                format!("a prompt is 1 to {} tokens", group(MAX_PROMPT as u64)),
            );
        }
        if c.output == 0 || c.output > MAX_OUTPUT {
            return bad(
                i,
                c,
                c.output.to_string(),
                format!("an output is 1 to {} tokens", group(MAX_OUTPUT as u64)),
            );
        }
        if c.target <= Micros::ZERO || c.target > MAX_TIME {
            return bad(
                i,
                c,
                crate::query::ms_text(c.target),
                "a target is above 0 and at most a day (86,400,000 ms)".into(),
            );
        }
    }
    Ok(())
}

fn int_range(setting: Setting, v: u64, min: u64, max: u64) -> Result<(), SettingsError> {
    if v < min || v > max {
        return Err(SettingsError::new(
            setting,
            v.to_string(),
            Problem::OutOfRange {
                min: group(min),
                max: group(max),
            },
        ));
    }
    Ok(())
}

fn float_range(setting: Setting, v: f64, min: f64, max: f64) -> Result<(), SettingsError> {
    if !(v >= min && v <= max) {
        return Err(SettingsError::new(
            setting,
            crate::query::float_text(v),
            Problem::OutOfRange {
                min: crate::query::float_text(min),
                max: crate::query::float_text(max),
            },
        ));
    }
    Ok(())
}

fn time_range(setting: Setting, v: Micros) -> Result<(), SettingsError> {
    if v <= Micros::ZERO || v > MAX_TIME {
        return Err(SettingsError::new(
            setting,
            format!("{} ms", crate::query::ms_text(v)),
            Problem::OutOfRange {
                min: "just above 0 ms".into(),
                max: "86,400,000 ms (a day)".into(),
            },
        ));
    }
    Ok(())
}

/// `1234567` as `1,234,567`.
pub(crate) fn group(n: u64) -> String {
    ttft_latency::time::group_thousands(n)
}

/// One setting, named in errors so the page can show the message beside
/// its control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Setting {
    Version,
    Seed,
    Requests,
    Duration,
    Arrivals,
    Rate,
    Cv,
    Speed,
    Lengths,
    Prompt,
    Output,
    PromptSpread,
    OutputSpread,
    Classes,
    SharedPrefix,
    Target,
    MaxNumSeqs,
    Budget,
    ChunkedPrefill,
    PrefillChunk,
    Policy,
    KvCapacity,
    Watermark,
    PrefixCaching,
    QueueLimit,
    Deadline,
    Priority,
    Preset,
    Floor,
    PerToken,
    Attention,
    Context,
    Emit,
    Convention,
    /// The imported trace a replay needs.
    Trace,
}

impl Setting {
    /// Every setting, in the order the query string writes them.
    pub const ALL: [Setting; 35] = [
        Setting::Version,
        Setting::Seed,
        Setting::Requests,
        Setting::Duration,
        Setting::Arrivals,
        Setting::Rate,
        Setting::Cv,
        Setting::Speed,
        Setting::Lengths,
        Setting::Prompt,
        Setting::Output,
        Setting::PromptSpread,
        Setting::OutputSpread,
        Setting::Classes,
        Setting::SharedPrefix,
        Setting::Target,
        Setting::MaxNumSeqs,
        Setting::Budget,
        Setting::ChunkedPrefill,
        Setting::PrefillChunk,
        Setting::Policy,
        Setting::KvCapacity,
        Setting::Watermark,
        Setting::PrefixCaching,
        Setting::QueueLimit,
        Setting::Deadline,
        Setting::Priority,
        Setting::Preset,
        Setting::Floor,
        Setting::PerToken,
        Setting::Attention,
        Setting::Context,
        Setting::Emit,
        Setting::Convention,
        Setting::Trace,
    ];

    /// Its key in the query string.
    pub fn key(self) -> &'static str {
        match self {
            Setting::Version => "sim",
            Setting::Seed => "seed",
            Setting::Requests => "n",
            Setting::Duration => "dur_ms",
            Setting::Arrivals => "arr",
            Setting::Rate => "rate",
            Setting::Cv => "cv",
            Setting::Speed => "speed",
            Setting::Lengths => "len",
            Setting::Prompt => "in",
            Setting::Output => "out",
            Setting::PromptSpread => "in_sd",
            Setting::OutputSpread => "out_sd",
            Setting::Classes => "cls",
            Setting::SharedPrefix => "prefix",
            Setting::Target => "target_ms",
            Setting::MaxNumSeqs => "seqs",
            Setting::Budget => "budget",
            Setting::ChunkedPrefill => "chunked",
            Setting::PrefillChunk => "chunk",
            Setting::Policy => "policy",
            Setting::KvCapacity => "kv",
            Setting::Watermark => "wm",
            Setting::PrefixCaching => "cache",
            Setting::QueueLimit => "qlimit",
            Setting::Deadline => "deadline_ms",
            Setting::Priority => "prio",
            Setting::Preset => "hw",
            Setting::Floor => "floor_ms",
            Setting::PerToken => "tok_ms",
            Setting::Attention => "attn_ms",
            Setting::Context => "ctx_ms",
            Setting::Emit => "emit_ms",
            Setting::Convention => "pct",
            Setting::Trace => "trace",
        }
    }

    /// Plain name for a learner.
    pub fn label(self) -> &'static str {
        match self {
            Setting::Version => "settings version",
            Setting::Seed => "seed",
            Setting::Requests => "request count",
            Setting::Duration => "duration (ms)",
            Setting::Arrivals => "arrivals",
            Setting::Rate => "arrival rate (requests a second)",
            Setting::Cv => "burstiness (coefficient of variation of the gaps)",
            Setting::Speed => "replay speed",
            Setting::Lengths => "lengths",
            Setting::Prompt => "prompt length (tokens)",
            Setting::Output => "output length (tokens)",
            Setting::PromptSpread => "prompt length spread",
            Setting::OutputSpread => "output length spread",
            Setting::Classes => "request classes",
            Setting::SharedPrefix => "shared prefix (tokens)",
            Setting::Target => "TTFT target (ms)",
            Setting::MaxNumSeqs => "batch slots (max_num_seqs)",
            Setting::Budget => "token budget per step (max_num_batched_tokens)",
            Setting::ChunkedPrefill => "chunked prefill",
            Setting::PrefillChunk => {
                "longest prompt chunk per request (long_prefill_token_threshold)"
            }
            Setting::Policy => "scheduling order",
            Setting::KvCapacity => "KV-cache capacity (tokens)",
            Setting::Watermark => "KV watermark (share of blocks kept free)",
            Setting::PrefixCaching => "prefix caching",
            Setting::QueueLimit => "queue limit",
            Setting::Deadline => "waiting deadline (ms)",
            Setting::Priority => "priority class",
            Setting::Preset => "hardware preset",
            Setting::Floor => "step floor (ms)",
            Setting::PerToken => "cost per token (ms)",
            Setting::Attention => "attention cost (ms per prompt token x context token)",
            Setting::Context => "context-read cost (ms per context token a decode reads)",
            Setting::Emit => "emit time (ms)",
            Setting::Convention => "percentile convention",
            Setting::Trace => "imported trace",
        }
    }

    /// The setting whose query key is `key`.
    pub fn from_key(key: &str) -> Option<Setting> {
        Setting::ALL.into_iter().find(|s| s.key() == key)
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// What is wrong with a value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "detail")]
pub enum Problem {
    /// Not a number of the kind the setting takes.
    NotANumber,
    /// A number outside the setting's range.
    OutOfRange { min: String, max: String },
    /// Not one of the setting's choices (listed).
    NotAChoice(String),
    /// Cannot be given together with this other setting.
    Conflict(Setting),
    /// Written by a newer version of the page.
    NewerVersion,
    /// A replay was asked for but no trace was given.
    NeedsTrace,
    /// Anything else, in words.
    Invalid(String),
}

/// A setting that cannot be used, the value as given, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingsError {
    pub setting: Setting,
    pub given: String,
    pub problem: Problem,
}

impl SettingsError {
    pub fn new(setting: Setting, given: impl Into<String>, problem: Problem) -> SettingsError {
        SettingsError {
            setting,
            given: given.into(),
            problem,
        }
    }
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let SettingsError {
            setting,
            given,
            problem,
        } = self;
        let key = setting.key();
        match problem {
            Problem::NotANumber => write!(f, "{setting} ({key}): {given:?} is not a number it can take"),
            Problem::OutOfRange { min, max } => {
                write!(f, "{setting} ({key}): {given} is out of range; use {min} to {max}")
            }
            Problem::NotAChoice(choices) => {
                write!(f, "{setting} ({key}): {given:?} is not one of {choices}")
            }
            Problem::Conflict(other) => write!(
                f,
                "{setting} ({key}) and {other} ({}) cannot both be given; keep one",
                other.key()
            ),
            Problem::NewerVersion => write!(
                f,
                "{setting} ({key}): these settings were written by a newer version ({given}); this page reads version {}",
                crate::query::VERSION
            ),
            Problem::NeedsTrace => write!(
                f,
                "{setting}: {given} replays an imported trace; import one first, or choose generated arrivals and lengths"
            ),
            Problem::Invalid(why) => write!(f, "{setting} ({key}): {why}"),
        }
    }
}

impl std::error::Error for SettingsError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_on_every_preset() {
        for p in Preset::ALL {
            Settings::for_preset(p).validate().unwrap();
        }
        assert!(Settings::default().cost.is_preset());
    }

    #[test]
    fn errors_name_the_setting_and_its_key() {
        let mut s = Settings::default();
        s.engine.max_num_seqs = 0;
        let e = s.validate().unwrap_err();
        assert_eq!(e.setting, Setting::MaxNumSeqs);
        assert_eq!(
            e.to_string(),
            "batch slots (max_num_seqs) (seqs): 0 is out of range; use 1 to 65,536"
        );
        let mut s = Settings::default();
        s.cost.floor_ms = f64::NAN;
        assert_eq!(
            s.validate().unwrap_err().to_string(),
            "step floor (ms) (floor_ms): NaN is out of range; use 0 to 10000"
        );
        let mut s = Settings::default();
        s.engine.priority = Some("vip".into());
        assert_eq!(
            s.validate().unwrap_err().to_string(),
            "priority class (prio): \"vip\" is not one of hint, long log, full history"
        );
        let mut s = Settings::default();
        if let Lengths::Classes(c) = &mut s.lengths {
            c[1].name = "hint".into();
        }
        assert_eq!(
            s.validate().unwrap_err().to_string(),
            "request classes (cls): class 2 (hint): two classes have this name"
        );
        let s = Settings {
            stop: Stop::Duration(Micros::from_ms(86_400_000)),
            arrivals: Arrivals::Poisson { rate: 100.0 },
            ..Settings::default()
        };
        assert_eq!(
            s.validate().unwrap_err().to_string(),
            "duration (ms) (dur_ms): at 100 requests a second that is about 8,640,000 requests; a run holds at most 1,000,000"
        );
    }

    #[test]
    fn keys_are_unique() {
        for (i, a) in Setting::ALL.iter().enumerate() {
            assert_eq!(Setting::from_key(a.key()), Some(*a));
            assert_eq!(*a as usize, i, "ALL is in declaration order");
            for b in &Setting::ALL[i + 1..] {
                assert_ne!(a.key(), b.key());
            }
        }
    }
}
