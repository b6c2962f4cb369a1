//! The experiment's CSV, one writer for the browser and the command line (issue 41): comment
//! lines (`# boids`, `# experiment`, `# spec`, `# slice`, `# link`), a header, one row per
//! point; numbers as JavaScript's `Number#toString` writes them, NaN as an empty field. The
//! writer is handed that number writer: the engine's own in the worker's module (which has no
//! float printing), `js_number` natively. Natively the CSV is read back too (`parse`, for
//! `experiment merge`).

use super::{pack_rows, Leg, Row, Spec, ROW_NUMBERS};
use crate::sim::measures::nature::GroupState;

pub const HEADER: &str = "param,direction,seed,value,samples,polarization,polarization_sd,\
milling,milling_sd,groups,groups_sd,largest_group,largest_group_sd,median_nearest,\
median_nearest_sd,mean_neighbours,mean_neighbours_sd,correlation_share,correlation_share_sd,\
anisotropy,anisotropy_sd,velocity_correlation,velocity_correlation_sd,group_correlation,\
group_correlation_sd,outside,outside_sd,collisions,collisions_sd,state";

/// A map's header (issue 44): its second parameter and value after the first's.
pub const MAP_HEADER_START: &str = "param,direction,seed,value,map_param,map_value,";

/// The header of `spec`'s CSV: `HEADER`, or for a map `MAP_HEADER_START` and the rest.
pub fn header(spec: &Spec) -> String {
    match spec.map {
        None => HEADER.to_owned(),
        Some(_) => MAP_HEADER_START.to_owned() + &HEADER["param,direction,seed,value,".len()..],
    }
}

/// Writes a finite number as JavaScript's `Number#toString` does.
pub type WriteNumber = fn(f64) -> String;

/// `numbers` written by `number`, separated by commas (the spec's lists, a CSV row's numbers).
fn list(numbers: &[f64], number: WriteNumber) -> String {
    let mut out = String::new();
    for (i, &x) in numbers.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        // NaN (a measure with no sample) is an empty field; a spec holds none.
        if !x.is_nan() {
            out += &number(x);
        }
    }
    out
}

/// The spec as compact JSON, in the spec's key order, numbers as `number` writes them: what
/// `JSON.stringify` makes of the spec read. With `slice`, its slice too (a link's spec); the
/// CSV's `# spec` line has none (slices of one experiment share it).
pub fn spec_json(spec: &Spec, slice: bool, number: WriteNumber) -> String {
    let mut settings = String::new();
    for (i, &(param, value)) in spec.settings.iter().enumerate() {
        let comma = if i > 0 { "," } else { "" };
        settings += &format!("{comma}\"{}\":{}", param.spec().name, number(value));
    }
    let seeds: Vec<f64> = spec.seeds.iter().map(|&seed| f64::from(seed)).collect();
    let slice = match (slice, spec.slice) {
        (true, Some(s)) => format!(",\"slice\":{{\"index\":{},\"of\":{}}}", s.index, s.of),
        _ => String::new(),
    };
    let map = spec.map.as_ref().map_or(String::new(), |map| {
        let (name, values) = (map.param.spec().name, list(&map.values, number));
        format!(",\"map\":{{\"param\":\"{name}\",\"values\":[{values}]}}")
    });
    format!(
        "{{\"settings\":{{{settings}}},\"param\":\"{}\",\"values\":[{}]{map},\"direction\":\"{}\",\
         \"seeds\":[{}],\"count\":{},\"settle\":{},\"measure\":{},\"sampleEvery\":{}{slice}}}",
        spec.param.spec().name,
        list(&spec.values, number),
        spec.direction.name(),
        list(&seeds, number),
        spec.count,
        number(spec.settle),
        number(spec.measure),
        number(spec.sample_every),
    )
}

/// The whole CSV of `rows` of `spec`, made by `version`: its slice, if any, on a `# slice`
/// line (1-based), and `link` (the page's link to the experiment), if any, on a `# link` one.
pub fn write(
    version: &str,
    spec: &Spec,
    rows: &[Row],
    link: Option<&str>,
    number: WriteNumber,
) -> String {
    write_packed(version, spec, &pack_rows(rows), link, number)
}

/// `write`, of rows packed as numbers (`pack_rows`: `ROW_NUMBERS` a row), as the browser hands them over
/// (`www/experiment/runner.js` checks each row as it packs it; a part of a row at the end is
/// left out). The one writer: `write` packs its rows and comes here. `version` and `link` are
/// written as they are: a line break in them is their caller's to refuse.
pub fn write_packed(
    version: &str,
    spec: &Spec,
    rows: &[f64],
    link: Option<&str>,
    number: WriteNumber,
) -> String {
    let slice = spec.slice.map_or(String::new(), |s| {
        format!("# slice {}/{}\n", s.index + 1, s.of)
    });
    let link = link.filter(|link| !link.is_empty());
    let link = link.map_or(String::new(), |link| format!("# link {link}\n"));
    let mut out = format!(
        "# boids {version}\n# experiment {}\n# spec {}\n{slice}{link}{}\n",
        spec.print(),
        spec_json(spec, false, number),
        header(spec)
    );
    let param = spec.param.spec().name;
    // A map's rows name its second parameter and value after the first's.
    let map = spec.map.as_ref().map(|map| map.param.spec().name);
    for row in rows.as_chunks::<ROW_NUMBERS>().0 {
        // The leg first (1 down, else up), then seed, value, (the map's,) samples and each
        // measure's mean and sd: the CSV's order; the state last, as its word (empty for none).
        let leg = if row[0] == 1.0 { Leg::Down } else { Leg::Up };
        let last = ROW_NUMBERS - 1;
        let state = GroupState::ALL
            .iter()
            .find(|s| s.index() as f64 == row[last])
            .map_or("", |s| s.name());
        let at = match map {
            None => String::new(),
            Some(name) => format!(",{name},{}", list(&row[3..4], number)),
        };
        out += &format!(
            "{param},{},{}{at},{},{state}\n",
            leg.name(),
            list(&row[1..3], number),
            list(&row[4..last], number)
        );
    }
    out
}

#[cfg(not(target_arch = "wasm32"))]
pub use native::{parse, parse_slice, Parsed};

/// Reading a CSV back (the command line's `merge`): float parsing and JSON, native only.
#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::super::{read_json, Leg, Row, Slice, Spec, Stat};
    use super::{header, HEADER};
    use crate::sim::measures::nature::GroupState;

    /// A CSV read back: its version, print, spec (with the slice it holds) and rows (their
    /// `value_index` unknown: 0).
    pub struct Parsed {
        pub version: String,
        pub print: u64,
        pub spec: Spec,
        pub rows: Vec<Row>,
    }

    /// Reads a CSV written by `write` (here or in a browser); errors say which line.
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
                "spec" => spec = Some(read_json(rest).map_err(|e| at(&e.message))?),
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
            Some((_, line)) if line == header(&spec) => {}
            // The header before the drone swarms' measures: every column but theirs.
            Some((i, header))
                if header.strip_suffix(",state").is_some_and(|old| {
                    HEADER.starts_with(old) && HEADER[old.len()..].starts_with(",velocity")
                }) =>
            {
                return Err(format!(
                    "line {}: a CSV of an older version, without the drone swarms' measures: run that experiment again",
                    i + 1
                ))
            }
            Some((i, _)) => return Err(format!("line {}: not the experiment's header", i + 1)),
            None => return Err("no header".into()),
        }
        let param = spec.param.spec().name;
        let map = spec.map.as_ref().map(|map| map.param.spec().name);
        let mut rows = Vec::new();
        for (i, line) in lines.filter(|(_, line)| !line.is_empty()) {
            let row =
                parse_row(line, param, map).ok_or_else(|| format!("line {}: a bad row", i + 1))?;
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

    /// A row of a curve (`map` None) or of a map (its second parameter's name).
    fn parse_row(line: &str, param: &str, map: Option<&str>) -> Option<Row> {
        let mut fields: Vec<&str> = line.split(',').collect();
        // A map's row: its second parameter and value taken out, the rest is a curve's.
        let map_value = match map {
            None => f64::NAN,
            Some(name) => {
                if fields.len() != 32 || fields[4] != name {
                    return None;
                }
                let value = fields[5].parse().ok()?;
                fields.drain(4..6);
                value
            }
        };
        if fields.len() != 30 || fields[0] != param {
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
            map_value,
            value_index: 0,
            samples: fields[4].parse().ok()?,
            polarization: stat(5)?,
            milling: stat(7)?,
            groups: stat(9)?,
            largest_group: stat(11)?,
            median_nearest: stat(13)?,
            mean_neighbours: stat(15)?,
            correlation_share: stat(17)?,
            anisotropy: stat(19)?,
            velocity_correlation: stat(21)?,
            group_correlation: stat(23)?,
            outside: stat(25)?,
            collisions: stat(27)?,
            state: match fields[29] {
                "" => None,
                word => Some(GroupState::from_name(word)?),
            },
        })
    }
}
