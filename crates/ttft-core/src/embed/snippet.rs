//! The iframe snippet an instructor copies: the embed URL, the escaped
//! `<iframe>` and the parent's resizer script tag.

use crate::course_part::CoursePart;
use crate::embed::height::MAX_HEIGHT;
use crate::embed::origin::Origin;
use crate::embed::query::{percent_encode, ContentSource};
use serde::{Deserialize, Serialize};

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
    pub part: CoursePart,
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
        escape_attribute(req.part.embed_title()),
        req.height.clamp(1, MAX_HEIGHT)
    )
}

/// The `<script>` line for hosts that load neither H5P's resizer nor their
/// own: the parent script that ships beside the page.
pub fn resizer_script_tag(page_url: &str) -> String {
    let base = page_url.trim();
    let sep = if base.ends_with('/') { "" } else { "/" };
    format!(
        "<script src=\"{}\" defer></script>",
        escape_attribute(&format!("{base}{sep}ttft-lab-resizer.js"))
    )
}

/// What the Embed panel says about progress inside another site.
pub const STORAGE_NOTE: &str = "Progress a learner saves inside the embedded page is kept by their browser for \
this site as embedded in that course page. It is not shared with the course's own records or with ttft-lab opened \
on its own, and a browser that blocks third-party storage may keep it only for the visit.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::origin::tests::origin;
    use crate::embed::query::parse_query;

    #[test]
    fn the_snippet_is_escaped() {
        let req = SnippetRequest {
            page_url: "https://x.example/ttft-lab/\"><script>".into(),
            part: CoursePart::Interview,
            origins: vec![origin("https://lms.example.edu")],
            content: Some(ContentSource::Path {
                path: "a/b.json".into(),
            }),
            height: 640,
        };
        assert_eq!(
            iframe_snippet(&req),
            "<iframe src=\"https://x.example/ttft-lab/&quot;&gt;&lt;script&gt;?part=interview&amp;embed=1&amp;origin=https%3A%2F%2Flms.example.edu&amp;src=a%2Fb.json\" \
             title=\"ttft-lab interview question with self-score\" width=\"100%\" height=\"640\" loading=\"lazy\" style=\"border:0;width:100%\"></iframe>"
        );
        assert!(!iframe_snippet(&req).contains("sandbox"));
        assert_eq!(
            resizer_script_tag("https://x.example/ttft-lab"),
            "<script src=\"https://x.example/ttft-lab/ttft-lab-resizer.js\" defer></script>"
        );
        // The URL the snippet names reads back to the same options.
        let url = embed_url(&req);
        let back = parse_query(url.split_once('?').unwrap().1);
        assert_eq!(back.options.origins, req.origins);
        assert_eq!(back.options.content, req.content);
        assert_eq!(back.options.part, Some(CoursePart::Interview));
    }
}
