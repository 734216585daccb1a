//! The trace reader: the import part's protocol with its worker, and the
//! worker's side of it, a [`Session`] that owns `ttft_import::Importer`.
//!
//! The page opens a read, sends the file in slices (each slice's
//! `ArrayBuffer` transferred) and ends it; after every slice the worker
//! answers with its progress, which is also the page's signal to send the
//! next one, so at most a few slices wait in memory. At the end the worker
//! sends the requests in batches of [`BATCH`] (compact bytes, `pack`, one
//! message each, so the page reads each batch in a short task of its own),
//! then the rest of the [`Import`] (`pack::pack_rest`). Pasted text and the course's example go the same way in
//! one message, so the page itself holds no format parser.
//!
//! The session is plain Rust over bytes, tested natively; `host` connects
//! it to the worker's messages. What it deliberately does not do: compute
//! any figure for the page (that stays with `ttft_import::report` on the
//! page, over the `Import` it receives), or keep a file after its read.

use super::pack;
use super::wire::Protocol;
use serde::{Deserialize, Serialize};
use ttft_import::{import, Import, ImportedRequest, Importer, Layout, UnknownFormat};

/// The course's example trace: it lives in the worker, the only side that
/// can read it.
pub const EXAMPLE: &str = include_str!("../../content/samples/course-trace.otlp.jsonl");

/// Requests sent to the page in one message.
pub const BATCH: usize = 5_000;

/// The trace reader's protocol.
pub struct Reader;

impl Protocol for Reader {
    type Request = Ask;
    type Response = Answer;
    const BIN: &'static str = "import-worker";
}

/// What the page asks the trace reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ask {
    /// A file follows, slice by slice. Forgets any read in progress.
    Open,
    /// The next slice of the file (the body holds its bytes).
    Slice,
    /// The file has no more bytes: finish the read.
    End,
    /// A whole text in one message (the body holds its UTF-8 bytes).
    Text,
    /// The course's example trace.
    Example,
}

/// What the trace reader answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    /// A slice was read: the file's bytes taken so far, requests found and
    /// lines or records skipped.
    Progress {
        read: u64,
        requests: usize,
        problems: usize,
    },
    /// Every byte is in; a one-document format is being parsed now.
    Parsing,
    /// The file's start matched no format (what it looked like).
    Unknown { seen: String },
    /// The next batch of requests, in file order (body: `pack::pack`), and
    /// how many requests the whole import holds, so that the page makes
    /// room for all of them once.
    Requests { total: usize },
    /// The read is complete (body: the rest of the `Import`,
    /// `pack::pack_rest`, its requests sent before in batches).
    Done,
}

/// One message out: an answer and its body.
pub type Out = (Answer, Option<Vec<u8>>);

/// Bytes to text across slice boundaries: a character cut in two by a
/// slice is held until its end arrives; bytes that are not UTF-8 become
/// U+FFFD, as a browser's `TextDecoder` does (which also drops a leading
/// byte-order mark).
#[derive(Debug, Default)]
pub struct Utf8Stream {
    carry: Vec<u8>,
    started: bool,
}

impl Utf8Stream {
    /// The text of `bytes` up to the last whole character.
    pub fn decode(&mut self, bytes: &[u8]) -> String {
        let mut buf = std::mem::take(&mut self.carry);
        buf.extend_from_slice(bytes);
        let cut = whole_prefix(&buf);
        self.carry = buf.split_off(cut);
        let mut text = match String::from_utf8(buf) {
            Ok(t) => t,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        if !self.started && !text.is_empty() {
            self.started = true;
            if let Some(rest) = text.strip_prefix('\u{feff}') {
                text = rest.to_owned();
            }
        }
        text
    }

    /// What is left at the end of the file: a cut-off character, as U+FFFD.
    pub fn finish(&mut self) -> String {
        let rest = std::mem::take(&mut self.carry);
        String::from_utf8_lossy(&rest).into_owned()
    }
}

/// Where the last character of `buf` starts if it is incomplete, else the
/// end: the length of the part that can be decoded now.
fn whole_prefix(buf: &[u8]) -> usize {
    let len = buf.len();
    for back in 1..=len.min(3) {
        let at = len - back;
        let Some(&b) = buf.get(at) else { break };
        if b & 0b1100_0000 == 0b1000_0000 {
            continue; // a continuation byte: look further back
        }
        let needs = match b {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        return if back < needs { at } else { len };
    }
    len
}

/// Text held before the format is told: as much as `ttft_import::import`
/// looks at (the page's first slice is larger, so it is told at once).
pub const DETECT_BYTES: usize = 64 * 1024;

/// One read in progress.
#[derive(Default)]
struct Read {
    text: Utf8Stream,
    /// The file's start, until there is enough of it to tell the format.
    start: String,
    importer: Option<Importer>,
    read: u64,
    /// The start matched no format: the rest of the file is ignored.
    unknown: bool,
}

/// The worker's side of the trace reader: at most one read at a time.
#[derive(Default)]
pub struct Session {
    read: Option<Read>,
}

impl Session {
    /// A session with nothing to read yet.
    pub fn new() -> Session {
        Session::default()
    }

    /// Answers one request, sending each answer to `out` as soon as it is
    /// made (the page shows "Parsing" while a document is parsed).
    pub fn handle(&mut self, ask: Ask, body: Option<Vec<u8>>, out: &mut dyn FnMut(Out)) {
        match ask {
            Ask::Open => self.read = Some(Read::default()),
            Ask::Slice => {
                let Some(read) = self.read.as_mut() else { return };
                let bytes = body.unwrap_or_default();
                read.read += bytes.len() as u64;
                if read.unknown {
                    return;
                }
                let text = read.text.decode(&bytes);
                if feed(read, &text, false, out) {
                    let p = read.importer.as_ref().map(Importer::progress);
                    out((
                        Answer::Progress {
                            read: read.read,
                            requests: p.map_or(0, |p| p.requests),
                            problems: p.map_or(0, |p| p.problems),
                        },
                        None,
                    ));
                }
            }
            Ask::End => {
                let Some(mut read) = self.read.take() else { return };
                if read.unknown {
                    return;
                }
                let rest = read.text.finish();
                if !feed(&mut read, &rest, true, out) {
                    return;
                }
                match read.importer {
                    Some(importer) => {
                        if importer.format().layout() == Layout::Document {
                            out((Answer::Parsing, None));
                        }
                        send(importer.finish(), out);
                    }
                    // An empty file: nothing to tell a format from.
                    None => unknown(Importer::detect("").err(), out),
                }
            }
            Ask::Text => {
                self.read = None;
                let bytes = body.unwrap_or_default();
                let mut stream = Utf8Stream::default();
                let mut text = stream.decode(&bytes);
                text.push_str(&stream.finish());
                answer(import(&text), out);
            }
            Ask::Example => {
                self.read = None;
                answer(import(EXAMPLE), out);
            }
        }
    }
}

/// Feeds `text` to the read, telling the format once [`DETECT_BYTES`] of
/// the file (or all of it, at its `end`) are in. False once the format is
/// unknown (and said so).
fn feed(read: &mut Read, text: &str, end: bool, out: &mut dyn FnMut(Out)) -> bool {
    if let Some(importer) = read.importer.as_mut() {
        importer.feed(text);
        return true;
    }
    read.start.push_str(text);
    if read.start.trim().is_empty() || (read.start.len() < DETECT_BYTES && !end) {
        return true;
    }
    let start = std::mem::take(&mut read.start);
    match Importer::detect(&start) {
        Ok(mut i) => {
            i.feed(&start);
            read.importer = Some(i);
            true
        }
        Err(e) => {
            read.unknown = true;
            unknown(Some(e), out);
            false
        }
    }
}

fn unknown(error: Option<UnknownFormat>, out: &mut dyn FnMut(Out)) {
    let seen = error.map_or_else(|| "an empty file".to_owned(), |e| e.seen);
    out((Answer::Unknown { seen }, None));
}

fn answer(result: Result<Import, UnknownFormat>, out: &mut dyn FnMut(Out)) {
    match result {
        Ok(imp) => send(imp, out),
        Err(e) => unknown(Some(e), out),
    }
}

/// Sends a finished import: its requests in batches, then the rest.
fn send(mut imp: Import, out: &mut dyn FnMut(Out)) {
    let requests = std::mem::take(&mut imp.requests);
    let total = requests.len();
    for batch in requests.chunks(BATCH) {
        out((Answer::Requests { total }, Some(pack::pack(batch))));
    }
    out((Answer::Done, Some(pack::pack_rest(&imp))));
}

/// The page's side of the end of a read: gathers the batches of requests
/// and puts the import back together.
#[derive(Debug, Default)]
pub struct Gathered {
    requests: Vec<ImportedRequest>,
}

impl Gathered {
    /// Adds one batch (the body of [`Answer::Requests`]), whose answer says
    /// the import holds `total` requests in all.
    ///
    /// The first batch makes room for all of them, so that later batches
    /// never move the ones already received. Room that cannot be had at
    /// once is not an error: each batch then makes room as it comes, and
    /// one that cannot is refused with the reason.
    pub fn batch(&mut self, bytes: &[u8], total: usize) -> Result<(), String> {
        let more = total.saturating_sub(self.requests.len());
        let _ = self.requests.try_reserve(more);
        pack::unpack_into(bytes, &mut self.requests).map_err(|e| format!("a batch of results could not be read ({e})"))
    }

    /// Requests received so far.
    pub fn len(&self) -> usize {
        self.requests.len()
    }

    /// True before the first batch.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }

    /// The whole import (the body of [`Answer::Done`]).
    pub fn done(self, rest: &[u8]) -> Result<Import, String> {
        let mut imp = pack::unpack_rest(rest).map_err(|e| format!("the result could not be read ({e})"))?;
        imp.requests = self.requests;
        Ok(imp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `asks` through a session and returns what it said.
    fn run(asks: Vec<(Ask, Option<Vec<u8>>)>) -> Vec<Out> {
        let mut session = Session::new();
        let mut said = Vec::new();
        for (ask, body) in asks {
            session.handle(ask, body, &mut |o| said.push(o));
        }
        said
    }

    /// Reads a whole file slice by slice, as the page sends it.
    fn read_in_slices(bytes: &[u8], slice: usize) -> Vec<Out> {
        let mut asks = vec![(Ask::Open, None)];
        asks.extend(bytes.chunks(slice).map(|c| (Ask::Slice, Some(c.to_vec()))));
        asks.push((Ask::End, None));
        run(asks)
    }

    /// What the page puts back together from the answers.
    fn result(said: &[Out]) -> Result<Import, String> {
        let mut gathered = Gathered::default();
        for (answer, body) in said {
            match answer {
                Answer::Requests { total } => gathered.batch(body.as_deref().unwrap_or_default(), *total)?,
                Answer::Done => return gathered.done(body.as_deref().unwrap_or_default()),
                Answer::Unknown { seen } => return Err(format!("unknown: {seen}")),
                _ => {}
            }
        }
        Err("no Done".to_owned())
    }

    #[test]
    fn a_file_in_slices_reads_as_the_whole_text_does() {
        // Slices of 7 bytes cut lines and, with the em dash below, characters.
        let text = EXAMPLE.replace("course-model", "course\u{2014}model");
        let said = read_in_slices(text.as_bytes(), 7);
        let whole = import(&text).expect("the example is detected");
        let sliced = result(&said).expect("read");
        assert_eq!(sliced.requests, whole.requests);
        assert_eq!(sliced.format, whole.format);
        let progress = said.iter().filter(|(a, _)| matches!(a, Answer::Progress { .. })).count();
        assert_eq!(progress, text.len().div_ceil(7), "one progress answer a slice");
        assert!(matches!(said.iter().rev().nth(1), Some((Answer::Requests { .. }, _))));
    }

    #[test]
    fn the_example_is_a_server_split() {
        let imp = result(&run(vec![(Ask::Example, None)])).expect("the example reads");
        assert!(imp.capability().splits_queue);
        assert!(!imp.requests.is_empty());
        assert!(imp.requests.iter().all(|r| r.breakdown.pieces().is_some()));
    }

    #[test]
    fn many_requests_cross_in_batches() {
        let line = EXAMPLE.lines().next().expect("a line");
        let text: String = std::iter::repeat_n(line, BATCH * 2 + 3).collect::<Vec<_>>().join("\n");
        let said = run(vec![(Ask::Text, Some(text.into_bytes()))]);
        let totals: Vec<usize> = said
            .iter()
            .filter_map(|(a, _)| match a {
                Answer::Requests { total } => Some(*total),
                _ => None,
            })
            .collect();
        assert_eq!(totals, vec![BATCH * 2 + 3; 3], "three batches, each telling the whole count");
        let imp = result(&said).expect("read");
        assert_eq!(imp.requests.len(), BATCH * 2 + 3);
    }

    #[test]
    fn an_unknown_start_is_said_once_and_the_rest_ignored() {
        let said = read_in_slices(b"hello, this is not a trace\nat all\n", 4);
        let unknown: Vec<_> = said.iter().filter(|(a, _)| matches!(a, Answer::Unknown { .. })).collect();
        assert_eq!(unknown.len(), 1, "{said:?}");
        assert!(!said.iter().any(|(a, _)| *a == Answer::Done));
        assert!(result(&run(vec![(Ask::Open, None), (Ask::End, None)])).is_err(), "an empty file is no format");
    }

    #[test]
    fn a_document_format_says_it_is_parsing() {
        let doc = br#"{"date": "x", "backend": "vllm", "ttfts": [0.1, 0.2], "itls": [[], []], "input_lens": [10, 20], "output_lens": [1, 1]}"#;
        let said = read_in_slices(doc, 16);
        let imp = result(&said).expect("a vLLM bench document");
        assert_eq!(imp.format.layout(), Layout::Document);
        assert!(said.iter().any(|(a, _)| *a == Answer::Parsing), "{said:?}");
    }

    #[test]
    fn slices_without_an_open_read_are_ignored() {
        assert!(run(vec![(Ask::Slice, Some(b"{}".to_vec())), (Ask::End, None)]).is_empty());
    }

    #[test]
    fn text_decoding_matches_a_browser() {
        let check = |slices: &[&[u8]], expected: &str| {
            let mut s = Utf8Stream::default();
            let mut out: String = slices.iter().map(|b| s.decode(b)).collect();
            out.push_str(&s.finish());
            assert_eq!(out, expected, "{slices:?}");
        };
        check(&[b"ab", b"c"], "abc");
        check(&[b"\xEF\xBB\xBFab"], "ab");
        check(&[b"\xE2", b"\x80", b"\x94x"], "\u{2014}x");
        check(&[b"\xF0\x9F", b"\x98\x80"], "\u{1F600}");
        check(&[b"a\xFFb"], "a\u{FFFD}b");
        check(&[b"a\xE2\x80"], "a\u{FFFD}");
        check(&[b"\xC3"], "\u{FFFD}");
        check(&[b"a\xBF\xBF", b"b"], "a\u{FFFD}\u{FFFD}b");
    }
}
