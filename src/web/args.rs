//! Arguments from JavaScript, checked before they reach Rust.
//!
//! A wasm-bindgen parameter typed `&str`, `f64` or `bool` takes whatever JavaScript passes:
//! a `&str` given a number makes the bindings copy a string of undefined length (the module
//! traps), an `f64` turns `"5"` into 5, `null` into 0 and a BigInt or a Symbol into an
//! engine's TypeError that names nothing. So the exports take `&JsValue` and check it here:
//! the wrong type is a `TypeError` naming the method and the argument, a number out of the
//! question a `RangeError`, and nothing is changed. Only `typeof` is asked of a value (no
//! `valueOf`, getter or `toString` of the caller's runs while Rust holds an object).

use js_sys::{JsString, RangeError, TypeError};
use wasm_bindgen::{JsCast, JsValue};

use crate::sim::ParamError;

/// `value` as a message names it: "a string", "undefined", "null", "a bigint", …
fn describe(value: &JsValue) -> String {
    if value.is_null() {
        return "null".into();
    }
    let kind = value.js_typeof().as_string().unwrap_or_default();
    match kind.as_str() {
        "undefined" => "undefined (is an argument missing?)".into(),
        "object" => "an object".into(),
        _ => format!("a {kind}"),
    }
}

/// The `TypeError` for an argument of the wrong type: "Flock.setCohesion: value must be a
/// number, got a string".
pub fn type_error(method: &str, name: &str, expected: &str, value: &JsValue) -> JsValue {
    let got = describe(value);
    TypeError::new(&format!("{method}: {name} must be {expected}, got {got}")).into()
}

/// A `RangeError` whose message starts with the method.
pub fn range_error(method: &str, message: &str) -> JsValue {
    RangeError::new(&format!("{method}: {message}")).into()
}

/// The `RangeError` for a value the parameter table refuses, its numbers written by JavaScript.
pub fn refused(method: &str, error: ParamError) -> JsValue {
    range_error(method, &error.message(js_number))
}

/// `value` as JavaScript writes it.
pub fn js_number(value: f64) -> String {
    js_sys::Number::from(value)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
}

/// A number (NaN and ±Infinity included: what they mean is the caller's to say).
pub fn number(method: &str, name: &str, value: &JsValue) -> Result<f64, JsValue> {
    value
        .as_f64()
        .ok_or_else(|| type_error(method, name, "a number", value))
}

/// A finite number: NaN and ±Infinity are a `RangeError`.
pub fn finite(method: &str, name: &'static str, value: &JsValue) -> Result<f64, JsValue> {
    let value = number(method, name, value)?;
    if value.is_finite() {
        Ok(value)
    } else {
        Err(refused(method, ParamError::NotFinite { name, value }))
    }
}

/// A number, or nothing for `undefined` and `null`.
pub fn optional_number(method: &str, name: &str, value: &JsValue) -> Result<Option<f64>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_f64()
        .map(Some)
        .ok_or_else(|| type_error(method, name, "a number or undefined", value))
}

/// `true` or `false`, or 1 or 0: one rule for every on/off value (issue 41), as the toggles of
/// the parameter table take either.
pub fn boolean(method: &str, name: &str, value: &JsValue) -> Result<bool, JsValue> {
    match (value.as_bool(), value.as_f64()) {
        (Some(on), _) => Ok(on),
        (_, Some(n)) if n == 0.0 || n == 1.0 => Ok(n == 1.0),
        (_, Some(n)) => Err(range_error(
            method,
            &format!("{name} must be true, false, 1 or 0, got {}", js_number(n)),
        )),
        _ => Err(type_error(method, name, "true, false, 1 or 0", value)),
    }
}

/// A string of at most `max` UTF-16 units (measured before it is copied into wasm memory:
/// a string of a billion characters is refused without a billion bytes allocated).
pub fn string(method: &str, name: &str, value: &JsValue, max: u32) -> Result<String, JsValue> {
    if !value.is_string() {
        return Err(type_error(method, name, "a string", value));
    }
    let text: &JsString = value.unchecked_ref();
    if text.length() > max {
        let length = text.length();
        return Err(range_error(
            method,
            &format!("{name} is {length} characters long; the longest accepted is {max}"),
        ));
    }
    Ok(String::from(text))
}

/// A `Float32Array` of at most `max` finite numbers, copied out (a `TypeError` for anything
/// else, a `RangeError` naming the first value that is not finite).
pub fn floats(method: &str, name: &str, value: &JsValue, max: u32) -> Result<Vec<f32>, JsValue> {
    let array: &js_sys::Float32Array = value
        .dyn_ref()
        .ok_or_else(|| type_error(method, name, "a Float32Array", value))?;
    if array.length() > max {
        let length = array.length();
        return Err(range_error(
            method,
            &format!("{name} holds {length} numbers; the most accepted is {max}"),
        ));
    }
    let values = array.to_vec();
    if let Some(at) = values.iter().position(|v| !v.is_finite()) {
        return Err(range_error(
            method,
            &format!(
                "{name}[{at}] is {}, not a finite number",
                js_number(values[at].into())
            ),
        ));
    }
    Ok(values)
}
