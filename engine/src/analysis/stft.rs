//! Short-time spectra: the magnitude of a signal's spectrum frame by frame, for
//! spectrograms.

use super::spectrum::hann_spectrum;

/// Magnitudes of Hann-windowed frames of a signal.
#[derive(Debug, Clone, PartialEq)]
pub struct Spectrogram {
    /// Start of each frame, s from the start of the signal.
    pub frame_times_s: Vec<f64>,
    /// Width of one frequency bin, Hz (bin `k` is at `k · bin_hz`).
    pub bin_hz: f64,
    /// Per frame, the amplitude of bins 0 to `window / 2`, scaled so that a
    /// stationary sinusoid of amplitude `a` centred on a bin reads `a`.
    pub magnitudes: Vec<Vec<f64>>,
}

/// The spectrogram of `signal` sampled at `sample_rate` (Hz): frames of
/// `window` samples (a power of two) every `hop` samples, each under a Hann
/// window. The last frame is the last one that fits whole; a signal shorter than
/// one window gives no frames.
///
/// Allocates: the frames and one FFT buffer per frame.
pub fn spectrogram(signal: &[f32], sample_rate: f64, window: usize, hop: usize) -> Spectrogram {
    assert!(
        window.is_power_of_two() && hop > 0,
        "window {window}, hop {hop}"
    );
    // A Hann window's coherent gain is 1/2; one-sided spectra double.
    let scale = 4.0 / window as f64;
    let mut frame_times_s = Vec::new();
    let mut magnitudes = Vec::new();
    let mut start = 0;
    while start + window <= signal.len() {
        let frame = &signal[start..start + window];
        let spectrum = hann_spectrum(frame.iter().map(|&s| f64::from(s)), window, window);
        magnitudes.push(
            spectrum[..=window / 2]
                .iter()
                .map(|c| c.norm() * scale)
                .collect(),
        );
        frame_times_s.push(start as f64 / sample_rate);
        start += hop;
    }
    Spectrogram {
        frame_times_s,
        bin_hz: sample_rate / window as f64,
        magnitudes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    #[test]
    fn a_sinusoid_shows_in_its_bin_at_its_amplitude() {
        let fs = 48_000.0;
        // Bin 64 of a 2048-point window.
        let f = 64.0 * fs / 2048.0;
        let x: Vec<f32> = (0..10_000)
            .map(|n| (0.5 * (2.0 * PI * f * n as f64 / fs).sin()) as f32)
            .collect();
        let s = spectrogram(&x, fs, 2048, 1024);
        assert_eq!(s.magnitudes.len(), (10_000 - 2048) / 1024 + 1);
        assert_eq!(s.frame_times_s[1], 1024.0 / fs);
        for frame in &s.magnitudes {
            assert_eq!(frame.len(), 1025);
            assert!((frame[64] - 0.5).abs() < 1e-3, "{}", frame[64]);
            assert!(frame[80] < 1e-3);
        }
    }
}
