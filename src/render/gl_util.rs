//! Small WebGL helpers shared by the renderer and the instruments' drawing: programs (with
//! their uniforms' locations), buffers, attributes, and the stream buffer that only grows.

use glow::HasContext;

/// The start of every fragment shader: version, precision, the light and the fog.
const LIGHTING: &str = include_str!("lighting.glsl");

/// Views floats as bytes for upload.
pub fn as_bytes(floats: &[f32]) -> &[u8] {
    // SAFETY: f32 has no padding and every bit pattern is a valid u8; the length is the
    // same memory in bytes, and the borrow keeps the floats alive.
    unsafe {
        std::slice::from_raw_parts(floats.as_ptr().cast::<u8>(), std::mem::size_of_val(floats))
    }
}

pub fn index_bytes(indices: &[u16]) -> &[u8] {
    // SAFETY: as in `as_bytes`.
    unsafe {
        std::slice::from_raw_parts(
            indices.as_ptr().cast::<u8>(),
            std::mem::size_of_val(indices),
        )
    }
}

/// Compiles and links a program; the error carries the GL info log. The fragment shader is
/// `lighting.glsl` followed by `fragment` (GLSL ES 3.00 has no #include, and the version
/// line must come first); its error log numbers lines as in `fragment`'s own file.
pub fn program(
    gl: &glow::Context,
    name: &str,
    vertex: &str,
    fragment: &str,
) -> Result<glow::Program, String> {
    // SAFETY (whole function): plain WebGL calls on objects created here.
    unsafe {
        let program = gl.create_program()?;
        let mut shaders = Vec::with_capacity(2);
        let fragment = format!("{LIGHTING}{fragment}");
        for (kind, stage, source) in [
            (glow::VERTEX_SHADER, "vertex", vertex),
            (glow::FRAGMENT_SHADER, "fragment", fragment.as_str()),
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

/// Declares a struct of a program and its uniforms' locations, with `compile(gl, name,
/// vertex, fragment)`: each field `x` is the location of the shader's `u_x`, so a uniform is
/// named once. A uniform the shader does not use (or optimised away) has no location, and
/// setting it does nothing, as in WebGL.
macro_rules! uniforms {
    ($(#[$meta:meta])* struct $name:ident { $($field:ident),* $(,)? }) => {
        $(#[$meta])*
        struct $name {
            program: glow::Program,
            $($field: Option<glow::UniformLocation>,)*
        }

        impl $name {
            fn compile(
                gl: &glow::Context,
                name: &str,
                vertex: &str,
                fragment: &str,
            ) -> Result<$name, String> {
                let program = $crate::render::gl_util::program(gl, name, vertex, fragment)?;
                // SAFETY: queries on the program just linked.
                unsafe {
                    Ok($name {
                        program,
                        $($field: glow::HasContext::get_uniform_location(
                            gl,
                            program,
                            concat!("u_", stringify!($field)),
                        ),)*
                    })
                }
            }
        }
    };
}
pub(crate) use uniforms;

/// How a new buffer is filled: once, with these bytes, or later, with room for this many.
pub enum Fill<'a> {
    Static(&'a [u8]),
    Dynamic(usize),
}

/// Creates a buffer, binds it to `target` (ARRAY_BUFFER or ELEMENT_ARRAY_BUFFER) and fills
/// it. Bound to the vertex array bound now, an element buffer stays with it.
pub fn buffer(gl: &glow::Context, target: u32, fill: Fill) -> Result<glow::Buffer, String> {
    // SAFETY (block): WebGL calls on the buffer created here; the bytes are borrowed for
    // the call.
    unsafe {
        let buffer = gl.create_buffer()?;
        gl.bind_buffer(target, Some(buffer));
        match fill {
            Fill::Static(bytes) => gl.buffer_data_u8_slice(target, bytes, glow::STATIC_DRAW),
            Fill::Dynamic(bytes) => gl.buffer_data_size(target, bytes as i32, glow::DYNAMIC_DRAW),
        }
        Ok(buffer)
    }
}

/// Creates a vertex array and binds it: the attributes and element buffer set up next are
/// recorded in it.
pub fn vertex_array(gl: &glow::Context) -> Result<glow::VertexArray, String> {
    // SAFETY (block): WebGL calls on the vertex array created here.
    unsafe {
        let vao = gl.create_vertex_array()?;
        gl.bind_vertex_array(Some(vao));
        Ok(vao)
    }
}

/// Points float attributes at the ARRAY_BUFFER bound now, in records of `stride` bytes:
/// each `(location, floats, byte offset)`. `per_instance`: one record per instance
/// (divisor 1), else one per vertex.
pub fn float_attributes(
    gl: &glow::Context,
    stride: i32,
    per_instance: bool,
    attributes: &[(u32, i32, i32)],
) {
    // SAFETY (block): state calls on the bound vertex array and buffer.
    unsafe {
        for &(location, floats, offset) in attributes {
            gl.enable_vertex_attrib_array(location);
            gl.vertex_attrib_pointer_f32(location, floats, glow::FLOAT, false, stride, offset);
            if per_instance {
                gl.vertex_attrib_divisor(location, 1);
            }
        }
    }
}

/// An ARRAY_BUFFER sent anew every frame with one `bufferSubData`; its room only grows (at
/// least doubling, to a power of two of floats), so growth is rare and steady state
/// allocates nothing on the GPU.
pub struct Stream {
    pub buffer: glow::Buffer,
    /// Floats it has room for.
    capacity: usize,
}

impl Stream {
    /// Creates it with room for `floats` and leaves it bound.
    pub fn new(gl: &glow::Context, floats: usize) -> Result<Stream, String> {
        let buffer = buffer(gl, glow::ARRAY_BUFFER, Fill::Dynamic(floats * 4))?;
        Ok(Stream {
            buffer,
            capacity: floats,
        })
    }

    /// Floats it has room for now.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Binds it and sends `floats` to its start (first making room when they do not fit).
    pub fn upload(&mut self, gl: &glow::Context, floats: &[f32]) {
        // SAFETY (block): WebGL calls on this buffer; the floats are borrowed for the call.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.buffer));
            if floats.len() > self.capacity {
                self.capacity = floats.len().next_power_of_two().max(2 * self.capacity);
                gl.buffer_data_size(
                    glow::ARRAY_BUFFER,
                    (self.capacity * 4) as i32,
                    glow::DYNAMIC_DRAW,
                );
            }
            gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, as_bytes(floats));
        }
    }
}
