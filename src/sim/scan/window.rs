//! The step's scan: every boid of a cell looks through the cell's window (the boids around
//! the cell, gathered into one range) four candidates at a time in `Vec4` lanes (SSE2
//! natively, `simd128` in wasm), in three passes, each with few vectors live:
//! 1. [`heed_pass`], positions: who is inside the perception radius (and the field of
//!    view, and of the boid's kind), leaving each group's 0/1 weights, the cohesion sum and
//!    a bit per lane closer than the separation radius;
//! 2. [`velocity_pass`]: the alignment sum and the count, through the weights;
//! 3. [`separation_pass`]: the push from the few groups with a close neighbour.
//!
//! In one pass V8 ran out of registers and kept the sums on the stack, loading and storing
//! them in every group; sums are reduced across lanes as each pass ends, for the same reason.

use std::ops::Range;

use glam::{Vec3, Vec4};

use super::{mul_add, Nearby, View};
use crate::sim::edges::nearest_image_lanes;
use crate::sim::lanes::{keep, LANES};
use crate::sim::rules::{self, Neighbourhood, COINCIDENT};
use crate::sim::scan::Sorted;

/// Groups of lanes whose close-lane bits share one `u64`.
const GROUPS_PER_WORD: usize = 64 / LANES;
const LANE_BITS: usize = (1 << LANES) - 1;
/// Lane bits as a mask: lane `k` is set where bit `k` is.
const LANE_MASKS: [[f32; LANES]; 1 << LANES] = {
    let mut masks = [[0.0; LANES]; 1 << LANES];
    let mut bits = 0;
    while bits < 1 << LANES {
        let mut lane = 0;
        while lane < LANES {
            if bits & (1 << lane) != 0 {
                masks[bits][lane] = 1.0;
            }
            lane += 1;
        }
        bits += 1;
    }
    masks
};

/// What every boid of a cell shares while it scans the window: its columns, in whole
/// groups of lanes (the last may run into the padding: boids too far away to count), and
/// the view's constants as lanes.
struct Window<'a> {
    x: &'a [f32],
    y: &'a [f32],
    z: &'a [f32],
    vx: &'a [f32],
    vy: &'a [f32],
    vz: &'a [f32],
    /// Empty unless there is more than one species.
    species: &'a [f32],
    groups: usize,
    world: Vec4,
    half_world: Vec4,
    perception_squared: Vec4,
    /// "Inside the perception radius and closer than the separation radius" is one
    /// comparison: below the separation radius², or below just above the perception
    /// radius² where that is the smaller (a separation radius may exceed the perception
    /// radius).
    close_below: Vec4,
}

impl Window<'_> {
    /// The offset along one axis, across a wrapped edge when `WRAP` (only in worlds so few
    /// cells wide that spans cannot carry the shift).
    #[inline(always)]
    fn wrap<const WRAP: bool>(&self, d: Vec4) -> Vec4 {
        if WRAP {
            nearest_image_lanes(d, self.world, self.half_world)
        } else {
            d
        }
    }
}

/// The boid that looks, in lanes.
struct Looker {
    x: Vec4,
    y: Vec4,
    z: Vec4,
    /// Its heading (zero at rest).
    fx: Vec4,
    fy: Vec4,
    fz: Vec4,
    /// `rules::in_field_of_view`: ahead·|ahead| must beat this times r².
    fov_threshold: Vec4,
    kind: Vec4,
}

/// The step's scan for the boids `own` of one cell (slots of `sorted`): the same sums as
/// [`super::look_around`] over `window` of `nearby`. Calls `on_seen(i, sums, piled)` for
/// each boid `i`; `piled`: another boid sits at the very same point (for
/// [`super::push_apart_piled`]). What the boids of the cell share is set up once for them
/// all.
/// `WRAP`: find the nearest image of every candidate; `FOV`: the field of view is narrower
/// than 360°; `SPECIES`: more than one species, so alignment and cohesion sum only the
/// boid's own kind (read from the `species` columns, which are empty otherwise).
/// The boid itself is scanned too (it is in its own cell) and taken out at the end, which
/// costs less than masking it in every group of lanes.
#[inline(always)]
pub fn look_around_lanes<const WRAP: bool, const FOV: bool, const SPECIES: bool>(
    own: Range<usize>,
    sorted: &Sorted,
    nearby: &mut Nearby,
    window: Range<usize>,
    view: &View,
    mut on_seen: impl FnMut(usize, Neighbourhood, bool),
) {
    let Nearby {
        boids: nearby,
        close_words,
        weights,
    } = nearby;
    debug_assert_eq!(window.end, nearby.count(), "the window ends at the padding");
    let lanes = window.start..window.start + window.len().next_multiple_of(LANES);
    let groups = lanes.len() / LANES;
    let words = groups.div_ceil(GROUPS_PER_WORD);
    if weights.len() < groups {
        weights.resize(groups, Vec4::ZERO);
    }
    if close_words.len() < words {
        close_words.resize(words, 0);
    }
    // Slices, not the `Vec`s: stores through them cannot move the `Vec`s' own fields, so
    // the compiler keeps every pointer in registers across the loops.
    let close_words = &mut close_words[..words];
    let weights = &mut weights[..groups];
    let [x, y, z, vx, vy, vz] = [
        &nearby.x, &nearby.y, &nearby.z, &nearby.vx, &nearby.vy, &nearby.vz,
    ]
    .map(|column| &column[lanes.clone()]);
    let shared = Window {
        x,
        y,
        z,
        vx,
        vy,
        vz,
        species: if SPECIES {
            &nearby.species[lanes.clone()]
        } else {
            &[]
        },
        groups,
        world: Vec4::splat(view.world),
        half_world: Vec4::splat(view.half_world),
        perception_squared: Vec4::splat(view.perception_squared),
        close_below: Vec4::splat(if view.separation_squared <= view.perception_squared {
            view.separation_squared
        } else {
            view.perception_squared.next_up()
        }),
    };
    // Everything above is the cell's, shared by its boids; each boid from here on.
    for i in own {
        let p = sorted.position(i);
        let forward = sorted.velocity(i).normalize_or_zero();
        let boid = Looker {
            x: Vec4::splat(p.x),
            y: Vec4::splat(p.y),
            z: Vec4::splat(p.z),
            fx: Vec4::splat(forward.x),
            fy: Vec4::splat(forward.y),
            fz: Vec4::splat(forward.z),
            // A boid at rest sees all around: a threshold no dot product falls below.
            fov_threshold: Vec4::splat(match view.cos_half_fov {
                Some(c) if forward != Vec3::ZERO => c * c.abs(),
                _ => -2.0,
            }),
            kind: Vec4::splat(if SPECIES { sorted.species[i] } else { 0.0 }),
        };
        let (sum_offset, counted) =
            heed_pass::<WRAP, FOV, SPECIES>(&shared, &boid, weights, close_words);
        let (sum_velocity, count) = velocity_pass::<SPECIES>(&shared, weights, counted);
        let (separation, coincident) = separation_pass::<WRAP>(&shared, &boid, close_words);
        // Take the boid itself out: it counted once, at distance zero.
        let seen = Neighbourhood {
            count: count - 1,
            sum_velocity: sum_velocity - sorted.velocity(i),
            sum_offset,
            separation,
        };
        // Boids at the very same point have no direction between them: rare, and left to
        // `push_apart_piled`.
        on_seen(i, seen, coincident > 1);
    }
}

/// Pass 1, positions: leaves in `weights` each group's lanes, 1 where the boid heeds the
/// neighbour (else 0), and in `close_words` a bit per lane closer than the separation
/// radius (all round, field of view or not, as `look_around` does), sixteen groups to a
/// word, the latest group in the lowest bits. Returns the sum of offsets to the heeded
/// boids (cohesion's) and, with several species, the count of all heeded in lanes.
#[inline(always)]
fn heed_pass<const WRAP: bool, const FOV: bool, const SPECIES: bool>(
    window: &Window,
    boid: &Looker,
    weights: &mut [Vec4],
    close_words: &mut [u64],
) -> (Vec3, Vec4) {
    let glance = Vec4::splat(rules::GLANCE);
    // Counted in lanes: one vector add per group, where a lane bitmask and its population
    // count take three instructions.
    let mut counted = Vec4::ZERO;
    let (mut dx_sum, mut dy_sum, mut dz_sum) = (Vec4::ZERO, Vec4::ZERO, Vec4::ZERO);
    // A word's groups at a time, so that its bits are stored once, with no test per group.
    let [xs, ys, zs] = [window.x, window.y, window.z].map(|c| c.chunks(GROUPS_PER_WORD * LANES));
    let words_of_groups = xs.zip(ys).zip(zs).zip(weights.chunks_mut(GROUPS_PER_WORD));
    for (w, (((x, y), z), weights)) in words_of_groups.enumerate() {
        let [xs, ys, zs] = [x, y, z].map(|column| column.chunks_exact(LANES));
        let mut close_bits = 0u64;
        for (k, (((x, y), z), weight)) in xs.zip(ys).zip(zs).zip(weights).enumerate() {
            let dx = window.wrap::<WRAP>(Vec4::from_slice(x) - boid.x);
            let dy = window.wrap::<WRAP>(Vec4::from_slice(y) - boid.y);
            let dz = window.wrap::<WRAP>(Vec4::from_slice(z) - boid.z);
            let r2 = mul_add(dz, dz, mul_add(dy, dy, dx * dx));
            let mut inside = r2.cmple(window.perception_squared);
            if FOV {
                let ahead = mul_add(boid.fz, dz, mul_add(boid.fy, dy, boid.fx * dx));
                inside &= mul_add(ahead, ahead.abs(), glance).cmpgt(boid.fov_threshold * r2);
            }
            let flocking = if SPECIES {
                counted += keep(inside, Vec4::ONE);
                let first = (w * GROUPS_PER_WORD + k) * LANES;
                let kinds = Vec4::from_slice(&window.species[first..first + LANES]);
                inside & kinds.cmpeq(boid.kind)
            } else {
                inside
            };
            *weight = keep(flocking, Vec4::ONE);
            // Through the weight: one fused multiply-add in the relaxed-SIMD build, else as
            // cheap as masking and adding.
            dx_sum = mul_add(*weight, dx, dx_sum);
            dy_sum = mul_add(*weight, dy, dy_sum);
            dz_sum = mul_add(*weight, dz, dz_sum);
            let close = r2.cmplt(window.close_below).bitmask();
            close_bits = close_bits << LANES | u64::from(close);
        }
        close_words[w] = close_bits;
    }
    let sum_offset = Vec3::new(
        dx_sum.element_sum(),
        dy_sum.element_sum(),
        dz_sum.element_sum(),
    );
    (sum_offset, counted)
}

/// Pass 2, velocities through pass 1's weights: the sum of the heeded boids' velocities
/// (alignment's) and how many the boid heeds (itself included). `counted`: pass 1's count
/// with several species (else the weights count them here).
#[inline(always)]
fn velocity_pass<const SPECIES: bool>(
    window: &Window,
    weights: &[Vec4],
    mut counted: Vec4,
) -> (Vec3, u32) {
    let (mut vx, mut vy, mut vz) = (Vec4::ZERO, Vec4::ZERO, Vec4::ZERO);
    let [vxs, vys, vzs] = [window.vx, window.vy, window.vz].map(|c| c.chunks_exact(LANES));
    for (((vx_j, vy_j), vz_j), &w) in vxs.zip(vys).zip(vzs).zip(weights.iter()) {
        if !SPECIES {
            // Everyone heeded is of the boid's kind: the weights count them.
            counted += w;
        }
        vx = mul_add(w, Vec4::from_slice(vx_j), vx);
        vy = mul_add(w, Vec4::from_slice(vy_j), vy);
        vz = mul_add(w, Vec4::from_slice(vz_j), vz);
    }
    let sum_velocity = Vec3::new(vx.element_sum(), vy.element_sum(), vz.element_sum());
    // Exact: a sum of ones far below 2²⁴.
    (sum_velocity, counted.element_sum() as u32)
}

/// Pass 3, over only the groups with a lane closer than the separation radius (few: it is
/// a small part of the perception sphere): the sum of pushes −offset/r² (separation's), and
/// how many boids sit at the boid's very point (itself included; any more and
/// `rules::repulsion` takes over in `push_apart_piled`).
#[inline(always)]
fn separation_pass<const WRAP: bool>(
    window: &Window,
    boid: &Looker,
    close_words: &[u64],
) -> (Vec3, u32) {
    let groups = window.groups;
    let coincident = Vec4::splat(COINCIDENT);
    let [x_groups, y_groups, z_groups] =
        [window.x, window.y, window.z].map(|column| column.as_chunks::<LANES>().0);
    let (mut sx, mut sy, mut sz) = (Vec4::ZERO, Vec4::ZERO, Vec4::ZERO);
    // Through a lane bitmask into a plain integer: one vector register fewer live.
    let mut coincident_count = 0u32;
    for (w, &word) in close_words.iter().enumerate() {
        let in_word = (groups - w * GROUPS_PER_WORD).min(GROUPS_PER_WORD);
        let mut word = word;
        while word != 0 {
            let nibble = word.trailing_zeros() as usize / LANES;
            let bits = (word >> (LANES * nibble)) as usize & LANE_BITS;
            word &= !((LANE_BITS as u64) << (LANES * nibble));
            // The latest group is in the lowest bits. Always below `groups` (the bits came
            // from one); said so, the compiler drops the three bounds checks below for one
            // `min`.
            let group = (w * GROUPS_PER_WORD + in_word - 1 - nibble).min(groups - 1);
            let close = Vec4::from_array(LANE_MASKS[bits]).cmpne(Vec4::ZERO);
            let dx = window.wrap::<WRAP>(Vec4::from_array(x_groups[group]) - boid.x);
            let dy = window.wrap::<WRAP>(Vec4::from_array(y_groups[group]) - boid.y);
            let dz = window.wrap::<WRAP>(Vec4::from_array(z_groups[group]) - boid.z);
            let r2 = mul_add(dz, dz, mul_add(dy, dy, dx * dx));
            let apart = close & r2.cmpgt(coincident);
            // −1/r², so that each sum is one multiply-add: exactly −(1/r²).
            let push = keep(apart, Vec4::NEG_ONE / r2);
            sx = mul_add(push, dx, sx);
            sy = mul_add(push, dy, sy);
            sz = mul_add(push, dz, sz);
            coincident_count += (close & r2.cmple(coincident)).bitmask().count_ones();
        }
    }
    let separation = Vec3::new(sx.element_sum(), sy.element_sum(), sz.element_sum());
    (separation, coincident_count)
}
