//! ttft-lab's browser app: a Leptos shell over the pure `ttft_core`.
//!
//! [`start`] loads the embedded course and opens the browser's storage, and
//! [`Shell`] shows one part of the course at a time (`?part=lesson|trace|choice|interview|import`,
//! and `timeline` and `author` outside the navigation) under a header with
//! the navigation and a status area for saved work. With `embed=1` the part
//! shows alone, under a thin bar instead of the header, reports its height to
//! the parent page and posts results to allow-listed origins
//! (`components::embed`); outside embed mode each part ends with an "Embed
//! this part" panel. `content=`/`src=` load an instructor's exercise
//! (`components::authoring`). Inside a learning system that offers a SCORM
//! API, `lms` restores and reports the learner's progress.
//! [`start`] mounts it, removes the first view and the loading message and
//! marks the page ready; [`install_panic_hook`] makes a crash say something
//! useful.
//!
//! What the app deliberately does not do: compute latency figures (the core
//! does), touch `localStorage` outside `storage`, set any HTML from a string,
//! or talk to a server. Everything is static files.

// Rendering to HTML natively (`ssr`) nests the view types of a whole page
// in one async type, deeper than rustc's default limit.
#![cfg_attr(feature = "ssr", recursion_limit = "256")]

pub mod address;
pub mod components;
pub mod connection;
pub mod course;
#[cfg(feature = "ssr")]
pub mod first_view;
pub mod hand_over;
pub mod http;
pub mod key_storage;
pub mod learner_state;
pub mod lms;
pub mod navigation;
pub mod service_worker;
pub mod storage;
pub mod timeline_entry;
pub mod worker;

#[cfg(any(feature = "trace", feature = "choice"))]
use components::authoring::authored_content::AuthoredKind;
#[cfg(feature = "authored")]
use components::authoring::authored_content::AuthoredPart;
#[cfg(feature = "authoring")]
use components::authoring::authoring_page::AuthoringPage;
#[cfg(any(feature = "lesson", feature = "lms"))]
use components::checklist::Progress;
use components::embed::embed_bar::EmbedBar;
use components::embed::embed_panel::{page_url, EmbedPanel};
use components::embed::height_reporter::start_height_reporter;
use components::embed::results::ResultsSink;
use components::embed::Embedding;
#[cfg(feature = "import")]
use components::import::import_page::ImportPage;
#[cfg(feature = "simulate")]
use components::simulate::host::SimulateHost;
use components::offline_status::OfflineStatus;
#[cfg(feature = "lesson")]
use components::lesson::LessonPage;
#[cfg(feature = "interview")]
use components::practice::interview::InterviewPage;
#[cfg(feature = "choice")]
use components::practice::config_choice::ConfigChoicePage;
#[cfg(feature = "trace")]
use components::practice::trace_exercise::TraceExercisePage;
use components::site_header::SiteHeader;
use components::storage_status::StorageStatus;
#[cfg(feature = "lesson")]
use components::worked_timeline::WorkedTimelineWidget;
use connection::Online;
#[cfg(course_content)]
use course::CourseContext;
use course::CourseError;
#[cfg(feature = "lesson")]
use course::LessonContext;
#[cfg(feature = "interview")]
use course::InterviewContext;
use leptos::prelude::*;
use navigation::Navigator;
use std::sync::Arc;
use storage::Store;
#[cfg(any(feature = "lesson", feature = "lms"))]
use storage::Stored;
use ttft_core::course_part::CoursePart;

/// The app over a given course and store, so tests can supply either.
#[component]
pub fn Shell(
    /// The course, or why it cannot be shown.
    course: Result<course::Embedded, CourseError>,
    /// Where saved work is kept.
    store: Store,
) -> impl IntoView {
    let nav = Navigator::start();
    provide_context(nav);
    // The lesson's checklist, only in a build that shows or reports the
    // lesson: every other build would carry its reading and saving code
    // and read it at every start for nothing.
    #[cfg(any(feature = "lesson", feature = "lms"))]
    let checklist = Stored::open(&store, learner_state::checklist());
    #[cfg(any(feature = "lesson", feature = "lms"))]
    provide_context(Progress(checklist.clone()));
    provide_context(store.clone());
    provide_context(Online::watch());
    Effect::new(move |_| document().set_title(&nav.current().document_title()));
    let embedding = Embedding::from_address();
    let embedded = embedding.embedded();
    provide_context(embedding.clone());
    let results = ResultsSink::new(embedding.options(), &page_url());
    provide_context(results.clone());
    // Only in the browser: natively (the first view) there is no page.
    if embedded && cfg!(target_arch = "wasm32") {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("data-embed", "true");
        }
        start_height_reporter(&embedding.options().origins);
    }

    let body = match course {
        Ok(course) => {
            let course = Arc::new(course);
            #[cfg(course_content)]
            provide_context(CourseContext(Arc::clone(&course)));
            // The lesson's text, only in a build that shows or reports it.
            #[cfg(any(feature = "lesson", feature = "lms"))]
            let lesson = course::load_lesson().ok().map(Arc::new);
            #[cfg(feature = "lesson")]
            if let Some(lesson) = &lesson {
                provide_context(LessonContext(Arc::clone(lesson)));
            }
            // The interview question and its rubric, only in a build that
            // shows or reports the interview (course.rs).
            #[cfg(any(feature = "interview", feature = "lms"))]
            let interview = course::load_interview().ok().map(Arc::new);
            #[cfg(feature = "interview")]
            if let Some(part) = &interview {
                provide_context(InterviewContext(Arc::clone(part)));
            }
            // Inside a learning system: restore its saved progress into the
            // values the parts are about to open, then report changes.
            // Elsewhere this finds no host and changes nothing. (A build
            // with fewer parts never runs inside one: index.html starts the
            // full app wherever a window above has a SCORM API.)
            #[cfg(feature = "lms")]
            let _lms = lesson.as_ref().zip(interview.as_ref()).and_then(|(lesson, interview)| {
                lms::connect(&store, &course, lesson, interview, checklist.clone())
            });
            (move || {
                results.restart();
                part_view(nav.current(), &course, embedded)
            })
            .into_any()
        }
        Err(e) => view! {
            <div class="load-error" role="alert">
                <h1 id="page-title">"The course could not be loaded"</h1>
                <p>{e.to_string()}</p>
            </div>
        }
        .into_any(),
    };
    let header = if embedded {
        (move || view! { <EmbedBar part=nav.current() embedding=embedding.clone() /> }).into_any()
    } else {
        view! { <SiteHeader nav=nav /> }.into_any()
    };
    let author = CoursePart::Author.href();
    let author_target = author.clone();
    let for_instructors = (!embedded).then(|| {
        view! {
            <p data-not-embedded="">
                "For instructors: "
                <a href=author on:click=move |ev| nav.follow(&ev, &author_target)>"author your own exercise"</a>
                ", or embed any part in a course page with the panel under it."
            </p>
        }
    });
    view! {
        <a class="skip-link" href="#main">"Skip to content"</a>
        {header}
        <StorageStatus store=store />
        {(!embedded).then(|| view! { <OfflineStatus nav=nav /> })}
        // While the app starts, the part is drawn in a task after the
        // shell's (`components::later`).
        <main id="main" tabindex="-1"><components::later::Later>{body}</components::later::Later></main>
        <footer class="site-footer">
            <p>
                "All platforms, traces, configurations and figures in this course are synthetic teaching \
                 material; no benchmark was run. Your ticks and answers stay in this browser."
            </p>
            {for_instructors}
        </footer>
    }
}

fn part_view(part: CoursePart, course: &Arc<course::Embedded>, embedded: bool) -> AnyView {
    // The import page's and the simulate part's builds show no course
    // content (`course::Embedded` is empty there).
    let _ = course;
    // Read from the address as it is now: moving between parts drops
    // `content=`, and the built-in exercise comes back with it.
    #[cfg(feature = "authored")]
    let content = Embedding::from_address().options().content.clone();
    #[cfg(feature = "authored")]
    let authored = |kind: AuthoredKind| {
        content.clone().map(
            |source| view! { <AuthoredPart source=source kind=kind course=Arc::clone(course) /> },
        )
    };
    // Without the authored feature, an address with an instructor's own
    // exercise never starts this build (`hand_over::serves_address`).
    #[cfg(all(any(feature = "trace", feature = "choice"), not(feature = "authored")))]
    let authored = |_: AuthoredKind| None::<AnyView>;
    let body = match part {
        #[cfg(feature = "lesson")]
        CoursePart::Lesson => match use_context::<LessonContext>() {
            Some(LessonContext(lesson)) => view! { <LessonPage lesson=lesson course=Arc::clone(course) /> }.into_any(),
            None => not_loaded("The lesson could not be loaded"),
        },
        #[cfg(feature = "lesson")]
        CoursePart::Timeline => view! {
            <article class="timeline-part">
                <h1 id="page-title">"Worked timeline: one request's time to first token"</h1>
                <WorkedTimelineWidget timeline=course.worked_timeline.clone() />
            </article>
        }
        .into_any(),
        #[cfg(feature = "trace")]
        CoursePart::Trace => match authored(AuthoredKind::Trace) {
            Some(v) => v.into_any(),
            None => view! { <TraceExercisePage exercise=course.trace_exercise.clone() /> }.into_any(),
        },
        #[cfg(feature = "choice")]
        CoursePart::Choice => match authored(AuthoredKind::Choice) {
            Some(v) => v.into_any(),
            None => view! { <ConfigChoicePage exercise=course.config_exercise.clone() /> }.into_any(),
        },
        #[cfg(feature = "interview")]
        CoursePart::Interview => match use_context::<InterviewContext>() {
            Some(InterviewContext(part)) => view! {
                <InterviewPage interview=part.interview.clone() rows=course.trace_exercise.requests.clone() />
            }
            .into_any(),
            None => not_loaded("The interview question could not be loaded"),
        },
        #[cfg(feature = "import")]
        CoursePart::Import => view! { <ImportPage /> }.into_any(),
        #[cfg(feature = "simulate")]
        CoursePart::Simulate => view! { <SimulateHost /> }.into_any(),
        #[cfg(feature = "authoring")]
        CoursePart::Author => view! { <AuthoringPage course=Arc::clone(course) /> }.into_any(),
        // A build without every part shows only its own: the navigation
        // hands the page to another build before another is asked for
        // (`hand_over::served_here`).
        #[cfg(not(every_part))]
        _ => ().into_any(),
    };
    let panel = part
        .embeds()
        .then_some(part)
        .filter(|_| !embedded)
        .map(|p| view! { <components::later::Later><EmbedPanel part=p /></components::later::Later> });
    view! { {body}{panel} }.into_any()
}

/// A part whose content is not in this build: built from the same content
/// as the course, it is absent only when the course is (which the page
/// says in place of any part).
#[cfg(any(feature = "lesson", feature = "interview"))]
fn not_loaded(title: &'static str) -> AnyView {
    view! {
        <div class="load-error" role="alert">
            <h1 id="page-title">{title}</h1>
        </div>
    }
    .into_any()
}

/// Starts the app over the embedded course and the browser's storage, in
/// tasks of its own after the wasm's: reading the course (and compiling its
/// reader) in one, opening the storage in the next, the part's first render
/// in a third ([`take_over`]). A
/// phone's main thread is then never held for the whole start at once:
/// the browser can paint and answer input in between, and the static first
/// view stays in place (and usable) until the app takes it over.
pub fn start() {
    // An address this build does not show as asked (index.html's start-up
    // script read it differently, or the learner moved on while this build
    // arrived after a hand-over) goes to the next build at once.
    let search = address::search();
    if !hand_over::serves_address(&search) {
        hand_over::to_next_build(CoursePart::from_search(&search));
        return;
    }
    // Each step's first calls compile the wasm functions it uses, which is
    // most of its time on a phone: three short tasks, not one long one.
    set_timeout(
        || {
            let course = course::load();
            components::later::next_task(move || {
                let store = Store::open_browser();
                components::later::next_task(move || take_over(course, store));
            });
        },
        std::time::Duration::ZERO,
    );
}

/// Mounts the app on `<body>`, removes the part's static first view
/// (`first_view`) and the loading message `#boot`, follows a `#section` in
/// the address, and sets `data-ready="true"` on `<html>` once the controls
/// are wired.
///
/// The app is drawn off the document in several tasks
/// (`components::later`): the shell and the part's top now, each block the
/// part marks [`Later`](components::later::Later) in a task of its own.
/// Meanwhile the first view stays, usable. Then, in one task, the app's
/// nodes go into `<body>` and the first view goes: no frame shows both or
/// neither, and the same markup in the same place means nothing moves.
/// Focus on a link or control in the first view moves to the same one in
/// the app.
fn take_over(course: Result<course::Embedded, CourseError>, store: Store) {
    // The learner may have moved to a part this build lacks while it
    // started: the page is the next build's now.
    if hand_over::handed_over() {
        return;
    }
    // Or moved (Back, during the hand-over that started this build) before
    // this build listens for moves: the app would draw nothing for a part
    // it lacks, so that part goes to the next build now.
    let search = address::search();
    if !hand_over::serves_address(&search) {
        hand_over::to_next_build(CoursePart::from_search(&search));
        return;
    }
    if let Some(app) =
        components::later::mount_in_steps(move || view! { <Shell course=course store=store /> }, put_in_page)
    {
        // The app lives as long as the page.
        app.forget();
    }
}

/// The app's finished nodes, in `host`, take the first view's place,
/// unless this build handed the page over while it drew them (Back, or a
/// link in the first view, to a part it lacks): then they never go in.
fn put_in_page(host: web_sys::HtmlElement) {
    if hand_over::handed_over() {
        return;
    }
    let first_view = document().get_element_by_id("first-view");
    let focused = first_view.as_ref().and_then(focused_control);
    let typed = first_view.as_ref().map(typed_values).unwrap_or_default();
    if let Some(body) = document().body() {
        components::later::move_children(&host, &body);
    }
    if let Some(first_view) = first_view {
        first_view.remove();
    }
    // The embed bars (data blocks) are not needed any more, except by a
    // build without every part, which shows the next part's view, embedded
    // or not, when it hands the page over (`hand_over`).
    #[cfg(every_part)]
    if let Ok(templates) = document().query_selector_all("script[type='text/html'][id^='first-view-']") {
        for i in 0..templates.length() {
            if let Some(t) = templates.item(i).and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok()) {
                t.remove();
            }
        }
    }
    // After the app's own first updates (saved work arrives in effects), so
    // that what it shows can be compared with what the first view showed;
    // then the button pressed in the first view, if any, so that "Check
    // answers" checks what was typed.
    let pressed = pressed_early();
    if !typed.is_empty() || pressed.is_some() {
        set_timeout(
            move || {
                for value in typed {
                    value.give_to_app();
                }
                if let Some(pressed) = pressed {
                    pressed.press_in_app();
                }
            },
            std::time::Duration::ZERO,
        );
    }
    // A build that took the page over from another focuses the part's
    // `<main>` (which the first view, had it arrived, would have held).
    let arrived = hand_over::arrived_by_hand_over();
    if let Some(focused) = focused {
        focus_control(focused);
    } else if arrived {
        if let Some(main) = document()
            .get_element_by_id("main")
            .and_then(|m| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(m).ok())
        {
            let _ = main.focus();
        }
    }
    if let Some(boot) = document().get_element_by_id("boot") {
        boot.remove();
    }
    navigation::scroll_to_fragment();
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("data-ready", "true");
    }
    components::later::mounted();
}

/// A button pressed in the first view before the app started (index.html
/// records it as `ttftPressedEarly`): its words, and which of the part's
/// buttons (those in `<main>`) with those words it was.
struct Pressed {
    words: String,
    index: u32,
}

/// The button pressed early, if any (and forgets it).
fn pressed_early() -> Option<Pressed> {
    let window = web_sys::window()?;
    let key = wasm_bindgen::JsValue::from_str("ttftPressedEarly");
    let record = js_sys::Reflect::get(&window, &key).ok()?;
    let _ = js_sys::Reflect::delete_property(&window, &key);
    let words = js_sys::Reflect::get(&record, &"words".into()).ok()?.as_string()?;
    let index = js_sys::Reflect::get(&record, &"index".into()).ok()?.as_f64()?;
    (index >= 0.0 && index < f64::from(u32::MAX)).then_some(Pressed { words, index: index as u32 })
}

impl Pressed {
    /// Presses the part's button with the same words at the same place
    /// among them; nothing if the app has no such button (the first view
    /// and the app render the same markup, so it has).
    fn press_in_app(self) {
        use wasm_bindgen::JsCast;
        let Ok(buttons) = document().query_selector_all("#main button") else {
            return;
        };
        let button = (0..buttons.length())
            .filter_map(|i| buttons.item(i))
            .filter_map(|b| b.dyn_into::<web_sys::HtmlButtonElement>().ok())
            .filter(|b| b.text_content().unwrap_or_default().trim() == self.words)
            .nth(self.index as usize);
        if let Some(button) = button.filter(|b| !b.disabled()) {
            button.click();
        }
    }
}

/// What a learner typed or chose in the first view before the app started:
/// a field's id, what the first view showed in it, and what it holds now.
/// The app gets it as if typed there (an `input` and a `change` event), so
/// nothing entered while the wasm was still arriving is lost, unless the
/// app's field shows something else than the first view did (work saved
/// from before, which the first view cannot know): that is never
/// overwritten.
struct Typed {
    id: String,
    value: TypedValue,
}

enum TypedValue {
    Text { first: String, now: String },
    Ticked { first: bool, now: bool },
}

/// Every field in `within` whose value is no longer the page's own.
fn typed_values(within: &web_sys::Element) -> Vec<Typed> {
    use wasm_bindgen::JsCast;
    let mut typed = Vec::new();
    let Ok(fields) = within.query_selector_all("input[id], textarea[id], select[id]") else {
        return typed;
    };
    for i in 0..fields.length() {
        let Some(field) = fields.item(i) else { continue };
        let value = if let Some(input) = field.dyn_ref::<web_sys::HtmlInputElement>() {
            match input.type_().as_str() {
                "checkbox" | "radio" => Some(TypedValue::Ticked {
                    first: input.default_checked(),
                    now: input.checked(),
                }),
                "file" => None,
                _ => Some(TypedValue::Text { first: input.default_value(), now: input.value() }),
            }
        } else if let Some(area) = field.dyn_ref::<web_sys::HtmlTextAreaElement>() {
            Some(TypedValue::Text { first: area.default_value().unwrap_or_default(), now: area.value() })
        } else if let Some(select) = field.dyn_ref::<web_sys::HtmlSelectElement>() {
            let first = (0..select.length())
                .filter_map(|i| select.item(i))
                .filter_map(|o| o.dyn_into::<web_sys::HtmlOptionElement>().ok())
                .find(|o| o.default_selected())
                .map(|o| o.value())
                .unwrap_or_default();
            Some(TypedValue::Text { first, now: select.value() })
        } else {
            None
        };
        let changed = match &value {
            Some(TypedValue::Text { first, now }) => first != now,
            Some(TypedValue::Ticked { first, now }) => first != now,
            None => false,
        };
        let id = field.dyn_ref::<web_sys::Element>().map(|e| e.id()).unwrap_or_default();
        if let (true, false, Some(value)) = (changed, id.is_empty(), value) {
            typed.push(Typed { id, value });
        }
    }
    typed
}

impl Typed {
    fn give_to_app(self) {
        use wasm_bindgen::JsCast;
        let Some(field) = document().get_element_by_id(&self.id) else { return };
        match &self.value {
            TypedValue::Ticked { first, now } => {
                if let Some(input) = field.dyn_ref::<web_sys::HtmlInputElement>() {
                    if input.checked() == *first && input.checked() != *now {
                        input.click();
                    }
                }
            }
            TypedValue::Text { first, now } => {
                let shown = if let Some(input) = field.dyn_ref::<web_sys::HtmlInputElement>() {
                    input.value()
                } else if let Some(area) = field.dyn_ref::<web_sys::HtmlTextAreaElement>() {
                    area.value()
                } else if let Some(select) = field.dyn_ref::<web_sys::HtmlSelectElement>() {
                    select.value()
                } else {
                    return;
                };
                if shown != *first {
                    return;
                }
                if let Some(input) = field.dyn_ref::<web_sys::HtmlInputElement>() {
                    input.set_value(now);
                } else if let Some(area) = field.dyn_ref::<web_sys::HtmlTextAreaElement>() {
                    area.set_value(now);
                } else if let Some(select) = field.dyn_ref::<web_sys::HtmlSelectElement>() {
                    select.set_value(now);
                }
                for name in ["input", "change"] {
                    let init = web_sys::EventInit::new();
                    init.set_bubbles(true);
                    if let Ok(event) = web_sys::Event::new_with_event_init_dict(name, &init) {
                        let _ = field.dispatch_event(&event);
                    }
                }
            }
        }
    }
}

/// The element with focus in the first view, found again in the app by its
/// id, or a link by its address (the nth link to it).
enum Focused {
    Id(String),
    Link { href: String, nth: u32 },
}

fn focused_control(within: &web_sys::Element) -> Option<Focused> {
    let active = document().active_element()?;
    if !within.contains(Some(&active)) {
        return None;
    }
    if !active.id().is_empty() {
        return Some(Focused::Id(active.id()));
    }
    let href = active.get_attribute("href")?;
    let links = within.get_elements_by_tag_name("a");
    let nth = (0..links.length())
        .filter_map(|i| links.item(i))
        .filter(|a| a.get_attribute("href").as_deref() == Some(&href))
        .position(|a| a.is_same_node(Some(&active)))?;
    Some(Focused::Link { href, nth: nth as u32 })
}

fn focus_control(focused: Focused) {
    let target = match focused {
        Focused::Id(id) => document().get_element_by_id(&id),
        Focused::Link { href, nth } => {
            let links = document().get_elements_by_tag_name("a");
            (0..links.length())
                .filter_map(|i| links.item(i))
                .filter(|a| a.get_attribute("href").as_deref() == Some(&href))
                .nth(nth as usize)
        }
    };
    if let Some(target) = target.and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(t).ok()) {
        let _ = target.focus();
    }
}

/// What a learner sees if the app ever fails: a plain message instead of a
/// dead page. Release builds abort on panic, so this is the last word; the
/// rule that matters is that nothing panics.
const CRASH_MESSAGE: &str =
    "Something went wrong in this page. Your saved work is kept in this browser; reload the page to continue.";

/// Logs panics to the console and shows the learner [`CRASH_MESSAGE`].
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_crash_message();
    }));
}

fn show_crash_message() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(body) = document.body() else { return };
    let Ok(notice) = document.create_element("div") else {
        return;
    };
    let _ = notice.set_attribute("role", "alert");
    let _ = notice.set_attribute("class", "crash");
    notice.set_text_content(Some(CRASH_MESSAGE));
    if let Ok(link) = document.create_element("a") {
        let here = web_sys::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default();
        let _ = link.set_attribute("href", &here);
        link.set_text_content(Some("Reload"));
        let _ = notice.append_child(&link);
    }
    let _ = body.insert_before(&notice, body.first_child().as_ref());
}
