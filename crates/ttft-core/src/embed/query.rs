//! The embedded page's query string: the part to show (`?part=`), `embed=1`,
//! the allow-listed parent origins, and authored content (`content=` or
//! `src=`), read leniently with each problem a typed [`EmbedError`].

use crate::course_part::CoursePart;
use crate::embed::origin::{parse_origin, Origin, OriginError};
use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde::{Deserialize, Serialize};
use std::fmt;

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
    /// `part=` names no part that can be embedded (the app knows `author`,
    /// which is not embedded, and does not report it).
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
    pub part: Option<CoursePart>,
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
}

/// The query string read, with every problem found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmbedQuery {
    pub options: EmbedOptions,
    pub problems: Vec<EmbedError>,
}

/// Decodes `%XX` escapes and `+` (a space in query strings); `None` for a
/// `%` not followed by two hex digits (which `percent-encoding` would pass
/// through unread) or a result that is not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let escapes_whole = text.split('%').skip(1).all(|after| {
        after
            .as_bytes()
            .get(..2)
            .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
    });
    if !escapes_whole {
        return None;
    }
    let spaced = text.replace('+', " ");
    percent_decode_str(&spaced)
        .decode_utf8()
        .ok()
        .map(|s| s.into_owned())
}

/// Everything but the characters RFC 3986 leaves unreserved.
const QUERY_VALUE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// Encodes a query value: unreserved characters stay, everything else is
/// `%XX`.
pub fn percent_encode(text: &str) -> String {
    utf8_percent_encode(text, QUERY_VALUE).to_string()
}

/// True for a path on this site: relative, no `..`, no scheme or `//`, only
/// plain path characters, ending in `.json`.
fn is_same_origin_json_path(path: &str) -> bool {
    !path.is_empty()
        && path.len() <= 512
        && !path.starts_with('/')
        && path.ends_with(".json")
        && path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/' | b'~'))
        && path
            .split('/')
            .all(|seg| !seg.is_empty() && seg != ".." && seg != ".")
}

/// Reads the page's query string (with or without the leading `?`).
/// Unknown keys are ignored (the app has its own, such as `#` anchors).
pub fn parse_query(query: &str) -> EmbedQuery {
    let mut q = EmbedQuery::default();
    let mut content = None;
    let mut src = None;
    for pair in query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
        let Some(value) = percent_decode(raw) else {
            q.problems.push(EmbedError::BadEscape {
                key: key.chars().take(40).collect(),
            });
            continue;
        };
        match key {
            "part" => match CoursePart::from_id(value.trim()).filter(|p| p.embeds()) {
                Some(p) => q.options.part = Some(p),
                None => q.problems.push(EmbedError::UnknownPart {
                    part: value.chars().take(40).collect(),
                }),
            },
            "embed" => match value.trim() {
                "1" | "true" => q.options.embed = true,
                "0" | "false" => q.options.embed = false,
                other => q.problems.push(EmbedError::BadEmbedFlag {
                    value: other.chars().take(40).collect(),
                }),
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
                if value
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'='))
                {
                    content = Some(value);
                } else {
                    q.problems.push(EmbedError::BadContent);
                }
            }
            "src" => {
                if is_same_origin_json_path(value.trim()) {
                    src = Some(value.trim().to_owned());
                } else {
                    q.problems.push(EmbedError::BadSource {
                        src: value.chars().take(80).collect(),
                    });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::origin::tests::origin;
    use crate::embed::snippet::{embed_url, SnippetRequest};

    fn check(query: &str, expected: EmbedOptions, problems: &[EmbedError]) {
        let got = parse_query(query);
        assert_eq!(got.options, expected, "{query}");
        assert_eq!(got.problems, problems, "{query}");
    }

    #[test]
    fn queries() {
        check("", EmbedOptions::default(), &[]);
        check(
            "?part=trace&embed=1&origin=https%3A%2F%2Flms.example.edu&origin=https://lms.example.edu,https://moodle.example.org:8443",
            EmbedOptions {
                part: Some(CoursePart::Trace),
                embed: true,
                origins: vec![origin("https://lms.example.edu"), origin("https://moodle.example.org:8443")],
                content: None,
            },
            &[],
        );
        check(
            "part=choice&embed=yes&origin=*&origin=http%3A%2F%2Fevil.com&src=..%2Fsecret.json",
            EmbedOptions {
                part: Some(CoursePart::Choice),
                ..EmbedOptions::default()
            },
            &[
                EmbedError::BadEmbedFlag {
                    value: "yes".into(),
                },
                EmbedError::Origin {
                    error: OriginError::Wildcard { text: "*".into() },
                },
                EmbedError::Origin {
                    error: OriginError::InsecureRemote {
                        text: "http://evil.com".into(),
                    },
                },
                EmbedError::BadSource {
                    src: "../secret.json".into(),
                },
            ],
        );
        check(
            "part=trace&content=eyJhIjoxfQ",
            EmbedOptions {
                part: Some(CoursePart::Trace),
                content: Some(ContentSource::Inline {
                    encoded: "eyJhIjoxfQ".into(),
                }),
                ..EmbedOptions::default()
            },
            &[],
        );
        check(
            "src=exercises/week-3.json",
            EmbedOptions {
                content: Some(ContentSource::Path {
                    path: "exercises/week-3.json".into(),
                }),
                ..EmbedOptions::default()
            },
            &[],
        );
        check(
            "src=x.json&content=abc",
            EmbedOptions::default(),
            &[EmbedError::BothSources],
        );
        check(
            "content=a%2Bb",
            EmbedOptions::default(),
            &[EmbedError::BadContent],
        );
        check(
            "part=%zz&part=nope",
            EmbedOptions::default(),
            &[
                EmbedError::BadEscape { key: "part".into() },
                EmbedError::UnknownPart {
                    part: "nope".into(),
                },
            ],
        );
        for bad in [
            "//evil.com/x.json",
            "/abs.json",
            "https://x/y.json",
            "a/./b.json",
            "a b.json",
            "x.js",
            "a\\b.json",
        ] {
            assert!(!is_same_origin_json_path(bad), "{bad}");
        }
    }

    #[test]
    fn escapes() {
        assert_eq!(percent_decode("a+b%2B%C3%A9"), Some("a b+\u{e9}".into()));
        assert_eq!(percent_decode("100%"), None);
        assert_eq!(percent_decode("%4"), None);
        assert_eq!(percent_decode("%g0"), None);
        assert_eq!(percent_decode("%FF"), None, "not UTF-8");
        assert_eq!(percent_encode("a b/é~"), "a%20b%2F%C3%A9~");
    }

    #[test]
    fn every_embeddable_part_reads_back() {
        let all = CoursePart::ALL.into_iter().chain(CoursePart::UNLISTED);
        for part in all.filter(|p| p.embeds()) {
            assert_eq!(
                parse_query(&format!("part={}", part.id())).options.part,
                Some(part)
            );
        }
        check(
            "part=author",
            EmbedOptions::default(),
            &[EmbedError::UnknownPart {
                part: "author".into(),
            }],
        );
        check(
            "part=timeline&embed=1",
            EmbedOptions {
                part: Some(CoursePart::Timeline),
                embed: true,
                ..EmbedOptions::default()
            },
            &[],
        );
    }

    #[test]
    fn statements_go_only_to_named_origins() {
        let q = parse_query("part=trace&embed=1&origin=https://lms.example.edu").options;
        assert_eq!(q.statement_targets(), &[origin("https://lms.example.edu")]);
        assert!(parse_query("part=trace&embed=1")
            .options
            .statement_targets()
            .is_empty());
        assert!(parse_query("part=trace&origin=https://lms.example.edu")
            .options
            .statement_targets()
            .is_empty());
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
                part: read.part.unwrap_or(CoursePart::Lesson),
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
