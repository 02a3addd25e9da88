//! Spectral peaks and partial amplitudes.

use std::f64::consts::PI;

use rustfft::FftPlanner;
use rustfft::num_complex::Complex;

/// The spectrum of `len` samples under a Hann window, zero-padded to `size`
/// (a power of two at least `len`).
///
/// Allocates: the FFT buffer and plan.
pub(crate) fn hann_spectrum(
    samples: impl Iterator<Item = f64>,
    len: usize,
    size: usize,
) -> Vec<Complex<f64>> {
    let mut buffer: Vec<Complex<f64>> = vec![Complex::new(0.0, 0.0); size];
    let n = len as f64;
    for (i, (s, slot)) in samples.zip(buffer.iter_mut()).enumerate() {
        let window = 0.5 - 0.5 * (2.0 * PI * i as f64 / n).cos();
        *slot = Complex::new(s * window, 0.0);
    }
    FftPlanner::new()
        .plan_fft_forward(size)
        .process(&mut buffer);
    buffer
}

/// The frequency (Hz) of the strongest spectral peak of `signal` between `low_hz`
/// and `high_hz`, refined between FFT bins.
///
/// The signal is Hann-windowed and zero-padded to at least four times its length
/// (a power of two); the peak bin and its neighbours are fitted by a parabola in
/// log magnitude, which for a Hann window locates a stationary sinusoid to well
/// under 1 % of a bin. Returns `None` when the band holds no bins or no energy.
///
/// Allocates: the FFT buffer and plan.
pub fn peak_frequency(signal: &[f32], sample_rate: f64, low_hz: f64, high_hz: f64) -> Option<f64> {
    if signal.len() < 4 {
        return None;
    }
    let size = (signal.len() * 4).next_power_of_two();
    let buffer = hann_spectrum(signal.iter().map(|&s| f64::from(s)), signal.len(), size);

    peak_in(&buffer, sample_rate / size as f64, low_hz, high_hz)
}

/// The frequency (Hz) of the strongest peak of the spectrum `buffer` (bins
/// `bin_hz` apart, Hz; only the first half is read) between `low_hz` and
/// `high_hz`, refined between bins by a parabola through the peak bin and its
/// neighbours in log magnitude. `None` when the band holds no bins or no
/// energy.
pub(crate) fn peak_in(
    buffer: &[Complex<f64>],
    bin_hz: f64,
    low_hz: f64,
    high_hz: f64,
) -> Option<f64> {
    peak_by(|k| buffer[k].norm(), buffer.len(), bin_hz, low_hz, high_hz)
}

/// [`peak_in`] for a spectrum of `size` bins (`bin_hz` apart, Hz) given by
/// the `magnitude` of each bin.
pub(crate) fn peak_by(
    magnitude: impl Fn(usize) -> f64,
    size: usize,
    bin_hz: f64,
    low_hz: f64,
    high_hz: f64,
) -> Option<f64> {
    let first = ((low_hz / bin_hz).ceil() as usize).max(1);
    let last = ((high_hz / bin_hz).floor() as usize).min((size / 2).saturating_sub(1));
    if first >= last {
        return None;
    }
    let best = (first..=last).max_by(|&a, &b| magnitude(a).total_cmp(&magnitude(b)))?;
    if magnitude(best) <= 0.0 {
        return None;
    }
    let (l, c, r) = (
        magnitude(best - 1).max(f64::MIN_POSITIVE).ln(),
        magnitude(best).ln(),
        magnitude(best + 1).max(f64::MIN_POSITIVE).ln(),
    );
    let curvature = l - 2.0 * c + r;
    let offset = if curvature < 0.0 {
        (0.5 * (l - r) / curvature).clamp(-0.5, 0.5)
    } else {
        0.0
    };
    Some((best as f64 + offset) * bin_hz)
}

/// Amplitude of the sinusoid at `frequency_hz` in `signal`, by a Hann-windowed
/// single-bin Fourier transform (exact for a stationary sinusoid whose neighbours
/// lie several bins of `sample_rate / len` away).
pub fn amplitude_at(signal: &[f64], sample_rate: f64, frequency_hz: f64) -> f64 {
    let n = signal.len() as f64;
    let omega = 2.0 * PI * frequency_hz / sample_rate;
    let (mut re, mut im, mut window_sum) = (0.0, 0.0, 0.0);
    for (i, &s) in signal.iter().enumerate() {
        let w = 0.5 - 0.5 * (2.0 * PI * i as f64 / n).cos();
        re += s * w * (omega * i as f64).cos();
        im -= s * w * (omega * i as f64).sin();
        window_sum += w;
    }
    2.0 * (re * re + im * im).sqrt() / window_sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_sinusoid_to_a_hundredth_of_a_cent() {
        let fs = 48_000.0;
        for &f in &[27.5, 261.63, 440.0, 1234.5, 4186.0] {
            let x: Vec<f32> = (0..48_000)
                .map(|n| (0.3 * (2.0 * PI * f * n as f64 / fs).sin()) as f32)
                .collect();
            let measured = peak_frequency(&x, fs, f * 0.9, f * 1.1).unwrap();
            let cents = 1200.0 * (measured / f).log2();
            assert!(cents.abs() < 0.01, "{f}: {measured} ({cents} cents)");
        }
    }

    #[test]
    fn measures_partial_amplitude() {
        let fs = 48_000.0;
        let x: Vec<f64> = (0..9600)
            .map(|n| {
                let t = n as f64 / fs;
                0.7 * (2.0 * PI * 300.0 * t).sin() + 0.2 * (2.0 * PI * 900.0 * t).cos()
            })
            .collect();
        assert!((amplitude_at(&x, fs, 300.0) - 0.7).abs() < 1e-3);
        assert!((amplitude_at(&x, fs, 900.0) - 0.2).abs() < 1e-3);
    }
}
