//! Placeholder: the helper building the renderer replaces this file.
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct View {}
