//! The `View`'s instruments for JavaScript: select a boid (by id, or by picking its cone
//! under the pointer), follow it, trails, what the cones' colour shows, the boids' shape, and the colours of
//! it all for a legend. Thin: the state is `render::instruments::Instruments`, drawn by the
//! renderer on the next `draw`.

use js_sys::JSON;
use wasm_bindgen::prelude::*;

use super::args::{boolean, js_number, number, optional_number, range_error, string};
use super::view::View;
use super::Flock;
use crate::render::colour::ColourBy;
use crate::render::legend::LEGEND_JSON;
use crate::render::overlay;
use crate::render::shapes::Shape;

/// How far from a cone's centre, in CSS pixels, a click or tap still picks it: a fingertip
/// is about 40 px across, a cone at the default zoom 6–10 px long.
const PICK_REACH: f32 = 16.0;

#[wasm_bindgen]
impl View {
    /// Selects the boid with `id` (from `flock.ids()` or `pick`) to draw up close: its
    /// perception and separation spheres, blind zone, neighbours and forces; `null` or
    /// `undefined` selects none. Returns whether a boid of `flock` has that id (the
    /// selection is kept either way, and shows whenever a boid with the id is drawn).
    /// Throws `TypeError` for anything but a number, `null` or `undefined`, `RangeError`
    /// for a number that is no id (not a whole number from 0 to 2³² − 1).
    pub fn select(&mut self, flock: &Flock, id: &JsValue) -> Result<bool, JsValue> {
        const METHOD: &str = "View.select";
        let Some(id) = optional_number(METHOD, "id", id)? else {
            self.instruments.selected = None;
            return Ok(false);
        };
        if !(id.is_finite() && id >= 0.0 && id <= f64::from(u32::MAX) && id.fract() == 0.0) {
            return Err(range_error(
                METHOD,
                &format!(
                    "id must be a whole number from 0 to 4294967295, got {}",
                    js_number(id)
                ),
            ));
        }
        self.instruments.selected = Some(id as u32);
        Ok(flock.sim().index_of(id as u32).is_some())
    }

    /// The selected boid's id, or `undefined`.
    pub fn selected(&self) -> Option<u32> {
        self.instruments.selected
    }

    /// The id of the boid whose cone is at the CSS pixel (`css_x`, `css_y`) of the canvas
    /// (from its top-left corner, as `worldPointAt` takes it), or `undefined` when no cone is
    /// within a fingertip of it. Selects nothing: pass the id to `select`.
    pub fn pick(
        &self,
        flock: &Flock,
        css_x: &JsValue,
        css_y: &JsValue,
    ) -> Result<Option<u32>, JsValue> {
        let x = number("View.pick", "cssX", css_x)?;
        let y = number("View.pick", "cssY", css_y)?;
        if !(x.is_finite() && y.is_finite()) {
            return Ok(None);
        }
        let (width, height) = self.css_size();
        let (frame, _, _) = self.frame(flock);
        let sim = flock.sim();
        let size = (width as f32, height as f32);
        let index = overlay::pick(
            sim.positions(),
            frame.view_proj,
            size,
            (x as f32, y as f32),
            PICK_REACH,
        );
        Ok(index.map(|i| sim.ids()[i]))
    }

    /// Keeps the selected boid at the centre of the view (`true`) or stops (`false`); the
    /// camera still orbits and zooms around it. Throws `TypeError` for a non-boolean.
    #[wasm_bindgen(js_name = setFollow)]
    pub fn set_follow(&mut self, on: &JsValue) -> Result<(), JsValue> {
        self.instruments.follow = boolean("View.setFollow", "on", on)?;
        Ok(())
    }

    /// Whether the view follows the selected boid.
    pub fn follow(&self) -> bool {
        self.instruments.follow
    }

    /// Draws every boid's trail over the last ~2 simulated seconds, fading (`true`), or
    /// only the selected boid's (`false`). Throws `TypeError` for a non-boolean.
    #[wasm_bindgen(js_name = setTrails)]
    pub fn set_trails(&mut self, on: &JsValue) -> Result<(), JsValue> {
        self.instruments.trails = boolean("View.setTrails", "on", on)?;
        Ok(())
    }

    /// Whether every boid's trail is drawn.
    pub fn trails(&self) -> bool {
        self.instruments.trails
    }

    /// Draws, for the selected boid, the grid's cells its next step scans and the candidates
    /// in them (`true`/`false` or 1/0); the cones stay one draw, the overlay its own.
    #[wasm_bindgen(js_name = setCells)]
    pub fn set_cells(&mut self, on: &JsValue) -> Result<(), JsValue> {
        self.instruments.cells = boolean("View.setCells", "on", on)?;
        Ok(())
    }

    /// Whether the selected boid's scanned cells are drawn.
    pub fn cells(&self) -> bool {
        self.instruments.cells
    }

    /// What the cones' colour shows: `"heading"` (the default), `"species"`, `"speed"`,
    /// `"neighbours"` (how many it heeded in the last step) or `"rule"` (the rule that
    /// pushed it hardest, in the arrows' colours). Throws `TypeError` for a non-string,
    /// `RangeError` for another name.
    #[wasm_bindgen(js_name = setColourBy)]
    pub fn set_colour_by(&mut self, mode: &JsValue) -> Result<(), JsValue> {
        const METHOD: &str = "View.setColourBy";
        let name = string(METHOD, "mode", mode, 32)?;
        let Some(mode) = ColourBy::parse(&name) else {
            return Err(range_error(
                METHOD,
                &format!(
                    "mode must be \"heading\", \"species\", \"speed\", \"neighbours\" or \"rule\", got \"{name}\""
                ),
            ));
        };
        self.instruments.colour_by = mode;
        Ok(())
    }

    /// The colour mode's name (see `setColourBy`).
    #[wasm_bindgen(js_name = colourBy)]
    pub fn colour_by(&self) -> String {
        self.instruments.colour_by.name().into()
    }

    /// What every boid is drawn as: `"cone"` (the default), `"bird"`, `"fish"` or `"chick"`
    /// (a round yellow body, an orange beak along the velocity); one instanced draw
    /// whichever. Throws `TypeError` for a non-string, `RangeError` for another name.
    #[wasm_bindgen(js_name = setShape)]
    pub fn set_shape(&mut self, shape: &JsValue) -> Result<(), JsValue> {
        const METHOD: &str = "View.setShape";
        let name = string(METHOD, "shape", shape, 32)?;
        let Some(shape) = Shape::from_name(&name) else {
            return Err(range_error(
                METHOD,
                &format!("shape must be \"cone\", \"bird\", \"fish\" or \"chick\", got \"{name}\""),
            ));
        };
        self.instruments.shape = shape;
        Ok(())
    }

    /// The shape's name (see `setShape`).
    pub fn shape(&self) -> String {
        self.instruments.shape.name().into()
    }

    /// The projector look (`true`): cones 30 % larger, brighter, more saturated and lit
    /// nearly flat, hardly fading with distance, bolder edges and the inspector's arrows
    /// half as large again, for a black sky on a washed-out projector; `false` (the default) for the usual look. The page's
    /// high-contrast setting (`contrast="more"`) turns it on. Throws `TypeError` for a
    /// non-boolean.
    #[wasm_bindgen(js_name = setContrast)]
    pub fn set_contrast(&mut self, on: &JsValue) -> Result<(), JsValue> {
        self.instruments.contrast = boolean("View.setContrast", "on", on)?;
        Ok(())
    }

    /// Whether the projector look is on (see `setContrast`).
    pub fn contrast(&self) -> bool {
        self.instruments.contrast
    }

    /// The colours the view draws with, as CSS strings, for a legend: `{forces: [{name,
    /// colour}] (as `inspect().terms` names them, "total" first), links: [{name, colour}]
    /// ("heeded", "tooClose", "unseen"), rules: [{name, colour}] ("none", "separation",
    /// "alignment", "cohesion": colour by rule), ramp: [low, middle, high] (colour by speed
    /// or neighbours), modes: [the colour modes' names]}`. A fresh object each call.
    pub fn legend(&self) -> JsValue {
        JSON::parse(LEGEND_JSON).unwrap_or(JsValue::NULL)
    }
}
