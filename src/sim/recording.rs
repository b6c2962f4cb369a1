//! A recorded flock (issue 43): the fixes of real birds read from text, and the flock at any
//! time between them, for the same measures as the model's. A leaf module: text in, positions
//! and velocities out.
//!
//! The format, one fix a line: `time, id, x, y, z` or `time, id, x, y, z, vx, vy, vz`
//! (seconds; any label for the bird; any unit of length, the same for all), separated by
//! commas, tabs or spaces. Lines starting with `#` and blank lines are skipped, and so is a
//! first line that names the columns. Every line has as many values as the first fix. A
//! malformed file is refused whole, with the number of the first bad line: nothing is half
//! read.

use glam::Vec3;

/// The most fixes a recording holds (ten birds at 5 Hz for 5.5 hours; a page reads it whole).
pub const MAX_FIXES: usize = 1_000_000;

/// Why a text is not a recording, and on which line (1 for the first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordingError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for RecordingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// One bird's fix: when, where, and (if the file says) how fast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fix {
    pub time: f32,
    pub position: Vec3,
    pub velocity: Option<Vec3>,
}

/// A recorded flock: each bird's fixes in time order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recording {
    /// The birds' labels, in the order first seen.
    pub ids: Vec<String>,
    /// Each bird's fixes, in the order of `ids`, their times strictly increasing.
    pub tracks: Vec<Vec<Fix>>,
    /// The longest gap `at` bridges in each bird's track: `GAP_FACTOR` times its median
    /// interval. A longer one is a time the bird was not recorded (a lost signal, a landing),
    /// not one to draw a straight line across.
    pub bridges: Vec<f32>,
}

/// How many of a track's usual intervals `at` bridges between two fixes.
pub const GAP_FACTOR: f32 = 10.0;

const COLUMNS: &str = "time, id, x, y, z[, vx, vy, vz]";

impl Recording {
    /// Reads `text` (the format above), or says why not.
    pub fn parse(text: &str) -> Result<Recording, RecordingError> {
        Recording::parse_with(text, |value| value.parse().ok())
    }

    /// `parse` with the numbers read by `number` (`None`: not a number). A wasm module reads
    /// them through JavaScript's `Number` instead of Rust's float parser, which would add
    /// 21 KB gzipped to it (`web/replay.rs`).
    pub fn parse_with(
        text: &str,
        number: impl Fn(&str) -> Option<f32>,
    ) -> Result<Recording, RecordingError> {
        let mut recording = Recording::default();
        let mut width = None;
        let mut fixes = 0usize;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let values: Vec<&str> = trimmed
                .split([',', '\t', ' '])
                .filter(|v| !v.is_empty())
                .collect();
            let fail = |message: String| Err(RecordingError { line, message });
            // A header: the first line whose time is not a number but names a column.
            if width.is_none() && values.first().is_some_and(|v| number(v).is_none()) {
                if values.len() == 5 || values.len() == 8 {
                    width = Some(values.len());
                    continue;
                }
                return fail(format!("expected {COLUMNS}, found {} values", values.len()));
            }
            let expected = *width.get_or_insert(values.len());
            if values.len() != expected || !(expected == 5 || expected == 8) {
                return fail(format!(
                    "expected {} values ({COLUMNS}), found {}",
                    if expected == 5 || expected == 8 {
                        expected
                    } else {
                        5
                    },
                    values.len()
                ));
            }
            let mut numbers = [0.0f32; 7];
            for (k, (name, value)) in ["time", "x", "y", "z", "vx", "vy", "vz"]
                .iter()
                .zip(values.iter().take(1).chain(values.iter().skip(2)))
                .enumerate()
            {
                match number(value) {
                    Some(n) if n.is_finite() => numbers[k] = n,
                    _ => return fail(format!("{name} is not a finite number: \"{value}\"")),
                }
            }
            fixes += 1;
            if fixes > MAX_FIXES {
                return fail(format!("more than {MAX_FIXES} fixes"));
            }
            let id = values[1];
            let bird = match recording.ids.iter().position(|known| known == id) {
                Some(bird) => bird,
                None => {
                    recording.ids.push(id.to_string());
                    recording.tracks.push(Vec::new());
                    recording.ids.len() - 1
                }
            };
            let fix = Fix {
                time: numbers[0],
                position: Vec3::new(numbers[1], numbers[2], numbers[3]),
                velocity: (expected == 8).then(|| Vec3::new(numbers[4], numbers[5], numbers[6])),
            };
            if let Some(last) = recording.tracks[bird].last() {
                if fix.time <= last.time {
                    // The time as the file writes it: formatting a float would add the
                    // float printer (~30 KB) to the module that reads recordings.
                    let time = values[0];
                    return fail(format!(
                        "bird {id}'s time {time} is not after its fix before"
                    ));
                }
            }
            recording.tracks[bird].push(fix);
        }
        if fixes == 0 {
            return Err(RecordingError {
                line: text.lines().count().max(1),
                message: format!("no fixes: expected lines of {COLUMNS}"),
            });
        }
        recording.bridges = recording
            .tracks
            .iter()
            .map(|track| {
                let mut steps: Vec<f32> = track.windows(2).map(|w| w[1].time - w[0].time).collect();
                if steps.is_empty() {
                    return 0.0;
                }
                let middle = steps.len() / 2;
                let (_, median, _) = steps.select_nth_unstable_by(middle, f32::total_cmp);
                GAP_FACTOR * *median
            })
            .collect();
        Ok(recording)
    }

    /// The first and last time any bird was fixed.
    pub fn span(&self) -> (f32, f32) {
        let first = self.tracks.iter().filter_map(|t| t.first()).map(|f| f.time);
        let last = self.tracks.iter().filter_map(|t| t.last()).map(|f| f.time);
        (
            first.fold(f32::INFINITY, f32::min),
            last.fold(f32::NEG_INFINITY, f32::max),
        )
    }

    /// A bird's usual interval between fixes: the median of its track's.
    pub fn usual_interval(&self, bird: usize) -> f32 {
        self.bridges.get(bird).map_or(0.0, |b| b / GAP_FACTOR)
    }

    /// Each bird's span between the two fixes around `time` (0 on a fix), or `None` where
    /// `at` has none: what a player marks as drawn between fixes.
    pub fn spans_at(&self, time: f32) -> Vec<Option<f32>> {
        self.tracks
            .iter()
            .zip(&self.bridges)
            .map(|(track, &bridge)| {
                let after = track.partition_point(|f| f.time < time);
                let fix = track.get(after)?;
                if fix.time == time {
                    return Some(0.0);
                }
                let span = fix.time - track.get(after.checked_sub(1)?)?.time;
                (span <= bridge).then_some(span)
            })
            .collect()
    }

    /// Each bird at `time`, in the order of `ids`: its position and velocity between the two
    /// fixes around `time` (linearly; the velocity the file's, else the change between them),
    /// or `None` outside its track or in a gap longer than its bridge.
    pub fn at(&self, time: f32) -> Vec<Option<(Vec3, Vec3)>> {
        self.tracks
            .iter()
            .zip(&self.bridges)
            .map(|(track, &bridge)| {
                let after = track.partition_point(|f| f.time < time);
                let fix = *track.get(after)?;
                // The change to `to` from `from`, if it is not across a gap.
                let change = |from: &Fix, to: &Fix| {
                    let span = to.time - from.time;
                    (span <= bridge).then(|| (to.position - from.position) / span)
                };
                if fix.time == time {
                    // On a fix: its velocity, else the change from the fix before or to the next.
                    let velocity = fix
                        .velocity
                        .or_else(|| change(track.get(after.checked_sub(1)?)?, &fix))
                        .or_else(|| change(&fix, track.get(after + 1)?));
                    return Some((fix.position, velocity.unwrap_or(Vec3::ZERO)));
                }
                let before = track.get(after.checked_sub(1)?)?;
                let span = fix.time - before.time;
                if span > bridge {
                    return None;
                }
                let s = (time - before.time) / span;
                let position = before.position.lerp(fix.position, s);
                let velocity = match (before.velocity, fix.velocity) {
                    (Some(a), Some(b)) => a.lerp(b, s),
                    _ => (fix.position - before.position) / span,
                };
                Some((position, velocity))
            })
            .collect()
    }
}

/// Whether `value` is a finite decimal number as Rust's `str::parse::<f32>` reads one:
/// `[+-]digits[.digits][(e|E)[+-]digits]`, with digits on at least one side of the point. A
/// reader of numbers other than Rust's (JavaScript's `parseFloat`, `web/replay.rs`) takes
/// what this passes, and so refuses what Rust refuses (`tests/recording_numbers.rs`).
pub fn is_decimal(value: &str) -> bool {
    let bytes = value.as_bytes();
    let mut at = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let digits = |at: &mut usize| {
        let start = *at;
        while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        *at - start
    };
    let mut mantissa = digits(&mut at);
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        mantissa += digits(&mut at);
    }
    if mantissa == 0 {
        return false;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        if digits(&mut at) == 0 {
            return false;
        }
    }
    at == bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_BIRDS: &str = "# two birds\n\
        t,id,x,y,z\n\
        0.0,A,0,0,0\n\
        0.0,B,10,0,0\n\
        0.2,A,1,0,0\n\
        0.2,B,10,2,0\n\
        \n\
        0.4\tA\t2 0 0\n";

    #[test]
    fn reads_fixes_skipping_comments_blanks_and_a_header() {
        let r = Recording::parse(TWO_BIRDS).unwrap();
        assert_eq!(r.ids, ["A", "B"]);
        assert_eq!(r.tracks[0].len(), 3);
        assert_eq!(r.tracks[1].len(), 2);
        assert_eq!(r.tracks[0][2].position, Vec3::new(2.0, 0.0, 0.0));
        assert_eq!(r.tracks[0][0].velocity, None);
        assert_eq!(r.span(), (0.0, 0.4));
    }

    #[test]
    fn spans_say_how_far_apart_the_fixes_around_a_time_are() {
        let r = Recording::parse(TWO_BIRDS).unwrap();
        assert_eq!(r.usual_interval(0), 0.2);
        assert_eq!(r.spans_at(0.2), [Some(0.0), Some(0.0)]);
        let between = r.spans_at(0.3);
        assert!((between[0].unwrap() - 0.2).abs() < 1e-6);
        assert_eq!(between[1], None, "B's track ends at 0.2");
    }

    #[test]
    fn between_fixes_it_interpolates_and_derives_the_velocity() {
        let r = Recording::parse(TWO_BIRDS).unwrap();
        let at = r.at(0.1);
        let (p, v) = at[0].unwrap();
        assert!((p - Vec3::new(0.5, 0.0, 0.0)).length() < 1e-5, "{p}");
        assert!((v - Vec3::new(5.0, 0.0, 0.0)).length() < 1e-4, "{v}");
        let (p, v) = at[1].unwrap();
        assert!((p - Vec3::new(10.0, 1.0, 0.0)).length() < 1e-5 && (v.y - 10.0).abs() < 1e-3);
        // At its first fix, the velocity toward the next; past its last, nothing.
        let (p, v) = r.at(0.0)[0].unwrap();
        assert_eq!(p, Vec3::ZERO);
        assert!((v.x - 5.0).abs() < 1e-4);
        assert_eq!(r.at(0.3)[1], None, "B's track ended at 0.2");
        assert!(r.at(0.3)[0].is_some());
        assert_eq!(r.at(-1.0), vec![None, None]);
    }

    #[test]
    fn a_long_gap_is_not_bridged() {
        // Fixes every 0.2 s, then one 40 s later: bridged up to 10 intervals (2 s), not 40 s.
        let mut text = String::new();
        for k in 0..20 {
            text += &format!("{},A,{k},0,0\n", k as f32 * 0.2);
        }
        text += "43.8,A,100,0,0\n";
        let r = Recording::parse(&text).unwrap();
        assert!((r.bridges[0] - 2.0).abs() < 1e-4, "{:?}", r.bridges);
        assert!(r.at(1.9)[0].is_some());
        assert_eq!(r.at(20.0)[0], None, "inside the 40 s gap");
        assert_eq!(
            r.at(43.8)[0],
            Some((Vec3::new(100.0, 0.0, 0.0), Vec3::ZERO)),
            "on the far fix itself: there, with no velocity to tell"
        );
        let (_, v) = r.at(3.8)[0].unwrap();
        assert!(
            (v.x - 5.0).abs() < 1e-3,
            "the last fix before the gap: the change from the one before, {v}"
        );
    }

    #[test]
    fn a_velocity_given_is_used() {
        let r = Recording::parse("0 A 0 0 0 1 2 3\n1 A 1 0 0 3 2 1\n").unwrap();
        let (_, v) = r.at(0.5)[0].unwrap();
        assert_eq!(v, Vec3::new(2.0, 2.0, 2.0));
    }

    #[test]
    fn a_bad_line_is_refused_with_its_number_and_nothing_read() {
        let cases = [
            ("0,A,0,0,0\n0.2,A,1,0\n", 2, "expected 5 values"),
            (
                "0,A,0,0,0\n0.2,A,1,x,0\n",
                2,
                "y is not a finite number: \"x\"",
            ),
            ("0,A,0,0,0\n0.2,A,NaN,0,0\n", 2, "x is not a finite number"),
            (
                "0,A,0,0,0\n0,A,1,0,0\n",
                2,
                "bird A's time 0 is not after its fix before",
            ),
            ("# only a comment\n\n", 2, "no fixes"),
            ("t,id,x\n", 1, "expected time, id, x, y, z"),
            ("0,A,0,0,0,1,1,1\n1,A,0,0,0\n", 2, "expected 8 values"),
            ("0,A,0,0,0,1\n", 1, "expected 5 values"),
        ];
        for (text, line, message) in cases {
            let error = Recording::parse(text).unwrap_err();
            assert_eq!(error.line, line, "{text:?}: {error}");
            assert!(error.message.contains(message), "{text:?}: {error}");
            assert!(error.to_string().starts_with(&format!("line {line}: ")));
        }
    }
}
