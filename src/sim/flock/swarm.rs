//! Stage 2 and 3 of a step for the engineering frontier's swarms (`sim/swarm.rs`): while a
//! delay, message loss, failures or roles are on, each boid looks around here, one
//! neighbour at a time, rather than through the SIMD scan (which the others keep, bit for
//! bit: nothing here runs while all four are 0).
//!
//! A neighbour is heard when it is in radio range now (inside the perception radius, or
//! one of the k nearest) and its message is not lost this step; what it says is where it
//! was and how it flew `delay` seconds ago (a failing one in `WrongHeading` mode says a
//! wrong heading). The rules then work on what was heard exactly as on what is seen
//! (`scan::look_around`): separation, the field of view and the zone of orientation all
//! measured to where the neighbour said it was.
//!
//! The sort (`sort_into_cells`) lays out, slot by slot, each boid's id, whether it failed or
//! is bold, and what its neighbours hear of it (`prepare`): a worker sharing the step lays
//! out the same from the same ids and the one frame of the past its head carries.

use std::ops::Range;

use glam::Vec3;

use super::Flock;
use crate::sim::edges::{confine, nearest_image};
use crate::sim::nearest::Nearest;
use crate::sim::rules::{self, Neighbourhood};
use crate::sim::scan::{neighbour_spans, View};
use crate::sim::swarm::{self, FailureMode, History, Role, BOLD, FAILED, HALT_TIME};

/// The swarm's state in the flock: its past, and the step's layout slot by slot.
#[derive(Clone, Debug, Default)]
pub(super) struct SwarmState {
    /// Kept while the delay is above 0 (`settle` records a frame a step).
    pub history: History,
    /// Per slot of the step's sort: the boid's id and its bits (`swarm::FAILED`, `BOLD`).
    ids: Vec<u32>,
    traits: Vec<u8>,
    /// Per slot, xyz each: where its neighbours hear it is and how they hear it flies.
    said_positions: Vec<f32>,
    said_velocities: Vec<f32>,
    /// Scratch: each id's place in the frame of the past being read (`u32::MAX`: none).
    in_frame: Vec<u32>,
    /// Scratch: the runs of slots a boid hears from (the spans around its cell, or its k
    /// nearest one slot a run).
    runs: Vec<Range<usize>>,
}

impl SwarmState {
    fn said(&self, j: usize) -> (Vec3, Vec3) {
        (
            Vec3::from_slice(&self.said_positions[3 * j..3 * j + 3]),
            Vec3::from_slice(&self.said_velocities[3 * j..3 * j + 3]),
        )
    }
}

impl Flock {
    /// Lays the step's slots out for the swarm (after the sort: `sort_into_cells`).
    pub(super) fn prepare_swarm(&mut self) {
        let Flock {
            grid,
            ids,
            sorted,
            swarm: state,
            settings: s,
            seed,
            elapsed,
            ..
        } = self;
        let order = grid.order();
        let n = order.len();
        state.ids.clear();
        state
            .ids
            .extend(order.iter().map(|&boid| ids[boid as usize]));
        state.traits.clear();
        state.traits.extend(
            state
                .ids
                .iter()
                .map(|&id| swarm::traits(*seed, id, s.failures, s.roles)),
        );
        state.said_positions.resize(3 * n, 0.0);
        state.said_velocities.resize(3 * n, 0.0);
        for slot in 0..n {
            sorted
                .position(slot)
                .write_to_slice(&mut state.said_positions[3 * slot..3 * slot + 3]);
            sorted
                .velocity(slot)
                .write_to_slice(&mut state.said_velocities[3 * slot..3 * slot + 3]);
        }
        if s.delay > 0.0 {
            if let Some(frame) = state.history.read(*elapsed, s.delay) {
                let top = frame.ids.iter().max().map_or(0, |&id| id as usize + 1);
                state.in_frame.clear();
                state.in_frame.resize(top, u32::MAX);
                for (k, &id) in frame.ids.iter().enumerate() {
                    state.in_frame[id as usize] = k as u32;
                }
                for slot in 0..n {
                    let id = state.ids[slot] as usize;
                    // A boid newer than the frame is heard as it is now.
                    let Some(&k) = state.in_frame.get(id).filter(|&&k| k != u32::MAX) else {
                        continue;
                    };
                    let k = k as usize;
                    let from = 3 * k..3 * k + 3;
                    let to = 3 * slot..3 * slot + 3;
                    state.said_positions[to.clone()]
                        .copy_from_slice(&frame.positions[from.clone()]);
                    state.said_velocities[to].copy_from_slice(&frame.velocities[from]);
                }
            }
        }
        let lying = s.failures > 0.0
            && FailureMode::from_number(s.failure_mode) == FailureMode::WrongHeading;
        if lying {
            for slot in (0..n).filter(|&slot| state.traits[slot] & FAILED != 0) {
                let v = &mut state.said_velocities[3 * slot..3 * slot + 3];
                let speed = Vec3::from_slice(v).length().max(s.speed);
                (swarm::wrong_heading(*seed, state.ids[slot], s.flat) * speed).write_to_slice(v);
            }
        }
    }

    /// `scan_all` for the swarm, over the grid's `cells` (in index order). One copy in a
    /// module whoever calls it (`visit` is `dyn`, called once a boid) and one of `hears`
    /// for both kinds of neighbourhood (runs of slots): generic, the two cost the page's
    /// module about 1.5 KB gzipped more.
    pub(super) fn scan_all_swarm(
        &mut self,
        cells: Range<usize>,
        visit: &mut dyn FnMut(&Self, usize, &Neighbourhood),
    ) -> u64 {
        let mut spans = std::mem::take(&mut self.spans);
        let mut runs = std::mem::take(&mut self.swarm.runs);
        let this = &*self;
        let view = View::new(&this.settings, this.world);
        let search = this.search(&view);
        let mut found = Nearest::new(this.settings.nearest_k);
        let (wrap, world, topological) =
            (this.settings.wrap, this.world, this.settings.topological);
        let (dims, rows) = (this.grid.dims(), this.grid.rows());
        let mut examined = 0u64;
        for cell in cells {
            let at = [cell % dims, cell / dims % rows, cell / dims / rows];
            let own = this.grid.slots_of(at);
            if own.is_empty() {
                continue;
            }
            if !topological {
                neighbour_spans(&this.grid, at, wrap, world, &mut spans);
            }
            if !topological {
                runs.clear();
                runs.extend(spans.iter().map(|span| span.slots.clone()));
            }
            for i in own {
                let seen = if topological {
                    examined += search.nearest(&this.seeker(i, &view), &mut found) as u64;
                    runs.clear();
                    runs.extend(found.iter().map(|(j, _, _)| j..j + 1));
                    this.hears(i, &runs, &view, None)
                } else {
                    examined += runs.iter().map(|run| run.len() as u64).sum::<u64>();
                    this.hears(i, &runs, &view, Some(view.perception_squared))
                };
                visit(this, i, &seen);
            }
        }
        self.spans = spans;
        self.swarm.runs = runs;
        examined
    }

    /// What sorted boid `i` hears of the slots in `candidates`: those in range now (`reach`, squared;
    /// `None`: all of them, the k nearest) whose message gets through, as they said they
    /// were.
    #[inline(never)]
    fn hears(
        &self,
        i: usize,
        candidates: &[Range<usize>],
        view: &View,
        reach: Option<f32>,
    ) -> Neighbourhood {
        let (s, state, sorted) = (&self.settings, &self.swarm, &self.sorted);
        let (wrap, world) = (s.wrap, self.world);
        let p = sorted.position(i);
        let v = sorted.velocity(i);
        let sight = view.sight(v);
        let listener = state.ids[i];
        let species = s.species > 1;
        let mut seen = Neighbourhood::default();
        for j in candidates.iter().flat_map(Clone::clone) {
            if j == i {
                continue;
            }
            if let Some(reach) = reach {
                if nearest_image(sorted.position(j) - p, world, wrap).length_squared() > reach {
                    continue;
                }
            }
            if !swarm::heard(
                self.seed,
                self.ticks,
                listener,
                state.ids[j],
                s.message_loss,
            ) {
                continue;
            }
            let (q, u) = state.said(j);
            let offset = nearest_image(q - p, world, wrap);
            let d2 = offset.length_squared();
            if d2 < view.separation_squared {
                let (label_i, label_j) = (sorted.label[i] as usize, sorted.label[j] as usize);
                seen.separation += rules::repulsion(offset, d2, v - u, label_i, label_j);
            }
            if sight.is_some_and(|sight| !sight.sees(offset, d2)) {
                continue;
            }
            seen.count += 1;
            if !species || sorted.species[i] == sorted.species[j] {
                if view.aligns(d2) {
                    seen.sum_velocity += u;
                }
                seen.sum_offset += offset;
            }
        }
        seen
    }

    /// The bits (`swarm::FAILED`, `BOLD`) of sorted boid `i` this step: none unless the
    /// swarm is on.
    pub(super) fn traits_of_slot(&self, i: usize) -> u8 {
        if self.settings.swarm() {
            self.swarm.traits.get(i).copied().unwrap_or(0)
        } else {
            0
        }
    }

    /// The bits of the boid with `id` (as `traits_of_slot`, from its id).
    pub fn traits_of(&self, id: u32) -> u8 {
        let s = &self.settings;
        swarm::traits(self.seed, id, s.failures, s.roles)
    }

    /// The role a boid with `bits` flies.
    pub(super) fn role(bits: u8) -> Role {
        if bits & BOLD != 0 {
            Role::BOLD
        } else {
            Role::ORDINARY
        }
    }

    /// A failed boid's next position and velocity: no rule, no wall, no hawk steers it.
    pub(super) fn drift(&self, i: usize, h: f32) -> ([f32; 3], [f32; 3]) {
        let s = &self.settings;
        let (p, mut v) = (self.sorted.position(i), self.sorted.velocity(i));
        if FailureMode::from_number(s.failure_mode) == FailureMode::Halt {
            v *= (-h / HALT_TIME).exp();
        }
        let next = p + h * v;
        let (mut position, mut velocity) = ([0.0; 3], [0.0; 3]);
        for axis in 0..3 {
            (position[axis], velocity[axis]) = confine(next[axis], v[axis], self.world, s.wrap);
        }
        (position, velocity)
    }

    /// After a step: the flock's state recorded into its past while the delay is on.
    pub(super) fn remember(&mut self) {
        let delay = self.settings.delay;
        if delay > 0.0 {
            let (now, ids) = (self.elapsed, &self.ids);
            self.swarm
                .history
                .record(now, ids, &self.positions, &self.velocities, delay);
        }
    }

    /// The past the flock keeps (for its snapshot), and room to read one back into.
    pub(super) fn history(&self) -> &History {
        &self.swarm.history
    }

    pub(super) fn history_mut(&mut self) -> &mut History {
        &mut self.swarm.history
    }
}
