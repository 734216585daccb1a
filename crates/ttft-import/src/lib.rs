//! ttft-import: reads the trace and benchmark files that real LLM serving
//! tools write, and splits each request's time to first token only as far as
//! the file can support.
//!
//! Entry points, in the order a page uses them:
//! - [`detect`] tells the [`Format`] from the first slice of a file (never
//!   from its name), or returns [`UnknownFormat`] listing what is supported.
//! - [`Format::capability`] says in plain words what that format can and
//!   cannot split (a client's TTFT includes the network and the queue).
//! - [`Importer`] takes the file in slices (`feed`, then `finish`) so a page
//!   can show progress and cancel on a 200 MB file; [`import`] and
//!   [`parse_document`] do it in one call.
//! - The [`Import`] holds each [`ImportedRequest`] with a [`Breakdown`], any
//!   run [`RunSummary`] the file states, and every skipped line or record as
//!   a [`Problem`] with its line number or JSON path.
//! - [`report`] gives a page the rest of what it shows: standing against a
//!   target, sorting, percentiles of every piece, a histogram, a reading.
//! - [`export::to_csv`] writes the per-request split.
//!
//! Architecture invariant: this crate depends on `ttft-latency` (the split,
//! percentiles, summaries) and on nothing of the course (`ttft-core`). Like
//! it, it has no browser dependency and does no I/O. It never panics on file
//! input, never invents a split the data does not hold, and never lets an
//! error's zero latency pass for a fast request.

pub mod aiperf;
pub mod csv;
pub mod export;
pub mod field;
pub mod format;
pub mod genai_perf;
pub mod guidellm;
pub mod importer;
pub mod jaeger;
pub mod llmperf;
pub mod model;
pub mod otlp;
pub mod read;
pub mod report;
pub mod sglang;
pub mod tool_summary;
pub mod vllm_bench;

pub use format::{Capability, Format, Layout, UnknownFormat};
pub use importer::{detect, import, parse_document, Importer, Progress};
pub use model::{
    Breakdown, Clock, Figure, ImportedRequest, Largest, Location, Piece, Prefill,
    PrefillConvention, Problem, Quantity, RunSummary,
};
pub use read::{Import, MAX_PROBLEMS};
pub use ttft_latency::OutcomeCounts;
