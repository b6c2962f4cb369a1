//! WebGL2 renderer (glow): every boid is a lit cone pointing along its velocity.
//!
//! One frame makes exactly one upload of instance data (`bufferSubData`) and one instanced
//! draw call for all cones; the walls, when on, add one small non-instanced `drawArrays`.
//! The cone mesh and the cube's edges are static; the instance buffer is allocated for a
//! capacity that only grows (doubling), so steady state allocates nothing on the GPU.
//!
//! Instance layout, 8 floats (32 bytes) per boid:
//!
//! | floats | meaning                                             |
//! |--------|-----------------------------------------------------|
//! | 0..3   | position xyz                                        |
//! | 3      | kind: 0 boid, 1 predator (drawn larger and red)     |
//! | 4..7   | velocity xyz (orientation and colour come from it)  |
//! | 7      | spare (species, later)                              |

mod camera;
mod mesh;

use glow::HasContext;

use crate::sim;

pub use camera::{CameraFrame, OrbitCamera};

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

/// The drawing buffer's size in device pixels.
#[derive(Clone, Copy, Debug)]
pub struct Viewport {
    pub width: i32,
    pub height: i32,
}

struct ConeProgram {
    program: glow::Program,
    view_proj: Option<glow::UniformLocation>,
    eye: Option<glow::UniformLocation>,
    size: Option<glow::UniformLocation>,
    cruise: Option<glow::UniformLocation>,
    fog: Option<glow::UniformLocation>,
}

struct BoxProgram {
    program: glow::Program,
    view_proj: Option<glow::UniformLocation>,
    eye: Option<glow::UniformLocation>,
    world: Option<glow::UniformLocation>,
    fog: Option<glow::UniformLocation>,
}

/// Owns the GL objects; reads a flock and draws it, never changes it.
pub struct Renderer {
    gl: glow::Context,
    cones: ConeProgram,
    edges: BoxProgram,
    cone_vao: glow::VertexArray,
    cone_vertices: glow::Buffer,
    cone_indices: glow::Buffer,
    cone_index_count: i32,
    instances: glow::Buffer,
    /// Instances the GPU buffer has room for.
    capacity: usize,
    /// CPU copy of the instance records, reused every frame.
    staging: Vec<f32>,
    box_vao: glow::VertexArray,
    box_vertices: glow::Buffer,
    box_vertex_count: i32,
}

/// Views floats as bytes for upload.
fn as_bytes(floats: &[f32]) -> &[u8] {
    // SAFETY: f32 has no padding and every bit pattern is a valid u8; the length is the
    // same memory in bytes, and the borrow keeps the floats alive.
    unsafe {
        std::slice::from_raw_parts(floats.as_ptr().cast::<u8>(), std::mem::size_of_val(floats))
    }
}

fn index_bytes(indices: &[u16]) -> &[u8] {
    // SAFETY: as in `as_bytes`.
    unsafe {
        std::slice::from_raw_parts(
            indices.as_ptr().cast::<u8>(),
            std::mem::size_of_val(indices),
        )
    }
}

/// Compiles and links a program; the error carries the GL info log.
fn program(
    gl: &glow::Context,
    name: &str,
    vertex: &str,
    fragment: &str,
) -> Result<glow::Program, String> {
    // SAFETY (whole function): plain WebGL calls on objects created here.
    unsafe {
        let program = gl.create_program()?;
        let mut shaders = Vec::with_capacity(2);
        for (kind, stage, source) in [
            (glow::VERTEX_SHADER, "vertex", vertex),
            (glow::FRAGMENT_SHADER, "fragment", fragment),
        ] {
            let shader = gl.create_shader(kind)?;
            gl.shader_source(shader, source);
            gl.compile_shader(shader);
            if !gl.get_shader_compile_status(shader) {
                let log = gl.get_shader_info_log(shader);
                gl.delete_shader(shader);
                for shader in shaders {
                    gl.delete_shader(shader);
                }
                gl.delete_program(program);
                return Err(format!(
                    "the {name} {stage} shader did not compile: {}",
                    log.trim()
                ));
            }
            gl.attach_shader(program, shader);
            shaders.push(shader);
        }
        gl.link_program(program);
        let linked = gl.get_program_link_status(program);
        let log = gl.get_program_info_log(program);
        for shader in shaders {
            gl.detach_shader(program, shader);
            gl.delete_shader(shader);
        }
        if !linked {
            gl.delete_program(program);
            return Err(format!("the {name} program did not link: {}", log.trim()));
        }
        Ok(program)
    }
}

/// Size of a cone in a world of side `world`.
fn boid_size(world: f32) -> f32 {
    BOID_SIZE * (world / REFERENCE_WORLD).max(0.1).sqrt()
}

impl Renderer {
    /// Compiles the shaders and uploads the static meshes. Shader errors come back with
    /// the GL info log in the message.
    pub fn new(gl: glow::Context) -> Result<Renderer, String> {
        let cone_program = program(&gl, "cone", CONE_VERT, CONE_FRAG)?;
        let box_program = program(&gl, "box", BOX_VERT, BOX_FRAG)?;
        // SAFETY (block): WebGL calls on objects created here, with data that outlives them.
        unsafe {
            let location = |program, name: &str| gl.get_uniform_location(program, name);
            let cones = ConeProgram {
                program: cone_program,
                view_proj: location(cone_program, "u_view_proj"),
                eye: location(cone_program, "u_eye"),
                size: location(cone_program, "u_size"),
                cruise: location(cone_program, "u_cruise"),
                fog: location(cone_program, "u_fog"),
            };
            let edges = BoxProgram {
                program: box_program,
                view_proj: location(box_program, "u_view_proj"),
                eye: location(box_program, "u_eye"),
                world: location(box_program, "u_world"),
                fog: location(box_program, "u_fog"),
            };

            // The cone: static mesh (attributes 0, 1) + per-instance records (2, 3).
            let cone = mesh::cone();
            let cone_vao = gl.create_vertex_array()?;
            gl.bind_vertex_array(Some(cone_vao));
            let cone_vertices = gl.create_buffer()?;
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(cone_vertices));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                as_bytes(&cone.vertices),
                glow::STATIC_DRAW,
            );
            let stride = (mesh::VERTEX_FLOATS * 4) as i32;
            gl.enable_vertex_attrib_array(0);
            gl.vertex_attrib_pointer_f32(0, 3, glow::FLOAT, false, stride, 0);
            gl.enable_vertex_attrib_array(1);
            gl.vertex_attrib_pointer_f32(1, 3, glow::FLOAT, false, stride, 12);
            let cone_indices = gl.create_buffer()?;
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(cone_indices));
            gl.buffer_data_u8_slice(
                glow::ELEMENT_ARRAY_BUFFER,
                index_bytes(&cone.indices),
                glow::STATIC_DRAW,
            );
            let instances = gl.create_buffer()?;
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(instances));
            gl.buffer_data_size(
                glow::ARRAY_BUFFER,
                INITIAL_CAPACITY as i32 * INSTANCE_BYTES,
                glow::DYNAMIC_DRAW,
            );
            for (attribute, offset) in [(2, 0), (3, 16)] {
                gl.enable_vertex_attrib_array(attribute);
                gl.vertex_attrib_pointer_f32(
                    attribute,
                    4,
                    glow::FLOAT,
                    false,
                    INSTANCE_BYTES,
                    offset,
                );
                gl.vertex_attrib_divisor(attribute, 1);
            }
            gl.bind_vertex_array(None);

            // The cube's edges.
            let lines = mesh::cube_edges();
            let box_vao = gl.create_vertex_array()?;
            gl.bind_vertex_array(Some(box_vao));
            let box_vertices = gl.create_buffer()?;
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(box_vertices));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, as_bytes(&lines), glow::STATIC_DRAW);
            gl.enable_vertex_attrib_array(0);
            gl.vertex_attrib_pointer_f32(0, 3, glow::FLOAT, false, 12, 0);
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);

            // Fixed state: this renderer owns the context.
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.enable(glow::CULL_FACE);
            gl.cull_face(glow::BACK);
            // Premultiplied alpha: fogged boids fade into the page's background.
            gl.enable(glow::BLEND);
            gl.blend_func(glow::ONE, glow::ONE_MINUS_SRC_ALPHA);
            gl.clear_color(0.0, 0.0, 0.0, 0.0);

            Ok(Renderer {
                cones,
                edges,
                cone_vao,
                cone_vertices,
                cone_indices,
                cone_index_count: cone.indices.len() as i32,
                instances,
                capacity: INITIAL_CAPACITY,
                staging: Vec::with_capacity(INITIAL_CAPACITY * INSTANCE_FLOATS),
                box_vao,
                box_vertices,
                box_vertex_count: (lines.len() / 3) as i32,
                gl,
            })
        }
    }

    /// Instances the GPU buffer holds now (grows by doubling, never shrinks).
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Interleaves the flock's arrays into the staging records.
    fn stage(&mut self, flock: &sim::Flock) {
        let positions = flock.positions();
        let velocities = flock.velocities();
        let count = flock.len();
        self.staging.resize(count * INSTANCE_FLOATS, 0.0);
        for ((record, p), v) in self
            .staging
            .chunks_exact_mut(INSTANCE_FLOATS)
            .zip(positions.chunks_exact(3))
            .zip(velocities.chunks_exact(3))
        {
            record.copy_from_slice(&[p[0], p[1], p[2], 0.0, v[0], v[1], v[2], 0.0]);
        }
    }

    /// Draws one frame: clears, uploads the instance records once, draws all cones in one
    /// instanced call and, when the world has walls, the cube's edges.
    pub fn draw(&mut self, flock: &sim::Flock, camera: &OrbitCamera, viewport: Viewport) {
        let world = flock.world_size();
        let aspect = viewport.width.max(1) as f32 / viewport.height.max(1) as f32;
        let frame = camera.frame(world, aspect);
        // Fog from just in front of the centre to the far side of the world.
        let fog = [
            (frame.distance - 0.4 * frame.radius).max(0.0),
            frame.distance + 1.1 * frame.radius,
        ];
        let view_proj = frame.view_proj.to_cols_array();
        let count = flock.len();
        self.stage(flock);
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
                gl.uniform_1_f32(c.size.as_ref(), boid_size(world));
                gl.uniform_1_f32(c.cruise.as_ref(), flock.settings().speed);
                gl.uniform_2_f32(c.fog.as_ref(), fog[0], fog[1]);
                gl.bind_vertex_array(Some(self.cone_vao));
                gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.instances));
                if count > self.capacity {
                    // Rare: room for at least twice as many, so growth is logarithmic.
                    self.capacity = count.next_power_of_two().max(2 * self.capacity);
                    gl.buffer_data_size(
                        glow::ARRAY_BUFFER,
                        (self.capacity as i32) * INSTANCE_BYTES,
                        glow::DYNAMIC_DRAW,
                    );
                }
                gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, as_bytes(&self.staging));
                gl.draw_elements_instanced(
                    glow::TRIANGLES,
                    self.cone_index_count,
                    glow::UNSIGNED_SHORT,
                    0,
                    count as i32,
                );
            }

            if !flock.settings().wrap {
                let e = &self.edges;
                gl.use_program(Some(e.program));
                gl.uniform_matrix_4_f32_slice(e.view_proj.as_ref(), false, &view_proj);
                gl.uniform_3_f32(e.eye.as_ref(), frame.eye.x, frame.eye.y, frame.eye.z);
                gl.uniform_1_f32(e.world.as_ref(), world);
                gl.uniform_2_f32(e.fog.as_ref(), fog[0], fog[1]);
                gl.bind_vertex_array(Some(self.box_vao));
                // Lines never hide boids: test depth, don't write it.
                gl.depth_mask(false);
                gl.draw_arrays(glow::LINES, 0, self.box_vertex_count);
                gl.depth_mask(true);
            }
            gl.bind_vertex_array(None);
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
            gl.delete_vertex_array(self.cone_vao);
            gl.delete_vertex_array(self.box_vao);
            for buffer in [
                self.cone_vertices,
                self.cone_indices,
                self.instances,
                self.box_vertices,
            ] {
                gl.delete_buffer(buffer);
            }
            gl.delete_program(self.cones.program);
            gl.delete_program(self.edges.program);
        }
    }
}
