//! The boids' shapes (issue 42): a cone (the default), a bird, a fish and a chick, each a
//! small static mesh pointing along +x (forward), +y up and +z to the right, about one unit
//! long like the cone, drawn by the same one instanced call; the renderer swaps the mesh's
//! buffers when the shape changes, never adds a draw.
//!
//! Every vertex carries a paint (`Paint`): the flock's colour (whatever the colour mode
//! shows), or a fixed one (the chick's yellow body and orange beak, its eyes). Plain Rust,
//! tested natively.

use glam::Vec3;

use super::mesh::{self, Mesh};

/// What a boid looks like.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shape {
    #[default]
    Cone,
    Bird,
    Fish,
    Chick,
}

impl Shape {
    pub const ALL: [Shape; 4] = [Shape::Cone, Shape::Bird, Shape::Fish, Shape::Chick];

    /// Its name in attributes, URLs and `View.setShape`: "cone", "bird", "fish", "chick".
    pub fn name(self) -> &'static str {
        match self {
            Shape::Cone => "cone",
            Shape::Bird => "bird",
            Shape::Fish => "fish",
            Shape::Chick => "chick",
        }
    }

    /// The shape named `name` (as `name` gives it), else `None`.
    pub fn from_name(name: &str) -> Option<Shape> {
        Self::ALL.into_iter().find(|shape| shape.name() == name)
    }

    /// Its mesh, built in model space (forward +x).
    pub fn mesh(self) -> Mesh {
        match self {
            Shape::Cone => mesh::cone(),
            Shape::Bird => bird(),
            Shape::Fish => fish(),
            Shape::Chick => chick(),
        }
    }
}

/// A vertex's colour: the shader's `a_paint` (cone.vert.glsl reads these numbers).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(u8)]
pub enum Paint {
    /// The colour mode's colour (heading, species, speed, …).
    Flock = 0,
    /// The chick's beak: orange.
    Beak = 1,
    /// Eyes: near black.
    Eye = 2,
    /// The chick's body: yellow, tinted a little by the colour mode's colour.
    Down = 3,
}

/// Builds a mesh part by part.
#[derive(Default)]
struct Builder {
    vertices: Vec<f32>,
    indices: Vec<u16>,
}

impl Builder {
    fn vertex(&mut self, position: Vec3, normal: Vec3, paint: Paint) -> u16 {
        let at = self.vertices.len() / mesh::VERTEX_FLOATS;
        self.vertices.extend_from_slice(&position.to_array());
        self.vertices
            .extend_from_slice(&normal.normalize_or_zero().to_array());
        self.vertices.push(f32::from(paint as u8));
        at as u16
    }

    /// An ellipsoid of radii `radii` around `centre` (latitude/longitude about the y axis,
    /// wound as `mesh::sphere`, counter-clockwise outward); normals from the gradient.
    fn ellipsoid(
        &mut self,
        centre: Vec3,
        radii: Vec3,
        rings: usize,
        segments: usize,
        paint: Paint,
    ) {
        let first = self.vertices.len() / mesh::VERTEX_FLOATS;
        for ring in 0..=rings {
            let polar = std::f32::consts::PI * ring as f32 / rings as f32;
            for segment in 0..=segments {
                let azimuth = std::f32::consts::TAU * segment as f32 / segments as f32;
                let unit = Vec3::new(
                    polar.sin() * azimuth.cos(),
                    polar.cos(),
                    polar.sin() * azimuth.sin(),
                );
                self.vertex(centre + unit * radii, unit / radii, paint);
            }
        }
        let row = segments + 1;
        for ring in 0..rings {
            for segment in 0..segments {
                let a = first + ring * row + segment;
                let b = a + row;
                self.indices
                    .extend([a, a + 1, b, a + 1, b + 1, b].map(|i| i as u16));
            }
        }
    }

    /// A cone along +x from a base ring of `radius` at `base` to its tip at `base +
    /// (length, 0, 0)`, open at the base (it sits in a body), counter-clockwise outward.
    fn cone_x(&mut self, base: Vec3, length: f32, radius: f32, segments: usize, paint: Paint) {
        let angle = |k: f32| k * std::f32::consts::TAU / segments as f32;
        let side = |a: f32| Vec3::new(radius / length, a.cos(), a.sin());
        let ring = |a: f32| base + Vec3::new(0.0, radius * a.cos(), radius * a.sin());
        let tip = base + Vec3::X * length;
        for k in 0..segments {
            let (a, b) = (angle(k as f32), angle(k as f32 + 1.0));
            let t = self.vertex(tip, side(angle(k as f32 + 0.5)), paint);
            let p = self.vertex(ring(a), side(a), paint);
            let q = self.vertex(ring(b), side(b), paint);
            self.indices.extend([t, p, q]);
        }
    }

    /// A thin flat piece (a wing, a fin): the triangle seen from both sides, each face lit
    /// by its own normal (the renderer culls back faces).
    fn blade(&mut self, a: Vec3, b: Vec3, c: Vec3, paint: Paint) {
        let normal = (b - a).cross(c - a);
        let front = [a, b, c].map(|p| self.vertex(p, normal, paint));
        let back = [a, c, b].map(|p| self.vertex(p, -normal, paint));
        self.indices.extend(front);
        self.indices.extend(back);
    }

    fn build(self) -> Mesh {
        Mesh {
            vertices: self.vertices,
            indices: self.indices,
        }
    }
}

/// A gliding bird: a slim body, swept wings held level, a forked tail. Wingspan 0.9 of
/// its length, so that a flock of them reads as birds, not as a cloud of crosses.
fn bird() -> Mesh {
    let mut b = Builder::default();
    let paint = Paint::Flock;
    b.ellipsoid(
        Vec3::new(0.1, 0.0, 0.0),
        Vec3::new(0.42, 0.09, 0.1),
        6,
        8,
        paint,
    );
    b.cone_x(Vec3::new(0.5, 0.0, 0.0), 0.15, 0.04, 5, paint);
    for side in [-1.0, 1.0] {
        let z = |v: f32| side * v;
        // Each wing: the root along the body, the tip swept back and a little raised.
        b.blade(
            Vec3::new(0.22, 0.01, z(0.06)),
            Vec3::new(-0.08, 0.01, z(0.06)),
            Vec3::new(-0.16, 0.06, z(0.45)),
            paint,
        );
        b.blade(
            Vec3::new(0.22, 0.01, z(0.06)),
            Vec3::new(-0.16, 0.06, z(0.45)),
            Vec3::new(0.02, 0.05, z(0.42)),
            paint,
        );
        // The tail's fork.
        b.blade(
            Vec3::new(-0.22, 0.0, 0.0),
            Vec3::new(-0.5, 0.0, z(0.16)),
            Vec3::new(-0.4, 0.0, z(0.02)),
            paint,
        );
    }
    b.build()
}

/// A fish: a body taller than it is wide, a tail fin and a dorsal fin, upright.
fn fish() -> Mesh {
    let mut b = Builder::default();
    let paint = Paint::Flock;
    b.ellipsoid(
        Vec3::new(0.08, 0.0, 0.0),
        Vec3::new(0.42, 0.17, 0.08),
        8,
        10,
        paint,
    );
    b.blade(
        Vec3::new(-0.28, 0.0, 0.0),
        Vec3::new(-0.56, 0.2, 0.0),
        Vec3::new(-0.56, -0.2, 0.0),
        paint,
    );
    b.blade(
        Vec3::new(0.16, 0.14, 0.0),
        Vec3::new(-0.14, 0.14, 0.0),
        Vec3::new(-0.08, 0.3, 0.0),
        paint,
    );
    b.ellipsoid(
        Vec3::new(0.38, 0.05, 0.06),
        Vec3::splat(0.03),
        4,
        6,
        Paint::Eye,
    );
    b.ellipsoid(
        Vec3::new(0.38, 0.05, -0.06),
        Vec3::splat(0.03),
        4,
        6,
        Paint::Eye,
    );
    b.build()
}

/// A chick, as the beginners' lesson draws it: a round yellow body, a round head, an
/// orange beak along the velocity and two black eyes.
fn chick() -> Mesh {
    let mut b = Builder::default();
    b.ellipsoid(
        Vec3::new(-0.08, 0.0, 0.0),
        Vec3::splat(0.3),
        8,
        10,
        Paint::Down,
    );
    b.ellipsoid(
        Vec3::new(0.2, 0.16, 0.0),
        Vec3::splat(0.18),
        6,
        8,
        Paint::Down,
    );
    b.cone_x(Vec3::new(0.34, 0.14, 0.0), 0.2, 0.06, 6, Paint::Beak);
    for z in [-0.09, 0.09] {
        b.ellipsoid(
            Vec3::new(0.33, 0.22, z),
            Vec3::splat(0.035),
            4,
            6,
            Paint::Eye,
        );
    }
    b.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(mesh: &Mesh, i: u16) -> (Vec3, Vec3, f32) {
        let v = &mesh.vertices[usize::from(i) * mesh::VERTEX_FLOATS..][..mesh::VERTEX_FLOATS];
        (
            Vec3::new(v[0], v[1], v[2]),
            Vec3::new(v[3], v[4], v[5]),
            v[6],
        )
    }

    #[test]
    fn names_round_trip_and_cone_is_the_default() {
        for shape in Shape::ALL {
            assert_eq!(Shape::from_name(shape.name()), Some(shape));
        }
        assert_eq!(Shape::default(), Shape::Cone);
        assert_eq!(Shape::from_name("Bird"), None);
        assert_eq!(Shape::from_name(""), None);
    }

    #[test]
    fn every_shape_is_about_a_cone_long_points_forward_and_faces_out() {
        for shape in Shape::ALL {
            let mesh = shape.mesh();
            let name = shape.name();
            assert_eq!(mesh.vertices.len() % mesh::VERTEX_FLOATS, 0, "{name}");
            assert_eq!(mesh.indices.len() % 3, 0, "{name}");
            let count = mesh.vertices.len() / mesh::VERTEX_FLOATS;
            assert!(count < usize::from(u16::MAX), "{name}: {count} vertices");
            // A few hundred triangles at most: 100,000 chicks stay drawable.
            assert!(
                mesh.indices.len() / 3 <= 600,
                "{name}: {} triangles",
                mesh.indices.len() / 3
            );
            let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
            for i in 0..count {
                let (p, n, paint) = vertex(&mesh, i as u16);
                lo = lo.min(p);
                hi = hi.max(p);
                assert!((n.length() - 1.0).abs() < 1e-4, "{name}: normal {n}");
                assert!(
                    [0.0, 1.0, 2.0, 3.0].contains(&paint),
                    "{name}: paint {paint}"
                );
            }
            let length = hi.x - lo.x;
            assert!((0.8..=1.2).contains(&length), "{name}: {length} long");
            // The front is the far end of +x: the cone's tip, the bird's bill, the beak.
            assert!(
                hi.x > 0.4 && lo.x < -0.3,
                "{name}: from {} to {}",
                lo.x,
                hi.x
            );
            // Counter-clockwise faces outward: each triangle's winding normal agrees with
            // its vertices' normals (culling keeps the side the light sees).
            for tri in mesh.indices.chunks(3) {
                let [(a, na, _), (b, nb, _), (c, nc, _)] = [0, 1, 2].map(|k| vertex(&mesh, tri[k]));
                let winding = (b - a).cross(c - a);
                if winding.length() < 1e-7 {
                    continue; // a pole's sliver
                }
                assert!(
                    winding.dot(na + nb + nc) > 0.0,
                    "{name}: triangle {tri:?} faces inward"
                );
            }
        }
    }

    #[test]
    fn the_chick_is_yellow_with_an_orange_beak_in_front() {
        let mesh = Shape::Chick.mesh();
        let count = mesh.vertices.len() / mesh::VERTEX_FLOATS;
        let (mut beak_x, mut body_x) = (f32::MIN, f32::MIN);
        let mut paints = [0usize; 4];
        for i in 0..count {
            let (p, _, paint) = vertex(&mesh, i as u16);
            paints[paint as usize] += 1;
            if paint == 1.0 {
                beak_x = beak_x.max(p.x);
            } else {
                body_x = body_x.max(p.x);
            }
        }
        assert_eq!(
            paints[0], 0,
            "nothing of the chick takes the flock's colour alone"
        );
        assert!(
            paints[1] > 0 && paints[2] > 0 && paints[3] > 0,
            "{paints:?}"
        );
        assert!(
            beak_x > body_x,
            "the beak ({beak_x}) leads the body ({body_x})"
        );
        // The other shapes are the flock's colour (the fish's eyes aside).
        for shape in [Shape::Cone, Shape::Bird] {
            let mesh = shape.mesh();
            assert!(mesh
                .vertices
                .chunks(mesh::VERTEX_FLOATS)
                .all(|v| v[6] == 0.0));
        }
    }
}
