//! The step's scan: every boid of a cell looks through the cell's window (the boids around
//! the cell, gathered into one range) four candidates at a time in `Vec4` lanes (SSE2
//! natively, `simd128` in wasm), in three passes, each with few vectors live:
//! 1. [`heed_pass`], positions: who is inside the perception radius (and the field of
//!    view, and of the boid's kind), leaving each group's marks of the heeded (`heeded.rs`),
//!    a bit per lane closer than the separation radius and, with a view all round, the
//!    cohesion sum;
//! 2. [`velocity_pass`]: the alignment sum and the count through the marks (and, with a
//!    field of view, the cohesion sum: the first pass's test of the view leaves it too few
//!    registers for three more sums);
//! 3. [`separation_pass`]: the push from the few groups with a close neighbour.
//!
//! In one pass V8 ran out of registers and kept the sums on the stack, loading and storing
//! them in every group; sums are reduced across lanes as each pass ends, for the same reason.

use std::ops::Range;

use glam::{Vec3, Vec4};

use super::{heeded, mul_add, Nearby, View};
use crate::sim::edges::nearest_image_lanes;
use crate::sim::lanes::{keep, LANES};
use crate::sim::rules::{Neighbourhood, COINCIDENT};
use crate::sim::scan::Sorted;

#[cfg(doc)]
use crate::sim::rules::Sight;

/// What the first pass tests of a neighbour's direction ([`Sight`]): nothing (a view all
/// round), a view wider than 180° (and a boid at rest, heading zero: it sees all round),
/// or one of 180° or less.
const ALL_ROUND: u8 = 0;
const WIDE: u8 = 1;
const NARROW: u8 = 2;

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
    /// Its [`Sight`]'s heading (zero at rest, or with a view all round).
    hx: Vec4,
    hy: Vec4,
    hz: Vec4,
    kind: Vec4,
}

/// The step's scan for the boids `own` of one cell (slots of `sorted`): the same sums as
/// [`super::look_around`] over `window` of `nearby`. Calls `on_seen(i, sums, piled, window's
/// boids)` for each boid `i`; `piled`: another boid sits at the very same point (for
/// [`super::push_apart_piled`]); the window's boids for `super::zone_sum`. What the boids of the cell share is set up once for them
/// all.
/// `WRAP`: find the nearest image of every candidate; `FOV`: the field of view is narrower
/// than 360° (for each boid, the first pass for its kind of view); `SPECIES`: more than one
/// species, so alignment and cohesion sum only the boid's own kind (read from the `species`
/// columns, which are empty otherwise).
/// The boid itself is scanned too (it is in its own cell) and taken out at the end, which
/// costs less than masking it in every group of lanes.
#[inline(always)]
pub fn look_around_lanes<const WRAP: bool, const FOV: bool, const SPECIES: bool>(
    own: Range<usize>,
    sorted: &Sorted,
    nearby: &mut Nearby,
    window: Range<usize>,
    view: &View,
    mut on_seen: impl FnMut(usize, Neighbourhood, bool, &Sorted),
) {
    let Nearby {
        boids: nearby,
        close_words,
        marks,
    } = nearby;
    debug_assert_eq!(window.end, nearby.count(), "the window ends at the padding");
    let lanes = window.start..window.start + window.len().next_multiple_of(LANES);
    let groups = lanes.len() / LANES;
    let words = groups.div_ceil(GROUPS_PER_WORD);
    if marks.len() < groups {
        marks.resize(groups, Vec4::ZERO);
    }
    if close_words.len() < words {
        close_words.resize(words, 0);
    }
    // Slices, not the `Vec`s: stores through them cannot move the `Vec`s' own fields, so
    // the compiler keeps every pointer in registers across the loops.
    let close_words = &mut close_words[..words];
    let marks = &mut marks[..groups];
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
        let sight = view.sight(sorted.velocity(i));
        let heading = sight.map_or(Vec3::ZERO, |sight| sight.heading);
        let boid = Looker {
            x: Vec4::splat(p.x),
            y: Vec4::splat(p.y),
            z: Vec4::splat(p.z),
            hx: Vec4::splat(heading.x),
            hy: Vec4::splat(heading.y),
            hz: Vec4::splat(heading.z),
            kind: Vec4::splat(if SPECIES { sorted.species[i] } else { 0.0 }),
        };
        // Each kind of view its own first pass, chosen once per boid.
        let (first_offset, counted) = match sight {
            Some(sight) if FOV && sight.narrow => {
                heed_pass::<WRAP, NARROW, SPECIES>(&shared, &boid, marks, close_words)
            }
            _ if FOV => heed_pass::<WRAP, WIDE, SPECIES>(&shared, &boid, marks, close_words),
            _ => heed_pass::<WRAP, ALL_ROUND, SPECIES>(&shared, &boid, marks, close_words),
        };
        let (sum_velocity, count, second_offset) =
            velocity_pass::<WRAP, FOV, SPECIES>(&shared, &boid, marks, counted);
        // One of the two is zero: the cohesion sum is taken in one pass or the other.
        let sum_offset = first_offset + second_offset;
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
        on_seen(i, seen, coincident > 1, nearby);
    }
}

/// Pass 1, positions: leaves in `marks` each group's lanes the boid heeds (`heeded::mark`),
/// and in `close_words` a bit per lane closer than the separation radius (all round, field
/// of view or not, as `look_around` does), sixteen groups to a word, the latest group in
/// the lowest bits. `VIEW`: what it tests of each neighbour's direction ([`ALL_ROUND`],
/// [`WIDE`], [`NARROW`], as [`Sight::sees`]). Returns the sum of offsets to the heeded
/// boids (cohesion's; zero where [`velocity_pass`] takes it) and, with several species,
/// the count of all heeded in lanes.
#[inline(always)]
fn heed_pass<const WRAP: bool, const VIEW: u8, const SPECIES: bool>(
    window: &Window,
    boid: &Looker,
    marks: &mut [Vec4],
    close_words: &mut [u64],
) -> (Vec3, Vec4) {
    // Counted in lanes: one vector add per group, where a lane bitmask and its population
    // count take three instructions.
    let mut counted = Vec4::ZERO;
    let (mut dx_sum, mut dy_sum, mut dz_sum) = (Vec4::ZERO, Vec4::ZERO, Vec4::ZERO);
    // A word's groups at a time, so that its bits are stored once, with no test per group.
    let [xs, ys, zs] = [window.x, window.y, window.z].map(|c| c.chunks(GROUPS_PER_WORD * LANES));
    let words_of_groups = xs.zip(ys).zip(zs).zip(marks.chunks_mut(GROUPS_PER_WORD));
    for (w, (((x, y), z), marks)) in words_of_groups.enumerate() {
        let [xs, ys, zs] = [x, y, z].map(|column| column.chunks_exact(LANES));
        let mut close_bits = 0u64;
        for (k, (((x, y), z), mark)) in xs.zip(ys).zip(zs).zip(marks).enumerate() {
            let dx = window.wrap::<WRAP>(Vec4::from_slice(x) - boid.x);
            let dy = window.wrap::<WRAP>(Vec4::from_slice(y) - boid.y);
            let dz = window.wrap::<WRAP>(Vec4::from_slice(z) - boid.z);
            let r2 = mul_add(dz, dz, mul_add(dy, dy, dx * dx));
            let mut inside = r2.cmple(window.perception_squared);
            if VIEW != ALL_ROUND {
                let u = mul_add(boid.hz, dz, mul_add(boid.hy, dy, boid.hx * dx));
                inside &= if VIEW == WIDE {
                    let behind = u.min(Vec4::ZERO);
                    (behind * behind).cmple(r2)
                } else {
                    let ahead = u.max(Vec4::ZERO);
                    (ahead * ahead).cmpge(r2)
                };
            }
            let flocking = if SPECIES {
                counted = heeded::count(heeded::mark(inside), counted);
                let first = (w * GROUPS_PER_WORD + k) * LANES;
                let kinds = Vec4::from_slice(&window.species[first..first + LANES]);
                inside & kinds.cmpeq(boid.kind)
            } else {
                inside
            };
            *mark = heeded::mark(flocking);
            if cohesion_first(WRAP, VIEW) {
                dx_sum = heeded::add(*mark, dx, dx_sum);
                dy_sum = heeded::add(*mark, dy, dy_sum);
                dz_sum = heeded::add(*mark, dz, dz_sum);
            }
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

/// Whether the first pass sums cohesion's offsets: with a view all round (few vectors
/// live), or where each offset needs its nearest image (`WRAP`: worlds a few cells wide),
/// not worth working out twice. Else the second pass does. Measured in Chromium (SIMD128,
/// 10,000 boids, settled): the defaults (270°) step in 4.43 ms with cohesion in the second
/// pass against 4.65 in the first; the standard scenario (360°) in 2.92 against 2.63.
#[inline(always)]
const fn cohesion_first(wrap: bool, view: u8) -> bool {
    view == ALL_ROUND || wrap
}

/// Pass 2, through pass 1's marks: the sum of the heeded boids' velocities (alignment's),
/// how many the boid heeds (itself included) and, with a field of view, the sum of the
/// offsets to them (cohesion's; else zero). `counted`: pass 1's count with several species
/// (else the marks count them here).
#[inline(always)]
fn velocity_pass<const WRAP: bool, const FOV: bool, const SPECIES: bool>(
    window: &Window,
    boid: &Looker,
    marks: &[Vec4],
    mut counted: Vec4,
) -> (Vec3, u32, Vec3) {
    // Summed here exactly where pass 1 did not (same `WRAP`, a view of `FOV`'s kind).
    let cohesion = !cohesion_first(WRAP, if FOV { WIDE } else { ALL_ROUND });
    let (mut vx, mut vy, mut vz) = (Vec4::ZERO, Vec4::ZERO, Vec4::ZERO);
    let (mut dx_sum, mut dy_sum, mut dz_sum) = (Vec4::ZERO, Vec4::ZERO, Vec4::ZERO);
    let [vxs, vys, vzs] = [window.vx, window.vy, window.vz].map(|c| c.chunks_exact(LANES));
    let [xs, ys, zs] = [window.x, window.y, window.z].map(|c| c.chunks_exact(LANES));
    let columns = vxs.zip(vys).zip(vzs).zip(xs.zip(ys).zip(zs));
    for ((((vx_j, vy_j), vz_j), ((x, y), z)), &mark) in columns.zip(marks) {
        if !SPECIES {
            // Everyone heeded is of the boid's kind: the marks count them.
            counted = heeded::count(mark, counted);
        }
        vx = heeded::add(mark, Vec4::from_slice(vx_j), vx);
        vy = heeded::add(mark, Vec4::from_slice(vy_j), vy);
        vz = heeded::add(mark, Vec4::from_slice(vz_j), vz);
        if cohesion {
            dx_sum = heeded::add(mark, Vec4::from_slice(x) - boid.x, dx_sum);
            dy_sum = heeded::add(mark, Vec4::from_slice(y) - boid.y, dy_sum);
            dz_sum = heeded::add(mark, Vec4::from_slice(z) - boid.z, dz_sum);
        }
    }
    let sum_velocity = Vec3::new(vx.element_sum(), vy.element_sum(), vz.element_sum());
    let sum_offset = Vec3::new(
        dx_sum.element_sum(),
        dy_sum.element_sum(),
        dz_sum.element_sum(),
    );
    (sum_velocity, heeded::total(counted), sum_offset)
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
