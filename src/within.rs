//! `within`, the standard `clamp` for floats without its check: `f32::clamp` asserts
//! `min <= max` with a message that prints both numbers, and that one message brings Rust's
//! float printing into the wasm module (about 7 KB of each module, gzipped). Every range
//! here is a pair of constants or checked where it is made.

/// `self` limited to `min..=max`. NaN stays NaN, as with `clamp`.
pub trait Within: Sized {
    fn within(self, min: Self, max: Self) -> Self;
}

macro_rules! within {
    ($($float:ty),*) => {$(
        impl Within for $float {
            #[inline]
            fn within(self, min: Self, max: Self) -> Self {
                debug_assert!(min <= max);
                if self < min {
                    min
                } else if self > max {
                    max
                } else {
                    self
                }
            }
        }
    )*};
}

within!(f32, f64);

#[cfg(test)]
mod tests {
    use super::Within;

    #[test]
    fn limits_like_clamp() {
        for value in [
            -3.0f32,
            -1.0,
            0.25,
            1.0,
            7.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ] {
            assert_eq!(value.within(-1.0, 1.0), value.clamp(-1.0, 1.0));
            assert_eq!(
                f64::from(value).within(-1.0, 1.0),
                f64::from(value).clamp(-1.0, 1.0)
            );
        }
        assert!(f32::NAN.within(0.0, 1.0).is_nan());
        assert!(f64::NAN.within(0.0, 1.0).is_nan());
    }
}
