//! SIMD lanes and their masks, shared by the neighbour scan (`scan`) and the wide move
//! (`glide`): a leaf module.

use glam::{BVec4A, Vec4};

/// Candidates examined together.
pub const LANES: usize = 4;
/// Groups of four lanes moved together (`glide`).
pub const GROUPS: usize = 2;
/// Boids moved together.
pub const WIDE: usize = GROUPS * LANES;

/// `v` in the lanes where `mask` is set, 0 elsewhere: a bitwise and. (Natively
/// `Vec4::select` against zero compiles to one; in wasm it stays a `v128.bitselect`, which V8
/// turns into three instructions.)
#[inline(always)]
pub fn keep(mask: BVec4A, v: Vec4) -> Vec4 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        Vec4::from(core::arch::wasm32::v128_and(v.into(), mask.into()))
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        Vec4::select(mask, v, Vec4::ZERO)
    }
}
