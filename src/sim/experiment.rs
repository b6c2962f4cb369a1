//! Experiments (issue 26): one parameter swept over values, for several seeds, each point
//! settled and then measured over a window of flock time; or, with a `map` (issue 44), two
//! parameters over a grid of values, each cell a point. The same spec gives the same rows,
//! bit for bit: no clock, no global random numbers, every flock stepped at `DT`.
//!
//! This module is the experiment's one contract (issue 41): the spec read and checked
//! (`read.rs`, whatever holds it: a JavaScript object or JSON), its print
//! (`Spec::fingerprint`), the CSV (`csv.rs`) and the limits, for the browser's worker module
//! (`src/web/experiment.rs`, which the page's `www/experiment/` reaches for all of these) and
//! the native runner (`src/bin/experiment.rs`) alike. It knows nothing of the web and prints
//! no floats (the wasm module has no float printing): messages name the field and the limit,
//! numbers of the table written by `plain`, and the CSV's numbers by the writer it is given
//! (`Number#toString` in the worker's module, `js_number` natively).

mod csv;
#[cfg(not(target_arch = "wasm32"))]
mod jsnum;
#[cfg(not(target_arch = "wasm32"))]
mod json;
mod read;
mod runner;

#[cfg(not(target_arch = "wasm32"))]
pub use csv::{parse as parse_csv, parse_slice, Parsed};
pub use csv::{
    spec_json, write as write_csv, write_packed as write_packed_csv, WriteNumber, HEADER,
};
#[cfg(not(target_arch = "wasm32"))]
pub use jsnum::js_number;
#[cfg(not(target_arch = "wasm32"))]
pub use json::read_json;
pub use read::{
    pack_rows, read, Source, Value, FIELDS, FIELD_LIST, MAP_FIELDS, ROW_NUMBERS, STATS,
};
pub use runner::{run, Row, Runner, Stat, CANON_MAX_COUNT};

use crate::sim::params::{Kind, Param};

// The limits as literals too, for messages without formatting (`concat!`).
macro_rules! max_values {
    () => {
        201
    };
}
macro_rules! max_seeds {
    () => {
        64
    };
}
macro_rules! max_cells {
    () => {
        1024
    };
}

/// Every experiment steps its flocks at this.
pub const DT: f32 = 1.0 / 60.0;
/// Steps in a second of flock time (1 / `DT`): a step is the shortest `sampleEvery`.
pub const STEPS_PER_SECOND: f64 = 60.0;
/// The most boids an experiment flies.
pub const MAX_COUNT: usize = 20_000;
pub const MAX_VALUES: usize = max_values!();
pub const MAX_SEEDS: usize = max_seeds!();
/// The most cells of a map (values × map values): 32 × 32, a thousand points a seed.
pub const MAX_CELLS: usize = max_cells!();
/// The longest point, settle + measure, in seconds.
pub const MAX_POINT_SECONDS: f64 = 600.0;

/// The fewest boids an experiment flies: the parameter table's least count.
pub fn min_count() -> usize {
    Param::Count.spec().min as usize
}

/// "up": each point from a fresh flock; "up-down": one flock per seed carried through the
/// values and back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Up,
    UpDown,
}

impl Direction {
    /// The JS spec's name: "up" or "up-down".
    pub fn name(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::UpDown => "up-down",
        }
    }

    pub fn from_name(name: &str) -> Option<Direction> {
        match name {
            "up" => Some(Direction::Up),
            "up-down" => Some(Direction::UpDown),
            _ => None,
        }
    }
}

/// The way a row was run: "up" or "down".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leg {
    Up,
    Down,
}

impl Leg {
    pub fn name(self) -> &'static str {
        match self {
            Leg::Up => "up",
            Leg::Down => "down",
        }
    }

    pub fn from_name(name: &str) -> Option<Leg> {
        match name {
            "up" => Some(Leg::Up),
            "down" => Some(Leg::Down),
            _ => None,
        }
    }
}

/// A class split: slice `index` (0-based) of `of` holds units index, index + of, …
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    pub index: usize,
    pub of: usize,
}

/// A map's second parameter and its values (the map's rows; `Spec::values` its columns).
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    pub param: Param,
    pub values: Vec<f64>,
}

/// An experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// Base settings, applied in the order given, before `map` and `param`.
    pub settings: Vec<(Param, f64)>,
    pub param: Param,
    pub values: Vec<f64>,
    /// A two-parameter map: every value of `param` with every one of `map.param`, each
    /// cell a fresh flock (so "up" only).
    pub map: Option<Axis>,
    pub direction: Direction,
    pub seeds: Vec<u32>,
    pub count: usize,
    /// Seconds of flock time before each point's measuring window.
    pub settle: f64,
    /// Seconds of the measuring window.
    pub measure: f64,
    /// Seconds between samples in the window.
    pub sample_every: f64,
    /// Run only this slice's units.
    pub slice: Option<Slice>,
}

/// A unit of work: "up": one (seed, value) point; "up-down": one seed's whole chain. A
/// map's point is a cell: its `value_index` is `row × values + column` (`Spec::at`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub seed_index: usize,
    pub value_index: Option<usize>,
}

/// `Type`: a wrong kind of thing (unknown name, seed where it may not be); `Range`: a number
/// or a length out of bounds. The JS binding throws a `TypeError` or a `RangeError`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Type,
    Range,
}

/// A refused spec: the field in the JS spec's names ("values[3]", "settings.cohesion",
/// "seeds", "slice.of"), and a message that starts with it.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecError {
    pub field: String,
    pub kind: ErrorKind,
    pub message: String,
}

impl SpecError {
    fn new(field: &str, kind: ErrorKind, what: &str) -> SpecError {
        SpecError {
            field: field.to_string(),
            kind,
            message: format!("{field}: {what}"),
        }
    }

    fn range(field: &str, what: &str) -> SpecError {
        SpecError::new(field, ErrorKind::Range, what)
    }
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SpecError {}

/// The parameter a spec names at `field` ("param", or "settings.<name>" for a setting):
/// unknown names are a `Type` error.
pub fn param_named(field: &str, name: &str) -> Result<Param, SpecError> {
    Param::from_name(name)
        .ok_or_else(|| SpecError::new(field, ErrorKind::Type, "unknown parameter"))
}

/// A number of the parameter table (a range's end) without float printing: whole
/// thousandths are all the table holds.
fn plain(value: f64) -> String {
    let thousandths = (value.abs() * 1000.0).round() as u64;
    let sign = if value < 0.0 { "-" } else { "" };
    let (whole, mut part) = (thousandths / 1000, thousandths % 1000);
    if part == 0 {
        return format!("{sign}{whole}");
    }
    let mut digits = 3;
    while part % 10 == 0 {
        part /= 10;
        digits -= 1;
    }
    format!("{sign}{whole}.{part:0digits$}")
}

/// An on/off parameter takes 1 or 0 (the reader turns `true`/`false` into them): one rule for
/// every on/off value, as the setters have it (docs/api.md). Other parameters pass.
fn on_off(field: &str, param: Param, value: f64) -> Result<(), SpecError> {
    if param.spec().kind == Kind::Toggle && value != 0.0 && value != 1.0 {
        return Err(SpecError::range(field, "must be true, false, 1 or 0"));
    }
    Ok(())
}

/// `values` of `param` (at `field`): one to `MAX_VALUES`, finite, in the table's range, on/off
/// ones 1 or 0.
fn values_in_range(field: &str, param: Param, values: &[f64]) -> Result<(), SpecError> {
    let spec = param.spec();
    if values.is_empty() {
        return Err(SpecError::range(field, "at least one value is needed"));
    }
    if values.len() > MAX_VALUES {
        let what = concat!("at most ", max_values!(), " values");
        return Err(SpecError::range(field, what));
    }
    for (i, &value) in values.iter().enumerate() {
        let field = format!("{field}[{i}]");
        if !value.is_finite() {
            return Err(SpecError::range(&field, "not a finite number"));
        }
        if value < spec.min || value > spec.max {
            let range = format!("{} to {}", plain(spec.min), plain(spec.max));
            let what = format!("outside the range of {}, {range}", spec.name);
            return Err(SpecError::range(&field, &what));
        }
        on_off(&field, param, value)?;
    }
    Ok(())
}

/// Seconds of flock time as whole steps at `DT`.
fn steps(seconds: f64) -> u64 {
    (seconds * STEPS_PER_SECOND).round() as u64
}

impl Spec {
    /// Every rule of a spec; the first that fails is reported.
    pub fn validate(&self) -> Result<(), SpecError> {
        let seed_field = |field: &str, param: Param| match param {
            Param::Seed => Err(SpecError::new(
                field,
                ErrorKind::Type,
                "seed comes from seeds",
            )),
            _ => Ok(()),
        };
        for &(param, value) in &self.settings {
            let field = format!("settings.{}", param.spec().name);
            seed_field(&field, param)?;
            if !value.is_finite() {
                return Err(SpecError::range(&field, "not a finite number"));
            }
            on_off(&field, param, value)?;
        }
        seed_field("param", self.param)?;
        values_in_range("values", self.param, &self.values)?;
        if let Some(map) = &self.map {
            seed_field("map.param", map.param)?;
            if map.param == self.param {
                let what = "must be another parameter than param";
                return Err(SpecError::range("map.param", what));
            }
            values_in_range("map.values", map.param, &map.values)?;
            if self.values.len() * map.values.len() > MAX_CELLS {
                let what = concat!("at most ", max_cells!(), " cells (values × map.values)");
                return Err(SpecError::range("map.values", what));
            }
            if self.direction != Direction::Up {
                let what = "a map runs \"up\" only: each cell from a fresh flock";
                return Err(SpecError::range("direction", what));
            }
        }
        if self.seeds.is_empty() {
            return Err(SpecError::range("seeds", "at least one seed is needed"));
        }
        if self.seeds.len() > MAX_SEEDS {
            let what = concat!("at most ", max_seeds!(), " seeds");
            return Err(SpecError::range("seeds", what));
        }
        let fewest = min_count();
        if self.count < fewest || self.count > MAX_COUNT {
            let what = format!("must be {fewest} to {MAX_COUNT} boids");
            return Err(SpecError::range("count", &what));
        }
        if !(self.settle.is_finite() && self.settle >= 0.0) {
            return Err(SpecError::range("settle", "must be a finite number ≥ 0 s"));
        }
        if !(self.measure.is_finite() && self.measure > 0.0) {
            return Err(SpecError::range("measure", "must be a finite number > 0 s"));
        }
        if self.settle + self.measure > MAX_POINT_SECONDS {
            // A literal: formatting the f64 would bring float printing into the wasm (9 KB gzipped).
            let what = "settle + measure must be at most 600 s".to_owned();
            return Err(SpecError::range("measure", &what));
        }
        // At least a step apart, so a window holds no more samples than steps.
        let every = self.sample_every;
        if !(every.is_finite() && every * STEPS_PER_SECOND >= 1.0 && every <= self.measure) {
            let what = "must be at least one step (1/60 s) and at most measure";
            return Err(SpecError::range("sampleEvery", what));
        }
        if let Some(slice) = self.slice {
            let units = match self.direction {
                Direction::Up => self.seeds.len() * self.points_a_seed(),
                Direction::UpDown => self.seeds.len(),
            };
            if slice.of < 1 {
                return Err(SpecError::range("slice.of", "must be at least 1"));
            }
            if slice.of > units {
                let what = format!("must be at most the number of units, {units}");
                return Err(SpecError::range("slice.of", &what));
            }
            if slice.index >= slice.of {
                return Err(SpecError::range("slice.index", "must be below slice.of"));
            }
        }
        Ok(())
    }

    /// FNV-1a over everything but `slice` (names, and the bits of every number, −0 as 0):
    /// the same experiment gives the same print, and slices of it share it.
    pub fn fingerprint(&self) -> u64 {
        let mut hash = Fnv(0xcbf2_9ce4_8422_2325);
        let name = |hash: &mut Fnv, param: Param| {
            hash.bytes(param.spec().name.as_bytes());
            hash.bytes(&[0]);
        };
        hash.word(self.settings.len() as u64);
        for &(param, value) in &self.settings {
            name(&mut hash, param);
            hash.real(value);
        }
        name(&mut hash, self.param);
        hash.word(self.values.len() as u64);
        for &value in &self.values {
            hash.real(value);
        }
        // Only a map hashes more: a curve's print is what it was before maps.
        if let Some(map) = &self.map {
            hash.bytes(b"map\0");
            name(&mut hash, map.param);
            hash.word(map.values.len() as u64);
            for &value in &map.values {
                hash.real(value);
            }
        }
        hash.bytes(self.direction.name().as_bytes());
        hash.word(self.seeds.len() as u64);
        for &seed in &self.seeds {
            hash.bytes(&seed.to_le_bytes());
        }
        hash.word(self.count as u64);
        for value in [self.settle, self.measure, self.sample_every] {
            hash.real(value);
        }
        hash.0
    }

    /// The print as 16 hex digits (what the CSV's `# experiment` line and `result.fingerprint`
    /// hold).
    pub fn print(&self) -> String {
        format!("{:016x}", self.fingerprint())
    }

    /// The points a seed has going up: its values, or a map's cells.
    pub fn points_a_seed(&self) -> usize {
        self.values.len() * self.map.as_ref().map_or(1, |map| map.values.len())
    }

    /// A point's values: `param`'s, and the map's (NaN without one). A map's point `v` is
    /// the cell in column `v % values`, row `v / values`.
    pub fn at(&self, v: usize) -> (f64, f64) {
        let n = self.values.len();
        match &self.map {
            None => (self.values[v], f64::NAN),
            Some(map) => (self.values[v % n], map.values[v / n]),
        }
    }

    /// The whole experiment's units in canonical order: seed-major, then values (a map's
    /// cells row by row).
    pub fn units(&self) -> Vec<Unit> {
        let seeds = 0..self.seeds.len();
        match self.direction {
            Direction::Up => seeds
                .flat_map(|seed_index| {
                    (0..self.points_a_seed()).map(move |v| Unit {
                        seed_index,
                        value_index: Some(v),
                    })
                })
                .collect(),
            Direction::UpDown => seeds
                .map(|seed_index| Unit {
                    seed_index,
                    value_index: None,
                })
                .collect(),
        }
    }

    /// The units this spec runs: its slice's (round robin over `units`), or all.
    pub fn slice_units(&self) -> Vec<Unit> {
        let units = self.units();
        match self.slice {
            None => units,
            Some(slice) => units
                .into_iter()
                .skip(slice.index)
                .step_by(slice.of.max(1))
                .collect(),
        }
    }

    /// The points of one unit in the order run: (leg, value index); an up-down chain
    /// runs the values up, then down from the top (measured in both legs).
    pub fn points(&self, unit: Unit) -> Vec<(Leg, usize)> {
        match unit.value_index {
            Some(v) => vec![(Leg::Up, v)],
            None => {
                let n = self.values.len();
                let up = (0..n).map(|v| (Leg::Up, v));
                up.chain((0..n).rev().map(|v| (Leg::Down, v))).collect()
            }
        }
    }

    /// Samples in a point's measuring window.
    pub fn samples(&self) -> usize {
        (self.measure / self.sample_every + 1e-9).floor() as usize
    }

    /// Flock steps in one point (settle + measure at `DT`).
    pub fn point_steps(&self) -> u64 {
        steps(self.settle + self.measure)
    }
}

/// 64-bit FNV-1a.
struct Fnv(u64);

impl Fnv {
    // Not inlined: one loop for the dozen fields hashed (the worker's module is counted in bytes).
    #[inline(never)]
    fn bytes(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn word(&mut self, word: u64) {
        self.bytes(&word.to_le_bytes());
    }

    fn real(&mut self, value: f64) {
        self.word((value + 0.0).to_bits());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> Spec {
        Spec {
            settings: vec![(Param::Cohesion, 1.2)],
            param: Param::Alignment,
            values: vec![0.0, 1.0, 2.0],
            map: None,
            direction: Direction::Up,
            seeds: vec![1, 2],
            count: 200,
            settle: 1.0,
            measure: 1.0,
            sample_every: 0.5,
            slice: None,
        }
    }

    #[test]
    fn plain_writes_the_tables_numbers() {
        assert_eq!(plain(0.0), "0");
        assert_eq!(plain(0.1), "0.1");
        assert_eq!(plain(12.0), "12");
        assert_eq!(plain(100_000.0), "100000");
        assert_eq!(plain(0.05), "0.05");
        assert_eq!(plain(-1.25), "-1.25");
    }

    #[test]
    fn the_field_list_is_the_fields() {
        assert_eq!(FIELD_LIST, FIELDS.join(", "));
    }

    #[test]
    fn units_points_and_steps() {
        let mut spec = spec();
        assert_eq!(spec.units().len(), 6);
        assert_eq!(spec.samples(), 2);
        assert_eq!(spec.point_steps(), 120);
        spec.direction = Direction::UpDown;
        let units = spec.units();
        assert_eq!(units.len(), 2);
        let points = spec.points(units[0]);
        assert_eq!(points.len(), 6);
        assert_eq!(points[2], (Leg::Up, 2));
        assert_eq!(points[3], (Leg::Down, 2));
        assert_eq!(points[5], (Leg::Down, 0));
    }

    #[test]
    fn the_print_ignores_the_slice_and_sees_the_rest() {
        let base = spec();
        let mut sliced = base.clone();
        sliced.slice = Some(Slice { index: 1, of: 3 });
        assert_eq!(base.fingerprint(), sliced.fingerprint());
        let mut other = base.clone();
        other.values[2] = 2.5;
        assert_ne!(base.fingerprint(), other.fingerprint());
        let mut signed = base.clone();
        signed.values[0] = -0.0;
        assert_eq!(base.fingerprint(), signed.fingerprint());
        // 16 hex digits, the leading zeros kept.
        assert_eq!(base.print(), format!("{:016x}", base.fingerprint()));
        assert_eq!(base.print().len(), 16);
    }
}
