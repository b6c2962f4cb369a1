//! The k nearest neighbours over the same counting-sort grid ("topological" interaction:
//! starlings heed about seven nearest neighbours whatever the density, Ballerini et al. 2008).
//!
//! Rings of cells around a point are scanned outward, nearest first, keeping the k nearest
//! seen so far. After each ring the search knows a radius inside which it has seen every
//! boid (the distance from the point to the faces of the block of cells scanned); once the
//! k-th nearest lies inside that radius no unseen boid can be nearer, and it stops. In a
//! flock of roughly even density that takes one or two rings, whatever the count: O(1) per
//! boid, O(N) a step. Only a boid with fewer than k others anywhere near scans further.

use glam::Vec3;

use super::grid::Grid;
use super::rules::{self, Neighbourhood, Sight};
use super::scan::{Sorted, Span, View};

/// The most neighbours a boid can heed (the top of the `nearestK` range).
pub const MAX_K: usize = 20;

/// The k nearest found so far, nearest first: a small sorted array, no allocation. Boids
/// at exactly the same distance are ordered by their labels (their indices in the flock's
/// arrays), so which of them makes the k-th place does not depend on the order the cells
/// are searched in: the brute-force reference orders them the same way.
#[derive(Clone, Copy, Debug)]
pub struct Nearest {
    k: usize,
    len: usize,
    slot: [u32; MAX_K],
    label: [u32; MAX_K],
    distance_squared: [f32; MAX_K],
    offset: [Vec3; MAX_K],
}

impl Nearest {
    /// Room for the `k` nearest (1 to `MAX_K`).
    pub fn new(k: usize) -> Self {
        Nearest {
            k: k.clamp(1, MAX_K),
            len: 0,
            slot: [0; MAX_K],
            label: [0; MAX_K],
            distance_squared: [0.0; MAX_K],
            offset: [Vec3::ZERO; MAX_K],
        }
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Squared distance a candidate must beat to get in.
    fn bar(&self) -> f32 {
        if self.len < self.k {
            f32::INFINITY
        } else {
            self.distance_squared[self.len - 1]
        }
    }

    /// Keeps the candidate (sorted slot `slot`, labelled `label`) if it is among the k
    /// nearest so far; at the same distance, the lower label is the nearer.
    fn offer(&mut self, slot: usize, label: u32, distance_squared: f32, offset: Vec3) {
        let nearer = |found: &Self, at: usize| {
            (distance_squared, label) < (found.distance_squared[at], found.label[at])
        };
        if self.len == self.k && !nearer(self, self.k - 1) {
            return;
        }
        let mut at = if self.len < self.k {
            self.len += 1;
            self.len - 1
        } else {
            self.k - 1
        };
        while at > 0 && nearer(self, at - 1) {
            self.slot[at] = self.slot[at - 1];
            self.label[at] = self.label[at - 1];
            self.distance_squared[at] = self.distance_squared[at - 1];
            self.offset[at] = self.offset[at - 1];
            at -= 1;
        }
        self.slot[at] = slot as u32;
        self.label[at] = label;
        self.distance_squared[at] = distance_squared;
        self.offset[at] = offset;
    }

    /// (sorted slot, squared distance, offset from the seeker) of each, nearest first.
    pub fn iter(&self) -> impl Iterator<Item = (usize, f32, Vec3)> + '_ {
        (0..self.len).map(|n| {
            (
                self.slot[n] as usize,
                self.distance_squared[n],
                self.offset[n],
            )
        })
    }
}

/// Who is looking, from where, and which way.
#[derive(Clone, Copy, Debug)]
pub struct Seeker {
    pub point: Vec3,
    /// A sorted slot never to count (the boid itself), or `None`.
    pub exclude: Option<usize>,
    /// Its field of view (`None`: all round).
    pub sight: Option<Sight>,
}

/// The grid and old state a search reads.
pub struct Search<'a> {
    pub grid: &'a Grid,
    pub sorted: &'a Sorted,
    pub view: &'a View,
    pub wrap: bool,
    /// Boids in the sorted arrays (they carry padding past the end).
    pub count: usize,
}

impl Search<'_> {
    /// Fills `found` with the seeker's k nearest visible boids (nearest image across wrapped
    /// edges). Returns how many candidates it examined: the cost, for tests and statistics.
    pub fn nearest(&self, seeker: &Seeker, found: &mut Nearest) -> usize {
        found.clear();
        let grid = self.grid;
        let (n, rows) = (grid.dims() as isize, grid.rows() as isize);
        let p = seeker.point;
        let cell = grid.cell_coords(p.x, p.y, p.z).map(|c| c as isize);
        let mut examined = 0;
        for ring in 0..n {
            // Wrapped, a block of cells wider than the world would meet some cells twice
            // (as different images): past that, everyone is looked at instead.
            if self.wrap && (2 * ring + 1 > n || 2 * ring * self.reach() + 1 > rows) {
                break;
            }
            examined += self.ring(ring, cell, seeker, found);
            if self.certain(ring, cell, p, found) {
                return examined;
            }
        }
        found.clear();
        examined + self.everyone(seeker, found)
    }

    /// Looks for the k nearest in `spans` (the block of cells around the seeker's, as the
    /// radius scan builds it once per cell), and only if that leaves them uncertain, in
    /// growing rings. The step's path: the spans are shared by every boid of a cell.
    pub fn nearest_around(&self, seeker: &Seeker, spans: &[Span], found: &mut Nearest) -> usize {
        found.clear();
        let p = seeker.point;
        let cell = self.grid.cell_coords(p.x, p.y, p.z).map(|c| c as isize);
        let mut examined = 0;
        for span in spans {
            examined += span.slots.len();
            self.consider(span.slots.clone(), span.shift, seeker, found);
        }
        if self.certain(1, cell, p, found) {
            return examined;
        }
        examined + self.nearest(seeker, found)
    }

    /// Whether, after scanning every cell up to `ring` cells from `cell`, the k nearest of
    /// `p` are certain: every boid nearer than the distance to the nearest face of the block
    /// of cells scanned has been seen (a face at the edge of a walled world has nothing
    /// beyond it), so if the k-th nearest is inside that distance, none can be nearer.
    fn certain(&self, ring: isize, cell: [isize; 3], p: Vec3, found: &Nearest) -> bool {
        let grid = self.grid;
        let width = grid.cell_width();
        let origin = grid.origin();
        let rows_per_cell = self.reach();
        // Per axis: cells along it, their width, and the block's reach in them.
        let axes = [
            (grid.dims() as isize, width, ring),
            (
                grid.rows() as isize,
                width / rows_per_cell as f32,
                ring * rows_per_cell,
            ),
            (grid.layers() as isize, width, ring),
        ];
        let axes = &axes[..if grid.is_flat() { 2 } else { 3 }];
        let mut certain = f32::INFINITY;
        for (axis, &(n, width, reach)) in axes.iter().enumerate() {
            let low = origin[axis] + (cell[axis] - reach) as f32 * width;
            let high = origin[axis] + (cell[axis] + reach + 1) as f32 * width;
            if self.wrap || cell[axis] - reach > 0 {
                certain = certain.min(p[axis] - low);
            }
            if self.wrap || cell[axis] + reach < n - 1 {
                certain = certain.min(high - p[axis]);
            }
        }
        if certain == f32::INFINITY {
            return true; // a walled world, all of it scanned
        }
        // A little slack for round-off between cell indices and face positions.
        let certain = (certain - 1e-4 * width).max(0.0);
        found.len() == found.k && found.bar() <= certain * certain
    }

    /// Rows along y to a cell's width: how many rows a ring reaches each way along y.
    fn reach(&self) -> isize {
        self.grid.rows_per_cell() as isize
    }

    /// Scans the cells exactly `ring` cells away from `cell` (the shell of a cube; in a flat
    /// world, of a square): along y, `ring` cells' widths of rows.
    fn ring(&self, ring: isize, cell: [isize; 3], seeker: &Seeker, found: &mut Nearest) -> usize {
        let grid = self.grid;
        let world = self.view.world;
        let z_ring = if grid.is_flat() { 0 } else { ring };
        let (y_ring, y_inner) = (ring * self.reach(), (ring - 1) * self.reach());
        let [cx, cy, cz] = cell;
        let wrap_cell = |c: isize, cells: usize| Grid::wrap_cell(c, cells, self.wrap, world);
        let mut examined = 0;
        for dz in -z_ring..=z_ring {
            let Some((z, shift_z)) = wrap_cell(cz + dz, grid.layers()) else {
                continue;
            };
            for dy in -y_ring..=y_ring {
                let Some((y, shift_y)) = wrap_cell(cy + dy, grid.rows()) else {
                    continue;
                };
                let row = grid.cell_index([0, y, z]);
                let shift = Vec3::new(0.0, shift_y, shift_z);
                // Outside the block of the ring before: the whole row of the shell.
                if dz.abs() == ring || dy.abs() > y_inner {
                    examined += self.row(row, cx - ring, cx + ring, shift, seeker, found);
                } else {
                    examined += self.row(row, cx - ring, cx - ring, shift, seeker, found);
                    examined += self.row(row, cx + ring, cx + ring, shift, seeker, found);
                }
            }
        }
        examined
    }

    /// Scans cells `first..=last` of a row along x (indices may run past the edges).
    fn row(
        &self,
        row: usize,
        first: isize,
        last: isize,
        shift: Vec3,
        seeker: &Seeker,
        found: &mut Nearest,
    ) -> usize {
        let n = self.grid.dims() as isize;
        let world = self.view.world;
        let mut scan = |first: isize, last: isize, shift: Vec3| {
            let slots = self.grid.slots(row + first as usize, row + last as usize);
            let examined = slots.len();
            self.consider(slots, shift, seeker, found);
            examined
        };
        if !self.wrap {
            let (first, last) = (first.max(0), last.min(n - 1));
            return if first <= last {
                scan(first, last, shift)
            } else {
                0
            };
        }
        if first < 0 && last < 0 {
            scan(first + n, last + n, shift - Vec3::X * world)
        } else if first < 0 {
            scan(0, last, shift) + scan(first + n, n - 1, shift - Vec3::X * world)
        } else if last >= n && first >= n {
            scan(first - n, last - n, shift + Vec3::X * world)
        } else if last >= n {
            scan(first, n - 1, shift) + scan(0, last - n, shift + Vec3::X * world)
        } else {
            scan(first, last, shift)
        }
    }

    /// Offers every boid in `slots`, moved by `shift`, to `found`.
    pub fn consider(
        &self,
        slots: std::ops::Range<usize>,
        shift: Vec3,
        seeker: &Seeker,
        found: &mut Nearest,
    ) {
        // The offset as `nearest_image(to - from)` computes it, (x - p) ± world, not as
        // x - (p ∓ world): the same bits as the brute-force reference, so two boids at the same
        // distance tie there too (a one-ulp difference once made a different k-th nearest).
        let point = seeker.point;
        let sorted = self.sorted;
        let columns = [&sorted.x, &sorted.y, &sorted.z].map(|c| &c[slots.clone()]);
        let [xs, ys, zs] = columns;
        // Most candidates are farther than the k-th nearest so far: one compare, no more
        // (one at the same distance may still win on its label).
        let mut bar = found.bar();
        for (n, ((&x, &y), &z)) in xs.iter().zip(ys).zip(zs).enumerate() {
            let offset = (Vec3::new(x, y, z) - point) + shift;
            let distance_squared = offset.length_squared();
            if distance_squared > bar {
                continue;
            }
            self.offer(slots.start + n, offset, distance_squared, seeker, found);
            bar = found.bar();
        }
    }

    fn offer(
        &self,
        j: usize,
        offset: Vec3,
        distance_squared: f32,
        seeker: &Seeker,
        found: &mut Nearest,
    ) {
        if distance_squared > found.bar() || seeker.exclude == Some(j) {
            return;
        }
        if let Some(sight) = &seeker.sight {
            if !sight.sees(offset, distance_squared) {
                return;
            }
        }
        found.offer(j, self.sorted.label[j], distance_squared, offset);
    }

    /// Offers sorted boid `j` (at its nearest image when the world wraps): the search by
    /// another method than the grid's (`flock/search.rs`).
    #[cfg(any(not(target_arch = "wasm32"), feature = "lab"))]
    pub fn offer_slot(&self, j: usize, seeker: &Seeker, found: &mut Nearest) {
        let to = self.sorted.position(j);
        let offset = if self.wrap {
            self.view.offset_between::<true>(seeker.point, to)
        } else {
            to - seeker.point
        };
        self.offer(j, offset, offset.length_squared(), seeker, found);
    }

    /// Offers every boid (`offer_slot`): the naive search. Returns the boids examined.
    #[cfg(any(not(target_arch = "wasm32"), feature = "lab"))]
    pub fn offer_everyone(&self, seeker: &Seeker, found: &mut Nearest) -> usize {
        for j in 0..self.count {
            self.offer_slot(j, seeker, found);
        }
        self.count
    }

    /// Every boid, at its nearest image: for wrapped worlds only a few cells wide.
    fn everyone(&self, seeker: &Seeker, found: &mut Nearest) -> usize {
        for j in 0..self.count {
            let offset = self
                .view
                .offset_between::<true>(seeker.point, self.sorted.position(j));
            self.offer(j, offset, offset.length_squared(), seeker, found);
        }
        self.count
    }
}

/// What boid `i` makes of its nearest neighbours `found`: the same sums the radius scan
/// makes of everyone within the perception radius. `same_kind(j)`: whether `j` is of `i`'s
/// species (alignment and cohesion heed only those; separation heeds everyone).
/// `label(j)`: the name boids at one point are told apart by (`rules::repulsion`).
pub fn neighbourhood(
    i: usize,
    found: &Nearest,
    velocity: impl Fn(usize) -> Vec3,
    same_kind: impl Fn(usize) -> bool,
    label: impl Fn(usize) -> usize,
    separation_squared: f32,
) -> Neighbourhood {
    let own_velocity = velocity(i);
    let mut seen = Neighbourhood::default();
    for (j, distance_squared, offset) in found.iter() {
        seen.count += 1;
        let v = velocity(j);
        if same_kind(j) {
            seen.sum_velocity += v;
            seen.sum_offset += offset;
        }
        if distance_squared < separation_squared {
            let drift = own_velocity - v;
            seen.separation +=
                rules::repulsion(offset, distance_squared, drift, label(i), label(j));
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_keeps_the_k_smallest_in_order() {
        let mut found = Nearest::new(3);
        for (slot, d) in [(0, 5.0), (1, 1.0), (2, 4.0), (3, 9.0), (4, 2.0), (5, 0.5)] {
            found.offer(slot, slot as u32, d, Vec3::ZERO);
        }
        let kept: Vec<_> = found.iter().map(|(slot, d, _)| (slot, d)).collect();
        assert_eq!(kept, vec![(5, 0.5), (1, 1.0), (4, 2.0)]);
        assert_eq!(found.bar(), 2.0);
        let mut one = Nearest::new(1);
        one.offer(7, 7, 3.0, Vec3::X);
        one.offer(8, 8, 3.0, Vec3::Y);
        assert_eq!(one.iter().next().map(|(s, _, _)| s), Some(7));
        // At the same distance the lower label wins, whichever came first.
        one.offer(9, 2, 3.0, Vec3::Z);
        assert_eq!(
            one.iter().next().map(|(s, _, _)| s),
            Some(9),
            "a tie goes to the lower label"
        );
        let mut three = Nearest::new(3);
        for (slot, label) in [(0, 50), (1, 40), (2, 30), (3, 20), (4, 10)] {
            three.offer(slot, label, 1.0, Vec3::ZERO);
        }
        let kept: Vec<_> = three.iter().map(|(slot, _, _)| slot).collect();
        assert_eq!(kept, vec![4, 3, 2], "the three lowest labels, in order");
        assert_eq!(Nearest::new(99).k, MAX_K);
        assert_eq!(Nearest::new(0).k, 1);
    }

    /// The rings find exactly the k nearest that checking every boid finds, in grids with one,
    /// two or three rows along y to a cell's width (the scan's grid has `ROWS_PER_CELL`, and
    /// the hawks look for their nearest boid in it), walled and wrapped, 3D and flat.
    #[test]
    fn rings_find_the_k_nearest_in_any_rows_per_cell() {
        use crate::sim::rng::Rng;
        use crate::sim::settings::Settings;
        let world = 40.0;
        let mut rng = Rng::new(5);
        for rows_per_cell in 1..=3 {
            for (wrap, flat) in [(false, false), (true, false), (false, true), (true, true)] {
                let count = 300;
                let positions: Vec<f32> = (0..3 * count)
                    .map(|k| {
                        if flat && k % 3 == 2 {
                            0.0
                        } else {
                            rng.unit() * world
                        }
                    })
                    .collect();
                let velocities = vec![0.0; 3 * count];
                let mut grid = Grid::default();
                grid.configure([0.0; 3], world, 4.0, count, flat, rows_per_cell);
                grid.sort(&positions);
                let mut sorted = Sorted::default();
                sorted.gather(grid.order(), &positions, &velocities);
                let settings = Settings {
                    wrap,
                    flat,
                    field_of_view: 360.0,
                    ..Settings::walled()
                };
                let view = View::new(&settings, world);
                let search = Search {
                    grid: &grid,
                    sorted: &sorted,
                    view: &view,
                    wrap,
                    count,
                };
                for k in [1, 7] {
                    let (mut rings, mut everyone) = (Nearest::new(k), Nearest::new(k));
                    for _ in 0..60 {
                        let z = if flat { 0.0 } else { rng.unit() * world };
                        let seeker = Seeker {
                            point: Vec3::new(rng.unit() * world, rng.unit() * world, z),
                            exclude: None,
                            sight: None,
                        };
                        search.nearest(&seeker, &mut rings);
                        everyone.clear();
                        for j in 0..count {
                            let offset = crate::sim::edges::nearest_image(
                                sorted.position(j) - seeker.point,
                                world,
                                wrap,
                            );
                            everyone.offer(j, sorted.label[j], offset.length_squared(), offset);
                        }
                        let slots = |found: &Nearest| -> Vec<usize> {
                            found.iter().map(|(slot, _, _)| slot).collect()
                        };
                        assert_eq!(
                            slots(&rings),
                            slots(&everyone),
                            "rows {rows_per_cell}, wrap {wrap}, flat {flat}, k {k}"
                        );
                    }
                }
            }
        }
    }
}
