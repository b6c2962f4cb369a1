//! The recording's numbers as the page reads them (issue 43): the worker's module reads them
//! with JavaScript's `parseFloat` after `is_decimal` (Rust's float parser would add 21 KB to
//! it), so `is_decimal` must pass exactly what `str::parse::<f32>` reads as a finite number,
//! for any string of digits, signs, points and exponents.
#![cfg(not(target_arch = "wasm32"))]

use boids::sim::recording::is_decimal;
use proptest::prelude::*;

fn rust_reads(value: &str) -> bool {
    value.parse::<f32>().is_ok_and(f32::is_finite)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]
    #[test]
    fn decimal_is_what_rust_reads(value in "[0-9+\\-.eE]{0,9}") {
        // Rust reads "1e99" as infinity (refused as not finite): a decimal all the same.
        let finite_or_huge = rust_reads(&value) || value.parse::<f32>().is_ok_and(f32::is_infinite);
        prop_assert_eq!(is_decimal(&value), finite_or_huge, "{:?}", value);
    }
}

#[test]
fn the_usual_and_the_odd() {
    for good in [
        "0", "-1.5", "+2", ".5", "5.", "1e3", "1E-3", "-0.25e+2", "3014.07",
    ] {
        assert!(is_decimal(good) && rust_reads(good), "{good}");
    }
    for bad in [
        "", ".", "-", "e5", "1e", "1-2", "0x1f", "1.2.3", " 1", "inf", "NaN", "Infinity", "1_000",
    ] {
        assert!(!is_decimal(bad), "{bad}");
        assert!(!rust_reads(bad), "{bad}: Rust refuses it too");
    }
}
