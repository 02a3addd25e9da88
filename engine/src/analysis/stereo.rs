//! How wide a stereo note sounds: the correlation of its two channels and
//! the level of their difference against their sum.

/// The stereo image of a held note.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StereoImage {
    /// Pearson correlation of the left and right channels, −1 to 1: 1 for
    /// the same signal in both (mono), 0 for unrelated ones.
    pub correlation: f64,
    /// Energy of the side signal `(L − R)/2` against the mid signal
    /// `(L + R)/2`, dB: −∞ for mono, 0 for unrelated channels of equal level,
    /// positive when the channels are mostly out of phase.
    pub side_to_mid_db: f64,
}

/// The [`StereoImage`] of `left` and `right` (the same length; a longer one
/// is cut to the shorter), both taken whole: pass the held part of a note
/// (from its onset to its release). `None` when either channel is constant
/// (no correlation is defined) or the mid signal is silent.
pub fn stereo_image(left: &[f32], right: &[f32]) -> Option<StereoImage> {
    let len = left.len().min(right.len());
    if len < 2 {
        return None;
    }
    let mean = |x: &[f32]| x[..len].iter().map(|&s| f64::from(s)).sum::<f64>() / len as f64;
    let (mean_l, mean_r) = (mean(left), mean(right));
    let (mut lr, mut ll, mut rr, mut side, mut mid) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (&l, &r) in left[..len].iter().zip(&right[..len]) {
        let (l, r) = (f64::from(l), f64::from(r));
        let (dl, dr) = (l - mean_l, r - mean_r);
        lr += dl * dr;
        ll += dl * dl;
        rr += dr * dr;
        side += (0.5 * (l - r)).powi(2);
        mid += (0.5 * (l + r)).powi(2);
    }
    (ll > 0.0 && rr > 0.0 && mid > 0.0).then(|| StereoImage {
        correlation: lr / (ll * rr).sqrt(),
        side_to_mid_db: 10.0 * (side / mid).log10(),
    })
}

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use super::*;

    fn sine(hz: f64, phase: f64, amplitude: f64) -> Vec<f32> {
        (0..48_000)
            .map(|i| (amplitude * (2.0 * PI * hz * f64::from(i) / 48_000.0 + phase).sin()) as f32)
            .collect()
    }

    /// The same signal in both channels is mono (correlation 1, no side);
    /// a quarter period apart, two equal sines are uncorrelated and side and
    /// mid are equal; a right channel at half the left's level in phase has
    /// side/mid = ((1 − ½)/(1 + ½))² = −9.54 dB.
    #[test]
    fn correlation_and_side_to_mid_of_known_pairs() {
        let left = sine(200.0, 0.0, 0.5);
        let mono = stereo_image(&left, &left).unwrap();
        assert!((mono.correlation - 1.0).abs() < 1e-9);
        assert_eq!(mono.side_to_mid_db, f64::NEG_INFINITY);
        let quadrature = stereo_image(&left, &sine(200.0, PI / 2.0, 0.5)).unwrap();
        assert!(quadrature.correlation.abs() < 1e-3, "{quadrature:?}");
        assert!(quadrature.side_to_mid_db.abs() < 0.01, "{quadrature:?}");
        let narrow = stereo_image(&left, &sine(200.0, 0.0, 0.25)).unwrap();
        assert!((narrow.correlation - 1.0).abs() < 1e-9);
        let expected = 20.0 * (0.5f64 / 1.5).log10();
        assert!(
            (narrow.side_to_mid_db - expected).abs() < 1e-3,
            "{narrow:?}"
        );
        let opposite = stereo_image(&left, &sine(200.0, PI, 0.4)).unwrap();
        assert!((opposite.correlation + 1.0).abs() < 1e-6, "{opposite:?}");
        assert_eq!(stereo_image(&left, &[0.0; 48_000]), None);
    }
}
