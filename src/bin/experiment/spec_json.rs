//! The JS spec as JSON (`{ settings, param, values, direction, seeds, count, settle,
//! measure, sampleEvery, slice? }`) to a `Spec` and back. Shapes are checked here (a
//! `Type` error naming the field); every other rule is `Spec::validate`'s.

use boids::sim::experiment::{param_named, Direction, ErrorKind, Slice, Spec, SpecError};
use serde_json::{Map, Value};

use crate::jsnum::js_number;

/// The keys of a spec, in the JS spec's order.
const KEYS: [&str; 10] = [
    "settings",
    "param",
    "values",
    "direction",
    "seeds",
    "count",
    "settle",
    "measure",
    "sampleEvery",
    "slice",
];

fn type_error(field: &str, what: &str) -> SpecError {
    SpecError {
        field: field.to_string(),
        kind: ErrorKind::Type,
        message: format!("{field}: {what}"),
    }
}

fn number(value: &Value, field: &str) -> Result<f64, SpecError> {
    value
        .as_f64()
        .ok_or_else(|| type_error(field, "must be a number"))
}

/// A whole number of at most `max`.
fn whole(value: &Value, field: &str, max: u64) -> Result<u64, SpecError> {
    let x = number(value, field)?;
    if x.fract() != 0.0 || x < 0.0 || x > max as f64 {
        return Err(type_error(
            field,
            &format!("must be a whole number from 0 to {max}"),
        ));
    }
    Ok(x as u64)
}

fn array<'a>(value: &'a Value, field: &str) -> Result<&'a Vec<Value>, SpecError> {
    value
        .as_array()
        .ok_or_else(|| type_error(field, "must be an array"))
}

/// A spec from its JSON text; `settings` may be left out (none).
pub fn parse(text: &str) -> Result<Spec, SpecError> {
    let json: Value =
        serde_json::from_str(text).map_err(|e| type_error("spec", &format!("not JSON: {e}")))?;
    let object = json
        .as_object()
        .ok_or_else(|| type_error("spec", "must be an object"))?;
    from_object(object)
}

fn from_object(object: &Map<String, Value>) -> Result<Spec, SpecError> {
    if let Some(key) = object.keys().find(|key| !KEYS.contains(&key.as_str())) {
        return Err(type_error(key, "unknown field of a spec"));
    }
    let get = |key: &str| object.get(key).ok_or_else(|| type_error(key, "is missing"));
    let mut settings = Vec::new();
    if let Some(value) = object.get("settings") {
        let map = value
            .as_object()
            .ok_or_else(|| type_error("settings", "must be an object"))?;
        for (name, value) in map {
            let field = format!("settings.{name}");
            let param = param_named(&field, name)?;
            settings.push((param, number(value, &field)?));
        }
    }
    let param_name = get("param")?
        .as_str()
        .ok_or_else(|| type_error("param", "must be a parameter's name"))?;
    let param = param_named("param", param_name)?;
    let values = array(get("values")?, "values")?
        .iter()
        .enumerate()
        .map(|(i, value)| number(value, &format!("values[{i}]")))
        .collect::<Result<_, _>>()?;
    let direction = get("direction")?
        .as_str()
        .and_then(Direction::from_name)
        .ok_or_else(|| type_error("direction", "must be \"up\" or \"up-down\""))?;
    let seeds = array(get("seeds")?, "seeds")?
        .iter()
        .enumerate()
        .map(|(i, seed)| whole(seed, &format!("seeds[{i}]"), u32::MAX.into()).map(|s| s as u32))
        .collect::<Result<_, _>>()?;
    let count = whole(get("count")?, "count", u32::MAX.into())? as usize;
    let slice = match object.get("slice") {
        None | Some(Value::Null) => None,
        Some(value) => {
            let field = |key: &str| {
                value
                    .get(key)
                    .ok_or_else(|| type_error(&format!("slice.{key}"), "is missing"))
                    .and_then(|v| whole(v, &format!("slice.{key}"), u32::MAX.into()))
            };
            Some(Slice {
                index: field("index")? as usize,
                of: field("of")? as usize,
            })
        }
    };
    Ok(Spec {
        settings,
        param,
        values,
        direction,
        seeds,
        count,
        settle: number(get("settle")?, "settle")?,
        measure: number(get("measure")?, "measure")?,
        sample_every: number(get("sampleEvery")?, "sampleEvery")?,
        slice,
    })
}

/// The spec as compact JSON in the JS spec's key order, without its slice, numbers as
/// JavaScript writes them: what `JSON.stringify` makes of the same spec.
pub fn write(spec: &Spec) -> String {
    let list = |numbers: &mut dyn Iterator<Item = String>| numbers.collect::<Vec<_>>().join(",");
    let settings = list(
        &mut spec
            .settings
            .iter()
            .map(|&(param, value)| format!("\"{}\":{}", param.spec().name, js_number(value))),
    );
    let values = list(&mut spec.values.iter().map(|&v| js_number(v)));
    let seeds = list(&mut spec.seeds.iter().map(|s| s.to_string()));
    format!(
        "{{\"settings\":{{{settings}}},\"param\":\"{}\",\"values\":[{values}],\"direction\":\"{}\",\
         \"seeds\":[{seeds}],\"count\":{},\"settle\":{},\"measure\":{},\"sampleEvery\":{}}}",
        spec.param.spec().name,
        spec.direction.name(),
        spec.count,
        js_number(spec.settle),
        js_number(spec.measure),
        js_number(spec.sample_every),
    )
}
