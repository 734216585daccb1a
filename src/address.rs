//! The page's own address, read from the browser in one place.
//!
//! In the browser these read `window.location`. Natively there is no
//! browser: the release step renders each part's first view to static HTML
//! (`first_view`), the page as a learner opening that part's address with
//! nothing saved meets it. Natively the query is the one [`with_search`]
//! sets ('' outside it) and the location unknown (empty text), so every
//! other reader of the address takes its default.
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
        NATIVE_SEARCH.with(|s| s.borrow().clone())
    }
}

#[cfg(not(target_arch = "wasm32"))]
thread_local! {
    static NATIVE_SEARCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Runs `f` natively as if the page's query were `search` (`?part=trace`),
/// then restores the one before, even if `f` panics.
#[cfg(not(target_arch = "wasm32"))]
pub fn with_search<T>(search: &str, f: impl FnOnce() -> T) -> T {
    struct Restore(String);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = std::mem::take(&mut self.0);
            NATIVE_SEARCH.with(|s| *s.borrow_mut() = before);
        }
    }
    let _restore = Restore(NATIVE_SEARCH.with(|s| s.replace(search.to_owned())));
    f()
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
