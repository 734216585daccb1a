//! The simulator's settings: the workload, the engine and the step cost,
//! one field per setting of `ttft_sim::query`, labelled with the core's
//! own names (`Setting::label`).
//!
//! [`FormState`] holds each field's text as typed; its query string is the
//! run's address, read by `ttft_sim::from_query` (so a field that cannot be
//! used is named by the core's error, shown beside that field). Fields a
//! choice makes irrelevant (the spread of fixed lengths) are hidden but
//! kept. Choosing a hardware preset sets its coefficients, its KV capacity
//! and its limits; each stays editable, and the sources of the preset's
//! figures are listed. What it deliberately does not do: check a value
//! itself.

use crate::components::later::Later;
use leptos::prelude::*;
use ttft_latency::small_map::SmallMap;
use ttft_sim::query::{class_lines, classes_from_lines, join, read_values, values};
use ttft_sim::settings::MAX_CLASSES;
use ttft_sim::{Preset, Setting, Settings, SettingsError};

/// How a run stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopBy {
    Requests,
    Duration,
}

/// The form's fields as typed.
#[derive(Clone, Copy)]
pub struct FormState {
    values: RwSignal<SmallMap<Setting, String>>,
    stop: RwSignal<StopBy>,
    /// The setting the last error named, and the error.
    pub error: RwSignal<Option<SettingsError>>,
}

impl FormState {
    /// A form showing `settings`.
    pub fn new(settings: &Settings) -> FormState {
        let f = FormState {
            values: RwSignal::new(SmallMap::new()),
            stop: RwSignal::new(StopBy::Requests),
            error: RwSignal::new(None),
        };
        f.show(settings);
        f
    }

    /// Shows `settings` in every field (a preset's defaults fill the ones
    /// the settings do not write, such as the duration of a counted run).
    pub fn show(&self, settings: &Settings) {
        let mut map = SmallMap::new();
        let defaults = Settings::for_preset(settings.cost.preset);
        map.insert(Setting::Duration, "60000".to_owned());
        map.insert(Setting::Requests, "2000".to_owned());
        for (k, v) in values(&defaults).into_iter().chain(values(settings)) {
            map.insert(k, v);
        }
        let stop = if values(settings).iter().any(|(k, _)| *k == Setting::Duration) {
            StopBy::Duration
        } else {
            StopBy::Requests
        };
        self.values.set(map);
        self.stop.set(stop);
        self.error.set(None);
    }

    /// Shows the settings of a query string as given, field by field, over
    /// the defaults, so a learner sees what an address said even when it
    /// cannot be used.
    pub fn show_query(&self, query: &str, prefix: &str) {
        self.show(&Settings::default());
        let given = read_values(query, prefix);
        if given.iter().any(|(k, _)| *k == Setting::Duration) {
            self.stop.set(StopBy::Duration);
        }
        if let Some((_, hw)) = given.iter().find(|(k, _)| *k == Setting::Preset) {
            if let Some(p) = Preset::from_id(hw) {
                self.show(&Settings::for_preset(p));
            }
        }
        self.values.update(|m| {
            for (k, v) in given {
                m.insert(k, v);
            }
        });
    }

    /// A field's text.
    pub fn get(&self, s: Setting) -> String {
        self.values.with(|m| m.get(&s).cloned().unwrap_or_default())
    }

    fn set(&self, s: Setting, v: String) {
        self.values.update(|m| {
            m.insert(s, v);
        });
        if self.error.with_untracked(|e| e.as_ref().is_some_and(|e| e.setting == s)) {
            self.error.set(None);
        }
    }

    /// The query string of the fields (the one stop the form says).
    pub fn query(&self) -> String {
        let stop = self.stop.get_untracked();
        self.values.with_untracked(|m| {
            join(
                m.iter()
                    .filter(|(k, _)| match k {
                        Setting::Requests => stop == StopBy::Requests,
                        Setting::Duration => stop == StopBy::Duration,
                        _ => true,
                    })
                    .map(|(k, v)| (*k, v.as_str())),
                "",
            )
        })
    }

    /// The settings the fields make, or the core's error naming a field
    /// (also shown beside it).
    pub fn settings(&self) -> Result<Settings, SettingsError> {
        let result = ttft_sim::from_query(&self.query()).map(|p| p.settings);
        self.error.set(result.as_ref().err().cloned());
        result
    }

    fn choose_preset(&self, id: &str) {
        let Some(p) = Preset::from_id(id) else { return };
        let keep: Vec<(Setting, String)> = self.values.with_untracked(|m| {
            m.iter()
                .filter(|(k, _)| !PRESET_FIELDS.contains(k))
                .map(|(k, v)| (*k, v.clone()))
                .collect()
        });
        let stop = self.stop.get_untracked();
        self.show(&Settings::for_preset(p));
        self.values.update(|m| {
            for (k, v) in keep {
                m.insert(k, v);
            }
            m.insert(Setting::Preset, p.id().to_owned());
        });
        self.stop.set(stop);
    }
}

/// The fields a hardware preset sets.
const PRESET_FIELDS: [Setting; 9] = [
    Setting::Preset,
    Setting::Floor,
    Setting::PerToken,
    Setting::Attention,
    Setting::Context,
    Setting::Emit,
    Setting::KvCapacity,
    Setting::MaxNumSeqs,
    Setting::Budget,
];

fn field_id(s: Setting) -> String {
    format!("sim-{}", s.key())
}

/// The error line under a field, filled when the core named this setting.
fn error_line(form: FormState, s: Setting) -> impl IntoView {
    view! {
        <p id=format!("{}-error", field_id(s)) class="field-error">
            {move || form.error.with(|e| e.as_ref().filter(|e| e.setting == s).map(|e| e.to_string()))}
        </p>
    }
}

fn invalid(form: FormState, s: Setting) -> impl Fn() -> Option<&'static str> + Copy {
    move || form.error.with(|e| e.as_ref().is_some_and(|e| e.setting == s).then_some("true"))
}

/// A text or number field for one setting.
fn text_field(form: FormState, s: Setting, help: &'static str, numeric: bool) -> impl IntoView {
    let id = field_id(s);
    let help_id = format!("{id}-help");
    let described = format!("{help_id} {id}-error");
    view! {
        <div class="sim-field">
            <label for=id.clone()>{capitalised(s.label())}</label>
            <input
                id=id
                type="text"
                inputmode=if numeric { "decimal" } else { "text" }
                autocomplete="off"
                spellcheck="false"
                aria-describedby=described
                aria-invalid=invalid(form, s)
                prop:value=move || form.get(s)
                on:change=move |e| form.set(s, event_target_value(&e))
            />
            <p id=help_id class="field-help">{help}</p>
            {error_line(form, s)}
        </div>
    }
}

/// The request classes, one class a line (the address keeps them as one
/// comma-separated value: `ttft_sim::query::class_lines`).
fn class_field(form: FormState) -> impl IntoView {
    let s = Setting::Classes;
    let id = field_id(s);
    let help_id = format!("{id}-help");
    let described = format!("{help_id} {id}-error");
    let text = move || class_lines(&form.get(s));
    view! {
        <div class="sim-field">
            <label for=id.clone()>{capitalised(s.label())}</label>
            <textarea
                id=id
                rows=move || text().lines().count().clamp(2, MAX_CLASSES) + 1
                autocomplete="off"
                spellcheck="false"
                aria-describedby=described
                aria-invalid=invalid(form, s)
                prop:value=text
                on:change=move |e| form.set(s, classes_from_lines(&event_target_value(&e)))
            ></textarea>
            <p id=help_id class="field-help">
                "One class per line, as name:share:prompt tokens:output tokens:TTFT target ms, such as hint:85:700:120:1000. Shares are weights: they need not add up to 100."
            </p>
            {error_line(form, s)}
        </div>
    }
}

/// A yes/no setting as a checkbox.
fn check_field(form: FormState, s: Setting, help: &'static str) -> impl IntoView {
    let id = field_id(s);
    let help_id = format!("{id}-help");
    let described = format!("{help_id} {id}-error");
    view! {
        <div class="sim-field sim-check">
            <input
                id=id.clone()
                type="checkbox"
                aria-describedby=described
                prop:checked=move || matches!(form.get(s).as_str(), "1" | "true" | "on" | "yes")
                on:change=move |e| form.set(s, if event_target_checked(&e) { "1" } else { "0" }.to_owned())
            />
            <label for=id>{capitalised(s.label())}</label>
            <p id=help_id class="field-help">{help}</p>
            {error_line(form, s)}
        </div>
    }
}

/// A setting with a few named choices.
fn select_field(
    form: FormState,
    s: Setting,
    choices: Vec<(&'static str, &'static str)>,
    on_pick: Option<Callback<String>>,
) -> impl IntoView {
    let id = field_id(s);
    let options = choices
        .into_iter()
        .map(|(value, label)| {
            view! { <option value=value selected=move || form.get(s) == value>{label}</option> }
        })
        .collect_view();
    view! {
        <div class="sim-field">
            <label for=id.clone()>{capitalised(s.label())}</label>
            <select
                id=id.clone()
                aria-describedby=format!("{id}-error")
                aria-invalid=invalid(form, s)
                prop:value=move || form.get(s)
                on:change=move |e| {
                    let v = event_target_value(&e);
                    match on_pick {
                        Some(cb) => cb.run(v),
                        None => form.set(s, v),
                    }
                }
            >
                {options}
            </select>
            {error_line(form, s)}
        </div>
    }
}

/// The setting's label with a capital first letter (the labels are the
/// app's own English, so ASCII is enough and no Unicode case table is linked).
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| std::iter::once(f.to_ascii_uppercase()).chain(c).collect()).unwrap_or_default()
}

const ARRIVALS: &[(&str, &str)] = &[
    ("poisson", "Poisson (independent arrivals)"),
    ("gamma", "Bursty (gamma gaps)"),
    ("replay", "Replayed from a trace"),
];
const LENGTHS: &[(&str, &str)] = &[
    ("classes", "A mix of named classes"),
    ("fixed", "Fixed"),
    ("lognormal", "Log-normal around a median"),
    ("replay", "Replayed from a trace"),
];
const POLICIES: &[(&str, &str)] = &[
    ("decode", "Decode first (vLLM V1)"),
    ("prefill", "Prefill first (vLLM V0)"),
];
const CONVENTIONS: &[(&str, &str)] = &[
    ("linear", "Linear (numpy's default)"),
    ("nearest", "Nearest rank"),
];

fn preset_choices() -> Vec<(&'static str, &'static str)> {
    Preset::ALL.iter().map(|p| (p.id(), p.label())).collect()
}

/// The settings form: three groups of fields.
#[component]
pub fn SettingsForm(form: FormState, replay: Signal<Option<String>>, trace_picker: ViewFn) -> impl IntoView {
    let arrivals = move || form.get(Setting::Arrivals);
    let lengths = move || form.get(Setting::Lengths);
    let stop = form.stop;
    let pick_preset = Callback::new(move |id: String| form.choose_preset(&id));
    let sources = move || {
        let preset = Preset::from_id(&form.get(Setting::Preset)).unwrap_or_default();
        let s = preset.sources();
        let rows = [
            (Setting::Floor, s.floor),
            (Setting::PerToken, s.per_token),
            (Setting::Attention, s.attention),
            (Setting::Context, s.context),
            (Setting::Emit, s.emit),
            (Setting::KvCapacity, s.kv_capacity),
            (Setting::MaxNumSeqs, s.limits),
        ];
        rows.into_iter()
            .map(|(setting, source)| view! { <li><strong>{capitalised(setting.label())}": "</strong>{source}</li> })
            .collect_view()
    };
    view! {
        <fieldset class="sim-group">
            <legend>"Workload"</legend>
            {select_field(form, Setting::Arrivals, ARRIVALS.to_vec(), None)}
            {move || (arrivals() != "replay").then(|| text_field(form, Setting::Rate, "Mean requests a second.", true))}
            {move || (arrivals() == "gamma").then(|| text_field(form, Setting::Cv, "1 is as bursty as Poisson; 3 means long lulls and sudden bursts.", true))}
            {move || (arrivals() == "replay").then(|| text_field(form, Setting::Speed, "2 replays the trace's arrivals twice as fast.", true))}
            <div class="sim-field" role="radiogroup" aria-labelledby="sim-stop-label">
                <p id="sim-stop-label" class="sim-field-label">"The run stops after"</p>
                <label class="choice">
                    <input type="radio" name="sim-stop" prop:checked=move || stop.get() == StopBy::Requests on:change=move |_| stop.set(StopBy::Requests) />
                    " a number of requests (then drains)"
                </label>
                <label class="choice">
                    <input type="radio" name="sim-stop" prop:checked=move || stop.get() == StopBy::Duration on:change=move |_| stop.set(StopBy::Duration) />
                    " a length of time (what is left is still running)"
                </label>
            </div>
            {move || match stop.get() {
                StopBy::Requests => text_field(form, Setting::Requests, "At most 1,000,000.", true).into_any(),
                StopBy::Duration => text_field(form, Setting::Duration, "Simulated milliseconds.", true).into_any(),
            }}
            {select_field(form, Setting::Lengths, LENGTHS.to_vec(), None)}
            {move || (lengths() == "classes").then(|| class_field(form))}
            {move || matches!(lengths().as_str(), "fixed" | "lognormal").then(|| view! {
                {text_field(form, Setting::Prompt, "Tokens in each prompt (the median, for log-normal).", true)}
                {text_field(form, Setting::Output, "Tokens each request generates (the median, for log-normal).", true)}
            })}
            {move || (lengths() == "lognormal").then(|| view! {
                {text_field(form, Setting::PromptSpread, "The standard deviation of the logarithm: 0.5 keeps two thirds within a factor of 1.65 of the median.", true)}
                {text_field(form, Setting::OutputSpread, "The same for output lengths.", true)}
            })}
            {move || (lengths() != "classes").then(|| text_field(form, Setting::Target, "Goodput counts the requests whose TTFT is at most this.", true))}
            {move || (arrivals() == "replay" || lengths() == "replay").then(|| view! {
                <div class="sim-replay">
                    <p>{move || match replay.get() {
                        Some(name) => format!("Replaying {name}."),
                        None => "A replay needs a trace: choose a file, or the course's example.".to_owned(),
                    }}</p>
                    {trace_picker.run()}
                </div>
            })}
            {text_field(form, Setting::SharedPrefix, "Tokens at the start of every prompt that all requests share (a system prompt); prefix caching can reuse them.", true)}
            {text_field(form, Setting::Seed, "The same seed and settings give the same run, to the microsecond.", true)}
        </fieldset>
        // Each group in a task of its own while the part starts (`later`).
        <Later>
            <fieldset class="sim-group">
                <legend>"Engine"</legend>
                {text_field(form, Setting::MaxNumSeqs, "The most requests running at once.", true)}
                {text_field(form, Setting::Budget, "Prompt and decode tokens one step may hold.", true)}
                {check_field(form, Setting::ChunkedPrefill, "Split a long prompt over several steps instead of waiting for a step with room for all of it.")}
                {text_field(form, Setting::PrefillChunk, "The most prompt tokens one request takes in a step, or none.", true)}
                {select_field(form, Setting::Policy, POLICIES.to_vec(), None)}
                {text_field(form, Setting::KvCapacity, "Tokens of context the cache holds, in blocks of 16.", true)}
                {text_field(form, Setting::Watermark, "A share of blocks kept free when admitting, such as 0.01.", true)}
                {check_field(form, Setting::PrefixCaching, "Keep the shared prefix's blocks once for every request.")}
                {text_field(form, Setting::QueueLimit, "Requests waiting at most, or none; an arrival past it is rejected.", true)}
                {text_field(form, Setting::Deadline, "A request that waits longer is rejected (ms), or none.", true)}
                {text_field(form, Setting::Priority, "The name of a class served first and preempted last, or none.", false)}
            </fieldset>
        </Later>
        <Later>
            <fieldset class="sim-group">
                <legend>"Step cost"</legend>
                <p class="field-help">"Each step's time is a floor, a cost per token, an attention term and a context-read term, from the preset's published figures; edit any of them. It is a teaching model (see the note above), not a performance claim."</p>
                {select_field(form, Setting::Preset, preset_choices(), Some(pick_preset))}
                {text_field(form, Setting::Floor, "Milliseconds every step takes, however little it holds.", true)}
                {text_field(form, Setting::PerToken, "Milliseconds for each token a step processes.", true)}
                {text_field(form, Setting::Attention, "Grows with a prompt chunk's length times its context.", true)}
                {text_field(form, Setting::Context, "For each context token a decode reads.", true)}
                {text_field(form, Setting::Emit, "Sampling and writing the first token, beside the engine.", true)}
                <details class="sim-sources">
                    <summary>"Where these figures come from"</summary>
                    <ul>{sources}</ul>
                </details>
                {select_field(form, Setting::Convention, CONVENTIONS.to_vec(), None)}
            </fieldset>
        </Later>
    }
}
