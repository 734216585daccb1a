//! Driving an import: [`detect`] tells the format from a file's first bytes
//! (never from its name: a learner's download may be called anything), the
//! incremental [`Importer`] a browser feeds slice by slice hands each line
//! to that format's reader, and [`import`] / [`parse_document`] do it in one
//! call. The result, [`Import`], is in `read`, below the readers.
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

use crate::format::{Format, Layout, UnknownFormat};
use crate::model::Location;
use crate::read::Import;
use crate::{aiperf, csv, genai_perf, guidellm, jaeger, llmperf, otlp, sglang, vllm_bench};
use serde::{Deserialize, Serialize};

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
    Csv(Box<csv::State>),
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
    /// Bytes at the start of `pending` already searched for a line break
    /// without finding one, so a long line is never searched twice.
    scanned: usize,
    /// True while the rest of a line longer than the format's limit is
    /// being passed over.
    skipping_line: bool,
}

impl Importer {
    /// Starts an import of a file already known to be `format`.
    pub fn new(format: Format) -> Importer {
        let state = match format {
            Format::VllmOtlp => LineState::Otlp,
            Format::AiperfRecords => LineState::Aiperf,
            Format::SglangBench => LineState::Sglang(sglang::State::default()),
            Format::Csv => LineState::Csv(Box::default()),
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
            scanned: 0,
            skipping_line: false,
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
    /// unfinished last line waits for the next slice. A line longer than
    /// [`Format::max_line_bytes`] is reported and passed over without being
    /// held; a document beyond [`Format::max_document_bytes`] stops the
    /// import with a problem that names the limit.
    pub fn feed(&mut self, chunk: &str) {
        self.bytes += chunk.len() as u64;
        if self.import.stopped {
            return;
        }
        if self.gathering {
            self.gather(chunk);
            return;
        }
        let mut chunk = chunk;
        if self.skipping_line {
            let Some(nl) = find_newline(chunk) else {
                return;
            };
            self.skipping_line = false;
            chunk = chunk.get(nl + 1..).unwrap_or_default();
        }
        self.pending.push_str(chunk);
        // Lines are read in place from the buffer (taken out of `self` so
        // `read_line` may borrow `self` mutably), not copied one by one. The
        // search for a line break starts where the last one stopped.
        let mut pending = std::mem::take(&mut self.pending);
        let mut consumed = 0;
        let mut from = self.scanned.min(pending.len());
        while let Some(nl) = pending.get(from..).and_then(find_newline) {
            let end = from + nl;
            if end - consumed > self.format().max_line_bytes() {
                self.skip_long_line();
                consumed = end + 1;
                from = consumed;
                continue;
            }
            let line = pending.get(consumed..end).unwrap_or_default();
            if !self.read_line(line) {
                // A pretty-printed document: keep everything from here on.
                break;
            }
            consumed = end + 1;
            from = consumed;
        }
        if consumed > 0 {
            pending.drain(..consumed);
        }
        self.scanned = 0;
        if self.gathering {
            self.gather(&pending);
            return;
        }
        if pending.len() > self.format().max_line_bytes() {
            self.skip_long_line();
            self.skipping_line = true;
            return;
        }
        self.scanned = pending.len();
        self.pending = pending;
    }

    /// Adds a slice to a gathered document, or stops the import when the
    /// document would pass its format's limit.
    fn gather(&mut self, chunk: &str) {
        let limit = self.format().max_document_bytes();
        if self.pending.len().saturating_add(chunk.len()) > limit {
            self.pending = String::new();
            let name = self.format().name();
            self.import.stop(
                Location::Line(self.lines + 1),
                format!(
                    "the file is larger than {}, the most this page reads of a {name} file (it must hold the whole \
                     document at once); the import stopped here and nothing after this point was read",
                    size(limit)
                ),
            );
            return;
        }
        self.pending.push_str(chunk);
    }

    /// Counts and reports the line now too long to hold, and drops it.
    fn skip_long_line(&mut self) {
        self.lines += 1;
        let limit = size(self.format().max_line_bytes());
        let name = self.format().name();
        self.import.problem(
            Location::Line(self.lines),
            format!("the line is longer than {limit}, the most a line of a {name} file may be; it was skipped"),
        );
    }

    /// Reads text that ends at a line boundary (or at the end of the file)
    /// straight from the caller's buffer, without copying it first. Used
    /// when the whole file is already in memory.
    fn feed_whole(&mut self, text: &str) {
        if self.gathering || !self.pending.is_empty() {
            self.feed(text);
            return;
        }
        let mut consumed = 0;
        while consumed < text.len() {
            let rest = text.get(consumed..).unwrap_or_default();
            let end = find_newline(rest).map_or(text.len(), |nl| consumed + nl);
            if end - consumed > self.format().max_line_bytes() {
                self.bytes += (end - consumed + 1).min(text.len() - consumed) as u64;
                self.skip_long_line();
                consumed = end + 1;
                continue;
            }
            let line = text.get(consumed..end).unwrap_or_default();
            if !self.read_line(line) {
                self.feed(text.get(consumed..).unwrap_or_default());
                return;
            }
            self.bytes += (end + 1).min(text.len()).saturating_sub(consumed) as u64;
            consumed = end + 1;
        }
    }

    /// Reads what is left and returns the result, with every request that
    /// produced nothing relabelled as an empty reply (see
    /// [`ImportedRequest::mark_if_empty`](crate::ImportedRequest::mark_if_empty)),
    /// whichever format recorded it.
    pub fn finish(self) -> Import {
        let mut import = self.read_rest();
        for r in &mut import.requests {
            r.mark_if_empty();
        }
        import
    }

    fn read_rest(mut self) -> Import {
        if self.import.stopped {
            return self.import;
        }
        if self.gathering {
            let text = std::mem::take(&mut self.pending);
            match &mut self.state {
                LineState::Gather => read_document(&mut self.import, &text),
                LineState::Otlp => otlp::read_stream(&text, self.lines + 1, &mut self.import),
                LineState::Aiperf => aiperf::read_stream(&text, self.lines + 1, &mut self.import),
                LineState::Sglang(st) => {
                    sglang::read_stream(st, &text, self.lines + 1, &mut self.import)
                }
                LineState::Csv(_) => {}
            }
            return self.import;
        }
        let last = std::mem::take(&mut self.pending);
        if !last.is_empty() {
            self.read_line(&last);
        }
        if let LineState::Csv(st) = &mut self.state {
            st.finish(self.lines > 0 || self.bytes > 0, &mut self.import);
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
            LineState::Csv(st) => st.read_line(line, n, &mut self.import),
            LineState::Gather => {}
        }
        true
    }
}

/// The byte offset of the first line break in `text`. `memchr` looks at
/// many bytes at a time (with SIMD where the target has it; a portable
/// fallback elsewhere), which `str::find` with a `char` does less well.
fn find_newline(text: &str) -> Option<usize> {
    memchr::memchr(b'\n', text.as_bytes())
}

/// A limit in bytes as a person reads it: `1 MiB`, `256 MiB`.
fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes % (1 << 10) == 0 {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

/// Tells the format from the start of a file. A prefix of 64 KiB is plenty;
/// the whole file also works. Keys are matched as quoted JSON strings, so a
/// word inside generated text does not count unless it is a quoted key.
pub fn detect(prefix: &str) -> Result<Format, UnknownFormat> {
    let text = prefix.trim_start_matches('\u{feff}').trim_start();
    let has = |key: &str| text.contains(key);
    match text.as_bytes().first() {
        None => Err(UnknownFormat {
            seen: "the file is empty".into(),
        }),
        Some(b'{') => {
            if has("\"resourceSpans\"") {
                Ok(Format::VllmOtlp)
            } else if has("\"operationName\"") || (has("\"data\"") && has("\"traceID\"")) {
                Ok(Format::VllmJaeger)
            } else if has("\"experiments\"")
                && (has("\"response_timestamps\"")
                    || has("\"window_boundaries\"")
                    || has("\"service_kind\""))
            {
                Ok(Format::GenaiPerf)
            } else if has("\"benchmarks\"") {
                Ok(Format::GuideLlm)
            } else if has("\"metrics\"")
                && has("\"metadata\"")
                && (has("\"unit\"") || has("\"x_request_id\""))
            {
                Ok(Format::AiperfRecords)
            } else if has("\"records\"") && (has("\"input_config\"") || has("\"tag\"")) {
                Ok(Format::AiperfAggregate)
            } else if has("\"mean_e2e_latency_ms\"")
                || (has("\"dataset_name\"") && !has("\"model_id\""))
            {
                Ok(Format::SglangBench)
            } else if has("\"ttfts\"")
                || has("\"mean_ttft_ms\"")
                || has("\"model_id\"")
                || has("\"request_goodput:\"")
            {
                Ok(Format::VllmBench)
            } else {
                Err(UnknownFormat {
                    seen: "a JSON object with none of the keys these tools write".into(),
                })
            }
        }
        Some(b'[') => {
            if has("\"ttft_s\"")
                || has("\"end_to_end_latency_s\"")
                || has("\"number_input_tokens\"")
            {
                Ok(Format::LlmPerf)
            } else {
                Err(UnknownFormat {
                    seen: "a JSON array whose records are not LLMPerf's".into(),
                })
            }
        }
        Some(_) => {
            let header = text.lines().next().unwrap_or_default();
            if csv::is_header(header) {
                Ok(Format::Csv)
            } else {
                Err(UnknownFormat {
                    seen: "neither JSON nor a CSV header with the documented columns".into(),
                })
            }
        }
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
