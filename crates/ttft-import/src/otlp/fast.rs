//! A fast reader for the usual shape of a collector's OTLP JSON line.
//!
//! The general reader goes through serde's derived visitors: every field
//! name is dispatched through a visitor, every value through another, and a
//! span's dozen attributes cost hundreds of calls. This reader walks the
//! bytes of a line once, knowing the OTLP layout: it matches field names as
//! byte slices, skips what it does not use with a small validating scanner,
//! and reads the few numbers it needs directly.
//!
//! It is a shortcut, never a second opinion. It accepts only what it can
//! read exactly as the general reader does, and gives up (returns `None`,
//! having changed nothing) on anything else: any JSON error, a string with
//! an escape where the text is used, a duplicate field, a value of an
//! unexpected type, a value written before its attribute key, deep nesting,
//! a number it cannot convert the way serde_json does. The general reader
//! then reads the line and reports what it finds, so problems and their
//! messages come from one place. The tests in `otlp::tests` check the two
//! agree on varied and mangled lines.

use super::{attr, AnyValue, ArrayValue, Flex, LlmSpan, SpanAt, SpanParts};
use std::borrow::Cow;

/// Nesting allowed in a skipped value before giving the line to the
/// general reader (serde_json skips a value of any depth).
const MAX_DEPTH: usize = 64;

/// Arrays within arrays allowed in a used attribute's value. Each level is
/// three levels of serde_json's recursion limit (128), which the general
/// reader enforces; this stays far below it.
const MAX_VALUE_DEPTH: usize = 8;

/// The spans of one line, kept until the whole line is read. A line
/// usually holds one span, which is kept without a heap allocation.
#[derive(Default)]
pub(super) struct Spans<'a> {
    first: Option<(SpanAt, SpanParts<'a>)>,
    rest: Vec<(SpanAt, SpanParts<'a>)>,
}

impl<'a> Spans<'a> {
    fn push(&mut self, span: (SpanAt, SpanParts<'a>)) {
        if self.first.is_none() {
            self.first = Some(span);
        } else {
            self.rest.push(span);
        }
    }

    /// The spans in the order they were read.
    pub(super) fn into_iter(self) -> impl Iterator<Item = (SpanAt, SpanParts<'a>)> {
        self.first.into_iter().chain(self.rest)
    }
}

/// A span's fields in the order a collector writes them.
const SPAN_FIELDS: &[&[u8]] = &[
    b"traceId",
    b"spanId",
    b"parentSpanId",
    b"name",
    b"kind",
    b"startTimeUnixNano",
    b"endTimeUnixNano",
    b"attributes",
    b"status",
];

/// An attribute value's fields.
const VALUE_FIELDS: &[&[u8]] = &[b"stringValue", b"doubleValue", b"intValue", b"arrayValue"];

/// Reads one line's spans, or `None` when the general reader must.
pub(super) fn parse(line: &str) -> Option<Spans<'_>> {
    let mut c = Cur {
        text: line,
        b: line.as_bytes(),
        i: 0,
    };
    let mut out = Spans::default();
    let mut seen = false;
    c.object(&[b"resourceSpans"], |c, name| match name {
        b"resourceSpans" => {
            if std::mem::replace(&mut seen, true) {
                return None;
            }
            c.array(|c, r| resource_spans(c, r, &mut out))
        }
        _ => c.skip_value(0),
    })?;
    c.ws();
    (c.i == c.b.len()).then_some(out)
}

fn resource_spans<'a>(c: &mut Cur<'a>, r: usize, out: &mut Spans<'a>) -> Option<()> {
    let mut seen = false;
    c.object(&[b"resource", b"scopeSpans"], |c, name| match name {
        b"scopeSpans" | b"instrumentationLibrarySpans" => {
            if std::mem::replace(&mut seen, true) {
                return None;
            }
            c.array(|c, s| scope_spans(c, r, s, out))
        }
        _ => c.skip_value(0),
    })
}

fn scope_spans<'a>(c: &mut Cur<'a>, r: usize, s: usize, out: &mut Spans<'a>) -> Option<()> {
    let mut seen = false;
    c.object(&[b"scope", b"spans"], |c, name| match name {
        b"spans" => {
            if std::mem::replace(&mut seen, true) {
                return None;
            }
            c.array(|c, k| {
                let span = span(c)?;
                out.push(((r, s, k), span));
                Some(())
            })
        }
        _ => c.skip_value(0),
    })
}

fn span<'a>(c: &mut Cur<'a>) -> Option<SpanParts<'a>> {
    let mut name = None;
    let mut span_id = None;
    let mut start = None;
    let mut fields = None;
    let mut status = None;
    c.object(SPAN_FIELDS, |c, field| {
        match field {
            b"name" => once(&mut name, c.plain_str()?)?,
            b"spanId" => once(&mut span_id, c.plain_str()?)?,
            b"startTimeUnixNano" => once(&mut start, c.flex()?)?,
            b"attributes" => {
                let mut f = LlmSpan::default();
                if !c.null()? {
                    c.array(|c, _| match compact_attribute(c) {
                        Some(Compact { key, value }) => {
                            if let Some(v) = value {
                                f.set(key, attr(&v));
                            }
                            Some(())
                        }
                        None => key_value(c, &mut f),
                    })?;
                }
                once(&mut fields, f)?;
            }
            b"status" => {
                let st = if c.null()? { None } else { Some(status_of(c)?) };
                once(&mut status, st)?;
            }
            _ => c.skip_value(0)?,
        }
        Some(())
    })?;
    Some(SpanParts {
        name: Cow::Borrowed(name.unwrap_or_default()),
        span_id: Cow::Borrowed(span_id.unwrap_or_default()),
        start: start.unwrap_or_default(),
        fields: fields.unwrap_or_default(),
        status: status.flatten(),
    })
}

/// Sets a field seen for the first time; a duplicate is the general
/// reader's to report.
fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    match slot {
        Some(_) => None,
        None => {
            *slot = Some(value);
            Some(())
        }
    }
}

fn status_of<'a>(c: &mut Cur<'a>) -> Option<(bool, Cow<'a, str>)> {
    let mut code = None;
    let mut message = None;
    c.object(&[b"code", b"message"], |c, field| match field {
        b"code" => {
            let error = match c.peek()? {
                b'"' => super::status_text_is_error(c.plain_str()?),
                b'n' => {
                    c.null()?;
                    false
                }
                // serde_json hands a whole number to the visitor as an
                // integer; a fraction or exponent makes it a float, which a
                // status code refuses.
                b'0'..=b'9' | b'-' => match c.number()? {
                    Flex::Int(i) => i == 2,
                    _ => return None,
                },
                _ => return None,
            };
            once(&mut code, error)
        }
        b"message" => once(&mut message, c.plain_str()?),
        _ => c.skip_value(0),
    })?;
    Some((
        code.unwrap_or(false),
        Cow::Borrowed(message.unwrap_or_default()),
    ))
}

/// An attribute read by [`compact_attribute`]: its key, and its value when
/// the key is one the span uses.
struct Compact<'a> {
    key: &'a str,
    value: Option<AnyValue<'a>>,
}

/// The attribute as collectors write it, `{"key":"K","value":{"T":V}}`
/// with no spaces and `T` one of `stringValue`, `doubleValue`, `intValue`,
/// read by comparing the fixed bytes instead of walking two objects. Any
/// other layout leaves the cursor where it was and returns `None`, and
/// [`key_value`] reads the attribute; nothing is applied here, so reading
/// it again is safe. What is read is what `key_value` would read: the same
/// functions take the key and the value (or skip a value the span does not
/// use), and the value becomes the same `AnyValue`.
fn compact_attribute<'a>(c: &mut Cur<'a>) -> Option<Compact<'a>> {
    let start = c.i;
    let read = compact_attribute_at(c);
    if read.is_none() {
        c.i = start;
    }
    read
}

fn compact_attribute_at<'a>(c: &mut Cur<'a>) -> Option<Compact<'a>> {
    c.literal(b"{\"key\":")?;
    let key = c.plain_str()?;
    c.literal(b",\"value\":{\"")?;
    let kind = if c.literal(b"doubleValue\":").is_some() {
        b'd'
    } else if c.literal(b"intValue\":").is_some() {
        b'i'
    } else {
        c.literal(b"stringValue\":")?;
        b's'
    };
    let value = if LlmSpan::wants(key) {
        let mut v = AnyValue::default();
        match kind {
            b'd' => v.double_value = c.flex()?,
            b'i' => v.int_value = c.flex()?,
            _ => v.string_value = Some(Cow::Borrowed(c.plain_str()?)),
        }
        Some(v)
    } else {
        c.skip_value(0)?;
        None
    };
    c.literal(b"}}")?;
    Some(Compact { key, value })
}

/// One `{"key": ..., "value": ...}` attribute, key first, applied to the
/// span's fields as `KeyValue` in the parent module does.
fn key_value(c: &mut Cur<'_>, fields: &mut LlmSpan) -> Option<()> {
    let mut key: Option<&str> = None;
    let mut has_value = false;
    c.object(&[b"key", b"value"], |c, field| match field {
        b"key" => once(&mut key, c.plain_str()?),
        b"value" => {
            // A value before its key, or a second value, is left to the
            // general reader.
            let k = key?;
            if std::mem::replace(&mut has_value, true) {
                return None;
            }
            if LlmSpan::wants(k) {
                let v = any_value(c, 0)?;
                fields.set(k, attr(&v));
                Some(())
            } else {
                c.skip_value(0)
            }
        }
        _ => c.skip_value(0),
    })?;
    let key = key?;
    if !has_value && LlmSpan::wants(key) {
        fields.set(key, attr(&AnyValue::default()));
    }
    Some(())
}

fn any_value<'a>(c: &mut Cur<'a>, depth: usize) -> Option<AnyValue<'a>> {
    if depth > MAX_VALUE_DEPTH {
        return None;
    }
    let mut string_value = None;
    let mut int_value = None;
    let mut double_value = None;
    let mut array_value = None;
    c.object(VALUE_FIELDS, |c, field| match field {
        b"stringValue" => {
            let v = if c.null()? {
                None
            } else {
                Some(Cow::Borrowed(c.plain_str()?))
            };
            once(&mut string_value, v)
        }
        b"intValue" => once(&mut int_value, c.flex()?),
        b"doubleValue" => once(&mut double_value, c.flex()?),
        b"arrayValue" => {
            let v = if c.null()? {
                None
            } else {
                let mut values = None;
                c.object(&[b"values"], |c, field| match field {
                    b"values" => {
                        let mut list = Vec::new();
                        c.array(|c, _| {
                            list.push(any_value(c, depth + 1)?);
                            Some(())
                        })?;
                        once(&mut values, list)
                    }
                    _ => c.skip_value(0),
                })?;
                Some(ArrayValue {
                    values: values.unwrap_or_default(),
                })
            };
            once(&mut array_value, v)
        }
        _ => c.skip_value(0),
    })?;
    Some(AnyValue {
        string_value: string_value.flatten(),
        int_value: int_value.unwrap_or_default(),
        double_value: double_value.unwrap_or_default(),
        array_value: array_value.flatten(),
    })
}

/// A cursor over one line's bytes.
struct Cur<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Cur<'a> {
    /// Skips JSON whitespace (exactly serde_json's four bytes).
    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        let c = *self.b.get(self.i)?;
        if c > b' ' {
            // Not whitespace: the usual case in a collector's compact lines.
            return Some(c);
        }
        self.ws();
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        if self.peek()? == byte {
            self.i += 1;
            Some(())
        } else {
            None
        }
    }

    /// Reads `null` if it comes next: `Some(true)`; `Some(false)` when
    /// something else comes; `None` for a malformed literal.
    fn null(&mut self) -> Option<bool> {
        if self.peek()? != b'n' {
            return Some(false);
        }
        self.literal(b"null")?;
        Some(true)
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.i + word.len();
        (self.b.get(self.i..end)? == word).then(|| self.i = end)
    }

    /// An object's members: `f` gets each field name (without quotes; a name
    /// holding an escape is not handled here) with the cursor at its value,
    /// and must read the value. `names` are the field names expected: one
    /// written exactly `"name":` is recognised by comparing bytes, without
    /// scanning it as a string (any other is read as one).
    fn object(
        &mut self,
        names: &[&'static [u8]],
        mut f: impl FnMut(&mut Self, &'a [u8]) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        self.items(b'}', |c| {
            let name = match c.known_name(names) {
                Some(name) => name,
                None => {
                    let name = c.plain_str()?.as_bytes();
                    c.eat(b':')?;
                    name
                }
            };
            f(c, name)
        })
    }

    /// What follows an object's or array's opening byte: items read by
    /// `item`, separated by commas, up to `close` (taken).
    fn items(&mut self, close: u8, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        if self.peek()? == close {
            self.i += 1;
            return Some(());
        }
        loop {
            item(self)?;
            match self.peek()? {
                b',' => self.i += 1,
                c if c == close => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// One of `names` written as `"name":` right at the cursor, taken.
    fn known_name(&mut self, names: &[&'static [u8]]) -> Option<&'static [u8]> {
        let rest = self.b.get(self.i..)?;
        let (&b'"', rest) = rest.split_first()? else {
            return None;
        };
        for &name in names {
            if rest.starts_with(name) && rest.get(name.len()..name.len() + 2) == Some(b"\":") {
                self.i += name.len() + 3;
                return Some(name);
            }
        }
        None
    }

    /// An array's elements: `f` gets each index and must read the element.
    fn array(&mut self, mut f: impl FnMut(&mut Self, usize) -> Option<()>) -> Option<()> {
        self.eat(b'[')?;
        let mut n = 0;
        self.items(b']', |c| {
            f(c, n)?;
            n += 1;
            Some(())
        })
    }

    /// A string without escapes, borrowed from the line.
    fn plain_str(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        let end = to_special(self.b, start);
        if self.b.get(end) != Some(&b'"') {
            return None;
        }
        self.i = end + 1;
        self.text.get(start..end)
    }

    /// Skips a string, escapes and all, refusing what serde_json refuses.
    fn skip_str(&mut self) -> Option<()> {
        self.eat(b'"')?;
        loop {
            let at = to_special(self.b, self.i);
            match self.b.get(at)? {
                b'"' => {
                    self.i = at + 1;
                    return Some(());
                }
                b'\\' => match self.b.get(at + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.i = at + 2,
                    b'u' => {
                        let hex = self.b.get(at + 2..at + 6)?;
                        if !hex.iter().all(u8::is_ascii_hexdigit) {
                            return None;
                        }
                        self.i = at + 6;
                    }
                    _ => return None,
                },
                // A control character.
                _ => return None,
            }
        }
    }

    /// Skips any JSON value, checking it is well formed.
    fn skip_value(&mut self, depth: usize) -> Option<()> {
        match self.peek()? {
            b'"' => self.skip_str(),
            b'{' => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                // Names are only checked to be strings (escapes and all), as
                // serde_json checks them when it skips an object.
                self.i += 1;
                self.items(b'}', |c| {
                    c.skip_str()?;
                    c.eat(b':')?;
                    c.skip_value(depth + 1)
                })
            }
            b'[' => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                self.array(|c, _| c.skip_value(depth + 1))
            }
            b'n' => self.literal(b"null"),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'-' | b'0'..=b'9' => {
                if let Some((_, end)) = simple_number(self.b, self.i) {
                    self.i = end;
                    return Some(());
                }
                let (start, end) = self.number_span();
                self.i = end;
                json_number_ok(self.b.get(start..end)?).then_some(())
            }
            _ => None,
        }
    }

    /// A number as OTLP may write it, as [`Flex`]'s deserializer reads it.
    fn flex(&mut self) -> Option<Flex> {
        match self.peek()? {
            b'"' => Some(text_number(self.plain_str()?)),
            b'n' => self.literal(b"null").map(|_| Flex::Absent),
            b't' => self.literal(b"true").map(|_| Flex::Bad),
            b'f' => self.literal(b"false").map(|_| Flex::Bad),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    /// A JSON number, converted exactly as serde_json converts it.
    fn number(&mut self) -> Option<Flex> {
        self.ws();
        if let Some((x, end)) = simple_number(self.b, self.i) {
            self.i = end;
            return Some(x);
        }
        // Anything else (a sign, many digits, a large exponent) is converted
        // by serde_json itself, so the result is the same bit for bit
        // whatever its features; an error hands the line over.
        let (start, end) = self.number_span();
        self.i = end;
        serde_json::from_str::<Flex>(self.text.get(start..end)?).ok()
    }

    /// The bytes that may belong to a number from here on. serde_json stops
    /// a number at the first byte its grammar does not allow; when the whole
    /// run is one valid number, it stops at the same place.
    fn number_span(&self) -> (usize, usize) {
        let start = self.i;
        let mut end = start;
        while let Some(b'0'..=b'9' | b'+' | b'-' | b'.' | b'e' | b'E') = self.b.get(end) {
            end += 1;
        }
        (start, end)
    }
}

/// The first byte from `i` on that ends or interrupts a plain string: a
/// quote, a backslash or a control character (or the end of `b`).
fn to_special(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::MAX / 255;
    const HIGH: u64 = ONES << 7;
    // Eight bytes at a time in plain integer arithmetic (the same on
    // wasm32): a byte's high bit is set in `found` when it is below 0x20,
    // a quote or a backslash. Only bytes after a true match can be flagged
    // wrongly, so the lowest flag is exact.
    while let Some(chunk) = b.get(i..i + 8) {
        let Ok(bytes) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let x = u64::from_le_bytes(bytes);
        let ctrl = x.wrapping_sub(ONES * 0x20) & !x;
        let q = x ^ (ONES * u64::from(b'"'));
        let quote = q.wrapping_sub(ONES) & !q;
        let s = x ^ (ONES * u64::from(b'\\'));
        let slash = s.wrapping_sub(ONES) & !s;
        let found = (ctrl | quote | slash) & HIGH;
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&c) = b.get(i) {
        if c < 0x20 || c == b'"' || c == b'\\' {
            return i;
        }
        i += 1;
    }
    b.len()
}

/// Whether `t` is exactly one JSON number (serde_json's grammar).
fn json_number_ok(t: &[u8]) -> bool {
    let mut i = usize::from(t.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let from = *i;
        while let Some(b'0'..=b'9') = t.get(*i) {
            *i += 1;
        }
        *i - from
    };
    let int_start = i;
    match digits(&mut i) {
        0 => return false,
        n if n > 1 && t.get(int_start) == Some(&b'0') => return false,
        _ => {}
    }
    if t.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if let Some(b'e' | b'E') = t.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = t.get(i) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == t.len()
}

/// A number written as a string, as [`Flex::from_text`] reads it: a string
/// of at most 38 digits (how OTLP writes `intValue` and nanosecond times;
/// any 38 digits fit an i128) is read here, since `parse::<i128>` would give
/// the same; anything else by `from_text` itself.
fn text_number(s: &str) -> Flex {
    let b = s.as_bytes();
    if !b.is_empty() && b.len() <= 38 && b.iter().all(u8::is_ascii_digit) {
        if b.len() <= 19 {
            // The usual case, in cheaper arithmetic.
            let n = b.iter().fold(0u64, |n, &c| n * 10 + u64::from(c - b'0'));
            return Flex::Int(i128::from(n));
        }
        let n = b.iter().fold(0i128, |n, &c| n * 10 + i128::from(c - b'0'));
        return Flex::Int(n);
    }
    Flex::from_text(s)
}

/// The powers of ten a double holds exactly.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Whether serde_json turns a decimal's digits `d` and exponent `-k` into
/// `(d as f64) / 10^k`, as it does unless built with its `float_roundtrip`
/// feature (then it rounds correctly, which differs for some inputs of
/// more than 15 digits, like the probe below). Asked of serde_json itself
/// once, so the fast reader follows whichever way it was built.
fn serde_json_divides() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    static MODE: AtomicU8 = AtomicU8::new(0);
    match MODE.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => {
            let divided = 26_001_075_975_500_861_u64 as f64 / 1e16;
            let divides = serde_json::from_str::<f64>("2.6001075975500861").ok() == Some(divided);
            MODE.store(if divides { 1 } else { 2 }, Ordering::Relaxed);
            divides
        }
    }
}

/// The common numbers, converted without serde_json where the result is
/// certain to be the same: a non-negative integer of at most 19 digits is
/// the `u64` serde_json gives; a decimal of at most 19 digits with a power
/// of ten up to 10^22 is `(digits as f64)` times or divided by that exact
/// power, which is serde_json's own computation without `float_roundtrip`,
/// and, when the digits are at most 2^53 (exact as a double), the correctly
/// rounded result it gives with it. `None` for anything else.
fn simple_number(t: &[u8], start: usize) -> Option<(Flex, usize)> {
    let mut i = start;
    let mut digits = 0u32;
    let mut sig: u64 = 0;
    let mut take = |i: &mut usize, digits: &mut u32| {
        let from = *i;
        while let Some(&c @ b'0'..=b'9') = t.get(*i) {
            // Nineteen digits always fit a u64.
            if *digits == 19 {
                return None;
            }
            sig = sig * 10 + u64::from(c - b'0');
            *i += 1;
            *digits += 1;
        }
        Some(*i - from)
    };
    let int_digits = take(&mut i, &mut digits)?;
    if int_digits == 0 || (int_digits > 1 && t.get(start) == Some(&b'0')) {
        return None;
    }
    let mut exp: i32 = 0;
    let mut float = false;
    if t.get(i) == Some(&b'.') {
        i += 1;
        let frac = take(&mut i, &mut digits)?;
        if frac == 0 {
            return None;
        }
        exp -= frac as i32;
        float = true;
    }
    if let Some(b'e' | b'E') = t.get(i) {
        i += 1;
        let negative = match t.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let from = i;
        let mut e: i32 = 0;
        while let Some(&c @ b'0'..=b'9') = t.get(i) {
            if i - from >= 4 {
                return None;
            }
            e = e * 10 + i32::from(c - b'0');
            i += 1;
        }
        if i == from {
            return None;
        }
        exp += if negative { -e } else { e };
        float = true;
    }
    // The number must end where the run of number-like bytes ends, so it
    // is the whole token serde_json would read.
    if let Some(b'0'..=b'9' | b'+' | b'-' | b'.' | b'e' | b'E') = t.get(i) {
        return None;
    }
    if !float {
        return Some((Flex::Int(i128::from(sig)), i));
    }
    if sig > 1 << 53 && !serde_json_divides() {
        return None;
    }
    let pow = *POW10.get(exp.unsigned_abs() as usize)?;
    let x = sig as f64;
    Some((Flex::Float(if exp >= 0 { x * pow } else { x / pow }), i))
}

#[cfg(test)]
pub(super) fn simple_number_for_test(t: &[u8]) -> Option<Flex> {
    simple_number(t, 0).and_then(|(x, end)| (end == t.len()).then_some(x))
}
