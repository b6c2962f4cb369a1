//! `View` for JavaScript: a WebGL2 canvas that draws a `Flock`, with an orbit camera.

use glam::{Vec3, Vec4Swizzles};
use js_sys::{Error, Float32Array, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    HtmlCanvasElement, WebGl2RenderingContext, WebGlContextAttributes, WebGlPowerPreference,
};

use super::args::{number, type_error};
use super::Flock;
use crate::render::instruments::Instruments;
use crate::render::{CameraFrame, Framing, OrbitCamera, Renderer, Viewport};

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
    /// `None` only in the placeholder `start` makes (see `placeholder`).
    gl: Option<Gl>,
    camera: OrbitCamera,
    /// The canvas's size in CSS pixels as last given to `resize` (0 before that).
    css_size: (f64, f64),
    /// The flock's time (`Flock::elapsed`) when it was last drawn: how far the sky's camera
    /// glides toward it in the next frame.
    drawn_at: f64,
    /// The selected boid, trails, colour mode (`inspector.rs`).
    pub(super) instruments: Instruments,
}

/// The canvas, its WebGL2 context and what draws into it.
struct Gl {
    canvas: HtmlCanvasElement,
    context: WebGl2RenderingContext,
    renderer: Renderer,
}

/// The methods whose first argument is a `Flock`, separated by spaces (`harden.js` checks
/// that it is one).
pub(super) const TAKE_A_FLOCK: &str =
    "draw worldPointAt cssPointOf fitFlock zoomToward select pick";

impl View {
    /// A View with no canvas, which draws nothing and that JavaScript never sees: `start`
    /// hands it to `harden.js` to reach the class (only an instance leads there), then frees it.
    pub(super) fn placeholder() -> View {
        View {
            gl: None,
            camera: OrbitCamera::default(),
            css_size: (0.0, 0.0),
            drawn_at: 0.0,
            instruments: Instruments::default(),
        }
    }
}

#[wasm_bindgen]
impl View {
    #[wasm_bindgen(constructor)]
    pub fn new(canvas: &JsValue) -> Result<View, JsValue> {
        let Some(canvas) = canvas.dyn_ref::<HtmlCanvasElement>() else {
            return Err(type_error(
                "new View",
                "canvas",
                "a <canvas> element",
                canvas,
            ));
        };
        let canvas = canvas.clone();
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
            gl: Some(Gl {
                canvas,
                context,
                renderer,
            }),
            camera: OrbitCamera::default(),
            css_size: (0.0, 0.0),
            drawn_at: 0.0,
            instruments: Instruments::default(),
        })
    }

    /// Draws the flock as it is now (nothing while the context is lost), with what the
    /// instruments show (`select`, `setTrails`, `setColourBy`; `setFollow` turns the camera
    /// toward the selected boid first). Under an open sky the camera first glides toward
    /// the flock's centre (unless it follows a boid), so the flock stays in the picture.
    pub fn draw(&mut self, flock: &Flock) {
        let css_width = self.css_size().0;
        let Some(gl) = &mut self.gl else { return };
        if gl.context.is_context_lost() {
            return;
        }
        let width = gl.context.drawing_buffer_width();
        let viewport = Viewport {
            width,
            height: gl.context.drawing_buffer_height(),
            pixel_ratio: (f64::from(width.max(1)) / css_width.max(1.0)) as f32,
        };
        let sim = flock.sim();
        let selected = self.instruments.selected_index(sim);
        // Flock time since the last frame; none after a rebuild (its clock starts again).
        let now = sim.elapsed();
        let dt = (now - self.drawn_at).max(0.0) as f32;
        self.drawn_at = now;
        self.instruments.track(sim, selected, &mut self.camera, dt);
        gl.renderer
            .draw(sim, &self.camera, viewport, &self.instruments);
    }

    /// Sizes the drawing buffer for a canvas shown at `css_width` × `css_height` CSS
    /// pixels on a screen with `device_pixel_ratio` (sizes below 1 or not finite count as 1).
    pub fn resize(
        &mut self,
        css_width: &JsValue,
        css_height: &JsValue,
        device_pixel_ratio: &JsValue,
    ) -> Result<(), JsValue> {
        const METHOD: &str = "View.resize";
        let css_width = number(METHOD, "cssWidth", css_width)?;
        let css_height = number(METHOD, "cssHeight", css_height)?;
        let device_pixel_ratio = number(METHOD, "devicePixelRatio", device_pixel_ratio)?;
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
        if let Some(Gl { canvas, .. }) = &self.gl {
            if canvas.width() != width as u32 {
                canvas.set_width(width as u32);
            }
            if canvas.height() != height as u32 {
                canvas.set_height(height as u32);
            }
        }
        Ok(())
    }

    /// Rotates the camera around the world's centre by a drag of `dx`, `dy` CSS pixels
    /// (NaN or ±Infinity: no change).
    pub fn orbit(&mut self, dx: &JsValue, dy: &JsValue) -> Result<(), JsValue> {
        let dx = number("View.orbit", "dx", dx)?;
        let dy = number("View.orbit", "dy", dy)?;
        self.camera.orbit(dx as f32, dy as f32);
        Ok(())
    }

    /// Zooms in (`factor` > 1) or out (`factor` < 1; NaN, ±Infinity, 0 or less: no change).
    pub fn zoom(&mut self, factor: &JsValue) -> Result<(), JsValue> {
        let factor = number("View.zoom", "factor", factor)?;
        self.camera.zoom_by(factor as f32);
        Ok(())
    }

    /// Zooms in (`factor` > 1) toward the flock's centre, or out (`factor` < 1) back toward
    /// the whole world: what the wheel and pinch do, so that a zoom keeps the flock in
    /// the frame wherever it flies in the box. Under an open sky, where the camera follows
    /// the flock anyway, a plain zoom.
    #[wasm_bindgen(js_name = zoomToward)]
    pub fn zoom_toward(&mut self, flock: &Flock, factor: &JsValue) -> Result<(), JsValue> {
        let factor = number("View.zoomToward", "factor", factor)?;
        let sim = flock.sim();
        if sim.is_sky() {
            self.camera.zoom_by(factor as f32);
        } else {
            self.camera.zoom_toward(factor as f32, sim.centre());
        }
        Ok(())
    }

    /// Frames the flock: looks at its centre from as close as shows 95 % of its boids
    /// (double-click, or F).
    #[wasm_bindgen(js_name = fitFlock)]
    pub fn fit_flock(&mut self, flock: &Flock) {
        let sim = flock.sim();
        let (centre, radius) = sim.extent();
        // The radius as a fraction of what zoom 1 frames: the world, or the sky's view.
        let radius = radius / Framing::of(sim).share();
        self.camera.fit(centre, radius, sim.is_flat());
    }

    /// Back to the default view that frames the whole world (under an open sky, the view
    /// around home, from where the camera glides back to the flock).
    #[wasm_bindgen(js_name = resetCamera)]
    pub fn reset_camera(&mut self) {
        self.camera = OrbitCamera::default();
    }

    /// The camera as `[yaw, pitch, zoom, x, y, z]` (the point looked at, as a fraction of
    /// the world), to carry over to a new `View`.
    pub fn camera(&self) -> Vec<f32> {
        self.camera.to_array().to_vec()
    }

    /// Restores a camera from `camera()` (a `Float32Array`, or an array, of its numbers);
    /// ignores any other array. Throws `TypeError` for anything but an array.
    #[wasm_bindgen(js_name = setCamera)]
    pub fn set_camera(&mut self, values: &JsValue) -> Result<(), JsValue> {
        self.camera.set_from(&camera_values(values)?);
        Ok(())
    }

    /// The point of the scene under the CSS pixel (`css_x`, `css_y`) of the canvas (from its
    /// top-left corner), in the simulation's coordinates (z up): where the ray through that
    /// pixel meets the plane through the world's centre facing the camera (3D), or the
    /// world's plane z = 0 (a flat world). `undefined` when the ray misses the plane (it runs
    /// parallel to it or the plane is behind the eye). The point may lie outside the world;
    /// `addObstacle` and `setPointer` keep what they are given inside it.
    #[wasm_bindgen(js_name = worldPointAt)]
    pub fn world_point_at(
        &self,
        flock: &Flock,
        css_x: &JsValue,
        css_y: &JsValue,
    ) -> Result<Option<Float32Array>, JsValue> {
        let css_x = number("View.worldPointAt", "cssX", css_x)?;
        let css_y = number("View.worldPointAt", "cssY", css_y)?;
        Ok(self.point_at(flock, css_x, css_y))
    }

    /// Where the simulation point (`x`, `y`, `z`) shows on the canvas: `[cssX, cssY]` from
    /// the top-left corner, or `undefined` behind the eye. The inverse of `worldPointAt`.
    #[wasm_bindgen(js_name = cssPointOf)]
    pub fn css_point_of(
        &self,
        flock: &Flock,
        x: &JsValue,
        y: &JsValue,
        z: &JsValue,
    ) -> Result<Option<Float32Array>, JsValue> {
        const METHOD: &str = "View.cssPointOf";
        let (x, y, z) = (
            number(METHOD, "x", x)?,
            number(METHOD, "y", y)?,
            number(METHOD, "z", z)?,
        );
        let (width, height) = self.css_size();
        let (frame, _, _) = self.frame(flock);
        let clip = frame.view_proj * Vec3::new(x as f32, z as f32, y as f32).extend(1.0);
        // In front of the eye (a NaN w is not).
        if clip.w.is_nan() || clip.w <= 0.0 {
            return Ok(None);
        }
        let ndc = clip.xy() / clip.w;
        let css_x = (f64::from(ndc.x) + 1.0) * 0.5 * width;
        let css_y = (1.0 - f64::from(ndc.y)) * 0.5 * height;
        Ok(Some(Float32Array::from(&[css_x as f32, css_y as f32][..])))
    }

    /// Whether the WebGL context is lost (then `draw` does nothing; make a new `View`
    /// after `webglcontextrestored`).
    #[wasm_bindgen(js_name = isContextLost)]
    pub fn is_context_lost(&self) -> bool {
        self.gl
            .as_ref()
            .is_none_or(|gl| gl.context.is_context_lost())
    }
}

impl View {
    /// `worldPointAt` for checked numbers.
    fn point_at(&self, flock: &Flock, css_x: f64, css_y: f64) -> Option<Float32Array> {
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

    /// The canvas's CSS size: as last given to `resize`, else as laid out now.
    pub(super) fn css_size(&self) -> (f64, f64) {
        let (width, height) = self.css_size;
        match &self.gl {
            _ if width > 0.0 && height > 0.0 => (width, height),
            Some(Gl { canvas, .. }) => (
                f64::from(canvas.client_width().max(1)),
                f64::from(canvas.client_height().max(1)),
            ),
            None => (1.0, 1.0),
        }
    }

    /// The camera frame `draw` uses for this flock now, with the picking plane: a point on
    /// it and its normal (GL coordinates).
    pub(super) fn frame(&self, flock: &Flock) -> (CameraFrame, Vec3, Vec3) {
        let sim = flock.sim();
        let world = sim.world_size();
        let (width, height) = self.gl.as_ref().map_or((1, 1), |gl| {
            (
                gl.context.drawing_buffer_width().max(1),
                gl.context.drawing_buffer_height().max(1),
            )
        });
        let aspect = width as f32 / height as f32;
        let frame = self.camera.frame_of(Framing::of(sim), aspect);
        if sim.is_flat() {
            (frame, Vec3::ZERO, Vec3::Y)
        } else {
            let target = self.camera.target_gl(world, false);
            let normal = (frame.eye - target).normalize_or(Vec3::Y);
            (frame, target, normal)
        }
    }
}

/// A camera's values from `camera()`'s `Float32Array`, or any array-like object of at most
/// `CAMERA_MAX` numbers (`OrbitCamera::set_from` says which lengths it takes and ignores the
/// rest): a value that is not an object is a `TypeError`; a longer object, or one holding
/// other things than numbers, gives none (ignored). Read with `Reflect.get`, so a getter's
/// error comes back as an error and never unwinds past the borrowed `View`.
fn camera_values(values: &JsValue) -> Result<Vec<f32>, JsValue> {
    const CAMERA_MAX: f64 = 6.0;
    if !values.is_object() {
        return Err(type_error("View.setCamera", "values", "an array", values));
    }
    let length = Reflect::get(values, &"length".into())?.as_f64();
    let Some(length) = length.filter(|n| n.fract() == 0.0 && (0.0..=CAMERA_MAX).contains(n)) else {
        return Ok(Vec::new());
    };
    let mut camera = Vec::new();
    for i in 0..length as u32 {
        match Reflect::get_u32(values, i)?.as_f64() {
            Some(value) => camera.push(value as f32),
            None => return Ok(Vec::new()),
        }
    }
    Ok(camera)
}
