//! The second opinion's settings: a provider preset, the base URL, the
//! model and the API key, with "Remember on this device" and "Forget
//! everything".
//!
//! The endpoint (preset, URL, model; never the key) is a stored value like
//! any other. The key is entered once in a password field and then shown
//! only in the core's masked form with a "Replace key" action; it is kept in
//! `sessionStorage`, or in `localStorage` when "Remember on this device" is
//! ticked (`crate::key_storage`). Every check of the URL and the key's need
//! comes from `ttft_core::second_opinion::provider`.
//!
//! A key belongs to the origin of the base URL it was entered for
//! (`ttft_core::second_opinion::key_origin`): when the provider or base URL changes to
//! another origin, the key is not used for it; the panel says, in a live
//! region, where the kept key goes and asks for the key for the new
//! address. Switching back uses the kept key again; entering a new key
//! replaces it. A key cannot be entered before the base URL is usable,
//! because there would be no origin to tie it to.
//!
//! What it deliberately does not do: send anything, or show the key again.

use crate::key_storage::{self, KeyPlace};
use crate::learner_state;
use crate::learner_state::endpoint::SavedEndpoint;
use crate::learner_state::merge::next_stamp;
use crate::storage::{now_ms, open_for_app, Stored};
use leptos::prelude::*;
use ttft_core::second_opinion::key_origin::{endpoint_origin, BoundKey};
use ttft_core::second_opinion::provider::{self, find_preset, parse_base_url, ApiKey, PRESETS};

/// The key kept, the origin it was entered for, and where it is kept.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyHeld {
    /// The key (shown only masked) and its origin.
    pub bound: BoundKey,
    /// `None` when the browser would not keep it (it lives in the page).
    pub place: Option<KeyPlace>,
}

impl KeyHeld {
    /// The key for `saved`: only when its base URL has the origin the key
    /// was entered for.
    pub fn for_endpoint(&self, saved: &SavedEndpoint) -> Option<&ApiKey> {
        self.bound.for_base_url(&saved.base_url)
    }
}

/// The stored endpoint and the key kept from before (if any).
pub fn open_endpoint() -> (Stored<SavedEndpoint>, RwSignal<Option<KeyHeld>>) {
    let endpoint = open_for_app(learner_state::endpoint());
    let key = key_storage::load().map(|(bound, place)| KeyHeld {
        bound,
        place: Some(place),
    });
    (endpoint, RwSignal::new(key))
}

/// The settings panel.
#[component]
pub fn EndpointSettingsPanel(
    /// The stored endpoint.
    endpoint: Stored<SavedEndpoint>,
    /// The key in use.
    key: RwSignal<Option<KeyHeld>>,
) -> impl IntoView {
    let signal = endpoint.signal();
    let remember = RwSignal::new(key.with_untracked(|k| {
        matches!(
            k,
            Some(KeyHeld {
                place: Some(KeyPlace::Device),
                ..
            })
        )
    }));
    let replacing = RwSignal::new(false);
    let said = RwSignal::new(String::new());
    let edit = {
        let endpoint = endpoint.clone();
        move |change: &dyn Fn(&mut SavedEndpoint)| {
            let _ = endpoint.update(|e| {
                change(e);
                e.changed_ms = next_stamp(e.changed_ms, now_ms());
            });
        }
    };

    let options = PRESETS
        .iter()
        .map(|p| {
            let id = p.id;
            view! { <option value=id selected=move || signal.with(|e| e.preset == id)>{p.label}</option> }
        })
        .collect_view();
    let on_preset = {
        let edit = edit.clone();
        move |ev: leptos::ev::Event| {
            let id = event_target_value(&ev);
            if let Some(p) = find_preset(&id) {
                edit(&|e: &mut SavedEndpoint| {
                    e.preset = p.id.to_owned();
                    e.base_url = p.base_url.to_owned();
                    e.model = p.default_model.to_owned();
                });
            }
        }
    };
    let note = move || {
        signal.with(|e| {
            find_preset(&e.preset)
                .map(|p| p.note)
                .unwrap_or("Choose where to send the answer.")
        })
    };
    let url_error = move || {
        signal.with(|e| {
            if e.base_url.trim().is_empty() {
                None
            } else {
                parse_base_url(&e.base_url)
                    .err()
                    .map(|err| format!("Base URL: {err}."))
            }
        })
    };
    // Before a provider is chosen the key may well be needed; a local
    // server needs none; a custom endpoint may or may not.
    let key_label = move || {
        signal.with(|e| match find_preset(&e.preset) {
            None => "API key",
            Some(p) if p.needs_key => "API key",
            Some(p) if p.id == "custom" => "API key (if your endpoint asks for one)",
            Some(_) => "API key (not needed for a server on your own machine)",
        })
    };

    let keep = move |k: BoundKey, remember_it: bool| {
        let place = if remember_it {
            KeyPlace::Device
        } else {
            KeyPlace::Session
        };
        match key_storage::save(&k, place) {
            Ok(()) => {
                said.set(match place {
                    KeyPlace::Device => {
                        "Key remembered on this device until you forget it.".to_owned()
                    }
                    KeyPlace::Session => "Key kept for this browser session only.".to_owned(),
                });
                key.set(Some(KeyHeld {
                    bound: k,
                    place: Some(place),
                }));
            }
            Err(e) => {
                said.set(format!("Key in use, but {e}."));
                key.set(Some(KeyHeld {
                    bound: k,
                    place: None,
                }));
            }
        }
    };
    let on_key = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        let Some(k) = ApiKey::new(&text) else { return };
        match signal.with_untracked(|e| BoundKey::new(k, &e.base_url)) {
            Ok(bound) => {
                keep(bound, remember.get_untracked());
                replacing.set(false);
            }
            Err(e) => said.set(format!(
                "The key was not taken: it is kept for one address only, so give a usable base URL first ({e})."
            )),
        }
    };
    let on_remember = move |ev: leptos::ev::Event| {
        let on = event_target_checked(&ev);
        remember.set(on);
        if let Some(held) = key.get_untracked() {
            keep(held.bound, on);
        }
    };
    let on_forget = {
        let endpoint = endpoint.clone();
        move |_| {
            key_storage::forget();
            key.set(None);
            replacing.set(false);
            remember.set(false);
            let stamp = endpoint.get().changed_ms;
            let cleared = SavedEndpoint {
                changed_ms: next_stamp(stamp, now_ms()),
                ..SavedEndpoint::default()
            };
            said.set(match endpoint.set(cleared) {
                Ok(()) => {
                    "Forgotten: the settings and the key are gone from this browser.".to_owned()
                }
                Err(_) => {
                    "The key is gone; the settings could not be cleared from storage.".to_owned()
                }
            });
        }
    };

    // Where the key field's text says the key will go.
    let key_note = move || {
        match signal.with(|e| endpoint_origin(&e.base_url)) {
        Some(origin) => format!(
            "It is kept for {origin} only, the address above. Paste it and leave the field; it is then shown only as \
             its last four characters."
        ),
        None => "Give the base URL first: a key is kept for one address only. Then paste it and leave the field; it \
                 is then shown only as its last four characters."
            .to_owned(),
    }
    };
    // A kept key whose origin is not the one the settings now name.
    let elsewhere = move || {
        key.with(|k| {
            let k = k.as_ref()?;
            signal.with(|e| {
                if k.for_endpoint(e).is_some() {
                    return None;
                }
                let (masked, was) = (k.bound.key.masked(), &k.bound.origin);
                Some(match endpoint_origin(&e.base_url) {
                    Some(now) => format!(
                        "Your key {masked} was entered for {was}, so it is not sent to {now}. Paste the key for {now} \
                         below if it needs one; switching back to {was} uses the kept key again."
                    ),
                    None => format!("Your key {masked} is kept for {was} and is sent only there."),
                })
            })
        })
    };
    let key_part = move || {
        let held = key.get();
        let fitting =
            held.filter(|h| !replacing.get() && signal.with(|e| h.for_endpoint(e).is_some()));
        match fitting {
            Some(h) => {
                let where_kept = match h.place {
                    Some(KeyPlace::Session) => "kept for this browser session",
                    Some(KeyPlace::Device) => "remembered on this device",
                    None => "kept in this page only",
                };
                view! {
                    <p class="so-key-held">
                        <span id="so-key-label">"API key: "</span>
                        <span class="so-key-masked">{h.bound.key.masked()}</span>
                        {format!(" (for {}, {where_kept}) ", h.bound.origin)}
                        <button type="button" on:click=move |_| replacing.set(true)>"Replace key"</button>
                    </p>
                }
                .into_any()
            }
            None => view! {
                <div class="so-field">
                    <label for="so-key">{key_label}</label>
                    <input
                        id="so-key"
                        type="password"
                        autocomplete="off"
                        spellcheck="false"
                        aria-describedby="so-key-origin so-key-note"
                        on:change=on_key
                    />
                    <p id="so-key-note" class="note-small">{key_note}</p>
                </div>
            }
            .into_any(),
        }
    };

    view! {
        <fieldset class="so-settings">
            <legend>"Where to send your answer"</legend>
            <div class="so-field">
                <label for="so-preset">"Provider"</label>
                <select id="so-preset" aria-describedby="so-preset-note" on:change=on_preset>
                    <option value="" disabled=true selected=move || signal.with(|e| find_preset(&e.preset).is_none())>
                        "Choose a provider"
                    </option>
                    {options}
                </select>
                <p id="so-preset-note" class="note-small">{note}</p>
            </div>
            <div class="so-field">
                <label for="so-base-url">"Base URL"</label>
                <input
                    id="so-base-url"
                    type="url"
                    inputmode="url"
                    autocomplete="off"
                    spellcheck="false"
                    aria-describedby="so-base-url-error"
                    aria-invalid=move || if url_error().is_some() { "true" } else { "false" }
                    prop:value=move || signal.with(|e| e.base_url.clone())
                    on:change={
                        let edit = edit.clone();
                        move |ev| {
                            let v = event_target_value(&ev);
                            edit(&|e: &mut SavedEndpoint| {
                                e.base_url = v.clone();
                                if e.preset.is_empty() {
                                    e.preset = "custom".to_owned();
                                }
                            })
                        }
                    }
                />
                <p id="so-base-url-error" class="field-error">{url_error}</p>
            </div>
            <div class="so-field">
                <label for="so-model">"Model"</label>
                <input
                    id="so-model"
                    type="text"
                    autocomplete="off"
                    spellcheck="false"
                    prop:value=move || signal.with(|e| e.model.clone())
                    on:change={
                        let edit = edit.clone();
                        move |ev| {
                            let v = event_target_value(&ev);
                            edit(&|e: &mut SavedEndpoint| e.model = v.clone())
                        }
                    }
                />
            </div>
            <p id="so-key-origin" class="so-key-origin" role="status" aria-live="polite">
                {move || elsewhere().unwrap_or_default()}
            </p>
            {key_part}
            <div class="so-field so-check">
                <input id="so-remember" type="checkbox" prop:checked=move || remember.get() on:change=on_remember />
                <label for="so-remember">"Remember on this device"</label>
            </div>
            <p class="note-small">
                "Your key goes only to the base URL above, straight from this browser in the request's \
                 Authorization header: this page has no server of its own and never exports or shows the key. \
                 Each grading call is billed by your provider like any other request (the rubric, the question \
                 and your answer, a few thousand tokens), and a model on your own computer costs nothing."
            </p>
            <p class="practice-actions">
                <button type="button" on:click=on_forget>"Forget everything"</button>
            </p>
            <p class="note-small" role="status" aria-live="polite">{move || said.get()}</p>
        </fieldset>
    }
}

/// The endpoint these settings resolve to with `key`, or why they cannot.
pub fn resolve(
    saved: &SavedEndpoint,
    key: Option<&KeyHeld>,
) -> Result<provider::Endpoint, provider::SettingsError> {
    provider::resolve(&saved.settings(), key.and_then(|k| k.for_endpoint(saved)))
}
