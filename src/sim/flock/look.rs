//! Stage 1 and 2 of a step: sort the boids into grid cells, then look around — each boid's
//! neighbours, through the SIMD scan's walk over the grid (`scan::Scanner`) or the nearest-k
//! search (`nearest`).

use crate::within::Within;

use crate::sim::measures::Bounds;
use crate::sim::nearest::{self, Nearest, Search, Seeker};
use crate::sim::rules::Neighbourhood;
use crate::sim::scan::{needs_nearest_image, neighbour_spans, View, ROWS_PER_CELL};

use super::Flock;
use crate::sim::settings::SKY_SCALE;

/// Nearest-k mode: grid cells this many times the typical distance to the k-th nearest
/// neighbour at the flock's mean density (flocks are denser than the mean where boids are).
/// Measured on the benchmark scenario: 0.8 beats 1.0, 1.2 and 1.5 (fewer candidates; the
/// rare boid left uncertain by its block of cells looks further in rings).
const NEAREST_CELL_FACTOR: f32 = 0.8;

/// Candidates a boid (in a window three rows high) from which the scan's grid splits its
/// cells into `ROWS_PER_CELL` rows, and below which it goes back to one
/// (`scan_rows_per_cell`). Natively, on the same settled states at 10,000 boids, two rows
/// cost 0.5 % more at 149 candidates (loose ribbons) and 4 % less at 172 (fish ball).
const CROWDED_AT: f32 = 180.0;
const SPARSE_BELOW: f32 = 150.0;

/// What `Grid::configure` is given for a step: computed once (`Flock::grid_shape`), applied
/// to the flock's grid by the sort and to a scratch grid by `scan_window`.
pub(super) struct GridShape {
    origin: [f32; 3],
    side: f32,
    radius: f32,
    budgeted: usize,
    flat: bool,
    rows_per_cell: usize,
}

impl GridShape {
    // Not inlined: the sort and `scan_window` share it, and the page's module is budgeted.
    #[inline(never)]
    pub(super) fn apply(&self, grid: &mut crate::sim::grid::Grid) {
        grid.configure(
            self.origin,
            self.side,
            self.radius,
            self.budgeted,
            self.flat,
            self.rows_per_cell,
        );
    }
}

impl Flock {
    /// Width the grid's cells are built for: the perception radius, or in nearest-k mode
    /// about the distance to the k-th nearest neighbour at the mean density of the view (under
    /// an open sky the flock flies in the view around home, not across the sky, 27 times
    /// emptier: cells sized by the sky held nearly the whole flock, `tests/nearest_k.rs`).
    pub(super) fn cell_radius(&self) -> f32 {
        let s = &self.settings;
        if !s.topological {
            return s.perception;
        }
        let (count, view) = (self.len().max(1) as f32, self.view_size());
        let k = s.nearest_k as f32;
        let typical = if s.flat {
            let per_area = count / (view * view);
            (k / (std::f32::consts::PI * per_area)).sqrt()
        } else {
            let per_volume = count / view.powi(3);
            (3.0 * k / (4.0 * std::f32::consts::PI * per_volume)).cbrt()
        };
        (NEAREST_CELL_FACTOR * typical).within(0.5, self.world)
    }

    /// The corner and side of the smallest cube (at least a cell radius wide) that holds
    /// every boid.
    fn bounding_cube(&self) -> ([f32; 3], f32) {
        let (low, high) = Bounds::of(&self.positions).corners();
        if !low.x.is_finite() {
            return ([0.0; 3], self.world); // no boids
        }
        let side = (high - low).max_element();
        // A hair wider, so that the farthest boid falls inside the last cell rather than on
        // its far face (where the clamp would put it anyway).
        (low.to_array(), (side * 1.0001).max(self.cell_radius()))
    }

    /// Rows of the grid along y to a cell's width: `ROWS_PER_CELL` in a crowded flock, one
    /// where cells hold a few boids each. Fewer candidates pay only when there are many:
    /// with two rows, the settled defaults at 10,000 step in 3.50 ms against 3.92 (SIMD128,
    /// Chromium, 255 candidates a boid with one row), but the standard scenario 100 steps
    /// after its uniform start (82) in 1.67 against 1.48, its smaller windows costing more
    /// than they save. Decided by the last step's candidates a boid, as a window three rows
    /// high would hold them, with a band between the two thresholds where the grid keeps
    /// its rows, so that a flock near one does not flip every step. The nearest-k search
    /// keeps one row: it looks in rings of cells as high as they are wide.
    // Not inlined: a shared step's take-in calls it too, and the module's budget is tight.
    #[inline(never)]
    pub(super) fn scan_rows_per_cell(&self) -> usize {
        if self.walks_cells() {
            return 1;
        }
        let rows = self.grid.rows_per_cell().max(1);
        let height = 2.0 + 1.0 / rows as f32;
        let crowding = self.mean_candidates * 3.0 / height;
        if crowding >= CROWDED_AT {
            ROWS_PER_CELL
        } else if crowding < SPARSE_BELOW {
            1
        } else {
            rows
        }
    }

    pub(super) fn sort_into_cells(&mut self) {
        let shape = self.grid_shape();
        shape.apply(&mut self.grid);
        self.grid.sort(&self.positions);
        self.sorted
            .gather(self.grid.order(), &self.positions, &self.velocities);
        if self.settings.species > 1 {
            self.sorted.gather_species(self.grid.order(), &self.species);
        }
        if self.settings.swarm() {
            self.prepare_swarm();
        }
    }

    /// Whether the walk's units are cells (nearest-k mode, and the swarm's scan), not
    /// columns of them.
    pub(super) fn walks_cells(&self) -> bool {
        self.settings.topological || self.settings.swarm()
    }

    /// The cells the next step's sort (`sort_into_cells`) builds for the flock as it is now;
    /// `scan_window` reads the cells the next step will scan through them.
    #[inline(never)]
    pub(super) fn grid_shape(&self) -> GridShape {
        let radius = self.cell_radius();
        let rows_per_cell = self.scan_rows_per_cell();
        // An open sky is SKY_SCALE³ times the view's volume, and the flock fills a small part
        // of it: the cells tile the cube around the flock, not the sky (the fish ball at
        // 10,000 boids: 11,000 cells, not 262,000, most of them empty, walked and summed
        // every step), budgeted as if the sky were as full as the view, else a flock strewn
        // across it would widen them past the radius (at 1,500 boids, 664 candidates a boid
        // instead of 300, 1.5× the step).
        let (origin, side, budgeted) = if self.settings.sky {
            let (low, side) = self.bounding_cube();
            (low, side, self.len() * SKY_SCALE.powi(3) as usize)
        } else {
            ([0.0; 3], self.world, self.len())
        };
        GridShape {
            origin,
            side,
            radius,
            budgeted,
            flat: self.settings.flat,
            rows_per_cell,
        }
    }

    /// The nearest-k search over the grid as sorted by `sort_into_cells`.
    pub(super) fn search<'a>(&'a self, view: &'a View) -> Search<'a> {
        Search {
            grid: &self.grid,
            sorted: &self.sorted,
            view,
            wrap: self.settings.wrap,
            // Not `self.len()`: the step has taken the arrays it writes the new state into.
            count: self.grid.order().len(),
        }
    }

    /// Whether sorted boids `i` and `j` are of the same species.
    pub(super) fn same_kind(&self, i: usize, j: usize) -> bool {
        self.settings.species <= 1 || self.sorted.species[i] == self.sorted.species[j]
    }

    /// How many units the scan walks: columns of cells (`Scanner::scan_all`), or in
    /// nearest-k mode cells, in the grid's order. A step split among workers hands each a
    /// run of them (`flock/parts.rs`).
    pub(super) fn walk_units(&self) -> usize {
        let grid = &self.grid;
        if self.walks_cells() {
            grid.cell_count()
        } else {
            grid.layers() * grid.dims()
        }
    }

    /// Calls `found(slots)` over the slots of the walk's `units` in as few runs as it can:
    /// whole layers of cells lie end to end in slots, so a run of them is one run; the part
    /// of a layer a share holds (a run of its columns) is one run per row of cells. What
    /// `glide_all` moves, `WIDE` lanes at a time (per cell, about 3 boids at 100,000 settled
    /// defaults, a worker's half of the step took 1.3× what it should), and the runs a
    /// worker's share hands back (per cell, taking the shares in cost 6 ms at 100,000).
    pub(super) fn unit_runs(
        &self,
        units: std::ops::Range<usize>,
        mut found: impl FnMut(std::ops::Range<usize>),
    ) {
        let grid = &self.grid;
        let mut run = |slots: std::ops::Range<usize>| {
            if !slots.is_empty() {
                found(slots);
            }
        };
        if units.is_empty() {
            return;
        }
        if self.walks_cells() {
            run(grid.slots_before(units.start)..grid.slots_before(units.end));
            return;
        }
        let (dims, per_layer) = (grid.dims(), grid.rows() * grid.dims());
        let mut unit = units.start;
        while unit < units.end {
            let (z, x) = (unit / dims, unit % dims);
            let whole_layers = (units.end - unit) / dims;
            if x == 0 && whole_layers > 0 {
                let cells = z * per_layer..(z + whole_layers) * per_layer;
                run(grid.slots_before(cells.start)..grid.slots_before(cells.end));
                unit += whole_layers * dims;
            } else {
                // Columns x.. of layer z, to the layer's end or the share's.
                let x_end = (units.end - z * dims).min(dims);
                for y in 0..grid.rows() {
                    let first = grid.cell_index([x, y, z]);
                    run(grid.slots(first, first + (x_end - x) - 1));
                }
                unit = z * dims + x_end;
            }
        }
    }

    /// Calls `visit(slot, neighbourhood)` for every boid of the walk's `units`
    /// (`walk_units`), scanning the grid. Returns how many candidates were examined in all.
    pub(super) fn scan_all(
        &mut self,
        units: std::ops::Range<usize>,
        mut visit: impl FnMut(&Self, usize, &Neighbourhood),
    ) -> u64 {
        if self.settings.swarm() {
            return self.scan_all_swarm(units, &mut visit);
        }
        #[cfg(any(not(target_arch = "wasm32"), feature = "lab"))]
        if self.lab.method != crate::sim::search::SearchMethod::Grid {
            return self.scan_all_by_method(units, &mut visit);
        }
        let view = View::new(&self.settings, self.world);
        if self.settings.topological {
            return self.scan_all_nearest(&view, units, visit);
        }
        let mut scanner = std::mem::take(&mut self.scanner);
        let (wrap, species) = (self.settings.wrap, self.settings.species > 1);
        let examined = scanner.scan_all(
            &self.grid,
            &self.sorted,
            &view,
            wrap,
            species,
            units,
            |i, seen| visit(self, i, seen),
        );
        self.scanner = scanner;
        examined
    }

    /// `scan_all` in nearest-k mode over the grid's `cells` (in index order): each boid's
    /// k nearest, looked for first in the block of cells around its own (built once per
    /// cell, as the radius scan does), then in growing rings of cells if need be.
    pub(super) fn scan_all_nearest(
        &mut self,
        view: &View,
        cells: std::ops::Range<usize>,
        mut visit: impl FnMut(&Self, usize, &Neighbourhood),
    ) -> u64 {
        let mut spans = std::mem::take(&mut self.spans);
        let search = self.search(view);
        let wrap = self.settings.wrap;
        // Spans of a world only a few cells wide cannot carry the wrap: rings handle it.
        let rings_only = needs_nearest_image(&self.grid, wrap);
        let mut found = Nearest::new(self.settings.nearest_k);
        let mut examined = 0u64;
        let (dims, rows) = (self.grid.dims(), self.grid.rows());
        for cell in cells {
            let (x, y, z) = (cell % dims, cell / dims % rows, cell / dims / rows);
            let own = self.grid.slots_of([x, y, z]);
            if own.is_empty() {
                continue;
            }
            if !rings_only {
                neighbour_spans(&self.grid, [x, y, z], wrap, self.world, &mut spans);
            }
            for i in own {
                let seeker = self.seeker(i, view);
                examined += if rings_only {
                    search.nearest(&seeker, &mut found)
                } else {
                    search.nearest_around(&seeker, &spans, &mut found)
                } as u64;
                let seen = nearest::neighbourhood(
                    i,
                    &found,
                    |j| self.sorted.velocity(j),
                    |j| self.same_kind(i, j),
                    |j| self.sorted.label[j] as usize,
                    view.separation_squared,
                );
                visit(self, i, &seen);
            }
        }
        self.spans = spans;
        examined
    }

    /// Sorted boid `i` looking for its neighbours, as `view` lets it.
    pub(super) fn seeker(&self, i: usize, view: &View) -> Seeker {
        Seeker {
            point: self.sorted.position(i),
            exclude: Some(i),
            sight: view.sight(self.sorted.velocity(i)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Param;

    /// Rows along y after a sort with the last step's candidates `mean`.
    fn rows_after(flock: &mut Flock, mean: f32) -> usize {
        flock.mean_candidates = mean;
        flock.sort_into_cells();
        flock.grid.rows_per_cell()
    }

    #[test]
    fn crowded_flocks_split_their_cells_into_rows_and_sparse_ones_do_not() {
        let mut flock = Flock::new(200, Some(1));
        // A fresh flock has looked at nobody yet: one row.
        assert_eq!(rows_after(&mut flock, 0.0), 1);
        assert_eq!(rows_after(&mut flock, 170.0), 1, "inside the band: kept");
        assert_eq!(rows_after(&mut flock, CROWDED_AT), ROWS_PER_CELL);
        // With two rows a window is 2.5 widths high: 130 candidates there are 156 in three.
        assert_eq!(
            rows_after(&mut flock, 130.0),
            ROWS_PER_CELL,
            "inside the band"
        );
        assert_eq!(
            rows_after(&mut flock, 120.0),
            1,
            "144 in three rows: sparse"
        );
        // Sorting again with the same figures changes nothing (the reference paths sort
        // between steps).
        assert_eq!(rows_after(&mut flock, 120.0), 1);
        assert_eq!(rows_after(&mut flock, 400.0), ROWS_PER_CELL);
        assert_eq!(rows_after(&mut flock, 400.0), ROWS_PER_CELL);
        // Nearest-k looks in rings of cells as high as they are wide.
        flock.set(Param::Topological, 1.0).unwrap();
        assert_eq!(rows_after(&mut flock, 400.0), 1);
    }

    /// Under the open sky the cells tile the cube around the flock, from its corner: the
    /// boid lowest on each axis lies in the first cell along it, the highest in the last,
    /// and there are no more cells than that cube holds (in a box, the whole world).
    #[test]
    fn under_the_sky_the_cells_tile_the_cube_around_the_flock() {
        let mut flock = Flock::new(1500, Some(2));
        assert!(flock.is_sky());
        for _ in 0..120 {
            flock.step(1.0 / 60.0);
        }
        flock.sort_into_cells();
        let (low, side) = flock.bounding_cube();
        assert!(
            side < 0.5 * flock.world_size(),
            "the flock fills {side} of the sky"
        );
        assert_eq!(flock.grid.origin(), low);
        let per_axis = (side / flock.settings.perception).floor().max(1.0) as usize;
        assert_eq!(flock.grid.dims(), per_axis);
        for k in 0..3 {
            let extreme = |pick: fn(f32, f32) -> f32| {
                let mut at = [0.0f32; 3];
                let mut best = flock.positions[k];
                for p in flock.positions.chunks_exact(3) {
                    if pick(p[k], best) == p[k] {
                        best = p[k];
                        at = [p[0], p[1], p[2]];
                    }
                }
                flock.grid.cell_coords(at[0], at[1], at[2])[k]
            };
            let last = [flock.grid.dims(), flock.grid.rows(), flock.grid.layers()][k] - 1;
            assert_eq!(extreme(f32::min), 0, "axis {k}: the lowest boid");
            assert_eq!(extreme(f32::max), last, "axis {k}: the highest boid");
        }
        // In a box the cells start at the world's corner.
        flock.set(Param::Sky, 0.0).unwrap();
        flock.sort_into_cells();
        assert_eq!(flock.grid.origin(), [0.0; 3]);
    }
}
