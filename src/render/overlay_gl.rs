//! WebGL for the instruments: the inspector's overlay (`overlay::Geometry`: one draw of
//! triangles, one of lines, from one upload) and the trails (`trails::Ring`: a texture that
//! gets one row upload per sample, drawn in one call without a vertex buffer). Both drawn
//! after the cones, without depth test, so that they read over the flock.

use glow::{HasContext, PixelUnpackData};

use super::gl_util::{as_bytes, float_attributes, uniforms, vertex_array, Stream};
use super::overlay::{Geometry, VERTEX_FLOATS};
use super::trails::{Reading, Ring, SAMPLES, TEXEL_FLOATS, WIDTH};

const OVERLAY_VERT: &str = include_str!("overlay.vert.glsl");
const OVERLAY_FRAG: &str = include_str!("overlay.frag.glsl");
const TRAIL_VERT: &str = include_str!("trail.vert.glsl");
const TRAIL_FRAG: &str = include_str!("trail.frag.glsl");
/// Overlay floats the vertex buffer holds before it first grows: the default inspector
/// (two discs, the blind zone, ~40 links, a few arrows) is ~450 vertices.
const INITIAL_FLOATS: usize = 1024 * VERTEX_FLOATS;
const VERTEX_BYTES: i32 = (VERTEX_FLOATS * 4) as i32;

uniforms! {
    struct OverlayProgram {
        view_proj,
    }
}

uniforms! {
    struct TrailProgram {
        view_proj,
        ring,
        head,
        filled,
        rows,
        only,
        selected,
        jump,
    }
}

/// The instruments' GL objects.
pub struct OverlayGl {
    overlay: OverlayProgram,
    vao: glow::VertexArray,
    vertices: Stream,
    /// Triangles then lines, as uploaded this frame.
    staging: Vec<f32>,
    trail: TrailProgram,
    /// No attributes: the trail shader reads the ring texture by vertex number.
    empty_vao: glow::VertexArray,
    texture: glow::Texture,
    /// Texture rows per sample it was made for (0: not made yet).
    texture_rows: usize,
}

impl OverlayGl {
    pub fn new(gl: &glow::Context) -> Result<OverlayGl, String> {
        let overlay = OverlayProgram::compile(gl, "overlay", OVERLAY_VERT, OVERLAY_FRAG)?;
        let trail = TrailProgram::compile(gl, "trail", TRAIL_VERT, TRAIL_FRAG)?;
        let vao = vertex_array(gl)?;
        let vertices = Stream::new(gl, INITIAL_FLOATS)?;
        float_attributes(gl, VERTEX_BYTES, false, &[(0, 3, 0), (1, 4, 12)]);
        let empty_vao = vertex_array(gl)?;
        // SAFETY (block): WebGL calls on this context; the texture is created here.
        let texture = unsafe {
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            gl.create_texture()?
        };
        Ok(OverlayGl {
            overlay,
            vao,
            vertices,
            staging: Vec::with_capacity(INITIAL_FLOATS),
            trail,
            empty_vao,
            texture,
            texture_rows: 0,
        })
    }

    /// Draws `geometry` (GL coordinates): one upload, then its triangles and its lines.
    pub fn draw_overlay(&mut self, gl: &glow::Context, geometry: &Geometry, view_proj: &[f32; 16]) {
        if geometry.is_empty() {
            return;
        }
        self.staging.clear();
        self.staging.extend_from_slice(&geometry.triangles);
        self.staging.extend_from_slice(&geometry.lines);
        let triangles = (geometry.triangles.len() / VERTEX_FLOATS) as i32;
        let lines = (geometry.lines.len() / VERTEX_FLOATS) as i32;
        // SAFETY (block): WebGL calls on this object's buffer and program; the upload is
        // borrowed for the call.
        unsafe {
            gl.use_program(Some(self.overlay.program));
            gl.uniform_matrix_4_f32_slice(self.overlay.view_proj.as_ref(), false, view_proj);
            gl.bind_vertex_array(Some(self.vao));
            self.vertices.upload(gl, &self.staging);
            if triangles > 0 {
                gl.draw_arrays(glow::TRIANGLES, 0, triangles);
            }
            if lines > 0 {
                gl.draw_arrays(glow::LINES, triangles, lines);
            }
            gl.bind_vertex_array(None);
        }
    }

    /// Sends the ring's newest row; makes the texture first when the ring needs a larger
    /// one (`grown`) or none was made yet.
    pub fn upload_trails(&mut self, gl: &glow::Context, ring: &Ring, grown: bool) {
        let rows = ring.rows();
        let head = ring.reading_head();
        // SAFETY (block): WebGL calls on this object's texture, with data sized for it.
        unsafe {
            gl.bind_texture(glow::TEXTURE_2D, Some(self.texture));
            if grown || self.texture_rows != rows {
                gl.tex_image_2d(
                    glow::TEXTURE_2D,
                    0,
                    glow::RGBA32F as i32,
                    WIDTH as i32,
                    (rows * SAMPLES) as i32,
                    0,
                    glow::RGBA,
                    glow::FLOAT,
                    PixelUnpackData::Slice(None),
                );
                for (key, value) in [
                    (glow::TEXTURE_MIN_FILTER, glow::NEAREST),
                    (glow::TEXTURE_MAG_FILTER, glow::NEAREST),
                    (glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE),
                    (glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE),
                ] {
                    gl.tex_parameter_i32(glow::TEXTURE_2D, key, value as i32);
                }
                self.texture_rows = rows;
            }
            let texels = &ring.row[..rows * WIDTH * TEXEL_FLOATS];
            gl.tex_sub_image_2d(
                glow::TEXTURE_2D,
                0,
                0,
                (head * rows) as i32,
                WIDTH as i32,
                rows as i32,
                glow::RGBA,
                glow::FLOAT,
                PixelUnpackData::Slice(Some(as_bytes(texels))),
            );
            gl.bind_texture(glow::TEXTURE_2D, None);
        }
    }

    /// Draws the trails of every slot, or of `only` that slot; `selected` bright.
    pub fn draw_trails(
        &self,
        gl: &glow::Context,
        reading: &Reading,
        view_proj: &[f32; 16],
        only: Option<usize>,
        selected: Option<usize>,
    ) {
        if self.texture_rows == 0 || reading.filled < 2 || reading.rows != self.texture_rows {
            return;
        }
        let slots = if only.is_some() { 1 } else { reading.slots };
        let vertices = slots * 2 * (SAMPLES - 1);
        let slot = |s: Option<usize>| s.map_or(-1, |s| s as i32);
        let u = &self.trail;
        // SAFETY (block): WebGL calls on this object's program and texture.
        unsafe {
            gl.use_program(Some(u.program));
            gl.uniform_matrix_4_f32_slice(u.view_proj.as_ref(), false, view_proj);
            gl.active_texture(glow::TEXTURE0);
            gl.bind_texture(glow::TEXTURE_2D, Some(self.texture));
            gl.uniform_1_i32(u.ring.as_ref(), 0);
            gl.uniform_1_i32(u.head.as_ref(), reading.head as i32);
            gl.uniform_1_i32(u.filled.as_ref(), reading.filled as i32);
            gl.uniform_1_i32(u.rows.as_ref(), reading.rows as i32);
            gl.uniform_1_i32(u.only.as_ref(), slot(only));
            gl.uniform_1_i32(u.selected.as_ref(), slot(selected));
            gl.uniform_1_f32(u.jump.as_ref(), reading.jump);
            gl.bind_vertex_array(Some(self.empty_vao));
            gl.draw_arrays(glow::LINES, 0, vertices as i32);
            gl.bind_vertex_array(None);
            gl.bind_texture(glow::TEXTURE_2D, None);
        }
    }

    /// Deletes the GL objects (the context is alive).
    pub fn delete(&self, gl: &glow::Context) {
        // SAFETY (block): deletes this object's own GL objects.
        unsafe {
            gl.delete_vertex_array(self.vao);
            gl.delete_vertex_array(self.empty_vao);
            gl.delete_buffer(self.vertices.buffer);
            gl.delete_texture(self.texture);
            gl.delete_program(self.overlay.program);
            gl.delete_program(self.trail.program);
        }
    }
}
