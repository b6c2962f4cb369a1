//! Every setting of the model (`Settings`) and the world size that follows the count: a
//! leaf module, read by the flock and by the stages of its step alike.

use crate::within::Within;

use super::params::Param;

/// An open sky's side ÷ the view's (the world the count or `world_size` sets): room for
/// a flock a third of it across to roam a whole view's width from home and back, with the
/// sky's walls, kept as a backstop, a view away from the view's edges.
pub const SKY_SCALE: f32 = 3.0;

/// World side that the default count gets; other counts keep the same density.
const REFERENCE_COUNT: f32 = 1500.0;
/// Every setting of the model, in simulation units.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Cruise speed, world units per second.
    pub speed: f32,
    pub separation: f32,
    pub alignment: f32,
    pub cohesion: f32,
    /// Perception radius, world units.
    pub perception: f32,
    pub separation_radius: f32,
    /// The zone of orientation: only neighbours this close count for alignment (those out
    /// to the perception radius still count for cohesion). At or above the perception
    /// radius, the same as it.
    pub alignment_radius: f32,
    /// Field of view, degrees.
    pub field_of_view: f32,
    /// Largest steering per rule, world units per second².
    pub max_force: f32,
    /// Random turns, rad/√s: every step rotates each heading by a random angle with a spread
    /// of `noise · √h` (see `noise.rs`).
    pub noise: f32,
    /// `None`: the world grows with the count (constant density).
    pub world_size: Option<f32>,
    pub wrap: bool,
    /// An open sky (`SKY_SCALE` views wide) with a pull toward home instead of walls in
    /// sight; never with `wrap`.
    pub sky: bool,
    /// Under an open sky, how far from home (a fraction of the view's side) boids fly free
    /// of its pull.
    pub home_range: f32,
    /// Hawks (0 to 5).
    pub predators: usize,
    pub predator_speed: f32,
    pub flee_radius: f32,
    /// Leaders on the loop (0 to 3).
    pub leaders: usize,
    pub leader_weight: f32,
    pub pointer_strength: f32,
    /// Wind push (units/s²), heading in the x-y plane and elevation toward +z, degrees.
    pub wind_strength: f32,
    pub wind_heading: f32,
    pub wind_elevation: f32,
    /// Species (1 to 4).
    pub species: usize,
    /// A flat world: every z (and velocity z) is 0.
    pub flat: bool,
    /// Heed the `nearest_k` nearest neighbours instead of all within the perception radius.
    pub topological: bool,
    pub nearest_k: usize,
    /// How late, in seconds, a boid hears its neighbours (`swarm.rs`): 0, now.
    pub delay: f32,
    /// Share of messages lost, each neighbour each step.
    pub message_loss: f32,
    /// Share of boids that have failed, and what they do (`swarm::FailureMode`, by number).
    pub failures: f32,
    pub failure_mode: usize,
    /// Share of bold boids (`swarm::Role::BOLD`).
    pub roles: f32,
}

impl Default for Settings {
    fn default() -> Self {
        let default = |param: Param| param.spec().default as f32;
        Settings {
            speed: default(Param::Speed),
            separation: default(Param::Separation),
            alignment: default(Param::Alignment),
            cohesion: default(Param::Cohesion),
            perception: default(Param::Perception),
            separation_radius: default(Param::SeparationRadius),
            alignment_radius: default(Param::AlignmentRadius),
            field_of_view: default(Param::FieldOfView),
            max_force: default(Param::MaxForce),
            noise: default(Param::Noise),
            world_size: None,
            wrap: default(Param::Wrap) != 0.0,
            sky: default(Param::Sky) != 0.0,
            home_range: default(Param::HomeRange),
            predators: default(Param::Predators) as usize,
            predator_speed: default(Param::PredatorSpeed),
            flee_radius: default(Param::FleeRadius),
            leaders: default(Param::Leaders) as usize,
            leader_weight: default(Param::LeaderWeight),
            pointer_strength: default(Param::PointerStrength),
            wind_strength: default(Param::WindStrength),
            wind_heading: default(Param::WindHeading),
            wind_elevation: default(Param::WindElevation),
            species: default(Param::SpeciesCount) as usize,
            flat: default(Param::Flat) != 0.0,
            topological: default(Param::Topological) != 0.0,
            nearest_k: default(Param::NearestK) as usize,
            delay: default(Param::Delay),
            message_loss: default(Param::MessageLoss),
            failures: default(Param::Failures),
            failure_mode: default(Param::FailureMode) as usize,
            roles: default(Param::Roles),
        }
    }
}

impl Settings {
    /// Whether any of the swarm's frontier is on (delay, message loss, failures, roles):
    /// then the step looks around through `flock/swarm.rs`.
    pub fn swarm(&self) -> bool {
        self.delay > 0.0 || self.message_loss > 0.0 || self.failures > 0.0 || self.roles > 0.0
    }

    /// The defaults in a walled box rather than the open sky: the world the experiments and
    /// the rule tests place their boids in by coordinates (a side that follows the count,
    /// nothing outside it).
    pub fn walled() -> Self {
        Settings {
            sky: false,
            ..Settings::default()
        }
    }
}

/// The world side for `count` boids when it follows the count: same density as the
/// default flock in the default world. A `flat` world is as wide as gives each boid as many
/// neighbours within the default perception radius as in 3D.
pub fn auto_world_size(count: usize, flat: bool) -> f32 {
    let spec = Param::WorldSize.spec();
    let reference = spec.default as f32;
    let side = if flat {
        let radius = Param::Perception.spec().default as f32;
        // Boids per unit volume in 3D × a sphere's volume = per unit area × a disc's area.
        let neighbours_3d = REFERENCE_COUNT / reference.powi(3) * 4.0 / 3.0 * radius.powi(3);
        (count as f32 * radius * radius / neighbours_3d).sqrt()
    } else {
        reference * (count as f32 / REFERENCE_COUNT).cbrt()
    };
    side.within(spec.min as f32, spec.max as f32)
}
