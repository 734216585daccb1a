//! Where the learner's AI provider key is kept: `sessionStorage` by
//! default, so it is gone when the browser session ends, or `localStorage`
//! when the learner ticks "Remember on this device". Beside `storage`, this
//! is the only module that touches web storage, and it touches exactly one
//! key name, [`KEY_NAME`], in each.
//!
//! The key is kept together with the origin it was entered for
//! (`ttft_core::second_opinion::key_origin::BoundKey`, stored as its JSON form), so after a
//! reload it is still handed out only for that origin. A bare key saved
//! before keys were tied to an origin is removed when found: nobody can say
//! which host it was for, so the learner is asked for it again.
//!
//! Saving in one place removes the key from the other, so it is never in
//! both; [`forget`] removes it from both. Storage that refuses (private
//! mode, a sandboxed iframe) is reported, and the key then lives in the
//! page's memory only, which is the caller's business.
//!
//! What it deliberately does not do: keep the endpoint settings (they hold
//! no secret and go through `storage::Stored` like any other value), show
//! the key, or put it anywhere but these two entries.

use ttft_core::second_opinion::key_origin::BoundKey;

/// The one storage key the API key is kept under, in either storage.
pub const KEY_NAME: &str = crate::learner_state::API_KEY;

/// Which storage holds the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyPlace {
    /// `sessionStorage`: this browser session only.
    Session,
    /// `localStorage`: kept on this device until forgotten.
    Device,
}

/// Why the key could not be kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyNotKept {
    /// The browser's reason.
    pub reason: String,
}

impl std::fmt::Display for KeyNotKept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the browser would not keep the key ({}), so it lasts until you leave this page",
            self.reason
        )
    }
}

fn storage(place: KeyPlace) -> Result<web_sys::Storage, KeyNotKept> {
    // Natively (the first view) there is no browser, so no key either.
    if cfg!(not(target_arch = "wasm32")) {
        return Err(KeyNotKept {
            reason: "no window".into(),
        });
    }
    let window = web_sys::window().ok_or_else(|| KeyNotKept {
        reason: "no window".into(),
    })?;
    let got = match place {
        KeyPlace::Session => window.session_storage(),
        KeyPlace::Device => window.local_storage(),
    };
    match got {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err(KeyNotKept {
            reason: "storage is switched off".into(),
        }),
        Err(_) => Err(KeyNotKept {
            reason: "storage is refused".into(),
        }),
    }
}

/// The key kept from before with its origin, and where: the session copy
/// first. A stored value that is not a key tied to an origin is removed.
pub fn load() -> Option<(BoundKey, KeyPlace)> {
    [KeyPlace::Session, KeyPlace::Device]
        .into_iter()
        .find_map(|place| {
            let s = storage(place).ok()?;
            let text = s.get_item(KEY_NAME).ok()??;
            let bound = BoundKey::from_stored(&text);
            if bound.is_none() {
                let _ = s.remove_item(KEY_NAME);
            }
            bound.map(|k| (k, place))
        })
}

/// Keeps `key` with its origin in `place` and removes it from the other
/// storage.
pub fn save(key: &BoundKey, place: KeyPlace) -> Result<(), KeyNotKept> {
    let other = match place {
        KeyPlace::Session => KeyPlace::Device,
        KeyPlace::Device => KeyPlace::Session,
    };
    if let Ok(s) = storage(other) {
        let _ = s.remove_item(KEY_NAME);
    }
    storage(place)?
        .set_item(KEY_NAME, &key.to_stored())
        .map_err(|_| KeyNotKept {
            reason: "the write was refused".into(),
        })
}

/// Removes the key from both storages.
pub fn forget() {
    for place in [KeyPlace::Session, KeyPlace::Device] {
        if let Ok(s) = storage(place) {
            let _ = s.remove_item(KEY_NAME);
        }
    }
}
