//! `Metrics::local_order`, `Metrics::streaming` and the nearest distances: what each boid
//! sees of its neighbours within the linking radius. Every pair within the radius counts
//! there, a walk as long as a step's own scan (17 ms at 10,000 boids when done for every
//! boid; the nearest alone, searched outward cell by cell, still ~3 ms), so above
//! `LOCAL_SAMPLE` boids they are taken over that many boids spread evenly through the flock
//! (which the step keeps in grid order, so evenly through space too), each exactly.

use glam::Vec3;

use super::cells::Cells;
use super::COLLISION_RADIUS;

/// Boids whose neighbourhoods the local measures look at: all of them up to this many,
/// else this many spread evenly. The mean of 256 values between 0 and 1 that vary by ~0.1
/// from boid to boid is within ~0.006 of the whole flock's; 256 walks cost ~0.1 ms at
/// 10,000 settled boids.
pub const LOCAL_SAMPLE: usize = 256;

/// The boids the local measures look at, for `n` boids: 0, n/S, 2n/S, … (all when n ≤ S).
pub fn sample(n: usize) -> impl Iterator<Item = usize> {
    (0..picks(n)).map(move |k| pick(n, k))
}

/// How many boids the local measures look at, for `n` boids.
pub(super) fn picks(n: usize) -> usize {
    n.min(LOCAL_SAMPLE)
}

/// The `k`-th boid they look at.
fn pick(n: usize, k: usize) -> usize {
    k * n / picks(n)
}

/// What the walks around the sampled boids give.
pub(super) struct Local {
    pub streaming: f32,
    pub local_order: f32,
    /// Distance to the nearest other boid, for each sampled boid that has one within the
    /// radius.
    pub nearest: Vec<f32>,
    /// Mean over the sampled boids of how many others are within `COLLISION_RADIUS`.
    pub touching: f32,
}

/// The walks so far: sums over the sampled boids walked, taken a few at a time
/// (`walk`) so that a survey can spread them over frames.
#[derive(Default)]
pub(super) struct Walks {
    streaming: f32,
    streaming_boids: usize,
    order: f32,
    boids: usize,
    nearest: Vec<f32>,
    touching: usize,
}

impl Walks {
    /// Walks around the sampled boids `picks` (the `k`-th of `sample(n)` for each `k`),
    /// in order.
    pub fn walk(
        &mut self,
        cells: &Cells,
        positions: &[f32],
        headings: &[Vec3],
        picks: std::ops::Range<usize>,
    ) {
        let n = headings.len();
        let r2 = cells.radius * cells.radius;
        let touch2 = COLLISION_RADIUS * COLLISION_RADIUS;
        for k in picks {
            let i = pick(n, k);
            let heading = headings[i];
            let p = Vec3::from_slice(&positions[3 * i..3 * i + 3]);
            let (mut along, mut seen, mut together) = (0.0f32, 0usize, heading);
            let mut closest = f32::INFINITY;
            let at = cells.coords(cells.cell_of[i] as usize);
            let [(x_lo, x_hi), (y_lo, y_hi), (z_lo, z_hi)] = cells.span;
            for dz in -z_lo..=z_hi {
                for dy in -y_lo..=y_hi {
                    cells.row(at, [dy, dz], [-x_lo, x_hi], |there| {
                        for slot in there {
                            let j = cells.order[slot] as usize;
                            let towards = cells.offset(p, cells.points[slot]);
                            let d2 = towards.length_squared();
                            if j == i || d2 > r2 {
                                continue;
                            }
                            closest = closest.min(d2);
                            self.touching += usize::from(d2 < touch2);
                            together += headings[j];
                            if d2 > 0.0 {
                                along += heading.dot(towards / d2.sqrt()).abs();
                                seen += 1;
                            }
                        }
                    });
                }
            }
            if closest.is_finite() {
                self.nearest.push(closest.sqrt());
            }
            self.order += together.length() / (1 + seen) as f32;
            self.boids += 1;
            if seen > 0 {
                self.streaming += along / seen as f32;
                self.streaming_boids += 1;
            }
        }
    }

    /// The local measures over the boids walked.
    pub fn finish(self) -> Local {
        let streaming = if self.streaming_boids > 0 {
            self.streaming / self.streaming_boids as f32
        } else {
            0.5
        };
        Local {
            streaming,
            local_order: self.order / self.boids.max(1) as f32,
            nearest: self.nearest,
            touching: self.touching as f32 / self.boids.max(1) as f32,
        }
    }
}
