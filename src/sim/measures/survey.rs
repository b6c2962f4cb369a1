//! One measurement of the flock spread over many short calls. Every measure at once costs
//! 1.5–3.2 ms at 10,000 boids natively (more than a step on a fresh flock): a page that
//! took them in one frame would stall that frame. A survey keeps its own copy of the flock
//! and measures it piece by piece, its stages in order (headings, order, grid, walks,
//! groups, the groups' own measures); `advance(budget)` does about `budget` units of work
//! (`UNIT_NS`) and hands back the metrics with its last piece. `measure` is a survey
//! advanced without limit, so a survey cut into pieces gives the very same numbers as one
//! taken at once.

use glam::Vec3;

use super::cells::{Bounds, Cells};
use super::groups::Joining;
use super::local::{picks, Walks};
use super::shape::{pair_mean, BigGroups};
use super::{CentreSum, Metrics, Space, BIG_GROUP, CRUISE_BAND};

/// A unit of work is about a nanosecond natively, where the weights below were measured
/// (in Chromium a piece took about as long: 0.047 ms against 0.054 at 10,000 boids).
pub const UNIT_NS: f64 = 1.0;

// Each stage's work, in units: per boid, per walk, per cell, or per unit of the union-find's
// work. Measured natively at 10,000 boids, each stage alone, on the standard scenario
// (wrapped) and the settled page defaults (walled).
/// A heading (a square root and a division), a speed, the centre's sums and the bounds:
/// 5–10 ns, and 22–31 ns where the world wraps (a sine and a cosine per axis).
const HEADING: [u64; 2] = [8, 25];
/// Polarization and milling: a normalized offset from the centre and a cross product.
const ORDER: u64 = 9;
/// The measures' grid, a counting sort: its shape (room for every boid), each boid's cell,
/// then its slot; and per cell, the running sum of the counts.
const CELLS_PLAN: u64 = 1;
const CELLS_COUNT: u64 = 6;
const CELLS_FILL: u64 = 4;
const CELLS_SUM: u64 = 1;
/// Per cell: marking which cells hold boids, before the joins.
const MARK: u64 = 5;
/// A walk around one sampled boid, every candidate: 0.8–1.5 µs.
const WALK: u64 = 1500;
/// Union-find, per unit of its work (a cell looked at, a pair of boids tested): 7 ns on
/// the settled defaults, 11 on the standard scenario; the larger, so that no piece runs
/// long. About 16 units a boid (13–19 measured).
const JOIN: u64 = 11;
const JOIN_WORK_PER_BOID: u64 = 16;
/// Labels and group sizes (and at the end, numbering the big groups).
const LABELS: u64 = 10;
/// A boid into its big group's centre and heading: 4 ns, 21 ns where the world wraps.
const GROUP_CENTRE: [u64; 2] = [4, 21];
/// A boid into its big group's spread.
const GROUP_SPREAD: u64 = 4;

/// Where a survey is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Headings, speeds, the centre's sums and the bounds, from this boid on.
    Headings(usize),
    /// Polarization and milling, from this boid on.
    Order(usize),
    /// The measures' grid: its shape, then boids counted into cells from this boid on,
    /// the counts summed from this cell on, and boids into their slots from this boid down.
    CellsPlan,
    CellsCount(usize),
    CellsSum(usize),
    CellsFill(usize),
    /// The walks around sampled boids, from this pick on.
    Walks(usize),
    /// Which cells hold boids, from this row of cells on.
    Mark(usize),
    /// The groups' union-find.
    Groups,
    /// Each boid's group, and the groups' sizes, from this boid (or slot) on.
    Labels(usize),
    /// The big groups' centres and headings, from this boid on.
    GroupCentres(usize),
    /// The big groups' spreads, from this boid on.
    GroupSpreads(usize),
    Done,
}

/// A measurement under way: a copy of the flock, and the measures so far.
pub struct Survey {
    positions: Vec<f32>,
    velocities: Vec<f32>,
    space: Space,
    radius: f32,
    cruise: f32,
    stage: Stage,
    headings: Vec<Vec3>,
    centre: CentreSum,
    bounds: Bounds,
    /// The centre of mass, once the headings' stage has summed it.
    centre_at: Vec3,
    speed_sum: f32,
    cruising: usize,
    heading_sum: Vec3,
    /// Σ |v̂|²: the boids that move (a halted one has no heading).
    moving: f32,
    turning: Vec3,
    cells: Option<Cells>,
    walks: Walks,
    joining: Option<Joining>,
    /// Each boid's group, as the labels are written.
    group_of: Vec<u32>,
    big: Option<BigGroups>,
    metrics: Metrics,
}

impl Survey {
    /// A survey of the boids at `positions` flying at `velocities` (xyz per boid: its own
    /// copy, which the flock's steps leave alone), with boids linked within `radius`;
    /// nothing measured yet.
    pub fn new(
        positions: Vec<f32>,
        velocities: Vec<f32>,
        space: Space,
        radius: f32,
        cruise: f32,
    ) -> Self {
        let n = positions.len() / 3;
        Survey {
            positions,
            velocities,
            space,
            radius,
            cruise,
            stage: if n == 0 {
                Stage::Done
            } else {
                Stage::Headings(0)
            },
            headings: Vec::with_capacity(n),
            centre: CentreSum::new(space),
            bounds: Bounds::default(),
            centre_at: Vec3::ZERO,
            speed_sum: 0.0,
            cruising: 0,
            heading_sum: Vec3::ZERO,
            moving: 0.0,
            turning: Vec3::ZERO,
            cells: None,
            walks: Walks::default(),
            joining: None,
            group_of: Vec::new(),
            big: None,
            metrics: Metrics {
                mean_nearest: f32::NAN,
                median_nearest: f32::NAN,
                ..Metrics::default()
            },
        }
    }

    fn count(&self) -> usize {
        self.positions.len() / 3
    }

    /// 1 where the world wraps, else 0: which of a stage's two weights applies.
    fn wrapped(&self) -> usize {
        usize::from(self.space.wrap)
    }

    /// About how many units the whole survey takes (the union-find's share depends on how
    /// the flock is spread: a packed cluster takes many times this).
    pub fn estimate(&self) -> u64 {
        let n = self.count() as u64;
        // A small-celled grid has up to `CELLS_PER_BOID` (8) cells a boid.
        let per_boid = HEADING[self.wrapped()]
            + ORDER
            + CELLS_PLAN
            + CELLS_COUNT
            + 8 * (CELLS_SUM + MARK)
            + CELLS_FILL
            + JOIN * JOIN_WORK_PER_BOID
            + LABELS
            + GROUP_CENTRE[self.wrapped()]
            + GROUP_SPREAD;
        n * per_boid + picks(self.count()) as u64 * WALK
    }

    /// Whether the last piece is done.
    pub fn is_done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// Measures on for about `budget` units (at least one piece), and returns the metrics
    /// once every stage is done (and on every call after).
    pub fn advance(&mut self, budget: u64) -> Option<Metrics> {
        let mut left = budget.max(1);
        loop {
            let spent = match self.stage {
                Stage::Done => return Some(self.metrics),
                _ if left == 0 => return None,
                Stage::Headings(from) => self.headings(from, left),
                Stage::Order(from) => self.order(from, left),
                Stage::CellsPlan => {
                    let (n, space, radius) = (self.count(), self.space, self.radius);
                    self.cells = Some(Cells::plan(self.bounds, n, space, radius));
                    self.stage = Stage::CellsCount(0);
                    self.count() as u64 * CELLS_PLAN
                }
                Stage::CellsCount(from) => self.cells_count(from, left),
                Stage::CellsSum(from) => self.cells_sum(from, left),
                Stage::CellsFill(to) => self.cells_fill(to, left),
                Stage::Walks(from) => self.walks(from, left),
                Stage::Mark(from) => self.mark(from, left),
                Stage::Groups => self.groups(left),
                Stage::Labels(from) => self.labels(from, left),
                Stage::GroupCentres(from) => self.group_centres(from, left),
                Stage::GroupSpreads(from) => self.group_spreads(from, left),
            };
            left = left.saturating_sub(spent);
        }
    }

    /// Every stage at once.
    pub fn finish(mut self) -> Metrics {
        self.advance(u64::MAX)
            .expect("a survey without limit finishes")
    }

    /// How many of `remaining` items of `weight` units each fit in `left` (at least one).
    fn fit(left: u64, weight: u64, remaining: usize) -> usize {
        usize::try_from(left.div_ceil(weight))
            .unwrap_or(usize::MAX)
            .clamp(1, remaining)
    }

    fn headings(&mut self, from: usize, left: u64) -> u64 {
        let n = self.count();
        let weight = HEADING[self.wrapped()];
        let to = from + Self::fit(left, weight, n - from);
        for i in from..to {
            let v = Vec3::from_slice(&self.velocities[3 * i..3 * i + 3]);
            // Each heading once (a square root and a division), for every measure after.
            self.headings.push(v.normalize_or_zero());
            let s = v.length();
            self.speed_sum += s;
            self.cruising += usize::from((s - self.cruise).abs() <= CRUISE_BAND * self.cruise);
            let p = Vec3::from_slice(&self.positions[3 * i..3 * i + 3]);
            self.centre.add(p);
            self.bounds.add(p);
        }
        self.stage = if to == n {
            self.centre_at = self.centre.centre();
            Stage::Order(0)
        } else {
            Stage::Headings(to)
        };
        (to - from) as u64 * weight
    }

    fn order(&mut self, from: usize, left: u64) -> u64 {
        let n = self.count();
        let to = from + Self::fit(left, ORDER, n - from);
        for i in from..to {
            let v = self.headings[i];
            self.heading_sum += v;
            self.moving += v.length_squared();
            let p = Vec3::from_slice(&self.positions[3 * i..3 * i + 3]);
            let r = self.space.offset(self.centre_at, p).normalize_or_zero();
            self.turning += r.cross(v);
        }
        if to == n {
            let m = &mut self.metrics;
            m.count = n;
            m.polarization = self.heading_sum.length() / n as f32;
            m.velocity_correlation = pair_mean(self.heading_sum, self.moving, n as f32);
            m.milling = self.turning.length() / n as f32;
            m.mean_speed = self.speed_sum / n as f32;
            m.cruising = self.cruising as f32 / n as f32;
            self.stage = Stage::CellsPlan;
        } else {
            self.stage = Stage::Order(to);
        }
        (to - from) as u64 * ORDER
    }

    fn grid(&mut self) -> &mut Cells {
        self.cells.as_mut().expect("the grid is planned first")
    }

    fn cells_count(&mut self, from: usize, left: u64) -> u64 {
        let n = self.count();
        let to = from + Self::fit(left, CELLS_COUNT, n - from);
        let cells = self.cells.as_mut().expect("the grid is planned first");
        cells.count(&self.positions, from..to);
        self.stage = if to == n {
            Stage::CellsSum(0)
        } else {
            Stage::CellsCount(to)
        };
        (to - from) as u64 * CELLS_COUNT
    }

    fn cells_sum(&mut self, from: usize, left: u64) -> u64 {
        let all = self.grid().cells();
        let to = from + Self::fit(left, CELLS_SUM, all - from);
        self.grid().sum(from..to);
        self.stage = if to == all {
            Stage::CellsFill(self.count())
        } else {
            Stage::CellsSum(to)
        };
        (to - from) as u64 * CELLS_SUM
    }

    fn cells_fill(&mut self, to: usize, left: u64) -> u64 {
        let from = to - Self::fit(left, CELLS_FILL, to);
        let cells = self.cells.as_mut().expect("the grid is planned first");
        cells.fill(&self.positions, from..to);
        self.stage = if from == 0 {
            Stage::Walks(0)
        } else {
            Stage::CellsFill(from)
        };
        (to - from) as u64 * CELLS_FILL
    }

    fn walks(&mut self, from: usize, left: u64) -> u64 {
        let all = picks(self.count());
        let to = from + Self::fit(left, WALK, all - from);
        let cells = self
            .cells
            .as_ref()
            .expect("the grid is built before the walks");
        self.walks
            .walk(cells, &self.positions, &self.headings, from..to);
        if to == all {
            let local = std::mem::take(&mut self.walks).finish();
            let others = (self.count().max(2) - 1) as f32;
            let m = &mut self.metrics;
            m.streaming = local.streaming;
            m.collisions = local.touching / others;
            m.local_order = local.local_order;
            let mut nearest = local.nearest;
            if !nearest.is_empty() {
                // At most `LOCAL_SAMPLE` values: a sort costs nothing, and shares the
                // module's one float sort (`select_nth_unstable_by` brought a second into
                // the wasm).
                nearest.sort_unstable_by(f32::total_cmp);
                m.median_nearest = nearest[nearest.len() / 2];
                m.mean_nearest = nearest.iter().sum::<f32>() / nearest.len() as f32;
            }
            self.stage = Stage::Mark(0);
        } else {
            self.stage = Stage::Walks(to);
        }
        (to - from) as u64 * WALK
    }

    fn mark(&mut self, from: usize, left: u64) -> u64 {
        let cells = self
            .cells
            .as_ref()
            .expect("the grid is built before the groups");
        let joining = self.joining.get_or_insert_with(|| Joining::new(cells));
        let rows = Joining::rows_to_mark(cells);
        if rows == 0 {
            self.stage = Stage::Groups;
            return 1;
        }
        let nx = cells.dims[0] as u64;
        let to = from + Self::fit(left, MARK * nx, rows - from);
        joining.mark(cells, from..to);
        if to == rows {
            self.stage = Stage::Groups;
        } else {
            self.stage = Stage::Mark(to);
        }
        (to - from) as u64 * MARK * nx
    }

    fn groups(&mut self, left: u64) -> u64 {
        let cells = self
            .cells
            .as_ref()
            .expect("the grid is built before the groups");
        let joining = self
            .joining
            .as_mut()
            .expect("joining starts after the walks");
        let (work, done) = joining.join(cells, Self::fit(left, JOIN, usize::MAX));
        if done {
            self.group_of = vec![0; self.count()];
            self.stage = Stage::Labels(0);
        }
        work as u64 * JOIN
    }

    fn labels(&mut self, from: usize, left: u64) -> u64 {
        let n = self.count();
        let to = from + Self::fit(left, LABELS, n - from);
        let cells = self
            .cells
            .as_ref()
            .expect("the grid is built before the groups");
        let joining = self.joining.as_mut().expect("joining before the labels");
        joining.label(cells, from..to, &mut self.group_of);
        if to < n {
            self.stage = Stage::Labels(to);
            return (to - from) as u64 * LABELS;
        }
        (self.cells, self.joining) = (None, None);
        let group_of = std::mem::take(&mut self.group_of);
        let mut sizes = vec![0u32; n];
        for &g in &group_of {
            sizes[g as usize] += 1;
        }
        let m = &mut self.metrics;
        m.groups = sizes.iter().filter(|&&s| s > 0).count();
        m.big_groups = sizes.iter().filter(|&&s| s as usize >= BIG_GROUP).count();
        m.largest_group = sizes.iter().copied().max().unwrap_or(0) as f32 / n as f32;
        let big = BigGroups::new(&group_of, &sizes, self.space);
        m.outside = big.outside(n);
        self.big = Some(big);
        self.stage = Stage::GroupCentres(0);
        (to - from) as u64 * LABELS
    }

    fn group_centres(&mut self, from: usize, left: u64) -> u64 {
        let n = self.count();
        let weight = GROUP_CENTRE[self.wrapped()];
        let to = from + Self::fit(left, weight, n - from);
        let big = self.big.as_mut().expect("big groups after the labels");
        big.add_centres(&self.positions, &self.headings, from..to);
        self.stage = if to == n {
            self.metrics.group_polarization = big.polarization();
            self.metrics.group_correlation = big.correlation();
            Stage::GroupSpreads(0)
        } else {
            Stage::GroupCentres(to)
        };
        (to - from) as u64 * weight
    }

    fn group_spreads(&mut self, from: usize, left: u64) -> u64 {
        let n = self.count();
        let to = from + Self::fit(left, GROUP_SPREAD, n - from);
        let big = self.big.as_mut().expect("big groups after the labels");
        big.add_spreads(&self.positions, self.space, from..to);
        self.stage = if to == n {
            self.metrics.elongation = big.elongation();
            self.big = None;
            Stage::Done
        } else {
            Stage::GroupSpreads(to)
        };
        (to - from) as u64 * GROUP_SPREAD
    }
}
