//! The flocks people watch: every preset and the defaults, settled (1,200 steps of 1/60 s,
//! the page's walls and field of view), measured.

use boids::sim::{Flock, PRESETS};

fn settle(preset: &str, count: usize, seed: u32, steps: usize) -> Flock {
    let mut flock = Flock::new(count, Some(seed));
    flock.apply_preset(preset).unwrap();
    flock.rebuild();
    for _ in 0..steps {
        flock.step(1.0 / 60.0);
    }
    flock
}

#[test]
#[ignore]
fn probe() {
    let count: usize = std::env::var("N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1500);
    let steps: usize = std::env::var("STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1200);
    for preset in PRESETS {
        let t = std::time::Instant::now();
        let flock = settle(preset.name, count, 42, steps);
        let m = flock.metrics();
        let sep = flock.settings().separation_radius;
        println!(
            "{:12} nb {:6.1} nn/sep {:.2} pol {:.2} mill {:.2} groups {} big {} largest {:.2} elong {:.1} speed {:.1}/{} cruising {:.2}  ({:.1}s)",
            preset.name,
            flock.mean_neighbours(),
            m.median_nearest / sep,
            m.polarization,
            m.milling,
            m.groups,
            m.big_groups,
            m.largest_group,
            m.elongation,
            m.mean_speed,
            flock.settings().speed,
            m.cruising,
            t.elapsed().as_secs_f32()
        );
    }
}
