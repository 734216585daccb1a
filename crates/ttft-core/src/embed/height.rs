//! The height messages the embedded page and its parent exchange, in the
//! page's own dialect and in H5P's ([`H5pChild`] is the iframe's side of
//! the H5P handshake; [`read_height_message`] the parent's check).

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::fmt;

/// The largest height accepted, in CSS pixels. A taller value is a bug or
/// an attack on the parent's layout.
pub const MAX_HEIGHT: u32 = 100_000;

/// ttft-lab's own height message.
pub fn own_height_message(height: u32) -> Value {
    json!({"type": "ttft-lab:height", "version": 1, "height": height.min(MAX_HEIGHT)})
}

/// H5P's `hello`: the iframe asks whether the parent runs the resizer.
pub fn h5p_hello() -> Value {
    json!({"context": "h5p", "action": "hello"})
}

/// H5P's `prepareResize`, with the document's heights.
pub fn h5p_prepare_resize(scroll_height: u32, client_height: u32) -> Value {
    json!({"context": "h5p", "action": "prepareResize", "scrollHeight": scroll_height.min(MAX_HEIGHT), "clientHeight": client_height.min(MAX_HEIGHT)})
}

/// H5P's `resize`, with the height the iframe should take.
pub fn h5p_resize(scroll_height: u32) -> Value {
    json!({"context": "h5p", "action": "resize", "scrollHeight": scroll_height.min(MAX_HEIGHT)})
}

/// A height message the parent accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum HeightMessage {
    /// ttft-lab's own: set the iframe to `height`.
    Own { height: u32 },
    /// H5P `hello`: answer `hello`.
    H5pHello,
    /// H5P `prepareResize`.
    H5pPrepareResize {
        scroll_height: u32,
        client_height: u32,
    },
    /// H5P `resize`: set the iframe to `scroll_height`.
    H5pResize { scroll_height: u32 },
}

/// Why a message is ignored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum MessageError {
    /// Neither dialect (another script's message): ignore silently.
    NotOurs,
    /// Our dialect, a version this code does not know.
    Version,
    /// An H5P action the parent does not handle.
    Action { action: String },
    /// A height that is missing, not a number, negative, not finite or
    /// above [`MAX_HEIGHT`].
    BadHeight { field: String },
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::NotOurs => f.write_str("not a height message"),
            MessageError::Version => f.write_str("a ttft-lab height message of an unknown version"),
            MessageError::Action { action } => write!(f, "H5P action \"{action}\" is not handled"),
            MessageError::BadHeight { field } => {
                write!(f, "{field} is not a height from 0 to {MAX_HEIGHT} pixels")
            }
        }
    }
}

impl std::error::Error for MessageError {}

/// A height in 0..=MAX_HEIGHT from a JSON value, rounded up to a whole
/// pixel (browsers report fractions).
fn height(value: Option<&Value>, field: &str) -> Result<u32, MessageError> {
    let bad = || MessageError::BadHeight {
        field: field.to_owned(),
    };
    let h = value.and_then(Value::as_f64).ok_or_else(bad)?;
    if !h.is_finite() || h < 0.0 || h > f64::from(MAX_HEIGHT) {
        return Err(bad());
    }
    Ok(h.ceil() as u32)
}

/// The parent's check of a message from an iframe (after it has matched
/// `event.source` to one of its iframes).
pub fn read_height_message(data: &Value) -> Result<HeightMessage, MessageError> {
    if data.get("type").and_then(Value::as_str) == Some("ttft-lab:height") {
        if data.get("version").and_then(Value::as_u64) != Some(1) {
            return Err(MessageError::Version);
        }
        return Ok(HeightMessage::Own {
            height: height(data.get("height"), "height")?,
        });
    }
    if data.get("context").and_then(Value::as_str) != Some("h5p") {
        return Err(MessageError::NotOurs);
    }
    match data.get("action").and_then(Value::as_str) {
        Some("hello") => Ok(HeightMessage::H5pHello),
        Some("prepareResize") => Ok(HeightMessage::H5pPrepareResize {
            scroll_height: height(data.get("scrollHeight"), "scrollHeight")?,
            client_height: height(data.get("clientHeight"), "clientHeight")?,
        }),
        Some("resize") => Ok(HeightMessage::H5pResize {
            scroll_height: height(data.get("scrollHeight"), "scrollHeight")?,
        }),
        other => Err(MessageError::Action {
            action: other.unwrap_or("").chars().take(40).collect(),
        }),
    }
}

/// What the embedded page should do after a message from its parent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ChildAction {
    /// Post this message to the parent.
    Send { message: Value },
    /// Measure again and report (the parent window resized).
    Remeasure,
    /// Nothing to do.
    Nothing,
}

/// The embedded page's side of H5P's resize exchange. Before a parent
/// answers `hello`, size changes send `hello` again (as H5P's own iframe
/// does), so a resizer that loads late still finds the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct H5pChild {
    /// The parent answered `hello`: it runs a resizer.
    pub friendly: bool,
    /// The last measured document height.
    pub scroll_height: u32,
}

impl H5pChild {
    /// The content changed size: what to post.
    pub fn on_size(&mut self, scroll_height: u32, client_height: u32) -> Value {
        self.scroll_height = scroll_height.min(MAX_HEIGHT);
        if self.friendly {
            h5p_prepare_resize(scroll_height, client_height)
        } else {
            h5p_hello()
        }
    }

    /// A message from the parent (already checked to come from
    /// `window.parent`).
    pub fn on_parent_message(&mut self, data: &Value) -> ChildAction {
        if data.get("context").and_then(Value::as_str) != Some("h5p") {
            return ChildAction::Nothing;
        }
        match data.get("action").and_then(Value::as_str) {
            Some("ready") => ChildAction::Send {
                message: h5p_hello(),
            },
            Some("hello") => {
                self.friendly = true;
                ChildAction::Remeasure
            }
            Some("resizePrepared") => ChildAction::Send {
                message: h5p_resize(self.scroll_height),
            },
            Some("resize") => ChildAction::Remeasure,
            _ => ChildAction::Nothing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_message(data: Value, expected: Result<HeightMessage, MessageError>) {
        assert_eq!(read_height_message(&data), expected, "{data}");
    }

    #[test]
    fn height_messages() {
        check_message(
            own_height_message(812),
            Ok(HeightMessage::Own { height: 812 }),
        );
        check_message(
            json!({"type": "ttft-lab:height", "version": 1, "height": 99.2}),
            Ok(HeightMessage::Own { height: 100 }),
        );
        check_message(h5p_hello(), Ok(HeightMessage::H5pHello));
        check_message(
            h5p_prepare_resize(900, 600),
            Ok(HeightMessage::H5pPrepareResize {
                scroll_height: 900,
                client_height: 600,
            }),
        );
        check_message(
            h5p_resize(900),
            Ok(HeightMessage::H5pResize { scroll_height: 900 }),
        );
        let bad = |f: &str| Err(MessageError::BadHeight { field: f.into() });
        check_message(
            json!({"type": "ttft-lab:height", "version": 1, "height": -5}),
            bad("height"),
        );
        check_message(
            json!({"type": "ttft-lab:height", "version": 1, "height": "500"}),
            bad("height"),
        );
        check_message(
            json!({"type": "ttft-lab:height", "version": 1, "height": null}),
            bad("height"),
        );
        check_message(
            json!({"type": "ttft-lab:height", "version": 1, "height": 1e12}),
            bad("height"),
        );
        check_message(
            json!({"type": "ttft-lab:height", "version": 1}),
            bad("height"),
        );
        check_message(
            json!({"type": "ttft-lab:height", "version": 2, "height": 5}),
            Err(MessageError::Version),
        );
        check_message(
            json!({"context": "h5p", "action": "resize"}),
            bad("scrollHeight"),
        );
        check_message(
            json!({"context": "h5p", "action": "setFullScreen"}),
            Err(MessageError::Action {
                action: "setFullScreen".into(),
            }),
        );
        check_message(json!({"hello": "world"}), Err(MessageError::NotOurs));
        check_message(json!("a string"), Err(MessageError::NotOurs));
        assert_eq!(own_height_message(u32::MAX)["height"], json!(MAX_HEIGHT));
    }

    #[test]
    fn the_h5p_handshake() {
        let mut child = H5pChild::default();
        assert_eq!(
            child.on_size(900, 600),
            h5p_hello(),
            "before the parent answers, keep saying hello"
        );
        assert_eq!(
            child.on_parent_message(&json!({"context": "h5p", "action": "ready"})),
            ChildAction::Send {
                message: h5p_hello()
            }
        );
        assert_eq!(
            child.on_parent_message(&json!({"context": "h5p", "action": "hello"})),
            ChildAction::Remeasure
        );
        assert!(child.friendly);
        assert_eq!(child.on_size(950, 600), h5p_prepare_resize(950, 600));
        assert_eq!(
            child.on_parent_message(&json!({"context": "h5p", "action": "resizePrepared"})),
            ChildAction::Send {
                message: h5p_resize(950)
            }
        );
        assert_eq!(
            child.on_parent_message(&json!({"context": "h5p", "action": "resize"})),
            ChildAction::Remeasure
        );
        assert_eq!(
            child.on_parent_message(&json!({"context": "other", "action": "hello"})),
            ChildAction::Nothing
        );
    }
}
