//! Which tool wrote a file, told from its content, and what that tool's
//! files can and cannot say.
//!
//! Each [`Format`] carries a [`Capability`]: the plain words the page shows
//! before any number, because what a source can split is itself part of the
//! lesson. Telling the format from a file's first bytes is
//! [`detect`](crate::detect), in `importer`, beside the readers it picks
//! between.
//!
//! This module does not parse records or look at files; the per-format
//! modules do that.

use crate::model::{Clock, PrefillConvention};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A trace or benchmark format this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// vLLM's `llm_request` spans as OTLP JSON (an OpenTelemetry Collector's
    /// file exporter: one `{"resourceSpans": [...]}` a line, or one document).
    VllmOtlp,
    /// vLLM's `llm_request` spans in Jaeger's JSON export.
    VllmJaeger,
    /// vLLM `bench serve` / `benchmark_serving.py --save-result` JSON.
    VllmBench,
    /// SGLang `bench_serving` JSONL (one run a line; per-request arrays with
    /// `--output-details`).
    SglangBench,
    /// AIPerf `profile_export.jsonl`, one record a line.
    AiperfRecords,
    /// AIPerf `profile_export_aiperf.json`: run aggregates only.
    AiperfAggregate,
    /// GenAI-Perf / perf_analyzer `profile_export.json`.
    GenaiPerf,
    /// LLMPerf `*_individual_responses.json`.
    LlmPerf,
    /// GuideLLM `benchmarks.json`.
    GuideLlm,
    /// A plain CSV, one row a request (columns in the crate README).
    Csv,
}

/// How a format is laid out, which decides how the importer consumes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// One record a line: read slice by slice, each line as it completes.
    Lines,
    /// One JSON document: slices are gathered and read at the end.
    Document,
}

impl Format {
    /// Every format, in the order the page lists them.
    pub const ALL: [Format; 10] = [
        Format::VllmOtlp,
        Format::VllmJaeger,
        Format::VllmBench,
        Format::SglangBench,
        Format::AiperfRecords,
        Format::AiperfAggregate,
        Format::GenaiPerf,
        Format::LlmPerf,
        Format::GuideLlm,
        Format::Csv,
    ];

    /// The name the page shows.
    pub fn name(self) -> &'static str {
        match self {
            Format::VllmOtlp => "vLLM OpenTelemetry spans (OTLP JSON)",
            Format::VllmJaeger => "vLLM OpenTelemetry spans (Jaeger JSON)",
            Format::VllmBench => "vLLM bench serve result (JSON)",
            Format::SglangBench => "SGLang bench_serving result (JSONL)",
            Format::AiperfRecords => "AIPerf per-request records (profile_export.jsonl)",
            Format::AiperfAggregate => "AIPerf aggregate (profile_export_aiperf.json)",
            Format::GenaiPerf => "GenAI-Perf / perf_analyzer export (profile_export.json)",
            Format::LlmPerf => "LLMPerf individual responses (JSON)",
            Format::GuideLlm => "GuideLLM benchmarks (JSON)",
            Format::Csv => "CSV, one row a request",
        }
    }

    /// The longest line a line format reads, in bytes. A longer line is
    /// reported by number and skipped without being held, so one endless
    /// line cannot take the page's memory. A CSV row is short; an OTLP line
    /// holds a whole batch of spans, so its limit is larger.
    pub fn max_line_bytes(self) -> usize {
        match self {
            Format::Csv => 1 << 20,
            _ => 64 << 20,
        }
    }

    /// The largest file of a document format (and of a line format that
    /// turns out to be one pretty-printed document), in bytes. Such a file
    /// is held whole as text and then as a JSON tree of several times its
    /// size, so beyond this the import stops with a message naming the
    /// limit instead of running out of memory.
    pub fn max_document_bytes(self) -> usize {
        256 << 20
    }

    /// How the importer consumes it.
    pub fn layout(self) -> Layout {
        match self {
            Format::VllmOtlp | Format::SglangBench | Format::AiperfRecords | Format::Csv => {
                Layout::Lines
            }
            _ => Layout::Document,
        }
    }

    /// What this format can and cannot split.
    pub fn capability(self) -> Capability {
        let client = |text: &'static str, per_request: bool| Capability {
            clock: Some(Clock::Client),
            splits_queue: false,
            prefill: None,
            separates_emit: false,
            per_request,
            text,
        };
        match self {
            Format::VllmOtlp | Format::VllmJaeger => Capability {
                clock: Some(Clock::Server),
                splits_queue: true,
                prefill: Some(PrefillConvention::IncludesEmit),
                separates_emit: false,
                per_request: true,
                text: "These spans are written by the vLLM server itself, so the clock starts when the \
                       request reaches the server and the network is not in them. They split queue wait from \
                       prefill. vLLM's prefill ends when the first token is output, so it already holds emit, \
                       which cannot be separated. What vLLM's TTFT holds beyond queue and prefill (time before \
                       the engine's queue, hand-offs between processes) is shown as its own unattributed part.",
            },
            Format::VllmBench => client(
                "This file is written by a benchmark client: its TTFT starts when the client sends the request, \
                 so it includes the network and the server's queue. It cannot be split into queue wait, prefill \
                 and emit. It has no start times, so no timeline either.",
                true,
            ),
            Format::SglangBench => client(
                "This file is written by a benchmark client: its TTFT includes the network and the server's \
                 queue and cannot be split. Per-request figures are present only when the run used \
                 --output-details; otherwise only the run's summary is.",
                true,
            ),
            Format::AiperfRecords => client(
                "This file is written by a benchmark client: its TTFT includes the network and the server's \
                 queue and cannot be split. Cancelled requests carry no latencies and are counted apart.",
                true,
            ),
            Format::AiperfAggregate => client(
                "This file holds only a run's aggregate figures, measured by a benchmark client: there are no \
                 per-request records to split or to chart.",
                false,
            ),
            Format::GenaiPerf => client(
                "This file is written by a benchmark client: each request's send time and response times, so \
                 TTFT includes the network and the server's queue and cannot be split. It does not count \
                 tokens per response, so no output rate.",
                true,
            ),
            Format::LlmPerf => client(
                "This file is written by a benchmark client: its TTFT includes the network and the server's \
                 queue and cannot be split. Rate-limited requests show a TTFT of 0: they are errors, not fast \
                 requests, and are kept out of every latency figure.",
                true,
            ),
            Format::GuideLlm => client(
                "This file is written by a benchmark client: its TTFT includes the network and the server's \
                 queue and cannot be split. Its queued and dequeued times are the client's own queue before \
                 sending, not the server's queue wait, so they are not shown as one.",
                true,
            ),
            Format::Csv => Capability {
                clock: Some(Clock::Server),
                splits_queue: true,
                prefill: Some(PrefillConvention::Course),
                separates_emit: true,
                per_request: true,
                text: "This file states each request's server-side events or phase durations, so its TTFT splits \
                       into queue wait, prefill and emit. Where a stated TTFT differs from the parts, the \
                       difference is shown as its own unattributed part.",
            },
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a format can and cannot say, for the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capability {
    /// Where its clock is, when it has per-request timings.
    pub clock: Option<Clock>,
    /// True when it separates the server's queue wait.
    pub splits_queue: bool,
    /// Its prefill convention, when it states a prefill.
    pub prefill: Option<PrefillConvention>,
    /// True when emit is its own figure.
    pub separates_emit: bool,
    /// True when it holds per-request records.
    pub per_request: bool,
    /// The same in plain words.
    pub text: &'static str,
}

/// A file whose content matches no supported format.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnknownFormat {
    /// What the start of the file looked like, in a few words.
    pub seen: String,
}

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "This file's format is not recognised ({}). Supported: ",
            self.seen
        )?;
        for (i, format) in Format::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            f.write_str(format.name())?;
        }
        f.write_str(".")
    }
}

impl std::error::Error for UnknownFormat {}
