//! Stage 2 of a step by another method than the grid's scan (issue 42, the algorithm lab):
//! every pair (`naive`) or a Morton-ordered search (`morton`), `search.rs`. The candidates
//! differ; what a boid makes of them is the rules' own (`scan::look_around`, or in nearest-k
//! mode `nearest`), so every method finds the same neighbours. Built natively and in a
//! module with the `lab` feature; the page's module keeps the grid alone (its size).

use std::ops::Range;

use glam::Vec3;

use super::Flock;
use crate::sim::nearest::{self, Nearest};
use crate::sim::rules::Neighbourhood;
use crate::sim::scan::{look_around, Boids, View};
use crate::sim::search::{MortonIndex, SearchMethod};

/// The method chosen and its index.
#[derive(Clone, Debug, Default)]
pub struct Lab {
    pub method: SearchMethod,
    morton: MortonIndex,
    /// Scratch: runs of the Morton order to scan.
    ranges: Vec<Range<usize>>,
    /// Scratch: candidates as sorted slots.
    candidates: Vec<usize>,
}

impl Flock {
    /// How the step finds neighbours (the grid by default).
    pub fn search_method(&self) -> SearchMethod {
        self.lab.method
    }

    /// Finds neighbours by `method` from the next step on. Every method finds the same
    /// neighbours (the flock moves the same, to float rounding); only the work differs.
    pub fn set_search_method(&mut self, method: SearchMethod) {
        self.lab.method = method;
    }

    // `dyn`: one copy in a module for every caller of `scan_all` (the worker's module is
    // held to a size).
    /// `scan_all` by the lab's method (not the grid): `visit(slot, neighbourhood)` for every
    /// boid of the walk's `units`; returns the candidates examined (distance checks).
    pub(super) fn scan_all_by_method(
        &mut self,
        units: Range<usize>,
        visit: &mut dyn FnMut(&Self, usize, &Neighbourhood),
    ) -> u64 {
        let view = View::new(&self.settings, self.world);
        let mut lab = std::mem::take(&mut self.lab);
        let count = self.grid.order().len();
        if lab.method == SearchMethod::Morton {
            self.index_morton(&mut lab.morton);
        }
        let mut slots = Vec::new();
        self.unit_runs(units, |run| slots.push(run));
        let mut examined = 0u64;
        let mut found = Nearest::new(self.settings.nearest_k);
        for i in slots.into_iter().flatten() {
            examined += self.candidates_of(i, &view, &mut lab, count, &mut found);
            let seen = self.neighbourhood_of(i, &view, &lab.candidates, &found);
            visit(self, i, &seen);
        }
        self.lab = lab;
        examined
    }

    /// Neighbours of every boid found by `method`, as sorted lists of indices into the
    /// current arrays (as `neighbour_sets`), and the distance checks it made. For tests.
    pub fn neighbour_sets_by(&mut self, method: SearchMethod) -> (Vec<Vec<usize>>, u64) {
        if method == SearchMethod::Grid {
            return (self.neighbour_sets(), 0);
        }
        self.sort_into_cells();
        let view = View::new(&self.settings, self.world);
        let mut lab = std::mem::take(&mut self.lab);
        lab.method = method;
        let count = self.grid.order().len();
        if method == SearchMethod::Morton {
            self.index_morton(&mut lab.morton);
        }
        let mut found = Nearest::new(self.settings.nearest_k);
        let mut sets = vec![Vec::new(); self.len()];
        let mut examined = 0;
        let order = self.grid.order();
        for (i, &boid) in order.iter().enumerate() {
            examined += self.candidates_of(i, &view, &mut lab, count, &mut found);
            let set = &mut sets[boid as usize];
            if self.settings.topological {
                set.extend(found.iter().map(|(j, _, _)| order[j] as usize));
            } else {
                self.look(i, &view, lab.candidates.iter().copied(), |j| {
                    set.push(order[j] as usize)
                });
            }
            set.sort_unstable();
        }
        self.lab.morton = lab.morton;
        self.lab.ranges = lab.ranges;
        self.lab.candidates = lab.candidates;
        (sets, examined)
    }

    /// Sorts the (cell-ordered) boids by Morton code, in cells a search radius wide over the
    /// cube the grid tiles (the world, or under an open sky the cube around the flock).
    fn index_morton(&self, morton: &mut MortonIndex) {
        let grid = &self.grid;
        let origin = Vec3::from(grid.origin());
        let side = grid.dims() as f32 * grid.cell_width();
        morton.build(
            grid.order().len(),
            |i| self.sorted.position(i),
            origin,
            side,
            self.cell_radius(),
            self.settings.flat,
            self.settings.wrap,
        );
    }

    /// Gathers sorted boid `i`'s candidates into `lab.candidates` (radius mode) or its k
    /// nearest into `found` (nearest-k mode); returns the distance checks made.
    fn candidates_of(
        &self,
        i: usize,
        view: &View,
        lab: &mut Lab,
        count: usize,
        found: &mut Nearest,
    ) -> u64 {
        let topological = self.settings.topological;
        let search = self.search(view);
        let seeker = self.seeker(i, view);
        lab.candidates.clear();
        if lab.method == SearchMethod::Naive {
            if topological {
                found.clear();
                search.offer_everyone(&seeker, found);
            } else {
                lab.candidates.extend(0..count);
            }
            return count as u64 - 1;
        }
        let cell = lab.morton.cell_of(seeker.point);
        if !topological {
            lab.ranges.clear();
            lab.morton.ranges(cell, 0, 1, &mut lab.ranges);
            for range in &lab.ranges {
                lab.candidates
                    .extend(range.clone().map(|at| lab.morton.boid(at)));
            }
            return lab.candidates.len() as u64 - 1;
        }
        // Nearest k: rings of cells, outward, until the k-th nearest is nearer than any boid
        // the next ring could hold (or every cell has been searched).
        found.clear();
        let mut examined = 0u64;
        let width = lab.morton.min_width();
        let mut reach = 0;
        loop {
            if lab.morton.covers_all(reach) {
                found.clear();
                return examined + search.offer_everyone(&seeker, found) as u64;
            }
            lab.ranges.clear();
            lab.morton.ranges(cell, reach, reach, &mut lab.ranges);
            for range in &lab.ranges {
                for at in range.clone() {
                    examined += 1;
                    search.offer_slot(lab.morton.boid(at), &seeker, found);
                }
            }
            let sure = reach as f32 * width;
            if found.len() == self.settings.nearest_k.max(1)
                && found
                    .iter()
                    .last()
                    .is_some_and(|(_, d2, _)| d2 <= sure * sure)
            {
                return examined;
            }
            reach += 1;
        }
    }

    /// What sorted boid `i` makes of its candidates (radius mode) or its k nearest.
    fn neighbourhood_of(
        &self,
        i: usize,
        view: &View,
        candidates: &[usize],
        found: &Nearest,
    ) -> Neighbourhood {
        if self.settings.topological {
            return nearest::neighbourhood(
                i,
                found,
                |j| self.sorted.velocity(j),
                |j| self.same_kind(i, j),
                |j| self.sorted.label[j] as usize,
                view.separation_squared,
            );
        }
        self.look(i, view, candidates.iter().copied(), |_| {})
    }

    /// `look_around` over sorted slots `candidates`, as the reference does.
    fn look(
        &self,
        i: usize,
        view: &View,
        candidates: impl Iterator<Item = usize>,
        record: impl FnMut(usize),
    ) -> Neighbourhood {
        let boids = Boids {
            position: |j| self.sorted.position(j),
            velocity: |j| self.sorted.velocity(j),
            same_kind: |i, j| self.same_kind(i, j),
        };
        if self.settings.wrap {
            look_around::<true, _, _, _>(i, candidates, &boids, view, record)
        } else {
            look_around::<false, _, _, _>(i, candidates, &boids, view, record)
        }
    }
}
