//! Reading and changing settings by parameter (`Param`): the one table's get and set, with
//! the presets.

use crate::sim::params::{Param, ParamError};
use crate::sim::presets::{self, UnknownPreset};
use crate::sim::settings::Settings;

use super::Flock;

impl Flock {
    /// Sets every parameter the preset `name` lists (see `presets::PRESETS`).
    pub fn apply_preset(&mut self, name: &str) -> Result<(), UnknownPreset> {
        let preset = presets::preset(name).ok_or_else(|| UnknownPreset(name.to_string()))?;
        for &(param, value) in preset.values {
            // Not `expect`: printing the error would bring float printing into the wasm module.
            if self.set(param, value).is_err() {
                unreachable!("preset values are finite (checked by presets' tests)");
            }
        }
        Ok(())
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn seed(&self) -> u32 {
        self.seed
    }

    /// Side of the cubic world now in use.
    pub fn world_size(&self) -> f32 {
        self.world
    }

    /// Returns the world size to following the count.
    pub fn reset_world_size(&mut self) {
        self.settings.world_size = None;
        self.update_world();
        self.confine_all();
    }

    /// The current value of a parameter, in the table's units.
    pub fn get(&self, param: Param) -> f64 {
        let s = &self.settings;
        let value = match param {
            Param::Count => return self.len() as f64,
            Param::Seed => return f64::from(self.seed),
            Param::Wrap => return if s.wrap { 1.0 } else { 0.0 },
            Param::Speed => s.speed,
            Param::Separation => s.separation,
            Param::Alignment => s.alignment,
            Param::Cohesion => s.cohesion,
            Param::Perception => s.perception,
            Param::SeparationRadius => s.separation_radius,
            Param::FieldOfView => s.field_of_view,
            Param::MaxForce => s.max_force,
            Param::WorldSize => self.world,
            Param::Predators => return s.predators as f64,
            Param::PredatorSpeed => s.predator_speed,
            Param::FleeRadius => s.flee_radius,
            Param::Leaders => return s.leaders as f64,
            Param::LeaderWeight => s.leader_weight,
            Param::PointerStrength => s.pointer_strength,
            Param::WindStrength => s.wind_strength,
            Param::WindHeading => s.wind_heading,
            Param::WindElevation => s.wind_elevation,
            Param::SpeciesCount => return s.species as f64,
            Param::Flat => return if s.flat { 1.0 } else { 0.0 },
            Param::Topological => return if s.topological { 1.0 } else { 0.0 },
            Param::NearestK => return s.nearest_k as f64,
        };
        f64::from(value)
    }

    /// Sets a parameter: clamped to the table's range; a non-finite value changes nothing
    /// and is refused. Returns the value stored, as `get` reads it.
    pub fn set(&mut self, param: Param, value: f64) -> Result<f64, ParamError> {
        self.apply(param, value)?;
        Ok(self.get(param))
    }

    pub(super) fn apply(&mut self, param: Param, value: f64) -> Result<(), ParamError> {
        let value = param.spec().sanitize(value)?;
        let real = value as f32;
        let s = &mut self.settings;
        match param {
            Param::Count => self.set_count(value as usize),
            Param::Seed => {
                self.seed = value as u32;
                self.rebuild();
            }
            Param::Wrap => s.wrap = value != 0.0,
            Param::Speed => {
                let ratio = real / s.speed;
                s.speed = real;
                // Everyone changes pace at once, so the flock keeps its shape.
                self.velocities.iter_mut().for_each(|v| *v *= ratio);
            }
            Param::Separation => s.separation = real,
            Param::Alignment => s.alignment = real,
            Param::Cohesion => s.cohesion = real,
            Param::Perception => s.perception = real,
            Param::SeparationRadius => s.separation_radius = real,
            Param::FieldOfView => s.field_of_view = real,
            Param::MaxForce => s.max_force = real,
            Param::WorldSize => {
                s.world_size = Some(real);
                self.update_world();
                self.confine_all();
            }
            Param::Predators => {
                s.predators = value as usize;
                let (world, flat, speed) = (self.world, s.flat, s.predator_speed);
                self.behaviours
                    .set_hawks(value as usize, world, flat, speed);
            }
            Param::PredatorSpeed => {
                s.predator_speed = real;
                self.behaviours.set_hawk_speed(real);
            }
            Param::FleeRadius => s.flee_radius = real,
            Param::Leaders => {
                s.leaders = value as usize;
                let (world, flat, cruise) = (self.world, s.flat, s.speed);
                self.behaviours
                    .set_leaders(value as usize, world, flat, cruise);
            }
            Param::LeaderWeight => s.leader_weight = real,
            Param::PointerStrength => s.pointer_strength = real,
            Param::WindStrength => s.wind_strength = real,
            Param::WindHeading => s.wind_heading = real,
            Param::WindElevation => s.wind_elevation = real,
            Param::SpeciesCount => {
                if s.species != value as usize {
                    s.species = value as usize;
                    self.assign_species();
                }
            }
            Param::Flat => {
                let flat = value != 0.0;
                if s.flat != flat {
                    s.flat = flat;
                    // A new world: 3D boids squashed flat (or flat ones given depth) would
                    // start in a pile, so the flock is scattered afresh.
                    self.rebuild();
                }
            }
            Param::Topological => s.topological = value != 0.0,
            Param::NearestK => s.nearest_k = value as usize,
        }
        Ok(())
    }
}
