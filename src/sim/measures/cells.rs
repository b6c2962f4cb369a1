//! The grid the measures search: sub-cells so small that any two boids of one cell lie within
//! the linking radius (side r/√3, r/√2 in a flat world), so a cell's boids are one group
//! without a test, and a boid's nearest neighbour is usually found in the 3×3×3 cells
//! around it. Boids are counting-sorted by cell, their positions copied in that order.

use std::ops::Range;

use glam::Vec3;

use super::Space;

/// Cells are shrunk, and reaches widened, by this fraction: a boid put in the next cell by
/// one ulp of rounding, or a distance a few ulps off, never makes a shortcut wrong.
pub(super) const MARGIN: f32 = 1e-3;
/// At most this many cells per boid (and 64 for a handful): a big world with few boids
/// gets coarser cells (no longer "small", the groups then test pairs inside a cell too)
/// rather than millions of empty ones.
const CELLS_PER_BOID: usize = 8;

pub(super) struct Cells {
    pub space: Space,
    pub radius: f32,
    /// Every two boids in one cell lie within `radius` (the cell's diagonal is shorter).
    pub small: bool,
    pub dims: [usize; 3],
    side: [f32; 3],
    /// Where the grid starts (the boids' lowest corner within walls, 0 when wrapped).
    lo: Vec3,
    /// Cells each way along each axis that the searches take, (below, above): enough to
    /// hold every boid within `radius`, or along a wrapped axis of few cells each cell
    /// once, as near as it comes either way (−(d−1)/2 to d/2).
    pub span: [(isize, isize); 3],
    /// Boids in cell order (slot → boid), their positions, and where each cell's slots
    /// start (`cells + 1` entries).
    pub order: Vec<u32>,
    pub points: Vec<Vec3>,
    pub start: Vec<u32>,
    /// Each boid's cell.
    pub cell_of: Vec<u32>,
}

/// Where the boids are, gathered boid by boid: their lowest and highest corner, and
/// whether every one lies at z = 0 (a flat world). Also what the step's grid tiles under an
/// open sky (`Flock::sort_into_cells`).
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    lo: Vec3,
    hi: Vec3,
    flat: bool,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            lo: Vec3::splat(f32::INFINITY),
            hi: Vec3::splat(f32::NEG_INFINITY),
            flat: true,
        }
    }
}

impl Bounds {
    #[inline]
    pub fn add(&mut self, p: Vec3) {
        (self.lo, self.hi) = (self.lo.min(p), self.hi.max(p));
        self.flat &= p.z == 0.0;
    }

    /// The bounds of the boids at `positions` (xyz per boid).
    pub fn of(positions: &[f32]) -> Self {
        let mut bounds = Bounds::default();
        for p in positions.chunks_exact(3) {
            bounds.add(Vec3::from_slice(p));
        }
        bounds
    }

    /// The lowest and the highest corner (infinite, lowest above highest, for no boid).
    pub fn corners(&self) -> (Vec3, Vec3) {
        (self.lo, self.hi)
    }
}

impl Cells {
    /// The grid's shape for `n` boids within `bounds`, no boid in it yet. Then, a range at a
    /// time so that a survey can spread it over frames: `count` every boid, `sum` every
    /// cell, and `fill` every boid, each in order (`fill` from the last boid down).
    pub fn plan(bounds: Bounds, n: usize, space: Space, radius: f32) -> Self {
        let Bounds {
            mut lo,
            mut hi,
            flat,
        } = bounds;
        let axes = if flat { 2 } else { 3 };
        if n == 0 || space.wrap {
            (lo, hi) = (Vec3::ZERO, Vec3::splat(space.world));
        }
        if flat {
            (lo.z, hi.z) = (0.0, 0.0);
        }
        let extent = (hi - lo).max(Vec3::ZERO).to_array();
        let wanted = radius / (axes as f32).sqrt() * (1.0 - MARGIN);
        let mut dims = extent.map(|e| (e / wanted.max(1e-6)).ceil().clamp(1.0, 1e6) as usize);
        let cap = (CELLS_PER_BOID * n).max(64);
        let total: usize = dims.iter().product();
        if total > cap {
            let shrink = (cap as f32 / total as f32).powf(1.0 / axes as f32);
            dims = dims.map(|d| ((d as f32 * shrink).floor() as usize).max(1));
        }
        let side = [0, 1, 2].map(|a| extent[a] / dims[a] as f32);
        let diagonal2: f32 = side.iter().map(|s| s * s).sum();
        let small = diagonal2.sqrt() <= radius * (1.0 - MARGIN);
        let reach = [0, 1, 2].map(|a| {
            if side[a] > 0.0 {
                ((radius * (1.0 + MARGIN) / side[a]).ceil() as usize).min(dims[a])
            } else {
                0
            }
        });
        Cells {
            space,
            radius,
            small,
            dims,
            side,
            lo,
            span: [0, 1, 2].map(|a| {
                let r = reach[a].min(dims[a] - 1);
                if space.wrap {
                    (
                        r.min((dims[a] - 1) / 2) as isize,
                        r.min(dims[a] / 2) as isize,
                    )
                } else {
                    (r as isize, r as isize)
                }
            }),
            order: vec![0; n],
            points: vec![Vec3::ZERO; n],
            // The last entry is where the last cell ends: every boid.
            start: {
                let cells = dims.iter().product::<usize>();
                let mut start = vec![0; cells + 1];
                start[cells] = n as u32;
                start
            },
            cell_of: vec![0; n],
        }
    }

    /// Cell `c`'s place along each axis.
    #[inline]
    pub fn coords(&self, c: usize) -> [usize; 3] {
        let [dx, dy, _] = self.dims;
        [c % dx, c / dx % dy, c / (dx * dy)]
    }

    /// The least squared distance between boids of cells `steps` apart along one axis.
    #[inline]
    pub fn gap2(&self, axis: usize, steps: isize) -> f32 {
        let g = steps.unsigned_abs().saturating_sub(1) as f32 * self.side[axis] * (1.0 - MARGIN);
        g * g
    }

    /// Cell `v` along `axis` (`v` at most half a world outside the grid, as `span` keeps
    /// offsets): wrapped into the grid, or `None` beyond a wall. Offsets stay within half a
    /// world, so one add or subtract wraps them (`rem_euclid` divides, twice a row, and the
    /// rows are most of the groups' work).
    #[inline]
    pub fn along(&self, axis: usize, v: isize) -> Option<usize> {
        let n = self.dims[axis] as isize;
        if (0..n).contains(&v) {
            Some(v as usize)
        } else if !self.space.wrap {
            None
        } else if v < 0 {
            Some((v + n) as usize)
        } else {
            Some((v - n) as usize)
        }
    }

    /// Calls `visit(a, b)` for the cells `lo..=hi` along x (at most half a world outside
    /// the grid) as runs `a..=b` of the row: one, two where it wraps past an edge, or what
    /// is left inside walls (none if nothing is).
    #[inline]
    pub fn x_runs(&self, lo: isize, hi: isize, mut visit: impl FnMut(usize, usize)) {
        let n = self.dims[0] as isize;
        if !self.space.wrap {
            let (lo, hi) = (lo.max(0), hi.min(n - 1));
            if lo <= hi {
                visit(lo as usize, hi as usize);
            }
        } else if lo > hi {
        } else if lo < 0 {
            visit((lo + n) as usize, n as usize - 1);
            if hi >= 0 {
                visit(0, hi as usize);
            }
        } else if hi >= n {
            if lo < n {
                visit(lo as usize, n as usize - 1);
            }
            visit(0, (hi - n) as usize);
        } else {
            visit(lo as usize, hi as usize);
        }
    }

    /// Calls `visit(slots)` for the boids of the cells `x_lo..=x_hi` along x from cell
    /// `at`, in the row `dy`, `dz` away (nothing beyond a wall; one or two runs of slots,
    /// the cells of a row being neighbours in slot order). Offsets stay within `span`.
    #[inline]
    pub fn row(
        &self,
        at: [usize; 3],
        [dy, dz]: [isize; 2],
        [x_lo, x_hi]: [isize; 2],
        mut visit: impl FnMut(std::ops::Range<usize>),
    ) {
        let (Some(y), Some(z)) = (
            self.along(1, at[1] as isize + dy),
            self.along(2, at[2] as isize + dz),
        ) else {
            return;
        };
        let base = (z * self.dims[1] + y) * self.dims[0];
        let x = at[0] as isize;
        self.x_runs(x + x_lo, x + x_hi, |a, b| {
            visit(self.start[base + a] as usize..self.start[base + b + 1] as usize)
        });
    }

    /// Boids `boids` into their cells: each one's cell, and how many each cell holds (kept
    /// in `start` until `sum`).
    pub fn count(&mut self, positions: &[f32], boids: Range<usize>) {
        let inv = self.side.map(|s| if s > 0.0 { 1.0 / s } else { 0.0 });
        let index = |p: f32, a: usize| {
            (((p - self.lo[a]) * inv[a]).max(0.0) as usize).min(self.dims[a] - 1)
        };
        for i in boids {
            let p = &positions[3 * i..3 * i + 3];
            let cell =
                (index(p[2], 2) * self.dims[1] + index(p[1], 1)) * self.dims[0] + index(p[0], 0);
            self.cell_of[i] = cell as u32;
            self.start[cell] += 1;
        }
    }

    /// Cells `cells` (in order, every boid counted): each cell's count becomes where it ends.
    pub fn sum(&mut self, cells: Range<usize>) {
        for c in cells {
            if c > 0 {
                self.start[c] += self.start[c - 1];
            }
        }
    }

    /// Boids `boids` (from the last boid down, every cell summed) into their slots: each
    /// cell's end counts down to its start, so a cell's boids keep their order.
    pub fn fill(&mut self, positions: &[f32], boids: Range<usize>) {
        for i in boids.rev() {
            let c = self.cell_of[i] as usize;
            self.start[c] -= 1;
            let slot = self.start[c] as usize;
            self.order[slot] = i as u32;
            self.points[slot] = Vec3::from_slice(&positions[3 * i..3 * i + 3]);
        }
    }

    pub fn cells(&self) -> usize {
        self.start.len() - 1
    }

    /// The slots of cell `c`.
    #[inline]
    pub fn slots(&self, c: usize) -> std::ops::Range<usize> {
        self.start[c] as usize..self.start[c + 1] as usize
    }

    /// `to − from` as the measures see it (across the nearest edge when the world wraps).
    #[inline]
    pub fn offset(&self, from: Vec3, to: Vec3) -> Vec3 {
        self.space.offset(from, to)
    }
}
