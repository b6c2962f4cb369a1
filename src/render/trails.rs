//! Trails: where each boid has been over the last ~2 simulated seconds, kept as a ring of
//! position samples on the GPU. This is the CPU's side, plain Rust (tested natively): each
//! boid keeps a column ("slot") of the ring by its id, whatever order the step sorts the
//! flock into; every `INTERVAL` of simulated time one row of the ring — every slot's
//! position — is written, one texture upload. `overlay_gl` draws all trails from it in
//! one call, fading with age.
//!
//! A texel holds a position (GL coordinates) and the sample number at which its slot's
//! boid arrived: a segment is drawn only where both ends belong to the boid in the slot
//! now, so a slot handed to a newcomer never draws its predecessor's path; a slot whose
//! boid left holds −1.

use glam::Vec3;

use crate::sim::{Flock, MAX_SPEED_FACTOR, PANIC_SPEED_FACTOR};

/// Samples kept per boid: 32 at `INTERVAL` is 2.1 s of flight.
pub const SAMPLES: usize = 32;
/// Simulated seconds between samples: 1/15 s, so a boid at cruise speed (10 units/s by
/// default) moves 0.7 units, about half a cone, between samples.
pub const INTERVAL: f64 = 1.0 / 15.0;
/// Texels per texture row: WebGL2 promises textures at least 2,048 wide and high, and
/// 100,000 boids × 32 samples fit in 2,048 × 1,568.
pub const WIDTH: usize = 2048;
/// Floats per texel (RGBA32F): x, y, z (GL), the occupant's arrival.
pub const TEXEL_FLOATS: usize = 4;
const NONE: u32 = u32::MAX;

/// The ring's bookkeeping and the row to upload next.
#[derive(Clone, Debug, Default)]
pub struct Ring {
    /// Slot of each id (`NONE`: none), indexed by id.
    slot_of: Vec<u32>,
    /// Id in each slot (`NONE`: free).
    owner: Vec<u32>,
    /// Sample at which each slot's boid was last seen.
    seen: Vec<u32>,
    /// Sample at which each slot's boid arrived.
    birth: Vec<u32>,
    free: Vec<u32>,
    /// Samples taken so far (the newest is number `serial`).
    serial: u32,
    /// Samples since the ring was last emptied: older rows are not drawn.
    filled: usize,
    /// Simulated time of the last sample.
    last: Option<f64>,
    world: f32,
    /// Rows per sample in the texture (the slots' rows: `slots / WIDTH`, rounded up).
    rows: usize,
    /// The newest sample, `rows × WIDTH` texels, ready to upload.
    pub row: Vec<f32>,
}

/// What the drawing needs to read the ring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading {
    /// Row band of the newest sample (0 to `SAMPLES` − 1).
    pub head: usize,
    /// How many samples, newest first, may be drawn.
    pub filled: usize,
    /// Texture rows per sample.
    pub rows: usize,
    /// Slots in use (trails drawn).
    pub slots: usize,
    /// A segment longer than this (world units) is a jump across a wrapped edge: not drawn.
    pub jump: f32,
}

impl Ring {
    /// Whether `flock` is due a sample at its current time: `INTERVAL` since the last one,
    /// or time ran backward (another flock) or the world changed (everything moved).
    pub fn due(&self, flock: &Flock) -> bool {
        match self.last {
            None => true,
            Some(last) => {
                let now = flock.elapsed();
                now < last || now >= last + INTERVAL * 0.999 || flock.world_size() != self.world
            }
        }
    }

    /// Takes a sample of `flock` into `row`. Returns whether the texture must be (re)made
    /// larger: then the ring starts empty.
    pub fn sample(&mut self, flock: &Flock) -> bool {
        let now = flock.elapsed();
        let restart = match self.last {
            None => true,
            Some(last) => now < last || flock.world_size() != self.world,
        };
        if restart {
            self.filled = 0;
        }
        self.last = Some(now);
        self.world = flock.world_size();
        self.serial = self.serial.wrapping_add(1);
        let serial = self.serial;
        let ids = flock.ids();
        let positions = flock.positions();
        for (i, &id) in ids.iter().enumerate() {
            let slot = self.slot(id, serial) as usize;
            self.seen[slot] = serial;
            let p = &positions[3 * i..3 * i + 3];
            let texel = [p[0], p[2], p[1], self.birth[slot] as f32];
            self.write(slot, texel);
        }
        // Boids that left free their slots.
        for slot in 0..self.owner.len() {
            let id = self.owner[slot];
            if id != NONE && self.seen[slot] != serial {
                self.slot_of[id as usize] = NONE;
                self.owner[slot] = NONE;
                self.free.push(slot as u32);
            }
            if self.owner[slot] == NONE {
                self.write(slot, [0.0, 0.0, 0.0, -1.0]);
            }
        }
        let rows = self.owner.len().div_ceil(WIDTH).max(1);
        let grown = rows > self.rows;
        if grown {
            self.rows = rows;
            self.filled = 0;
        }
        self.row.resize(self.rows * WIDTH * TEXEL_FLOATS, 0.0);
        self.filled = (self.filled + 1).min(SAMPLES);
        grown
    }

    /// `id`'s slot, given one (a free one first) when it has none.
    fn slot(&mut self, id: u32, serial: u32) -> u32 {
        let id_index = id as usize;
        if id_index >= self.slot_of.len() {
            self.slot_of.resize(id_index + 1, NONE);
        }
        let slot = self.slot_of[id_index];
        if slot != NONE {
            return slot;
        }
        let slot = self.free.pop().unwrap_or_else(|| {
            self.owner.push(NONE);
            self.seen.push(0);
            self.birth.push(0);
            (self.owner.len() - 1) as u32
        });
        self.slot_of[id_index] = slot;
        self.owner[slot as usize] = id;
        self.birth[slot as usize] = serial;
        slot
    }

    fn write(&mut self, slot: usize, texel: [f32; TEXEL_FLOATS]) {
        let at = slot * TEXEL_FLOATS;
        if self.row.len() < at + TEXEL_FLOATS {
            self.row
                .resize((slot + 1).next_multiple_of(WIDTH) * TEXEL_FLOATS, 0.0);
        }
        self.row[at..at + TEXEL_FLOATS].copy_from_slice(&texel);
    }

    /// The slot of the boid with `id`, if it has one.
    pub fn slot_of(&self, id: u32) -> Option<usize> {
        match self.slot_of.get(id as usize) {
            Some(&slot) if slot != NONE => Some(slot as usize),
            _ => None,
        }
    }

    /// Band of the newest sample.
    pub fn reading_head(&self) -> usize {
        self.serial as usize % SAMPLES
    }

    /// Texture rows per sample (the texture is `WIDTH` × `rows · SAMPLES`).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// What the drawing needs now (after at least one `sample`).
    pub fn reading(&self, flock: &Flock) -> Reading {
        let s = flock.settings();
        let top = s.speed * MAX_SPEED_FACTOR * PANIC_SPEED_FACTOR;
        Reading {
            head: self.reading_head(),
            filled: self.filled,
            rows: self.rows,
            slots: self.owner.len(),
            jump: (3.0 * top * INTERVAL as f32).max(1e-3),
        }
    }

    /// Empties the ring (trails start afresh).
    pub fn clear(&mut self) {
        *self = Ring::default();
    }

    /// The texel of `slot` in the newest row, for tests.
    pub fn texel(&self, slot: usize) -> [f32; TEXEL_FLOATS] {
        let at = slot * TEXEL_FLOATS;
        let mut texel = [0.0; TEXEL_FLOATS];
        texel.copy_from_slice(&self.row[at..at + TEXEL_FLOATS]);
        texel
    }
}

/// Where a texel of `slot` in sample band `band` lies in the texture (x, y): what the trail
/// shader computes.
pub fn texel_at(slot: usize, band: usize, rows: usize) -> (usize, usize) {
    (slot % WIDTH, band * rows + slot / WIDTH)
}

/// A GL position from a texel.
pub fn texel_position(texel: [f32; TEXEL_FLOATS]) -> Vec3 {
    Vec3::new(texel[0], texel[1], texel[2])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step_for(flock: &mut Flock, seconds: f64) {
        let steps = (seconds * 60.0).round() as usize;
        for _ in 0..steps {
            flock.step(1.0 / 60.0);
        }
    }

    #[test]
    fn each_boid_keeps_its_slot_through_steps_and_set_count() {
        let mut flock = Flock::new(300, Some(1));
        let mut ring = Ring::default();
        assert!(ring.due(&flock));
        assert!(ring.sample(&flock), "the first sample makes the texture");
        let slots: Vec<usize> = flock
            .ids()
            .iter()
            .map(|&id| ring.slot_of(id).unwrap())
            .collect();
        let by_id: std::collections::HashMap<u32, usize> =
            flock.ids().iter().copied().zip(slots).collect();
        step_for(&mut flock, 0.05);
        assert!(!ring.due(&flock), "not yet 1/15 s");
        step_for(&mut flock, 0.05);
        assert!(ring.due(&flock));
        assert!(!ring.sample(&flock));
        for (i, &id) in flock.ids().iter().enumerate() {
            let slot = ring.slot_of(id).unwrap();
            assert_eq!(slot, by_id[&id], "id {id} kept its slot");
            let p = &flock.positions()[3 * i..3 * i + 3];
            let texel = ring.texel(slot);
            assert_eq!(texel_position(texel), Vec3::new(p[0], p[2], p[1]));
            assert_eq!(texel[3], 1.0, "arrived at the first sample");
        }
        assert_eq!(ring.reading(&flock).filled, 2);
        // Fewer boids: the slots of those gone hold −1; more: newcomers arrive now.
        flock.set_count(200);
        step_for(&mut flock, 0.1);
        ring.sample(&flock);
        let gone = by_id
            .iter()
            .filter(|(id, _)| !flock.ids().contains(id))
            .map(|(_, &slot)| slot)
            .collect::<Vec<_>>();
        assert_eq!(gone.len(), 100);
        assert!(gone.iter().all(|&slot| ring.texel(slot)[3] == -1.0));
        flock.set_count(350);
        step_for(&mut flock, 0.1);
        ring.sample(&flock);
        let reading = ring.reading(&flock);
        assert_eq!(reading.slots, 350, "freed slots are reused before new ones");
        let newcomers: Vec<u32> = flock
            .ids()
            .iter()
            .copied()
            .filter(|id| !by_id.contains_key(id))
            .collect();
        assert_eq!(newcomers.len(), 150);
        for id in newcomers {
            assert_eq!(ring.texel(ring.slot_of(id).unwrap())[3], 4.0, "id {id}");
        }
        assert!(reading.jump > 0.0 && reading.head == 4 % SAMPLES);
    }

    #[test]
    fn a_flock_whose_time_runs_back_starts_the_trails_afresh() {
        let mut flock = Flock::new(100, Some(2));
        let mut ring = Ring::default();
        for _ in 0..40 {
            step_for(&mut flock, INTERVAL);
            if ring.due(&flock) {
                ring.sample(&flock);
            }
        }
        assert_eq!(ring.reading(&flock).filled, SAMPLES);
        let fresh = Flock::new(100, Some(2));
        assert!(ring.due(&fresh));
        ring.sample(&fresh);
        assert_eq!(ring.reading(&fresh).filled, 1);
    }

    #[test]
    fn texels_of_a_sample_lie_in_its_band() {
        assert_eq!(texel_at(0, 0, 1), (0, 0));
        assert_eq!(texel_at(WIDTH + 5, 3, 2), (5, 7));
        // 100,000 boids fit in the texture WebGL2 promises.
        let rows = 100_000usize.div_ceil(WIDTH);
        assert!(rows * SAMPLES <= 2048);
    }
}
