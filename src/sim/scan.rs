//! Looking around: which boids does a boid see, and what does it make of them.
//!
//! The step reads the old state from structure-of-arrays copies in grid-cell order
//! ([`Sorted`]). For each cell, the cells around it are gathered into one contiguous range
//! with the wrap shifts applied: slab by slab up each column of cells
//! ([`Sorted::append_slab`]), so that cells next to each other share what they gathered
//! (or all at once, [`Sorted::gather_around`], in worlds too small for that). Every boid of
//! the cell scans that range four candidates at a time with branch-free masks, so the
//! compiler emits SIMD (SSE natively, `simd128` in wasm): `scan/window.rs`. [`look_around`] is the plain
//! one-at-a-time version of the same rules: the reference the fast scan is tested against,
//! and the brute-force path.

use std::ops::Range;

use glam::{Vec3, Vec4};

use super::edges::nearest_image;
use super::rules::{self, Neighbourhood, Sight, COINCIDENT};
use super::settings::Settings;

mod heeded;
mod sorted;
mod spans;
mod walk;
mod window;

pub use sorted::Sorted;
pub use spans::{needs_nearest_image, neighbour_spans};
pub use walk::Scanner;
use window::look_around_lanes;

/// Rows of grid cells along y to a cell's width in a crowded flock (the flock chooses, each
/// step: `Flock::scan_rows_per_cell`), for the scan (`Grid::configure`): a boid's window is
/// the cells one width around its own along x and z, but only `ROWS_PER_CELL` rows (a
/// width) each way along y, so it spans 2 + 1/`ROWS_PER_CELL` widths there, not 3. The walk
/// goes up y, gathering one slab a row: what it copies does not grow, only the number of
/// slabs, and each window serves fewer boids. Measured on the same settled states at
/// 10,000 boids, natively (fastest of 45 steps, ms, 1 → 2 → 3 → 4 rows): defaults 3.38 →
/// 3.13 → 3.07 → 3.10 (candidates 289 → 250 → 236 → 229), standard 2.36 → 2.27 → 2.28 →
/// 2.34, ribbons 2.15 → 2.16 → 2.25 → 2.34, fish ball 2.41 → 2.32 → 2.37 → 2.41: past two,
/// each boid's fixed costs and the more, smaller windows eat what fewer candidates save.
pub const ROWS_PER_CELL: usize = 2;

/// `a * b + c`. In the relaxed-SIMD build (`scripts/build-relaxed.sh`) one
/// `f32x4.relaxed_madd`: V8 makes it a fused multiply-add where the CPU has one (rounded
/// once, so the last bit may differ from the two-step result, and between machines), the
/// two steps elsewhere. Every other build: the two steps.
#[inline(always)]
pub fn mul_add(a: Vec4, b: Vec4, c: Vec4) -> Vec4 {
    #[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
    {
        Vec4::from(core::arch::wasm32::f32x4_relaxed_madd(
            a.into(),
            b.into(),
            c.into(),
        ))
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "relaxed-simd")))]
    {
        a * b + c
    }
}

/// A cell's neighbourhood gathered into one range (`Sorted::gather_around`), and the
/// scan's scratch list of groups of lanes with close neighbours.
#[derive(Clone, Debug, Default)]
pub struct Nearby {
    pub boids: Sorted,
    close_words: Vec<u64>,
    /// Each group's marks of the lanes the boid heeds (`heeded::mark`).
    marks: Vec<Vec4>,
}

/// A run of sorted slots to scan (a row of cells), and the shift that brings the boids in
/// it next to the looking boid across a wrapped edge (zero inside walls).
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    pub slots: Range<usize>,
    pub shift: Vec3,
}

/// What a boid needs to know about the world while it looks around.
#[derive(Clone, Copy, Debug)]
pub struct View {
    pub(super) world: f32,
    half_world: f32,
    pub(super) perception_squared: f32,
    pub(super) separation_squared: f32,
    /// The zone of orientation, squared: where neighbours count for alignment. `None`: the
    /// whole perception radius (an alignment radius at or above it). The lane scan sums the
    /// whole radius; `zone_sum` then sums the zone alone.
    pub(super) alignment_squared: Option<f32>,
    /// `None`: sees all around.
    pub(super) cos_half_fov: Option<f32>,
}

impl View {
    pub fn new(settings: &Settings, world: f32) -> Self {
        let fov = settings.field_of_view;
        View {
            world,
            half_world: world * 0.5,
            perception_squared: settings.perception * settings.perception,
            separation_squared: settings.separation_radius * settings.separation_radius,
            alignment_squared: (settings.alignment_radius < settings.perception)
                .then_some(settings.alignment_radius * settings.alignment_radius),
            cos_half_fov: (fov < 360.0).then(|| (fov * 0.5).to_radians().cos()),
        }
    }

    /// The sight of a boid flying at `velocity` (`None`: it sees all round, with a view of
    /// 360° or at rest).
    pub fn sight(&self, velocity: Vec3) -> Option<Sight> {
        Sight::new(velocity.normalize_or_zero(), self.cos_half_fov)
    }

    /// Whether a neighbour at `distance_squared` (inside the perception radius) is inside
    /// the zone of orientation, where it counts for alignment.
    pub fn aligns(&self, distance_squared: f32) -> bool {
        self.alignment_squared
            .is_none_or(|zone| distance_squared <= zone)
    }

    /// Offset from `from` to `to`, across a wrapped edge when that is shorter (`WRAP`).
    #[inline(always)]
    pub(super) fn offset_between<const WRAP: bool>(&self, from: Vec3, to: Vec3) -> Vec3 {
        nearest_image(to - from, self.world, WRAP)
    }
}

/// The state of the boids as the one-at-a-time scans read it, by index.
pub struct Boids<P, V, K> {
    pub position: P,
    pub velocity: V,
    /// Whether boid `j` is of the same species as boid `i`: only those count for alignment
    /// and cohesion (everyone counts for separation).
    pub same_kind: K,
}

/// One boid at a time: sums what boid `i` sees among `candidates`; `on_neighbour` hears of
/// every boid that counts. The reference implementation of the rules' neighbourhood.
pub fn look_around<const WRAP: bool, P, V, K>(
    i: usize,
    candidates: impl Iterator<Item = usize>,
    boids: &Boids<P, V, K>,
    view: &View,
    mut on_neighbour: impl FnMut(usize),
) -> Neighbourhood
where
    P: Fn(usize) -> Vec3,
    V: Fn(usize) -> Vec3,
    K: Fn(usize, usize) -> bool,
{
    let Boids {
        position,
        velocity,
        same_kind,
    } = boids;
    let p = position(i);
    let sight = view.sight(velocity(i));
    let mut seen = Neighbourhood::default();
    for j in candidates {
        let offset = view.offset_between::<WRAP>(p, position(j));
        let distance_squared = offset.length_squared();
        if distance_squared > view.perception_squared || j == i {
            continue;
        }
        // Separation works all round: a boid feels a neighbour at its wing or tail even
        // where it cannot see it (with a narrow view, boids side by side piled up).
        if distance_squared < view.separation_squared {
            let drift = velocity(i) - velocity(j);
            seen.separation += rules::repulsion(offset, distance_squared, drift, i, j);
        }
        if let Some(sight) = &sight {
            if !sight.sees(offset, distance_squared) {
                continue;
            }
        }
        on_neighbour(j);
        seen.count += 1;
        if same_kind(i, j) {
            if view.aligns(distance_squared) {
                seen.sum_velocity += velocity(j);
            }
            seen.sum_offset += offset;
        }
    }
    seen
}

/// Adds to `seen` (what sorted boid `i` saw) the push from each boid in `spans` at the
/// very same point, as `rules::repulsion` says: for the boids `look_around_lanes` reports
/// piled up.
pub fn push_apart_piled(
    i: usize,
    spans: &[Span],
    sorted: &Sorted,
    view: &View,
    nearest_image: bool,
    seen: &mut Neighbourhood,
) {
    let p = sorted.position(i);
    for j in spans.iter().flat_map(|s| s.slots.clone()) {
        let offset = if nearest_image {
            view.offset_between::<true>(p, sorted.position(j))
        } else {
            view.offset_between::<false>(p, sorted.position(j))
        };
        let r2 = offset.length_squared();
        if j != i && r2 <= COINCIDENT && r2 < view.separation_squared {
            let drift = sorted.velocity(i) - sorted.velocity(j);
            let (label_i, label_j) = (sorted.label[i], sorted.label[j]);
            let push = rules::repulsion(offset, r2, drift, label_i as usize, label_j as usize);
            seen.separation += push;
        }
    }
}

/// With a zone of orientation inside the perception radius (`View::alignment_squared`,
/// `zone`): the sum of the velocities of the boids that sorted boid `i` heeds (inside the
/// perception radius and its field of view, of its kind with `species`) no farther than the
/// zone, itself left out: alignment's, in place of the lane scan's. `near`: the window's
/// boids that the scan looked through, `window` of them, found across wrapped edges when
/// `nearest_image`.
///
/// One boid at a time, out of line and cold, called from the scan's callback (`walk.rs`).
/// Tried and not kept: a second set of marks in the scan's first pass cost the default step
/// 8 % more instructions natively; a pass of its own inside the scan, 2.3 % and 1.7 KB
/// gzipped more of the relaxed build's patch; a zone pass after the scan over the cells
/// around each cell, 1.8 KB gzipped more of the module. This costs the default step 0.9 %
/// more instructions (natively, the settled defaults at 1,500 boids under callgrind) and a
/// zoned flock about a second scan.
#[cold]
#[inline(never)]
pub fn zone_sum(
    i: usize,
    sorted: &Sorted,
    (near, window, nearest_image): (&Sorted, Range<usize>, bool),
    view: &View,
    zone: f32,
    species: bool,
) -> Vec3 {
    let p = sorted.position(i);
    let sight = view.sight(sorted.velocity(i));
    let mut sum = Vec3::ZERO;
    for j in window {
        let offset = if nearest_image {
            view.offset_between::<true>(p, near.position(j))
        } else {
            near.position(j) - p
        };
        let d2 = offset.length_squared();
        let heeded = d2 <= view.perception_squared
            && d2 <= zone
            && sight.is_none_or(|sight| sight.sees(offset, d2))
            && (!species || near.species[j] == sorted.species[i]);
        if heeded {
            sum += near.velocity(j);
        }
    }
    // The boid itself is in the window, at distance zero.
    sum - sorted.velocity(i)
}

/// Dispatches to the scan specialised for the world's edges, the field of view and
/// whether there is more than one species.
#[allow(clippy::too_many_arguments)]
pub fn look_around_fast(
    own: Range<usize>,
    sorted: &Sorted,
    nearby: &mut Nearby,
    window: Range<usize>,
    view: &View,
    nearest_image: bool,
    species: bool,
    on_seen: impl FnMut(usize, Neighbourhood, bool, &Sorted),
) {
    let fov = view.cos_half_fov.is_some();
    // Each case its own specialised scan: the flags are constants inside the loops.
    macro_rules! scan {
        ($($wrap:literal, $fov:literal, $species:literal);*) => {
            match (nearest_image, fov, species) {
                $(($wrap, $fov, $species) => look_around_lanes::<$wrap, $fov, $species>(
                    own, sorted, nearby, window, view, on_seen,
                ),)*
            }
        };
    }
    scan!(
        false, false, false; false, true, false; true, false, false; true, true, false;
        false, false, true; false, true, true; true, false, true; true, true, true
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::grid::Grid;
    use crate::sim::lanes::LANES;

    /// Boids in a wrapped world of 5 × 5 × 5 cells, sorted by cell, with velocities that
    /// name them.
    fn sorted_world(positions: &[[f32; 3]], world: f32) -> (Grid, Sorted) {
        let flat: Vec<f32> = positions.iter().flatten().copied().collect();
        let velocities: Vec<f32> = (0..flat.len()).map(|k| k as f32).collect();
        let mut grid = Grid::default();
        grid.configure([0.0; 3], world, world / 5.0, positions.len(), false, 1);
        grid.sort(&flat);
        let mut sorted = Sorted::default();
        sorted.gather(grid.order(), &flat, &velocities);
        (grid, sorted)
    }

    /// `n` boids spread through a world of side 50 (5 × 5 × 5 cells), and three near its
    /// corners and edges.
    fn scattered(n: usize) -> Vec<[f32; 3]> {
        let world = 50.0;
        (0..n)
            .map(|k| {
                let t = k as f32;
                [(t * 7.3) % world, (t * 3.1) % world, (t * 11.7) % world]
            })
            .chain([[1.0, 1.0, 1.0], [49.0, 49.0, 49.0], [49.5, 1.0, 25.0]])
            .collect()
    }

    /// The boids of `spans`, each moved by its span's shift, in order.
    fn boids_in(spans: &[Span], sorted: &Sorted) -> Vec<(Vec3, Vec3)> {
        spans
            .iter()
            .flat_map(|span| {
                span.slots
                    .clone()
                    .map(move |j| (sorted.position(j) + span.shift, sorted.velocity(j)))
            })
            .collect()
    }

    #[test]
    fn a_cells_neighbourhood_is_gathered_into_one_shifted_range() {
        let world = 50.0;
        // Around the corner cell (0, 0, 0), across every wrapped edge, and far from it.
        let (grid, sorted) = sorted_world(&scattered(40), world);
        let mut nearby = Sorted::default();
        let cells = [[0, 0, 0], [4, 0, 2], [2, 2, 2]];
        let count = |cell: [usize; 3]| {
            let mut spans = Vec::new();
            neighbour_spans(&grid, cell, true, world, &mut spans);
            boids_in(&spans, &sorted).len()
        };
        // The longest gather first: a shorter one after it must not read its leftovers.
        let longest = *cells.iter().max_by_key(|&&cell| count(cell)).unwrap();
        assert!(cells.iter().any(|&cell| count(cell) < count(longest)));
        nearby.gather_around(&sorted, &grid, longest, (true, world), false);
        for cell in cells {
            nearby.gather_around(&sorted, &grid, cell, (true, world), false);
            let mut spans = Vec::new();
            neighbour_spans(&grid, cell, true, world, &mut spans);
            let expected = boids_in(&spans, &sorted);
            assert_eq!(nearby.count(), expected.len(), "cell {cell:?}");
            assert!(spans.iter().any(|span| span.shift != Vec3::ZERO) || cell == [2, 2, 2]);
            for (k, (position, velocity)) in expected.into_iter().enumerate() {
                assert_eq!(nearby.position(k), position, "cell {cell:?} slot {k}");
                assert_eq!(nearby.velocity(k), velocity, "cell {cell:?} slot {k}");
            }
            // The groups of lanes that run past the range find only far-away padding.
            for k in nearby.count()..nearby.count() + LANES {
                assert_eq!(nearby.x[k], f32::MAX);
            }
        }
    }

    #[test]
    fn slabs_appended_up_a_column_hold_each_cells_neighbourhood() {
        let world = 50.0;
        let (grid, sorted) = sorted_world(&scattered(60), world);
        let key = |(p, v): &(Vec3, Vec3)| [p.x, p.y, p.z, v.x, v.y, v.z];
        // Columns on the edges (whose slabs wrap) and inside (`interior_slab`).
        for [x, z] in [[0, 0], [4, 2], [2, 4], [2, 2], [1, 3]] {
            let mut nearby = Sorted::default();
            let mut ends = Vec::new();
            // The whole column, one slab past each end (as the step walks it).
            for slab in -1..=5 {
                let at = ends.last().copied().unwrap_or(0);
                ends.push(nearby.append_slab(
                    &sorted,
                    &grid,
                    [x, z],
                    slab,
                    (true, world),
                    false,
                    at,
                ));
            }
            for y in 0..5 {
                let (start, end) = (if y == 0 { 0 } else { ends[y - 1] }, ends[y + 2]);
                let mut got: Vec<(Vec3, Vec3)> = (start..end)
                    .map(|k| (nearby.position(k), nearby.velocity(k)))
                    .collect();
                let mut spans = Vec::new();
                neighbour_spans(&grid, [x, y, z], true, world, &mut spans);
                let mut expected = boids_in(&spans, &sorted);
                got.sort_by(|a, b| key(a).partial_cmp(&key(b)).unwrap());
                expected.sort_by(|a, b| key(a).partial_cmp(&key(b)).unwrap());
                assert_eq!(got, expected, "cell {:?}", [x, y, z]);
            }
        }
    }
}
