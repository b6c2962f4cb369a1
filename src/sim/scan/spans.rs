//! Which cells are around a cell: spans of cells along x, with the wrap shift of each, and
//! slabs of them up a column for `Sorted::append_slab`.

use std::ops::Range;

use glam::Vec3;

use super::Span;
use crate::sim::grid::Grid;

/// Whether the grid is so few cells wide that, wrapped, one cell would be visited as two
/// neighbours (three cells or fewer): then each row is scanned once and every candidate
/// finds its nearest image.
pub fn needs_nearest_image(grid: &Grid, wrap: bool) -> bool {
    wrap && grid.dims() <= 3
}

/// The spans of cells around `cell`: one per row of x cells (two where a wrapped row
/// crosses the edge), each with the shift that brings its boids next to `cell`.
pub fn neighbour_spans(
    grid: &Grid,
    cell: [usize; 3],
    wrap: bool,
    world: f32,
    spans: &mut Vec<Span>,
) {
    spans.clear();
    for_each_span(grid, cell, wrap, world, |slots, shift| {
        spans.push(Span { slots, shift });
    });
}

/// Calls `visit(slots, shift)` for each non-empty span of `neighbour_spans`, in order.
#[inline(always)]
pub fn for_each_span(
    grid: &Grid,
    [cx, cy, cz]: [usize; 3],
    wrap: bool,
    world: f32,
    mut visit: impl FnMut(Range<usize>, Vec3),
) {
    if needs_nearest_image(grid, wrap) {
        // Every row whole: each candidate finds its nearest image in the scan.
        let n = grid.dims();
        for row in 0..grid.rows() * grid.layers() {
            let slots = grid.slots(row * n, row * n + n - 1);
            if !slots.is_empty() {
                visit(slots, Vec3::ZERO);
            }
        }
        return;
    }
    // Slab by slab, as the step gathers them: cells are at least a radius wide, so the
    // neighbours are in the rows one cell's width each way.
    let reach = grid.rows_per_cell() as isize;
    for y in cy as isize - reach..=cy as isize + reach {
        for_each_slab_span(grid, [cx, cz], y, wrap, world, &mut visit);
    }
}

/// The slab of `for_each_slab_span` when it lies inside the grid, one cell from every edge
/// (so it neither wraps nor is cut short by a wall): one run of three cells per layer, with
/// no shifts, found without that function's bookkeeping. `None` elsewhere.
#[inline(always)]
pub(super) fn interior_slab(
    grid: &Grid,
    [x, z]: [usize; 2],
    y: isize,
) -> Option<[Range<usize>; 3]> {
    let (n, layers) = (grid.dims(), grid.layers());
    let inside = (1..n - 1).contains(&x)
        && (1..layers - 1).contains(&z)
        && (0..grid.rows() as isize).contains(&y);
    inside.then(|| {
        let row = |z: usize| grid.cell_index([0, y as usize, z]);
        [z - 1, z, z + 1].map(|z| grid.slots(row(z) + x - 1, row(z) + x + 1))
    })
}

/// Calls `visit(slots, shift)` for each non-empty span of the slab `Sorted::append_slab`
/// describes: row `y` (one past an edge at most) of each layer around `z`, the cells around
/// `x` in it.
#[inline(always)]
pub fn for_each_slab_span(
    grid: &Grid,
    [x, z]: [usize; 2],
    y: isize,
    wrap: bool,
    world: f32,
    mut visit: impl FnMut(Range<usize>, Vec3),
) {
    let n = grid.dims() as isize;
    let Some((y, shift_y)) = Grid::wrap_cell(y, grid.rows(), wrap, world) else {
        return;
    };
    // A flat world is one layer thick and never wraps in z.
    let z_reach = if grid.is_flat() { 0 } else { 1 };
    let (x, z) = (x as isize, z as isize);
    let (lo, hi) = (x - 1, x + 1);
    for dz in -z_reach..=z_reach {
        let Some((z, shift_z)) = Grid::wrap_cell(z + dz, grid.layers(), wrap, world) else {
            continue;
        };
        let row = grid.cell_index([0, y, z]);
        let shift = Vec3::new(0.0, shift_y, shift_z);
        let mut push = |first: isize, last: isize, shift: Vec3| {
            let slots = grid.slots(row + first as usize, row + last as usize);
            if !slots.is_empty() {
                visit(slots, shift);
            }
        };
        if !wrap {
            push(lo.max(0), hi.min(n - 1), shift);
        } else if lo < 0 {
            push(0, hi, shift);
            push(lo + n, n - 1, shift - Vec3::X * world);
        } else if hi >= n {
            push(lo, n - 1, shift);
            push(0, hi - n, shift + Vec3::X * world);
        } else {
            push(lo, hi, shift);
        }
    }
}
