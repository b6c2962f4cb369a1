//! WebGL2 renderer (glow): every boid is a lit cone (or the bird, fish or chick of
//! `shapes`) pointing along its velocity.
//!
//! One frame makes exactly one upload of instance data (`bufferSubData`) and one instanced
//! draw call for all cones; the walls, when on, add one small non-instanced `drawArrays`.
//! The cone mesh (swapped in its buffers when the shape changes) and the cube's edges are
//! static; the instance buffer is allocated for a
//! capacity that only grows (doubling), so steady state allocates nothing on the GPU.
//!
//! Hawks and leaders are cones too, in the same instance buffer and the same draw. The
//! obstacles (a few lit spheres) and the leaders' loop add small non-instanced draws.
//!
//! Instance layout, 8 floats (32 bytes) per cone:
//!
//! | floats | meaning                                                        |
//! |--------|----------------------------------------------------------------|
//! | 0..3   | position xyz                                                   |
//! | 3      | kind: 0 boid, 1 hawk (larger, red), 2 leader (larger, gold), 3 failed boid (grey) |
//! | 4..7   | velocity xyz (orientation and colour come from it)             |
//! | 7      | species (0–3; colours the boid when there is more than one)    |
//!
//! Slot 7 is the species unless "colour by" wants another number there (`colour.rs`): the
//! colour modes change what is in the record, never how many records or draws there are.
//! The instruments (`overlay_gl.rs`) draw after the flock: the selected boid's overlay in
//! two calls from one upload, the trails in one call (one texture row upload per sample).
//!
//! The simulation's z axis points up; GL's y does. Records, spheres and the loop are
//! written with y and z swapped, so the lessons' "above" (a 2D flock at z = 0) is above.

use glow::HasContext;

use super::camera::{Framing, OrbitCamera};
use super::colour::{ColourBy, RAMP};
use super::gl_util::{
    as_bytes, buffer, float_attributes, index_bytes, uniforms, vertex_array, Fill, Stream,
};
use super::instruments::Instruments;
use super::mesh;
use super::overlay::{self, Geometry, Scene, NO_RULE_RGB, RULE_RGB};
use super::overlay_gl::OverlayGl;
use super::shapes::Shape;
use super::trails::Ring;
use crate::sim;

/// Floats per instance record (see the module docs).
pub const INSTANCE_FLOATS: usize = 8;
const INSTANCE_BYTES: i32 = (INSTANCE_FLOATS * std::mem::size_of::<f32>()) as i32;
/// Instances the buffer holds before it first has to grow.
const INITIAL_CAPACITY: usize = 2048;
/// Length of a boid in a world of the default size, world units.
const BOID_SIZE: f32 = 1.3;
/// World size at which a boid has `BOID_SIZE`; bigger worlds get somewhat bigger boids so
/// that they stay visible when the whole (larger) world is on screen.
const REFERENCE_WORLD: f32 = 40.0;

const CONE_VERT: &str = include_str!("cone.vert.glsl");
const CONE_FRAG: &str = include_str!("cone.frag.glsl");
const BOX_VERT: &str = include_str!("box.vert.glsl");
const BOX_FRAG: &str = include_str!("box.frag.glsl");
const SPHERE_VERT: &str = include_str!("sphere.vert.glsl");
const SPHERE_FRAG: &str = include_str!("sphere.frag.glsl");
/// Points along the drawn leaders' loop.
const PATH_SAMPLES: usize = 160;
/// Kinds of cone (see the instance layout).
const KIND_BOID: f32 = 0.0;
const KIND_HAWK: f32 = 1.0;
const KIND_LEADER: f32 = 2.0;
const KIND_FAILED: f32 = 3.0;

/// Simulation (z up) to GL (y up) coordinates.
fn gl_xyz(v: &[f32]) -> [f32; 3] {
    [v[0], v[2], v[1]]
}

/// The drawing buffer's size in device pixels, and device pixels per CSS pixel.
#[derive(Clone, Copy, Debug)]
pub struct Viewport {
    pub width: i32,
    pub height: i32,
    pub pixel_ratio: f32,
}

uniforms! {
    struct ConeProgram {
        view_proj,
        eye,
        size,
        cruise,
        fog,
        species,
        colour_by,
        scale,
        selected,
        contrast,
        rules,
        ramp,
        speeds,
    }
}

uniforms! {
    /// Lines: the world's edges (the unit cube scaled) and the leaders' loop (scale 1).
    struct LineProgram {
        view_proj,
        eye,
        scale,
        fog,
        color,
    }
}

uniforms! {
    struct SphereProgram {
        view_proj,
        eye,
        sphere,
        fog,
    }
}

/// A static indexed mesh on the GPU: its vertex array (attributes and element buffer)
/// and its two buffers.
struct MeshArrays {
    vao: glow::VertexArray,
    vertices: glow::Buffer,
    indices: glow::Buffer,
    index_count: i32,
}

impl MeshArrays {
    /// Uploads `mesh` with its position (and, with `lit`, its normal and paint) as
    /// attributes 0 (and 1, 4); leaves the vertex array bound, for more attributes.
    fn upload(gl: &glow::Context, mesh: &mesh::Mesh, lit: bool) -> Result<MeshArrays, String> {
        let vao = vertex_array(gl)?;
        let vertices = buffer(
            gl,
            glow::ARRAY_BUFFER,
            Fill::Static(as_bytes(&mesh.vertices)),
        )?;
        let stride = (mesh::VERTEX_FLOATS * 4) as i32;
        let attributes: &[_] = if lit {
            &[(0, 3, 0), (1, 3, 12), (4, 1, 24)]
        } else {
            &[(0, 3, 0)]
        };
        float_attributes(gl, stride, false, attributes);
        let indices = buffer(
            gl,
            glow::ELEMENT_ARRAY_BUFFER,
            Fill::Static(index_bytes(&mesh.indices)),
        )?;
        Ok(MeshArrays {
            vao,
            vertices,
            indices,
            index_count: mesh.indices.len() as i32,
        })
    }

    /// Puts `mesh` in place of the one uploaded, in the same buffers and vertex array (its
    /// attributes point at the same buffer; the element buffer is the vertex array's).
    fn replace(&mut self, gl: &glow::Context, mesh: &mesh::Mesh) {
        // SAFETY (block): WebGL calls on this mesh's own objects; the bytes are borrowed
        // for each call.
        unsafe {
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vertices));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                as_bytes(&mesh.vertices),
                glow::STATIC_DRAW,
            );
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(self.indices));
            gl.buffer_data_u8_slice(
                glow::ELEMENT_ARRAY_BUFFER,
                index_bytes(&mesh.indices),
                glow::STATIC_DRAW,
            );
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
        }
        self.index_count = mesh.indices.len() as i32;
    }
}

/// Owns the GL objects; reads a flock and draws it, never changes it.
pub struct Renderer {
    gl: glow::Context,
    cones: ConeProgram,
    lines: LineProgram,
    spheres: SphereProgram,
    /// The boids' mesh (the cone, or the shape asked for); its vertex array also reads the
    /// instance records.
    cone: MeshArrays,
    /// The shape `cone` holds now.
    shape: Shape,
    instances: Stream,
    /// CPU copy of the instance records, reused every frame.
    staging: Vec<f32>,
    box_vao: glow::VertexArray,
    box_vertices: glow::Buffer,
    box_vertex_count: i32,
    sphere: MeshArrays,
    path_vao: glow::VertexArray,
    path_vertices: Stream,
    /// The loop as last uploaded (GL coordinates), re-sent only when it changes.
    path: Vec<f32>,
    path_scratch: Vec<f32>,
    instruments: OverlayGl,
    /// The selected boid's overlay, rebuilt each frame (capacity kept).
    geometry: Geometry,
    trails: Ring,
}

/// Size of a cone in a world of side `world`.
fn boid_size(world: f32) -> f32 {
    BOID_SIZE * (world / REFERENCE_WORLD).max(0.1).sqrt()
}

impl Renderer {
    /// Compiles the shaders and uploads the static meshes. Shader errors come back with
    /// the GL info log in the message.
    pub fn new(gl: glow::Context) -> Result<Renderer, String> {
        let cones = ConeProgram::compile(&gl, "cone", CONE_VERT, CONE_FRAG)?;
        let lines = LineProgram::compile(&gl, "line", BOX_VERT, BOX_FRAG)?;
        let spheres = SphereProgram::compile(&gl, "sphere", SPHERE_VERT, SPHERE_FRAG)?;

        // The cone: static mesh (attributes 0, 1) + per-instance records (2, 3).
        let cone = MeshArrays::upload(&gl, &mesh::cone(), true)?;
        let instances = Stream::new(&gl, INITIAL_CAPACITY * INSTANCE_FLOATS)?;
        float_attributes(&gl, INSTANCE_BYTES, true, &[(2, 4, 0), (3, 4, 16)]);

        // The cube's edges.
        let edges = mesh::cube_edges();
        let box_vao = vertex_array(&gl)?;
        let box_vertices = buffer(&gl, glow::ARRAY_BUFFER, Fill::Static(as_bytes(&edges)))?;
        float_attributes(&gl, 12, false, &[(0, 3, 0)]);

        // Obstacles: one unit sphere, placed and scaled by a uniform per obstacle.
        // (Its vertices are on the unit sphere: they are their own normals.)
        let sphere = MeshArrays::upload(&gl, &mesh::sphere(), false)?;

        // The leaders' loop: filled when leaders first appear, refilled when it moves.
        let path_vao = vertex_array(&gl)?;
        let path_vertices = Stream::new(&gl, PATH_SAMPLES * 3)?;
        float_attributes(&gl, 12, false, &[(0, 3, 0)]);

        // SAFETY (block): WebGL state calls on the context this renderer owns.
        unsafe {
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            // The colour modes' fixed colours, from the tables JavaScript's legend reads.
            gl.use_program(Some(cones.program));
            let flat = |colours: &[[f32; 3]]| colours.concat();
            let rules = [NO_RULE_RGB, RULE_RGB[0], RULE_RGB[1], RULE_RGB[2]];
            gl.uniform_3_f32_slice(cones.rules.as_ref(), &flat(&rules));
            gl.uniform_3_f32_slice(cones.ramp.as_ref(), &flat(&RAMP));
            gl.uniform_2_f32(
                cones.speeds.as_ref(),
                sim::MIN_SPEED_FACTOR,
                sim::MAX_SPEED_FACTOR,
            );
            gl.use_program(None);

            // Fixed state: this renderer owns the context.
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.enable(glow::CULL_FACE);
            gl.cull_face(glow::BACK);
            // Premultiplied alpha: fogged boids fade into the page's background.
            gl.enable(glow::BLEND);
            gl.blend_func(glow::ONE, glow::ONE_MINUS_SRC_ALPHA);
            gl.clear_color(0.0, 0.0, 0.0, 0.0);
        }

        let instruments = OverlayGl::new(&gl)?;
        Ok(Renderer {
            instruments,
            geometry: Geometry::default(),
            trails: Ring::default(),
            cones,
            lines,
            spheres,
            cone,
            shape: Shape::Cone,
            instances,
            staging: Vec::with_capacity(INITIAL_CAPACITY * INSTANCE_FLOATS),
            box_vao,
            box_vertices,
            box_vertex_count: (edges.len() / 3) as i32,
            sphere,
            path_vao,
            path_vertices,
            path: Vec::new(),
            path_scratch: Vec::with_capacity(PATH_SAMPLES * 3),
            gl,
        })
    }

    /// Instances the GPU buffer holds now (grows by doubling, never shrinks).
    pub fn capacity(&self) -> usize {
        self.instances.capacity() / INSTANCE_FLOATS
    }

    /// Interleaves the flock's boids, then its hawks and leaders, into the staging records;
    /// slot 7 holds what `colour_by` colours by.
    fn stage(&mut self, flock: &sim::Flock, colour_by: ColourBy) {
        self.staging.clear();
        // A hash per boid and frame, only while some have failed (`Flock::traits_of`).
        let failing = flock.get(sim::Param::Failures) > 0.0;
        let ids = flock.ids();
        let boids = flock
            .positions()
            .chunks_exact(3)
            .zip(flock.velocities().chunks_exact(3))
            .enumerate()
            .map(|(i, (p, v))| {
                let failed = failing && flock.traits_of(ids[i]) & sim::FAILED != 0;
                let kind = if failed { KIND_FAILED } else { KIND_BOID };
                (p, v, kind, colour_by.value(flock, i))
            });
        let hawks = flock
            .predator_positions()
            .chunks_exact(3)
            .zip(flock.predator_velocities().chunks_exact(3))
            .map(|(p, v)| (p, v, KIND_HAWK, 0.0));
        let leaders = flock
            .leader_positions()
            .chunks_exact(3)
            .zip(flock.leader_velocities().chunks_exact(3))
            .map(|(p, v)| (p, v, KIND_LEADER, 0.0));
        for (p, v, kind, value) in boids.chain(hawks).chain(leaders) {
            let [px, py, pz] = gl_xyz(p);
            let [vx, vy, vz] = gl_xyz(v);
            self.staging
                .extend_from_slice(&[px, py, pz, kind, vx, vy, vz, value]);
        }
    }

    /// Sends the leaders' loop to the GPU when it differs from what is there.
    fn update_path(&mut self, flock: &sim::Flock) {
        self.path_scratch.clear();
        if !flock.leader_positions().is_empty() {
            let samples = flock.leader_path(PATH_SAMPLES);
            self.path_scratch
                .extend(samples.chunks_exact(3).flat_map(gl_xyz));
        }
        if self.path_scratch != self.path {
            std::mem::swap(&mut self.path, &mut self.path_scratch);
            if !self.path.is_empty() {
                // Never more than PATH_SAMPLES points, the room it was made with.
                self.path_vertices.upload(&self.gl, &self.path);
            }
        }
    }

    /// Draws one frame: clears, uploads the instance records once, draws all cones in one
    /// instanced call and, when the world has walls, the cube's edges; then what the
    /// `instruments` ask for.
    pub fn draw(
        &mut self,
        flock: &sim::Flock,
        camera: &OrbitCamera,
        viewport: Viewport,
        instruments: &Instruments,
    ) {
        let world = flock.world_size();
        let flat = flock.is_flat();
        let aspect = viewport.width.max(1) as f32 / viewport.height.max(1) as f32;
        let frame = camera.frame_of(Framing::of(flock), aspect);
        // Fog from just in front of the centre to the far side of the world.
        let fog = [
            (frame.distance - 0.4 * frame.radius).max(0.0),
            frame.distance + 1.1 * frame.radius,
        ];
        let view_proj = frame.view_proj.to_cols_array();
        self.update_path(flock);
        self.stage(flock, instruments.colour_by);
        let count = self.staging.len() / INSTANCE_FLOATS;
        let selected = instruments.selected_index(flock);
        if instruments.shape != self.shape {
            // A few kilobytes, once a change: the draw stays one.
            self.cone.replace(&self.gl, &instruments.shape.mesh());
            self.shape = instruments.shape;
        }
        let gl = &self.gl;
        // SAFETY (block): WebGL calls on this renderer's objects; the uploaded slice is
        // borrowed for the duration of the call.
        unsafe {
            gl.viewport(0, 0, viewport.width, viewport.height);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);

            if count > 0 {
                let c = &self.cones;
                gl.use_program(Some(c.program));
                gl.uniform_matrix_4_f32_slice(c.view_proj.as_ref(), false, &view_proj);
                gl.uniform_3_f32(c.eye.as_ref(), frame.eye.x, frame.eye.y, frame.eye.z);
                // Sized by the view, as in a box of its size: the sky's boids look the same.
                gl.uniform_1_f32(c.size.as_ref(), boid_size(flock.view_size()));
                gl.uniform_1_f32(c.cruise.as_ref(), flock.settings().speed);
                gl.uniform_2_f32(c.fog.as_ref(), fog[0], fog[1]);
                gl.uniform_1_f32(c.species.as_ref(), flock.settings().species as f32);
                gl.uniform_1_i32(c.colour_by.as_ref(), instruments.colour_by.index() as i32);
                gl.uniform_1_f32(c.scale.as_ref(), ColourBy::neighbour_scale(flock));
                gl.uniform_1_i32(c.selected.as_ref(), selected.map_or(-1, |i| i as i32));
                let look = if instruments.contrast { 1.0 } else { 0.0 };
                gl.uniform_1_f32(c.contrast.as_ref(), look);
                gl.bind_vertex_array(Some(self.cone.vao));
                // Rare growth: room for at least twice as many, so it is logarithmic.
                self.instances.upload(gl, &self.staging);
                gl.draw_elements_instanced(
                    glow::TRIANGLES,
                    self.cone.index_count,
                    glow::UNSIGNED_SHORT,
                    0,
                    count as i32,
                );
            }

            let obstacles = flock.obstacles();
            if !obstacles.is_empty() {
                let o = &self.spheres;
                gl.use_program(Some(o.program));
                gl.uniform_matrix_4_f32_slice(o.view_proj.as_ref(), false, &view_proj);
                gl.uniform_3_f32(o.eye.as_ref(), frame.eye.x, frame.eye.y, frame.eye.z);
                gl.uniform_2_f32(o.fog.as_ref(), fog[0], fog[1]);
                gl.bind_vertex_array(Some(self.sphere.vao));
                for &[x, y, z, radius] in obstacles {
                    gl.uniform_4_f32(o.sphere.as_ref(), x, z, y, radius);
                    gl.draw_elements(
                        glow::TRIANGLES,
                        self.sphere.index_count,
                        glow::UNSIGNED_SHORT,
                        0,
                    );
                }
            }

            let l = &self.lines;
            // The box only where it is a wall. Under an open sky its sides are a backstop
            // three views wide that the flock, drawn home, never meets: drawn, its edges
            // would cross the picture as walls the sky says are not there ("no wall in
            // sight"), mostly lost in the fog a view away.
            let walls = !flock.settings().wrap && !flock.is_sky();
            if walls || !self.path.is_empty() {
                gl.use_program(Some(l.program));
                gl.uniform_matrix_4_f32_slice(l.view_proj.as_ref(), false, &view_proj);
                gl.uniform_3_f32(l.eye.as_ref(), frame.eye.x, frame.eye.y, frame.eye.z);
                gl.uniform_2_f32(l.fog.as_ref(), fog[0], fog[1]);
                // Lines never hide boids: test depth, don't write it.
                gl.depth_mask(false);
            }
            if walls {
                // A flat world is a square: the cube squashed to its floor.
                let height = if flat { 0.0 } else { world };
                gl.uniform_3_f32(l.scale.as_ref(), world, height, world);
                // The projector look: edges that a washed-out screen still shows.
                let alpha = if instruments.contrast { 0.75 } else { 0.28 };
                gl.uniform_4_f32(l.color.as_ref(), 0.62, 0.76, 1.0, alpha);
                gl.bind_vertex_array(Some(self.box_vao));
                gl.draw_arrays(glow::LINES, 0, self.box_vertex_count);
            }
            if !self.path.is_empty() {
                gl.uniform_3_f32(l.scale.as_ref(), 1.0, 1.0, 1.0);
                let alpha = if instruments.contrast { 0.9 } else { 0.45 };
                gl.uniform_4_f32(l.color.as_ref(), 1.0, 0.8, 0.35, alpha);
                gl.bind_vertex_array(Some(self.path_vao));
                gl.draw_arrays(glow::LINE_LOOP, 0, (self.path.len() / 3) as i32);
            }
            gl.depth_mask(true);
            gl.bind_vertex_array(None);
        }
        self.draw_instruments(flock, instruments, selected, &frame, viewport);
    }

    /// The trails (every boid's, or the selected boid's alone) and the selected boid's
    /// overlay, over the flock.
    fn draw_instruments(
        &mut self,
        flock: &sim::Flock,
        instruments: &Instruments,
        selected: Option<usize>,
        frame: &super::CameraFrame,
        viewport: Viewport,
    ) {
        let view_proj = frame.view_proj.to_cols_array();
        let gl = &self.gl;
        let inspected = selected.and_then(|_| flock.inspect(instruments.selected?));
        if instruments.trails || inspected.is_some() {
            if self.trails.due(flock) {
                let grown = self.trails.sample(flock);
                self.instruments.upload_trails(gl, &self.trails, grown);
            }
            let slot = inspected
                .as_ref()
                .and_then(|seen| self.trails.slot_of(seen.id));
            let only = if instruments.trails { None } else { slot };
            if instruments.trails || only.is_some() {
                // SAFETY: fixed-function state of this renderer's own context.
                unsafe { gl.depth_mask(false) };
                let reading = self.trails.reading(flock);
                self.instruments
                    .draw_trails(gl, &reading, &view_proj, only, slot);
                // SAFETY: as above.
                unsafe { gl.depth_mask(true) };
            }
        } else {
            // Nothing samples the flock meanwhile: start afresh when next asked.
            self.trails.clear();
        }
        let Some(seen) = inspected else { return };
        let scene = Scene {
            view_proj: frame.view_proj,
            eye: frame.eye,
            width: viewport.width.max(1) as f32,
            height: viewport.height.max(1) as f32,
            // The projector look: arrows and heads half as large again (sized in CSS pixels).
            pixel_ratio: viewport.pixel_ratio * if instruments.contrast { 1.5 } else { 1.0 },
            flat: flock.is_flat(),
        };
        let links = overlay::links(&seen);
        let window = instruments
            .cells
            .then(|| flock.scan_window(seen.id))
            .flatten();
        overlay::build(
            &mut self.geometry,
            flock,
            &seen,
            &links,
            window.as_ref(),
            &scene,
        );
        // SAFETY (block): fixed-function state of this renderer's own context.
        unsafe {
            // Over everything: the spheres tint what they hold, the arrows are never hidden;
            // both faces (an arrow turns whichever way its force points).
            gl.disable(glow::DEPTH_TEST);
            gl.disable(glow::CULL_FACE);
            gl.depth_mask(false);
        }
        self.instruments
            .draw_overlay(gl, &self.geometry, &view_proj);
        // SAFETY: as above.
        unsafe {
            gl.enable(glow::DEPTH_TEST);
            gl.enable(glow::CULL_FACE);
            gl.depth_mask(true);
        }
    }
}

impl Drop for Renderer {
    fn drop(&mut self) {
        let gl = &self.gl;
        // SAFETY (block): deletes this renderer's own objects.
        unsafe {
            // After a context loss the objects are gone (and deleting them again would make
            // WebGL warn): `isProgram` is false for them, without an error.
            if !gl.is_program(self.cones.program) {
                return;
            }
            self.instruments.delete(gl);
            for vao in [self.cone.vao, self.box_vao, self.sphere.vao, self.path_vao] {
                gl.delete_vertex_array(vao);
            }
            for buffer in [
                self.cone.vertices,
                self.cone.indices,
                self.instances.buffer,
                self.box_vertices,
                self.sphere.vertices,
                self.sphere.indices,
                self.path_vertices.buffer,
            ] {
                gl.delete_buffer(buffer);
            }
            for program in [self.cones.program, self.lines.program, self.spheres.program] {
                gl.delete_program(program);
            }
        }
    }
}
