//! What a part says while code it loads on demand (a worker, a part's own
//! wasm) is on its way, and when it could not arrive: one status line with
//! a sentence of why it is fetched only now, or one alert with what the
//! browser said and Retry. The import part, the simulate part and the
//! simulator's engine all say it the same way.

use leptos::prelude::*;

/// "Loading …": a status, with why it is fetched only now.
#[component]
pub fn OnDemandLoading(text: &'static str, help: &'static str) -> impl IntoView {
    view! {
        <div class="reader-loading" role="status">
            <p>{text}</p>
            <p class="field-help">{help}</p>
        </div>
    }
}

/// "… could not load": an alert with the browser's reason and Retry.
#[component]
pub fn OnDemandFailed(headline: &'static str, reason: String, on_retry: Callback<()>) -> impl IntoView {
    view! {
        <div class="notice notice-error reader-failed" role="alert">
            <p><strong>{headline}</strong></p>
            <p>{format!("The browser said: {reason}.")}</p>
            <p>"Check that you are online, then try again."</p>
            <button type="button" on:click=move |_| on_retry.run(())>"Retry"</button>
        </div>
    }
}
