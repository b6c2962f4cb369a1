//! Ways to find a boid's neighbours, beside the counting-sort grid the step uses (issue 42,
//! the algorithm lab): what the texts on building boids teach, made to find exactly the same
//! neighbours so that a class can compare their cost, not their flocks.
//!
//! - [`SearchMethod::Grid`]: the step's own counting-sort uniform grid and SIMD scan
//!   (`scan`, `grid`), the default.
//! - [`SearchMethod::Naive`]: every pair, N(N − 1) distance checks a step.
//! - [`SearchMethod::Morton`]: the boids sorted by the Z-order (Morton) code of their cell
//!   (cells a perception radius wide), and each boid's neighbours found by a binary search of
//!   the code of each cell around its own ([`MortonIndex`]).
//!
//! This module only orders boids and hands out candidates; which candidates count is the
//! rules' (`scan::look_around`, `nearest`), the same for every method.

use std::ops::Range;

use glam::Vec3;

/// How the step finds each boid's neighbours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SearchMethod {
    #[default]
    Grid,
    Naive,
    Morton,
}

impl SearchMethod {
    pub const ALL: [SearchMethod; 3] = [
        SearchMethod::Grid,
        SearchMethod::Naive,
        SearchMethod::Morton,
    ];

    /// Its name, as the texts write it: "grid", "naive", "morton".
    pub fn name(self) -> &'static str {
        match self {
            SearchMethod::Grid => "grid",
            SearchMethod::Naive => "naive",
            SearchMethod::Morton => "morton",
        }
    }

    /// The method named `name` (as `name` gives it), else `None`.
    pub fn from_name(name: &str) -> Option<SearchMethod> {
        Self::ALL.into_iter().find(|method| method.name() == name)
    }
}

/// Bits of each axis in a code: 14 × 3 = 42, 16,384 cells a side, far more than any world
/// holds (the grid's budget keeps fewer than 100 a side), leaving room for the boid.
const AXIS_BITS: u32 = 14;
/// The most cells along an axis.
const MAX_DIMS: i64 = 1 << AXIS_BITS;
/// Bits of the boid in a key (code, then boid: one `u64`, sorted as the module's other
/// integer keys are, no sort of its own): up to 1,048,576 boids.
const BOID_BITS: u32 = 20;
const BOID_MASK: u64 = (1 << BOID_BITS) - 1;

/// Spreads the low 21 bits of `v` three apart (bit k to bit 3k).
fn spread(v: u64) -> u64 {
    let mut x = v & 0x1f_ffff;
    x = (x | x << 32) & 0x1f_0000_0000_ffff;
    x = (x | x << 16) & 0x1f_0000_ff00_00ff;
    x = (x | x << 8) & 0x100f_00f0_0f00_f00f;
    x = (x | x << 4) & 0x10c3_0c30_c30c_30c3;
    x = (x | x << 2) & 0x1249_2492_4924_9249;
    x
}

/// The Z-order code of cell `[x, y, z]`: the bits of the three interleaved (x lowest).
pub fn morton_code([x, y, z]: [u32; 3]) -> u64 {
    spread(u64::from(x)) | spread(u64::from(y)) << 1 | spread(u64::from(z)) << 2
}

/// Boids sorted by the Morton code of their cell; a cell's boids are one run of the order,
/// found by binary search of its code.
#[derive(Clone, Debug, Default)]
pub struct MortonIndex {
    origin: Vec3,
    /// Width of a cell along each axis (at least the radius asked for).
    width: Vec3,
    dims: [i64; 3],
    wrap: bool,
    /// Each boid's code and index (given to `build`): `code << BOID_BITS | boid`, ascending.
    keys: Vec<u64>,
    /// Scratch: the cells a search has visited (a wrapped world a few cells wide meets a cell
    /// more than once).
    visited: Vec<u64>,
}

impl MortonIndex {
    /// Sorts boids `0..count` at `position(i)` into cells at least `radius` wide tiling the
    /// cube of side `side` from `origin` (boids outside it go to the nearest cell; `flat`:
    /// one layer of cells). `wrap`: the cube is a wrapped world and cells at its opposite
    /// faces are neighbours.
    #[allow(clippy::too_many_arguments)]
    pub fn build(
        &mut self,
        count: usize,
        position: impl Fn(usize) -> Vec3,
        origin: Vec3,
        side: f32,
        radius: f32,
        flat: bool,
        wrap: bool,
    ) {
        let side = if side.is_finite() && side > 0.0 {
            side
        } else {
            1.0
        };
        let radius = if radius.is_finite() && radius > 0.0 {
            radius
        } else {
            side
        };
        let along = ((side / radius).floor() as i64).clamp(1, MAX_DIMS);
        self.dims = [along, along, if flat { 1 } else { along }];
        self.width = Vec3::new(
            side / self.dims[0] as f32,
            side / self.dims[1] as f32,
            side / self.dims[2] as f32,
        );
        self.origin = origin;
        self.wrap = wrap;
        self.keys.clear();
        for i in 0..count.min(BOID_MASK as usize + 1) {
            let cell = self.cell_of(position(i));
            self.keys.push(self.code(cell) << BOID_BITS | i as u64);
        }
        self.keys.sort_unstable();
    }

    /// The boid at place `at` of the code order (what `ranges` index).
    pub fn boid(&self, at: usize) -> usize {
        (self.keys[at] & BOID_MASK) as usize
    }

    /// The cell holding `p` (clamped into the cube).
    pub fn cell_of(&self, p: Vec3) -> [i64; 3] {
        let at = (p - self.origin) / self.width;
        let clamp = |v: f32, dims: i64| {
            if v.is_finite() {
                (v.floor() as i64).clamp(0, dims - 1)
            } else {
                0
            }
        };
        [
            clamp(at.x, self.dims[0]),
            clamp(at.y, self.dims[1]),
            clamp(at.z, self.dims[2]),
        ]
    }

    fn code(&self, cell: [i64; 3]) -> u64 {
        morton_code(cell.map(|c| c as u32))
    }

    /// The smallest width of a cell: how far a block of cells `reach` wide reaches at least.
    pub fn min_width(&self) -> f32 {
        if self.dims[2] == 1 {
            self.width.x.min(self.width.y)
        } else {
            self.width.min_element()
        }
    }

    /// Whether a block `reach` cells each way around a cell covers every cell (then a search
    /// that far has seen everyone).
    pub fn covers_all(&self, reach: i64) -> bool {
        self.dims
            .iter()
            .all(|&dims| dims == 1 || 2 * reach + 1 >= dims || (!self.wrap && reach >= dims))
    }

    /// Appends to `out` the runs of `order` (as ranges) of the cells whose Chebyshev distance
    /// from `cell` is at least `from` and at most `to` (in cells; across the faces of a
    /// wrapped world), each cell once; returns how many runs it binary-searched for. A run of
    /// neighbouring codes is one range.
    pub fn ranges(
        &mut self,
        cell: [i64; 3],
        from: i64,
        to: i64,
        out: &mut Vec<Range<usize>>,
    ) -> usize {
        let mut visited = std::mem::take(&mut self.visited);
        visited.clear();
        let reach_z = if self.dims[2] == 1 { 0 } else { to };
        for dz in -reach_z..=reach_z {
            for dy in -to..=to {
                for dx in -to..=to {
                    let ring = dx.abs().max(dy.abs()).max(dz.abs());
                    if ring < from {
                        continue;
                    }
                    let mut at = [cell[0] + dx, cell[1] + dy, cell[2] + dz];
                    let mut inside = true;
                    for (c, &dims) in at.iter_mut().zip(&self.dims) {
                        if self.wrap {
                            *c = c.rem_euclid(dims);
                        } else if *c < 0 || *c >= dims {
                            inside = false;
                        }
                    }
                    if inside {
                        visited.push(self.code(at));
                    }
                }
            }
        }
        visited.sort_unstable();
        visited.dedup();
        let searched = visited.len();
        let first = out.len();
        for &code in &visited {
            let start = self.keys.partition_point(|&key| key >> BOID_BITS < code);
            let end = start + self.keys[start..].partition_point(|&key| key >> BOID_BITS == code);
            if start == end {
                continue;
            }
            // Cells whose codes follow one another often lie end to end: one range.
            let len = out.len();
            match out.last_mut() {
                Some(last) if len > first && last.end == start => last.end = end,
                _ => out.push(start..end),
            }
        }
        self.visited = visited;
        searched
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_interleave_the_bits() {
        assert_eq!(morton_code([0, 0, 0]), 0);
        assert_eq!(morton_code([1, 0, 0]), 0b001);
        assert_eq!(morton_code([0, 1, 0]), 0b010);
        assert_eq!(morton_code([0, 0, 1]), 0b100);
        assert_eq!(morton_code([3, 0, 0]), 0b001_001);
        assert_eq!(morton_code([0b101, 0b011, 0b110]), 0b101_110_011);
        let top = (1 << AXIS_BITS) - 1;
        assert_eq!(morton_code([top, top, top]), (1u64 << (3 * AXIS_BITS)) - 1);
        const {
            assert!(
                3 * AXIS_BITS + BOID_BITS <= 64,
                "a key holds a code and a boid"
            )
        };
    }

    #[test]
    fn names_round_trip() {
        for method in SearchMethod::ALL {
            assert_eq!(SearchMethod::from_name(method.name()), Some(method));
        }
        assert_eq!(SearchMethod::from_name("octree"), None);
    }

    /// Every boid of the cells around a cell, found through the ranges: the brute-force count.
    #[test]
    fn the_ranges_hold_exactly_the_boids_of_the_cells_around() {
        for wrap in [false, true] {
            let points: Vec<Vec3> = (0..500)
                .map(|i| {
                    let f = i as f32;
                    Vec3::new((f * 7.31) % 10.0, (f * 3.17) % 10.0, (f * 5.93) % 10.0)
                })
                .collect();
            let mut index = MortonIndex::default();
            index.build(
                points.len(),
                |i| points[i],
                Vec3::ZERO,
                10.0,
                2.0,
                false,
                wrap,
            );
            for (i, &p) in points.iter().enumerate().step_by(37) {
                let cell = index.cell_of(p);
                let mut ranges = Vec::new();
                index.ranges(cell, 0, 1, &mut ranges);
                let mut found: Vec<u32> = ranges
                    .iter()
                    .flat_map(|r| r.clone().map(|at| index.boid(at) as u32))
                    .collect();
                found.sort_unstable();
                let near = |a: i64, b: i64| {
                    let d = (a - b).abs();
                    d <= 1 || (wrap && d == 5 - 1)
                };
                let expected: Vec<u32> = (0..points.len() as u32)
                    .filter(|&j| {
                        let other = index.cell_of(points[j as usize]);
                        (0..3).all(|k| near(cell[k], other[k]))
                    })
                    .collect();
                assert_eq!(found, expected, "boid {i}, wrap {wrap}");
            }
        }
    }
}
