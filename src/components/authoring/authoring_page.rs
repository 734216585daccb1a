//! "Author an exercise" (`?part=author`): the instructor's page for writing
//! a trace exercise and/or a configuration exercise as data.
//!
//! The instructor pastes a file, chooses one, or starts from the built-in
//! exercises written out as an authored file. As they type, the file is
//! checked (400 ms after the last keystroke) by `ttft_core::authoring`:
//! JSON, then the published schema, then each stated answer against the
//! split the core computes. Every problem is listed with its path and a
//! plain message; the list describes the editor (`aria-describedby`), so a
//! screen reader reads it with the field. A valid file is previewed with
//! the very components learners use (`preview`, whose wasm loads when
//! there is first a file to preview), and the page gives the two URLs that
//! load it: the file encoded in the address (with its length), or a path
//! on this site where the instructor will put the file.
//!
//! What it deliberately does not do: check anything itself, save the file
//! anywhere (it stays in the editor), or upload it; the preview keeps its
//! answers apart from a learner's by its own ids.

use crate::components::authoring::authored_content::{problem_item, AuthoredKind};
use crate::components::authoring::preview::{preview_config, PREVIEW, PREVIEW_ROOT};
use crate::components::embed::embed_panel::{copy_text, page_url};
use crate::components::on_demand::{PartLoad, PartStatus};
use leptos::html::Textarea;
use leptos::prelude::*;
use std::sync::Arc;
use std::time::Duration;
use ttft_core::authoring::{
    encode_for_url, parse_authored, AuthoredExercise, FILE_PATH, MAX_FILE_BYTES,
};
use ttft_core::content::validate::ContentProblem;
use ttft_core::embed::query::{parse_query, percent_encode, ContentSource};
use ttft_latency::time::group_thousands;

/// How long after the last keystroke the file is checked.
const CHECK_AFTER: Duration = Duration::from_millis(400);

/// The published schema and the example, as shipped beside the page.
const SCHEMA_HREF: &str = "authored-exercise.schema.json";
const EXAMPLE_HREF: &str = "review-bot.json";

/// What the check of the editor's text found.
type Checked = Option<Result<AuthoredExercise, Vec<ContentProblem>>>;

/// Checks the editor's text; `None` when it is empty.
fn check_text(text: &str) -> Checked {
    (!text.trim().is_empty()).then(|| parse_authored(text))
}

/// "a trace exercise with 3 requests and a configuration exercise with 2
/// workloads".
pub fn describe_file(file: &AuthoredExercise) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut parts = Vec::new();
    if let Some(x) = &file.trace_exercise {
        parts.push(format!(
            "a trace exercise with {}",
            plural(x.requests.len(), "request", "requests")
        ));
    }
    if let Some(x) = &file.config_exercise {
        parts.push(format!(
            "a configuration exercise with {}",
            plural(x.workloads.len(), "workload", "workloads")
        ));
    }
    parts.join(" and ")
}

/// The addresses that load `file`: `(part id, label, url)` for each
/// exercise it holds, with the file in the URL; or why it cannot travel
/// there.
pub fn inline_urls(
    page: &str,
    file: &AuthoredExercise,
) -> Result<Vec<(&'static str, String)>, String> {
    let encoded = encode_for_url(file).map_err(|e| e.to_string())?;
    Ok(parts_of(file)
        .into_iter()
        .map(|part| (part, format!("{page}?part={part}&content={encoded}")))
        .collect())
}

/// The addresses that load `file` from `path` on this site, or the core's
/// reason the path cannot be used.
pub fn path_urls(
    page: &str,
    file: &AuthoredExercise,
    path: &str,
) -> Result<Vec<(&'static str, String)>, String> {
    let path = path.trim();
    let read = parse_query(&format!("src={}", percent_encode(path)));
    match (read.options.content, read.problems.first()) {
        (Some(ContentSource::Path { path }), None) => Ok(parts_of(file)
            .into_iter()
            .map(|part| {
                (
                    part,
                    format!("{page}?part={part}&src={}", percent_encode(&path)),
                )
            })
            .collect()),
        (_, Some(problem)) => Err(problem.to_string()),
        _ => Err("give the path of the file on this site, such as exercises/week3.json".to_owned()),
    }
}

fn parts_of(file: &AuthoredExercise) -> Vec<&'static str> {
    let mut parts = Vec::new();
    if file.trace_exercise.is_some() {
        parts.push("trace");
    }
    if file.config_exercise.is_some() {
        parts.push("choice");
    }
    parts
}

fn part_label(part: &str) -> &'static str {
    if part == "trace" {
        "the trace exercise"
    } else {
        "the configuration exercise"
    }
}

/// The authoring page.
#[component]
pub fn AuthoringPage(
    /// The built-in course, for "Start from the built-in exercise".
    course: Arc<crate::course::Embedded>,
) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let checked: RwSignal<Checked> = RwSignal::new(None);
    let checking = RwSignal::new(false);
    let pending = StoredValue::new(None::<TimeoutHandle>);
    let path_text = RwSignal::new("exercises/my-exercise.json".to_owned());
    let preview_kind = RwSignal::new(AuthoredKind::Trace);
    let page = page_url();

    let check_now = move || {
        if let Some(handle) = pending.get_value() {
            handle.clear();
        }
        pending.set_value(None);
        checking.set(false);
        checked.set(text.with_untracked(|t| check_text(t)));
    };
    let on_input = move |ev: leptos::ev::Event| {
        text.set(event_target_value(&ev));
        if let Some(handle) = pending.get_value() {
            handle.clear();
        }
        checking.set(true);
        let later = move || {
            pending.try_set_value(None);
            checking.try_set(false);
            if let Some(t) = text.try_get_untracked() {
                checked.try_set(check_text(&t));
            }
        };
        pending.set_value(set_timeout_with_handle(later, CHECK_AFTER).ok());
    };
    let start_built_in = {
        let course = Arc::clone(&course);
        move |_| {
            let file = AuthoredExercise::new(
                Some(course.trace_exercise.clone()),
                Some(course.config_exercise.clone()),
            );
            text.set(serde_json::to_string_pretty(&file).unwrap_or_default());
            check_now();
        }
    };
    let on_file = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        if file.size() > MAX_FILE_BYTES as f64 {
            text.set(String::new());
            checked.set(Some(Err(vec![ContentProblem {
                path: FILE_PATH.to_owned(),
                message: format!(
                    "{} is {} bytes; the limit is {} bytes",
                    file.name(),
                    group_thousands(file.size() as u64),
                    group_thousands(MAX_FILE_BYTES as u64)
                ),
            }])));
            return;
        }
        leptos::task::spawn_local(async move {
            let read = wasm_bindgen_futures::JsFuture::from(file.text())
                .await
                .ok()
                .and_then(|t| t.as_string());
            match read {
                Some(t) => {
                    if text.try_set(t).is_none() {
                        check_now();
                    }
                }
                None => {
                    checked.try_set(Some(Err(vec![ContentProblem {
                        path: FILE_PATH.to_owned(),
                        message: format!("{} could not be read as text", file.name()),
                    }])));
                }
            }
        });
    };

    let problems = move || {
        checked.with(|c| match c {
            Some(Err(p)) => p.clone(),
            _ => Vec::new(),
        })
    };
    let valid = Memo::new(move |_| {
        checked.with(|c| match c {
            Some(Ok(file)) => Some(file.clone()),
            _ => None,
        })
    });
    let status = move || {
        if checking.get() {
            return "Checking…".to_owned();
        }
        checked.with(|c| match c {
            None => "Paste a file, choose one, or start from the built-in exercise.".to_owned(),
            Some(Ok(file)) => format!("No problems: {}.", describe_file(file)),
            Some(Err(p)) if p.len() == 1 => {
                "1 problem found; it is listed below with where it is in the file.".to_owned()
            }
            Some(Err(p)) => format!(
                "{} problems found; each is listed below with where it is in the file.",
                p.len()
            ),
        })
    };
    let invalid = move || checked.with(|c| matches!(c, Some(Err(_))));

    let urls = {
        let page = page.clone();
        move || {
            valid.get().map(|file| {
                let inline = match inline_urls(&page, &file) {
                    Ok(list) => list
                        .into_iter()
                        .map(|(part, url)| {
                            let label = format!(
                                "Link to {} with the file inside ({} characters)",
                                part_label(part),
                                group_thousands(url.chars().count() as u64)
                            );
                            url_box(&format!("author-url-inline-{part}"), label, url)
                        })
                        .collect_view()
                        .into_any(),
                    Err(why) => view! { <p class="field-error">{why}</p> }.into_any(),
                };
                let page = page.clone();
                let hosted = move || match path_urls(&page, &file, &path_text.get()) {
                    Ok(list) => list
                        .into_iter()
                        .map(|(part, url)| {
                            let label = format!("Link to {} from the hosted file", part_label(part));
                            url_box(&format!("author-url-path-{part}"), label, url)
                        })
                        .collect_view()
                        .into_any(),
                    Err(why) => view! { <p class="field-error" id="author-path-error">{why}</p> }.into_any(),
                };
                view! {
                    <section class="author-urls" aria-labelledby="author-urls-title">
                        <h2 id="author-urls-title">"Links that load it"</h2>
                        <h3>"With the file in the link"</h3>
                        <p>"Nothing to host: the exercise travels in the address itself."</p>
                        {inline}
                        <h3>"From a file on this site"</h3>
                        <p>
                            "Save the file beside ttft-lab on the same site; the page loads it from there and \
                             from nowhere else. Shorter links, and you can change the file later."
                        </p>
                        <div class="field">
                            <label for="author-path">"Path of the file, relative to ttft-lab"</label>
                            <input
                                type="text"
                                id="author-path"
                                spellcheck="false"
                                autocomplete="off"
                                prop:value=move || path_text.get()
                                on:input=move |ev| path_text.set(event_target_value(&ev))
                            />
                        </div>
                        {hosted}
                        <p class="note-small">
                            "To put the exercise in a course page, open a link and use its \u{201c}Embed this part\u{201d} panel."
                        </p>
                    </section>
                }
            })
        }
    };

    // The preview's wasm comes when there is first a file to preview, and
    // shows each new one (or the other exercise, when chosen) in place.
    let preview_state = RwSignal::new(PartLoad::Closed);
    let config_now = move || {
        let kind = preview_kind.get_untracked();
        let config = valid.with_untracked(|f| f.as_ref().map(|f| preview_config(f, kind)));
        wasm_bindgen::JsValue::from_str(&config.unwrap_or_default())
    };
    PREVIEW.follow(preview_state, config_now);
    Effect::new(move |_| {
        let kind = preview_kind.get();
        match valid.with(|f| f.as_ref().map(|f| preview_config(f, kind))) {
            Some(config) => PREVIEW.open(preview_state, &wasm_bindgen::JsValue::from_str(&config)),
            None => {
                let _ = PREVIEW.call("unmount", None);
                preview_state.set(PartLoad::Closed);
            }
        }
    });
    let has_preview = move || valid.with(Option::is_some);
    let both = move || {
        valid.with(|f| {
            f.as_ref()
                .is_some_and(|f| f.trace_exercise.is_some() && f.config_exercise.is_some())
        })
    };
    let preview = view! {
        <section class="author-preview" aria-labelledby="author-preview-title" hidden=move || !has_preview()>
            <h2 id="author-preview-title">"Preview: as learners will see it"</h2>
            <fieldset class="author-preview-choice" hidden=move || !both()>
                <legend>"Preview"</legend>
                <div class="score-option">
                    <input type="radio" id="author-preview-trace" name="author-preview"
                        prop:checked=move || preview_kind.get() == AuthoredKind::Trace
                        on:change=move |_| preview_kind.set(AuthoredKind::Trace) />
                    <label for="author-preview-trace">"Trace exercise"</label>
                </div>
                <div class="score-option">
                    <input type="radio" id="author-preview-choice" name="author-preview"
                        prop:checked=move || preview_kind.get() == AuthoredKind::Choice
                        on:change=move |_| preview_kind.set(AuthoredKind::Choice) />
                    <label for="author-preview-choice">"Configuration exercise"</label>
                </div>
            </fieldset>
            <PartStatus
                part=PREVIEW
                state=preview_state
                loading="Loading the preview\u{2026}"
                help="The exercises' own code is fetched only once there is a file to preview, so this page opens sooner."
                failed="The preview could not load; your file and its links above are not affected."
            />
            <div id=PREVIEW_ROOT class="author-preview-frame"></div>
        </section>
    };

    view! {
        <article class="authoring">
            <h1 id="page-title">"Author an exercise"</h1>
            <p>
                "Write your own trace exercise (requests, their timings and a target) and configuration exercise \
                 (configurations and workloads) as one JSON file. The page checks it as you type, exactly as it \
                 checks the built-in exercises: a stated answer that disagrees with the split computed from your \
                 timings is refused, with the reason."
            </p>
            <p>
                "The file's shape is the "
                <a href=SCHEMA_HREF>"published JSON Schema"</a>
                "; "
                <a href=EXAMPLE_HREF>"a complete example"</a>
                " shows every field."
            </p>
            <div class="author-sources practice-actions">
                <button type="button" on:click=start_built_in>"Start from the built-in exercise"</button>
                <label class="button author-file" for="author-file">"Choose a JSON file"</label>
                <input type="file" id="author-file" class="visually-hidden" accept=".json,application/json" on:change=on_file />
            </div>
            <div class="field author-editor" class:field-invalid=invalid>
                <label for="author-editor">"Exercise file (JSON)"</label>
                <textarea
                    id="author-editor"
                    rows="18"
                    spellcheck="false"
                    autocomplete="off"
                    aria-describedby="author-status author-problems"
                    aria-invalid=move || if invalid() { "true" } else { "false" }
                    prop:value=move || text.get()
                    on:input=on_input
                ></textarea>
                <p id="author-status" class="author-status" role="status" aria-live="polite" aria-label="Check of the file">{status}</p>
                <ul id="author-problems" class="problem-list" aria-label="Problems in the file">
                    {move || problems().iter().map(problem_item).collect_view()}
                </ul>
            </div>
            {urls}
            {preview}
        </article>
    }
}

/// A URL to copy, with a Copy button and a link that opens it.
fn url_box(id: &str, label: String, url: String) -> impl IntoView {
    let area: NodeRef<Textarea> = NodeRef::new();
    let announce = RwSignal::new(String::new());
    let copy = url.clone();
    let on_copy = move |_| {
        let text = copy.clone();
        let fallback = area.get_untracked();
        announce.set(String::new());
        leptos::task::spawn_local(async move {
            let said = copy_text(text, fallback).await;
            announce.try_set(said);
        });
    };
    view! {
        <div class="author-url">
            <label for=id.to_owned()>{label}</label>
            <textarea id=id.to_owned() class="embed-snippet" readonly rows="3" node_ref=area prop:value=url.clone()></textarea>
            <div class="practice-actions">
                <button type="button" on:click=on_copy>"Copy"</button>
                <a href=url target="_blank" rel="noopener">
                    "Open"<span class="visually-hidden">" this link in a new tab"</span>
                </a>
                <span role="status" aria-live="polite">{move || announce.get()}</span>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> AuthoredExercise {
        parse_authored(include_str!(
            "../../../content/schema/examples/review-bot.json"
        ))
        .unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn check(path: &str, expected: Result<&str, &str>) {
        let got = path_urls("https://lab.example/t/", &example(), path);
        match (got, expected) {
            (Ok(list), Ok(src)) => {
                assert!(
                    list.iter().all(|(part, url)| url
                        == &format!("https://lab.example/t/?part={part}&src={src}")),
                    "{list:?}"
                );
            }
            (Err(why), Err(part)) => assert!(why.contains(part), "{why:?} should contain {part:?}"),
            (got, expected) => panic!("{path:?}: got {got:?}, expected {expected:?}"),
        }
    }

    #[test]
    fn urls_for_a_file() {
        let file = example();
        let parts = parts_of(&file);
        assert!(!parts.is_empty());
        let inline = inline_urls("https://lab.example/t/", &file).unwrap_or_default();
        assert_eq!(inline.len(), parts.len());
        for (part, url) in &inline {
            let query = url.split_once('?').map(|(_, q)| q).unwrap_or_default();
            let read = parse_query(query);
            assert!(read.problems.is_empty(), "{:?}", read.problems);
            assert_eq!(read.options.part.map(|p| p.id()), Some(*part));
            match read.options.content {
                Some(ContentSource::Inline { encoded }) => {
                    assert_eq!(
                        ttft_core::authoring::load_from_url(&encoded),
                        Ok(file.clone())
                    );
                }
                other => panic!("{other:?}"),
            }
        }
        check("exercises/week-3.json", Ok("exercises%2Fweek-3.json"));
        check("  review-bot.json ", Ok("review-bot.json"));
        check("../secret.json", Err("must be a path on this site"));
        check(
            "https://evil.example/x.json",
            Err("must be a path on this site"),
        );
        check("", Err("must be a path on this site"));
        assert!(describe_file(&file).starts_with("a "));
    }
}
