//! The spectral centroid: where the "centre of mass" of a spectrum lies, the usual
//! measure of a sound's brightness.

use super::onset::onset;
use super::spectrum::hann_spectrum;

/// The stretch of a note [`centroid_first`] is usually asked for, s: the
/// first 0.3 s from the onset, as the brightness of a real grand is measured
/// (`docs/reference-measurements.md`).
pub const CENTROID_SPAN_S: f64 = 0.3;

/// Spectral centroid of `signal` (Hz): the magnitude-weighted mean frequency of its
/// Hann-windowed spectrum, `Σ f·|X(f)| / Σ |X(f)|` over the bins from DC to
/// Nyquist. Returns `None` for signals shorter than 4 samples or without energy.
///
/// Allocates: the FFT buffer and plan.
pub fn spectral_centroid(signal: &[f64], sample_rate: f64) -> Option<f64> {
    weighted_centroid(signal, sample_rate, |m| m)
}

/// Power spectral centroid of `signal` (Hz): as [`spectral_centroid`], with
/// each bin weighted by its power `|X(f)|²` instead of its magnitude, so that
/// the strong partials count and the noise floor hardly does.
///
/// Allocates: the FFT buffer and plan.
pub fn power_centroid(signal: &[f64], sample_rate: f64) -> Option<f64> {
    weighted_centroid(signal, sample_rate, |m| m * m)
}

/// `Σ f·w(|X(f)|) / Σ w(|X(f)|)` over the Hann-windowed spectrum of `signal`.
fn weighted_centroid(signal: &[f64], sample_rate: f64, weight: impl Fn(f64) -> f64) -> Option<f64> {
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
                let m = weight(x.norm());
                (w + k as f64 * bin_hz * m, t + m)
            });
    (total > 0.0 && weighted.is_finite()).then(|| weighted / total)
}

/// Brightness of the note in `signal` (sampled at `sample_rate`, Hz): the
/// [`power_centroid`] (Hz) of its first `seconds` (s) from the [`onset`] (or up
/// to the end of `signal`), as a real grand is measured
/// (`docs/reference-measurements.md`; its C4 at ff: about 419 Hz over 0.3 s).
/// `None` for a silent signal or one with fewer than 4 samples from the onset.
///
/// Allocates: the FFT buffer and plan.
pub fn centroid_first(signal: &[f32], sample_rate: f64, seconds: f64) -> Option<f64> {
    let start = onset(signal)?;
    let len = (seconds.max(0.0) * sample_rate).round() as usize;
    let stretch: Vec<f64> = signal[start..(start + len).min(signal.len())]
        .iter()
        .map(|&s| f64::from(s))
        .collect();
    power_centroid(&stretch, sample_rate)
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
        // Power weights 1 : 9.
        let power = power_centroid(&tone(fs, &[(low, 1.0), (high, 3.0)], n), fs).unwrap();
        assert!(close(power, 0.1 * low + 0.9 * high), "{power}");
        assert_eq!(spectral_centroid(&[0.0; 64], fs), None);
        assert_eq!(power_centroid(&[0.0; 64], fs), None);
        assert_eq!(spectral_centroid(&[1.0; 3], fs), None);
    }

    /// The centroid of the first 0.3 s from the onset: the silence before and
    /// what sounds after do not count.
    #[test]
    fn centroid_first_measures_from_the_onset() {
        let fs = 48_000.0;
        let bin = fs / 16_384.0;
        let (low, high) = (40.0 * bin, 120.0 * bin);
        let mut signal = vec![0.0f32; 10_000];
        // 0.3 s at 48 kHz is 14 400 samples: the first 0.3 s hold two equal
        // tones, the rest only the high one, louder.
        signal.extend(
            tone(fs, &[(low, 1.0), (high, 1.0)], 14_400)
                .iter()
                .map(|&x| x as f32),
        );
        signal.extend(tone(fs, &[(high, 4.0)], 20_000).iter().map(|&x| x as f32));
        let first = centroid_first(&signal, fs, CENTROID_SPAN_S).unwrap();
        // Half way between (equal powers), to within the Hann window's spread
        // over a stretch not a whole number of bins.
        assert!((first / (0.5 * (low + high)) - 1.0).abs() < 0.02, "{first}");
        let all = centroid_first(&signal, fs, 10.0).unwrap();
        assert!(all > 0.8 * high, "{all}");
        assert_eq!(centroid_first(&[0.0; 100], fs, 0.3), None);
    }
}
