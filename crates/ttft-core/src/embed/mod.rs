//! Embedding a part of ttft-lab in another site: the page's query string,
//! the iframe snippet an instructor copies, and the height messages the
//! embedded page and its parent exchange.
//!
//! **Query.** `?part=trace&embed=1&origin=https%3A%2F%2Flms.example.edu`
//! with, optionally, authored content as `content=<base64url JSON>` or
//! `src=<same-origin relative path>`. `origin` may repeat (or hold a
//! comma-separated list): it is the instructor's allow-list of parent
//! origins that may receive result statements. An origin must be exactly
//! `scheme://host[:port]`, https, or http only for `localhost`,
//! `127.0.0.1` and `[::1]`; anything else is rejected with a typed error and
//! left out, so a typo can only stop statements, never send them elsewhere.
//! Posting is to each listed origin in turn: the browser delivers a message
//! only when the parent's origin equals the target, so the unmatched ones
//! are dropped by the browser, and nothing is ever posted to `*`.
//!
//! **Height.** The embedded page speaks two dialects. Its own message is
//! `{"type": "ttft-lab:height", "version": 1, "height": <px>}`. H5P's is the
//! one H5P's `h5p-resizer.js` listens for (h5p/h5p-php-library, `js/h5p-resizer.js`
//! and the iframe side in `js/h5p.js`, commit e15f6d6): every message is an
//! object with `context: "h5p"` and an `action`. The iframe sends `hello`;
//! a parent running the resizer answers `hello` (and sends `ready` when the
//! resizer loads after the iframe, to which the iframe answers `hello`).
//! After the handshake, whenever the content changes size the iframe sends
//! `prepareResize` with `scrollHeight` and `clientHeight`; the parent sets
//! the iframe to `clientHeight` and answers `resizePrepared` (only when the
//! two heights differ from each other or from the iframe's); the iframe
//! then sends `resize` with `scrollHeight`, and the parent sets the iframe's
//! height to it. The parent also sends `resize` when its own window resizes,
//! asking the iframe to measure again. [`H5pChild`] is the iframe's side of
//! that exchange; [`read_height_message`] is the parent's check of what
//! arrives, which `content/embed/ttft-lab-resizer.js` mirrors.
//!
//! This module builds text and values only: it does not touch the DOM,
//! measure anything or post messages.


pub mod xapi;

use crate::second_opinion::provider::{is_loopback_host, split_authority};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::fmt;

/// A part of the course that can be shown alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EmbedPart {
    Lesson,
    /// The lesson's worked timeline alone: the editable example request
    /// with its figures, chart and data table.
    Timeline,
    Trace,
    Choice,
    Interview,
    Import,
}

impl EmbedPart {
    /// Every part, in the site's order.
    pub const ALL: [EmbedPart; 6] =
        [EmbedPart::Lesson, EmbedPart::Timeline, EmbedPart::Trace, EmbedPart::Choice, EmbedPart::Interview, EmbedPart::Import];

    /// The value of `?part=`, as the app's router spells it.
    pub fn id(self) -> &'static str {
        match self {
            EmbedPart::Lesson => "lesson",
            EmbedPart::Timeline => "timeline",
            EmbedPart::Trace => "trace",
            EmbedPart::Choice => "choice",
            EmbedPart::Interview => "interview",
            EmbedPart::Import => "import",
        }
    }

    /// What the iframe's `title` says, for screen-reader users.
    pub fn title(self) -> &'static str {
        match self {
            EmbedPart::Lesson => "ttft-lab lesson: diagnosing a slow first token",
            EmbedPart::Timeline => "ttft-lab worked timeline: split one request's time to first token",
            EmbedPart::Trace => "ttft-lab exercise: find the dominant delay in a trace",
            EmbedPart::Choice => "ttft-lab exercise: choose a serving configuration",
            EmbedPart::Interview => "ttft-lab interview question with self-score",
            EmbedPart::Import => "ttft-lab: split your own trace",
        }
    }

    /// The part with this `?part=` value.
    pub fn from_id(id: &str) -> Option<EmbedPart> {
        EmbedPart::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// A parent origin on the allow-list: `scheme://host[:port]`, lower case,
/// default port dropped, exactly as a browser writes `event.origin`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Origin(String);

impl Origin {
    /// The origin as text, for `postMessage`'s target.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why an origin was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum OriginError {
    /// Not `scheme://host[:port]`.
    Malformed { text: String },
    /// A path, query or fragment after the host.
    HasPath { text: String },
    /// A scheme other than https (http is for this machine only).
    Scheme { text: String },
    /// Plain http to a host other than this machine.
    InsecureRemote { text: String },
    /// `*` or `null`, which would send results to anyone.
    Wildcard { text: String },
}

impl fmt::Display for OriginError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OriginError::Malformed { text } => write!(f, "\"{text}\" is not an origin: write it as https://host or https://host:port"),
            OriginError::HasPath { text } => write!(f, "\"{text}\" has a path; an origin is only https://host[:port]"),
            OriginError::Scheme { text } => write!(f, "\"{text}\" is not https; results are sent only to https origins"),
            OriginError::InsecureRemote { text } => {
                write!(f, "\"{text}\" is plain http; http is accepted only for localhost and 127.0.0.1")
            }
            OriginError::Wildcard { text } => write!(f, "\"{text}\" would let any site receive results; name the site's origin"),
        }
    }
}

impl std::error::Error for OriginError {}

/// Checks and normalises one origin.
pub fn parse_origin(text: &str) -> Result<Origin, OriginError> {
    let raw = text.trim();
    let err_text = raw.chars().take(200).collect::<String>();
    if raw == "*" || raw.eq_ignore_ascii_case("null") {
        return Err(OriginError::Wildcard { text: err_text });
    }
    let Some((scheme, rest)) = raw.split_once("://") else {
        return Err(OriginError::Malformed { text: err_text });
    };
    let scheme = scheme.to_ascii_lowercase();
    // One trailing slash is how origins often get pasted; anything more is a path.
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.contains(['/', '?', '#']) {
        return Err(OriginError::HasPath { text: err_text });
    }
    if rest.contains('@') {
        return Err(OriginError::Malformed { text: err_text });
    }
    let authority = rest.to_ascii_lowercase();
    let Some((host, port)) = split_authority(&authority) else {
        return Err(OriginError::Malformed { text: err_text });
    };
    if host.starts_with('.') || host.ends_with('.') || host.contains("..") {
        return Err(OriginError::Malformed { text: err_text });
    }
    let default_port = match scheme.as_str() {
        "https" => "443",
        "http" if is_loopback_host(host) => "80",
        "http" => return Err(OriginError::InsecureRemote { text: err_text }),
        _ => return Err(OriginError::Scheme { text: err_text }),
    };
    let port = match port {
        Some(p) if p.trim_start_matches('0') != default_port => format!(":{}", p.trim_start_matches('0')),
        _ => String::new(),
    };
    if port == ":" {
        return Err(OriginError::Malformed { text: err_text });
    }
    Ok(Origin(format!("{scheme}://{host}{port}")))
}

/// Where authored content comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ContentSource {
    /// `content=`: the authored file, base64url-encoded in the URL (decode
    /// with `authoring::decode_from_url`).
    Inline { encoded: String },
    /// `src=`: a path on this site, relative to the page.
    Path { path: String },
}

/// A problem in the query string. The option it concerns is left out; the
/// rest of the page still works.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum EmbedError {
    /// `part=` names no part.
    UnknownPart { part: String },
    /// An `origin=` entry was refused.
    Origin { error: OriginError },
    /// `src=` is not a same-origin relative path to a `.json` file.
    BadSource { src: String },
    /// Both `content=` and `src=` were given.
    BothSources,
    /// `content=` holds characters base64url does not use.
    BadContent,
    /// `embed=` is not `1`, `0`, `true` or `false`.
    BadEmbedFlag { value: String },
    /// `%` not followed by two hex digits, or the result not UTF-8.
    BadEscape { key: String },
}

impl fmt::Display for EmbedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmbedError::UnknownPart { part } => write!(f, "part=\"{part}\" is not a part of ttft-lab; showing the lesson"),
            EmbedError::Origin { error } => write!(f, "origin: {error}"),
            EmbedError::BadSource { src } => write!(
                f,
                "src=\"{src}\" must be a path on this site ending in .json, such as exercises/week3.json"
            ),
            EmbedError::BothSources => f.write_str("give content= or src=, not both; neither was loaded"),
            EmbedError::BadContent => f.write_str("content= holds characters that base64url does not use"),
            EmbedError::BadEmbedFlag { value } => write!(f, "embed=\"{value}\" should be 1 or 0"),
            EmbedError::BadEscape { key } => write!(f, "{key}= holds a broken %-escape"),
        }
    }
}

impl std::error::Error for EmbedError {}

/// What the query string asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmbedOptions {
    /// The part to show; `None` when not given (the app shows the lesson).
    pub part: Option<EmbedPart>,
    /// `embed=1`: no site navigation, height messages on.
    pub embed: bool,
    /// Parent origins allowed to receive result statements, in order, no
    /// repeats. Empty: no statement is posted.
    pub origins: Vec<Origin>,
    /// Authored content to load instead of the built-in exercise.
    pub content: Option<ContentSource>,
}

impl EmbedOptions {
    /// The origins to post a statement to: each allowed origin (the browser
    /// delivers only to the one the parent has), or none when embedded
    /// without an allow-list or not embedded at all.
    pub fn statement_targets(&self) -> &[Origin] {
        if self.embed {
            &self.origins
        } else {
            &[]
        }
    }

    /// True when `origin` (as a browser reports `event.origin`) is allowed.
    pub fn allows(&self, origin: &str) -> bool {
        self.origins.iter().any(|o| o.as_str() == origin)
    }
}

/// The query string read, with every problem found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmbedQuery {
    pub options: EmbedOptions,
    pub problems: Vec<EmbedError>,
}

/// Decodes `%XX` escapes and `+` (a space in query strings).
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3)?;
                let s = std::str::from_utf8(hex).ok()?;
                out.push(u8::from_str_radix(s, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// Encodes a query value: unreserved characters stay, everything else is
/// `%XX`.
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// True for a path on this site: relative, no `..`, no scheme or `//`, only
/// plain path characters, ending in `.json`.
fn is_same_origin_json_path(path: &str) -> bool {
    !path.is_empty()
        && path.len() <= 512
        && !path.starts_with('/')
        && path.ends_with(".json")
        && path.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/' | b'~'))
        && path.split('/').all(|seg| !seg.is_empty() && seg != ".." && seg != ".")
}

/// Reads the page's query string (with or without the leading `?`).
/// Unknown keys are ignored (the app has its own, such as `#` anchors).
pub fn parse_query(query: &str) -> EmbedQuery {
    let mut q = EmbedQuery::default();
    let mut content = None;
    let mut src = None;
    for pair in query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
        let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
        let Some(value) = percent_decode(raw) else {
            q.problems.push(EmbedError::BadEscape { key: key.chars().take(40).collect() });
            continue;
        };
        match key {
            "part" => match EmbedPart::from_id(value.trim()) {
                Some(p) => q.options.part = Some(p),
                None => q.problems.push(EmbedError::UnknownPart { part: value.chars().take(40).collect() }),
            },
            "embed" => match value.trim() {
                "1" | "true" => q.options.embed = true,
                "0" | "false" => q.options.embed = false,
                other => q.problems.push(EmbedError::BadEmbedFlag { value: other.chars().take(40).collect() }),
            },
            "origin" => {
                for text in value.split(',').filter(|t| !t.trim().is_empty()) {
                    match parse_origin(text) {
                        Ok(o) if !q.options.origins.contains(&o) => q.options.origins.push(o),
                        Ok(_) => {}
                        Err(error) => q.problems.push(EmbedError::Origin { error }),
                    }
                }
            }
            "content" => {
                // base64url's alphabet, with padding tolerated.
                if value.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'=')) {
                    content = Some(value);
                } else {
                    q.problems.push(EmbedError::BadContent);
                }
            }
            "src" => {
                if is_same_origin_json_path(value.trim()) {
                    src = Some(value.trim().to_owned());
                } else {
                    q.problems.push(EmbedError::BadSource { src: value.chars().take(80).collect() });
                }
            }
            _ => {}
        }
    }
    q.options.content = match (content, src) {
        (Some(_), Some(_)) => {
            q.problems.push(EmbedError::BothSources);
            None
        }
        (Some(encoded), None) => Some(ContentSource::Inline { encoded }),
        (None, Some(path)) => Some(ContentSource::Path { path }),
        (None, None) => None,
    };
    q
}

/// Escapes text for a double-quoted HTML attribute.
pub fn escape_attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// What the instructor chose in the Embed panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnippetRequest {
    /// The page's own address without query or fragment
    /// (`https://example.github.io/ttft-lab/`).
    pub page_url: String,
    pub part: EmbedPart,
    /// Origins to allow, already checked.
    pub origins: Vec<Origin>,
    /// Authored content to load, if any.
    pub content: Option<ContentSource>,
    /// Starting height in CSS pixels, before the first height message.
    pub height: u32,
}

/// The embed URL: the page with `part`, `embed=1`, each origin and the
/// content source.
pub fn embed_url(req: &SnippetRequest) -> String {
    let mut url = format!("{}?part={}&embed=1", req.page_url.trim(), req.part.id());
    if !req.origins.is_empty() {
        let list: Vec<&str> = req.origins.iter().map(Origin::as_str).collect();
        url.push_str("&origin=");
        url.push_str(&percent_encode(&list.join(",")));
    }
    match &req.content {
        Some(ContentSource::Inline { encoded }) => {
            url.push_str("&content=");
            url.push_str(&percent_encode(encoded));
        }
        Some(ContentSource::Path { path }) => {
            url.push_str("&src=");
            url.push_str(&percent_encode(path));
        }
        None => {}
    }
    url
}

/// The `<iframe>` an instructor pastes: a `title` for assistive technology,
/// `loading="lazy"`, full width, no border, and no `sandbox` attribute (a
/// sandbox without `allow-same-origin` gives the page an opaque origin, so
/// localStorage throws and no progress could be kept). Every attribute is
/// escaped. The page shows this as text to copy; it is never inserted into
/// the DOM.
pub fn iframe_snippet(req: &SnippetRequest) -> String {
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"{}\" loading=\"lazy\" style=\"border:0;width:100%\"></iframe>",
        escape_attribute(&embed_url(req)),
        escape_attribute(req.part.title()),
        req.height.clamp(1, MAX_HEIGHT)
    )
}

/// The `<script>` line for hosts that load neither H5P's resizer nor their
/// own: the parent script that ships beside the page.
pub fn resizer_script_tag(page_url: &str) -> String {
    let base = page_url.trim();
    let sep = if base.ends_with('/') { "" } else { "/" };
    format!("<script src=\"{}\" defer></script>", escape_attribute(&format!("{base}{sep}ttft-lab-resizer.js")))
}

/// What the Embed panel says about progress inside another site.
pub const STORAGE_NOTE: &str = "Progress a learner saves inside the embedded page is kept by their browser for \
this site as embedded in that course page. It is not shared with the course's own records or with ttft-lab opened \
on its own, and a browser that blocks third-party storage may keep it only for the visit.";

// ---------------------------------------------------------------- height messages

/// The largest height accepted, in CSS pixels. A taller value is a bug or
/// an attack on the parent's layout.
pub const MAX_HEIGHT: u32 = 100_000;

/// ttft-lab's own height message.
pub fn own_height_message(height: u32) -> Value {
    json!({"type": "ttft-lab:height", "version": 1, "height": height.min(MAX_HEIGHT)})
}

/// H5P's `hello`: the iframe asks whether the parent runs the resizer.
pub fn h5p_hello() -> Value {
    json!({"context": "h5p", "action": "hello"})
}

/// H5P's `prepareResize`, with the document's heights.
pub fn h5p_prepare_resize(scroll_height: u32, client_height: u32) -> Value {
    json!({"context": "h5p", "action": "prepareResize", "scrollHeight": scroll_height.min(MAX_HEIGHT), "clientHeight": client_height.min(MAX_HEIGHT)})
}

/// H5P's `resize`, with the height the iframe should take.
pub fn h5p_resize(scroll_height: u32) -> Value {
    json!({"context": "h5p", "action": "resize", "scrollHeight": scroll_height.min(MAX_HEIGHT)})
}

/// A height message the parent accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum HeightMessage {
    /// ttft-lab's own: set the iframe to `height`.
    Own { height: u32 },
    /// H5P `hello`: answer `hello`.
    H5pHello,
    /// H5P `prepareResize`.
    H5pPrepareResize { scroll_height: u32, client_height: u32 },
    /// H5P `resize`: set the iframe to `scroll_height`.
    H5pResize { scroll_height: u32 },
}

/// Why a message is ignored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum MessageError {
    /// Neither dialect (another script's message): ignore silently.
    NotOurs,
    /// Our dialect, a version this code does not know.
    Version,
    /// An H5P action the parent does not handle.
    Action { action: String },
    /// A height that is missing, not a number, negative, not finite or
    /// above [`MAX_HEIGHT`].
    BadHeight { field: String },
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::NotOurs => f.write_str("not a height message"),
            MessageError::Version => f.write_str("a ttft-lab height message of an unknown version"),
            MessageError::Action { action } => write!(f, "H5P action \"{action}\" is not handled"),
            MessageError::BadHeight { field } => write!(f, "{field} is not a height from 0 to {MAX_HEIGHT} pixels"),
        }
    }
}

impl std::error::Error for MessageError {}

/// A height in 0..=MAX_HEIGHT from a JSON value, rounded up to a whole
/// pixel (browsers report fractions).
fn height(value: Option<&Value>, field: &str) -> Result<u32, MessageError> {
    let bad = || MessageError::BadHeight { field: field.to_owned() };
    let h = value.and_then(Value::as_f64).ok_or_else(bad)?;
    if !h.is_finite() || h < 0.0 || h > f64::from(MAX_HEIGHT) {
        return Err(bad());
    }
    Ok(h.ceil() as u32)
}

/// The parent's check of a message from an iframe (after it has matched
/// `event.source` to one of its iframes).
pub fn read_height_message(data: &Value) -> Result<HeightMessage, MessageError> {
    if data.get("type").and_then(Value::as_str) == Some("ttft-lab:height") {
        if data.get("version").and_then(Value::as_u64) != Some(1) {
            return Err(MessageError::Version);
        }
        return Ok(HeightMessage::Own { height: height(data.get("height"), "height")? });
    }
    if data.get("context").and_then(Value::as_str) != Some("h5p") {
        return Err(MessageError::NotOurs);
    }
    match data.get("action").and_then(Value::as_str) {
        Some("hello") => Ok(HeightMessage::H5pHello),
        Some("prepareResize") => Ok(HeightMessage::H5pPrepareResize {
            scroll_height: height(data.get("scrollHeight"), "scrollHeight")?,
            client_height: height(data.get("clientHeight"), "clientHeight")?,
        }),
        Some("resize") => Ok(HeightMessage::H5pResize { scroll_height: height(data.get("scrollHeight"), "scrollHeight")? }),
        other => Err(MessageError::Action { action: other.unwrap_or("").chars().take(40).collect() }),
    }
}

/// What the embedded page should do after a message from its parent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ChildAction {
    /// Post this message to the parent.
    Send { message: Value },
    /// Measure again and report (the parent window resized).
    Remeasure,
    /// Nothing to do.
    Nothing,
}

/// The embedded page's side of H5P's resize exchange. Before a parent
/// answers `hello`, size changes send `hello` again (as H5P's own iframe
/// does), so a resizer that loads late still finds the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct H5pChild {
    /// The parent answered `hello`: it runs a resizer.
    pub friendly: bool,
    /// The last measured document height.
    pub scroll_height: u32,
}

impl H5pChild {
    /// The content changed size: what to post.
    pub fn on_size(&mut self, scroll_height: u32, client_height: u32) -> Value {
        self.scroll_height = scroll_height.min(MAX_HEIGHT);
        if self.friendly {
            h5p_prepare_resize(scroll_height, client_height)
        } else {
            h5p_hello()
        }
    }

    /// A message from the parent (already checked to come from
    /// `window.parent`).
    pub fn on_parent_message(&mut self, data: &Value) -> ChildAction {
        if data.get("context").and_then(Value::as_str) != Some("h5p") {
            return ChildAction::Nothing;
        }
        match data.get("action").and_then(Value::as_str) {
            Some("ready") => ChildAction::Send { message: h5p_hello() },
            Some("hello") => {
                self.friendly = true;
                ChildAction::Remeasure
            }
            Some("resizePrepared") => ChildAction::Send { message: h5p_resize(self.scroll_height) },
            Some("resize") => ChildAction::Remeasure,
            _ => ChildAction::Nothing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(query: &str, expected: EmbedOptions, problems: &[EmbedError]) {
        let got = parse_query(query);
        assert_eq!(got.options, expected, "{query}");
        assert_eq!(got.problems, problems, "{query}");
    }

    fn origin(s: &str) -> Origin {
        parse_origin(s).unwrap()
    }

    #[test]
    fn origins() {
        assert_eq!(origin("https://LMS.example.edu/").as_str(), "https://lms.example.edu");
        assert_eq!(origin("https://lms.example.edu:443").as_str(), "https://lms.example.edu");
        assert_eq!(origin("https://lms.example.edu:8443").as_str(), "https://lms.example.edu:8443");
        assert_eq!(origin("http://localhost:3000").as_str(), "http://localhost:3000");
        assert_eq!(origin("http://127.0.0.1").as_str(), "http://127.0.0.1");
        assert_eq!(origin("http://[::1]:80").as_str(), "http://[::1]");
        let e = |s: &str| parse_origin(s).unwrap_err();
        assert_eq!(e("*"), OriginError::Wildcard { text: "*".into() });
        assert_eq!(e("null"), OriginError::Wildcard { text: "null".into() });
        assert_eq!(e("http://lms.example.edu"), OriginError::InsecureRemote { text: "http://lms.example.edu".into() });
        assert_eq!(e("https://lms.example.edu/course/1"), OriginError::HasPath { text: "https://lms.example.edu/course/1".into() });
        assert_eq!(e("javascript://x"), OriginError::Scheme { text: "javascript://x".into() });
        assert_eq!(e("lms.example.edu"), OriginError::Malformed { text: "lms.example.edu".into() });
        assert_eq!(e("https://a@b.com"), OriginError::Malformed { text: "https://a@b.com".into() });
        assert_eq!(e("https://b..com"), OriginError::Malformed { text: "https://b..com".into() });
        assert_eq!(e("https://b.com:"), OriginError::Malformed { text: "https://b.com:".into() });
        assert_eq!(e("https://b.com:0"), OriginError::Malformed { text: "https://b.com:0".into() });
        assert_eq!(e("https://"), OriginError::Malformed { text: "https://".into() });
    }

    #[test]
    fn queries() {
        check("", EmbedOptions::default(), &[]);
        check(
            "?part=trace&embed=1&origin=https%3A%2F%2Flms.example.edu&origin=https://lms.example.edu,https://moodle.example.org:8443",
            EmbedOptions {
                part: Some(EmbedPart::Trace),
                embed: true,
                origins: vec![origin("https://lms.example.edu"), origin("https://moodle.example.org:8443")],
                content: None,
            },
            &[],
        );
        check(
            "part=choice&embed=yes&origin=*&origin=http%3A%2F%2Fevil.com&src=..%2Fsecret.json",
            EmbedOptions { part: Some(EmbedPart::Choice), ..EmbedOptions::default() },
            &[
                EmbedError::BadEmbedFlag { value: "yes".into() },
                EmbedError::Origin { error: OriginError::Wildcard { text: "*".into() } },
                EmbedError::Origin { error: OriginError::InsecureRemote { text: "http://evil.com".into() } },
                EmbedError::BadSource { src: "../secret.json".into() },
            ],
        );
        check(
            "part=trace&content=eyJhIjoxfQ",
            EmbedOptions { part: Some(EmbedPart::Trace), content: Some(ContentSource::Inline { encoded: "eyJhIjoxfQ".into() }), ..EmbedOptions::default() },
            &[],
        );
        check(
            "src=exercises/week-3.json",
            EmbedOptions { content: Some(ContentSource::Path { path: "exercises/week-3.json".into() }), ..EmbedOptions::default() },
            &[],
        );
        check("src=x.json&content=abc", EmbedOptions::default(), &[EmbedError::BothSources]);
        check("content=a%2Bb", EmbedOptions::default(), &[EmbedError::BadContent]);
        check("part=%zz&part=nope", EmbedOptions::default(), &[EmbedError::BadEscape { key: "part".into() }, EmbedError::UnknownPart { part: "nope".into() }]);
        for bad in ["//evil.com/x.json", "/abs.json", "https://x/y.json", "a/./b.json", "a b.json", "x.js", "a\\b.json"] {
            assert!(!is_same_origin_json_path(bad), "{bad}");
        }
    }

    #[test]
    fn every_part_reads_back_from_its_id() {
        for part in EmbedPart::ALL {
            assert_eq!(EmbedPart::from_id(part.id()), Some(part));
            assert!(!part.title().is_empty());
        }
        check("part=timeline&embed=1", EmbedOptions { part: Some(EmbedPart::Timeline), embed: true, ..EmbedOptions::default() }, &[]);
    }

    #[test]
    fn statements_go_only_to_named_origins() {
        let q = parse_query("part=trace&embed=1&origin=https://lms.example.edu").options;
        assert_eq!(q.statement_targets(), &[origin("https://lms.example.edu")]);
        assert!(q.allows("https://lms.example.edu") && !q.allows("https://evil.example"));
        assert!(parse_query("part=trace&embed=1").options.statement_targets().is_empty());
        assert!(parse_query("part=trace&origin=https://lms.example.edu").options.statement_targets().is_empty());
    }

    #[test]
    fn the_snippet_is_escaped() {
        let req = SnippetRequest {
            page_url: "https://x.example/ttft-lab/\"><script>".into(),
            part: EmbedPart::Interview,
            origins: vec![origin("https://lms.example.edu")],
            content: Some(ContentSource::Path { path: "a/b.json".into() }),
            height: 640,
        };
        assert_eq!(
            iframe_snippet(&req),
            "<iframe src=\"https://x.example/ttft-lab/&quot;&gt;&lt;script&gt;?part=interview&amp;embed=1&amp;origin=https%3A%2F%2Flms.example.edu&amp;src=a%2Fb.json\" \
             title=\"ttft-lab interview question with self-score\" width=\"100%\" height=\"640\" loading=\"lazy\" style=\"border:0;width:100%\"></iframe>"
        );
        assert!(!iframe_snippet(&req).contains("sandbox"));
        assert_eq!(resizer_script_tag("https://x.example/ttft-lab"), "<script src=\"https://x.example/ttft-lab/ttft-lab-resizer.js\" defer></script>");
        // The URL the snippet names reads back to the same options.
        let url = embed_url(&req);
        let back = parse_query(url.split_once('?').unwrap().1);
        assert_eq!(back.options.origins, req.origins);
        assert_eq!(back.options.content, req.content);
        assert_eq!(back.options.part, Some(EmbedPart::Interview));
    }

    fn check_message(data: Value, expected: Result<HeightMessage, MessageError>) {
        assert_eq!(read_height_message(&data), expected, "{data}");
    }

    #[test]
    fn height_messages() {
        check_message(own_height_message(812), Ok(HeightMessage::Own { height: 812 }));
        check_message(json!({"type": "ttft-lab:height", "version": 1, "height": 99.2}), Ok(HeightMessage::Own { height: 100 }));
        check_message(h5p_hello(), Ok(HeightMessage::H5pHello));
        check_message(h5p_prepare_resize(900, 600), Ok(HeightMessage::H5pPrepareResize { scroll_height: 900, client_height: 600 }));
        check_message(h5p_resize(900), Ok(HeightMessage::H5pResize { scroll_height: 900 }));
        let bad = |f: &str| Err(MessageError::BadHeight { field: f.into() });
        check_message(json!({"type": "ttft-lab:height", "version": 1, "height": -5}), bad("height"));
        check_message(json!({"type": "ttft-lab:height", "version": 1, "height": "500"}), bad("height"));
        check_message(json!({"type": "ttft-lab:height", "version": 1, "height": null}), bad("height"));
        check_message(json!({"type": "ttft-lab:height", "version": 1, "height": 1e12}), bad("height"));
        check_message(json!({"type": "ttft-lab:height", "version": 1}), bad("height"));
        check_message(json!({"type": "ttft-lab:height", "version": 2, "height": 5}), Err(MessageError::Version));
        check_message(json!({"context": "h5p", "action": "resize"}), bad("scrollHeight"));
        check_message(json!({"context": "h5p", "action": "setFullScreen"}), Err(MessageError::Action { action: "setFullScreen".into() }));
        check_message(json!({"hello": "world"}), Err(MessageError::NotOurs));
        check_message(json!("a string"), Err(MessageError::NotOurs));
        assert_eq!(own_height_message(u32::MAX)["height"], json!(MAX_HEIGHT));
    }

    #[test]
    fn the_h5p_handshake() {
        let mut child = H5pChild::default();
        assert_eq!(child.on_size(900, 600), h5p_hello(), "before the parent answers, keep saying hello");
        assert_eq!(child.on_parent_message(&json!({"context": "h5p", "action": "ready"})), ChildAction::Send { message: h5p_hello() });
        assert_eq!(child.on_parent_message(&json!({"context": "h5p", "action": "hello"})), ChildAction::Remeasure);
        assert!(child.friendly);
        assert_eq!(child.on_size(950, 600), h5p_prepare_resize(950, 600));
        assert_eq!(
            child.on_parent_message(&json!({"context": "h5p", "action": "resizePrepared"})),
            ChildAction::Send { message: h5p_resize(950) }
        );
        assert_eq!(child.on_parent_message(&json!({"context": "h5p", "action": "resize"})), ChildAction::Remeasure);
        assert_eq!(child.on_parent_message(&json!({"context": "other", "action": "hello"})), ChildAction::Nothing);
    }

    proptest::proptest! {
        #[test]
        fn no_query_panics(q in "\\PC{0,120}") {
            let got = parse_query(&q);
            for o in &got.options.origins {
                proptest::prop_assert!(o.as_str().starts_with("https://") || o.as_str().starts_with("http://"));
            }
        }

        #[test]
        fn the_embed_url_reads_back(q in "(part=(trace|x)|embed=1|origin=[a-z:/%0-9A-F.,*]{0,30}|content=[A-Za-z0-9_=-]{0,12}|src=[a-z./]{0,12})(&(origin=https://[a-z]{1,5}\\.edu|src=[a-z]{1,4}\\.json|content=[a-z]{1,4})){0,3}") {
            let read = parse_query(&q).options;
            let req = SnippetRequest {
                page_url: "https://lab.example/".into(),
                part: read.part.unwrap_or(EmbedPart::Lesson),
                origins: read.origins.clone(),
                content: read.content.clone(),
                height: 600,
            };
            let url = embed_url(&req);
            let back = parse_query(url.split_once('?').map_or("", |(_, query)| query)).options;
            proptest::prop_assert_eq!(back.origins, read.origins);
            proptest::prop_assert_eq!(back.content, read.content);
        }

        #[test]
        fn encoding_round_trips(s in "\\PC{0,40}") {
            proptest::prop_assert_eq!(percent_decode(&percent_encode(&s)), Some(s));
        }
    }
}
