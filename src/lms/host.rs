//! The learning system's SCORM API object: finding it and calling it.
//!
//! Both standards put the object on a window above the content: a parent
//! frame, or the window that opened the content's window, or one of that
//! window's parents. [`find`] looks the way ADL's run-time documents
//! describe: up the parent chain from this window, then up from the opener,
//! at most [`MAX_CLIMB`] windows each, for `API_1484_11` (2004) first and
//! then `API` (1.2). A window of another origin cannot be read; the search
//! stops climbing there instead of failing. index.html's start-up script
//! climbs the same way, in JavaScript and before any wasm, to choose the
//! full app (the only build with this module) where a host is above: a
//! change to the climb here belongs there too.
//!
//! [`Host`] calls a method by its standard's name through `js_sys`, and
//! turns every way a call can go wrong (the method is gone, it throws, it
//! answers `"false"`) into a [`Refusal`] with the host's own error code
//! and words when it gives them.
//!
//! What it deliberately does not do: decide what to report or when
//! (`super`), or hold any SCORM element name (`ttft_core::lms::cmi` does).

use std::fmt;
use ttft_core::lms::cmi::{Method, Standard};
use wasm_bindgen::{JsCast, JsValue};

/// How many windows up one chain the search looks (ADL's sample code
/// stops at seven for 1.2; frames deeper than this are not a course).
pub const MAX_CLIMB: usize = 10;

/// The host's API object and the standard it speaks.
#[derive(Clone, Debug)]
pub struct Host {
    /// Which standard.
    pub standard: Standard,
    api: JsValue,
}

/// A call the host did not carry out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The method, as the standard names it.
    pub method: &'static str,
    /// The host's error code (`0` when it gave none).
    pub code: String,
    /// The host's own words, or ours when it has none.
    pub words: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.code.is_empty() || self.code == "0" {
            write!(f, "{} failed: {}", self.method, self.words)
        } else {
            write!(f, "{} failed with error {}: {}", self.method, self.code, self.words)
        }
    }
}

fn read(target: &JsValue, name: &str) -> Option<JsValue> {
    js_sys::Reflect::get(target, &JsValue::from_str(name))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// The API object on `window`, if it has one for `standard` that can at
/// least be initialised (a stray global named `API` is not a host).
fn api_on(window: &JsValue, standard: Standard) -> Option<JsValue> {
    let api = read(window, standard.api_name())?;
    read(&api, standard.method(Method::Initialize))?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    Some(api)
}

/// The windows to look in, in order: this one and its parents, then the
/// opener and its parents; each chain at most [`MAX_CLIMB`] long.
fn chains() -> Vec<JsValue> {
    let mut out = Vec::new();
    let Some(window) = web_sys::window() else {
        return out;
    };
    let climb = |start: JsValue, out: &mut Vec<JsValue>| {
        let mut current = start;
        for _ in 0..MAX_CLIMB {
            out.push(current.clone());
            // Another origin's window throws on reading; stop there.
            let Some(parent) = read(&current, "parent") else {
                break;
            };
            if js_sys::Object::is(&parent, &current) {
                break;
            }
            current = parent;
        }
    };
    climb(window.clone().into(), &mut out);
    if let Some(opener) = read(window.as_ref(), "opener") {
        climb(opener, &mut out);
    }
    out
}

/// The host's API, when the page runs inside a learning system.
pub fn find() -> Option<Host> {
    if cfg!(not(target_arch = "wasm32")) {
        // Rendered natively for the first view: there is no frame chain.
        return None;
    }
    let windows = chains();
    Standard::ALL.into_iter().find_map(|standard| {
        windows
            .iter()
            .find_map(|w| api_on(w, standard))
            .map(|api| Host { standard, api })
    })
}

impl Host {
    fn call(&self, method: Method, args: &[&str]) -> Result<String, Refusal> {
        let name = self.standard.method(method);
        let refused = |words: String| Refusal {
            method: name,
            code: String::new(),
            words,
        };
        let function = read(&self.api, name)
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .ok_or_else(|| refused("the learning system no longer offers it".into()))?;
        let result = match args {
            [] => function.call1(&self.api, &JsValue::from_str("")),
            [a] => function.call1(&self.api, &JsValue::from_str(a)),
            [a, b] => function.call2(&self.api, &JsValue::from_str(a), &JsValue::from_str(b)),
            _ => return Err(refused("too many arguments".into())),
        };
        match result {
            Ok(v) => Ok(v.as_string().unwrap_or_else(|| {
                v.as_bool()
                    .map_or_else(String::new, |b| if b { "true" } else { "false" }.to_owned())
            })),
            Err(e) => Err(refused(format!(
                "it threw {}",
                js_sys::Error::from(e).message().as_string().unwrap_or_default()
            ))),
        }
    }

    /// The host's last error code and its words for it.
    fn last_error(&self, method: Method) -> Refusal {
        let code = self.call(Method::GetLastError, &[]).unwrap_or_default();
        let words = self
            .call(Method::GetErrorString, &[code.as_str()])
            .ok()
            .filter(|w| !w.trim().is_empty())
            .unwrap_or_else(|| "the learning system gave no reason".into());
        Refusal {
            method: self.standard.method(method),
            code,
            words,
        }
    }

    /// A call that answers `"true"` when it worked.
    fn act(&self, method: Method, args: &[&str]) -> Result<(), Refusal> {
        match self.call(method, args)?.as_str() {
            "true" => Ok(()),
            _ => Err(self.last_error(method)),
        }
    }

    /// Starts the session.
    pub fn initialize(&self) -> Result<(), Refusal> {
        self.act(Method::Initialize, &[])
    }

    /// Ends the session.
    pub fn terminate(&self) -> Result<(), Refusal> {
        self.act(Method::Terminate, &[])
    }

    /// Asks the host to store what was set.
    pub fn commit(&self) -> Result<(), Refusal> {
        self.act(Method::Commit, &[])
    }

    /// Sets one element.
    pub fn set(&self, element: &str, value: &str) -> Result<(), Refusal> {
        self.act(Method::SetValue, &[element, value])
    }

    /// Reads one element. An empty answer with error code 0 is an empty
    /// value; with another code, a refusal (2004 answers 403 for a value
    /// never set, which is "nothing yet" too).
    pub fn get(&self, element: &str) -> Result<String, Refusal> {
        let value = self.call(Method::GetValue, &[element])?;
        if !value.is_empty() {
            return Ok(value);
        }
        let error = self.last_error(Method::GetValue);
        match error.code.as_str() {
            "" | "0" | "403" => Ok(String::new()),
            _ => Err(error),
        }
    }

    /// The host's error code for the last call (for "not implemented").
    pub fn last_code(&self) -> String {
        self.call(Method::GetLastError, &[]).unwrap_or_default()
    }
}
