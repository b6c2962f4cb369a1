//! What the instruments draw over the flock for one selected boid, as plain vertices (GL
//! coordinates, y up): its perception and separation spheres (discs facing the camera; in
//! 2D the circles themselves), its blind zone, a line to each neighbour and one arrow per
//! force. Built on the CPU each frame from `Flock::inspect` — a few hundred vertices — and
//! drawn in two calls (triangles, then lines) by `overlay_gl`; tested natively here.

use glam::{Mat4, Vec3};

use crate::sim::{Flock, Inspection, ScanWindow};

/// Floats per overlay vertex: position xyz (GL), colour rgba (straight alpha).
pub const VERTEX_FLOATS: usize = 7;
/// Segments of a drawn circle: 48 look round at any size a sphere is drawn.
const CIRCLE_SEGMENTS: usize = 48;
/// An arrow's length in CSS pixels for a force of the maximum steering force...
const ARROW_PX: f32 = 60.0;
/// ...and the longest an arrow gets (separation's urgency can push ten times as hard).
const MAX_ARROW_PX: f32 = 220.0;
/// Arrows' widths and heads, CSS pixels: wide enough to read and to click-test by colour.
const SHAFT_PX: f32 = 3.0;
const TOTAL_SHAFT_PX: f32 = 5.0;
const HEAD_LENGTH_PX: f32 = 12.0;
/// The shortest arrow, CSS pixels: a weak force still shows as more than its head.
const MIN_ARROW_PX: f32 = 18.0;
const HEAD_WIDTH_PX: f32 = 11.0;

/// One force the inspector draws: its name (as `inspect().terms` names it) and colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Force {
    pub name: &'static str,
    pub rgb: [f32; 3],
}

const fn force(name: &'static str, rgb: [u8; 3]) -> Force {
    Force {
        name,
        rgb: [
            rgb[0] as f32 / 255.0,
            rgb[1] as f32 / 255.0,
            rgb[2] as f32 / 255.0,
        ],
    }
}

/// The forces in drawing order, each its own colour: well apart in hue on the dark sky,
/// the three rules in red, yellow and blue (also "colour by strongest rule"'s colours).
pub const FORCES: [Force; 11] = [
    force("total", [255, 255, 255]),
    force("separation", [255, 84, 84]),
    force("alignment", [255, 212, 59]),
    force("cohesion", [77, 171, 247]),
    force("cruise", [140, 233, 154]),
    force("walls", [173, 181, 189]),
    force("obstacles", [214, 140, 82]),
    force("hawks", [247, 103, 196]),
    force("leader", [255, 146, 43]),
    force("pointer", [190, 75, 219]),
    force("wind", [102, 217, 232]),
];

/// The three rules' colours (separation, alignment, cohesion), as `FORCES` has them.
pub const RULE_RGB: [[f32; 3]; 3] = [FORCES[1].rgb, FORCES[2].rgb, FORCES[3].rgb];
/// Colour by rule: a boid that no rule pushes (it sees no one).
pub const NO_RULE_RGB: [f32; 3] = [0.5, 0.5, 0.55];

/// How the selected boid relates to another it is drawn linked to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// Heeded: counts for alignment and cohesion (and separation, if close).
    Heeded,
    /// Inside the separation radius: pushes it away.
    TooClose,
    /// Within the perception radius but in the blind zone: ignored by alignment and cohesion.
    Unseen,
}

/// The grid's window (`Flock::scan_window`): the cells' edges, faint, and a candidate the
/// boid checks without linking to it (too far, or itself in no link), amber.
pub const CELL_RGBA: [f32; 4] = [0.45, 0.8, 1.0, 0.3];
pub const CANDIDATE_RGBA: [f32; 4] = [1.0, 0.78, 0.3, 0.8];

/// Colours of the links, straight alpha: too close in separation's colour, unseen dimmed.
pub const LINK_RGBA: [(Link, [f32; 4]); 3] = [
    (Link::Heeded, [0.92, 0.95, 1.0, 0.55]),
    (Link::TooClose, [1.0, 0.33, 0.33, 0.95]),
    (Link::Unseen, [0.55, 0.58, 0.65, 0.22]),
];

fn link_rgba(link: Link) -> [f32; 4] {
    LINK_RGBA
        .iter()
        .find(|(l, _)| *l == link)
        .map_or([1.0; 4], |(_, c)| *c)
}

/// `#rrggbb` for a colour (0–1 per channel), for a legend drawn by JavaScript.
pub fn css(rgb: [f32; 3]) -> String {
    let byte = |c: f32| (c.clamp(0.0, 1.0) * 255.0).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        byte(rgb[0]),
        byte(rgb[1]),
        byte(rgb[2])
    )
}

/// Simulation (z up) to GL (y up) coordinates.
pub fn gl(v: Vec3) -> Vec3 {
    Vec3::new(v.x, v.z, v.y)
}

/// What the overlay needs of the camera: where the eye is, how it projects, and the
/// drawing buffer's size, to size arrows in pixels whatever the zoom.
#[derive(Clone, Copy, Debug)]
pub struct Scene {
    pub view_proj: Mat4,
    /// The eye, GL coordinates.
    pub eye: Vec3,
    /// Drawing buffer, device pixels.
    pub width: f32,
    pub height: f32,
    /// Device pixels per CSS pixel.
    pub pixel_ratio: f32,
    /// A flat world, seen from above: discs lie in its plane.
    pub flat: bool,
}

impl Scene {
    /// World units one CSS pixel spans at `p` (GL), across the line of sight.
    pub fn world_per_css_pixel(&self, p: Vec3) -> f32 {
        let toward = (p - self.eye).normalize_or(Vec3::NEG_Z);
        let side = perpendicular(toward);
        let a = self.view_proj.project_point3(p);
        let b = self.view_proj.project_point3(p + side);
        let (dx, dy) = (
            (b.x - a.x) * 0.5 * self.width,
            (b.y - a.y) * 0.5 * self.height,
        );
        let pixels = (dx * dx + dy * dy).sqrt();
        if pixels.is_finite() && pixels > 1e-6 {
            self.pixel_ratio.max(1e-3) / pixels
        } else {
            1.0
        }
    }

    /// The normal of a disc drawn at `p` to show a sphere: toward the eye (in 2D, up).
    fn facing(&self, p: Vec3) -> Vec3 {
        if self.flat {
            Vec3::Y
        } else {
            (self.eye - p).normalize_or(Vec3::Y)
        }
    }
}

/// A unit vector perpendicular to `v` (unit).
fn perpendicular(v: Vec3) -> Vec3 {
    let other = if v.y.abs() < 0.9 { Vec3::Y } else { Vec3::X };
    v.cross(other).normalize_or(Vec3::X)
}

/// The overlay's vertices, refilled each frame (capacity kept).
#[derive(Clone, Debug, Default)]
pub struct Geometry {
    /// Triangles: discs, the blind zone, arrows.
    pub triangles: Vec<f32>,
    /// Line segments (pairs): rims and links.
    pub lines: Vec<f32>,
}

impl Geometry {
    pub fn clear(&mut self) {
        self.triangles.clear();
        self.lines.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty() && self.lines.is_empty()
    }

    fn triangle(&mut self, corners: [Vec3; 3], rgba: [f32; 4]) {
        for c in corners {
            vertex(&mut self.triangles, c, rgba);
        }
    }

    fn line(&mut self, a: Vec3, b: Vec3, rgba: [f32; 4]) {
        vertex(&mut self.lines, a, rgba);
        vertex(&mut self.lines, b, rgba);
    }

    /// A filled disc (`fill`) with its rim (`rim`) around `centre`, facing `normal`.
    fn disc(&mut self, centre: Vec3, normal: Vec3, radius: f32, fill: [f32; 4], rim: [f32; 4]) {
        let u = perpendicular(normal);
        let w = normal.cross(u);
        let at = |k: usize| {
            let (sin, cos) = (k as f32 * std::f32::consts::TAU / CIRCLE_SEGMENTS as f32).sin_cos();
            centre + radius * (cos * u + sin * w)
        };
        for k in 0..CIRCLE_SEGMENTS {
            let (a, b) = (at(k), at(k + 1));
            self.triangle([centre, a, b], fill);
            self.line(a, b, rim);
        }
    }

    /// An arrow from `from` along `vector` (both GL), widths in world units, turned to face
    /// the eye (which looks along `sight`).
    fn arrow(&mut self, from: Vec3, vector: Vec3, widths: [f32; 3], sight: Vec3, rgba: [f32; 4]) {
        let length = vector.length();
        if !(length.is_finite() && length > 0.0) {
            return;
        }
        let along = vector / length;
        let [shaft, head_length, head_width] = widths;
        let mut side = along.cross(sight);
        if side.length_squared() < 1e-8 {
            side = perpendicular(along);
        }
        let side = side.normalize();
        let head = head_length.min(0.6 * length);
        let neck = from + along * (length - head);
        let tip = from + vector;
        let (s, h) = (side * (0.5 * shaft), side * (0.5 * head_width));
        self.triangle([from - s, from + s, neck + s], rgba);
        self.triangle([from - s, neck + s, neck - s], rgba);
        self.triangle([neck - h, neck + h, tip], rgba);
    }
}

fn vertex(out: &mut Vec<f32>, p: Vec3, rgba: [f32; 4]) {
    out.extend_from_slice(&[p.x, p.y, p.z, rgba[0], rgba[1], rgba[2], rgba[3]]);
}

/// Each linked boid's offset from the selected one (simulation coordinates, across the
/// nearest edge when the world wraps: `Inspection::offsets`) and how they are linked; a
/// boid too close and heeded is drawn as too close.
pub fn links(seen: &Inspection) -> Vec<(Vec3, Link)> {
    seen.offsets
        .iter()
        .map(|(id, offset)| {
            let link = if seen.too_close.contains(id) {
                Link::TooClose
            } else if seen.heeded.contains(id) {
                Link::Heeded
            } else {
                Link::Unseen
            };
            (*offset, link)
        })
        .collect()
}

/// The inspector's drawing for `seen` (from `flock.inspect`), its links from `links`, and
/// with `window` the cells its next step scans.
pub fn build(
    out: &mut Geometry,
    flock: &Flock,
    seen: &Inspection,
    links: &[(Vec3, Link)],
    window: Option<&ScanWindow>,
    scene: &Scene,
) {
    out.clear();
    let s = flock.settings();
    let p = gl(seen.position);
    let normal = scene.facing(p);
    // The spheres: faint, so the boids inside still show; separation in its colour.
    let [sr, sg, sb] = FORCES[1].rgb;
    out.disc(
        p,
        normal,
        s.perception,
        [0.75, 0.85, 1.0, 0.07],
        [0.75, 0.85, 1.0, 0.45],
    );
    out.disc(
        p,
        normal,
        s.separation_radius,
        [sr, sg, sb, 0.10],
        [sr, sg, sb, 0.7],
    );
    blind_zone(out, seen, s.field_of_view, s.perception, scene);
    if let Some(window) = window {
        cells(out, window, seen, scene);
    }
    for &(offset, link) in links {
        out.line(p, p + gl(offset), link_rgba(link));
    }
    forces(out, seen, s.max_force, scene);
}

/// The window: each cell's edges (a rectangle's in a flat world), and a small cross on each
/// candidate that no link shows (checked, and found too far).
fn cells(out: &mut Geometry, window: &ScanWindow, seen: &Inspection, scene: &Scene) {
    for &(corner, size) in &window.cells {
        let at = |i: usize| {
            gl(corner + size * Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32))
        };
        // The edges between corners that differ in one axis (a flat cell: its 4 in z = 0).
        for (a, b) in [
            (0, 1),
            (0, 2),
            (1, 3),
            (2, 3),
            (4, 5),
            (4, 6),
            (5, 7),
            (6, 7),
            (0, 4),
            (1, 5),
            (2, 6),
            (3, 7),
        ] {
            if size.z == 0.0 && (a >= 4 || b >= 4) {
                continue;
            }
            out.line(at(a), at(b), CELL_RGBA);
        }
    }
    let linked = |id: &u32| {
        seen.heeded.contains(id) || seen.too_close.contains(id) || seen.unseen.contains(id)
    };
    for (id, &place) in window.candidates.iter().zip(&window.places) {
        if linked(id) {
            continue;
        }
        let p = gl(place);
        let normal = scene.facing(p);
        let u = perpendicular(normal) * (3.0 * scene.world_per_css_pixel(p));
        let w = normal.cross(u);
        out.line(p - u, p + u, CANDIDATE_RGBA);
        out.line(p - w, p + w, CANDIDATE_RGBA);
    }
}

/// The blind zone: the cone (in 2D, the wedge) behind the boid out to its perception
/// radius, where it sees nothing for alignment and cohesion. Nothing at 360°.
fn blind_zone(out: &mut Geometry, seen: &Inspection, fov_degrees: f32, radius: f32, scene: &Scene) {
    let forward = gl(seen.velocity).normalize_or_zero();
    if fov_degrees >= 360.0 || forward == Vec3::ZERO {
        return;
    }
    let p = gl(seen.position);
    let back = -forward;
    // Blind where the angle from straight behind is under 180° − fov/2.
    let half = std::f32::consts::PI - 0.5 * fov_degrees.to_radians();
    let fill = [0.05, 0.05, 0.08, 0.35];
    let rim = [0.6, 0.62, 0.7, 0.5];
    let steps = CIRCLE_SEGMENTS / 2;
    if scene.flat {
        // The wedge, in the plane (GL y = 0): from −half to +half around `back`.
        let side = Vec3::Y.cross(back).normalize_or(Vec3::X);
        let at = |k: usize| {
            let a = -half + 2.0 * half * k as f32 / steps as f32;
            p + radius * (a.cos() * back + a.sin() * side)
        };
        for k in 0..steps {
            out.triangle([p, at(k), at(k + 1)], fill);
        }
        out.line(p, at(0), rim);
        out.line(p, at(steps), rim);
        return;
    }
    let u = perpendicular(back);
    let w = back.cross(u);
    let (sin, cos) = half.sin_cos();
    let at = |k: usize| {
        let (s, c) = (k as f32 * std::f32::consts::TAU / steps as f32).sin_cos();
        p + radius * (cos * back + sin * (c * u + s * w))
    };
    for k in 0..steps {
        out.triangle([p, at(k), at(k + 1)], fill);
        out.line(at(k), at(k + 1), rim);
    }
    for k in (0..steps).step_by(steps / 4) {
        out.line(p, at(k), rim);
    }
}

/// Each force that acts as an arrow from the boid, in `FORCES`' order and colours: the
/// total first and widest, so that the terms lie over it.
fn forces(out: &mut Geometry, seen: &Inspection, max_force: f32, scene: &Scene) {
    let t = &seen.terms;
    let b = &t.behaviours;
    let vectors = [
        t.total,
        t.separation,
        t.alignment,
        t.cohesion,
        t.cruise,
        t.walls,
        b.obstacles,
        b.hawks,
        b.leader,
        b.pointer,
        b.wind,
    ];
    let p = gl(seen.position);
    let px = scene.world_per_css_pixel(p);
    // In 2D the arrows lie flat in the world's plane, seen from straight above.
    let sight = if scene.flat {
        Vec3::NEG_Y
    } else {
        (p - scene.eye).normalize_or(Vec3::NEG_Z)
    };
    let unit = max_force.max(1e-6);
    for (k, (force, mut vector)) in FORCES.iter().zip(vectors).enumerate() {
        if scene.flat {
            // The walls also push off the floor a flat world lies on: the step drops it.
            vector.z = 0.0;
        }
        let size = vector.length();
        if !(size.is_finite() && size > 1e-4 * unit) {
            continue;
        }
        let pixels = (ARROW_PX * size / unit).clamp(MIN_ARROW_PX, MAX_ARROW_PX);
        let shaft = if k == 0 { TOTAL_SHAFT_PX } else { SHAFT_PX };
        let widths = [shaft * px, HEAD_LENGTH_PX * px, HEAD_WIDTH_PX * px];
        let [r, g, b] = force.rgb;
        let along = gl(vector) * (pixels * px / size);
        out.arrow(p, along, widths, sight, [r, g, b, 1.0]);
    }
}

/// The boid whose cone is under the CSS point (`x`, `y`) of a canvas `css_width` ×
/// `css_height` that `view_proj` draws into: the nearest on screen within `reach` CSS
/// pixels of it, the one nearer the eye on a tie. Simulation positions (xyz per boid).
pub fn pick(
    positions: &[f32],
    view_proj: Mat4,
    css_size: (f32, f32),
    point: (f32, f32),
    reach: f32,
) -> Option<usize> {
    let (width, height) = css_size;
    let mut best: Option<(f32, f32, usize)> = None;
    for (i, p) in positions.chunks_exact(3).enumerate() {
        let clip = view_proj * gl(Vec3::from_slice(p)).extend(1.0);
        // Behind the eye, or NaN.
        if clip.w.is_nan() || clip.w <= 0.0 {
            continue;
        }
        let (x, y) = (clip.x / clip.w, clip.y / clip.w);
        let sx = (x + 1.0) * 0.5 * width;
        let sy = (1.0 - y) * 0.5 * height;
        let d2 = (sx - point.0).powi(2) + (sy - point.1).powi(2);
        if d2.is_nan() || d2 > reach * reach {
            continue;
        }
        let depth = clip.w;
        let better = match best {
            None => true,
            // Within a pixel of each other on screen: the nearer the eye wins.
            Some((bd2, bdepth, _)) => {
                if (d2.sqrt() - bd2.sqrt()).abs() < 1.0 {
                    depth < bdepth
                } else {
                    d2 < bd2
                }
            }
        };
        if better {
            best = Some((d2, depth, i));
        }
    }
    best.map(|(_, _, i)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::OrbitCamera;
    use crate::sim::{Param, Settings};

    fn scene(flock: &Flock) -> Scene {
        let camera = OrbitCamera::default();
        let frame = if flock.is_flat() {
            camera.frame_from_above(flock.world_size(), 1.5)
        } else {
            camera.frame(flock.world_size(), 1.5)
        };
        Scene {
            view_proj: frame.view_proj,
            eye: frame.eye,
            width: 1200.0,
            height: 800.0,
            pixel_ratio: 2.0,
            flat: flock.is_flat(),
        }
    }

    /// The colours (rgb) of the opaque triangles: the arrows.
    fn colours(g: &Geometry) -> Vec<[f32; 3]> {
        g.triangles
            .chunks_exact(VERTEX_FLOATS)
            .filter(|v| v[6] == 1.0)
            .map(|v| [v[3], v[4], v[5]])
            .collect()
    }

    #[test]
    fn every_force_that_acts_gets_an_arrow_in_its_colour() {
        let mut flock = Flock::with_settings(
            300,
            Some(3),
            Settings {
                world_size: Some(25.0),
                ..Settings::walled()
            },
        );
        flock.set(Param::Predators, 1.0).unwrap();
        flock.set(Param::WindStrength, 3.0).unwrap();
        flock.set(Param::Leaders, 1.0).unwrap();
        for _ in 0..20 {
            flock.step(1.0 / 60.0);
        }
        let scene = scene(&flock);
        let mut g = Geometry::default();
        let mut shown = [0usize; FORCES.len()];
        // Twenty-five boids anywhere and the twenty-five nearest the hawk (its pull acts
        // only within the flee radius).
        let hawk = Vec3::from_slice(&flock.predator_positions()[..3]);
        let at = |id: u32| {
            let i = flock.index_of(id).unwrap();
            Vec3::from_slice(&flock.positions()[3 * i..3 * i + 3])
        };
        let mut near_hawk = flock.ids()[25..].to_vec();
        near_hawk.sort_by(|&a, &b| at(a).distance(hawk).total_cmp(&at(b).distance(hawk)));
        let chosen: Vec<u32> = flock.ids()[..25]
            .iter()
            .chain(&near_hawk[..25])
            .copied()
            .collect();
        for &id in &chosen {
            let seen = flock.inspect(id).unwrap();
            let links = links(&seen);
            assert_eq!(
                links.len(),
                seen.heeded
                    .iter()
                    .chain(&seen.too_close)
                    .chain(&seen.unseen)
                    .collect::<std::collections::BTreeSet<_>>()
                    .len()
            );
            // Each offset leads to that boid (within the walled world: no wrapping).
            for &(other, offset) in &seen.offsets {
                let j = flock.index_of(other).unwrap();
                let q = Vec3::from_slice(&flock.positions()[3 * j..3 * j + 3]);
                assert!(
                    (seen.position + offset - q).length() < 1e-4,
                    "{id} → {other}"
                );
            }
            build(&mut g, &flock, &seen, &links, None, &scene);
            assert_eq!(g.triangles.len() % (3 * VERTEX_FLOATS), 0);
            assert_eq!(g.lines.len() % (2 * VERTEX_FLOATS), 0);
            assert!(g.triangles.iter().chain(&g.lines).all(|v| v.is_finite()));
            let used = colours(&g);
            // Every force by its name (not by its place in the table), drawn where it acts
            // as much as the drawing's threshold (a ten-thousandth of the maximum force).
            let (t, b) = (&seen.terms, &seen.terms.behaviours);
            for (k, force) in FORCES.iter().enumerate() {
                let vector = match force.name {
                    "total" => t.total,
                    "separation" => t.separation,
                    "alignment" => t.alignment,
                    "cohesion" => t.cohesion,
                    "cruise" => t.cruise,
                    "walls" => t.walls,
                    "obstacles" => b.obstacles,
                    "hawks" => b.hawks,
                    "leader" => b.leader,
                    "pointer" => b.pointer,
                    "wind" => b.wind,
                    other => panic!("a force without a term: {other}"),
                };
                let acts = vector.length() > 1e-4 * flock.settings().max_force;
                assert_eq!(
                    used.contains(&force.rgb),
                    acts,
                    "{} on boid {id}",
                    force.name
                );
                shown[k] += usize::from(acts);
            }
            // A link per neighbour, the rims of two circles and the blind zone's edges.
            assert!(g.lines.len() / (2 * VERTEX_FLOATS) >= links.len() + 2 * CIRCLE_SEGMENTS);
        }
        // Among them, each force this flock has acts on someone (no obstacles and no pointer
        // here: theirs never show).
        for (force, &count) in FORCES.iter().zip(&shown) {
            let expected = !matches!(force.name, "obstacles" | "pointer");
            assert_eq!(count > 0, expected, "{}: on {count} boids", force.name);
        }
    }

    #[test]
    fn the_window_draws_each_cell_and_a_cross_on_each_unlinked_candidate() {
        for flat in [false, true] {
            let settings = crate::sim::Settings {
                wrap: true,
                flat,
                ..crate::sim::Settings::walled()
            };
            let flock = Flock::with_settings(400, Some(2), settings);
            let id = flock.ids()[7];
            let seen = flock.inspect(id).unwrap();
            let window = flock.scan_window(id).unwrap();
            let scene = scene(&flock);
            let (mut with, mut without) = (Geometry::default(), Geometry::default());
            build(
                &mut with,
                &flock,
                &seen,
                &links(&seen),
                Some(&window),
                &scene,
            );
            build(&mut without, &flock, &seen, &links(&seen), None, &scene);
            let count = |g: &Geometry, rgba: [f32; 4]| {
                g.lines
                    .chunks_exact(2 * VERTEX_FLOATS)
                    .filter(|l| l[3..7] == rgba)
                    .count()
            };
            let edges = if flat { 4 } else { 12 };
            assert_eq!(
                count(&with, CELL_RGBA),
                edges * window.cells.len(),
                "flat {flat}"
            );
            assert_eq!(
                window.cells.len(),
                if flat { 9 } else { 27 },
                "a fresh flock's cells are one radius high"
            );
            let linked = seen.heeded.len() + seen.unseen.len();
            let unlinked = window
                .candidates
                .iter()
                .filter(|c| {
                    !seen.heeded.contains(c)
                        && !seen.too_close.contains(c)
                        && !seen.unseen.contains(c)
                })
                .count();
            assert!(
                unlinked > 0 && linked > 0,
                "flat {flat}: some candidates too far, some linked"
            );
            assert_eq!(
                count(&with, CANDIDATE_RGBA),
                2 * unlinked,
                "flat {flat}: a cross each"
            );
            assert_eq!(
                count(&without, CELL_RGBA) + count(&without, CANDIDATE_RGBA),
                0
            );
            assert_eq!(with.triangles, without.triangles, "the rest as it was");
        }
    }

    #[test]
    fn arrows_keep_their_size_on_screen_at_any_zoom() {
        let flock = Flock::new(200, Some(1));
        let seen = flock.inspect(flock.ids()[0]).unwrap();
        let mut lengths = Vec::new();
        for zoom in [0.5, 1.0, 4.0] {
            let camera = OrbitCamera {
                zoom,
                target: seen.position / flock.world_size(),
                ..OrbitCamera::default()
            };
            let frame = camera.frame(flock.world_size(), 1.0);
            let scene = Scene {
                view_proj: frame.view_proj,
                eye: frame.eye,
                width: 800.0,
                height: 800.0,
                pixel_ratio: 1.0,
                flat: false,
            };
            let mut g = Geometry::default();
            build(&mut g, &flock, &seen, &[], None, &scene);
            // The total arrow's tip: its (white) corner farthest from the boid, on screen.
            let a = frame.view_proj.project_point3(gl(seen.position));
            let longest = g
                .triangles
                .chunks_exact(VERTEX_FLOATS)
                .filter(|v| v[3..6] == FORCES[0].rgb)
                .map(|v| {
                    let b = frame.view_proj.project_point3(Vec3::from_slice(&v[..3]));
                    ((b.x - a.x) * 400.0).hypot((b.y - a.y) * 400.0)
                })
                .fold(0.0f32, f32::max);
            lengths.push(longest);
        }
        let expected = (ARROW_PX * seen.terms.total.length() / flock.settings().max_force)
            .clamp(MIN_ARROW_PX, MAX_ARROW_PX);
        for l in &lengths {
            // Foreshortened by the angle of view at most; never scaled by the zoom.
            assert!(
                *l <= expected * 1.05 && *l > 0.3 * expected,
                "{lengths:?} vs {expected}"
            );
        }
        assert!(lengths[2] < 1.5 * lengths[0] && lengths[0] < 1.5 * lengths[2]);
    }

    #[test]
    fn a_flat_world_draws_circles_and_a_wedge_in_its_plane() {
        let flock = Flock::with_settings(
            200,
            Some(2),
            Settings {
                flat: true,
                ..Settings::walled()
            },
        );
        let seen = flock.inspect(flock.ids()[5]).unwrap();
        let mut g = Geometry::default();
        let scene = scene(&flock);
        build(&mut g, &flock, &seen, &links(&seen), None, &scene);
        // Every vertex but the arrows' lies on the floor (GL y = 0).
        let off_plane = g
            .triangles
            .chunks_exact(VERTEX_FLOATS)
            .chain(g.lines.chunks_exact(VERTEX_FLOATS))
            .filter(|v| v[1].abs() > 1e-4)
            .map(|v| v.to_vec())
            .collect::<Vec<_>>();
        assert!(off_plane.is_empty(), "{off_plane:?}");
        // ...and there is something on it: the two discs' fans, the 270° view's blind wedge
        // (its fill) and the arrows.
        let triangles = g.triangles.len() / (3 * VERTEX_FLOATS);
        assert!(
            triangles >= 2 * CIRCLE_SEGMENTS + CIRCLE_SEGMENTS / 2,
            "{triangles}"
        );
        let wedge = g
            .triangles
            .chunks_exact(VERTEX_FLOATS)
            .filter(|v| v[3..7] == [0.05, 0.05, 0.08, 0.35])
            .count();
        assert_eq!(
            wedge,
            3 * (CIRCLE_SEGMENTS / 2),
            "the blind wedge's triangles"
        );
        assert!(!colours(&g).is_empty(), "arrows");
    }

    #[test]
    fn pick_finds_the_boid_under_the_point_and_nothing_far_from_any() {
        // Spread through a box (the open sky's start is a dense ball).
        let flock = Flock::with_settings(300, Some(4), Settings::walled());
        let frame = OrbitCamera::default().frame(flock.world_size(), 1.0);
        let size = (600.0, 600.0);
        for i in [0, 17, 299] {
            let p = gl(Vec3::from_slice(&flock.positions()[3 * i..3 * i + 3]));
            let ndc = frame.view_proj.project_point3(p);
            let point = ((ndc.x + 1.0) * 300.0, (1.0 - ndc.y) * 300.0);
            let picked = pick(flock.positions(), frame.view_proj, size, point, 12.0).unwrap();
            let q = gl(Vec3::from_slice(
                &flock.positions()[3 * picked..3 * picked + 3],
            ));
            let other = frame.view_proj.project_point3(q);
            let d = ((other.x - ndc.x) * 300.0).hypot((other.y - ndc.y) * 300.0);
            assert!(
                picked == i || d < 1.0,
                "boid {i}: picked {picked} {d} px away"
            );
        }
        assert_eq!(
            pick(
                flock.positions(),
                frame.view_proj,
                size,
                (-500.0, -500.0),
                12.0
            ),
            None
        );
    }

    #[test]
    fn css_colours_are_hex() {
        assert_eq!(css([1.0, 0.0, 0.5]), "#ff0080");
        assert_eq!(css(FORCES[0].rgb), "#ffffff");
        let names: Vec<_> = FORCES.iter().map(|f| f.name).collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
    }
}
