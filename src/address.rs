//! The page's own address, read from the browser in one place.
//!
//! In the browser these read `window.location`. Natively there is no
//! browser: the release step renders the lesson's first view to static HTML
//! (`first_view`), which is the page as a learner opening its plain address
//! meets it, so natively the query is empty and the location unknown
//! (empty text), and every reader of the address takes its default.
//!
//! What it deliberately does not do: read anything out of the address
//! (`route` and `ttft_core::embed::query` do) or change it (`navigation`).

/// The query string, `?part=trace` ('' when there is none).
pub fn search() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        String::new()
    }
}

/// The whole address ('' when unknown).
pub fn href() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        String::new()
    }
}

/// The address without query or fragment ('' when unknown).
pub fn origin_and_path() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window()
            .and_then(|w| {
                let l = w.location();
                Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
            })
            .unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        String::new()
    }
}
