//! The simulation. Knows nothing of the web: built, tested and benchmarked natively.

mod flock;
mod grid;
pub mod params;
mod rng;
pub mod rules;
mod scan;

pub use flock::{
    auto_world_size, Flock, Settings, BENCH_DT, MAX_SPEED_FACTOR, MAX_STEP, MAX_SUBSTEP,
    MIN_SPEED_FACTOR,
};
pub use params::{Kind, Param, ParamError, ParamSpec, Scale, PARAMS};
