//! A step shared among workers (`www/core/threads.js`). Each worker holds a copy of the flock,
//! made afresh every step from the flock's head (its snapshot without the boids) and its
//! boids' arrays; it sorts the same boids into the same cells, then takes chunks of the
//! walk (`Split`s: `chunks` of them) one at a time while any are left, looking around for
//! each and moving its boids (`advance_parts`). The flock then takes every chunk's new
//! state in, slot by slot, and settles as a step of its own does (`finish_parts`): with
//! the order the workers sorted the boids into, not a sort of its own, unless its hawks
//! need the grid.
//!
//! Bit for bit the step of one thread: every unit of the walk (a column of cells, or a cell
//! in nearest-k mode) is scanned from scratch whoever scans it, every boid moves in its own
//! lane, and the sums of neighbours and candidates are integers (`tests/parts.rs`).

use std::ops::Range;

use crate::sim::params::Param;
use crate::sim::snapshot::SnapshotError;

use super::{Flock, Next, Totals, MAX_STEP, MAX_SUBSTEP};

/// One share of a step: the walk's units from the first edge between units with at least
/// `from` boids before it, to the first with at least `to` (`to` at or past the flock's
/// count: to the end). Shares cut at the same boids hold every unit once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    pub from: usize,
    pub to: usize,
}

impl Split {
    /// Share `part` (from 0) of `parts` about equal shares of `count` boids (`None` when
    /// there is no share `part`).
    pub fn even(part: usize, parts: usize, count: usize) -> Option<Split> {
        // u64, not u128: 128-bit division would add its routine to the wasm module.
        let cut =
            |part: usize| ((count as u64).saturating_mul(part as u64) / parts as u64) as usize;
        (part < parts).then(|| Split {
            from: cut(part),
            to: cut(part + 1),
        })
    }
}

/// The new state of a step, slot by slot (the flock's order after the step): positions
/// and velocities (xyz each), neighbours heeded, the strongest rule and which boid came to
/// the slot (one each), and what looking around cost. A worker's share holds the whole
/// flock's room but writes only the slots in its `runs`; the page copies those runs into
/// one `PartState` of every share.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PartState {
    pub positions: Vec<f32>,
    pub velocities: Vec<f32>,
    pub counts: Vec<u16>,
    pub strongest: Vec<u8>,
    /// The sort's order: the index, before the step, of the boid each slot holds (the
    /// flock reorders its ids and species by it).
    pub order: Vec<u32>,
    /// The runs of slots a share wrote: a few dozen (whole layers of cells lie end to end
    /// in slots; a layer cut between shares gives a run per row of cells).
    pub runs: Vec<Range<usize>>,
    pub totals: Totals,
}

impl PartState {
    /// Boids the share wrote (in its runs).
    pub fn boids(&self) -> usize {
        self.runs.iter().map(|run| run.len()).sum()
    }

    /// Room for `count` boids, no runs.
    pub fn resize(&mut self, count: usize) {
        self.positions.resize(3 * count, 0.0);
        self.velocities.resize(3 * count, 0.0);
        self.counts.resize(count, 0);
        self.strongest.resize(count, 0);
        self.order.resize(count, 0);
        self.runs.clear();
    }

    /// Trades buffers with a step's `next` state: a share takes what its step wrote, the
    /// flock takes every share's state, each leaving its own buffers as the other's scratch.
    fn swap_buffers(&mut self, next: &mut Next) {
        std::mem::swap(&mut self.positions, &mut next.positions);
        std::mem::swap(&mut self.velocities, &mut next.velocities);
        std::mem::swap(&mut self.counts, &mut next.counts);
        std::mem::swap(&mut self.strongest, &mut next.strongest);
    }
}

/// The substep `Flock::step(dt)` takes when it takes one (`None` for a `dt` it splits into
/// several, or ignores): a shared step is one substep, as the page's steps of 1/60 s are.
pub fn single_substep(dt: f32) -> Option<f32> {
    if !dt.is_finite() || dt <= 0.0 {
        return None;
    }
    let dt = dt.min(MAX_STEP);
    let substeps = (dt / MAX_SUBSTEP).ceil().max(1.0);
    (substeps == 1.0).then_some(dt / substeps)
}

impl Flock {
    /// What a worker needs besides the boids to step as this flock would: its snapshot
    /// without the boids (`load_head`). A few hundred bytes.
    pub fn step_head(&self) -> Vec<u8> {
        self.write_snapshot(false)
    }

    /// Changes with every change to the boids' arrays: a shared step is taken in only if
    /// it is unchanged since the step was handed out (`Handout::finish`, which compares the
    /// count and the head too).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Makes this (a worker's copy) the flock `head` describes (`step_head`), with `count`
    /// boids whose positions, velocities and species the caller then writes
    /// (`boids_mut`). The copy keeps its scratch from step to step. Refused, it is left as
    /// it was.
    pub fn load_head(&mut self, head: &[u8], count: usize) -> Result<(), SnapshotError> {
        let most = Param::Count.spec().max as usize;
        if count > most {
            return Err(SnapshotError::TooMany {
                what: "boids",
                count,
                most,
            });
        }
        let mut fresh = Flock::from_snapshot(head)?;
        // The copy's buffers, kept: a step at 100,000 boids would otherwise allocate and
        // fill megabytes of scratch afresh.
        let rows = fresh.grid.rows_per_cell();
        fresh.grid = std::mem::take(&mut self.grid);
        fresh.grid.set_rows_per_cell(rows);
        fresh.sorted = std::mem::take(&mut self.sorted);
        fresh.scanner = std::mem::take(&mut self.scanner);
        fresh.spans = std::mem::take(&mut self.spans);
        fresh.sightings = std::mem::take(&mut self.sightings);
        fresh.positions = std::mem::take(&mut self.positions);
        fresh.velocities = std::mem::take(&mut self.velocities);
        fresh.species = std::mem::take(&mut self.species);
        fresh.neighbour_counts = std::mem::take(&mut self.neighbour_counts);
        fresh.strongest = std::mem::take(&mut self.strongest);
        fresh.ids = std::mem::take(&mut self.ids);
        fresh.positions.resize(3 * count, 0.0);
        fresh.velocities.resize(3 * count, 0.0);
        fresh.species.resize(count, 0);
        // The flock's ids, written by the caller with the rest: the swarm's draws (who
        // fails, whose message is lost) and its past are by id.
        fresh.ids.resize(count, 0);
        *self = fresh;
        Ok(())
    }

    /// The boids' positions, velocities (xyz each), species and ids, to be written after
    /// `load_head`: the flock's own, in its order.
    pub fn boids_mut(&mut self) -> (&mut [f32], &mut [f32], &mut [u8], &mut [u32]) {
        (
            &mut self.positions,
            &mut self.velocities,
            &mut self.species,
            &mut self.ids,
        )
    }

    /// Share `split` of one step of `dt` (a single substep: `single_substep`), left in
    /// `out` slot by slot, in the runs of slots `out.runs` lists. False, with no runs, for a
    /// `dt` that is not one substep or a split that ends before it starts.
    pub fn advance_part(&mut self, dt: f32, split: Split, out: &mut PartState) -> bool {
        if split.from > split.to {
            out.runs.clear();
            out.totals = Totals::default();
            return false;
        }
        let mut share = Some(split);
        self.advance_parts(dt, || share.take(), out)
    }

    /// How many chunks a step shared among workers is cut into, for them to take one at a
    /// time (`advance_parts`), so that a worker slowed by the host's other work takes fewer:
    /// the shares' times at 100,000 settled boids, cut once for equal times, still differed
    /// by 3 ms a step (median). 32, 16 a worker of two and 4 of eight; a chunk in 3D is
    /// mostly whole layers of cells, one run of slots to copy out (`first_edge_from`); a
    /// flat world's one layer is cut between columns, a run per row of cells, so 8.
    pub fn chunks(&self) -> usize {
        if self.settings.flat && !self.settings.topological {
            8
        } else {
            32
        }
    }

    /// Steps the shares `claim` hands out, one after another, until it hands out none:
    /// one sort, then each share looked around and moved as `advance_part` would, all of
    /// them left in `out` (their runs, a run that continues the last one joined to it; their
    /// totals summed). A share that ends before it starts holds no units. False, with no
    /// runs, for a `dt` that is not one substep (and nothing claimed).
    pub fn advance_parts(
        &mut self,
        dt: f32,
        mut claim: impl FnMut() -> Option<Split>,
        out: &mut PartState,
    ) -> bool {
        out.runs.clear();
        out.totals = Totals::default();
        let Some(h) = single_substep(dt) else {
            return false;
        };
        // The first claim before the sort: a worker that comes late, when the others have
        // taken every chunk, answers at once.
        let mut claimed = claim();
        if self.is_empty() || claimed.is_none() {
            return true;
        }
        self.sort_into_cells();
        let forces = self.forces();
        let mut next = self.take_next();
        while let Some(split) = claimed.take().or_else(&mut claim) {
            let units = self.share(split);
            let totals = self.advance(h, &forces, units.clone(), &mut next);
            out.totals.neighbours += totals.neighbours;
            out.totals.examined += totals.examined;
            self.unit_runs(units, |slots| match out.runs.last_mut() {
                Some(last) if last.end == slots.start => last.end = slots.end,
                _ => out.runs.push(slots),
            });
        }
        // The sort's order goes out with the new state (the worker's next sort writes its
        // grid's order afresh).
        self.grid.trade_order(&mut out.order);
        // The new state stays where the step wrote it; `out`'s old buffers come back as
        // scratch (the next `load_head` writes the boids afresh).
        out.swap_buffers(&mut next);
        self.positions = next.positions;
        self.velocities = next.velocities;
        self.neighbour_counts = next.counts;
        self.strongest = next.strongest;
        true
    }

    /// Whether taking a shared step in needs the flock sorted into cells as the workers
    /// sorted it: only for its hawks, which hunt through the grid. Else the shares' order is
    /// all the flock needs of the sort (to reorder its ids and species), and the page's
    /// thread does not sort 100,000 boids a step (3.5 ms) on a core the workers need.
    fn parts_need_sort(&self) -> bool {
        self.behaviours.hawks() > 0
    }

    /// Takes in a step of `dt` shared among workers: `shares` holds every boid's new state
    /// slot by slot (each share's runs copied in, the sort's order with them) and their
    /// totals summed. The flock takes the new state (`shares` gets the old buffers back, the
    /// same size) and settles as its own step does: the same flock, bit for bit. Where
    /// `parts_need_sort`, it first sorts as each worker did; else it takes the workers'
    /// order and the rows their sort picked, and its grid's cells stay as its last sort left
    /// them (nothing reads them before the next sort). False, the flock untouched, when `dt`
    /// is not one substep or `shares` is not the flock's size.
    pub fn finish_parts(&mut self, dt: f32, shares: &mut PartState) -> bool {
        let Some(h) = single_substep(dt) else {
            return false;
        };
        let count = self.len();
        let whole = shares.positions.len() == 3 * count
            && shares.velocities.len() == 3 * count
            && shares.counts.len() == count
            && shares.strongest.len() == count
            && shares.order.len() == count;
        if !whole {
            return false;
        }
        if self.is_empty() {
            return true;
        }
        if self.parts_need_sort() {
            self.sort_into_cells();
        } else {
            let rows = self.scan_rows_per_cell();
            self.grid.set_rows_per_cell(rows);
            self.grid.trade_order(&mut shares.order);
        }
        let forces = self.forces();
        let mut next = self.take_next();
        shares.swap_buffers(&mut next);
        self.settle(h, &forces, next, shares.totals);
        true
    }

    /// The walk's units of share `split`, cut at the units' edges (between columns of
    /// cells; between cells in nearest-k mode).
    fn share(&self, split: Split) -> Range<usize> {
        // Not `self.len()`: the step has taken the arrays it writes the new state into.
        let count = self.grid.order().len();
        let edge = |boids: usize| {
            if boids == 0 {
                0
            } else if boids >= count {
                self.walk_units()
            } else {
                self.first_edge_from(boids)
            }
        };
        let (start, end) = (edge(split.from), edge(split.to));
        start..end.max(start)
    }

    /// The first edge between units with at least `boids` boids (0 < `boids` < the
    /// flock's count) before it in the walk: the unit after the edge. An edge between
    /// layers of cells where it is at most 1/32 of the flock further: a share of whole
    /// layers is one run of slots to copy out, a part of a layer a run per row of cells (a
    /// flock spanning few layers has few rows). The same edge for the same `boids`, so
    /// shares cut at the same boids hold every unit once.
    fn first_edge_from(&self, boids: usize) -> usize {
        let grid = &self.grid;
        if self.walks_cells() {
            return first_reaching(grid.cell_count(), boids, |c| grid.slots_before(c));
        }
        let (dims, per_layer) = (grid.dims(), grid.rows() * grid.dims());
        let layer_edge = first_reaching(grid.layers(), boids, |z| grid.slots_before(z * per_layer));
        let past = grid
            .slots_before(layer_edge * per_layer)
            .saturating_sub(boids);
        if past <= grid.order().len() / 32 {
            return layer_edge * dims;
        }
        // The columns of the layer before that edge, summed up y.
        let z = layer_edge - 1;
        let mut seen = grid.slots_before(z * per_layer);
        for x in 0..dims {
            if seen >= boids {
                return z * dims + x;
            }
            seen += (0..grid.rows())
                .map(|y| grid.slots_of([x, y, z]).len())
                .sum::<usize>();
        }
        layer_edge * dims
    }
}

/// The first of edges `0..=edges` with at least `boids` before it, where `before` grows
/// with the edge and reaches every boid at the last.
fn first_reaching(edges: usize, boids: usize, before: impl Fn(usize) -> usize) -> usize {
    let (mut low, mut high) = (0, edges);
    while low < high {
        let middle = (low + high) / 2;
        if before(middle) < boids {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    low
}
