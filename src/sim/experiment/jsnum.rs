//! Numbers as JavaScript's `Number.prototype.toString` writes them: the shortest digits
//! that read back to the same `f64`, in exponent form from 1e21 up and below 1e-6. The native
//! runner hands it to the CSV writer, so its CSV is the browser's text (native only: the
//! worker's module asks the engine itself, and has no float printing).

/// `value` as JavaScript writes it ("NaN", "Infinity", −0 as "0").
pub fn js_number(value: f64) -> String {
    if value.is_nan() {
        return "NaN".into();
    }
    if value == 0.0 {
        return "0".into();
    }
    if value < 0.0 {
        return format!("-{}", js_number(-value));
    }
    if value.is_infinite() {
        return "Infinity".into();
    }
    // Rust's `{:e}` gives the shortest round-trip digits, d.ddde±x.
    let exp_form = format!("{value:e}");
    let (mantissa, exponent) = exp_form.split_once('e').expect("{:e} writes an e");
    let digits: String = mantissa.chars().filter(|&c| c != '.').collect();
    let exponent: i64 = exponent.parse().expect("{:e} writes a whole exponent");
    let (k, n) = (digits.len() as i64, exponent + 1);
    let zeros = |count: i64| "0".repeat(count as usize);
    if k <= n && n <= 21 {
        format!("{digits}{}", zeros(n - k))
    } else if 0 < n && n <= 21 {
        let (whole, part) = digits.split_at(n as usize);
        format!("{whole}.{part}")
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", zeros(-n))
    } else {
        let sign = if n > 0 { '+' } else { '-' };
        let (first, rest) = digits.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        format!("{first}{point}{rest}e{sign}{}", (n - 1).abs())
    }
}
