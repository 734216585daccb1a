//! An instructor's exercise in place of the built-in one.
//!
//! `?part=trace&content=<base64url>` carries the file in the address;
//! `?part=trace&src=<path>` names a `.json` file on this same site, fetched
//! with `mode: "same-origin"` after the resolved URL's origin is checked
//! against the page's (the core has already refused anything but a plain
//! relative path; this is the second lock). index.html's start-up script
//! starts that same request while the app downloads, for a path that
//! passes a rule at least as strict; the page takes it if the URL is the
//! one it resolved, and checks its response as its own. Either way the text goes to
//! `ttft_core::authoring`, which checks it against the published schema and
//! checks its stated answers against the computed split. A file that cannot
//! be loaded, or is refused, is shown with every problem and its path,
//! beside a button that opens the built-in exercise instead.
//!
//! A loaded exercise never passes for ttft-lab's own: a notice above it
//! says that an instructor wrote it and where it came from (inside the link
//! the learner followed, or which file on which site), so its figures,
//! feedback and links are read as the author's.
//!
//! Loaded exercises are keyed by the core (`AuthoredExercise::keyed`:
//! id plus a fingerprint of the content), so a learner's stored answers
//! for them never collide with the built-in exercise's, or with those for
//! another version of the same file. The interview always keeps the
//! built-in content.
//!
//! What it deliberately does not do: fall back silently (a refused file is
//! always said), or follow a redirect to, or fetch from, another origin.

#[cfg(feature = "choice")]
use crate::components::practice::config_choice::ConfigChoicePage;
#[cfg(feature = "trace")]
use crate::components::practice::trace_exercise::TraceExercisePage;
use crate::components::prose::AuthoredScope;
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use ttft_core::authoring::{load_from_url, parse_authored, AuthoredExercise, FILE_PATH};
use ttft_core::content::validate::ContentProblem;
use ttft_core::content::{ConfigExercise, TraceExercise};
use ttft_core::embed::query::ContentSource;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Which exercise of an authored file a part shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuthoredKind {
    /// The trace exercise (`?part=trace`).
    Trace,
    /// The configuration choice (`?part=choice`).
    Choice,
}

impl AuthoredKind {
    fn noun(self) -> &'static str {
        match self {
            AuthoredKind::Trace => "trace exercise",
            AuthoredKind::Choice => "configuration exercise",
        }
    }
}

/// Where loading stands.
#[derive(Clone, Debug, PartialEq)]
enum Load {
    Loading,
    Loaded(Arc<AuthoredExercise>),
    Refused(Vec<ContentProblem>),
}

/// A problem with the file as a whole.
fn whole_file(message: String) -> Vec<ContentProblem> {
    vec![ContentProblem {
        path: FILE_PATH.to_owned(),
        message,
    }]
}

/// Fetches `path` from this page's own origin, refusing anything else.
async fn fetch_same_origin(path: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("there is no window to load it in")?;
    let here = window
        .location()
        .href()
        .map_err(|_| "this page's address cannot be read")?;
    let own = window
        .location()
        .origin()
        .map_err(|_| "this page's origin cannot be read")?;
    let url = web_sys::Url::new_with_base(path, &here)
        .map_err(|_| format!("\"{path}\" is not a usable path"))?;
    if url.origin() != own {
        return Err(format!(
            "\"{path}\" is not on this site; only files beside the app can be loaded"
        ));
    }
    let init = web_sys::RequestInit::new();
    init.set_mode(web_sys::RequestMode::SameOrigin);
    init.set_credentials(web_sys::RequestCredentials::SameOrigin);
    let unreachable =
        || format!("{path} could not be loaded: check that the file is on this site at that path");
    let request = started_early(&window, &url.href())
        .unwrap_or_else(|| window.fetch_with_str_and_init(&url.href(), &init));
    let response = JsFuture::from(request)
        .await
        .map_err(|_| unreachable())?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| unreachable())?;
    if !response.ok() {
        return Err(format!(
            "{path} could not be loaded: the site answered HTTP {}",
            response.status()
        ));
    }
    if !response.url().is_empty()
        && web_sys::Url::new(&response.url())
            .map(|u| u.origin())
            .ok()
            .as_deref()
            != Some(own.as_str())
    {
        return Err(format!(
            "{path} was redirected to another site, so it was not loaded"
        ));
    }
    let text = response.text().map_err(|_| unreachable())?;
    JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(unreachable)
}

/// The request for `href` that index.html's start-up script began while
/// the app was on its way (`ttftTakeAuthoredFile`: the same URL, mode and
/// credentials as [`fetch_same_origin`]'s, so the same checks apply to its
/// response). Each is taken once; `None` when there is none for `href`
/// (another address, taken already, or a page without that script), and
/// the page fetches for itself.
fn started_early(window: &web_sys::Window, href: &str) -> Option<js_sys::Promise> {
    let take = js_sys::Reflect::get(window, &wasm_bindgen::JsValue::from_str("ttftTakeAuthoredFile"))
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    take.call1(window, &wasm_bindgen::JsValue::from_str(href))
        .ok()?
        .dyn_into::<js_sys::Promise>()
        .ok()
}

/// True when the page shows index.html's first view of an instructor's
/// exercise (its title and introduction, read from the file the app is
/// about to load: `data-authored` on `#first-view`).
fn first_view_shows_file() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("first-view"))
        .is_some_and(|v| v.has_attribute("data-authored"))
}

/// The part's exercise, from the authored file when it loads and has one,
/// otherwise the built-in exercise with the reason.
#[component]
pub fn AuthoredPart(
    /// Where the file comes from.
    source: ContentSource,
    /// Which exercise this part shows.
    kind: AuthoredKind,
    /// The built-in course, for the fallback.
    course: Arc<crate::course::Embedded>,
) -> impl IntoView {
    let state = RwSignal::new(Load::Loading);
    let use_built_in = RwSignal::new(false);
    // False while a file that has just been read is drawn, in short tasks
    // behind the loading line (`later::draw_in_steps`; at once it was one
    // task of 200 ms or more on a phone).
    let shown = RwSignal::new(true);
    match &source {
        ContentSource::Inline { encoded } => {
            state.set(match load_from_url(encoded) {
                Ok(file) => Load::Loaded(Arc::new(file.keyed())),
                Err(problems) => Load::Refused(problems),
            });
        }
        ContentSource::Path { path } => {
            let path = path.clone();
            // The file's title and introduction already on show (index.html
            // read the file while the app downloaded): the app goes into
            // the page once it has drawn the exercise, not with its loading
            // line in between; for 3 s at most, should the file not come.
            let hold = Rc::new(RefCell::new(first_view_shows_file().then(crate::components::later::hold).flatten()));
            if hold.borrow().is_some() {
                let hold = Rc::clone(&hold);
                set_timeout(move || drop(hold.borrow_mut().take()), std::time::Duration::from_secs(3));
            }
            leptos::task::spawn_local(async move {
                let loaded = match fetch_same_origin(&path).await {
                    Ok(text) => match parse_authored(&text) {
                        Ok(file) => Load::Loaded(Arc::new(file.keyed())),
                        Err(problems) => Load::Refused(problems),
                    },
                    Err(why) => Load::Refused(whole_file(why)),
                };
                crate::components::later::draw_in_steps(
                    move || {
                        shown.try_set(false);
                        state.try_set(loaded);
                    },
                    move || {
                        shown.try_set(true);
                        drop(hold.borrow_mut().take());
                    },
                );
            });
        }
    }
    let from = match &source {
        ContentSource::Inline { .. } => "The exercise in this link".to_owned(),
        ContentSource::Path { path } => format!("The exercise file {path}"),
    };
    let built_in = {
        let course = Arc::clone(&course);
        move || {
            let built_in = crate::course::sources(&course);
            exercise_view(kind, built_in.trace, built_in.config)
        }
    };
    let loading = || view! { <p class="authored-loading" role="status">"Loading the exercise…"</p> };
    move || {
        let part = if use_built_in.get() {
            built_in()
        } else {
            match state.get() {
                Load::Loading => return loading().into_any(),
                Load::Loaded(file) => loaded_view(&file, kind, &source, &from, &built_in),
                Load::Refused(problems) => refused_view(&from, kind, &problems, use_built_in),
            }
        };
        view! {
            {move || (!shown.get()).then(loading)}
            <div class="authored-part" hidden=move || !shown.get()>{part}</div>
        }
        .into_any()
    }
}

/// A file that was read: its exercise under the notice of where it comes
/// from, or, when it has none of this kind, the built-in one with why.
fn loaded_view(
    file: &Arc<AuthoredExercise>,
    kind: AuthoredKind,
    source: &ContentSource,
    from: &str,
    built_in: &dyn Fn() -> AnyView,
) -> AnyView {
    let has = match kind {
        AuthoredKind::Trace => file.trace_exercise.is_some(),
        AuthoredKind::Choice => file.config_exercise.is_some(),
    };
    if has {
        let scope = AuthoredScope(Arc::clone(file));
        let file = Arc::clone(file);
        view! {
            {source_notice(origin_words(source))}
            <leptos::context::Provider value=scope>
                {exercise_view(kind, file.trace_exercise.as_ref(), file.config_exercise.as_ref())}
            </leptos::context::Provider>
        }
        .into_any()
    } else {
        view! {
            <div class="notice notice-info authored-missing">
                <p>{format!("{from} has no {}, so this is the built-in one.", kind.noun())}</p>
            </div>
            {built_in()}
        }
        .into_any()
    }
}

/// Where an exercise inside the link comes from, in words.
pub const ORIGIN_LINK: &str = "It travels inside the link you followed, written by whoever made that link.";

/// Where an exercise from a file comes from, in words: the file's full
/// address on this site goes between the two.
pub const ORIGIN_FILE: [&str; 2] = ["It was loaded from the file ", ", written by whoever put that file there."];

/// Where a loaded exercise comes from, in words: the link itself, or the
/// file's full address on this site.
fn origin_words(source: &ContentSource) -> String {
    match source {
        ContentSource::Inline { .. } => ORIGIN_LINK.to_owned(),
        ContentSource::Path { path } => {
            let href = web_sys::window()
                .and_then(|w| w.location().href().ok())
                .unwrap_or_default();
            let full = web_sys::Url::new_with_base(path, &href)
                .map(|u| u.href())
                .unwrap_or_else(|_| path.clone());
            format!("{}{full}{}", ORIGIN_FILE[0], ORIGIN_FILE[1])
        }
    }
}

/// The notice above a loaded exercise: not ttft-lab's own, and from where
/// (`origin`, the words of [`origin_words`]). The release step also renders
/// it, with nothing for the origin (`()`), into the frame that index.html's script shows an
/// instructor's exercise in before the app runs (`first_view::frame_lead`);
/// the script, which knows the address, puts the origin first.
pub fn source_notice(origin: impl IntoView) -> impl IntoView {
    view! {
        <aside class="notice notice-info authored-source" aria-labelledby="authored-source-title">
            <p id="authored-source-title"><strong>"An instructor's exercise, not part of ttft-lab's course"</strong></p>
            <p>
                {origin}
                " ttft-lab checks that its stated answers agree with the figures it computes; the scenario, \
                 feedback and links are the author's."
            </p>
        </aside>
    }
}

fn exercise_view(
    kind: AuthoredKind,
    trace: Option<&TraceExercise>,
    config: Option<&ConfigExercise>,
) -> AnyView {
    // A build shows only the exercises it has; the other kind's address
    // never starts it (`hand_over::serves_address`).
    match (kind, trace, config) {
        #[cfg(feature = "trace")]
        (AuthoredKind::Trace, Some(x), _) => {
            view! { <TraceExercisePage exercise=x.clone() /> }.into_any()
        }
        #[cfg(feature = "choice")]
        (AuthoredKind::Choice, _, Some(x)) => {
            view! { <ConfigChoicePage exercise=x.clone() /> }.into_any()
        }
        _ => ().into_any(),
    }
}

fn refused_view(
    from: &str,
    kind: AuthoredKind,
    problems: &[ContentProblem],
    use_built_in: RwSignal<bool>,
) -> AnyView {
    let count = problems.len();
    let items = problems.iter().map(problem_item).collect_view();
    view! {
        <article class="authored-refused">
            <h1 id="page-title">{format!("This {} could not be used", kind.noun())}</h1>
            <div class="notice notice-error" role="alert">
                <p>
                    {format!(
                        "{from} was not loaded: {count} {} found. Your instructor can fix {} on the authoring page.",
                        if count == 1 { "problem was" } else { "problems were" },
                        if count == 1 { "it" } else { "them" },
                    )}
                </p>
            </div>
            <ul class="problem-list" aria-label="Problems in the file">{items}</ul>
            <div class="practice-actions">
                <button type="button" class="primary" on:click=move |_| use_built_in.set(true)>
                    {format!("Open the built-in {}", kind.noun())}
                </button>
            </div>
        </article>
    }
    .into_any()
}

/// One problem: its path, then what is wrong in plain words.
pub fn problem_item(p: &ContentProblem) -> impl IntoView {
    view! {
        <li class="problem">
            <code class="problem-path">{p.path.clone()}</code>
            ": "
            <span class="problem-message">{p.message.clone()}</span>
        </li>
    }
}
