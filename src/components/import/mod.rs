//! The "Import a trace" part: a learner's own trace file, read in the
//! browser and split as far as its format allows.
//!
//! `import_page` owns the state and lays the part out; `drop_zone` is the
//! input (picker, drop zone, paste box, example); `slices` sends a `File`
//! slice by slice to the trace reader (a worker, `crate::worker::import`)
//! and offers the CSV download;
//! `import_summary` shows percentiles, outcomes, largest delays and the
//! reading; `import_charts` draws the three charts; `results_table` is the
//! sortable, paged per-request table. What this module deliberately does
//! not do: parse formats or compute figures (`ttft_import` and `ttft_core`
//! do), or send the file anywhere.

pub mod drop_zone;
pub mod import_charts;
pub mod import_page;
pub mod import_summary;
pub mod results_table;
pub mod slices;
