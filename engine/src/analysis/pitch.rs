//! A rough estimate of a note's fundamental frequency from its waveform, for
//! when nothing else says which note was played.

use super::onset::onset;
use super::partials::PARTIALS_FROM_S;

/// Lowest fundamental considered, Hz (a piano's A0 is 27.5 Hz).
pub const LOWEST_F0_HZ: f64 = 25.0;
/// Highest fundamental considered, Hz (a piano's C8 is 4186 Hz).
pub const HIGHEST_F0_HZ: f64 = 4_500.0;
/// The waveform is compared with itself over this many of the longest
/// periods considered.
const WINDOW_PERIODS: f64 = 2.0;
/// A lag whose normalised difference falls below this is a period.
const THRESHOLD: f64 = 0.15;
/// Failing that, a lag whose normalised difference comes this close to the
/// least one's.
const NEAR_LEAST: f64 = 0.1;

/// Estimates the fundamental frequency (Hz) of the note in `signal` (sampled
/// at `sample_rate`, Hz), from [`PARTIALS_FROM_S`] after its [`onset`], by
/// the YIN method (de Cheveigné & Kawahara 2002): the squared difference
/// between the waveform and itself delayed by a lag, normalised by its mean
/// over the shorter lags; the period is the first lag (between
/// 1/[`HIGHEST_F0_HZ`] and 1/[`LOWEST_F0_HZ`]) where it dips below 0.15 (or,
/// if it never does, within 0.1 of its least value), at the bottom of that
/// dip, refined between samples by a parabola through the difference. Good to a fraction of a semitone on most notes, not
/// to cents: measure the partials for that. `None` for a silent signal or one
/// too short for the lowest fundamental.
///
/// Allocates: the difference function.
pub fn estimate_f0(signal: &[f32], sample_rate: f64) -> Option<f64> {
    let start = onset(signal)? + (PARTIALS_FROM_S * sample_rate) as usize;
    let shortest = ((sample_rate / HIGHEST_F0_HZ).floor() as usize).max(2);
    let longest = (sample_rate / LOWEST_F0_HZ).ceil() as usize;
    let window = (WINDOW_PERIODS * longest as f64) as usize;
    let x = signal.get(start..start + window + longest + 1)?;
    let difference = |lag: usize| -> f64 {
        x[..window]
            .iter()
            .zip(&x[lag..lag + window])
            .map(|(&a, &b)| (f64::from(a) - f64::from(b)).powi(2))
            .sum()
    };
    // The difference and its cumulative-mean-normalised form at lags
    // 0..=longest + 1.
    let raw: Vec<f64> = (0..longest + 2).map(difference).collect();
    let mut normalised = vec![1.0; raw.len()];
    let mut running = 0.0;
    for lag in 1..raw.len() {
        running += raw[lag];
        if running > 0.0 {
            normalised[lag] = raw[lag] * lag as f64 / running;
        }
    }
    let range = shortest..=longest;
    let least = range
        .clone()
        .map(|lag| normalised[lag])
        .fold(f64::INFINITY, f64::min);
    // Without a dip below the threshold, the first that comes near the
    // deepest: a multiple of the period can lie a little deeper than the period.
    let threshold = THRESHOLD.max(least + NEAR_LEAST);
    let mut lag = range.clone().find(|&lag| normalised[lag] < threshold)?;
    while lag < longest && normalised[lag + 1] < normalised[lag] {
        lag += 1;
    }
    let (l, c, r) = (raw[lag - 1], raw[lag], raw[lag + 1]);
    let curvature = l - 2.0 * c + r;
    let offset = if curvature > 0.0 {
        (0.5 * (l - r) / curvature).clamp(-0.5, 0.5)
    } else {
        0.0
    };
    Some(sample_rate / (lag as f64 + offset))
}

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use super::*;

    /// Partials `n` of `f0_hz` (B = 3e-4) with amplitudes `levels[n - 1]`.
    fn tone(f0_hz: f64, levels: &[f64], fs: f64) -> Vec<f32> {
        (0..(0.5 * fs) as usize)
            .map(|i| {
                let t = i as f64 / fs;
                levels
                    .iter()
                    .zip(1..)
                    .map(|(a, n)| {
                        let n = f64::from(n);
                        let f = n * f0_hz * (1.0 + 3e-4 * n * n).sqrt();
                        a * (2.0 * PI * f * t).sin()
                    })
                    .sum::<f64>() as f32
            })
            .collect()
    }

    fn semitones(a: f64, b: f64) -> f64 {
        12.0 * (a / b).log2()
    }

    /// Bass, middle and treble notes are found within a third of a semitone,
    /// also when the fundamental is weak and a higher partial the strongest.
    #[test]
    fn finds_the_fundamental_not_the_strongest_partial() {
        let fs = 44_100.0;
        let cases: [(f64, &[f64]); 5] = [
            (55.0, &[0.02, 0.3, 0.5, 1.0, 0.6, 0.4, 0.3, 0.2, 0.1]),
            (261.6, &[1.0, 0.5, 0.3, 0.2, 0.1, 0.05]),
            (440.0, &[0.3, 1.0, 0.4, 0.2, 0.1]),
            (2093.0, &[1.0, 0.2, 0.05]),
            (
                27.5,
                &[0.05, 0.1, 0.3, 0.6, 1.0, 0.8, 0.6, 0.5, 0.4, 0.3, 0.2],
            ),
        ];
        for (f0, levels) in cases {
            let estimate = estimate_f0(&tone(f0, levels, fs), fs).unwrap();
            assert!(
                semitones(estimate, f0).abs() < 0.33,
                "{f0} Hz: estimated {estimate} Hz"
            );
        }
        assert_eq!(estimate_f0(&[0.0; 48_000], fs), None);
        // Too short for the lowest fundamental's window.
        assert_eq!(estimate_f0(&tone(440.0, &[1.0], fs)[..4000], fs), None);
    }
}
