//! The spectral centroid: where the "centre of mass" of a spectrum lies, the usual
//! measure of a sound's brightness.

use super::spectrum::hann_spectrum;

/// Spectral centroid of `signal` (Hz): the magnitude-weighted mean frequency of its
/// Hann-windowed spectrum, `Σ f·|X(f)| / Σ |X(f)|` over the bins from DC to
/// Nyquist. Returns `None` for signals shorter than 4 samples or without energy.
///
/// Allocates: the FFT buffer and plan.
pub fn spectral_centroid(signal: &[f64], sample_rate: f64) -> Option<f64> {
    if signal.len() < 4 {
        return None;
    }
    let size = signal.len().next_power_of_two();
    let buffer = hann_spectrum(signal.iter().copied(), signal.len(), size);
    let bin_hz = sample_rate / size as f64;
    let (weighted, total) =
        buffer[..=size / 2]
            .iter()
            .enumerate()
            .fold((0.0, 0.0), |(w, t), (k, x)| {
                let m = x.norm();
                (w + k as f64 * bin_hz * m, t + m)
            });
    (total > 0.0 && weighted.is_finite()).then(|| weighted / total)
}

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use super::*;

    fn tone(fs: f64, parts: &[(f64, f64)], n: usize) -> Vec<f64> {
        (0..n)
            .map(|i| {
                let t = i as f64 / fs;
                parts
                    .iter()
                    .map(|&(f, a)| a * (2.0 * PI * f * t).sin())
                    .sum()
            })
            .collect()
    }

    /// A sinusoid's centroid is its frequency; two equal ones meet halfway; three
    /// times the weight on the upper one moves it three quarters of the way. The
    /// tones sit on FFT bins, where the Hann window spreads each symmetrically over
    /// three bins, so the centroid is exact to rounding.
    #[test]
    fn centroid_is_the_weighted_mean_frequency() {
        let fs = 48_000.0;
        let n = 4096;
        let bin = fs / n as f64;
        let (low, high) = (85.0 * bin, 256.0 * bin);
        let close = |a: f64, b: f64| (a / b - 1.0).abs() < 1e-9;
        let one = spectral_centroid(&tone(fs, &[(low, 1.0)], n), fs).unwrap();
        assert!(close(one, low), "{one}");
        let two = spectral_centroid(&tone(fs, &[(low, 1.0), (high, 1.0)], n), fs).unwrap();
        assert!(close(two, 0.5 * (low + high)), "{two}");
        let bright = spectral_centroid(&tone(fs, &[(low, 1.0), (high, 3.0)], n), fs).unwrap();
        assert!(close(bright, 0.25 * low + 0.75 * high), "{bright}");
        assert_eq!(spectral_centroid(&[0.0; 64], fs), None);
        assert_eq!(spectral_centroid(&[1.0; 3], fs), None);
    }
}
