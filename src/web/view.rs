//! `View` for JavaScript: a WebGL2 canvas that draws a `Flock`, with an orbit camera.

use js_sys::Error;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    HtmlCanvasElement, WebGl2RenderingContext, WebGlContextAttributes, WebGlPowerPreference,
};

use super::Flock;
use crate::render::{OrbitCamera, Renderer, Viewport};

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

    /// Whether the WebGL context is lost (then `draw` does nothing; make a new `View`
    /// after `webglcontextrestored`).
    #[wasm_bindgen(js_name = isContextLost)]
    pub fn is_context_lost(&self) -> bool {
        self.context.is_context_lost()
    }
}
