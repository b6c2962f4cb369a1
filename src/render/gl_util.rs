//! Small WebGL helpers shared by the renderer and the instruments' drawing.

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
