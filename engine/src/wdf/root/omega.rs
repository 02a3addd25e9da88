//! The Wright omega function `ω(x)`, the solution of `ω + ln ω = x`: it solves a
//! diode's implicit law in closed form (the diode roots seed their solves with it,
//! and `wdf::omega_table` tabulates it).

/// The Wright omega function `ω(x)`, the solution of `ω + ln ω = x`, to a few ulps:
/// a piecewise seed refined by the third-order iteration of Fritsch, Shafer and
/// Crowley (two steps suffice from these seeds).
pub fn wright_omega(x: f64) -> f64 {
    let mut w = omega_seed(x);
    for _ in 0..3 {
        if w == 0.0 {
            break;
        }
        let z = x - w - w.ln();
        if z.abs() <= 1e-15 * x.abs().max(1.0) {
            break;
        }
        w = fritsch_step(w, z);
    }
    w
}

/// One third-order step of Fritsch, Shafer and Crowley from `w` with residual
/// `z = x − w − ln w`.
#[inline]
fn fritsch_step(w: f64, z: f64) -> f64 {
    let q = 2.0 * (1.0 + w) * (1.0 + w + (2.0 / 3.0) * z);
    w * (1.0 + z * (q - z) / ((1.0 + w) * (q - 2.0 * z)))
}

/// `ω(x)` to about 1e-7 relative: the piecewise seed and one Fritsch step.
#[inline]
pub(super) fn omega_fast(x: f64) -> f64 {
    let w = omega_seed(x);
    if w == 0.0 {
        return 0.0;
    }
    fritsch_step(w, x - w - w.ln())
}

/// A piecewise first guess of `ω(x)`, within a few per cent.
#[inline]
fn omega_seed(x: f64) -> f64 {
    if x < -700.0 {
        return 0.0;
    }
    if x < -2.0 {
        let e = x.exp();
        e - e * e
    } else if x < 1.0 {
        // Parabola through ω(−2) ≈ 0.1200, ω(0) ≈ 0.5671 and ω(1) = 1.
        0.567_143 + x * (0.363_1 + 0.069_8 * x)
    } else {
        let l = x.ln();
        x - l + l / x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wright_omega_solves_its_equation() {
        for &x in &[-30.0, -5.0, -2.0, -0.5, 0.0, 0.7, 1.0, 3.0, 50.0, 700.0] {
            let w = wright_omega(x);
            assert!(
                ((w + w.ln() - x) / x.abs().max(1.0)).abs() < 1e-14,
                "x = {x}: {w}"
            );
        }
    }
}
