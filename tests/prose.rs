//! Browser tests of `prose::checked_href`, the app's second lock on links:
//! a relative link is resolved against the page as the browser resolves it
//! and kept only when it stays on the page's origin. Inputs here include
//! ones the core's text check already refuses (a backslash), to show this
//! lock holds on its own.

#![cfg(target_arch = "wasm32")]

use ttft_lab::components::prose::checked_href;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const PAGE: &str = "https://courses.example.org/ttft-lab/?part=trace";

fn check(href: &str, expected: Option<&str>) {
    assert_eq!(checked_href(href, PAGE).as_deref(), expected, "{href}");
}

#[wasm_bindgen_test]
fn relative_links_stay_on_the_page_origin() {
    for same in [
        "?part=choice",
        "#split",
        "notes/week3.html",
        "/other/page",
        "../up.html",
        "./x:y",
    ] {
        check(same, Some(same));
    }
    // Browsers read a backslash as a slash: these leave the site.
    check("/\\evil.example", None);
    check("\\\\evil.example/x", None);
    check("//evil.example", None);
}

#[wasm_bindgen_test]
fn absolute_links_must_be_web_addresses() {
    check(
        "https://docs.vllm.ai/en/latest/",
        Some("https://docs.vllm.ai/en/latest/"),
    );
    check("http://example.org", Some("http://example.org"));
    check("javascript:alert(1)", None);
    // The parser ignores tabs and newlines and leading spaces, and so does
    // the check for a scheme that spares relative links an exception.
    check("java\tscript:alert(1)", None);
    check(" \njavascript:alert(1)", None);
    check("data:text/html,hi", None);
}
