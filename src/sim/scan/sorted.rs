//! The old state in grid-cell order, structure of arrays, and the ranges gathered around a
//! cell (slab by slab up a column, or all at once in small worlds) for the scan.

use std::ops::Range;

use glam::{Vec3, Vec4};

use super::spans::{for_each_slab_span, for_each_span, interior_slab};
use crate::sim::grid::Grid;
use crate::sim::lanes::{LANES, WIDE};

/// The old state in cell order, one array per component, padded with far-away boids so a
/// scan may read a whole group of lanes past the end of a range (and `glide_all` two).
#[derive(Clone, Debug, Default)]
pub struct Sorted {
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    pub z: Vec<f32>,
    pub vx: Vec<f32>,
    pub vy: Vec<f32>,
    pub vz: Vec<f32>,
    /// Species of each boid as a float, so the scan compares four at once. Read only when
    /// there is more than one species (else empty, or stale padding in a gathered range).
    pub species: Vec<f32>,
    /// Boids held: the arrays may be longer (see `gather_around`).
    held: usize,
    /// Each boid's index in the unsorted arrays (filled by `gather` only): boids at one
    /// point are told apart by it, as the one-at-a-time reference tells them apart.
    pub label: Vec<u32>,
}

impl Sorted {
    /// Fills the arrays from xyz-per-boid `positions`/`velocities` in the order `order`.
    pub fn gather(&mut self, order: &[u32], positions: &[f32], velocities: &[f32]) {
        // `glide_all` reads `WIDE` boids at a time, the scan a group of lanes.
        let len = order.len() + WIDE.max(LANES);
        let Sorted {
            x,
            y,
            z,
            vx,
            vy,
            vz,
            ..
        } = self;
        for column in [&mut *x, &mut *y, &mut *z, &mut *vx, &mut *vy, &mut *vz] {
            // Every slot but the padding is written below: no need to clear them first.
            column.resize(len, f32::MAX);
            // Padding: far outside any world, so never within anyone's radius.
            column[order.len()..].fill(f32::MAX);
        }
        // One pass, each boid's six values together: they sit side by side in the input.
        for (slot, &boid) in order.iter().enumerate() {
            let at = 3 * boid as usize;
            let (p, v) = (&positions[at..at + 3], &velocities[at..at + 3]);
            (x[slot], y[slot], z[slot]) = (p[0], p[1], p[2]);
            (vx[slot], vy[slot], vz[slot]) = (v[0], v[1], v[2]);
        }
        self.held = order.len();
        self.label.clear();
        self.label.extend_from_slice(order);
    }

    /// Fills the species column from per-boid `species` in the order `order`.
    pub fn gather_species(&mut self, order: &[u32], species: &[u8]) {
        self.species.clear();
        self.species
            .extend(order.iter().map(|&i| f32::from(species[i as usize])));
        // Padding lanes are masked off by position; any species will do.
        self.species.extend([0.0; LANES]);
    }

    /// Fills the arrays with the boids around `cell` in `from` (the spans of
    /// `neighbour_spans`, one after the other), each moved by its span's shift: the
    /// neighbourhood of a cell as one contiguous range with no edges to cross, which all
    /// the boids of the cell then scan.
    pub fn gather_around(
        &mut self,
        from: &Sorted,
        grid: &Grid,
        cell: [usize; 3],
        (wrap, world): (bool, f32),
        species: bool,
    ) {
        let mut at = 0;
        for_each_span(grid, cell, wrap, world, |slots, shift| {
            self.copy_groups(from, slots.clone(), at, shift, species);
            at += slots.len();
        });
        self.pad(at);
    }

    /// Appends, at `at`, the boids of the slab of cells around column `[x, _, z]` at row
    /// `y` (which may lie one past an edge): the rows `y` of the layers around `z`, each
    /// the cells around `x`, moved by the shifts that bring them next to that column.
    /// Returns where the slab ends. A column of cells along y shares slabs: each cell's
    /// neighbourhood is the slabs a cell's width below and above it (`y − 1 ..= y + 1` with
    /// one row to a cell), so walking up the column appends one slab per cell instead of
    /// gathering every row of the neighbourhood.
    #[allow(clippy::too_many_arguments)]
    pub fn append_slab(
        &mut self,
        from: &Sorted,
        grid: &Grid,
        [x, z]: [usize; 2],
        y: isize,
        (wrap, world): (bool, f32),
        species: bool,
        mut at: usize,
    ) -> usize {
        if let Some(runs) = interior_slab(grid, [x, z], y) {
            // The common case, without the edge cases' bookkeeping.
            for slots in runs {
                self.copy_groups(from, slots.clone(), at, Vec3::ZERO, species);
                at += slots.len();
            }
            return at;
        }
        for_each_slab_span(grid, [x, z], y, wrap, world, |slots, shift| {
            self.copy_groups(from, slots.clone(), at, shift, species);
            at += slots.len();
        });
        at
    }

    /// Moves the boids in `range` to the front (the species too, with `species`).
    pub fn move_to_front(&mut self, range: Range<usize>, species: bool) {
        let [x, y, z, vx, vy, vz, kinds] = self.columns_mut();
        for column in [x, y, z, vx, vy, vz] {
            column.copy_within(range.clone(), 0);
        }
        if species {
            kinds.copy_within(range, 0);
        }
    }

    /// Every column: x, y, z, vx, vy, vz and species.
    fn columns_mut(&mut self) -> [&mut Vec<f32>; 7] {
        [
            &mut self.x,
            &mut self.y,
            &mut self.z,
            &mut self.vx,
            &mut self.vy,
            &mut self.vz,
            &mut self.species,
        ]
    }

    /// Marks the first `held` slots as the boids held, and pads them with far-away boids
    /// (never within anyone's radius) for the groups of lanes that run past the end.
    pub fn pad(&mut self, held: usize) {
        if self.x.len() < held + LANES {
            self.grow(held + LANES);
        }
        self.held = held;
        for column in [&mut self.x, &mut self.y, &mut self.z] {
            column[held..held + LANES].fill(f32::MAX);
        }
    }

    /// Makes every column at least `len` long (slots past what is held are stale).
    fn grow(&mut self, len: usize) {
        for column in self.columns_mut() {
            if column.len() < len {
                column.resize(len, f32::MAX);
            }
        }
    }

    /// Copies the boids in `slots` of `from` to `at` on, moved by `shift`. In whole groups
    /// of lanes, past the span's end into the next cells (or the padding) of `from`: the
    /// excess lands where the next span or the padding goes, and is overwritten. Most
    /// spans hold a few boids, and a copy per column, or a tail loop, cost more than this.
    #[inline(always)]
    fn copy_groups(
        &mut self,
        from: &Sorted,
        slots: Range<usize>,
        at: usize,
        shift: Vec3,
        species: bool,
    ) {
        let width = slots.len().next_multiple_of(LANES);
        if self.x.len() < at + width + LANES {
            // Only ever grows.
            self.grow(2 * (at + width + LANES));
        }
        let (to, from_slots) = (at..at + width, slots.start..slots.start + width);
        // Positions, then velocities: six columns at a time stay in registers in V8,
        // twelve did not.
        let [x, y, z] =
            [&from.x, &from.y, &from.z].map(|c| c[from_slots.clone()].chunks_exact(LANES));
        let to_x = self.x[to.clone()].chunks_exact_mut(LANES);
        let to_y = self.y[to.clone()].chunks_exact_mut(LANES);
        let to_z = self.z[to.clone()].chunks_exact_mut(LANES);
        let (sx, sy, sz) = (
            Vec4::splat(shift.x),
            Vec4::splat(shift.y),
            Vec4::splat(shift.z),
        );
        for (((x, y), z), ((tx, ty), tz)) in x.zip(y).zip(z).zip(to_x.zip(to_y).zip(to_z)) {
            (Vec4::from_slice(x) + sx).write_to_slice(tx);
            (Vec4::from_slice(y) + sy).write_to_slice(ty);
            (Vec4::from_slice(z) + sz).write_to_slice(tz);
        }
        let [vx, vy, vz] =
            [&from.vx, &from.vy, &from.vz].map(|c| c[from_slots.clone()].chunks_exact(LANES));
        let to_vx = self.vx[to.clone()].chunks_exact_mut(LANES);
        let to_vy = self.vy[to.clone()].chunks_exact_mut(LANES);
        let to_vz = self.vz[to].chunks_exact_mut(LANES);
        for (((vx, vy), vz), ((tvx, tvy), tvz)) in
            vx.zip(vy).zip(vz).zip(to_vx.zip(to_vy).zip(to_vz))
        {
            // As whole vectors: a four-float `copy_from_slice` may become a bulk
            // memory copy in wasm.
            Vec4::from_slice(vx).write_to_slice(tvx);
            Vec4::from_slice(vy).write_to_slice(tvy);
            Vec4::from_slice(vz).write_to_slice(tvz);
        }
        if species {
            let (to, from_slots) = (at..at + width, slots.start..slots.start + width);
            self.species[to].copy_from_slice(&from.species[from_slots]);
        }
    }

    /// Boids held, not counting the padding.
    pub fn count(&self) -> usize {
        self.held
    }

    pub fn position(&self, i: usize) -> Vec3 {
        Vec3::new(self.x[i], self.y[i], self.z[i])
    }

    pub fn velocity(&self, i: usize) -> Vec3 {
        Vec3::new(self.vx[i], self.vy[i], self.vz[i])
    }
}
