//! The flock's reference: neighbours and accelerations found by checking every pair (what
//! the grid scan is tested against), and `inspect`, one boid seen up close through it with
//! the step's own `terms`. A child of `flock`, so it reads the flock's state directly.

use glam::Vec3;

use super::{nearer_first, Flock, Terms};
use crate::sim::behaviours::vec3_at;
use crate::sim::nearest::Nearest;
use crate::sim::rules::{self, Neighbourhood};
use crate::sim::scan::{look_around, neighbour_spans, Boids, View};

/// One boid seen up close: where it is, whom it heeds and why it turns.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspection {
    pub id: u32,
    pub position: Vec3,
    pub velocity: Vec3,
    /// Ids of the neighbours it heeds this step (in nearest-k mode, its k nearest).
    pub heeded: Vec<u32>,
    /// Ids of the boids inside its separation radius: they push it away (felt all round).
    pub too_close: Vec<u32>,
    /// Ids of the boids inside its perception radius that it does not heed because they are
    /// in its blind zone.
    pub unseen: Vec<u32>,
    /// Where each boid of `heeded`, `too_close` and `unseen` is: its id and its offset from
    /// this boid (across the nearest edge when the world wraps), for drawing the links.
    pub offsets: Vec<(u32, Vec3)>,
    pub terms: Terms,
}

/// The reference the step is tested against — every pair checked one at a time — and the
/// inspector, which reads one boid through it.
impl Flock {
    /// The boid with `id` up close (`None` for an unknown id): its neighbours found by
    /// checking every boid (the reference the grid is tested against) and the terms of its
    /// acceleration from the step's own `terms`.
    pub fn inspect(&self, id: u32) -> Option<Inspection> {
        let i = self.index_of(id)?;
        let p = vec3_at(&self.positions, i);
        let v = vec3_at(&self.velocities, i);
        let mut heeded = Vec::new();
        // Which boids it heeds, by index: one look per boid below, not a search of `heeded`.
        let mut heeds = vec![false; self.len()];
        let seen = self.look_around_brute_force(i, |j| {
            heeded.push(self.ids[j]);
            heeds[j] = true;
        });
        let view = View::new(&self.settings, self.world);
        let sight = view.sight(v);
        let (mut too_close, mut unseen, mut offsets) = (Vec::new(), Vec::new(), Vec::new());
        for j in (0..self.len()).filter(|&j| j != i) {
            let q = vec3_at(&self.positions, j);
            let offset = if self.settings.wrap {
                view.offset_between::<true>(p, q)
            } else {
                q - p
            };
            let d2 = offset.length_squared();
            let close = d2 < view.separation_squared && (!self.settings.topological || heeds[j]);
            if close {
                too_close.push(self.ids[j]);
            }
            let blind = sight.is_some_and(|sight| !sight.sees(offset, d2));
            let ignored = d2 <= view.perception_squared && blind;
            if ignored {
                unseen.push(self.ids[j]);
            }
            if close || ignored || heeds[j] {
                offsets.push((self.ids[j], offset));
            }
        }
        let terms = self.terms(p, v, &seen, &self.forces(), Flock::role(self.traits_of(id)));
        Some(Inspection {
            id,
            position: p,
            velocity: v,
            heeded,
            too_close,
            unseen,
            offsets,
            terms,
        })
    }

    /// Neighbours of every boid found through the grid's ranges (or, in nearest-k mode, its
    /// growing rings), as sorted lists of indices into the current arrays. For tests: the
    /// step scans the same cells.
    pub fn neighbour_sets(&mut self) -> Vec<Vec<usize>> {
        self.sort_into_cells();
        let view = View::new(&self.settings, self.world);
        let order = self.grid.order();
        let sorted = &self.sorted;
        let mut sets = vec![Vec::new(); self.len()];
        if self.settings.topological {
            let search = self.search(&view);
            let mut found = Nearest::new(self.settings.nearest_k);
            for (slot, &boid) in order.iter().enumerate() {
                search.nearest(&self.seeker(slot, &view), &mut found);
                let set = &mut sets[boid as usize];
                set.extend(found.iter().map(|(j, _, _)| order[j] as usize));
                set.sort_unstable();
            }
            return sets;
        }
        let mut spans = Vec::new();
        let boids = Boids {
            position: |j| sorted.position(j),
            velocity: |j| sorted.velocity(j),
            same_kind: |_, _| true,
        };
        for (slot, &boid) in order.iter().enumerate() {
            let p = sorted.position(slot);
            let cell = self.grid.cell_coords(p.x, p.y, p.z);
            neighbour_spans(&self.grid, cell, self.settings.wrap, self.world, &mut spans);
            let found = &mut sets[boid as usize];
            let candidates = spans.iter().flat_map(|s| s.slots.clone());
            let record = |j: usize| found.push(order[j] as usize);
            if self.settings.wrap {
                look_around::<true, _, _, _>(slot, candidates, &boids, &view, record);
            } else {
                look_around::<false, _, _, _>(slot, candidates, &boids, &view, record);
            }
            found.sort_unstable();
        }
        sets
    }

    /// Neighbours of every boid by checking every pair: the reference for the grid.
    pub fn neighbour_sets_brute_force(&self) -> Vec<Vec<usize>> {
        (0..self.len())
            .map(|i| {
                let mut found = Vec::new();
                self.look_around_brute_force(i, |j| found.push(j));
                found
            })
            .collect()
    }

    /// Boid `i`'s neighbourhood by checking every other boid, in the current order.
    fn look_around_brute_force(&self, i: usize, mut record: impl FnMut(usize)) -> Neighbourhood {
        let view = View::new(&self.settings, self.world);
        let boids = Boids {
            position: |j| vec3_at(&self.positions, j),
            velocity: |j| vec3_at(&self.velocities, j),
            same_kind: |i: usize, j: usize| self.species[i] == self.species[j],
        };
        if self.settings.topological {
            return self.nearest_brute_force(i, &view, &boids, record);
        }
        if self.settings.wrap {
            look_around::<true, _, _, _>(i, 0..self.len(), &boids, &view, record)
        } else {
            look_around::<false, _, _, _>(i, 0..self.len(), &boids, &view, &mut record)
        }
    }

    /// Boid `i`'s k nearest visible boids by sorting everyone by distance.
    fn nearest_brute_force<P, V, K>(
        &self,
        i: usize,
        view: &View,
        boids: &Boids<P, V, K>,
        mut record: impl FnMut(usize),
    ) -> Neighbourhood
    where
        P: Fn(usize) -> Vec3,
        V: Fn(usize) -> Vec3,
        K: Fn(usize, usize) -> bool,
    {
        let p = (boids.position)(i);
        let sight = view.sight((boids.velocity)(i));
        let everyone: Vec<(f32, usize, Vec3)> = (0..self.len())
            .filter(|&j| j != i)
            .map(|j| {
                let offset = if self.settings.wrap {
                    view.offset_between::<true>(p, (boids.position)(j))
                } else {
                    (boids.position)(j) - p
                };
                (offset.length_squared(), j, offset)
            })
            .filter(|&(d2, _, offset)| sight.is_none_or(|sight| sight.sees(offset, d2)))
            .collect();
        // By distance, ties in index order (as the stable sort of tuples this replaced).
        let mut keys: Vec<u64> = everyone
            .iter()
            .enumerate()
            .map(|(k, &(d2, _, _))| nearer_first(d2, k as u32))
            .collect();
        keys.sort_unstable();
        let nearest = keys
            .iter()
            .take(self.settings.nearest_k)
            .map(|&key| everyone[key as u32 as usize]);
        let mut seen = Neighbourhood::default();
        for (d2, j, offset) in nearest {
            record(j);
            seen.count += 1;
            let v = (boids.velocity)(j);
            if (boids.same_kind)(i, j) {
                seen.sum_velocity += v;
                seen.sum_offset += offset;
            }
            if d2 < view.separation_squared {
                seen.separation += rules::repulsion(offset, d2, (boids.velocity)(i) - v, i, j);
            }
        }
        seen
    }

    /// Accelerations (xyz per boid, in the current order) the next step would apply:
    /// through the step's own grid scan, or (`brute_force`) by checking every pair one at
    /// a time. For tests.
    pub fn accelerations(&mut self, brute_force: bool) -> Vec<f32> {
        let mut out = vec![0.0; self.positions.len()];
        let forces = self.forces();
        if brute_force {
            for i in 0..self.len() {
                let seen = self.look_around_brute_force(i, |_| {});
                let p = vec3_at(&self.positions, i);
                let v = vec3_at(&self.velocities, i);
                let (a, _) = self.acceleration(p, v, &seen, &forces);
                out[3 * i..3 * i + 3].copy_from_slice(&a.to_array());
            }
            return out;
        }
        self.sort_into_cells();
        let order = self.grid.order().to_vec();
        self.scan_all(0..self.walk_units(), |flock, slot, seen| {
            let p = flock.sorted.position(slot);
            let v = flock.sorted.velocity(slot);
            let boid = order[slot] as usize;
            let (a, _) = flock.acceleration(p, v, seen, &forces);
            out[3 * boid..3 * boid + 3].copy_from_slice(&a.to_array());
        });
        out
    }
}
