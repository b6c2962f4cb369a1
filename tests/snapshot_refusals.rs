//! Snapshots (issue 28) refused: anything but a snapshot this build wrote is an error that
//! says why (not a snapshot, another version, truncated, altered, a value out of range),
//! never a panic and never a flock half read, whatever the bytes (proptest). Native only:
//! proptest is not a dependency of the wasm build.
#![cfg(not(target_arch = "wasm32"))]

use boids::sim::{Flock, Param, Settings, SnapshotError, PARAMS, SNAPSHOT_VERSION};
use glam::Vec3;
use proptest::prelude::*;

const STEP: f32 = 1.0 / 60.0;

/// A small flock with something in every part of a snapshot: species, hawks, leaders,
/// obstacles, the pointer, a set world size.
fn everything() -> Flock {
    let settings = Settings {
        species: 2,
        predators: 1,
        leaders: 1,
        perception: 7.25,
        world_size: Some(30.0),
        ..Settings::walled()
    };
    let mut flock = Flock::with_settings(50, Some(21), settings);
    flock.add_obstacle(Vec3::splat(10.0), 2.0);
    flock.set_pointer(Vec3::splat(20.0), false);
    for _ in 0..10 {
        flock.step(STEP);
    }
    flock
}

#[test]
fn a_truncated_snapshot_is_refused_at_every_length() {
    let bytes = everything().snapshot();
    for length in 0..bytes.len() {
        let needed = if length < 9 { 17 } else { bytes.len() };
        let expected = SnapshotError::Truncated {
            present: length,
            needed,
        };
        let error = Flock::from_snapshot(&bytes[..length]).err();
        assert_eq!(error.as_ref(), Some(&expected), "{length} bytes");
    }
    let message = Flock::from_snapshot(&bytes[..100])
        .err()
        .unwrap()
        .to_string();
    assert!(
        message.contains("truncated") && message.contains("100"),
        "{message}"
    );
}

#[test]
fn a_flipped_bit_anywhere_is_refused_and_says_why() {
    let bytes = everything().snapshot();
    for at in 0..bytes.len() {
        for bit in [0, 3, 7] {
            let mut altered = bytes.clone();
            altered[at] ^= 1 << bit;
            let error = Flock::from_snapshot(&altered).err();
            let why = |e: &SnapshotError| {
                use SnapshotError::*;
                matches!(
                    (at, e),
                    (0..=3, NotASnapshot)
                        | (4, Version { .. })
                        | (5..=8, Truncated { .. } | TrailingBytes { .. })
                        | (9.., ChecksumMismatch)
                )
            };
            assert!(
                error.as_ref().is_some_and(why),
                "byte {at}, bit {bit}: {error:?}"
            );
        }
    }
    let mut altered = bytes.clone();
    altered[bytes.len() / 2] ^= 1;
    let message = Flock::from_snapshot(&altered).err().unwrap().to_string();
    assert!(
        message.contains("checksum") && message.contains("altered"),
        "{message}"
    );
}

#[test]
fn another_magic_version_or_length_is_refused_with_that_reason() {
    let bytes = everything().snapshot();
    let mut other = bytes.clone();
    other[..4].copy_from_slice(b"PNG\0");
    let error = Flock::from_snapshot(&other).err().unwrap();
    assert_eq!(error, SnapshotError::NotASnapshot);
    assert!(
        error.to_string().contains("not a boids snapshot"),
        "{error}"
    );
    assert_eq!(
        Flock::from_snapshot(b"{\"boids\"").err(),
        Some(SnapshotError::NotASnapshot)
    );
    let mut newer = bytes.clone();
    newer[4] = SNAPSHOT_VERSION + 1;
    let error = Flock::from_snapshot(&newer).err().unwrap();
    let read = SNAPSHOT_VERSION;
    assert_eq!(
        error,
        SnapshotError::Version {
            found: read + 1,
            read
        }
    );
    let message = error.to_string();
    assert!(
        message.contains(&format!("version {}", read + 1)),
        "{message}"
    );
    assert!(
        message.contains(&format!("reads version {read}")),
        "{message}"
    );
    let mut longer = bytes.clone();
    longer.push(0);
    let (present, needed) = (bytes.len() + 1, bytes.len());
    let expected = SnapshotError::TrailingBytes { present, needed };
    assert_eq!(Flock::from_snapshot(&longer).err(), Some(expected));
    let mut huge = vec![0; Flock::largest_snapshot() + 1];
    huge[..9].copy_from_slice(&bytes[..9]);
    let error = Flock::from_snapshot(&huge).err().unwrap();
    assert!(matches!(error, SnapshotError::TooLong { .. }), "{error:?}");
}

/// FNV-1a 64, written again here: what docs/api.md says the checksum is.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3)
    })
}

/// `body` (a snapshot less its checksum) with its length and checksum made right again: a
/// snapshot altered by hand, intact as far as the frame can tell.
fn reseal(mut body: Vec<u8>) -> Vec<u8> {
    let length = (body.len() + 8) as u32;
    body[5..9].copy_from_slice(&length.to_le_bytes());
    let sum = fnv1a(&body);
    body.extend_from_slice(&sum.to_le_bytes());
    body
}

/// Where the first occurrence of `pattern` starts in `bytes`.
fn find(bytes: &[u8], pattern: &[u8]) -> usize {
    bytes
        .windows(pattern.len())
        .position(|w| w == pattern)
        .expect("the pattern is in the snapshot")
}

#[test]
fn the_checksum_is_fnv1a_of_everything_before_it() {
    let bytes = everything().snapshot();
    let body = bytes[..bytes.len() - 8].to_vec();
    assert_eq!(reseal(body), bytes);
}

#[test]
fn an_intact_snapshot_with_a_value_no_flock_holds_is_refused_and_says_which() {
    let flock = everything();
    let bytes = flock.snapshot();
    let body = bytes[..bytes.len() - 8].to_vec();
    let n = flock.len();
    let bits = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let positions = find(&body, &bits(&flock.positions()[..3]));
    let ids = positions + 24 * n;
    let species = ids + 4 * n;
    // The parameters lead the payload, eight bytes each in the table's order, the count
    // (the table's first) left out.
    let parameter =
        |param: Param| 9 + 8 * (PARAMS.iter().position(|s| s.param == param).unwrap() - 1);
    let perception = parameter(Param::Perception);
    assert_eq!(body[perception..perception + 8], 7.25f64.to_le_bytes());
    // The delay's past follows the boids: its frame count (none here, no delay), then
    // the behaviours.
    let past = species + n;
    let behaviours = past + 4;
    let obstacle = find(&body, &bits(&flock.obstacles()[0]));
    let patch = |at: usize, value: &[u8]| {
        let mut body = body.clone();
        body[at..at + value.len()].copy_from_slice(value);
        reseal(body)
    };
    let first_id = flock.ids()[0].to_le_bytes();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "boids, more than 100000",
            patch(positions - 4, &100_001u32.to_le_bytes()),
        ),
        (
            "boids, more than 100000",
            patch(positions - 4, &u32::MAX.to_le_bytes()),
        ),
        (
            "more bytes than the snapshot holds",
            patch(positions - 4, &99_999u32.to_le_bytes()),
        ),
        (
            "a position outside the world, or not a finite number",
            patch(positions + 4, &f32::NAN.to_le_bytes()),
        ),
        (
            "a position outside the world",
            patch(positions, &(-1.0f32).to_le_bytes()),
        ),
        (
            "a position outside the world",
            patch(positions, &31.0f32.to_le_bytes()),
        ),
        (
            "a velocity that is not finite",
            patch(positions + 12 * n, &f32::INFINITY.to_le_bytes()),
        ),
        ("two boids with the same id", patch(ids + 4, &first_id)),
        ("a species past the species count", patch(species + 7, &[2])),
        (
            "the setting perception",
            patch(perception, &12.5f64.to_le_bytes()),
        ),
        (
            "the setting perception",
            patch(perception, &f64::NAN.to_le_bytes()),
        ),
        (
            "the setting noise",
            patch(parameter(Param::Noise), &4.5f64.to_le_bytes()),
        ),
        // Wrap with an open sky (this flock has walls): the sky turns wrap off again.
        ("the setting wrap", {
            let both = patch(parameter(Param::Wrap), &1.0f64.to_le_bytes());
            let mut both = both[..both.len() - 8].to_vec();
            let sky = parameter(Param::Sky);
            both[sky..sky + 8].copy_from_slice(&1.0f64.to_le_bytes());
            reseal(both)
        }),
        (
            "6 frames of the past, more than 0",
            patch(past, &6u32.to_le_bytes()),
        ),
        ("6 hawks, more than 5", patch(behaviours, &[6])),
        ("for the pointer", patch(behaviours + 3, &[3])),
        (
            "an obstacle's radius",
            patch(obstacle + 12, &25.0f32.to_le_bytes()),
        ),
        (
            "left over after the flock",
            reseal([body.clone(), vec![0; 3]].concat()),
        ),
        (
            "more bytes than the snapshot holds",
            reseal(body[..body.len() - 3].to_vec()),
        ),
    ];
    for (why, altered) in cases {
        match Flock::from_snapshot(&altered) {
            Err(
                error @ (SnapshotError::OutOfRange(_)
                | SnapshotError::TooMany { .. }
                | SnapshotError::Setting(_)),
            ) => {
                let message = error.to_string();
                assert!(message.contains(why), "expected '{why}', got '{message}'");
            }
            other => panic!("'{why}': {:?}", other.map(|f| f.len())),
        }
    }
}

/// One change to a snapshot.
#[derive(Clone, Debug)]
enum Edit {
    Set(usize, u8),
    Flip(usize, u8),
    Truncate(usize),
    Insert(usize, u8),
    Remove(usize),
}

fn any_edit() -> impl Strategy<Value = Edit> {
    let at = 0..3000usize;
    prop_oneof![
        (at.clone(), any::<u8>()).prop_map(|(at, b)| Edit::Set(at, b)),
        (at.clone(), 0..8u8).prop_map(|(at, bit)| Edit::Flip(at, bit)),
        at.clone().prop_map(Edit::Truncate),
        (at.clone(), any::<u8>()).prop_map(|(at, b)| Edit::Insert(at, b)),
        at.prop_map(Edit::Remove),
    ]
}

fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    let len = bytes.len().max(1);
    match *edit {
        Edit::Set(at, b) if !bytes.is_empty() => bytes[at % len] = b,
        Edit::Flip(at, bit) if !bytes.is_empty() => bytes[at % len] ^= 1 << bit,
        Edit::Truncate(at) => bytes.truncate(at % len),
        Edit::Insert(at, b) => bytes.insert(at % (bytes.len() + 1), b),
        Edit::Remove(at) if !bytes.is_empty() => {
            bytes.remove(at % len);
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any bytes at all, some of them starting like a snapshot: an error, never a panic.
    #[test]
    fn random_bytes_never_panic(
        mut bytes in prop::collection::vec(any::<u8>(), 0..2000),
        header in any::<bool>(),
    ) {
        if header {
            let length = (bytes.len() as u32 + 9).to_le_bytes();
            bytes.splice(0..0, [b'B', b'O', b'I', b'D', SNAPSHOT_VERSION].into_iter().chain(length));
        }
        prop_assert!(Flock::from_snapshot(&bytes).is_err());
    }

    /// A snapshot edited: refused unless the edits undid each other.
    #[test]
    fn an_edited_snapshot_is_refused(edits in prop::collection::vec(any_edit(), 1..4)) {
        let bytes = everything().snapshot();
        let mut edited = bytes.clone();
        for edit in &edits {
            apply(&mut edited, edit);
        }
        prop_assert_eq!(Flock::from_snapshot(&edited).is_ok(), edited == bytes);
    }

    /// A snapshot edited and resealed (its length and checksum made right again, as a
    /// forger would): the reader meets the edits themselves. Refused, or a flock that steps
    /// without a panic; never a panic while reading.
    #[test]
    fn a_resealed_edited_snapshot_never_panics(edits in prop::collection::vec(any_edit(), 1..4)) {
        let bytes = everything().snapshot();
        let mut body = bytes[..bytes.len() - 8].to_vec();
        for edit in &edits {
            apply(&mut body, edit);
        }
        if body.len() >= 9 {
            if let Ok(mut flock) = Flock::from_snapshot(&reseal(body)) {
                for _ in 0..3 {
                    flock.step(STEP);
                }
                prop_assert!(flock.positions().len() == 3 * flock.len());
            }
        }
    }
}
