//! Fuzz target: the embed query string, and the parent's height-message
//! check on the same bytes read as JSON.
//!
//! Every origin kept is https, or http on this machine, with no path; and
//! the snippet built from what was read, read back, keeps the same origins
//! and content source.
#![no_main]

use ttft_core::embed::height::read_height_message;
use ttft_core::course_part::CoursePart;
use ttft_core::embed::query::parse_query;
use ttft_core::embed::snippet::{embed_url, SnippetRequest};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let q = parse_query(text);
    for o in &q.options.origins {
        let s = o.as_str();
        assert!(s.starts_with("https://") || s.starts_with("http://localhost") || s.starts_with("http://127.0.0.1") || s.starts_with("http://[::1]"));
        assert!(!s.split_once("://").map_or("", |(_, rest)| rest).contains('/'));
    }
    let req = SnippetRequest {
        page_url: "https://lab.example/".into(),
        part: q.options.part.unwrap_or(CoursePart::Lesson),
        origins: q.options.origins.clone(),
        content: q.options.content.clone(),
        height: 600,
    };
    let url = embed_url(&req);
    let back = parse_query(url.split_once('?').map_or("", |(_, query)| query));
    assert_eq!(back.options.origins, q.options.origins);
    assert_eq!(back.options.content, q.options.content);
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) {
        let _ = read_height_message(&value);
    }
});
