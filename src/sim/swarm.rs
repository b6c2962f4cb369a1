//! The engineering frontier's swarms (issue 44): members that hear their neighbours late
//! (`delay`), miss some of their messages (`message_loss`), fail (`failures`, in one of
//! the `FailureMode`s) or fly a role of their own (`roles`: bold members). A leaf module:
//! who fails and who is bold, which message is lost and what the flock remembers of its
//! past, each a pure function of the seed, the step's number and the boids' ids, so that
//! a boid's fate does not depend on where the grid put it in memory, nor on how the flock
//! is split between threads. The flock's step reads it in `flock/swarm.rs`.
//!
//! After Vásárhelyi et al., "Optimized flocking of autonomous drones in confined
//! environments", Science Robotics 3 (2018): their simulator's drones hear each other
//! over radio with a delay (1 s by default) and lose packets.

use std::collections::VecDeque;

use glam::Vec3;

use super::noise::mix;

/// Frames of the past the flock keeps a second (one per 1/60 s of flock time, the step's
/// own rate): a delay is heard to the step.
pub const HISTORY_RATE: f64 = 60.0;
/// Bytes one boid takes in one frame of the past: position, velocity (f32 xyz each), id.
pub const BYTES_PER_BOID_FRAME: usize = 12 + 12 + 4;
/// The most memory the past may take, in bytes (48 MiB): two seconds of it at 10,000
/// boids (34 MB), a quarter of a second at 100,000. A delay or a count past it is refused
/// with the delay the count allows (`most_delay`).
pub const HISTORY_BUDGET: usize = 48 << 20;
/// A boid that drifts to a halt loses speed as e^(−t / this), in seconds: it has all but
/// stopped (5 %) after three.
pub const HALT_TIME: f32 = 1.0;

/// What a failing boid does. It never steers again (it heeds no rule, no wall, no hawk);
/// its neighbours still hear it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureMode {
    /// Flies straight on at the speed it had.
    Straight,
    /// Drifts to a halt (its speed falls as e^(−t / `HALT_TIME`)).
    Halt,
    /// Flies straight on, and tells its neighbours a wrong heading: one fixed at random
    /// for each boid (a broken compass).
    WrongHeading,
}

impl FailureMode {
    /// The table's numbers, in order: 0, 1, 2.
    pub const ALL: [FailureMode; 3] = [
        FailureMode::Straight,
        FailureMode::Halt,
        FailureMode::WrongHeading,
    ];

    /// The mode the table's `failureMode` number stands for (rounded and clamped by the
    /// table already: anything else is the first).
    pub fn from_number(number: usize) -> FailureMode {
        *Self::ALL.get(number).unwrap_or(&FailureMode::Straight)
    }
}

/// A boid's own cruise speed and rule weights, as factors of the flock's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Role {
    pub speed: f32,
    /// Separation, alignment, cohesion.
    pub weights: [f32; 3],
}

impl Role {
    /// Every boid when `roles` is 0: the flock's own settings.
    pub const ORDINARY: Role = Role {
        speed: 1.0,
        weights: [1.0, 1.0, 1.0],
    };
    /// A bold member: it cruises 30 % faster (inside the top speed, 1.4 times the cruise)
    /// and heeds its neighbours' heading and centre half as much, as the bold fish of
    /// Harcourt et al. (2009) lead from the front; it keeps its distance as the others do.
    pub const BOLD: Role = Role {
        speed: 1.3,
        weights: [1.0, 0.5, 0.5],
    };
}

/// What a boid is, as the step reads it per slot: a bit each.
pub const FAILED: u8 = 1;
pub const BOLD: u8 = 2;

/// Salts that keep the draws for failing and for being bold apart.
const FAIL_SALT: u64 = 0xA076_1D64_78BD_642F;
const BOLD_SALT: u64 = 0xE703_7ED1_A0B4_28DB;
const HEADING_SALT: u64 = 0x8EBC_6AF0_9C88_C6E3;

/// The top 24 bits of `bits` as a number uniform in [0, 1).
fn unit(bits: u64) -> f32 {
    (bits >> 40) as f32 / (1u64 << 24) as f32
}

fn draw(seed: u32, id: u32, salt: u64) -> u64 {
    mix(u64::from(seed).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ salt
        ^ u64::from(id).wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

/// The bits (`FAILED`, `BOLD`) of the boid `id` in a flock of `seed` where a share
/// `failures` of the boids fail and a share `roles` is bold. Each boid draws its own
/// number: a share of 0.1 fails about a tenth of the boids, and raising it fails those
/// that had failed and more.
pub fn traits(seed: u32, id: u32, failures: f32, roles: f32) -> u8 {
    let mut bits = 0;
    if failures > 0.0 && unit(draw(seed, id, FAIL_SALT)) < failures {
        bits |= FAILED;
    }
    if roles > 0.0 && unit(draw(seed, id, BOLD_SALT)) < roles {
        bits |= BOLD;
    }
    bits
}

/// The wrong heading a failing boid tells in `FailureMode::WrongHeading`: a unit vector
/// fixed for the boid (in the x-y plane in a `flat` world).
pub fn wrong_heading(seed: u32, id: u32, flat: bool) -> Vec3 {
    let bits = draw(seed, id, HEADING_SALT);
    let angle = unit(bits) * std::f32::consts::TAU;
    let z = if flat {
        0.0
    } else {
        2.0 * unit(mix(bits)) - 1.0
    };
    let across = (1.0 - z * z).max(0.0).sqrt();
    Vec3::new(across * angle.cos(), across * angle.sin(), z)
}

/// Whether `listener` hears `speaker` in step `tick`, when a share `loss` of the messages
/// is lost: each pair and step draws its own number, both ways apart.
#[inline]
pub fn heard(seed: u32, tick: u64, listener: u32, speaker: u32, loss: f32) -> bool {
    if loss <= 0.0 {
        return true;
    }
    let pair = u64::from(listener) << 32 | u64::from(speaker);
    let bits = mix(
        mix(u64::from(seed) ^ tick.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            ^ pair.wrapping_mul(0xBF58_476D_1CE4_E5B9),
    );
    unit(bits) >= loss
}

/// Frames the past holds for a `delay` in seconds: one `delay` old, the ones since, and
/// the one being written.
pub fn frames_for(delay: f32) -> usize {
    if delay <= 0.0 {
        0
    } else {
        // Less a hair: a delay of whole frames (`most_delay`) rounded up in f32 is not one more.
        (f64::from(delay) * HISTORY_RATE - 1e-3).ceil() as usize + 2
    }
}

/// Bytes the past takes for `delay` at `boids` boids.
pub fn history_bytes(delay: f32, boids: usize) -> usize {
    frames_for(delay)
        .saturating_mul(boids)
        .saturating_mul(BYTES_PER_BOID_FRAME)
}

/// The longest delay `HISTORY_BUDGET` holds at `boids` boids, in whole steps of the past
/// (seconds).
pub fn most_delay(boids: usize) -> f64 {
    let frames = HISTORY_BUDGET / boids.max(1).saturating_mul(BYTES_PER_BOID_FRAME);
    frames.saturating_sub(2) as f64 / HISTORY_RATE
}

/// The flock at one moment of its past, in its order then.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frame {
    /// Seconds flown at that moment.
    pub time: f64,
    pub ids: Vec<u32>,
    pub positions: Vec<f32>,
    pub velocities: Vec<f32>,
}

/// The past the flock keeps while it has a delay: a frame every 1/`HISTORY_RATE` s,
/// oldest first, back to the one the delay reads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    frames: VecDeque<Frame>,
    /// Frames dropped, kept to be written over (no allocation a step at 10,000 boids).
    spare: Vec<Frame>,
}

impl History {
    pub fn clear(&mut self) {
        self.frames.clear();
        self.spare.clear();
    }

    pub fn frames(&self) -> impl Iterator<Item = &Frame> {
        self.frames.iter()
    }

    pub fn len(&self) -> usize {
        self.frames.len()
    }

    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// Bytes its frames hold.
    pub fn bytes(&self) -> usize {
        self.frames
            .iter()
            .map(|f| f.ids.len() * BYTES_PER_BOID_FRAME)
            .sum()
    }

    /// Adds a frame read back from a snapshot (oldest first).
    pub fn push(&mut self, frame: Frame) {
        self.frames.push_back(frame);
    }

    /// Records the flock at `time` (unless a frame less than a step of the past old is
    /// there already), then lets go of the frames older than the one `delay` reads.
    pub fn record(
        &mut self,
        time: f64,
        ids: &[u32],
        positions: &[f32],
        velocities: &[f32],
        delay: f32,
    ) {
        let due = self
            .frames
            .back()
            .is_none_or(|last| time - last.time >= 1.0 / HISTORY_RATE - 1e-6);
        if due {
            let mut frame = self.spare.pop().unwrap_or_default();
            frame.time = time;
            frame.ids.clear();
            frame.ids.extend_from_slice(ids);
            frame.positions.clear();
            frame.positions.extend_from_slice(positions);
            frame.velocities.clear();
            frame.velocities.extend_from_slice(velocities);
            self.frames.push_back(frame);
        }
        self.trim(time, delay);
    }

    /// Lets go of every frame older than the one a `delay` at `now` reads.
    pub fn trim(&mut self, now: f64, delay: f32) {
        let wanted = now - f64::from(delay) + 1e-6;
        while self.frames.len() >= 2 && self.frames[1].time <= wanted {
            if let Some(old) = self.frames.pop_front() {
                self.spare.push(old);
            }
        }
        // One spare is all a step needs.
        self.spare.truncate(1);
    }

    /// The frame a `delay` at `now` reads: the newest at least `delay` old, else the
    /// oldest there is (a flock younger than its delay hears its start). `None` when
    /// nothing is kept.
    pub fn read(&self, now: f64, delay: f32) -> Option<&Frame> {
        let wanted = now - f64::from(delay) + 1e-6;
        self.frames
            .iter()
            .rev()
            .find(|frame| frame.time <= wanted)
            .or_else(|| self.frames.front())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_fail_and_embolden_about_their_share_of_boids_and_grow_by_adding() {
        let (n, seed) = (20_000u32, 7);
        for share in [0.1f32, 0.3, 0.7] {
            let failed = (0..n).filter(|&id| traits(seed, id, share, 0.0) & FAILED != 0);
            let bold = (0..n).filter(|&id| traits(seed, id, 0.0, share) & BOLD != 0);
            for count in [failed.count(), bold.count()] {
                let ratio = count as f32 / n as f32;
                assert!((ratio - share).abs() < 0.02, "{share}: {ratio}");
            }
            // A boid that fails at a share fails at every larger one.
            for id in 0..n {
                if traits(seed, id, share, 0.0) & FAILED != 0 {
                    assert_ne!(traits(seed, id, share + 0.1, 0.0) & FAILED, 0);
                }
            }
        }
        assert_eq!((0..n).map(|id| traits(seed, id, 0.0, 0.0)).max(), Some(0));
        // Failing and being bold are drawn apart: about a quarter of the failed are bold.
        let both = (0..n)
            .filter(|&id| traits(seed, id, 0.5, 0.5) == FAILED | BOLD)
            .count();
        assert!((both as f32 / n as f32 - 0.25).abs() < 0.02);
    }

    #[test]
    fn messages_are_lost_at_their_rate_each_pair_and_step_on_its_own() {
        let loss = 0.3;
        let mut lost = 0;
        let mut asymmetric = 0;
        let draws = 40_000;
        for k in 0..draws {
            let (a, b, tick) = (k % 200, k / 200, u64::from(k % 7));
            if !heard(5, tick, a, b, loss) {
                lost += 1;
            }
            if heard(5, tick, a, b, loss) != heard(5, tick, b, a, loss) {
                asymmetric += 1;
            }
        }
        let rate = lost as f32 / draws as f32;
        assert!((rate - loss).abs() < 0.01, "{rate}");
        // Both ways are drawn apart: 2 × 0.3 × 0.7 of the pairs differ.
        let differ = asymmetric as f32 / draws as f32;
        assert!((differ - 0.42).abs() < 0.02, "{differ}");
        assert!((0..1000).all(|k| heard(1, 3, k, k + 1, 0.0)));
        assert!((0..1000).all(|k| !heard(1, 3, k, k + 1, 1.0)));
        // Another step, other messages lost.
        let same = (0..1000)
            .filter(|&k| heard(1, 3, k, 9, 0.5) == heard(1, 4, k, 9, 0.5))
            .count();
        assert!((400..600).contains(&same), "{same}");
    }

    #[test]
    fn wrong_headings_are_unit_vectors_spread_round_and_flat_when_flat() {
        let mut sum = Vec3::ZERO;
        for id in 0..5000 {
            let heading = wrong_heading(3, id, false);
            assert!((heading.length() - 1.0).abs() < 1e-5);
            sum += heading;
            assert_eq!(wrong_heading(3, id, true).z, 0.0);
            assert!((wrong_heading(3, id, true).length() - 1.0).abs() < 1e-5);
        }
        assert!(sum.length() / 5000.0 < 0.03, "spread round: {sum}");
    }

    #[test]
    fn the_past_keeps_what_the_delay_reads_and_no_more() {
        let mut history = History::default();
        let delay = 0.5;
        let steps = 120;
        for step in 0..=steps {
            let time = f64::from(step) / 60.0;
            let x = step as f32;
            history.record(time, &[7], &[x, 0.0, 0.0], &[1.0, 0.0, 0.0], delay);
            let read = history.read(time, delay).unwrap();
            // Half a second ago, or the start while the flock is younger than that.
            let expected = (step - 30).max(0) as f32;
            assert_eq!(read.positions[0], expected, "step {step}");
            assert!(history.len() <= frames_for(delay), "{}", history.len());
        }
        assert_eq!(history.bytes(), history.len() * BYTES_PER_BOID_FRAME);
        // Steps shorter than a frame's: a frame every 1/60 s, not every step.
        let mut fine = History::default();
        for step in 0..=240 {
            fine.record(f64::from(step) / 240.0, &[1], &[0.0; 3], &[0.0; 3], 1.0);
        }
        assert!(fine.len() <= frames_for(1.0), "{}", fine.len());
        assert!(fine.len() >= 59, "{}", fine.len());
    }

    #[test]
    fn the_budget_gives_the_delays_the_docs_state() {
        assert_eq!(history_bytes(0.0, 100_000), 0);
        assert!(history_bytes(2.0, 10_000) <= HISTORY_BUDGET);
        assert!(history_bytes(1.0, 100_000) > HISTORY_BUDGET);
        assert!(most_delay(1_500) > 2.0);
        assert!(most_delay(10_000) >= 2.0);
        let at_100k = most_delay(100_000);
        assert!((0.2..0.3).contains(&at_100k), "{at_100k}");
        assert!(history_bytes(at_100k as f32, 100_000) <= HISTORY_BUDGET);
    }
}
