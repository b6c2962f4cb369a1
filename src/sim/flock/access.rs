//! Reading and changing settings by parameter (`Param`): the one table's get and set, with
//! the presets.

use crate::sim::params::{Param, ParamError};
use crate::sim::presets::{self, UnknownPreset};
use crate::sim::settings::{Settings, SKY_SCALE};
use crate::sim::swarm;

use super::Flock;
use crate::sim::behaviours::Arena;

/// The parameters that are one `f32` field of `Settings` and need nothing more when set:
/// `get` and `apply` both reach them through this one list, so each is named once here (and
/// once in the table, `params::PARAMS`). The others have their own arms below; a parameter
/// in neither panics in `get` and `set` (tests/properties.rs calls both for every one).
macro_rules! plain_fields {
    ($($param:ident => $field:ident,)*) => {
        /// A plain parameter's value (`None`: the parameter is not plain).
        fn plain(settings: &Settings, param: Param) -> Option<f32> {
            match param {
                $(Param::$param => Some(settings.$field),)*
                _ => None,
            }
        }

        /// A plain parameter's field, to write (`None`: the parameter is not plain).
        fn plain_mut(settings: &mut Settings, param: Param) -> Option<&mut f32> {
            match param {
                $(Param::$param => Some(&mut settings.$field),)*
                _ => None,
            }
        }
    };
}

plain_fields! {
    Separation => separation,
    Alignment => alignment,
    Cohesion => cohesion,
    Perception => perception,
    SeparationRadius => separation_radius,
    AlignmentRadius => alignment_radius,
    Noise => noise,
    HomeRange => home_range,
    FieldOfView => field_of_view,
    MaxForce => max_force,
    FleeRadius => flee_radius,
    LeaderWeight => leader_weight,
    PointerStrength => pointer_strength,
    WindStrength => wind_strength,
    WindHeading => wind_heading,
    WindElevation => wind_elevation,
    MessageLoss => message_loss,
    Failures => failures,
    Roles => roles,
}

impl Flock {
    /// Refuses a `delay` at `count` boids whose past would take more than
    /// `swarm::HISTORY_BUDGET` (`name`: the parameter being set).
    fn check_history(&self, param: Param, delay: f32, count: usize) -> Result<(), ParamError> {
        let bytes = swarm::history_bytes(delay, count);
        if bytes <= swarm::HISTORY_BUDGET {
            return Ok(());
        }
        Err(ParamError::HistoryTooLarge {
            name: param.spec().name,
            delay: f64::from(delay),
            count,
            bytes,
            most: swarm::most_delay(count),
        })
    }
}

/// A toggle as the table reads it: 0 or 1.
fn flag(on: bool) -> f64 {
    if on {
        1.0
    } else {
        0.0
    }
}

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

    /// Side of the cubic world now in use (under an open sky, `SKY_SCALE` views wide).
    pub fn world_size(&self) -> f32 {
        self.world
    }

    /// Side of the view: the world's, or under an open sky the part of it around home that
    /// the camera frames (what `worldSize` reads and sets).
    pub fn view_size(&self) -> f32 {
        if self.settings.sky {
            self.world / SKY_SCALE
        } else {
            self.world
        }
    }

    /// Whether the world is an open sky (see `Settings::sky`).
    pub fn is_sky(&self) -> bool {
        self.settings.sky
    }

    /// Home under an open sky: the world's centre (on z = 0 in a flat world).
    pub fn home(&self) -> glam::Vec3 {
        let mut home = glam::Vec3::splat(0.5 * self.world);
        if self.settings.flat {
            home.z = 0.0;
        }
        home
    }

    /// Where hawks start and the leaders loop: the world, or under an open sky the view
    /// around home.
    pub fn arena(&self) -> Arena {
        if !self.settings.sky {
            return Arena::world(self.world);
        }
        let side = self.view_size();
        let mut corner = self.home() - glam::Vec3::splat(0.5 * side);
        if self.settings.flat {
            corner.z = 0.0;
        }
        Arena { corner, side }
    }

    /// Turns the open sky on or off (wrap goes off with it on): the world grows or shrinks
    /// about its centre, the obstacles keep their places relative to it, and the flock and
    /// its hawks start afresh.
    fn set_sky(&mut self, sky: bool) {
        if self.settings.sky == sky {
            return;
        }
        self.settings.sky = sky;
        if sky {
            self.settings.wrap = false;
        }
        self.recentre_world(true);
        // A new world, as for `flat`: the flock starts afresh (under an open sky,
        // together around home).
        self.rebuild();
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
        if let Some(value) = plain(s, param) {
            return f64::from(value);
        }
        match param {
            Param::Count => self.len() as f64,
            Param::Seed => f64::from(self.seed),
            Param::Wrap => flag(s.wrap),
            Param::Sky => flag(s.sky),
            Param::Speed => f64::from(s.speed),
            Param::WorldSize => f64::from(self.view_size()),
            Param::Predators => s.predators as f64,
            Param::PredatorSpeed => f64::from(s.predator_speed),
            Param::Leaders => s.leaders as f64,
            Param::SpeciesCount => s.species as f64,
            Param::Flat => flag(s.flat),
            Param::Topological => flag(s.topological),
            Param::NearestK => s.nearest_k as f64,
            Param::Delay => f64::from(s.delay),
            Param::FailureMode => s.failure_mode as f64,
            _ => unreachable!("plain parameters are read above"),
        }
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
        match param {
            Param::Delay => self.check_history(param, real, self.len())?,
            Param::Count => self.check_history(param, self.settings.delay, value as usize)?,
            _ => {}
        }
        if let Some(field) = plain_mut(&mut self.settings, param) {
            *field = real;
            return Ok(());
        }
        let s = &mut self.settings;
        match param {
            Param::Count => self.set_count(value as usize),
            Param::Seed => {
                self.seed = value as u32;
                self.rebuild();
            }
            Param::Wrap => {
                if value != 0.0 {
                    self.set_sky(false);
                }
                self.settings.wrap = value != 0.0;
            }
            Param::Sky => self.set_sky(value != 0.0),
            Param::Speed => {
                let ratio = real / s.speed;
                s.speed = real;
                // Everyone changes pace at once, so the flock keeps its shape.
                self.velocities.iter_mut().for_each(|v| *v *= ratio);
                self.touched();
            }
            Param::WorldSize => {
                s.world_size = Some(real);
                let sky = s.sky;
                self.recentre_world(sky);
            }
            Param::Predators => {
                s.predators = value as usize;
                let (flat, speed) = (s.flat, s.predator_speed);
                let arena = self.arena();
                self.behaviours
                    .set_hawks(value as usize, arena, flat, speed);
            }
            Param::PredatorSpeed => {
                s.predator_speed = real;
                self.behaviours.set_hawk_speed(real);
            }
            Param::Leaders => {
                s.leaders = value as usize;
                let (flat, cruise) = (s.flat, s.speed);
                let arena = self.arena();
                self.behaviours
                    .set_leaders(value as usize, arena, flat, cruise);
            }
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
            Param::Delay => {
                s.delay = real;
                let now = self.elapsed;
                if real > 0.0 {
                    self.swarm.history.trim(now, real);
                } else {
                    self.swarm.history.clear();
                }
            }
            Param::FailureMode => s.failure_mode = value as usize,
            _ => unreachable!("plain parameters are set above"),
        }
        Ok(())
    }
}
