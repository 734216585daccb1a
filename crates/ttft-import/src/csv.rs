//! A plain CSV, one row a request, columns named in a header row (in any
//! order, case-insensitive; unknown columns are ignored). The columns are
//! documented in the crate README.
//!
//! Two shapes, told apart by the header: server EVENTS in milliseconds on one
//! clock (`arrival_ms, admitted_ms, prefill_end_ms, first_token_ms`, optional
//! `last_token_ms`), validated by `ttft_latency::split_request`; or phase
//! DURATIONS (`queue_ms, prefill_ms, emit_ms`, optional `ttft_ms`,
//! `decode_ms`). When a stated `ttft_ms` differs from the parts, the
//! difference is kept as an unattributed part, not refused. A row that cannot
//! be read is reported by line and skipped.
//!
//! This is a small reader for data a person or a script writes, not a full
//! RFC 4180 implementation: fields may be quoted (with `""` for a quote, and
//! line breaks inside quotes), and that is all.

use crate::model::{Breakdown, ImportedRequest, Location, Prefill, PrefillConvention};
use crate::read::Import;
use ttft_latency::{
    parse_ms, split_request, Events, Micros, MsError, Outcome, RequestTrace, Timing,
};

const EVENT_COLUMNS: [&str; 5] = [
    "arrival_ms",
    "admitted_ms",
    "prefill_end_ms",
    "first_token_ms",
    "last_token_ms",
];
const DURATION_COLUMNS: [&str; 5] = ["queue_ms", "prefill_ms", "emit_ms", "ttft_ms", "decode_ms"];
const OTHER_COLUMNS: [&str; 6] = [
    "id",
    "prompt_tokens",
    "output_tokens",
    "queued_at_arrival",
    "outcome",
    "error",
];

/// Which shape of timing a file's header names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Event timestamps on one clock.
    Events,
    /// Phase durations.
    Durations,
}

/// Where each known column is in a row.
#[derive(Clone, Debug)]
pub struct Columns {
    shape: Shape,
    /// Index of each column in EVENT/DURATION_COLUMNS order, then OTHER_COLUMNS.
    timing: [Option<usize>; 5],
    other: [Option<usize>; 6],
}

fn names(header: &str) -> Vec<String> {
    split_row(header)
        .into_iter()
        .map(|s| s.trim().trim_start_matches('\u{feff}').to_ascii_lowercase())
        .collect()
}

/// True when `line` is a header row naming one of the two shapes.
pub fn is_header(line: &str) -> bool {
    columns(line).is_some()
}

fn columns(header: &str) -> Option<Columns> {
    let names = names(header);
    let find = |col: &str| names.iter().position(|n| n == col);
    let (shape, set) = if find("arrival_ms").is_some() && find("first_token_ms").is_some() {
        (Shape::Events, EVENT_COLUMNS)
    } else if find("queue_ms").is_some() && find("prefill_ms").is_some() {
        (Shape::Durations, DURATION_COLUMNS)
    } else {
        return None;
    };
    Some(Columns {
        shape,
        timing: set.map(find),
        other: OTHER_COLUMNS.map(find),
    })
}

/// True when a line holds an odd number of `"`: it opens (or closes) a
/// quoted field that spans lines.
fn quote_count_is_odd(line: &str) -> bool {
    line.bytes().filter(|&b| b == b'"').count() % 2 == 1
}

/// Most bytes a row whose quoted field spans lines may reach before it is
/// taken to be an unclosed quote rather than a long cell.
pub const MAX_ROW_BYTES: usize = 64 * 1024;

/// Most lines such a row may span.
pub const MAX_ROW_LINES: usize = 200;

/// Longest cell quoted in a problem message, in characters.
pub const QUOTED_CELL_CHARS: usize = 80;

/// `s` for a problem message: cut to [`QUOTED_CELL_CHARS`] characters with
/// an ellipsis, so a hostile cell cannot fill the page.
pub fn quoted(s: &str) -> String {
    match s.char_indices().nth(QUOTED_CELL_CHARS) {
        Some((cut, _)) => format!("\"{}\u{2026}\"", s.get(..cut).unwrap_or(s)),
        None => format!("\"{s}\""),
    }
}

/// Splits one row into fields, unquoting quoted ones.
pub fn split_row(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            (c, _) => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// A CSV read in progress: the header's columns once seen, and a quoted row
/// that spans lines until its quotes close.
///
/// Why the caps: one stray quote would otherwise join every later line into
/// one row, so a file of 2,000 good rows imported none of them, and the row
/// grew without bound. The quotes' parity is kept as lines arrive (never
/// recounted over the whole row), and a row that passes [`MAX_ROW_BYTES`] or
/// [`MAX_ROW_LINES`], or is still open at the end of the file, is reported
/// at its first line and skipped; the lines after that first one are then
/// read again as rows of their own.
#[derive(Clone, Debug, Default)]
pub struct State {
    columns: Option<Columns>,
    /// The line number where an unfinished quoted row began.
    row_start: Option<usize>,
    /// That unfinished row's text so far.
    row: String,
    /// Lines in that row so far.
    row_lines: usize,
}

impl State {
    /// Reads one line. A quoted field may hold a line break: lines are
    /// joined until the quotes close, and the row is named by its first line.
    pub fn read_line(&mut self, line: &str, n: usize, import: &mut Import) {
        match self.row_start {
            Some(start) => {
                self.row.push('\n');
                self.row.push_str(line);
                self.row_lines += 1;
                if quote_count_is_odd(line) {
                    let row = std::mem::take(&mut self.row);
                    self.row_start = None;
                    read_row(&mut self.columns, &row, start, import);
                } else if self.row.len() > MAX_ROW_BYTES || self.row_lines > MAX_ROW_LINES {
                    self.give_up(
                        import,
                        &format!(
                            "a quoted field is not closed within {MAX_ROW_LINES} lines or {} KiB; the row was skipped \
                             and the lines after it were read as rows",
                            MAX_ROW_BYTES / 1024
                        ),
                    );
                }
            }
            None if quote_count_is_odd(line) => {
                self.row_start = Some(n);
                self.row = line.to_owned();
                self.row_lines = 1;
            }
            None => read_row(&mut self.columns, line, n, import),
        }
    }

    /// Reports the open row at its first line, skips that line, and reads
    /// the lines held after it again as rows (where a quote opens again,
    /// the same rule applies, so each pass drops at least one line).
    fn give_up(&mut self, import: &mut Import, message: &str) {
        let Some(start) = self.row_start.take() else {
            return;
        };
        let row = std::mem::take(&mut self.row);
        self.row_lines = 0;
        import.problem(Location::Line(start), message);
        for (k, line) in row.split('\n').enumerate().skip(1) {
            self.read_line(line, start + k, import);
        }
    }

    /// Reports what the end of the file leaves unread: a quoted row never
    /// closed (whose later lines are read as rows), or (when the file held
    /// anything) no header at all.
    pub fn finish(&mut self, saw_anything: bool, import: &mut Import) {
        while self.row_start.is_some() {
            self.give_up(import, "a quoted field is never closed; the row was skipped and the lines after it were read as rows");
        }
        if self.columns.is_none() && saw_anything {
            import.problem(
                Location::Line(1),
                "no header row with the documented columns was found",
            );
        }
    }
}

/// Reads one row; the first non-blank row must be the header.
fn read_row(columns: &mut Option<Columns>, line: &str, n: usize, import: &mut Import) {
    if line.trim().is_empty() {
        return;
    }
    let Some(cols) = columns.as_ref() else {
        match self::columns(line) {
            Some(c) => *columns = Some(c),
            None => import.problem(
                Location::Line(n),
                "expected a header row naming arrival_ms and first_token_ms, or queue_ms and prefill_ms; the line was skipped",
            ),
        }
        return;
    };
    match read_request(cols, &split_row(line), n) {
        Ok(req) => import.requests.push(req),
        Err(msg) => import.problem(Location::Line(n), format!("{msg}; the row was skipped")),
    }
}

fn cell(fields: &[String], at: Option<usize>) -> Option<&str> {
    at.and_then(|i| fields.get(i))
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
}

fn ms(fields: &[String], at: Option<usize>, name: &str) -> Result<Option<Micros>, String> {
    match cell(fields, at) {
        None => Ok(None),
        Some(s) => match parse_ms(s) {
            Ok(t) => Ok(Some(t)),
            Err(MsError::NotANumber) => Err(format!(
                "{name} is {}, not a number of milliseconds",
                quoted(s)
            )),
            Err(MsError::TooLarge) => Err(format!(
                "{name} is {}, too large to be a time in milliseconds",
                quoted(s)
            )),
        },
    }
}

fn tokens(fields: &[String], at: Option<usize>, name: &str) -> Result<Option<u64>, String> {
    match cell(fields, at) {
        None => Ok(None),
        Some(s) => s
            .parse::<u64>()
            .map(Some)
            .map_err(|_| format!("{name} is {}, not a whole number", quoted(s))),
    }
}

fn read_request(cols: &Columns, fields: &[String], n: usize) -> Result<ImportedRequest, String> {
    let [id_at, prompt_at, output_at, queued_at, outcome_at, error_at] = cols.other;
    let id = cell(fields, id_at)
        .map(str::to_owned)
        .unwrap_or_else(|| format!("row {n}"));
    let prompt_tokens = tokens(fields, prompt_at, "prompt_tokens")?;
    let output_tokens = tokens(fields, output_at, "output_tokens")?;
    let queued_at_arrival = tokens(fields, queued_at, "queued_at_arrival")?;
    let outcome = match cell(fields, outcome_at)
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None | Some("completed") | Some("ok") => Outcome::Completed,
        Some("failed") => Outcome::Failed,
        Some("rejected") => Outcome::Rejected,
        Some("cancelled") | Some("canceled") => Outcome::Cancelled,
        Some("empty") => Outcome::Empty,
        Some(other) => {
            return Err(format!(
                "outcome is {}; use completed, failed, rejected, cancelled or empty",
                quoted(other)
            ))
        }
    };
    let error = cell(fields, error_at).map(str::to_owned);
    let t = |i: usize, name: &str| ms(fields, cols.timing.get(i).copied().flatten(), name);
    let breakdown = match cols.shape {
        Shape::Events => {
            let events = Events {
                arrival: t(0, "arrival_ms")?,
                admitted: t(1, "admitted_ms")?,
                prefill_end: t(2, "prefill_end_ms")?,
                first_token: t(3, "first_token_ms")?,
                last_token: t(4, "last_token_ms")?,
            };
            return event_request(EventRow {
                id,
                prompt_tokens,
                output_tokens,
                queued_at_arrival,
                outcome,
                error,
                events,
            });
        }
        Shape::Durations => {
            let queue = t(0, "queue_ms")?;
            let prefill = t(1, "prefill_ms")?;
            let emit = t(2, "emit_ms")?;
            let ttft = t(3, "ttft_ms")?;
            let decode = t(4, "decode_ms")?;
            for (name, v) in [
                ("queue_ms", queue),
                ("prefill_ms", prefill),
                ("emit_ms", emit),
                ("ttft_ms", ttft),
                ("decode_ms", decode),
            ] {
                if v.is_some_and(Micros::is_negative) {
                    return Err(format!("{name} is negative; a duration cannot be"));
                }
            }
            let prefill = prefill.map(|duration| Prefill {
                duration,
                convention: PrefillConvention::Course,
            });
            let mut b = Breakdown::server(queue, prefill, emit, ttft);
            let whole = ttft.or_else(|| b.split_ttft());
            b.decode = decode;
            b.e2e = whole.zip(decode).map(|(t, d)| t + d);
            b
        }
    };
    Ok(ImportedRequest {
        id,
        start: None,
        prompt_tokens,
        output_tokens,
        queued_at_arrival,
        outcome,
        error,
        breakdown,
    })
}

/// One row of the events shape, as read from its cells.
#[derive(Clone, Debug)]
pub struct EventRow {
    pub id: String,
    pub prompt_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub queued_at_arrival: Option<u64>,
    pub outcome: Outcome,
    pub error: Option<String>,
    pub events: Events,
}

/// The request an events row describes, exactly as a file with that row
/// imports: the split is `ttft_latency::split_request`'s, and the arrival is
/// the request's start on the file's own clock (so a replay keeps the gaps
/// between arrivals). The serving simulator builds its results through this
/// function, so a run on the page and the same run exported and imported
/// again are the same requests.
pub fn event_request(row: EventRow) -> Result<ImportedRequest, String> {
    let EventRow {
        id,
        prompt_tokens,
        output_tokens,
        queued_at_arrival,
        outcome,
        error,
        events,
    } = row;
    let breakdown = if outcome != Outcome::Completed && events.first_token.is_none() {
        Breakdown::empty(crate::model::Clock::Server)
    } else {
        let trace = RequestTrace {
            id: id.clone(),
            prompt_tokens,
            output_tokens,
            queued_at_arrival,
            outcome,
            timing: Timing::Events(events),
        };
        let s = split_request(&trace).map_err(|e| e.to_string())?;
        let prefill = Prefill {
            duration: s.split.prefill,
            convention: PrefillConvention::Course,
        };
        let mut b = Breakdown::server(
            Some(s.split.queue_wait),
            Some(prefill),
            Some(s.split.emit),
            Some(s.ttft()),
        );
        b.decode = s.decode.map(|d| d.duration).or_else(|| {
            events
                .last_token
                .zip(events.first_token)
                .map(|(l, f)| l - f)
        });
        b.e2e = s.end_to_end;
        b
    };
    Ok(ImportedRequest {
        id,
        start: events.arrival,
        prompt_tokens,
        output_tokens,
        queued_at_arrival,
        outcome,
        error,
        breakdown,
    })
}
