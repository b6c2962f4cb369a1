//! The one reader of an experiment's spec (issue 41), and rows packed as numbers.
//! Whatever holds a spec — a JavaScript object in the worker's module (`src/web/experiment.rs`),
//! JSON from a spec file or a CSV's `# spec` line natively (`json.rs`) — is asked through
//! `Source`; each field's type is checked here, with a message that names the field, and then
//! every rule of `Spec::validate`. An on/off parameter takes `true`/`false` as well as 1/0.

use super::{
    param_named, Axis, Direction, ErrorKind, Leg, Row, Slice, Spec, SpecError, MAX_COUNT,
    MAX_SEEDS, MAX_VALUES,
};
use crate::sim::params::{Kind, Param};

/// The fields of a spec, in order (every one but `settings`, `map` and `slice` required).
pub const FIELDS: [&str; 11] = [
    "settings",
    "param",
    "values",
    "map",
    "direction",
    "seeds",
    "count",
    "settle",
    "measure",
    "sampleEvery",
    "slice",
];

/// The fields as a message lists them: one literal for `FIELD_LIST` and the message.
macro_rules! field_list {
    () => {
        "settings, param, values, map, direction, seeds, count, settle, measure, sampleEvery, slice"
    };
}

/// The fields, as a message lists them (`FIELDS` joined: a test holds them equal).
pub const FIELD_LIST: &str = field_list!();

/// A row's twelve measures, by their JavaScript names, in the order of `Row::stats`.
pub const STATS: [&str; 12] = [
    "polarization",
    "milling",
    "groups",
    "largestGroup",
    "medianNearest",
    "meanNeighbours",
    "correlationShare",
    "anisotropy",
    "velocityCorrelation",
    "groupCorrelation",
    "outside",
    "collisions",
];

/// The fields of a spec's `map`.
pub const MAP_FIELDS: [&str; 2] = ["param", "values"];

/// Numbers a row packs into (`pack_rows`): leg (0 up, 1 down), seed, value, the map's value
/// (NaN without a map), samples, then each measure's mean and sd in the order of `STATS` (the
/// CSV's order, the leg first), then the state's place in `GroupState::ALL` (NaN for none).
pub const ROW_NUMBERS: usize = 30;

/// The longest name read (a parameter's, a direction's): the table's are a few letters long,
/// and a longer one is no name of it (nor copied whole).
const NAME_MAX: usize = 64;

/// What a value is, as the reader asks it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// Missing, or JavaScript's `undefined`.
    Undefined,
    Null,
    Boolean(bool),
    Number(f64),
    Text,
    Array,
    Object,
    /// Anything else (a function, a symbol, a bigint), as a message names it.
    Other(&'static str),
}

impl Value {
    /// As a message says what it got: "a string", "undefined", "an array", …
    fn describe(self) -> &'static str {
        match self {
            Value::Undefined => "undefined",
            Value::Null => "null",
            Value::Boolean(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::Text => "a string",
            Value::Array => "an array",
            Value::Object => "an object",
            Value::Other(what) => what,
        }
    }
}

/// A value the reader can read: a JavaScript value, a JSON value. Reading never fails here: a
/// source that cannot read something (a JavaScript getter that throws) gives `Undefined` and
/// keeps what went wrong for its caller, who then reports that rather than the reader's error.
pub trait Source: Sized {
    /// What it is.
    fn value(&self) -> Value;
    /// A string's text, when it is one of at most `max` characters.
    fn text(&self, max: usize) -> Option<String>;
    /// An object's `key` (`Undefined` when it has none).
    fn get(&self, key: &str) -> Self;
    /// An object's own keys, in order, each a string value.
    fn keys(&self) -> Vec<Self>;
    /// An array's length.
    fn length(&self) -> usize;
    /// An array's item `index`.
    fn item(&self, index: usize) -> Self;

    /// What an object's `key` is (one place that reads and lets go of it: the reader asks
    /// this of most fields).
    #[inline(never)]
    fn value_at(&self, key: &str) -> Value {
        self.get(key).value()
    }
}

/// A `Type` error: "`field` `what`" ("count must be a whole number").
fn type_error(field: &str, what: &str) -> SpecError {
    SpecError {
        field: field.to_string(),
        kind: ErrorKind::Type,
        message: format!("{field} {what}"),
    }
}

/// "`field` must be `expected`, got …" (unsaid for a number that is not the whole number
/// wanted: "got a number" would explain nothing).
fn wrong(field: &str, expected: &str, got: Value) -> SpecError {
    let got = match got {
        Value::Number(_) if expected.starts_with("a whole") => "",
        got => got.describe(),
    };
    let comma = if got.is_empty() { "" } else { ", got " };
    type_error(field, &format!("must be {expected}{comma}{got}"))
}

fn number(value: Value, field: &str) -> Result<f64, SpecError> {
    match value {
        Value::Number(x) => Ok(x),
        got => Err(wrong(field, "a number", got)),
    }
}

/// A value of `param` (a setting, a value swept): a number, or for an on/off parameter
/// `true` or `false` too (1 and 0); `None` for anything else.
fn value_of(value: Value, param: Param) -> Option<f64> {
    match value {
        Value::Number(x) => Some(x),
        Value::Boolean(on) if param.spec().kind == Kind::Toggle => Some(f64::from(u8::from(on))),
        _ => None,
    }
}

/// What a value of `param` must be, as a message says it.
fn value_kind(param: Param) -> &'static str {
    if param.spec().kind == Kind::Toggle {
        "true, false, 1 or 0"
    } else {
        "a number"
    }
}

/// A whole number ≥ 0; with `clamp`, NaN, ±Infinity and numbers out of `0..=above` go
/// through as 0 or `above`, which `validate` refuses as out of range.
fn whole(value: Value, field: &str, above: usize, clamp: bool) -> Result<usize, SpecError> {
    let x = number(value, field)?;
    let refused = if x.is_finite() {
        x.fract() != 0.0 || (x < 0.0 && !clamp)
    } else {
        !clamp
    };
    if refused {
        let range = if clamp { "" } else { " ≥ 0" };
        return Err(wrong(
            field,
            &format!("a whole number{range}"),
            Value::Number(x),
        ));
    }
    Ok(if x.is_nan() {
        0
    } else {
        x.max(0.0).min(above as f64) as usize
    })
}

/// The items of the array `value`, each read by `item` (`None`: not `expected`), at most
/// `max` + 1 of them (one more than the rules take, so that `validate` says "at most": a
/// length of a billion is not read).
fn list<S: Source, T>(
    value: &S,
    field: &str,
    max: usize,
    expected: &str,
    item: impl Fn(Value) -> Option<T>,
) -> Result<Vec<T>, SpecError> {
    if value.value() != Value::Array {
        return Err(wrong(field, "an array", value.value()));
    }
    let mut items = Vec::new();
    for i in 0..value.length().min(max + 1) {
        let got = value.item(i).value();
        match item(got) {
            Some(x) => items.push(x),
            None => return Err(wrong(&format!("{field}[{i}]"), expected, got)),
        }
    }
    Ok(items)
}

/// A name (a parameter's, a direction's), or `None` for a string too long to be one.
fn name<S: Source>(value: &S, field: &str) -> Result<Option<String>, SpecError> {
    match value.value() {
        Value::Text => Ok(value.text(NAME_MAX)),
        got => Err(wrong(field, "a string", got)),
    }
}

/// The spec `spec` holds, read and checked: a `Type` error for a field of the wrong type
/// (or of no spec's name), then `Spec::validate`'s rules.
pub fn read<S: Source>(spec: &S) -> Result<Spec, SpecError> {
    if spec.value() != Value::Object {
        return Err(wrong("spec", "an object", spec.value()));
    }
    for key in spec.keys() {
        let key = key.text(NAME_MAX).unwrap_or_else(|| "…".into());
        if !FIELDS.contains(&key.as_str()) {
            let what = concat!("is not a field of a spec (", field_list!(), ")");
            return Err(type_error(&format!("spec.{key}"), what));
        }
    }
    let mut settings = Vec::new();
    let given = spec.get("settings");
    match given.value() {
        Value::Undefined | Value::Null => {}
        Value::Object => {
            for key in given.keys() {
                let name = key.text(NAME_MAX).unwrap_or_else(|| "…".into());
                let field = format!("settings.{name}");
                let param = param_named(&field, &name)?;
                let got = given.value_at(&name);
                let Some(value) = value_of(got, param) else {
                    return Err(wrong(&field, value_kind(param), got));
                };
                settings.push((param, value));
            }
        }
        got => return Err(wrong("settings", "an object", got)),
    }
    let (param, values) = axis(spec, "")?;
    let map = spec.get("map");
    let map = match map.value() {
        Value::Undefined | Value::Null => None,
        Value::Object => {
            for key in map.keys() {
                let key = key.text(NAME_MAX).unwrap_or_else(|| "…".into());
                if !MAP_FIELDS.contains(&key.as_str()) {
                    let what = "is not a field of a map (param, values)";
                    return Err(type_error(&format!("map.{key}"), what));
                }
            }
            let (param, values) = axis(&map, "map.")?;
            Some(Axis { param, values })
        }
        got => return Err(wrong("map", "an object or undefined", got)),
    };
    let direction = name(&spec.get("direction"), "direction")?;
    let Some(direction) = direction.as_deref().and_then(Direction::from_name) else {
        return Err(type_error("direction", "must be \"up\" or \"up-down\""));
    };
    let seeds = list(&spec.get("seeds"), "seeds", MAX_SEEDS, SEED, seed_of)?;
    let count = whole(spec.value_at("count"), "count", MAX_COUNT + 1, true)?;
    let settle = number(spec.value_at("settle"), "settle")?;
    let measure = number(spec.value_at("measure"), "measure")?;
    let sample_every = number(spec.value_at("sampleEvery"), "sampleEvery")?;
    let slice = spec.get("slice");
    let slice = match slice.value() {
        Value::Undefined | Value::Null => None,
        Value::Object => Some(Slice {
            index: whole(slice.value_at("index"), "slice.index", usize::MAX, false)?,
            of: whole(slice.value_at("of"), "slice.of", usize::MAX, false)?,
        }),
        got => return Err(wrong("slice", "an object or undefined", got)),
    };
    let spec = Spec {
        settings,
        param,
        values,
        map,
        direction,
        seeds,
        count,
        settle,
        measure,
        sample_every,
        slice,
    };
    spec.validate()?;
    Ok(spec)
}

/// A parameter and its values: the spec's `param` and `values`, or its map's (`prefix`
/// "map.").
fn axis<S: Source>(holder: &S, prefix: &str) -> Result<(Param, Vec<f64>), SpecError> {
    let field = format!("{prefix}param");
    let param = name(&holder.get("param"), &field)?.unwrap_or_default();
    let param = param_named(&field, &param)?;
    let kind = value_kind(param);
    let field = format!("{prefix}values");
    let values = list(&holder.get("values"), &field, MAX_VALUES, kind, |v| {
        value_of(v, param)
    })?;
    Ok((param, values))
}

/// What a seed must be.
const SEED: &str = "a whole number from 0 to 4294967295";

/// A seed: a whole number from 0 to 2³² − 1.
fn seed_of(value: Value) -> Option<u32> {
    match value {
        Value::Number(x) if x.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&x) => {
            Some(x as u32)
        }
        _ => None,
    }
}

/// `rows` packed as numbers, `ROW_NUMBERS` a row (the worker's module hands JavaScript its
/// rows so, and JavaScript hands them back so for the CSV: `csv::write_packed`).
pub fn pack_rows(rows: &[Row]) -> Vec<f64> {
    let mut numbers = Vec::with_capacity(rows.len() * ROW_NUMBERS);
    for row in rows {
        let leg = f64::from(u8::from(row.leg == Leg::Down));
        let (seed, samples) = (f64::from(row.seed), row.samples as f64);
        numbers.extend([leg, seed, row.value, row.map_value, samples]);
        for stat in row.stats() {
            numbers.extend([stat.mean, stat.sd]);
        }
        numbers.push(row.state.map_or(f64::NAN, |s| s.index() as f64));
    }
    numbers
}
