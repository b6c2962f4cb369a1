//! The simulation. Knows nothing of the web: built, tested and benchmarked natively.

mod behaviours;
mod edges;
mod flock;
mod glide;
mod grid;
mod lanes;
mod leader;
pub mod measures;
mod nearest;
pub mod params;
mod predator;
pub mod presets;
mod rng;
pub mod rules;
mod scan;
mod settings;

pub use behaviours::Pulls;
pub use behaviours::{
    FLEE_FORCE_FACTOR, LEADER_PACE, MAX_OBSTACLES, MAX_OBSTACLE_RADIUS, MIN_OBSTACLE_RADIUS,
    OBSTACLE_CLEARANCE, PANIC_SPEED_FACTOR,
};
pub use flock::{
    Flock, Inspection, Terms, BENCH_DT, MAX_SPEED_FACTOR, MAX_STEP, MAX_SUBSTEP, MIN_SPEED_FACTOR,
};
pub use nearest::MAX_K;
pub use params::{Kind, Param, ParamError, ParamSpec, Scale, PARAMS};
pub use predator::MAX_PREDATORS;
pub use presets::{Preset, UnknownPreset, PRESETS};
pub use settings::{auto_world_size, Settings};
