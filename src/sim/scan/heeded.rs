//! How the scan's first pass marks each group's heeded lanes for the second, and how the
//! second sums through the marks (`window.rs`): a leaf module.
//!
//! In wasm a mark is the lane mask itself: sums go through a bitwise and, the count is an
//! integer subtraction (a set lane is −1). V8 builds a splat of 1.0 afresh in every turn of
//! a loop, three instructions a group of lanes, so weights of 1.0 cost the first pass about
//! a tenth of its instructions (the settled defaults at 10,000 boids, SIMD128: 4.20 →
//! 3.95 ms a step in Chromium). The relaxed-SIMD build does the same, though there a weight
//! would sum in one fused multiply-add: masks read 3.67 against 3.60 ms there (within the
//! noise), and keeping the two builds alike keeps the relaxed build's patch small (5.1 KB
//! gzipped, not 7.6). Natively a mark is a weight, 1.0 or 0.0, summed through a
//! multiply-add.

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod marks {
    use core::arch::wasm32::{i32x4_extract_lane, i32x4_sub, v128, v128_and};
    use glam::{BVec4A, Vec4};

    /// The mark of the lanes set in `heeded`.
    #[inline(always)]
    pub fn mark(heeded: BVec4A) -> Vec4 {
        Vec4::from(v128::from(heeded))
    }

    /// `sum` plus `v` in the lanes `mark` marks.
    #[inline(always)]
    pub fn add(mark: Vec4, v: Vec4, sum: Vec4) -> Vec4 {
        sum + Vec4::from(v128_and(v.into(), mark.into()))
    }

    /// `tally` plus one in each lane `mark` marks.
    #[inline(always)]
    pub fn count(mark: Vec4, tally: Vec4) -> Vec4 {
        Vec4::from(i32x4_sub(tally.into(), mark.into()))
    }

    /// The lanes of `tally` added up.
    #[inline(always)]
    pub fn total(tally: Vec4) -> u32 {
        let t: v128 = tally.into();
        let lanes = [
            i32x4_extract_lane::<0>(t),
            i32x4_extract_lane::<1>(t),
            i32x4_extract_lane::<2>(t),
            i32x4_extract_lane::<3>(t),
        ];
        lanes.iter().sum::<i32>() as u32
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod marks {
    use glam::{BVec4A, Vec4};

    use crate::sim::lanes::keep;
    use crate::sim::scan::mul_add;

    /// The mark of the lanes set in `heeded`.
    #[inline(always)]
    pub fn mark(heeded: BVec4A) -> Vec4 {
        keep(heeded, Vec4::ONE)
    }

    /// `sum` plus `v` in the lanes `mark` marks.
    #[inline(always)]
    pub fn add(mark: Vec4, v: Vec4, sum: Vec4) -> Vec4 {
        mul_add(mark, v, sum)
    }

    /// `tally` plus one in each lane `mark` marks.
    #[inline(always)]
    pub fn count(mark: Vec4, tally: Vec4) -> Vec4 {
        tally + mark
    }

    /// The lanes of `tally` added up.
    #[inline(always)]
    pub fn total(tally: Vec4) -> u32 {
        // Exact: a sum of ones far below 2²⁴.
        tally.element_sum() as u32
    }
}

pub use marks::{add, count, mark, total};
