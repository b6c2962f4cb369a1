//! Static meshes: the boid cone, the unit sphere and the unit cube's edges. Built once,
//! uploaded once (the other boid shapes are `shapes`').

/// Segments around the cone. Smooth normals hide the facets, so few are enough.
pub const CONE_SEGMENTS: usize = 8;
/// The cone points along +x with length 1: tip at `TIP`, base ring at `BASE`.
const TIP: f32 = 0.65;
const BASE: f32 = -0.35;
const RADIUS: f32 = 0.26;

/// Interleaved vertex: position xyz, normal xyz, paint (`shapes::Paint`; 0 for the cone and
/// the sphere: the flock's colour).
pub const VERTEX_FLOATS: usize = 7;

/// An indexed triangle mesh.
pub struct Mesh {
    /// `VERTEX_FLOATS` per vertex.
    pub vertices: Vec<f32>,
    pub indices: Vec<u16>,
}

/// A cone with a closed base, counter-clockwise (front) faces outward.
///
/// Each side triangle has its own tip vertex (normal at the segment's middle angle) and
/// shares the ring vertices with its neighbours (smooth normal), so it is lit like a cone,
/// not like a pyramid. The base is a flat fan.
pub fn cone() -> Mesh {
    let n = CONE_SEGMENTS;
    let height = TIP - BASE;
    // Outward normal of the side at angle a: (R/H, cos a, sin a), normalised.
    let side_normal = |angle: f32| {
        let (sin, cos) = angle.sin_cos();
        let normal = glam::Vec3::new(RADIUS / height, cos, sin).normalize();
        [normal.x, normal.y, normal.z]
    };
    let angle = |k: f32| k * std::f32::consts::TAU / n as f32;
    let mut vertices = Vec::with_capacity((3 * n + 1) * VERTEX_FLOATS);
    let mut push = |position: [f32; 3], normal: [f32; 3]| {
        vertices.extend_from_slice(&position);
        vertices.extend_from_slice(&normal);
        vertices.push(0.0);
    };
    // 0..n: side ring; n..2n: tips; 2n: base centre; 2n+1..3n+1: base ring.
    for k in 0..n {
        let a = angle(k as f32);
        push([BASE, RADIUS * a.cos(), RADIUS * a.sin()], side_normal(a));
    }
    for k in 0..n {
        push([TIP, 0.0, 0.0], side_normal(angle(k as f32 + 0.5)));
    }
    push([BASE, 0.0, 0.0], [-1.0, 0.0, 0.0]);
    for k in 0..n {
        let a = angle(k as f32);
        push([BASE, RADIUS * a.cos(), RADIUS * a.sin()], [-1.0, 0.0, 0.0]);
    }
    let mut indices = Vec::with_capacity(6 * n);
    let centre = 2 * n;
    for k in 0..n {
        let next = (k + 1) % n;
        indices.extend([n + k, k, next]);
        indices.extend([centre, centre + 1 + next, centre + 1 + k]);
    }
    Mesh {
        vertices,
        indices: indices.into_iter().map(|i| i as u16).collect(),
    }
}

/// The 12 edges of the unit cube [0, 1]³ as 24 line vertices (xyz each).
pub fn cube_edges() -> Vec<f32> {
    let mut lines = Vec::with_capacity(24 * 3);
    for axis in 0..3 {
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        for (a, b) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
            for t in [0.0, 1.0] {
                let mut corner = [0.0f32; 3];
                corner[axis] = t;
                corner[u] = a;
                corner[v] = b;
                lines.extend_from_slice(&corner);
            }
        }
    }
    lines
}

/// Rings and segments of the obstacle sphere.
const SPHERE_RINGS: usize = 12;
const SPHERE_SEGMENTS: usize = 20;

/// A unit sphere (latitude/longitude), counter-clockwise faces outward; each vertex's
/// normal equals its position, stored as in the cone (`VERTEX_FLOATS` per vertex).
pub fn sphere() -> Mesh {
    let mut vertices =
        Vec::with_capacity((SPHERE_RINGS + 1) * (SPHERE_SEGMENTS + 1) * VERTEX_FLOATS);
    for ring in 0..=SPHERE_RINGS {
        let polar = std::f32::consts::PI * ring as f32 / SPHERE_RINGS as f32;
        for segment in 0..=SPHERE_SEGMENTS {
            let azimuth = std::f32::consts::TAU * segment as f32 / SPHERE_SEGMENTS as f32;
            let p = [
                polar.sin() * azimuth.cos(),
                polar.cos(),
                polar.sin() * azimuth.sin(),
            ];
            vertices.extend_from_slice(&p);
            vertices.extend_from_slice(&p);
            vertices.push(0.0);
        }
    }
    let row = SPHERE_SEGMENTS + 1;
    let mut indices = Vec::with_capacity(SPHERE_RINGS * SPHERE_SEGMENTS * 6);
    for ring in 0..SPHERE_RINGS {
        for segment in 0..SPHERE_SEGMENTS {
            let a = ring * row + segment;
            let b = a + row;
            indices.extend([a, a + 1, b, a + 1, b + 1, b]);
        }
    }
    Mesh {
        vertices,
        indices: indices.into_iter().map(|i| i as u16).collect(),
    }
}
