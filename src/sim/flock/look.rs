//! Stage 1 and 2 of a step: sort the boids into grid cells, then look around — each boid's
//! neighbours, through the SIMD scan's walk over the grid (`scan::Scanner`) or the nearest-k
//! search (`nearest`).

use crate::within::Within;

use crate::sim::nearest::{self, Nearest, Search, Seeker};
use crate::sim::rules::Neighbourhood;
use crate::sim::scan::{needs_nearest_image, neighbour_spans, View, ROWS_PER_CELL};

use super::Flock;

/// Nearest-k mode: grid cells this many times the typical distance to the k-th nearest
/// neighbour at the flock's mean density (flocks are denser than the mean where boids are).
/// Measured on the benchmark scenario: 0.8 beats 1.0, 1.2 and 1.5 (fewer candidates; the
/// rare boid left uncertain by its block of cells looks further in rings).
const NEAREST_CELL_FACTOR: f32 = 0.8;

impl Flock {
    /// Width the grid's cells are built for: the perception radius, or in nearest-k mode
    /// about the distance to the k-th nearest neighbour at the mean density.
    pub(super) fn cell_radius(&self) -> f32 {
        let s = &self.settings;
        if !s.topological {
            return s.perception;
        }
        let count = self.len().max(1) as f32;
        let k = s.nearest_k as f32;
        let typical = if s.flat {
            let per_area = count / (self.world * self.world);
            (k / (std::f32::consts::PI * per_area)).sqrt()
        } else {
            let per_volume = count / self.world.powi(3);
            (3.0 * k / (4.0 * std::f32::consts::PI * per_volume)).cbrt()
        };
        (NEAREST_CELL_FACTOR * typical).within(0.5, self.world)
    }

    pub(super) fn sort_into_cells(&mut self) {
        let radius = self.cell_radius();
        // The nearest-k search looks in rings of cells as wide as they are high.
        let rows_per_cell = if self.settings.topological {
            1
        } else {
            ROWS_PER_CELL
        };
        self.grid.configure(
            self.world,
            radius,
            self.len(),
            self.settings.flat,
            rows_per_cell,
        );
        self.grid.sort(&self.positions);
        self.sorted
            .gather(self.grid.order(), &self.positions, &self.velocities);
        if self.settings.species > 1 {
            self.sorted.gather_species(self.grid.order(), &self.species);
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

    /// Calls `visit(slot, neighbourhood)` for every boid in cell order, scanning the grid.
    /// Returns how many candidates were examined in all.
    pub(super) fn scan_all(&mut self, mut visit: impl FnMut(&Self, usize, &Neighbourhood)) -> u64 {
        let view = View::new(&self.settings, self.world);
        if self.settings.topological {
            return self.scan_all_nearest(&view, visit);
        }
        let mut scanner = std::mem::take(&mut self.scanner);
        let (wrap, species) = (self.settings.wrap, self.settings.species > 1);
        let examined =
            scanner.scan_all(&self.grid, &self.sorted, &view, wrap, species, |i, seen| {
                visit(self, i, seen)
            });
        self.scanner = scanner;
        examined
    }

    /// `scan_all` in nearest-k mode: each boid's k nearest, looked for first in the block of
    /// cells around its own (built once per cell, as the radius scan does), then in growing
    /// rings of cells if need be.
    pub(super) fn scan_all_nearest(
        &mut self,
        view: &View,
        mut visit: impl FnMut(&Self, usize, &Neighbourhood),
    ) -> u64 {
        let mut spans = std::mem::take(&mut self.spans);
        let search = self.search(view);
        let wrap = self.settings.wrap;
        // Spans of a world only a few cells wide cannot carry the wrap: rings handle it.
        let rings_only = needs_nearest_image(&self.grid, wrap);
        let mut found = Nearest::new(self.settings.nearest_k);
        let mut examined = 0u64;
        let (dims, rows, layers) = (self.grid.dims(), self.grid.rows(), self.grid.layers());
        for z in 0..layers {
            for y in 0..rows {
                for x in 0..dims {
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
