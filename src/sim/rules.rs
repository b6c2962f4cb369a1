//! Reynolds' three rules for one boid, given what it sees of its neighbours.
//! Pure functions over plain vectors: the grid decides who is a neighbour, these decide
//! what a boid does about them.

use glam::Vec3;

/// What one boid sees: sums over the neighbours inside its perception radius and field of view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Neighbourhood {
    pub count: u32,
    /// Σ v_j.
    pub sum_velocity: Vec3,
    /// Σ (p_j − p_i), using the nearest image across wrapped edges.
    pub sum_offset: Vec3,
    /// Σ (p_i − p_j) / |p_i − p_j|² over neighbours inside the separation radius.
    pub separation: Vec3,
}

/// The three steering vectors: each is clamped to the maximum force, then separation is
/// multiplied by its urgency and cohesion divided by it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Steering {
    pub separation: Vec3,
    pub alignment: Vec3,
    pub cohesion: Vec3,
    /// [`urgency`] of the separation (1 when nobody is too close).
    pub urgency: f32,
}

/// How many times the maximum force separation may push when neighbours crowd in. 10 lets
/// a neighbour at a tenth of the separation radius push ten times as hard as the gentle
/// rules; more made packed boids jump (a turn of 30° in one step at 60 Hz).
pub const MAX_URGENCY: f32 = 10.0;

/// Share of the rules' pull along a boid's heading that changes its speed: the rest of
/// each rule turns it. Each rule asks for "desired − current velocity" with the desired at
/// cruise speed, so rules that pull sideways also brake; summed over three rules the
/// braking pinned 86 % of a settled flock at the minimum speed. A tenth keeps boids near
/// cruise while they still slow and speed up a little as they turn.
pub const ALONG_SHARE: f32 = 0.1;

/// How urgent separation is for a boid whose separation sum is `separation`
/// (Σ (p_i − p_j)/|p_i − p_j|²): its length times the separation radius, so 1 for one
/// neighbour at the edge of the radius, 2 at half of it, …; never below 1 nor above
/// [`MAX_URGENCY`]. The push grows as the gap closes and wins over the gentle rules.
pub fn urgency(separation: Vec3, separation_radius: f32) -> f32 {
    let u = separation.length() * separation_radius;
    if u > 1.0 {
        u.min(MAX_URGENCY)
    } else {
        1.0
    }
}

/// Steering toward flying along `direction` at `cruise` speed: desired − current velocity,
/// no longer than `max_force`. A zero direction asks for nothing.
pub fn steer(direction: Vec3, velocity: Vec3, cruise: f32, max_force: f32) -> Vec3 {
    let length = direction.length();
    if !length.is_finite() || length <= 1e-12 {
        return Vec3::ZERO;
    }
    let desired = direction * (cruise / length);
    (desired - velocity).clamp_length_max(max_force)
}

/// Separation, alignment and cohesion steering for a boid flying at `velocity`: each
/// clamped to `max_force`; then separation grows with its [`urgency`] and cohesion yields
/// by the same factor (Reynolds' priority: keeping one's distance comes first). A
/// `separation_radius` of 0 leaves the urgency at 1.
pub fn steering(
    seen: &Neighbourhood,
    velocity: Vec3,
    cruise: f32,
    max_force: f32,
    separation_radius: f32,
) -> Steering {
    if seen.count == 0 {
        return Steering {
            urgency: 1.0,
            ..Steering::default()
        };
    }
    let urgency = urgency(seen.separation, separation_radius);
    Steering {
        separation: steer(seen.separation, velocity, cruise, max_force) * urgency,
        // The mean has the direction of the sum, and only the direction matters.
        alignment: steer(seen.sum_velocity, velocity, cruise, max_force),
        cohesion: steer(seen.sum_offset, velocity, cruise, max_force) / urgency,
        urgency,
    }
}

/// Which weighted rule pushes a boid hardest: 0 when none acts, else 1 separation,
/// 2 alignment, 3 cohesion (a tie goes to the first). What "colour by strongest rule" shows
/// and the inspector names; the step records it for every boid (`Flock::strongest_rules`).
pub fn strongest(separation: Vec3, alignment: Vec3, cohesion: Vec3) -> u8 {
    let sizes = [separation, alignment, cohesion].map(Vec3::length_squared);
    let mut best = (0, 0.0);
    for (rule, size) in (1..).zip(sizes) {
        if size > best.1 {
            best = (rule, size);
        }
    }
    best.0
}

/// The rules' summed `pull` on a boid flying at `velocity`, with only [`ALONG_SHARE`] of
/// its part along the heading kept: the rules turn a boid; its speed is the cruise
/// speed's business.
pub fn mostly_turning(pull: Vec3, velocity: Vec3) -> Vec3 {
    let speed_squared = velocity.length_squared();
    if speed_squared <= 1e-12 {
        return pull;
    }
    let along = pull.dot(velocity) / speed_squared;
    pull - velocity * ((1.0 - ALONG_SHARE) * along)
}

/// Squared distance below which two boids count as being at the same point (then
/// separation pushes along their relative drift instead of dividing by zero).
pub const COINCIDENT: f32 = 1e-12;

/// Push on boid `i` away from boid `j` at `offset` (= p_j − p_i) inside the separation
/// radius: (p_i − p_j)/|p_i − p_j|². Two boids at one point have no direction between them:
/// they push apart along their relative velocity `v_i − v_j` (the way they are drifting
/// apart anyway), or, when that is zero too, along a direction made from the pair's indices
/// (opposite for the two; nothing else tells identical boids apart). Either push is as hard
/// as from a boid a thousandth of a unit away: harder would swamp the other neighbours'
/// pushes in f32 round-off. So no NaN appears and a pile of boids spreads out.
pub fn repulsion(
    offset: Vec3,
    distance_squared: f32,
    relative_velocity: Vec3,
    i: usize,
    j: usize,
) -> Vec3 {
    const PUSH: f32 = 1e3;
    if distance_squared > COINCIDENT {
        return -offset / distance_squared;
    }
    if let Some(drift) = relative_velocity.try_normalize() {
        return drift * PUSH;
    }
    let (low, high) = if i < j { (i, j) } else { (j, i) };
    let direction = pair_direction(low, high);
    let away = if i < j { -direction } else { direction };
    away * PUSH
}

/// A unit direction that looks random but depends only on the pair.
fn pair_direction(low: usize, high: usize) -> Vec3 {
    let mut h = (low as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (high as u64);
    let mut next = || {
        h = (h ^ (h >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 29;
        (h >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    };
    let v = Vec3::new(next(), next(), next());
    v.try_normalize().unwrap_or(Vec3::X)
}

/// A boid's field of view, set up once for all its neighbours. A neighbour at `offset`
/// (distance `d`) is seen when the angle between the boid's heading and `offset` is at most
/// half the field of view: `forward·offset ≥ cos(½fov)·d`. With the heading scaled by
/// 1/|cos ½fov| into `heading`, and `u = heading·offset`, that needs neither a square root
/// nor a division per neighbour: a view wider than 180° misses only what lies behind,
/// `u < −d`, that is `min(u, 0)² > d²`; a narrower one sees only `u ≥ d`, that is
/// `max(u, 0)² ≥ d²`. A neighbour at the very same point (`d = 0`, `u = 0`) is seen either
/// way. The lane scan (`scan::window`) makes this test four neighbours at a time, in the
/// very same operations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sight {
    /// The unit heading over |cos ½fov|.
    pub heading: Vec3,
    /// The view is 180° or narrower.
    pub narrow: bool,
}

impl Sight {
    /// The sight of a boid heading along the unit vector `forward` (or zero, at rest) with a
    /// field of view whose half-angle has cosine `cos_half_fov` (`None`: 360°). `None` when
    /// it sees all round: a view of 360°, or a boid at rest, which has no heading.
    pub fn new(forward: Vec3, cos_half_fov: Option<f32>) -> Option<Sight> {
        let cos = cos_half_fov?;
        if forward == Vec3::ZERO {
            return None;
        }
        // |cos| is 0.087 at a view of 350° or 10°; f32's cos(90°) is −4.4e-8, not 0. The
        // floor only keeps a division by zero out, should a view of exactly 180° come.
        Some(Sight {
            heading: forward / cos.abs().max(1e-9),
            narrow: cos >= 0.0,
        })
    }

    /// Whether the neighbour at `offset` (squared length `distance_squared`) is in view.
    pub fn sees(&self, offset: Vec3, distance_squared: f32) -> bool {
        let u = self.heading.dot(offset);
        if self.narrow {
            let ahead = u.max(0.0);
            ahead * ahead >= distance_squared
        } else {
            let behind = u.min(0.0);
            behind * behind <= distance_squared
        }
    }
}

/// Soft walls: inside a margin of width `margin` from a wall, accelerate back inward,
/// growing linearly to `strength` at the wall itself.
pub fn wall_push(position: Vec3, world: f32, margin: f32, strength: f32) -> Vec3 {
    let mut push = Vec3::ZERO;
    for axis in 0..3 {
        let p = position[axis];
        if p < margin {
            push[axis] += strength * (margin - p) / margin;
        } else if p > world - margin {
            push[axis] -= strength * (p - (world - margin)) / margin;
        }
    }
    push
}

/// An open sky's pull toward `home`: nothing within `free` of it; beyond, Reynolds' seek
/// (steer from `velocity` toward flying home at the same speed), harder by `per_unit`
/// (1/s per unit) with every unit farther. Seeking turns a boid until it heads home and
/// then lets it be; a pull along the line to home (a spring) would keep every boid's
/// angular momentum about home, and a flock drawn in from all sides by one ends up
/// circling it (measured at 10,000 boids: a murmuration milling 0.59–0.68).
pub fn home_pull(position: Vec3, velocity: Vec3, home: Vec3, free: f32, per_unit: f32) -> Vec3 {
    let away = position - home;
    let distance = away.length();
    if distance <= free {
        return Vec3::ZERO;
    }
    let desired = away * (-velocity.length() / distance);
    // Mostly a turn: braking a boid that flies away from home would leave it crawling
    // (1,500 in the murmuration: 66 % near cruise speed, against 90 % and more).
    mostly_turning(
        (desired - velocity) * (per_unit * (distance - free)),
        velocity,
    )
}

/// Keeps the speed between `min` and `max`; a stopped boid restarts along `fallback`.
pub fn limit_speed(velocity: Vec3, min: f32, max: f32, fallback: Vec3) -> Vec3 {
    let speed = velocity.length();
    if !speed.is_finite() || speed < 1e-6 {
        let direction = fallback.try_normalize().unwrap_or(Vec3::X);
        return direction * min;
    }
    if speed > max {
        velocity * (max / speed)
    } else if speed < min {
        velocity * (min / speed)
    } else {
        velocity
    }
}

/// How much a hawk at `offset` (= hawk − boid) frightens a boid that flees from hawks
/// within `radius`: a direction away from the hawk, longer the closer the hawk (1 at the
/// boid, 0 at the radius). `None` outside the radius. A hawk exactly on the boid has no
/// direction and is ignored for that instant: the next step separates them.
pub fn flee_from(offset: Vec3, radius: f32) -> Option<Vec3> {
    let distance_squared = offset.length_squared();
    if distance_squared >= radius * radius {
        return None;
    }
    let distance = distance_squared.sqrt();
    let away = -offset / distance.max(1e-6);
    Some(away * (1.0 - distance / radius))
}

/// Where a ray from `origin` along the unit vector `direction` first meets the sphere
/// (`centre`, `radius`): the distance along the ray, or `None` when it misses or the sphere
/// lies behind. A ray starting inside the sphere hits at 0.
pub fn ray_sphere(origin: Vec3, direction: Vec3, centre: Vec3, radius: f32) -> Option<f32> {
    let to_centre = centre - origin;
    let c = to_centre.length_squared() - radius * radius;
    if c <= 0.0 {
        return Some(0.0);
    }
    let along = to_centre.dot(direction);
    if along <= 0.0 {
        return None;
    }
    let discriminant = along * along - c;
    if discriminant < 0.0 {
        return None;
    }
    Some(along - discriminant.sqrt())
}

/// A unit vector perpendicular to `direction` (unit), in the x-y plane when it can be: the
/// way a boid flying straight at an obstacle's centre turns, since the normal alone would
/// only slow it down.
fn sideways(direction: Vec3) -> Vec3 {
    Vec3::new(-direction.y, direction.x, 0.0)
        .try_normalize()
        .unwrap_or_else(|| direction.any_orthonormal_vector())
}

/// Steering around a sphere (`centre`, `radius`, already padded by the clearance a boid keeps)
/// for a boid at `position` flying at `velocity`: it looks `look_ahead` units along its
/// heading, and if that ray hits the sphere it is pushed along the surface normal at the hit
/// point, harder the nearer the hit (`strength` at the surface, 0 at `look_ahead`). A boid
/// inside the sphere is pushed straight out at full strength.
pub fn avoid_sphere(
    position: Vec3,
    velocity: Vec3,
    centre: Vec3,
    radius: f32,
    look_ahead: f32,
    strength: f32,
) -> Vec3 {
    let from_centre = position - centre;
    if from_centre.length_squared() < radius * radius {
        let out = from_centre
            .try_normalize()
            .unwrap_or_else(|| velocity.try_normalize().unwrap_or(Vec3::X));
        return out * strength;
    }
    let Some(heading) = velocity.try_normalize() else {
        return Vec3::ZERO;
    };
    let Some(hit) = ray_sphere(position, heading, centre, radius) else {
        return Vec3::ZERO;
    };
    if hit >= look_ahead {
        return Vec3::ZERO;
    }
    let normal = (position + heading * hit - centre) / radius;
    // The normal's part across the heading is what turns the boid; near a head-on hit it
    // vanishes, so a turn to the side makes up the rest.
    let across = normal - heading * normal.dot(heading);
    let turn = if across.length_squared() < 0.25 {
        let side = sideways(heading);
        let side = if side.dot(across) < 0.0 { -side } else { side };
        normal + side * 0.5
    } else {
        normal
    };
    turn.normalize() * (strength * (1.0 - hit / look_ahead))
}

/// Steering to follow a leader at `offset` (= leader − boid) flying at `leader_velocity`:
/// toward the velocity that matches the leader's and closes the gap in about one second,
/// no faster than `top_speed`, clamped to `max_force`. Matching the leader's velocity (not
/// only aiming at it) keeps followers streaming along the route instead of balling up.
pub fn follow(
    offset: Vec3,
    leader_velocity: Vec3,
    velocity: Vec3,
    top_speed: f32,
    max_force: f32,
) -> Vec3 {
    const CLOSING_RATE: f32 = 1.0;
    let desired = (leader_velocity + offset * CLOSING_RATE).clamp_length_max(top_speed);
    (desired - velocity).clamp_length_max(max_force)
}

/// The wind as an acceleration: `strength` toward `heading` degrees in the x-y plane
/// (0° is +x, 90° is +y), tilted `elevation` degrees toward +z.
pub fn wind(strength: f32, heading: f32, elevation: f32) -> Vec3 {
    let (sin_heading, cos_heading) = heading.to_radians().sin_cos();
    let (sin_elevation, cos_elevation) = elevation.to_radians().sin_cos();
    Vec3::new(
        cos_elevation * cos_heading,
        cos_elevation * sin_heading,
        sin_elevation,
    ) * strength
}

/// The pointer's pull on a boid that sees it at `offset` (= pointer − boid): toward it when
/// `attract` (from anywhere in the world), else away from it within `repel_radius` and harder
/// the closer. Steering at `cruise` speed, clamped to `max_force`.
pub fn pointer_pull(
    offset: Vec3,
    velocity: Vec3,
    attract: bool,
    repel_radius: f32,
    cruise: f32,
    max_force: f32,
) -> Vec3 {
    if attract {
        return steer(offset, velocity, cruise, max_force);
    }
    match flee_from(offset, repel_radius) {
        Some(away) => steer(away, velocity, cruise, max_force) * (away.length() * 2.0).min(1.0),
        None => Vec3::ZERO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen_one(offset: Vec3, velocity: Vec3) -> Neighbourhood {
        Neighbourhood {
            count: 1,
            sum_velocity: velocity,
            sum_offset: offset,
            separation: repulsion(offset, offset.length_squared(), Vec3::ZERO, 0, 1),
        }
    }

    #[test]
    fn separation_pushes_away_from_a_close_neighbour() {
        let v = Vec3::new(0.0, 0.0, 10.0);
        let neighbour_on_the_right = Vec3::new(1.0, 0.0, 0.0);
        let s = steering(&seen_one(neighbour_on_the_right, v), v, 10.0, 20.0, 2.0);
        assert!(s.separation.x < 0.0, "{:?}", s.separation);
    }

    #[test]
    fn closer_neighbours_push_harder() {
        let near = repulsion(Vec3::X, 1.0, Vec3::ZERO, 0, 1);
        let far = repulsion(Vec3::X * 2.0, 4.0, Vec3::ZERO, 0, 1);
        assert!(near.length() > far.length());
        assert!((near.length() - 1.0).abs() < 1e-6 && (far.length() - 0.5).abs() < 1e-6);
    }

    #[test]
    fn cohesion_pulls_toward_the_neighbours_centre() {
        let v = Vec3::new(10.0, 0.0, 0.0);
        let centre_above = Vec3::new(0.0, 3.0, 0.0);
        let s = steering(&seen_one(centre_above, v), v, 10.0, 20.0, 2.0);
        assert!(s.cohesion.y > 0.0 && s.cohesion.dot(centre_above) > 0.0);
    }

    #[test]
    fn alignment_turns_toward_the_mean_heading() {
        let v = Vec3::new(10.0, 0.0, 0.0);
        let neighbours_fly_along_z = Vec3::new(0.0, 0.0, 10.0);
        let s = steering(
            &seen_one(Vec3::Y, neighbours_fly_along_z),
            v,
            10.0,
            20.0,
            2.0,
        );
        assert!(
            s.alignment.z > 0.0 && s.alignment.x < 0.0,
            "{:?}",
            s.alignment
        );
        // Already aligned at cruise speed: nothing to do.
        let s = steering(&seen_one(Vec3::Y, v), v, 10.0, 20.0, 2.0);
        assert!(s.alignment.length() < 1e-5);
    }

    #[test]
    fn gentle_rules_are_clamped_and_separation_grows_as_the_gap_closes() {
        let v = Vec3::new(14.0, 0.0, 0.0);
        let at = |gap: f32| {
            let seen = seen_one(Vec3::new(-gap, 0.0, 0.0), Vec3::new(-14.0, 0.0, 0.0));
            steering(&seen, v, 10.0, 3.0, 2.0)
        };
        // At the edge of the separation radius: every rule at most the maximum force.
        let edge = at(2.0);
        assert_eq!(edge.urgency, 1.0);
        for rule in [edge.separation, edge.alignment, edge.cohesion] {
            assert!(rule.length() <= 3.0 + 1e-4, "{rule:?}");
            assert!(rule.length() > 2.9, "the clamp should bind here: {rule:?}");
        }
        // At a quarter of it: separation four times as hard, cohesion a quarter.
        let close = at(0.5);
        assert!((close.urgency - 4.0).abs() < 1e-4, "{close:?}");
        assert!((close.separation.length() - 12.0).abs() < 1e-3, "{close:?}");
        assert!((close.cohesion.length() - 0.75).abs() < 1e-3, "{close:?}");
        assert!(close.alignment.length() <= 3.0 + 1e-4);
        // Never more than MAX_URGENCY.
        let touching = at(1e-4);
        assert_eq!(touching.urgency, MAX_URGENCY);
        assert!(touching.separation.length() <= 3.0 * MAX_URGENCY + 1e-3);
        assert_eq!(urgency(Vec3::splat(f32::NAN), 2.0), 1.0);
    }

    #[test]
    fn the_rules_mostly_turn_a_boid() {
        let v = Vec3::new(10.0, 0.0, 0.0);
        let pull = Vec3::new(-20.0, 5.0, 0.0);
        let turned = mostly_turning(pull, v);
        assert_eq!(turned.y, 5.0, "across the heading: all of it");
        assert!((turned.x + 20.0 * ALONG_SHARE).abs() < 1e-5, "{turned:?}");
        assert_eq!(mostly_turning(pull, Vec3::ZERO), pull, "at rest: all of it");
    }

    #[test]
    fn no_neighbours_no_steering() {
        let s = steering(&Neighbourhood::default(), Vec3::X, 10.0, 20.0, 2.0);
        assert_eq!(s.separation + s.alignment + s.cohesion, Vec3::ZERO);
        assert_eq!(s.urgency, 1.0);
    }

    #[test]
    fn coincident_boids_push_apart_without_nan() {
        let a = repulsion(Vec3::ZERO, 0.0, Vec3::ZERO, 3, 8);
        let b = repulsion(Vec3::ZERO, 0.0, Vec3::ZERO, 8, 3);
        assert!(a.is_finite() && b.is_finite());
        assert!(
            (a + b).length() < 1e-3,
            "they must push in opposite directions"
        );
        let other_pair = repulsion(Vec3::ZERO, 0.0, Vec3::ZERO, 3, 9);
        assert!(
            a.normalize().dot(other_pair.normalize()) < 0.99,
            "pairs differ"
        );
        // Boids drifting apart are pushed along their drift, whatever their labels.
        let drift = Vec3::new(0.0, 2.0, 0.0);
        let c = repulsion(Vec3::ZERO, 0.0, drift, 3, 8);
        assert_eq!(c, repulsion(Vec3::ZERO, 0.0, drift, 8, 3));
        assert!(c.normalize().dot(Vec3::Y) > 0.999);
        let s = steering(
            &Neighbourhood {
                count: 1,
                separation: a,
                ..Default::default()
            },
            Vec3::ZERO,
            10.0,
            20.0,
            2.0,
        );
        assert!(s.separation.is_finite() && s.alignment.is_finite() && s.cohesion.is_finite());
    }

    /// Whether a boid heading along `forward` sees a neighbour at `offset` through a view
    /// whose half-angle has cosine `cos_half_fov`.
    fn in_field_of_view(
        forward: Vec3,
        offset: Vec3,
        distance_squared: f32,
        cos_half_fov: f32,
    ) -> bool {
        Sight::new(forward, Some(cos_half_fov))
            .is_none_or(|sight| sight.sees(offset, distance_squared))
    }

    #[test]
    fn field_of_view_drops_a_neighbour_straight_behind() {
        let forward = Vec3::X;
        let cos_half_270 = (135f32).to_radians().cos();
        let behind = Vec3::new(-2.0, 0.0, 0.0);
        let beside = Vec3::new(0.0, 2.0, 0.0);
        let ahead = Vec3::new(2.0, 0.1, 0.0);
        assert!(!in_field_of_view(forward, behind, 4.0, cos_half_270));
        assert!(in_field_of_view(forward, beside, 4.0, cos_half_270));
        assert!(in_field_of_view(
            forward,
            ahead,
            ahead.length_squared(),
            cos_half_270
        ));
        assert!(in_field_of_view(
            forward,
            Vec3::ZERO,
            0.0,
            (10f32).to_radians().cos()
        ));
        // 360° sees everything, even straight behind.
        assert!(in_field_of_view(
            forward,
            behind,
            4.0,
            (180f32).to_radians().cos() - 1e-6
        ));
    }

    /// `Sight` against the definition it stands for, worked out in f64: a neighbour is seen
    /// when the angle between the heading and its offset is at most half the field of view.
    /// Views from 10° to 355° (narrow, 180° and wide), headings and offsets all round; only
    /// neighbours within 1e-4 radians of the cone's edge may go either way.
    #[test]
    fn sight_sees_the_cone_of_its_field_of_view() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut unit = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
        };
        let (mut seen, mut missed) = (0, 0);
        for fov in (2..72).map(|k| k as f32 * 5.0) {
            let cos = (fov * 0.5).to_radians().cos();
            for _ in 0..400 {
                let forward = Vec3::new(unit(), unit(), unit()).normalize_or_zero();
                let offset = Vec3::new(unit(), unit(), unit()) * 5.0;
                let sight = Sight::new(forward, Some(cos)).unwrap();
                let sees = sight.sees(offset, offset.length_squared());
                let angle = forward.as_dvec3().angle_between(offset.as_dvec3());
                let half = f64::from(fov * 0.5).to_radians();
                if (angle - half).abs() > 1e-4 {
                    assert_eq!(sees, angle < half, "fov {fov} {forward} {offset}");
                    if sees {
                        seen += 1
                    } else {
                        missed += 1
                    }
                }
            }
        }
        assert!(seen > 5000 && missed > 5000, "{seen} seen, {missed} missed");
        // At rest, or with a view all round: no sight to test, everything is seen.
        assert_eq!(Sight::new(Vec3::ZERO, Some(0.5)), None);
        assert_eq!(Sight::new(Vec3::X, None), None);
        assert!(in_field_of_view(Vec3::ZERO, -Vec3::X, 1.0, 0.9));
        // A neighbour at the very same point is seen, however narrow the view.
        let narrow = Sight::new(Vec3::X, Some((5f32).to_radians().cos())).unwrap();
        assert!(narrow.sees(Vec3::ZERO, 0.0));
        assert!(narrow.narrow && narrow.sees(Vec3::X, 1.0));
    }

    #[test]
    fn walls_push_inward_only_near_them() {
        let inward = wall_push(Vec3::new(0.5, 20.0, 39.5), 40.0, 4.0, 10.0);
        assert!(inward.x > 0.0 && inward.y == 0.0 && inward.z < 0.0);
        assert!((inward.x - 10.0 * 3.5 / 4.0).abs() < 1e-5);
        assert_eq!(wall_push(Vec3::splat(20.0), 40.0, 4.0, 10.0), Vec3::ZERO);
    }

    #[test]
    fn home_pulls_only_beyond_the_range_and_harder_farther() {
        let home = Vec3::splat(60.0);
        let across = Vec3::new(10.0, 0.0, 0.0);
        assert_eq!(
            home_pull(home + Vec3::Y * 9.9, across, home, 10.0, 2.0),
            Vec3::ZERO
        );
        // 12 from home flying across the line home: turned toward home (the seek's part
        // along the heading mostly dropped: `mostly_turning`).
        let near = home_pull(home + Vec3::Y * 12.0, across, home, 10.0, 2.0);
        let seek = Vec3::new(-10.0, -10.0, 0.0) * 4.0;
        assert!(
            (near - mostly_turning(seek, across)).length() < 1e-4,
            "{near}"
        );
        assert!(
            near.y < -39.0 && near.x.abs() < near.y.abs() / 2.0,
            "{near}"
        );
        // Twice as far beyond the range: twice the pull.
        let far = home_pull(home + Vec3::Y * 14.0, across, home, 10.0, 2.0);
        assert!((far - 2.0 * near).length() < 1e-3, "{far}");
        // Heading home already: nothing to change.
        let homing = home_pull(home + Vec3::Y * 30.0, -Vec3::Y * 10.0, home, 10.0, 2.0);
        assert!(homing.length() < 1e-4, "{homing}");
        assert_eq!(
            home_pull(home, across, home, 0.0, 2.0),
            Vec3::ZERO,
            "at home, no pull"
        );
    }

    #[test]
    fn speed_is_limited_both_ways() {
        let fast = limit_speed(Vec3::new(30.0, 0.0, 0.0), 5.0, 14.0, Vec3::X);
        assert!((fast.length() - 14.0).abs() < 1e-4);
        let slow = limit_speed(Vec3::new(0.0, 1.0, 0.0), 5.0, 14.0, Vec3::X);
        assert!((slow.length() - 5.0).abs() < 1e-4 && slow.y > 0.0);
        let stopped = limit_speed(Vec3::ZERO, 5.0, 14.0, Vec3::Z);
        assert_eq!(stopped, Vec3::new(0.0, 0.0, 5.0));
        let nan = limit_speed(Vec3::splat(f32::NAN), 5.0, 14.0, Vec3::ZERO);
        assert!(nan.is_finite() && (nan.length() - 5.0).abs() < 1e-4);
    }

    #[test]
    fn flee_points_away_from_the_hawk_and_fades_at_the_radius() {
        let hawk_on_the_right = Vec3::new(2.0, 0.0, 0.0);
        let away = flee_from(hawk_on_the_right, 10.0).unwrap();
        assert!(away.x < 0.0 && away.y == 0.0 && away.z == 0.0);
        assert!((away.length() - 0.8).abs() < 1e-6);
        let farther = flee_from(Vec3::new(8.0, 0.0, 0.0), 10.0).unwrap();
        assert!(farther.length() < away.length());
        assert_eq!(flee_from(Vec3::new(0.0, 10.0, 0.0), 10.0), None);
        assert!(flee_from(Vec3::ZERO, 10.0).unwrap().is_finite());
    }

    #[test]
    fn rays_hit_spheres_in_front_and_miss_those_behind_or_beside() {
        let centre = Vec3::new(10.0, 0.0, 0.0);
        let hit = ray_sphere(Vec3::ZERO, Vec3::X, centre, 2.0).unwrap();
        assert!((hit - 8.0).abs() < 1e-5);
        assert_eq!(ray_sphere(Vec3::ZERO, -Vec3::X, centre, 2.0), None);
        assert_eq!(ray_sphere(Vec3::ZERO, Vec3::Y, centre, 2.0), None);
        let grazing = ray_sphere(Vec3::new(0.0, 1.9, 0.0), Vec3::X, centre, 2.0);
        assert!(grazing.is_some_and(|t| t > 8.0 && t < 10.0));
        assert_eq!(ray_sphere(centre, Vec3::X, centre, 2.0), Some(0.0));
    }

    #[test]
    fn avoidance_turns_away_from_a_sphere_ahead_only() {
        let v = Vec3::new(10.0, 0.0, 0.0);
        let centre = Vec3::new(10.0, 1.0, 0.0);
        let push = avoid_sphere(Vec3::ZERO, v, centre, 3.0, 14.0, 100.0);
        assert!(
            push.y < 0.0,
            "turns away from the side the sphere is on: {push:?}"
        );
        let nearer = avoid_sphere(Vec3::new(5.0, 0.0, 0.0), v, centre, 3.0, 14.0, 100.0);
        assert!(nearer.length() > push.length(), "nearer hits push harder");
        // Out of reach, beside or behind: nothing.
        assert_eq!(
            avoid_sphere(Vec3::ZERO, v, centre * 3.0, 3.0, 14.0, 100.0),
            Vec3::ZERO
        );
        assert_eq!(
            avoid_sphere(Vec3::ZERO, -v, centre, 3.0, 14.0, 100.0),
            Vec3::ZERO
        );
        // Head-on, the push still has a sideways part.
        let head_on = avoid_sphere(Vec3::ZERO, v, Vec3::new(8.0, 0.0, 0.0), 3.0, 14.0, 100.0);
        assert!(head_on.y.abs() > 0.1 * head_on.length(), "{head_on:?}");
        // Inside: straight out at full strength.
        let inside = avoid_sphere(Vec3::new(10.0, 2.0, 0.0), v, centre, 3.0, 14.0, 100.0);
        assert!(inside.y > 99.0 && inside.x.abs() < 1e-3, "{inside:?}");
    }

    #[test]
    fn wind_blows_toward_its_heading_and_elevation() {
        let east = wind(2.0, 0.0, 0.0);
        assert!((east - Vec3::new(2.0, 0.0, 0.0)).length() < 1e-6);
        let north = wind(1.0, 90.0, 0.0);
        assert!((north - Vec3::Y).length() < 1e-6);
        let up = wind(1.0, 45.0, 90.0);
        assert!((up - Vec3::Z).length() < 1e-6);
        assert_eq!(wind(0.0, 123.0, 45.0), Vec3::ZERO);
    }

    #[test]
    fn the_pointer_attracts_or_repels() {
        let v = Vec3::new(0.0, 10.0, 0.0);
        let pointer_right = Vec3::new(30.0, 0.0, 0.0);
        let pull = pointer_pull(pointer_right, v, true, 10.0, 10.0, 20.0);
        assert!(pull.x > 0.0);
        let near_right = Vec3::new(3.0, 0.0, 0.0);
        let push = pointer_pull(near_right, v, false, 10.0, 10.0, 20.0);
        assert!(push.x < 0.0);
        assert_eq!(
            pointer_pull(pointer_right, v, false, 10.0, 10.0, 20.0),
            Vec3::ZERO
        );
    }
}
