//! Driving an import: the result type, the incremental [`Importer`] a browser
//! feeds slice by slice, and one-call [`import`] / [`parse_document`].
//!
//! Why incremental: a learner may drop a 200 MB trace on the page, and the
//! page must keep answering, show progress and let them cancel. The page
//! reads the file in slices (say 1 MiB), decodes each to text, calls
//! [`Importer::feed`], updates a progress bar from [`Importer::progress`],
//! yields to the event loop, and calls [`Importer::finish`] at the end.
//! Cancelling is dropping the importer. Line formats (OTLP JSONL, AIPerf,
//! SGLang, CSV) are read line by line as they arrive; single-document JSON
//! formats are gathered and read once at the end, because a JSON document
//! has no safe place to cut it.
//!
//! Leniency: a line or record that cannot be read becomes a [`Problem`] with
//! its line number or JSON path, and the rest of the file is still imported.
//!
//! This module knows no format's fields; the per-format modules do.

use crate::format::{detect, Capability, Format, Layout, UnknownFormat};
use crate::model::{Clock, ImportedRequest, Location, PrefillConvention, Problem, RunSummary};
use crate::{aiperf, csv, genai_perf, guidellm, jaeger, llmperf, otlp, sglang, vllm_bench};
use serde::{Deserialize, Serialize};
use ttft_latency::{summarise, Convention, Micros, Observation, Outcome, Summary, TtftSplit};

/// Most problems kept in a result; beyond this they are only counted, so a
/// file of garbage cannot fill the page's memory with messages.
pub const MAX_PROBLEMS: usize = 1_000;

/// Everything read from one file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Import {
    /// The format it was read as.
    pub format: Format,
    /// Its requests, in file order.
    pub requests: Vec<ImportedRequest>,
    /// The figures it states about whole runs, if any.
    pub summaries: Vec<RunSummary>,
    /// What could not be read and was skipped (at most [`MAX_PROBLEMS`]).
    pub problems: Vec<Problem>,
    /// Problems beyond [`MAX_PROBLEMS`], counted but not listed.
    pub problems_not_listed: usize,
    /// Records that are valid but are not requests (other spans in a trace).
    pub ignored_records: usize,
}

/// Requests by how they ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// All requests.
    pub total: usize,
    /// Completed normally.
    pub completed: usize,
    /// Failed after being accepted.
    pub failed: usize,
    /// Refused at the door (such as HTTP 429).
    pub rejected: usize,
    /// Cancelled by the client.
    pub cancelled: usize,
}

impl Import {
    /// An empty result for `format`.
    pub fn new(format: Format) -> Import {
        Import {
            format,
            requests: Vec::new(),
            summaries: Vec::new(),
            problems: Vec::new(),
            problems_not_listed: 0,
            ignored_records: 0,
        }
    }

    /// What the format can and cannot split, in plain words for the page.
    pub fn capability(&self) -> Capability {
        self.format.capability()
    }

    /// Records a problem, or counts it once the list is full.
    pub fn problem(&mut self, location: Location, message: impl Into<String>) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(Problem { location, message: message.into() });
        } else {
            self.problems_not_listed += 1;
        }
    }

    /// Requests by outcome.
    pub fn counts(&self) -> Counts {
        let mut c = Counts { total: self.requests.len(), ..Counts::default() };
        for r in &self.requests {
            match r.outcome {
                Outcome::Completed => c.completed += 1,
                Outcome::Failed => c.failed += 1,
                Outcome::Rejected => c.rejected += 1,
                Outcome::Cancelled => c.cancelled += 1,
            }
        }
        c
    }

    /// True when the file holds run figures but no per-request records.
    pub fn summary_only(&self) -> bool {
        self.requests.is_empty() && !self.summaries.is_empty()
    }

    /// Each request as the core's summary sees it. Only a course-style split
    /// whose parts add up to its TTFT (no unattributed remainder) is handed
    /// over with its three parts; every other request with a TTFT enters as
    /// TTFT only, because the core's split has no place for vLLM's
    /// prefill-with-emit or a remainder, and inventing one would be wrong.
    /// Requests without a TTFT (errors, cancellations) enter with none.
    pub fn observations(&self) -> Vec<Observation> {
        self.requests.iter().map(observation).collect()
    }

    /// The core's summary of this file's requests (percentiles, outcomes,
    /// dominant delays where split), against `target` when given.
    pub fn summarise(&self, target: Option<Micros>, convention: Convention) -> Summary {
        summarise(&self.observations(), target, convention)
    }

    /// All problems, listed and not, for a count on the page.
    pub fn problem_count(&self) -> usize {
        self.problems.len() + self.problems_not_listed
    }
}

fn observation(r: &ImportedRequest) -> Observation {
    let b = &r.breakdown;
    let course_split = match (b.clock, b.queue_wait, b.prefill, b.emit, b.unattributed) {
        (Clock::Server, Some(q), Some(p), Some(e), None | Some(Micros::ZERO)) if p.convention == PrefillConvention::Course => {
            Some(TtftSplit { queue_wait: q, prefill: p.duration, emit: e })
        }
        _ => None,
    };
    match (course_split, b.ttft) {
        (Some(parts), _) => Observation { outcome: r.outcome, ttft: Some(parts.ttft()), parts: Some(parts) },
        (None, Some(t)) => Observation::ttft_only(r.outcome, t),
        (None, None) => Observation::unsplit(r.outcome),
    }
}

/// How far an import has got, for a progress bar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Bytes of text fed so far (UTF-8).
    pub bytes: u64,
    /// Complete lines read so far (0 while a document is being gathered).
    pub lines: usize,
    /// Requests imported so far.
    pub requests: usize,
    /// Problems found so far.
    pub problems: usize,
}

/// Per-format state kept between lines.
enum LineState {
    Otlp,
    Aiperf,
    Sglang(sglang::State),
    Csv(Option<csv::Columns>),
    /// A document format: nothing is read until the end.
    Gather,
}

/// An import in progress. Feed it text in slices of any size (a slice may
/// end in the middle of a line), then finish it.
pub struct Importer {
    import: Import,
    state: LineState,
    /// Text not yet read: an unfinished line, or a whole gathered document.
    pending: String,
    /// Lines read so far; the next line's number is `lines + 1`.
    lines: usize,
    bytes: u64,
    /// Set when a line format turned out to be one pretty-printed document.
    gathering: bool,
    /// Whether a non-blank line has been seen (to spot a pretty document).
    seen_content: bool,
    /// The line number where an unfinished quoted CSV row began.
    csv_row_start: Option<usize>,
    /// That unfinished row's text so far.
    csv_row: String,
}

impl Importer {
    /// Starts an import of a file already known to be `format`.
    pub fn new(format: Format) -> Importer {
        let state = match format {
            Format::VllmOtlp => LineState::Otlp,
            Format::AiperfRecords => LineState::Aiperf,
            Format::SglangBench => LineState::Sglang(sglang::State::default()),
            Format::Csv => LineState::Csv(None),
            _ => LineState::Gather,
        };
        let gathering = format.layout() == Layout::Document;
        Importer {
            import: Import::new(format),
            state,
            pending: String::new(),
            lines: 0,
            bytes: 0,
            gathering,
            seen_content: false,
            csv_row_start: None,
            csv_row: String::new(),
        }
    }

    /// Detects the format from the first slice and starts an import.
    pub fn detect(first_slice: &str) -> Result<Importer, UnknownFormat> {
        detect(first_slice).map(Importer::new)
    }

    /// The format being read.
    pub fn format(&self) -> Format {
        self.import.format
    }

    /// How far the import has got.
    pub fn progress(&self) -> Progress {
        Progress {
            bytes: self.bytes,
            lines: self.lines,
            requests: self.import.requests.len(),
            problems: self.import.problem_count(),
        }
    }

    /// Reads the next slice of text. Complete lines are read now; an
    /// unfinished last line waits for the next slice.
    pub fn feed(&mut self, chunk: &str) {
        self.bytes += chunk.len() as u64;
        self.pending.push_str(chunk);
        if self.gathering {
            return;
        }
        // Lines are read in place from the buffer (taken out of `self` so
        // `read_line` may borrow `self` mutably), not copied one by one.
        let mut pending = std::mem::take(&mut self.pending);
        let mut consumed = 0;
        while let Some(nl) = pending.get(consumed..).and_then(|rest| rest.find('\n')) {
            let end = consumed + nl;
            let line = pending.get(consumed..end).unwrap_or_default();
            if !self.read_line(line) {
                // A pretty-printed document: keep everything from here on.
                break;
            }
            consumed = end + 1;
        }
        if consumed > 0 {
            pending.drain(..consumed);
        }
        self.pending = pending;
    }

    /// Reads text that ends at a line boundary (or at the end of the file)
    /// straight from the caller's buffer, without copying it first. Used
    /// when the whole file is already in memory.
    fn feed_whole(&mut self, text: &str) {
        if self.gathering || !self.pending.is_empty() {
            self.feed(text);
            return;
        }
        self.bytes += text.len() as u64;
        let mut consumed = 0;
        while consumed < text.len() {
            let rest = text.get(consumed..).unwrap_or_default();
            let end = rest.find('\n').map_or(text.len(), |nl| consumed + nl);
            let line = text.get(consumed..end).unwrap_or_default();
            if !self.read_line(line) {
                self.pending.push_str(text.get(consumed..).unwrap_or_default());
                return;
            }
            consumed = end + 1;
        }
    }

    /// Reads what is left and returns the result.
    pub fn finish(mut self) -> Import {
        if self.gathering {
            let text = std::mem::take(&mut self.pending);
            match &mut self.state {
                LineState::Gather => read_document(&mut self.import, &text),
                LineState::Otlp => otlp::read_stream(&text, self.lines + 1, &mut self.import),
                LineState::Aiperf => aiperf::read_stream(&text, self.lines + 1, &mut self.import),
                LineState::Sglang(st) => sglang::read_stream(st, &text, self.lines + 1, &mut self.import),
                LineState::Csv(_) => {}
            }
            return self.import;
        }
        let last = std::mem::take(&mut self.pending);
        if !last.is_empty() {
            self.read_line(&last);
        }
        if let Some(start) = self.csv_row_start.take() {
            self.import.problem(Location::Line(start), "a quoted field is never closed; the row was skipped");
        }
        if let LineState::Csv(None) = self.state {
            if self.lines > 0 || self.bytes > 0 {
                self.import.problem(Location::Line(1), "no header row with the documented columns was found");
            }
        }
        self.import
    }

    /// Reads one complete line. Returns false when the line shows that a
    /// line format is really one pretty-printed document, after switching to
    /// gathering.
    fn read_line(&mut self, raw: &str) -> bool {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = line.trim();
        if !self.seen_content && !trimmed.is_empty() && !matches!(self.state, LineState::Csv(_)) {
            self.seen_content = true;
            let first = trimmed.trim_start_matches('\u{feff}');
            if !(first.starts_with('{') && first.ends_with('}')) {
                self.gathering = true;
                return false;
            }
        }
        self.lines += 1;
        let n = self.lines;
        match &mut self.state {
            LineState::Otlp => otlp::read_line(line, n, &mut self.import),
            LineState::Aiperf => aiperf::read_line(line, n, &mut self.import),
            LineState::Sglang(st) => sglang::read_line(st, line, n, &mut self.import),
            LineState::Csv(columns) => {
                // A quoted field may hold a line break: join lines until the
                // quotes close, and name the row by its first line.
                match self.csv_row_start {
                    Some(start) => {
                        self.csv_row.push('\n');
                        self.csv_row.push_str(line);
                        if csv::quotes_balanced(&self.csv_row) {
                            let row = std::mem::take(&mut self.csv_row);
                            self.csv_row_start = None;
                            csv::read_row(columns, &row, start, &mut self.import);
                        }
                    }
                    None if !csv::quotes_balanced(line) => {
                        self.csv_row_start = Some(n);
                        self.csv_row = line.to_owned();
                    }
                    None => csv::read_row(columns, line, n, &mut self.import),
                }
            }
            LineState::Gather => {}
        }
        true
    }
}

/// Reads a whole file already known to be `format`, of either layout.
pub fn parse_document(format: Format, text: &str) -> Import {
    let mut importer = Importer::new(format);
    importer.feed_whole(text);
    importer.finish()
}

/// Detects the format and reads a whole file in one call.
pub fn import(text: &str) -> Result<Import, UnknownFormat> {
    let mut cut = text.len().min(64 * 1024);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let format = detect(text.get(..cut).unwrap_or(text))?;
    Ok(parse_document(format, text))
}

fn read_document(import: &mut Import, text: &str) {
    match import.format {
        Format::VllmJaeger => jaeger::read_document(text, import),
        Format::VllmBench => vllm_bench::read_document(text, import),
        Format::AiperfAggregate => aiperf::read_aggregate(text, import),
        Format::GenaiPerf => genai_perf::read_document(text, import),
        Format::LlmPerf => llmperf::read_document(text, import),
        Format::GuideLlm => guidellm::read_document(text, import),
        Format::VllmOtlp => otlp::read_stream(text, 1, import),
        Format::AiperfRecords => aiperf::read_stream(text, 1, import),
        Format::SglangBench => sglang::read_stream(&mut sglang::State::default(), text, 1, import),
        Format::Csv => {}
    }
}

/// Parses `text` as one JSON document, recording a problem on failure.
pub(crate) fn parse_json(text: &str, import: &mut Import) -> Option<serde_json::Value> {
    match serde_json::from_str(text) {
        Ok(v) => Some(v),
        Err(e) => {
            import.problem(Location::Line(e.line()), format!("not valid JSON: {e}"));
            None
        }
    }
}

/// The 1-based line on which byte `offset` of `text` lies, counting from
/// `first_line`.
pub(crate) fn line_at(text: &str, offset: usize, first_line: usize) -> usize {
    let upto = text.get(..offset.min(text.len())).unwrap_or(text);
    first_line + upto.bytes().filter(|&b| b == b'\n').count()
}
