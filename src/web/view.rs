//! `View` for JavaScript: a WebGL2 canvas that draws a `Flock`, with an orbit camera.

use glam::{Vec3, Vec4Swizzles};
use js_sys::{Error, Float32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    HtmlCanvasElement, WebGl2RenderingContext, WebGlContextAttributes, WebGlPowerPreference,
};

use super::Flock;
use crate::render::{CameraFrame, OrbitCamera, Renderer, Viewport};

/// `error.name` of the error thrown when the browser cannot give a WebGL2 context.
const NO_WEBGL2: &str = "WebGL2Unavailable";
/// Largest drawing-buffer side we ask for, in device pixels.
const MAX_SIDE: f64 = 4096.0;

fn no_webgl2(detail: &str) -> JsValue {
    let error = Error::new(&format!(
        "WebGL2 is not available in this browser{detail}. Try a current version of Firefox, Chrome, Edge or \
         Safari, and make sure hardware acceleration is turned on in the browser's settings."
    ));
    error.set_name(NO_WEBGL2);
    error.into()
}

/// Draws a flock into a canvas. Create it with `new View(canvas)`; it throws an `Error`
/// named `WebGL2Unavailable` (with a message to show) when the browser has no WebGL2.
#[wasm_bindgen]
pub struct View {
    canvas: HtmlCanvasElement,
    context: WebGl2RenderingContext,
    renderer: Renderer,
    camera: OrbitCamera,
    /// The canvas's size in CSS pixels as last given to `resize` (0 before that).
    css_size: (f64, f64),
}

#[wasm_bindgen]
impl View {
    #[wasm_bindgen(constructor)]
    pub fn new(canvas: HtmlCanvasElement) -> Result<View, JsValue> {
        let attributes = WebGlContextAttributes::new();
        attributes.set_alpha(true);
        attributes.set_premultiplied_alpha(true);
        attributes.set_antialias(true);
        attributes.set_depth(true);
        attributes.set_stencil(false);
        attributes.set_power_preference(WebGlPowerPreference::HighPerformance);
        let context = canvas
            .get_context_with_context_options("webgl2", &attributes)
            .map_err(|_| no_webgl2(""))?
            .ok_or_else(|| no_webgl2(""))?
            .dyn_into::<WebGl2RenderingContext>()
            .map_err(|_| no_webgl2(" (the canvas already has another kind of context)"))?;
        if context.is_context_lost() {
            return Err(
                Error::new("The WebGL2 context is lost; wait for `webglcontextrestored`.").into(),
            );
        }
        let gl = glow::Context::from_webgl2_context(context.clone());
        let renderer = Renderer::new(gl)
            .map_err(|message| Error::new(&format!("WebGL2 setup failed: {message}")))?;
        Ok(View {
            canvas,
            context,
            renderer,
            camera: OrbitCamera::default(),
            css_size: (0.0, 0.0),
        })
    }

    /// Draws the flock as it is now (nothing while the context is lost).
    pub fn draw(&mut self, flock: &Flock) {
        if self.context.is_context_lost() {
            return;
        }
        let viewport = Viewport {
            width: self.context.drawing_buffer_width(),
            height: self.context.drawing_buffer_height(),
        };
        self.renderer.draw(flock.sim(), &self.camera, viewport);
    }

    /// Sizes the drawing buffer for a canvas shown at `css_width` × `css_height` CSS
    /// pixels on a screen with `device_pixel_ratio`.
    pub fn resize(&mut self, css_width: f64, css_height: f64, device_pixel_ratio: f64) {
        let ratio = if device_pixel_ratio.is_finite() && device_pixel_ratio > 0.0 {
            device_pixel_ratio
        } else {
            1.0
        };
        let finite = |v: f64| if v.is_finite() { v.max(1.0) } else { 1.0 };
        self.css_size = (finite(css_width), finite(css_height));
        let (mut width, mut height) = (finite(css_width) * ratio, finite(css_height) * ratio);
        let shrink = (MAX_SIDE / width.max(height)).min(1.0);
        width = (width * shrink).round().max(1.0);
        height = (height * shrink).round().max(1.0);
        if self.canvas.width() != width as u32 {
            self.canvas.set_width(width as u32);
        }
        if self.canvas.height() != height as u32 {
            self.canvas.set_height(height as u32);
        }
    }

    /// Rotates the camera around the world's centre by a drag of `dx`, `dy` CSS pixels.
    pub fn orbit(&mut self, dx: f64, dy: f64) {
        self.camera.orbit(dx as f32, dy as f32);
    }

    /// Zooms in (`factor` > 1) or out (`factor` < 1).
    pub fn zoom(&mut self, factor: f64) {
        self.camera.zoom_by(factor as f32);
    }

    /// Back to the default view that frames the whole world.
    #[wasm_bindgen(js_name = resetCamera)]
    pub fn reset_camera(&mut self) {
        self.camera = OrbitCamera::default();
    }

    /// The camera as `[yaw, pitch, zoom]`, to carry over to a new `View`.
    pub fn camera(&self) -> Vec<f32> {
        self.camera.to_array().to_vec()
    }

    /// Restores a camera from `camera()`; ignores anything else.
    #[wasm_bindgen(js_name = setCamera)]
    pub fn set_camera(&mut self, values: &[f32]) {
        self.camera.set_from(values);
    }

    /// The point of the scene under the CSS pixel (`css_x`, `css_y`) of the canvas (from its
    /// top-left corner), in the simulation's coordinates (z up): where the ray through that
    /// pixel meets the plane through the world's centre facing the camera (3D), or the
    /// world's plane z = 0 (a flat world). `undefined` when the ray misses the plane (it runs
    /// parallel to it or the plane is behind the eye). The point may lie outside the world;
    /// `addObstacle` and `setPointer` keep what they are given inside it.
    #[wasm_bindgen(js_name = worldPointAt)]
    pub fn world_point_at(&self, flock: &Flock, css_x: f64, css_y: f64) -> Option<Float32Array> {
        let (width, height) = self.css_size();
        if !(css_x.is_finite() && css_y.is_finite()) {
            return None;
        }
        let ndc_x = (2.0 * css_x / width - 1.0) as f32;
        let ndc_y = (1.0 - 2.0 * css_y / height) as f32;
        let (frame, target, normal) = self.frame(flock);
        let inverse = frame.view_proj.inverse();
        let near = inverse.project_point3(Vec3::new(ndc_x, ndc_y, -1.0));
        let far = inverse.project_point3(Vec3::new(ndc_x, ndc_y, 1.0));
        let direction = far - near;
        let facing = direction.dot(normal);
        if !facing.is_finite() || facing.abs() < 1e-6 * direction.length() {
            return None;
        }
        let t = (target - near).dot(normal) / facing;
        if !(t.is_finite() && t > 0.0) {
            return None;
        }
        let p = near + t * direction;
        // GL (y up) back to the simulation (z up).
        Some(Float32Array::from(&[p.x, p.z, p.y][..]))
    }

    /// Where the simulation point (`x`, `y`, `z`) shows on the canvas: `[cssX, cssY]` from
    /// the top-left corner, or `undefined` behind the eye. The inverse of `worldPointAt`.
    #[wasm_bindgen(js_name = cssPointOf)]
    pub fn css_point_of(&self, flock: &Flock, x: f64, y: f64, z: f64) -> Option<Float32Array> {
        let (width, height) = self.css_size();
        let (frame, _, _) = self.frame(flock);
        let clip = frame.view_proj * Vec3::new(x as f32, z as f32, y as f32).extend(1.0);
        // In front of the eye (a NaN w is not).
        if clip.w.is_nan() || clip.w <= 0.0 {
            return None;
        }
        let ndc = clip.xy() / clip.w;
        let css_x = (f64::from(ndc.x) + 1.0) * 0.5 * width;
        let css_y = (1.0 - f64::from(ndc.y)) * 0.5 * height;
        Some(Float32Array::from(&[css_x as f32, css_y as f32][..]))
    }

    /// Whether the WebGL context is lost (then `draw` does nothing; make a new `View`
    /// after `webglcontextrestored`).
    #[wasm_bindgen(js_name = isContextLost)]
    pub fn is_context_lost(&self) -> bool {
        self.context.is_context_lost()
    }
}

impl View {
    /// The canvas's CSS size: as last given to `resize`, else as laid out now.
    fn css_size(&self) -> (f64, f64) {
        let (width, height) = self.css_size;
        if width > 0.0 && height > 0.0 {
            (width, height)
        } else {
            (
                f64::from(self.canvas.client_width().max(1)),
                f64::from(self.canvas.client_height().max(1)),
            )
        }
    }

    /// The camera frame `draw` uses for this flock now, with the picking plane: a point on
    /// it and its normal (GL coordinates).
    fn frame(&self, flock: &Flock) -> (CameraFrame, Vec3, Vec3) {
        let sim = flock.sim();
        let world = sim.world_size();
        let width = self.context.drawing_buffer_width().max(1) as f32;
        let height = self.context.drawing_buffer_height().max(1) as f32;
        let aspect = width / height;
        if sim.is_flat() {
            let frame = self.camera.frame_from_above(world, aspect);
            (frame, Vec3::ZERO, Vec3::Y)
        } else {
            let frame = self.camera.frame(world, aspect);
            let target = Vec3::splat(0.5 * world);
            let normal = (frame.eye - target).normalize_or(Vec3::Y);
            (frame, target, normal)
        }
    }
}
