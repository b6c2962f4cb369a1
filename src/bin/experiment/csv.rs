//! The experiment's CSV, the same text as the browser's: comment lines (`# boids`,
//! `# experiment`, `# spec`, `# slice`, `# link`), a header, one row per point; numbers as
//! JavaScript writes them, NaN as an empty field.

use boids::sim::experiment::{Leg, Row, Slice, Spec, Stat};

use crate::jsnum::js_number;
use crate::spec_json;

pub const HEADER: &str = "param,direction,seed,value,samples,polarization,polarization_sd,\
milling,milling_sd,groups,groups_sd,largest_group,largest_group_sd,median_nearest,\
median_nearest_sd,mean_neighbours,mean_neighbours_sd";

/// A number of the CSV: NaN is an empty field.
fn field(value: f64) -> String {
    if value.is_nan() {
        String::new()
    } else {
        js_number(value)
    }
}

/// The whole CSV of `rows` of `spec` (its slice, if any, on a `# slice` line, 1-based).
pub fn write(version: &str, spec: &Spec, rows: &[Row]) -> String {
    let mut out = format!(
        "# boids {version}\n# experiment {:016x}\n# spec {}\n",
        spec.fingerprint(),
        spec_json::write(spec)
    );
    if let Some(slice) = spec.slice {
        out += &format!("# slice {}/{}\n", slice.index + 1, slice.of);
    }
    out += HEADER;
    out.push('\n');
    let param = spec.param.spec().name;
    for row in rows {
        let mut line = format!(
            "{param},{},{},{},{}",
            row.leg.name(),
            row.seed,
            field(row.value),
            row.samples
        );
        for stat in row.stats() {
            line += &format!(",{},{}", field(stat.mean), field(stat.sd));
        }
        out += &line;
        out.push('\n');
    }
    out
}

/// A CSV read back: its version, print, spec (with the slice it holds) and rows (their
/// `value_index` unknown: 0).
pub struct Parsed {
    pub version: String,
    pub print: u64,
    pub spec: Spec,
    pub rows: Vec<Row>,
}

/// Reads a CSV written by `write` (or by the browser); errors say which line.
pub fn parse(text: &str) -> Result<Parsed, String> {
    let (mut version, mut print, mut spec, mut slice) = (None, None, None, None);
    let mut lines = text.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next_if(|(_, line)| line.starts_with('#')) {
        let at = |what: &str| format!("line {}: {what}", i + 1);
        let line = line.trim_start_matches('#').trim();
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "boids" => version = Some(rest.to_string()),
            "experiment" => {
                print = Some(u64::from_str_radix(rest, 16).map_err(|_| at("a bad print"))?)
            }
            "spec" => spec = Some(spec_json::parse(rest).map_err(|e| at(&e.message))?),
            "slice" => {
                let (k, n) = parse_slice(rest).ok_or_else(|| at("a bad slice"))?;
                slice = Some(Slice { index: k, of: n });
            }
            _ => {}
        }
    }
    let missing = |what: &str| format!("no `# {what}` line");
    let (version, print) = (
        version.ok_or(missing("boids"))?,
        print.ok_or(missing("experiment"))?,
    );
    let mut spec = spec.ok_or(missing("spec"))?;
    spec.slice = slice;
    match lines.next() {
        Some((_, header)) if header == HEADER => {}
        Some((i, _)) => return Err(format!("line {}: not the experiment's header", i + 1)),
        None => return Err("no header".into()),
    }
    let param = spec.param.spec().name;
    let mut rows = Vec::new();
    for (i, line) in lines.filter(|(_, line)| !line.is_empty()) {
        let row = parse_row(line, param).ok_or_else(|| format!("line {}: a bad row", i + 1))?;
        rows.push(row);
    }
    Ok(Parsed {
        version,
        print,
        spec,
        rows,
    })
}

/// "K/N" (K 1-based) as a 0-based index and a count.
pub fn parse_slice(text: &str) -> Option<(usize, usize)> {
    let (k, n) = text.split_once('/')?;
    let (k, n): (usize, usize) = (k.trim().parse().ok()?, n.trim().parse().ok()?);
    (1..=n).contains(&k).then_some((k - 1, n))
}

fn parse_row(line: &str, param: &str) -> Option<Row> {
    let fields: Vec<&str> = line.split(',').collect();
    if fields.len() != 17 || fields[0] != param {
        return None;
    }
    let number = |text: &str| -> Option<f64> {
        if text.is_empty() {
            Some(f64::NAN)
        } else {
            text.parse().ok()
        }
    };
    let stat = |i: usize| -> Option<Stat> {
        Some(Stat {
            mean: number(fields[i])?,
            sd: number(fields[i + 1])?,
        })
    };
    Some(Row {
        leg: Leg::from_name(fields[1])?,
        seed: fields[2].parse().ok()?,
        value: fields[3].parse().ok()?,
        value_index: 0,
        samples: fields[4].parse().ok()?,
        polarization: stat(5)?,
        milling: stat(7)?,
        groups: stat(9)?,
        largest_group: stat(11)?,
        median_nearest: stat(13)?,
        mean_neighbours: stat(15)?,
    })
}
