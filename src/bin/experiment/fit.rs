//! `experiment fit SPEC.json`: the model fitted to a recorded flock (issue 43, item 3) from
//! the command line, for fits larger than a page would run. The spec names the recording (a
//! text file in the recording format, or it gzipped; relative to the spec's folder) and how to
//! fit (docs/experiments.md); the result is JSON: the recording's measures in flight, the
//! fitted values with their distance and measures, and the same for the defaults.

use std::io::Read;
use std::path::Path;
use std::time::Instant;

use boids::sim::fit::{fit, summarize_recording, FitSpec, Summary};
use boids::sim::recording::Recording;
use boids::sim::Param;
use serde_json::{json, Map, Value};

/// The keys a fit's spec may hold.
const KEYS: [&str; 11] = [
    "recording",
    "params",
    "settings",
    "count",
    "seed",
    "settle",
    "measure",
    "every",
    "evaluations",
    "sampleEvery",
    "minSpeed",
];

fn number(spec: &Map<String, Value>, key: &str, default: f64) -> Result<f64, String> {
    match spec.get(key) {
        None => Ok(default),
        Some(value) => value
            .as_f64()
            .ok_or_else(|| format!("{key} must be a number, got {value}")),
    }
}

fn whole(spec: &Map<String, Value>, key: &str, default: usize) -> Result<usize, String> {
    let n = number(spec, key, default as f64)?;
    if n.fract() != 0.0 || n < 0.0 || n > u32::MAX as f64 {
        return Err(format!("{key} must be a whole number, got {n}"));
    }
    Ok(n as usize)
}

fn param(field: &str, name: &Value) -> Result<Param, String> {
    let text = name
        .as_str()
        .ok_or_else(|| format!("{field} must name a parameter, got {name}"))?;
    Param::from_name(text).ok_or_else(|| format!("{field}: unknown parameter \"{text}\""))
}

/// The recording at `path`: text, or gzip by its first bytes.
fn read_recording(path: &Path) -> Result<Recording, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut text = String::new();
    if bytes.starts_with(&[0x1f, 0x8b]) {
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut text)
            .map_err(|e| format!("{}: not gzip text: {e}", path.display()))?;
    } else {
        text =
            String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", path.display()))?;
    }
    Recording::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn summary(s: &Summary) -> Value {
    json!({
        "samples": s.samples,
        "polarization": s.polarization,
        "milling": s.milling,
        "nearest": s.nearest,
        "speed": s.speed,
        "speedSpread": s.speed_spread,
        "correlationShare": s.correlation_share,
        "polarizedShare": s.polarized_share,
    })
}

/// Reads `file` (a fit's spec), fits, and returns the result as pretty JSON.
pub fn run(file: &str, text: &str, quiet: bool) -> Result<String, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    let spec = value
        .as_object()
        .ok_or_else(|| format!("{file}: a fit's spec is a JSON object"))?;
    if let Some(key) = spec.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!(
            "{file}: unknown key \"{key}\" (known: {})",
            KEYS.join(", ")
        ));
    }
    let recording = spec
        .get("recording")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{file}: recording must name a file"))?;
    let path = Path::new(file)
        .parent()
        .unwrap_or(Path::new("."))
        .join(recording);
    let defaults = FitSpec::default();
    let params = match spec.get("params") {
        None => defaults.params.clone(),
        Some(Value::Array(names)) => names
            .iter()
            .map(|name| param("params", name))
            .collect::<Result<_, _>>()?,
        Some(other) => return Err(format!("params must be a list of names, got {other}")),
    };
    let settings = match spec.get("settings") {
        None => Vec::new(),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(name, value)| {
                let p = param("settings", &Value::String(name.clone()))?;
                let v = value
                    .as_f64()
                    .ok_or_else(|| format!("settings.{name} must be a number, got {value}"))?;
                Ok((p, v))
            })
            .collect::<Result<_, String>>()?,
        Some(other) => return Err(format!("settings must be an object, got {other}")),
    };
    let fit_spec = FitSpec {
        params,
        settings,
        count: whole(spec, "count", defaults.count)?,
        seed: whole(spec, "seed", defaults.seed as usize)? as u32,
        settle: number(spec, "settle", defaults.settle.into())? as f32,
        measure: number(spec, "measure", defaults.measure.into())? as f32,
        every: number(spec, "every", defaults.every.into())? as f32,
        evaluations: whole(spec, "evaluations", defaults.evaluations)?,
    };
    fit_spec.check().map_err(|e| format!("{file}: {e}"))?;
    let sample_every = number(spec, "sampleEvery", 1.0)? as f32;
    let min_speed = number(spec, "minSpeed", 3.0)? as f32;
    if !(sample_every > 0.0 && sample_every.is_finite() && min_speed.is_finite()) {
        return Err(format!(
            "{file}: sampleEvery must be > 0 s and minSpeed finite"
        ));
    }
    let recording = read_recording(&path)?;
    let target = summarize_recording(&recording, sample_every, min_speed);
    if target.samples == 0 {
        return Err(format!(
            "{}: no moment with the birds flying at {min_speed} or faster",
            path.display()
        ));
    }
    let started = Instant::now();
    let result = fit(&fit_spec, &target, |runs, best| {
        if !quiet && runs > 0 {
            let seconds = started.elapsed().as_secs_f64();
            eprintln!(
                "experiment fit: {runs}/{} runs, best distance {best:.3}, {seconds:.1} s",
                fit_spec.evaluations
            );
        }
        true
    });
    let named = |values: &[f64]| -> Value {
        let mut map = Map::new();
        for (p, v) in fit_spec.params.iter().zip(values) {
            map.insert(p.spec().name.to_string(), json!(v));
        }
        Value::Object(map)
    };
    let out = json!({
        "recording": recording_name(recording.ids.len(), &path),
        "target": summary(&target),
        "fitted": { "values": named(&result.values), "distance": result.distance, "measures": summary(&result.model) },
        "defaults": { "values": named(&result.start_values), "distance": result.start_distance, "measures": summary(&result.start) },
        "evaluations": result.evaluations,
        "seconds": started.elapsed().as_secs_f64(),
    });
    Ok(serde_json::to_string_pretty(&out).unwrap_or_default() + "\n")
}

fn recording_name(birds: usize, path: &Path) -> String {
    format!("{} ({birds} birds)", path.display())
}
