//! WebGL2 renderer (placeholder).
