//! The Wright omega function tabulated for cubic Hermite interpolation: a seed
//! for the diode solves that needs no logarithm.

use std::sync::LazyLock;

use super::root::wright_omega;

/// First node of the table.
pub(crate) const START: f64 = -40.0;
/// Node spacing.
pub(crate) const STEP: f64 = 1.0 / 32.0;
/// Number of intervals: the table covers [−40, 260).
pub(crate) const INTERVALS: usize = 300 * 32;

/// The four coefficients of the cubic on each interval, `p(t) = c0 + t·(c1 +
/// t·(c2 + t·c3))` for `t ∈ [0, 1)`, from ω and its slope `ω/(1 + ω)` at the two
/// nodes.
static TABLE: LazyLock<Vec<[f64; 4]>> = LazyLock::new(|| {
    let node = |k: usize| {
        let w = wright_omega(START + k as f64 * STEP);
        (w, w / (1.0 + w) * STEP)
    };
    (0..INTERVALS)
        .map(|k| {
            let ((w0, d0), (w1, d1)) = (node(k), node(k + 1));
            [
                w0,
                d0,
                3.0 * (w1 - w0) - 2.0 * d0 - d1,
                2.0 * (w0 - w1) + d0 + d1,
            ]
        })
        .collect()
});

/// The table, built on first use (call when preparing, off the audio thread, and
/// keep the slice).
pub(crate) fn table() -> &'static [[f64; 4]] {
    LazyLock::force(&TABLE).as_slice()
}

/// `ω(x)` by interpolation in `table` (within 1e-8 relative), or `None` outside it.
#[inline]
pub(crate) fn interpolate(table: &[[f64; 4]], x: f64) -> Option<f64> {
    let position = (x - START) * (1.0 / STEP);
    if !(position >= 0.0 && position < INTERVALS as f64) {
        return None;
    }
    let k = position as usize;
    let t = position - k as f64;
    let [c0, c1, c2, c3] = *table.get(k)?;
    Some(c0 + t * (c1 + t * (c2 + t * c3)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Interpolated ω is within 1e-8 relative everywhere in the table.
    #[test]
    fn table_interpolates_omega() {
        let table = table();
        let mut x = START;
        while x < START + INTERVALS as f64 * STEP - STEP {
            let ours = interpolate(table, x).unwrap();
            let reference = wright_omega(x);
            assert!(
                ((ours - reference) / reference).abs() < 1e-8,
                "x = {x}: {ours} vs {reference}"
            );
            x += 0.0071;
        }
        assert_eq!(interpolate(table, START - 1.0), None);
        assert_eq!(interpolate(table, f64::NAN), None);
    }
}
