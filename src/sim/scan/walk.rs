//! The scan's walk over the grid: up each column of cells, each cell's neighbourhood
//! gathered into one window (sharing slabs with the cells below and above it), then every
//! boid of the cell scanned through it (`window.rs`). The walk owns its scratch.

use std::ops::Range;

use super::{
    look_around_fast, needs_nearest_image, neighbour_spans, push_apart_piled, zone_sum, Nearby,
    Span, View,
};
use crate::sim::grid::Grid;
use crate::sim::rules::Neighbourhood;
use crate::sim::scan::Sorted;

/// Boids gathered up a column of cells past which the slabs still needed move to the front:
/// 512 boids' six columns are 12 KiB.
const COMPACT_AT: usize = 512;

/// The slabs gathered up one column of cells so far: slabs `first..next` are in the
/// window's columns, slab `first + k` ending at `slab_end[k]`.
struct Column {
    first: isize,
    next: isize,
}

impl Default for Column {
    fn default() -> Self {
        Column {
            first: isize::MIN,
            next: isize::MIN,
        }
    }
}

/// The column of cells `[x, z]` being walked, and what gathering from it needs: the sorted
/// boids, the grid, the edges (wrap, world) and whether there are several species.
type Up<'a> = (&'a Sorted, &'a Grid, [usize; 2], (bool, f32), bool);

impl Column {
    /// The window of cell `y` (the next cell up the column with boids in it): the slabs
    /// `y − r ..= y + r` (`r` rows to a cell's width, `Grid::rows_per_cell`), appending those not yet gathered and first moving those still
    /// needed to the front once `COMPACT_AT` boids are gathered, so that what a column
    /// gathers is rewritten in place, in the fastest cache, instead of growing into fresh
    /// memory up a long column.
    #[inline(always)]
    fn window(
        &mut self,
        y: usize,
        nearby: &mut Nearby,
        slab_end: &mut Vec<usize>,
        (sorted, grid, [x, z], edges, species): Up,
    ) -> Range<usize> {
        let reach = grid.rows_per_cell() as isize;
        let (lo, hi) = (y as isize - reach, y as isize + reach);
        if self.next < lo {
            (self.first, self.next) = (lo, lo);
            slab_end.clear();
        } else if let Some(&gathered) = slab_end.last() {
            if lo > self.first && gathered > COMPACT_AT {
                let dropped = (lo - self.first) as usize;
                let kept_from = slab_end[dropped - 1];
                nearby.boids.move_to_front(kept_from..gathered, species);
                slab_end.drain(..dropped);
                for end in slab_end.iter_mut() {
                    *end -= kept_from;
                }
                self.first = lo;
            }
        }
        while self.next <= hi {
            let at = slab_end.last().copied().unwrap_or(0);
            let end = nearby
                .boids
                .append_slab(sorted, grid, [x, z], self.next, edges, species, at);
            slab_end.push(end);
            self.next += 1;
        }
        let start = match lo - self.first {
            0 => 0,
            k => slab_end[k as usize - 1],
        };
        let end = slab_end[(hi - self.first) as usize];
        nearby.boids.pad(end);
        start..end
    }
}

/// The walk's scratch, kept from step to step so that a step allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct Scanner {
    /// The spans of slots around one cell (listed only for boids piled at one point).
    spans: Vec<Span>,
    /// A cell's neighbourhood, gathered into one range.
    nearby: Nearby,
    /// Where each slab of cells gathered into `nearby` ends.
    slab_end: Vec<usize>,
}

impl Scanner {
    /// Calls `visit(slot, neighbourhood)` for every boid of `sorted` in the grid's
    /// `columns` (sorted by `grid`; column `z * dims + x` is the cells `[x, 0..rows, z]`,
    /// walked up y), as `view` sees. `wrap`: the world's edges wrap; `species`: more than
    /// one species. Returns how many candidates were examined in all.
    ///
    /// Each column starts its windows afresh, so a column scans the same whoever walks it:
    /// a step split into runs of columns (`flock/parts.rs`) sums bit for bit as one.
    #[allow(clippy::too_many_arguments)]
    pub fn scan_all(
        &mut self,
        grid: &Grid,
        sorted: &Sorted,
        view: &View,
        wrap: bool,
        species: bool,
        columns: Range<usize>,
        mut visit: impl FnMut(usize, &Neighbourhood),
    ) -> u64 {
        let (dims, rows) = (grid.dims(), grid.rows());
        let nearest_image = needs_nearest_image(grid, wrap);
        let Scanner {
            spans,
            nearby,
            slab_end,
        } = self;
        let edges = (wrap, view.world);
        let mut examined = 0u64;
        // Up each column of cells along y, so that neighbouring cells share the slabs of
        // cells they both have around them (`Sorted::append_slab`).
        for at in columns {
            let (z, x) = (at / dims, at % dims);
            let mut column = Column::default();
            for y in 0..rows {
                let own = grid.slots_of([x, y, z]);
                if own.is_empty() {
                    continue;
                }
                let cell = [x, y, z];
                let window = if nearest_image {
                    nearby
                        .boids
                        .gather_around(sorted, grid, cell, edges, species);
                    0..nearby.boids.count()
                } else {
                    let up = (sorted, grid, [x, z], edges, species);
                    column.window(y, nearby, slab_end, up)
                };
                examined += (window.len() * own.len()) as u64;
                let zone_window = window.clone();
                // Listed only when a boid has company at its very point.
                spans.clear();
                look_around_fast(
                    own,
                    sorted,
                    nearby,
                    window,
                    view,
                    nearest_image,
                    species,
                    |i, mut seen, piled, near| {
                        if let Some(zone) = view.alignment_squared {
                            let near = (near, zone_window.clone(), nearest_image);
                            seen.sum_velocity = zone_sum(i, sorted, near, view, zone, species);
                        }
                        if piled {
                            if spans.is_empty() {
                                neighbour_spans(grid, cell, wrap, view.world, spans);
                            }
                            push_apart_piled(i, spans, sorted, view, nearest_image, &mut seen);
                        }
                        visit(i, &seen);
                    },
                );
            }
        }
        examined
    }
}
