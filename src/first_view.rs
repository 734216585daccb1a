//! Every part's first view as static HTML, written into the released page
//! so that a learner reads the part they opened before the app's wasm has
//! arrived, and the lesson with scripting off too (issue #12).
//!
//! [`render_at`] renders [`Shell`] natively (leptos `ssr`) at a part's
//! address, over the embedded course and an empty store in memory: exactly
//! what the app shows a learner who opens that address with nothing saved
//! (no ticks, the worked timeline's own values, an empty answer). The
//! address comes from `address::with_search`. [`fill`] gives every part's
//! view, the lesson's too, as a file of its own beside the page
//! (`first-view-PART-HASH.html`, named after its content so that no cache
//! pairs an old view with a new page), which the page names in a data block
//! in place of [`FILES_PLACEHOLDER`]. A learner downloads only the view of
//! the part they open: each part's view in the page had cost every part's
//! first load 17 KB gzipped, and the lesson's alone, 13 KB, was still paid
//! by a learner opening any other part. index.html's scripts fetch the view
//! the address asks for as soon as the page's head is read (in parallel
//! with the stylesheets, which hold the first paint back anyway), show the
//! loading line until it is in, and start the app's wasm only once it is
//! painted.
//!
//! Without scripting nothing can fetch a view, so [`fill`] also writes the
//! lesson as a plain page of its own, [`PLAIN_LESSON_FILE`], from
//! `content/app/lesson-plain.html` with the page's stylesheets, and
//! index.html sends a browser that runs no scripts there (`<noscript>`,
//! an instant refresh, and a link in case refreshes are off too).
//! In the browser the app mounts beside it and removes it in the same task
//! (`start`), so no frame shows both or neither, and the same markup means
//! nothing moves.
//!
//! Embed mode (`embed=1`) shows the same views: what only the full page
//! shows carries [`NOT_EMBEDDED`], which index.html's script removes, and
//! the part's embed bar ([`render_embed_bars`], a small data block each,
//! `<script type="text/html" id="first-view-embed-bar-PART">`: never run,
//! never parsed into the document) goes where the site's header was. A test checks that this gives exactly
//! what the app renders embedded, so a copy of every part in embed mode
//! (which would nearly double the page every learner downloads) is not
//! needed.
//!
//! An instructor's exercise (`?part=trace&src=FILE`) has no view here: its
//! words are in the instructor's file. The page holds, in a data block
//! each, the frame of the two parts that take one ([`AUTHORED_PARTS`]:
//! the part's view with only the app's notice of where an exercise comes
//! from in `<main>`, [`frame_lead`]), and index.html's script puts the
//! notice's origin sentence and the file's title and introduction in it
//! when they are plain words; for those addresses it fetches no part's
//! view file.
//!
//! What it deliberately does not do: write any text of its own (every word
//! comes from the components and the course); or hydrate (the app renders
//! afresh, so what it shows never depends on this HTML).

use crate::components::authoring::authored_content::{source_notice, ORIGIN_FILE, ORIGIN_LINK};
use crate::components::embed::embed_bar::EmbedBar;
use crate::components::embed::Embedding;
use crate::course::CourseError;
use crate::storage::{MemoryBackend, Store};
use crate::Shell;
use leptos::prelude::*;
use std::fmt;
use std::sync::Arc;
use ttft_core::content::Course;
use ttft_core::course_part::CoursePart;

/// Where `index.html` takes the embed bars' data blocks, and the plain
/// lesson page its template's lesson; nothing else in either may contain it.
pub const PLACEHOLDER: &str = "<!-- first-view -->";

/// Where the plain lesson page's template takes the page's stylesheets.
pub const STYLESHEETS_PLACEHOLDER: &str = "<!-- stylesheets -->";

/// The lesson as a plain page beside `index.html`, for a browser that runs
/// no scripts (index.html sends it there).
pub const PLAIN_LESSON_FILE: &str = "lesson.html";

/// The plain lesson page's template: its head, a line saying what it is,
/// and the two placeholders.
pub const PLAIN_LESSON_TEMPLATE: &str = include_str!("../content/app/lesson-plain.html");

/// The id of the element that holds the first view in the page.
pub const CONTAINER_ID: &str = "first-view";

/// Where `index.html`'s head takes the data block that names each part's
/// first-view file ([`FILES_ID`]); nothing else may contain it.
pub const FILES_PLACEHOLDER: &str = "<!-- first-view-files -->";

/// The id of the data block (JSON: part id to file name) that names the
/// file of every first view but the lesson's.
pub const FILES_ID: &str = "first-view-files";

/// The name of the file that holds a part's first view `html`: the part,
/// and a hash of the content, as Trunk names the page's other files.
pub fn file_name(part: CoursePart, html: &str) -> String {
    format!("{CONTAINER_ID}-{}-{:016x}.html", part.id(), fnv1a(html.as_bytes()))
}

/// The 64-bit FNV-1a hash: the same on every machine and every Rust
/// release, which a file name needs (std's hasher promises neither).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The attribute on everything the full page shows and an embedded part
/// does not (the site's header, the "Embed this part" panel): index.html's
/// script removes what carries it from a first view in embed mode.
pub const NOT_EMBEDDED: &str = "data-not-embedded";

/// The id of the data block that holds `part`'s embed bar.
pub fn embed_bar_id(part: CoursePart) -> String {
    format!("{CONTAINER_ID}-embed-bar-{}", part.id())
}

/// The parts an instructor's exercise file can be opened in (`lib.rs`'s
/// `part_view` draws `AuthoredPart` for these two).
pub const AUTHORED_PARTS: [CoursePart; 2] = [CoursePart::Trace, CoursePart::Choice];

/// The id of the data block that holds `part`'s frame ([`frame`]).
pub fn frame_id(part: CoursePart) -> String {
    format!("{CONTAINER_ID}-frame-{}", part.id())
}

/// A part's first view with `lead` in place of what its `<main>` held:
/// what the app shows around an instructor's exercise in that part. `None`
/// when the view has no `<main>`.
pub fn frame(view: &str, lead: &str) -> Option<String> {
    let start = view.find("<main")?;
    let inside = start + view[start..].find('>')? + 1;
    let end = inside + view[inside..].find("</main>")?;
    Some(format!("{}{lead}{}", &view[..inside], &view[end..]))
}

/// What a frame's `<main>` holds before the app has read an instructor's
/// exercise: the app's own holder and notice of where an exercise comes
/// from (`authored_content::source_notice`), with the origin sentence left
/// out and both its forms on the notice's last paragraph (`data-link`,
/// and `data-file` with `{}` for the address). index.html's script puts
/// the right one first in that paragraph and drops the two attributes (only
/// it knows the address), then adds the exercise's title and introduction
/// after the notice. `None` if the notice has no paragraph to hold them.
pub fn frame_lead() -> Option<String> {
    let html = Owner::new().with(|| view! { <div class="authored-part">{source_notice(())}</div> }.to_html());
    let html = strip_markers(&html);
    let last = html.rfind("<p>")?;
    Some(format!(
        "{}<p data-link=\"{}\" data-file=\"{}\">{}",
        &html[..last],
        attribute(ORIGIN_LINK),
        attribute(&ORIGIN_FILE.join("{}")),
        &html[last + "<p>".len()..]
    ))
}

/// `text` as an attribute's value between double quotes.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;")
}

/// One part's first view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstView {
    /// The part whose plain address (`?part=trace`) it shows.
    pub part: CoursePart,
    /// Its HTML.
    pub html: String,
}

/// Every part's first view, the lesson's first.
pub fn render_all(course: &Result<Course, CourseError>) -> Vec<FirstView> {
    every_part()
        .map(|part| FirstView {
            part,
            html: render_at(course.clone(), &part.href()),
        })
        .collect()
}

/// The bar each part that can be embedded shows instead of the site's
/// header at its plain embed address (`?part=trace&embed=1`), as the
/// app's own `EmbedBar` renders it.
pub fn render_embed_bars() -> Vec<FirstView> {
    every_part()
        .filter(|part| part.embeds())
        .map(|part| {
            let embedding = Embedding::from_query(&embed_address(part));
            let html = Owner::new().with(|| view! { <EmbedBar part=part embedding=embedding /> }.to_html());
            FirstView { part, html: strip_markers(&html) }
        })
        .collect()
}

/// Every part, the navigation's first (the lesson's first of all).
fn every_part() -> impl Iterator<Item = CoursePart> {
    CoursePart::ALL.into_iter().chain(CoursePart::UNLISTED)
}

/// `part`'s plain address in embed mode.
fn embed_address(part: CoursePart) -> String {
    format!("{}&embed=1", part.href())
}

/// The page as the app first shows it at the plain address, as HTML.
pub fn render(course: Result<Course, CourseError>) -> String {
    render_at(course, "")
}

/// The page as the app first shows it at the query `search`
/// (`?part=trace`), as HTML.
pub fn render_at(course: Result<Course, CourseError>, search: &str) -> String {
    let store = Store::with_backend(Arc::new(MemoryBackend::default()));
    let html = crate::address::with_search(search, || {
        Owner::new().with(|| view! { <Shell course=course store=store /> }.to_html())
    });
    strip_markers(&html)
}

/// Leptos marks where dynamic text starts and ends with empty comments
/// (`<!>`), for hydration; a page that is replaced, not hydrated, needs
/// none. Text never contains `<` unescaped, so only markers match. It also
/// writes empty dynamic text as one space, so that hydration finds a text
/// node; an element holding only that (an empty status line) would then no
/// longer be `:empty` and would take a line the app does not. No component
/// writes a lone space as an element's whole content.
fn strip_markers(html: &str) -> String {
    html.replace("<!>", "").replace("> </", "></")
}

/// Why the first views could not be written into a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FillError {
    /// The page lacks one of the two placeholders (it is not ttft-lab's
    /// index.html); it names the one missing.
    NoPlaceholder(&'static str),
    /// The page has more than one of a placeholder, or was filled already.
    SeveralPlaceholders(&'static str, usize),
    /// No view is the lesson's, which the plain lesson page needs.
    NoLesson,
    /// The page links no stylesheet for the plain lesson page to use.
    NoStylesheet,
    /// An embed bar or a frame holds text that would end or confuse its
    /// data block.
    NotScriptSafe(CoursePart),
    /// The view of a part that takes an instructor's exercise has no
    /// `<main>` to make its frame from.
    NoMain(CoursePart),
    /// The app's notice of where an instructor's exercise comes from has
    /// no paragraph for the origin sentence ([`frame_lead`]).
    NoNoticeParagraph,
}

impl fmt::Display for FillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FillError::NoPlaceholder(placeholder) => write!(f, "the page has no {placeholder} to fill"),
            FillError::SeveralPlaceholders(placeholder, n) => {
                write!(f, "the page has {n} placeholders {placeholder}; it needs exactly one")
            }
            FillError::NoLesson => write!(f, "no first view is the lesson's, which the plain lesson page needs"),
            FillError::NoStylesheet => write!(f, "the page links no stylesheet for the plain lesson page"),
            FillError::NotScriptSafe(part) => write!(
                f,
                "the {} part's embed bar or frame holds </script or <!--, which cannot sit in a data block",
                part.id()
            ),
            FillError::NoMain(part) => write!(f, "the {} part's first view has no <main> to make its frame from", part.id()),
            FillError::NoNoticeParagraph => {
                write!(f, "the notice above an instructor's exercise has no paragraph for where it comes from")
            }
        }
    }
}

impl std::error::Error for FillError {}

/// A first view written beside the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewFile {
    /// Its file name, beside `index.html` ([`file_name`]).
    pub name: String,
    /// Its HTML.
    pub html: String,
}

/// The filled page, and the files it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filled {
    pub page: String,
    /// Every part's first view, in the order given.
    pub files: Vec<ViewFile>,
    /// The plain lesson page, [`PLAIN_LESSON_FILE`].
    pub plain_lesson: String,
}

/// `page` with its placeholders filled: the embed bars and the frames of
/// the [`AUTHORED_PARTS`] among `views` in data blocks in place of
/// [`PLACEHOLDER`], the names of the views' files in a data block in place
/// of [`FILES_PLACEHOLDER`]; the views come back as files, and the
/// lesson's also as a plain page ([`plain_lesson`]).
pub fn fill(page: &str, views: &[FirstView], embed_bars: &[FirstView]) -> Result<Filled, FillError> {
    let lesson = views.iter().find(|v| v.part == CoursePart::Lesson).ok_or(FillError::NoLesson)?;
    let plain_lesson = plain_lesson(PLAIN_LESSON_TEMPLATE, page, &lesson.html)?;
    let mut blocks = Vec::new();
    for bar in embed_bars {
        blocks.push((embed_bar_id(bar.part), bar.part, bar.html.clone()));
    }
    let lead = frame_lead().ok_or(FillError::NoNoticeParagraph)?;
    for view in views.iter().filter(|v| AUTHORED_PARTS.contains(&v.part)) {
        let framed = frame(&view.html, &lead).ok_or(FillError::NoMain(view.part))?;
        blocks.push((frame_id(view.part), view.part, framed));
    }
    let mut html = String::new();
    for (id, part, block) in blocks {
        let lower = block.to_ascii_lowercase();
        if lower.contains("</script") || lower.contains("<!--") {
            return Err(FillError::NotScriptSafe(part));
        }
        html.push_str(&format!("<script type=\"text/html\" id=\"{id}\">{block}</script>"));
    }
    let files: Vec<ViewFile> = views
        .iter()
        .map(|v| ViewFile { name: file_name(v.part, &v.html), html: v.html.clone() })
        .collect();
    // Part ids are lowercase letters and file names add digits and `-.`,
    // so nothing here needs escaping in JSON or in a data block.
    let names: Vec<String> = views
        .iter()
        .zip(&files)
        .map(|(v, f)| format!("\"{}\":\"{}\"", v.part.id(), f.name))
        .collect();
    let listing = format!("<script type=\"application/json\" id=\"{FILES_ID}\">{{{}}}</script>", names.join(","));
    let page = replace_once(page, PLACEHOLDER, &html)?;
    let page = replace_once(&page, FILES_PLACEHOLDER, &listing)?;
    Ok(Filled { page, files, plain_lesson })
}

/// The plain lesson page: `template` with `page`'s stylesheet links (as
/// Trunk wrote them, with their integrity hashes) and the lesson's view
/// (`lesson`) in its two placeholders. The view goes straight into
/// `<body>`, where the app's own nodes go.
pub fn plain_lesson(template: &str, page: &str, lesson: &str) -> Result<String, FillError> {
    let links: Vec<&str> = page
        .match_indices("<link ")
        .filter_map(|(at, _)| page[at..].find('>').map(|end| &page[at..=at + end]))
        .filter(|link| link.contains("rel=\"stylesheet\""))
        .collect();
    if links.is_empty() {
        return Err(FillError::NoStylesheet);
    }
    let with_styles = replace_once(template, STYLESHEETS_PLACEHOLDER, &links.join("\n    "))?;
    replace_once(&with_styles, PLACEHOLDER, lesson)
}

/// `page` with its one `placeholder` replaced by `with`.
fn replace_once(page: &str, placeholder: &'static str, with: &str) -> Result<String, FillError> {
    match page.matches(placeholder).count() {
        0 => Err(FillError::NoPlaceholder(placeholder)),
        1 => Ok(page.replacen(placeholder, with, 1)),
        n => Err(FillError::SeveralPlaceholders(placeholder, n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course;

    fn view(part: CoursePart, html: &str) -> FirstView {
        FirstView { part, html: html.into() }
    }

    #[test]
    fn the_placeholders_are_filled_once_and_every_view_is_a_file() {
        let css = "<link rel=\"stylesheet\" href=\"./main-1.css\" integrity=\"sha384-x\"/>";
        let page = format!("<head>{css}<link rel=\"icon\" href=\"data:,\">{FILES_PLACEHOLDER}</head><body>{PLACEHOLDER}<div id=\"boot\"></div></body>");
        let views = [view(CoursePart::Lesson, "<main>hi</main>"), view(CoursePart::Trace, "<main>t</main>")];
        let lesson = file_name(CoursePart::Lesson, "<main>hi</main>");
        let trace = file_name(CoursePart::Trace, "<main>t</main>");
        let filled = fill(&page, &views, &[]).expect("fills");
        assert_eq!(
            filled.page,
            format!(
                "<head>{css}<link rel=\"icon\" href=\"data:,\">\
                 <script type=\"application/json\" id=\"first-view-files\">{{\"lesson\":\"{lesson}\",\"trace\":\"{trace}\"}}</script></head>\
                 <body><script type=\"text/html\" id=\"first-view-frame-trace\"><main>{}</main></script><div id=\"boot\"></div></body>",
                frame_lead().unwrap_or_default()
            )
        );
        assert_eq!(
            filled.files,
            vec![
                ViewFile { name: lesson.clone(), html: "<main>hi</main>".into() },
                ViewFile { name: trace.clone(), html: "<main>t</main>".into() },
            ]
        );
        // The plain page: the template with the page's stylesheets (and no
        // other link) and the lesson's view, nothing left to fill.
        assert_eq!(plain_lesson(&format!("<head>{STYLESHEETS_PLACEHOLDER}</head><body>{PLACEHOLDER}</body>"), &page, "<main>hi</main>"),
            Ok(format!("<head>{css}</head><body><main>hi</main></body>")));
        assert!(filled.plain_lesson.contains(css) && filled.plain_lesson.contains("<main>hi</main>"));
        assert!(!filled.plain_lesson.contains("<!-- ") && !filled.plain_lesson.contains("<script"), "{}", filled.plain_lesson);
        let no_files = format!("{css}<body>{PLACEHOLDER}</body>");
        assert_eq!(fill(&no_files, &views, &[]), Err(FillError::NoPlaceholder(FILES_PLACEHOLDER)));
        assert_eq!(fill(&format!("{css}<body></body>"), &views, &[]), Err(FillError::NoPlaceholder(PLACEHOLDER)));
        let twice = format!("{css}{FILES_PLACEHOLDER}{PLACEHOLDER}{PLACEHOLDER}");
        assert_eq!(fill(&twice, &views, &[]), Err(FillError::SeveralPlaceholders(PLACEHOLDER, 2)));
        let filled_already = format!("{css}{FILES_PLACEHOLDER}{PLACEHOLDER}{FILES_PLACEHOLDER}");
        assert_eq!(fill(&filled_already, &views, &[]), Err(FillError::SeveralPlaceholders(FILES_PLACEHOLDER, 2)));
        assert_eq!(fill(&page, &views[1..], &[]), Err(FillError::NoLesson));
        assert_eq!(fill(&page, &[], &[]), Err(FillError::NoLesson));
        let unstyled = format!("<head>{FILES_PLACEHOLDER}</head><body>{PLACEHOLDER}</body>");
        assert_eq!(fill(&unstyled, &views, &[]), Err(FillError::NoStylesheet));
        // A view in a file of its own may hold anything HTML may.
        let commented = [view(CoursePart::Lesson, "<main>hi</main>"), view(CoursePart::Author, "<!-- x --></script>")];
        assert!(fill(&page, &commented, &[]).is_ok());
        for bad in ["<p>&lt;</SCRIPT></p>", "<!-- x -->"] {
            let bars = [view(CoursePart::Choice, bad)];
            assert_eq!(fill(&page, &views[..1], &bars), Err(FillError::NotScriptSafe(CoursePart::Choice)), "{bad}");
        }
        // A part that takes an instructor's exercise needs a <main> to frame
        // it, and its frame is held to the same rule as a bar.
        let unframed = [view(CoursePart::Lesson, "<main>hi</main>"), view(CoursePart::Choice, "<p>c</p>")];
        assert_eq!(fill(&page, &unframed, &[]), Err(FillError::NoMain(CoursePart::Choice)));
        let unsafe_frame = [view(CoursePart::Lesson, "<main>hi</main>"), view(CoursePart::Choice, "<!-- c --><main>c</main>")];
        assert_eq!(fill(&page, &unsafe_frame, &[]), Err(FillError::NotScriptSafe(CoursePart::Choice)));
        let bars = [view(CoursePart::Trace, "<header>bar</header>")];
        assert_eq!(
            fill(&page, &views[..1], &bars).map(|f| f.page),
            Ok(format!(
                "<head>{css}<link rel=\"icon\" href=\"data:,\">\
                 <script type=\"application/json\" id=\"first-view-files\">{{\"lesson\":\"{lesson}\"}}</script></head>\
                 <body><script type=\"text/html\" id=\"first-view-embed-bar-trace\"><header>bar</header></script><div id=\"boot\"></div></body>"
            ))
        );
    }

    #[test]
    fn the_plain_lesson_page_template_has_each_placeholder_once_and_runs_no_script() {
        assert_eq!(PLAIN_LESSON_TEMPLATE.matches(PLACEHOLDER).count(), 1);
        assert_eq!(PLAIN_LESSON_TEMPLATE.matches(STYLESHEETS_PLACEHOLDER).count(), 1);
        assert!(!PLAIN_LESSON_TEMPLATE.contains("<script"));
        // Its policy allows no script at all, whatever text reached it.
        assert!(PLAIN_LESSON_TEMPLATE.contains("content=\"default-src 'none'; style-src 'self';"));
    }

    #[test]
    fn a_view_file_is_named_after_its_part_and_content() {
        let a = file_name(CoursePart::Trace, "<main>a</main>");
        assert!(a.starts_with("first-view-trace-") && a.ends_with(".html"), "{a}");
        assert_eq!(a.len(), "first-view-trace-".len() + 16 + ".html".len(), "{a}");
        assert_eq!(a, file_name(CoursePart::Trace, "<main>a</main>"), "the same content, the same name");
        assert_ne!(a, file_name(CoursePart::Trace, "<main>b</main>"), "new content, a new name");
        assert_ne!(a, file_name(CoursePart::Choice, "<main>a</main>"));
        // FNV-1a's published check values, so the names hold across machines.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn every_part_has_a_first_view_of_its_own() {
        let views = render_all(&course::load());
        let parts: Vec<CoursePart> = views.iter().map(|v| v.part).collect();
        let expected: Vec<CoursePart> = CoursePart::ALL.into_iter().chain(CoursePart::UNLISTED).collect();
        assert_eq!(parts, expected, "every part once, the lesson first");
        for v in &views {
            let label = v.part.label();
            assert!(v.html.contains("<h1 id=\"page-title\">"), "{label}: its heading");
            assert!(v.html.contains("<main id=\"main\""), "{label}: its main landmark");
            // The navigation marks the part shown (the unlisted parts have no link).
            let current = format!("<a href=\"{}\" aria-current=\"page\">", v.part.href());
            assert_eq!(
                v.html.contains(&current),
                CoursePart::ALL.contains(&v.part),
                "{label}: the navigation's current part"
            );
            assert!(!v.html.contains("<script"), "{label}: no script of its own");
        }
        let lesson = &views[0].html;
        assert!(views[1..].iter().all(|v| &v.html != lesson), "no part shows the lesson");
    }

    /// What index.html's script makes of a first view in embed mode: every
    /// element that carries [`NOT_EMBEDDED`] goes, with its content, and
    /// the embed bar comes right after the skip link.
    fn as_embedded(html: &str, bar: &str) -> String {
        let mut out = html.to_owned();
        while let Some(at) = out.find(NOT_EMBEDDED) {
            let start = out[..at].rfind('<').expect("the marker is in a start tag");
            let end = start + element_len(&out[start..]);
            out.replace_range(start..end, "");
        }
        let after_skip_link = out.find("</a>").expect("the skip link comes first") + "</a>".len();
        out.insert_str(after_skip_link, bar);
        out
    }

    /// The length of the element `html` starts with, to the end of its end
    /// tag, counting elements of the same name nested in it.
    fn element_len(html: &str) -> usize {
        let name: String = html[1..].chars().take_while(char::is_ascii_alphanumeric).collect();
        let (open, close) = (format!("<{name}"), format!("</{name}>"));
        let next_open = |from: usize| {
            html[from..]
                .match_indices(&open)
                .map(|(i, _)| from + i)
                .find(|&i| html[i + open.len()..].starts_with([' ', '>']))
        };
        let (mut depth, mut at) = (1, 1);
        loop {
            let close_at = at + html[at..].find(&close).expect("the element ends");
            match next_open(at) {
                Some(open_at) if open_at < close_at => {
                    depth += 1;
                    at = open_at + 1;
                }
                _ => {
                    depth -= 1;
                    at = close_at + close.len();
                    if depth == 0 {
                        return at;
                    }
                }
            }
        }
    }

    #[test]
    fn the_frame_of_a_part_that_takes_an_instructors_exercise_is_its_view_with_the_lead_in_main() {
        assert_eq!(frame("<a>s</a><main id=\"main\" tabindex=\"-1\"><h1>t</h1></main><footer>f</footer>", "<p>l</p>").as_deref(),
            Some("<a>s</a><main id=\"main\" tabindex=\"-1\"><p>l</p></main><footer>f</footer>"));
        assert_eq!(frame("<p>no main</p>", ""), None);
        let lead = frame_lead().expect("the notice has a paragraph");
        let course = course::load();
        for part in AUTHORED_PARTS {
            let view = render_at(course.clone(), &part.href());
            let framed = frame(&view, &lead).expect("the part's view has a <main>");
            let open = format!("<main id=\"main\" tabindex=\"-1\">{lead}</main>");
            let (before, after) = framed.split_once(&open).expect("the lead alone in a <main> as the app's");
            assert!(view.starts_with(before) && view.ends_with(after), "{}", part.label());
            assert!(!framed.contains("page-title"), "{}: none of the part's own content", part.label());
            let current = format!("<a href=\"{}\" aria-current=\"page\">", part.href());
            assert!(before.contains(&current), "{}: its link in the navigation is the current one", part.label());
            assert!(after.contains("<footer"), "{}: the footer", part.label());
        }
    }

    /// index.html's script relies on this shape: the holder, the notice,
    /// and the notice's last paragraph holding both origin sentences and
    /// starting with the words after the one it puts first.
    #[test]
    fn the_frame_lead_is_the_apps_notice_waiting_for_its_origin() {
        let lead = frame_lead().expect("the notice has a paragraph");
        assert!(lead.starts_with("<div class=\"authored-part\"><aside "), "{lead}");
        assert!(lead.contains("class=\"notice notice-info authored-source\""), "{lead}");
        assert!(lead.contains("An instructor's exercise, not part of ttft-lab's course"), "{lead}");
        assert!(lead.ends_with("</p></aside></div>"), "{lead}");
        let (_, last) = lead.rsplit_once("<p ").expect("the last paragraph has attributes");
        let origins = format!("data-link=\"{ORIGIN_LINK}\" data-file=\"{}{{}}{}\">", ORIGIN_FILE[0], ORIGIN_FILE[1]);
        assert!(last.starts_with(&origins), "both origin sentences, as written: {lead}");
        assert!(last[origins.len()..].starts_with(" ttft-lab checks that its stated answers agree"), "{lead}");
        assert!(!ORIGIN_FILE.concat().contains("{}"), "one place for the address");
        let text = lead.split('>').filter_map(|piece| piece.split('<').next()).collect::<String>();
        assert!(!text.contains("It was loaded") && !text.contains("It travels"), "no origin in its text: {lead}");
        assert!(!lead.contains("<!"), "no markers or comments: {lead}");
    }

    #[test]
    fn element_len_finds_the_matching_end_tag() {
        let html = "<div a><div><p>x</p></div><details></details></div><div>after</div>";
        assert_eq!(&html[..element_len(html)], "<div a><div><p>x</p></div><details></details></div>");
        assert_eq!(element_len("<p><pre></pre></p>!"), "<p><pre></pre></p>".len());
    }

    #[test]
    fn every_part_embedded_is_its_first_view_without_the_full_page_and_with_its_bar() {
        let course = course::load();
        let views = render_all(&course);
        let bars = render_embed_bars();
        let embeddable: Vec<CoursePart> = views.iter().map(|v| v.part).filter(|p| p.embeds()).collect();
        assert_eq!(bars.iter().map(|b| b.part).collect::<Vec<_>>(), embeddable, "a bar for each");
        for (view, bar) in views.iter().filter(|v| v.part.embeds()).zip(&bars) {
            let label = view.part.label();
            let embedded = render_at(course.clone(), &embed_address(view.part));
            assert!(view.html.contains(NOT_EMBEDDED), "{label}: the full page marks its own");
            assert!(!embedded.contains(NOT_EMBEDDED), "{label}: embedded shows none of it");
            assert!(bar.html.starts_with("<header class=\"embed-bar\">"), "{label}: {}", bar.html);
            assert_eq!(as_embedded(&view.html, &bar.html), embedded, "{label}");
        }
    }

    #[test]
    fn the_page_has_exactly_one_of_each_placeholder() {
        let page = include_str!("../index.html");
        assert_eq!(page.matches(PLACEHOLDER).count(), 1);
        assert_eq!(page.matches(FILES_PLACEHOLDER).count(), 1);
        // A browser without scripting goes to the plain lesson page, which
        // the page also links in case refreshes are off too.
        let refresh = format!("<noscript><meta http-equiv=\"refresh\" content=\"0; url={PLAIN_LESSON_FILE}\"></noscript>");
        assert_eq!(page.matches(&refresh).count(), 1, "{refresh}");
        assert!(page.contains(&format!("<a href=\"{PLAIN_LESSON_FILE}\">")));
        // The view files' names come before the script that fetches one.
        assert!(page.find(FILES_PLACEHOLDER) < page.find("ttftFirstViewText"));
    }

    #[test]
    fn the_lesson_renders_with_its_landmarks_and_words() {
        let course = course::load().expect("the embedded course loads");
        let lesson = course::load_lesson().expect("the embedded lesson loads");
        let title = lesson.title.clone();
        let first_section = lesson.sections[0].title.clone();
        let html = render(Ok(course));
        for landmark in [
            "class=\"skip-link\"",
            "<header data-not-embedded=\"\" class=\"site-header\">",
            "<main id=\"main\"",
            "<footer class=\"site-footer\">",
            "<h1 id=\"page-title\">",
        ] {
            assert!(html.contains(landmark), "{landmark} in {html:.400}");
        }
        // Titles may hold markup; their first word is plain text.
        for words in [&title, &first_section] {
            let first_word = words.split_whitespace().next().unwrap_or_default();
            assert!(html.contains(first_word), "{first_word} in the first view");
        }
        assert!(!html.contains("<!>"), "no hydration markers");
        assert!(!html.contains("> </"), "no empty text written as a space");
        assert!(html.contains("aria-current=\"page\""), "the lesson is the current part");
    }

    #[test]
    fn a_course_that_does_not_load_says_why() {
        let html = render(Err(CourseError::Missing("no lesson.toml".into())));
        assert!(html.contains("The course could not be loaded"));
        assert!(html.contains("no lesson.toml"));
    }
}
