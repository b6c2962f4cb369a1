//! Who leads whom in a recorded flock, after Nagy et al. 2010 (Nature 464:890): for each pair
//! of birds, the delay τ* at which their headings correlate most (`correlation_delay`), over
//! the times both were seen flying, close enough to see each other; the pairs whose headings do
//! correlate make a directed graph, leader to follower, and the birds' summed delays an order.

use glam::Vec3;

use super::measures::nature::correlation_delay;
use super::recording::Recording;

/// How the graph is drawn from a recording.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeadershipSpec {
    /// Seconds between samples of the headings (the pigeons' fixes are 0.2 s apart).
    pub step: f32,
    /// The longest delay looked for, in seconds.
    pub max_delay: f32,
    /// Only times when the two birds were at most this far apart count (Nagy et al.: 100 m).
    pub max_distance: f32,
    /// A pair is an edge when its headings correlate at least this much at τ* (Nagy et
    /// al.: 0.5), and the two shared at least `min_shared` seconds.
    pub min_correlation: f32,
    pub min_shared: f32,
    /// Only times when both birds flew at least this fast count: a bird on the ground has
    /// no heading to follow (the pigeons' GPS jitters at 0.3 m/s once they land).
    pub min_speed: f32,
}

impl Default for LeadershipSpec {
    fn default() -> Self {
        LeadershipSpec {
            step: 0.2,
            max_delay: 4.0,
            max_distance: 100.0,
            min_correlation: 0.5,
            min_shared: 30.0,
            min_speed: 3.0,
        }
    }
}

/// One edge: `leader`'s turns come back in `follower`'s `delay` seconds later.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lead {
    pub leader: usize,
    pub follower: usize,
    pub delay: f32,
    pub correlation: f32,
}

/// The graph: its edges, and the birds (indices into the recording's `ids`) ordered by the
/// sum of their delays over their edges, the most leading first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Leadership {
    pub leads: Vec<Lead>,
    pub order: Vec<usize>,
    /// Each bird's summed delay (s): positive leads, negative follows.
    pub scores: Vec<f32>,
}

/// The leadership graph of `recording`.
pub fn leadership(recording: &Recording, spec: LeadershipSpec) -> Leadership {
    let birds = recording.ids.len();
    let (start, end) = recording.span();
    let usable = spec.step > 0.0 && end > start;
    if birds < 2 || !usable {
        return Leadership {
            order: (0..birds).collect(),
            scores: vec![0.0; birds],
            ..Leadership::default()
        };
    }
    let samples = ((end - start) / spec.step) as usize + 1;
    // Each sample: every bird's position and heading, or none.
    let frames: Vec<Vec<Option<(Vec3, Vec3)>>> = (0..samples)
        .map(|k| recording.at(start + k as f32 * spec.step))
        .collect();
    let max_lag = (spec.max_delay / spec.step).round() as usize;
    let mut leads = Vec::new();
    let mut scores = vec![0.0f32; birds];
    let (mut a, mut b) = (Vec::with_capacity(samples), Vec::with_capacity(samples));
    for i in 0..birds {
        for j in i + 1..birds {
            a.clear();
            b.clear();
            let mut shared = 0usize;
            for frame in &frames {
                match (frame[i], frame[j]) {
                    (Some((pi, vi)), Some((pj, vj))) if pi.distance(pj) <= spec.max_distance => {
                        a.push(vi);
                        b.push(vj);
                        shared += 1;
                    }
                    _ => {
                        a.push(Vec3::ZERO);
                        b.push(Vec3::ZERO);
                    }
                }
            }
            if (shared as f32) * spec.step < spec.min_shared {
                continue;
            }
            let Some((delay, correlation)) = correlation_delay(&a, &b, spec.step, max_lag) else {
                continue;
            };
            if correlation < spec.min_correlation || delay == 0.0 {
                continue;
            }
            let (leader, follower) = if delay > 0.0 { (i, j) } else { (j, i) };
            scores[leader] += delay.abs();
            scores[follower] -= delay.abs();
            leads.push(Lead {
                leader,
                follower,
                delay: delay.abs(),
                correlation,
            });
        }
    }
    // Most leading first, ties in the recording's order: each bird inserted after those
    // scoring at least as much (a library sort here added 2 KB to the worker's module).
    let mut order: Vec<usize> = Vec::with_capacity(birds);
    for bird in 0..birds {
        let at = order.partition_point(|&o| scores[o] >= scores[bird]);
        order.insert(at, bird);
    }
    Leadership {
        leads,
        order,
        scores,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    /// Three birds: B copies A's headings 0.6 s late, C copies B's 0.4 s late (flying a
    /// wavy path 5 m apart): A leads B and C, B leads C, and the order is A, B, C.
    #[test]
    fn a_chain_of_copies_gives_its_order() {
        let heading = |t: f32| Vec3::new(10.0, 4.0 * (0.7 * t).sin() + 2.0 * (1.9 * t).cos(), 0.0);
        let mut text = String::from("time,id,x,y,z,vx,vy,vz\n");
        let delays = [("A", 0.0f32, 0.0f32), ("B", 0.6, 5.0), ("C", 1.0, 10.0)];
        for k in 0..600 {
            let t = k as f32 * 0.2;
            for (id, delay, offset) in delays {
                let v = heading(t - delay);
                let _ = writeln!(
                    text,
                    "{t},{id},{},{offset},0,{},{},{}",
                    10.0 * t,
                    v.x,
                    v.y,
                    v.z
                );
            }
        }
        let recording = Recording::parse(&text).unwrap();
        let graph = leadership(&recording, LeadershipSpec::default());
        assert_eq!(graph.order, [0, 1, 2]);
        assert_eq!(graph.leads.len(), 3);
        for (leader, follower, delay) in [(0, 1, 0.6), (0, 2, 1.0), (1, 2, 0.4)] {
            let lead = graph
                .leads
                .iter()
                .find(|l| l.leader == leader && l.follower == follower)
                .unwrap_or_else(|| panic!("no edge {leader} → {follower}: {:?}", graph.leads));
            assert!((lead.delay - delay).abs() < 1e-4, "{lead:?}");
            assert!(lead.correlation > 0.99);
        }
        // Too far apart to see each other: no edges, the order by index.
        let far = LeadershipSpec {
            max_distance: 1.0,
            ..LeadershipSpec::default()
        };
        let none = leadership(&recording, far);
        assert!(none.leads.is_empty());
        assert_eq!(none.order, [0, 1, 2]);
    }
}
