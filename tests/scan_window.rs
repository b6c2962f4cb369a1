//! The inspector's view of the grid (issue 42, "see the grid"): `Flock::scan_window(id)` is
//! the window the next step scans for a boid, so over every boid its candidates (and the boid
//! itself, which the scan's window holds too) add up to exactly the distance checks the next
//! step counts, in walls, a wrapped world and the open sky, in 3D and 2D, with cells one
//! perception radius high and with a crowded flock's half-height rows; and every neighbour a
//! boid heeds is among its candidates.

use boids::sim::{Flock, Param, Settings};

/// (name, settings, count, steps before the check).
fn worlds() -> Vec<(&'static str, Settings, usize, usize)> {
    let walls = Settings::walled();
    let wrap = Settings {
        wrap: true,
        ..Settings::walled()
    };
    let sky = Settings::default();
    // Crowded: 3,000 boids in a wrapped world 20 wide seeing 4 around: ~650 candidates a boid,
    // so from the second step the scan splits its cells into two rows.
    let crowded = Settings {
        world_size: Some(20.0),
        perception: 4.0,
        wrap: true,
        ..Settings::walled()
    };
    let mut out = Vec::new();
    for flat in [false, true] {
        for (name, settings) in [("walls", &walls), ("wrap", &wrap), ("sky", &sky)] {
            out.push((
                name,
                Settings {
                    flat,
                    ..settings.clone()
                },
                600,
                30,
            ));
        }
        out.push((
            "crowded",
            Settings {
                flat,
                ..crowded.clone()
            },
            3000,
            3,
        ));
    }
    out
}

#[test]
fn the_windows_add_up_to_the_next_steps_checks() {
    for (name, settings, count, steps) in worlds() {
        let flat = settings.flat;
        let mut flock = Flock::with_settings(count, Some(5), settings);
        for _ in 0..steps {
            flock.step(1.0 / 60.0);
        }
        let mut expected = 0u64;
        let mut cells_seen = (usize::MAX, 0usize);
        for &id in flock.ids() {
            let window = flock.scan_window(id).expect("a boid of the flock");
            expected += window.candidates.len() as u64 + 1;
            cells_seen = (
                cells_seen.0.min(window.cells.len()),
                cells_seen.1.max(window.cells.len()),
            );
            assert!(
                !window.candidates.contains(&id),
                "{name}: itself is not a candidate"
            );
        }
        flock.step(1.0 / 60.0);
        let examined = flock.search_stats().examined;
        assert_eq!(
            examined, expected,
            "{name} flat {flat}: the step's checks against the windows'"
        );
        // A window is 27 cells (9 flat) one radius high, 45 (15) of half-height rows (the
        // crowded world's, and any flock crowded enough); fewer only at a wall or the edge of
        // the sky's grid.
        let (tall, rows) = if flat { (9, 15) } else { (27, 45) };
        let most = if name == "crowded" {
            rows
        } else {
            cells_seen.1
        };
        assert!(
            most == tall || most == rows,
            "{name} flat {flat}: {cells_seen:?}"
        );
        assert_eq!(
            cells_seen.1, most,
            "{name} flat {flat}: the largest window, {cells_seen:?}"
        );
        if name == "wrap" || name == "crowded" {
            assert_eq!(
                cells_seen.0, most,
                "{name} flat {flat}: a wrapped world has no edge"
            );
        }
    }
}

#[test]
fn every_neighbour_heeded_is_a_candidate() {
    for (name, settings, count, steps) in worlds() {
        let mut flock = Flock::with_settings(count.min(800), Some(8), settings);
        for _ in 0..steps {
            flock.step(1.0 / 60.0);
        }
        for &id in flock.ids().iter().step_by(37) {
            let window = flock.scan_window(id).unwrap();
            let seen = flock.inspect(id).unwrap();
            for other in seen
                .heeded
                .iter()
                .chain(&seen.too_close)
                .chain(&seen.unseen)
            {
                assert!(
                    window.candidates.contains(other),
                    "{name}: {other} near {id} is not a candidate"
                );
            }
        }
    }
}

#[test]
fn nearest_k_and_unknown_ids_have_no_window() {
    let mut flock = Flock::new(200, Some(1));
    assert_eq!(flock.scan_window(u32::MAX), None);
    assert!(flock.scan_window(flock.ids()[0]).is_some());
    flock.set(Param::Topological, 1.0).unwrap();
    assert_eq!(flock.scan_window(flock.ids()[0]), None);
}
