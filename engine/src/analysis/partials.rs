//! The partials of a struck string and its inharmonicity: a stiff string's
//! partial `n` lies at `f_n = n · f0 · sqrt(1 + B · n²)`. Squared, `(f_n / n)² =
//! f0² + f0² B · n²` is a straight line in `n²`, fitted by least squares.

use super::fit::fit_line;
use super::onset::onset;
use super::spectrum::{amplitude_at, hann_spectrum, peak_by, peak_in};

/// Half the band searched around a partial's predicted frequency, as a
/// fraction of the first partial's frequency (neighbours are a whole one away).
const SEARCH_HALF_WIDTH: f64 = 0.3;
/// A peak closer than this (fraction of the first partial) to the band's edge
/// is the skirt of something else, not the partial.
const EDGE_MARGIN: f64 = 0.05;
/// A partial weaker than this relative to the strongest (dB) is not measured.
const FLOOR_DB: f64 = -70.0;
/// Half the band a partial is looked for in by [`trace_partials`], as a
/// fraction of the first partial's frequency.
const TRACE_HALF_WIDTH: f64 = 0.25;
/// Partials measured before the fit predicts the next ones.
const FIRST_FIT_AFTER: usize = 3;

/// [`note_partials`] measures this long after the onset (past the hammer's
/// contact), s.
pub const PARTIALS_FROM_S: f64 = 0.05;
/// Length of the stretch of sound [`note_partials`] measures, s.
pub const PARTIALS_OVER_S: f64 = 1.0;
/// A note's inharmonicity is fitted to its partials 1 to this
/// ([`StiffFit::fit_note`]): the range a string's dispersion is designed for
/// (see `crate::resonators::dispersion`).
pub const FIT_PARTIALS: u32 = 8;

/// One measured partial.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Partial {
    /// Partial number, 1 for the fundamental.
    pub number: u32,
    /// Measured frequency, Hz.
    pub frequency_hz: f64,
    /// Amplitude, full scale 1.
    pub amplitude: f64,
}

/// The stiff-string fit of measured partials.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StiffFit {
    /// Frequency the string would have without stiffness, Hz.
    pub f0_hz: f64,
    /// Inharmonicity coefficient `B` (dimensionless).
    pub b: f64,
}

impl StiffFit {
    /// The predicted frequency of partial `n`, Hz.
    pub fn partial_hz(&self, n: u32) -> f64 {
        let n = f64::from(n);
        n * self.f0_hz * (1.0 + self.b * n * n).sqrt()
    }

    /// Fits `partials` (at least two, of different numbers); `None` if the fit
    /// is degenerate.
    pub fn fit(partials: &[Partial]) -> Option<Self> {
        let line = fit_line(partials.iter().map(|p| {
            let n = f64::from(p.number);
            (n * n, (p.frequency_hz / n).powi(2))
        }))?;
        (line.intercept > 0.0).then(|| Self {
            f0_hz: line.intercept.sqrt(),
            b: line.slope / line.intercept,
        })
    }

    /// The partials a note's fit uses: those of `partials` (in rising order of
    /// number, as [`measure_partials`] gives them) numbered up to
    /// [`FIT_PARTIALS`].
    pub fn fitted(partials: &[Partial]) -> &[Partial] {
        &partials[..partials.partition_point(|p| p.number <= FIT_PARTIALS)]
    }

    /// The fit of a note's [`fitted`](Self::fitted) partials.
    pub fn fit_note(partials: &[Partial]) -> Option<Self> {
        Self::fit(Self::fitted(partials))
    }
}

/// Measures partials `1..=count` of `signal` (sampled at `sample_rate`, Hz),
/// whose first partial is near `first_hz` (Hz): each is the strongest peak
/// within `SEARCH_HALF_WIDTH` of where the partials found so far predict it (a
/// harmonic series at first, the stiff-string fit once there are
/// `FIRST_FIT_AFTER`). Partials too weak or not a clear peak are left out,
/// as are any above the Nyquist frequency. The result is in rising order of
/// number.
///
/// Allocates: the spectrum.
pub fn measure_partials(
    signal: &[f32],
    sample_rate: f64,
    first_hz: f64,
    count: u32,
) -> Vec<Partial> {
    measure_partials_heard(&[signal], sample_rate, first_hz, count)
}

/// [`measure_partials`] of a note heard on several `channels` (the same
/// stretch of each, as long as the shortest): each peak is found in the
/// channels' spectra summed in power, and each partial's amplitude is the
/// root mean square of its amplitudes on the channels. A mix of the channels
/// would lose a partial they hear out of phase; this does not. One channel
/// gives [`measure_partials`]'s result.
///
/// Allocates: the spectra.
pub fn measure_partials_heard(
    channels: &[&[f32]],
    sample_rate: f64,
    first_hz: f64,
    count: u32,
) -> Vec<Partial> {
    let len = channels.iter().map(|c| c.len()).min().unwrap_or(0);
    if len < 4 {
        return Vec::new();
    }
    let size = (len * 4).next_power_of_two();
    let samples: Vec<Vec<f64>> = channels
        .iter()
        .map(|c| c[..len].iter().map(|&s| f64::from(s)).collect())
        .collect();
    let spectra: Vec<_> = samples
        .iter()
        .map(|s| hann_spectrum(s.iter().copied(), len, size))
        .collect();
    let magnitude = |k: usize| spectra.iter().map(|s| s[k].norm_sqr()).sum::<f64>().sqrt();
    let amplitude = |hz: f64| {
        let power: f64 = samples
            .iter()
            .map(|s| amplitude_at(s, sample_rate, hz).powi(2))
            .sum();
        (power / samples.len() as f64).sqrt()
    };
    let bin_hz = sample_rate / size as f64;
    let mut found: Vec<Partial> = Vec::new();
    let mut first = first_hz;
    let mut strongest: f64 = 0.0;
    for n in 1..=count {
        let predicted = match StiffFit::fit(&found) {
            Some(fit) if found.len() >= FIRST_FIT_AFTER => fit.partial_hz(n),
            _ => f64::from(n) * first,
        };
        let half = SEARCH_HALF_WIDTH * first;
        if predicted + half >= sample_rate / 2.0 {
            break;
        }
        let Some(frequency_hz) =
            peak_by(magnitude, size, bin_hz, predicted - half, predicted + half)
        else {
            continue;
        };
        if (frequency_hz - predicted).abs() > half - EDGE_MARGIN * first {
            continue;
        }
        let amplitude = amplitude(frequency_hz);
        strongest = strongest.max(amplitude);
        if 20.0 * (amplitude / strongest).log10() < FLOOR_DB {
            continue;
        }
        if n == 1 {
            first = frequency_hz;
        }
        found.push(Partial {
            number: n,
            frequency_hz,
            amplitude,
        });
    }
    found
}

/// The partials `1..=count` of the note in `signal` (sampled at
/// `sample_rate`, Hz; first partial near `first_hz`, Hz), measured by
/// [`measure_partials`] over the [`PARTIALS_OVER_S`] from [`PARTIALS_FROM_S`]
/// after its [`onset`] (or up to the end of `signal`). Empty for a silent
/// signal.
///
/// Allocates: the spectra.
pub fn note_partials(signal: &[f32], sample_rate: f64, first_hz: f64, count: u32) -> Vec<Partial> {
    note_partials_heard(&[signal], sample_rate, first_hz, count)
}

/// [`note_partials`] of a note heard on several `channels`, each from its
/// own onset, measured together by [`measure_partials_heard`]. Empty if
/// every channel is silent.
///
/// Allocates: the spectra.
pub fn note_partials_heard(
    channels: &[&[f32]],
    sample_rate: f64,
    first_hz: f64,
    count: u32,
) -> Vec<Partial> {
    let stretches: Vec<&[f32]> = channels
        .iter()
        .filter_map(|&signal| {
            let start = onset(signal)?;
            let from = (start + (PARTIALS_FROM_S * sample_rate) as usize).min(signal.len());
            let to = (from + (PARTIALS_OVER_S * sample_rate) as usize).min(signal.len());
            Some(&signal[from..to])
        })
        .collect();
    if stretches.is_empty() {
        return Vec::new();
    }
    measure_partials_heard(&stretches, sample_rate, first_hz, count)
}

/// The frequencies (Hz) of partials 1, 2, ... of the note in `signal`
/// (sampled at `sample_rate`, Hz) up to `top_hz` (Hz), found in the stretch
/// [`note_partials`] measures: each is the strongest spectral peak within
/// 0.25 × f1 of where the two partials below it and the curvature of `fit`
/// (the note's stiff-string fit) predict it (`fit` alone for partials 1 and
/// 2), or that prediction where the peak lies at the band's edge (no clear
/// peak). Unlike `fit`, which is fitted to the first few partials, they
/// follow the partials as far up as they go, where a string's dispersion
/// departs from the ideal stiff string. Where the stretch is too short, the
/// fit's frequencies.
///
/// Allocates: the spectrum.
pub fn trace_partials(signal: &[f32], sample_rate: f64, fit: &StiffFit, top_hz: f64) -> Vec<f64> {
    let predicted: Vec<f64> = (1..)
        .map(|n| fit.partial_hz(n))
        .take_while(|&f| f <= top_hz)
        .collect();
    let stretch = onset(signal).and_then(|start| {
        let from = start + (PARTIALS_FROM_S * sample_rate) as usize;
        let to = (from + (PARTIALS_OVER_S * sample_rate) as usize).min(signal.len());
        signal.get(from..to).filter(|s| s.len() >= 4)
    });
    let Some(stretch) = stretch else {
        return predicted;
    };
    let size = (stretch.len() * 4).next_power_of_two();
    let spectrum = hann_spectrum(stretch.iter().map(|&s| f64::from(s)), stretch.len(), size);
    let bin_hz = sample_rate / size as f64;
    let half = TRACE_HALF_WIDTH * fit.partial_hz(1);
    let mut found: Vec<f64> = Vec::with_capacity(predicted.len());
    for (i, &ideal) in predicted.iter().enumerate() {
        let guess = match i {
            0 | 1 => ideal,
            _ => {
                let curvature = ideal - 2.0 * predicted[i - 1] + predicted[i - 2];
                2.0 * found[i - 1] - found[i - 2] + curvature
            }
        };
        let peak = peak_in(&spectrum, bin_hz, guess - half, guess + half)
            .filter(|&f| (f - guess).abs() < half - EDGE_MARGIN * fit.partial_hz(1));
        found.push(peak.unwrap_or(guess));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    /// Partials 1–12 of a stiff string at amplitude `0.1 / n`, starting after
    /// `silence_s` of silence, for `seconds`.
    fn stiff_string(truth: &StiffFit, fs: f64, silence_s: f64, seconds: f64) -> Vec<f32> {
        let start = (silence_s * fs) as usize;
        (0..((silence_s + seconds) * fs) as usize)
            .map(|i| {
                if i < start {
                    return 0.0;
                }
                let t = (i - start) as f64 / fs;
                (1..=12)
                    .map(|n| 0.1 / f64::from(n) * (2.0 * PI * truth.partial_hz(n) * t).sin())
                    .sum::<f64>() as f32
            })
            .collect()
    }

    #[test]
    fn recovers_f0_and_b_of_a_stiff_string() {
        let fs = 48_000.0;
        let truth = StiffFit {
            f0_hz: 261.0,
            b: 4e-4,
        };
        let signal = stiff_string(&truth, fs, 0.0, 1.0);
        let partials = measure_partials(&signal, fs, 262.0, 12);
        assert_eq!(partials.len(), 12);
        let fit = StiffFit::fit(&partials).unwrap();
        assert!((fit.f0_hz - truth.f0_hz).abs() < 0.01, "{fit:?}");
        assert!((fit.b / truth.b - 1.0).abs() < 0.01, "{fit:?}");
        assert!((partials[2].amplitude - 0.1 / 3.0).abs() < 1e-3);
    }

    /// A note after half a second of silence: measured from its onset, and
    /// fitted to partials 1–8 only.
    #[test]
    fn a_note_is_measured_from_its_onset_and_fitted_to_eight_partials() {
        let fs = 44_100.0;
        let truth = StiffFit {
            f0_hz: 110.0,
            b: 1.2e-4,
        };
        let signal = stiff_string(&truth, fs, 0.5, 1.2);
        let partials = note_partials(&signal, fs, 110.0, 12);
        assert_eq!(partials.len(), 12);
        let fitted = StiffFit::fitted(&partials);
        assert_eq!(fitted.len(), 8);
        assert_eq!(fitted.last().unwrap().number, FIT_PARTIALS);
        let fit = StiffFit::fit_note(&partials).unwrap();
        assert!((fit.b / truth.b - 1.0).abs() < 0.02, "{fit:?}");
        assert!((partials[0].amplitude - 0.1).abs() < 1e-3);
        assert!(note_partials(&[0.0; 1000], fs, 110.0, 12).is_empty());
    }

    /// A spaced pair hears a string whose fundamental reaches the right
    /// microphone inverted and at half the left's amplitude: their mix
    /// keeps a quarter of it (−12 dB), heard on both channels it is the
    /// root mean square of the two, `0.1·√((1 + ¼)/2)`, and every other
    /// partial is what each channel has. One channel measures as
    /// [`measure_partials`] does.
    #[test]
    fn partials_heard_on_two_channels_are_not_lost_to_their_mix() {
        let fs = 48_000.0;
        let truth = StiffFit {
            f0_hz: 220.0,
            b: 3e-4,
        };
        let left = stiff_string(&truth, fs, 0.0, 1.0);
        let fundamental: Vec<f64> = (0..left.len())
            .map(|i| 0.1 * (2.0 * PI * truth.partial_hz(1) * i as f64 / fs).sin())
            .collect();
        let right: Vec<f32> = left
            .iter()
            .zip(&fundamental)
            .map(|(&l, &f)| (f64::from(l) - 1.5 * f) as f32)
            .collect();
        let mix: Vec<f32> = left
            .iter()
            .zip(&right)
            .map(|(l, r)| 0.5 * (l + r))
            .collect();
        let level = |partials: &[Partial], n: u32| {
            partials
                .iter()
                .find(|p| p.number == n)
                .map(|p| p.amplitude)
                .unwrap()
        };
        let mixed = measure_partials(&mix, fs, 220.0, 12);
        assert!((level(&mixed, 1) - 0.025).abs() < 1e-3, "{mixed:?}");
        let heard = measure_partials_heard(&[&left, &right], fs, 220.0, 12);
        assert_eq!(heard.len(), 12);
        let expected = 0.1 * (1.25f64 / 2.0).sqrt();
        assert!((level(&heard, 1) - expected).abs() < 1e-3, "{heard:?}");
        assert!((level(&heard, 3) - 0.1 / 3.0).abs() < 1e-3, "{heard:?}");
        assert_eq!(
            measure_partials_heard(&[&left], fs, 220.0, 12),
            measure_partials(&left, fs, 220.0, 12)
        );
    }

    /// A string whose partials above the 8th lie ever sharper than its fit
    /// of partials 1–8 says (by up to 40 Hz at the 30th): traced, each is
    /// found within 0.5 Hz of where it is.
    #[test]
    fn partials_are_traced_beyond_the_fit() {
        let fs = 48_000.0;
        let string = StiffFit {
            f0_hz: 110.0,
            b: 2e-4,
        };
        let true_hz =
            |n: u32| string.partial_hz(n) + 40.0 * (f64::from(n.max(8) - 8) / 22.0).powi(2);
        let signal: Vec<f32> = (0..(1.2 * fs) as usize)
            .map(|i| {
                let t = i as f64 / fs;
                (1..=30)
                    .map(|n| 0.1 / f64::from(n) * (2.0 * PI * true_hz(n) * t).sin())
                    .sum::<f64>() as f32
            })
            .collect();
        let traced = trace_partials(&signal, fs, &string, string.partial_hz(30));
        assert_eq!(traced.len(), 30);
        for (n, hz) in (1..).zip(&traced) {
            assert!(
                (hz - true_hz(n)).abs() < 0.5,
                "partial {n}: {hz} Hz, made {}",
                true_hz(n)
            );
        }
        // Far from the fit: the 30th 40 Hz sharp of it.
        assert!(true_hz(30) - string.partial_hz(30) > 39.0);
        let silent = trace_partials(&[0.0; 1000], fs, &string, 500.0);
        assert_eq!(
            silent,
            vec![
                string.partial_hz(1),
                string.partial_hz(2),
                string.partial_hz(3),
                string.partial_hz(4)
            ]
        );
    }
}
