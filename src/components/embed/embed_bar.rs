//! The thin bar an embedded part shows instead of the site's header: the
//! app's name, a link that opens the same part as a full page in a new tab,
//! and any problem with the embed address (a refused `origin=`, say), so the
//! instructor who wrote the URL sees it at once.
//!
//! What it deliberately does not do: navigate between parts (an embedded
//! part stands alone) or hide problems; a refused option is simply left out
//! of what the page does, and said here.

use crate::components::embed::Embedding;
use leptos::prelude::*;
use ttft_core::course_part::CoursePart;
use ttft_core::embed::query::{percent_encode, ContentSource};

/// The full page's address for `part`, keeping the authored content (but
/// not `embed` or the origins, which only matter inside a host page).
pub fn full_page_href(part: CoursePart, content: Option<&ContentSource>) -> String {
    let mut href = part.href();
    match content {
        Some(ContentSource::Inline { encoded }) => {
            href.push_str("&content=");
            href.push_str(&percent_encode(encoded));
        }
        Some(ContentSource::Path { path }) => {
            href.push_str("&src=");
            href.push_str(&percent_encode(path));
        }
        None => {}
    }
    href
}

/// The embedded page's bar.
#[component]
pub fn EmbedBar(
    /// The part on show.
    part: CoursePart,
    /// How the page was opened.
    embedding: Embedding,
) -> impl IntoView {
    let href = full_page_href(part, embedding.options().content.as_ref());
    let problems = embedding.problems(|id| CoursePart::from_id(id).is_some());
    let problem_list = (!problems.is_empty()).then(|| {
        let items = problems
            .into_iter()
            .map(|p| view! { <li>{p}</li> })
            .collect_view();
        view! {
            <div class="notice notice-warning embed-problems">
                <p>"This embed address has problems; the options concerned are left out:"</p>
                <ul aria-label="Problems with this embed address">{items}</ul>
            </div>
        }
    });
    view! {
        <header class="embed-bar">
            <p class="embed-bar-name">"ttft-lab"</p>
            <a class="embed-open" href=href target="_blank" rel="noopener">
                "Open in ttft-lab"
                <span class="visually-hidden">" (opens in a new tab)"</span>
            </a>
        </header>
        {problem_list}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(part: CoursePart, content: Option<ContentSource>, expected: &str) {
        assert_eq!(full_page_href(part, content.as_ref()), expected);
    }

    #[test]
    fn the_full_page_keeps_part_and_content_only() {
        check(CoursePart::Trace, None, "?part=trace");
        check(
            CoursePart::Trace,
            Some(ContentSource::Inline {
                encoded: "eyJh-_".into(),
            }),
            "?part=trace&content=eyJh-_",
        );
        check(
            CoursePart::Choice,
            Some(ContentSource::Path {
                path: "ex/w3.json".into(),
            }),
            "?part=choice&src=ex%2Fw3.json",
        );
    }
}
