//! The simulation. Knows nothing of the web: built, tested and benchmarked natively.

mod arena;
mod behaviours;
mod edges;
pub mod experiment;
pub mod fit;
mod flock;
mod glide;
mod grid;
mod lanes;
mod leader;
pub mod leadership;
mod limits;
pub mod measures;
mod nearest;
mod noise;
pub mod params;
mod predator;
pub mod presets;
pub mod recording;
mod rng;
pub mod rules;
mod scan;
// Other ways to find neighbours (issue 42): natively, and in a module built with `lab`; the
// page's module keeps the grid's alone (its 150 KB budget).
#[cfg(any(not(target_arch = "wasm32"), feature = "lab"))]
pub mod search;
// The classic bugs' sandbox (issue 42): natively, and in the `lab` module.
#[cfg(any(not(target_arch = "wasm32"), feature = "lab"))]
pub mod sandbox;
mod settings;
mod snapshot;
pub mod swarm;

pub use behaviours::Pulls;
pub use behaviours::{LEADER_PACE, MAX_OBSTACLES, MAX_OBSTACLE_RADIUS, MIN_OBSTACLE_RADIUS};
pub use flock::{
    Flock, FlockSurvey, Handout, Inspection, PartState, ScanWindow, Split, Terms, Totals, BENCH_DT,
    MAX_STEP, MAX_SUBSTEP,
};
pub use limits::{
    FLEE_FORCE_FACTOR, MAX_SPEED_FACTOR, MIN_SPEED_FACTOR, OBSTACLE_CLEARANCE, PANIC_SPEED_FACTOR,
    SPEED_RESPONSE,
};
pub use nearest::MAX_K;
pub use params::{Kind, Param, ParamError, ParamSpec, Scale, NOISE_MAX, PARAMS};
pub use predator::MAX_PREDATORS;
pub use presets::{Preset, UnknownPreset, PRESETS};
pub use settings::{auto_world_size, Settings};
pub use snapshot::{SnapshotError, VERSION as SNAPSHOT_VERSION};
pub use swarm::{FailureMode, BOLD, FAILED};
