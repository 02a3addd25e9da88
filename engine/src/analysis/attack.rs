//! The knock: how much of a note's first tens of milliseconds is not its
//! partials. A struck string's partials carry nearly all of its sustained
//! sound; a real grand's attack also carries a broadband thump from the
//! hammer's blow reaching the board and the frame, which dies within tens of
//! milliseconds. It shows as energy between the partials and below the
//! fundamental.

use nalgebra::{DMatrix, DVector};
use rustfft::FftPlanner;
use rustfft::num_complex::Complex;

use super::onset::onset;
use super::partials::{StiffFit, trace_partials};

/// The attack window measured: this long from the [`onset`], s.
pub const ATTACK_SPAN_S: f64 = 0.05;
/// "Between the partials" is measured up to this frequency, Hz.
pub const ATTACK_TOP_HZ: f64 = 5_000.0;
/// "Below the fundamental" is below this fraction of the first partial's
/// frequency.
pub const BELOW_FIRST_FRACTION: f64 = 0.8;
/// The band below the fundamental is measured once more in a window as long
/// this long after the onset, s: what stays of it once the blow has passed
/// (a recording's own noise, the board's lowest modes still ringing).
pub const LATER_S: f64 = 1.0;
/// Partials are removed up to this factor above [`ATTACK_TOP_HZ`], so that
/// the skirts of those just above it do not count as energy between them.
const MODEL_ABOVE_TOP: f64 = 1.2;
/// The partials' model may take at most this fraction of the degrees of
/// freedom of the band between them; a note whose partials lie closer
/// together than that has no figure.
const MOST_DOF_FRACTION: f64 = 0.5;

/// Energy of a note's attack outside its partials.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AttackNoise {
    /// Energy between the partials, from [`BELOW_FIRST_FRACTION`] of the
    /// first partial's frequency up to [`ATTACK_TOP_HZ`], dB re the total
    /// energy of the window.
    pub between_db: f64,
    /// Energy below [`BELOW_FIRST_FRACTION`] of the first partial's
    /// frequency, DC included, dB re the total energy of the window.
    pub below_db: f64,
    /// The same band's energy in a window as long [`LATER_S`] after the
    /// onset, the partials fitted out the same way, dB re the total energy
    /// of the attack's window (so the two compare directly); none if the
    /// signal ends before. A figure close to `below_db` says the band is
    /// steady (a recording's noise floor), not the attack's.
    pub below_later_db: Option<f64>,
}

/// The energy between the partials and below the fundamental in the first
/// [`ATTACK_SPAN_S`] from the [`onset`] of the note in `signal` (sampled at
/// `sample_rate`, Hz), whose partials lie near `fit.partial_hz(n)` (the
/// stiff-string fit of the sustained note: `f_n = n·f1·sqrt(1 + B n²) /
/// sqrt(1 + B)`).
///
/// The window is too short for a spectrum to tell the partials from what
/// lies between them below the middle of the keyboard (50 ms resolves 20 Hz,
/// and a Hann window's main lobe spans 80 Hz), so the partials are removed
/// instead: every partial up to 1.2 × [`ATTACK_TOP_HZ`] (and below 0.45 of
/// the sample rate), at its frequency in the sustained sound
/// (`partials::trace_partials`: a 50 ms window resolves 20 Hz, and the fit of the
/// first few partials misses the high ones of a bass string by more), is
/// fitted by least squares, with an
/// amplitude and phase that may change quadratically over the window, so
/// that a partial's own decay is not counted (a fall of 7.5 dB over the
/// window leaves about −45 dB). Where the partials lie too close
/// together for that (the model may take at most half the degrees of
/// freedom of the band between them), the amplitudes change only linearly
/// (f1 under about 150 Hz for a harmonic series) or stay steady (under
/// about 100 Hz; a fall of 0.5 dB over the window then leaves about −35 dB,
/// and a piano's bass falls less than that in 50 ms). What remains is
/// split by its discrete Fourier transform (rectangular window, so that its
/// energy is exactly shared out): the bins below [`BELOW_FIRST_FRACTION`] ×
/// f1 are the energy below the fundamental, the bins from there up to
/// [`ATTACK_TOP_HZ`] the energy between the partials. The fit also takes the
/// part of any noise that happens to lie along the partials' model; the
/// energy between the partials is scaled up by the band's degrees of freedom
/// over those the fit left (exact on average for noise whose spectrum is
/// flat across the band).
///
/// `None` for a silent signal, one shorter than the window from its onset,
/// or partials so close together (f1 under about 50 Hz for a harmonic
/// series; stiffness spreads them) that even steady ones
/// would take more than half the band's degrees of freedom.
///
/// Allocates: the model, its normal equations and the spectrum.
pub fn attack_noise(signal: &[f32], sample_rate: f64, fit: &StiffFit) -> Option<AttackNoise> {
    let start = onset(signal)?;
    let len = (ATTACK_SPAN_S * sample_rate).round() as usize;
    let window = samples_at(signal, start, len)?;
    let total: f64 = window.iter().map(|x| x * x).sum();
    let first_hz = fit.partial_hz(1);
    if total <= 0.0 || first_hz.is_nan() || first_hz <= 0.0 {
        return None;
    }
    let bin_hz = sample_rate / len as f64;
    let below_hz = BELOW_FIRST_FRACTION * first_hz;
    let top_hz = ATTACK_TOP_HZ.min(0.45 * sample_rate);
    let model_top_hz = (MODEL_ABOVE_TOP * top_hz).min(0.45 * sample_rate);
    let frequencies = trace_partials(signal, sample_rate, fit, model_top_hz);
    // Real degrees of freedom of the band between the partials.
    let band_dof = 2.0 * (top_hz - below_hz) / bin_hz;
    let allowed = MOST_DOF_FRACTION * band_dof;
    let terms = [3, 2, 1]
        .into_iter()
        .find(|&terms| (2 * terms * frequencies.len()) as f64 <= allowed)?;
    let residual = without_partials(&window, sample_rate, &frequencies, terms)?;
    let parameters = (2 * terms * frequencies.len()) as f64;
    let band = |low_hz: f64, high_hz: f64| band_energy(&residual, bin_hz, low_hz, high_hz);
    let between = band(below_hz, top_hz) * band_dof / (band_dof - parameters);
    let below = band(0.0, below_hz);
    let db = |energy: f64| 10.0 * (energy.max(f64::MIN_POSITIVE) / total).log10();
    let later = start + (LATER_S * sample_rate).round() as usize;
    let below_later_db = samples_at(signal, later, len).and_then(|window| {
        let residual = without_partials(&window, sample_rate, &frequencies, terms)?;
        Some(db(band_energy(&residual, bin_hz, 0.0, below_hz)))
    });
    Some(AttackNoise {
        between_db: db(between),
        below_db: db(below),
        below_later_db,
    })
}

/// The `len` samples of `signal` from `start`, as f64; none if it ends
/// before.
fn samples_at(signal: &[f32], start: usize, len: usize) -> Option<Vec<f64>> {
    let samples = signal.get(start..start.checked_add(len)?)?;
    Some(samples.iter().map(|&s| f64::from(s)).collect())
}

/// `window` (sampled at `sample_rate`, Hz) less its least-squares fit by
/// sinusoids at `frequencies` (Hz), each with an amplitude and phase that
/// are a polynomial in time of `terms` terms (1: steady, 2: changing
/// linearly, 3: quadratically over the window). `None` if the fit is
/// degenerate.
fn without_partials(
    window: &[f64],
    sample_rate: f64,
    frequencies: &[f64],
    terms: usize,
) -> Option<Vec<f64>> {
    let len = window.len();
    let per_partial = 2 * terms;
    let mut model = DMatrix::<f64>::zeros(len, per_partial * frequencies.len());
    for (i, mut row) in model.row_iter_mut().enumerate() {
        let t = i as f64 / sample_rate;
        // Time from the window's centre, in window lengths: −½ to ½.
        let tau = i as f64 / len as f64 - 0.5;
        for (p, &hz) in frequencies.iter().enumerate() {
            let (sin, cos) = (2.0 * std::f64::consts::PI * hz * t).sin_cos();
            let mut power = 1.0;
            for term in 0..terms {
                row[per_partial * p + 2 * term] = power * cos;
                row[per_partial * p + 2 * term + 1] = power * sin;
                power *= tau;
            }
        }
    }
    let x = DVector::from_column_slice(window);
    let gram = model.tr_mul(&model);
    let coefficients = gram.cholesky()?.solve(&model.tr_mul(&x));
    let fitted = &model * coefficients;
    Some((x - fitted).iter().copied().collect())
}

/// Energy of `residual` in the bins of its discrete Fourier transform (bin
/// width `bin_hz`, Hz) from `low_hz` (included) to `high_hz` (excluded),
/// both signs of frequency counted: the band's share of `Σ residual²`.
fn band_energy(residual: &[f64], bin_hz: f64, low_hz: f64, high_hz: f64) -> f64 {
    let len = residual.len();
    let mut spectrum: Vec<Complex<f64>> = residual.iter().map(|&r| Complex::new(r, 0.0)).collect();
    FftPlanner::new()
        .plan_fft_forward(len)
        .process(&mut spectrum);
    (0..=len / 2)
        .filter(|&k| {
            let hz = k as f64 * bin_hz;
            hz >= low_hz && hz < high_hz
        })
        .map(|k| {
            // Bins 0 and len/2 (for even len) have no mirror image.
            let both = if k == 0 || 2 * k == len { 1.0 } else { 2.0 };
            both * spectrum[k].norm_sqr() / len as f64
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use super::*;

    /// Uniform noise in −1..1, from a seeded linear congruential generator.
    fn noise(len: usize, seed: u64) -> Vec<f64> {
        let mut state = seed;
        (0..len)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
            })
            .collect()
    }

    /// 20 ms of silence, then 0.2 s of partials of `fit` up to 8 kHz at
    /// amplitude `0.3 / n`, decaying with T60 `t60_s`, plus `extra` (from
    /// the onset).
    fn note(fit: &StiffFit, fs: f64, t60_s: f64, extra: &[f64]) -> Vec<f32> {
        note_lasting(fit, fs, t60_s, extra, 0.2)
    }

    /// As [`note`], `seconds` long after the silence.
    fn note_lasting(fit: &StiffFit, fs: f64, t60_s: f64, extra: &[f64], seconds: f64) -> Vec<f32> {
        let lead = (0.02 * fs) as usize;
        let mut signal = vec![0.0f32; lead];
        signal.extend((0..(seconds * fs) as usize).map(|i| {
            let t = i as f64 / fs;
            let decay = 10f64.powf(-3.0 * t / t60_s);
            let tone: f64 = (1..)
                .map(|n| (n, fit.partial_hz(n)))
                .take_while(|&(_, f)| f < 8_000.0)
                .map(|(n, f)| 0.3 / f64::from(n) * (2.0 * PI * f * t + 0.3 * f64::from(n)).sin())
                .sum();
            (decay * tone + extra.get(i).copied().unwrap_or(0.0)) as f32
        }));
        signal
    }

    fn energy(x: &[f64]) -> f64 {
        x.iter().map(|x| x * x).sum()
    }

    /// A stiff string's partials alone, decaying fast (T60 0.4 s, 7.5 dB over
    /// the window): almost nothing lies between them or below the first.
    #[test]
    fn a_clean_decaying_tone_has_no_attack_noise() {
        let fs = 48_000.0;
        for f0_hz in [250.0, 65.4] {
            let fit = StiffFit { f0_hz, b: 3e-4 };
            // 7.5 dB over the window above 150 Hz; 0.4 dB below 100 Hz.
            let (t60, floor_db) = if f0_hz > 150.0 {
                (0.4, -42.0)
            } else {
                (8.0, -33.0)
            };
            let measured = attack_noise(&note(&fit, fs, t60, &[]), fs, &fit).unwrap();
            assert!(measured.between_db < floor_db, "{f0_hz} Hz: {measured:?}");
            assert!(measured.below_db < floor_db, "{f0_hz} Hz: {measured:?}");
        }
    }

    /// The same tone plus a known burst in the first 50 ms: white noise and
    /// a 100 Hz sine (on a bin of the 50 ms window, below 0.8 × 250 Hz). The
    /// energy between the partials is the noise's share of the band from
    /// 200 Hz to 5 kHz, the energy below the fundamental the sine's (and the
    /// noise's below 200 Hz), each against the window's total: measured
    /// within 1 dB. A louder burst reads louder.
    #[test]
    fn a_noise_burst_between_the_partials_is_measured() {
        let fs = 48_000.0;
        let fit = StiffFit {
            f0_hz: 250.0,
            b: 3e-4,
        };
        let len = (ATTACK_SPAN_S * fs) as usize;
        for noise_level in [0.02, 0.06] {
            let white: Vec<f64> = noise(len, 7).iter().map(|x| noise_level * x).collect();
            let thump: Vec<f64> = (0..len)
                .map(|i| 0.05 * (2.0 * PI * 100.0 * i as f64 / fs).sin())
                .collect();
            let extra: Vec<f64> = white.iter().zip(&thump).map(|(a, b)| a + b).collect();
            let signal = note(&fit, fs, 0.4, &extra);
            let start = onset(&signal).unwrap();
            let total: f64 = signal[start..start + len]
                .iter()
                .map(|&s| f64::from(s).powi(2))
                .sum();
            let (below_hz, top_hz) = (0.8 * fit.partial_hz(1), ATTACK_TOP_HZ);
            let white_energy = energy(&white);
            let between = white_energy * 2.0 * (top_hz - below_hz) / fs;
            let below = energy(&thump) + white_energy * 2.0 * below_hz / fs;
            let measured = attack_noise(&signal, fs, &fit).unwrap();
            let db = |e: f64| 10.0 * (e / total).log10();
            assert!(
                (measured.between_db - db(between)).abs() < 1.0,
                "noise {noise_level}: {measured:?}, made {:.2} dB",
                db(between)
            );
            assert!(
                (measured.below_db - db(below)).abs() < 1.0,
                "noise {noise_level}: {measured:?}, made {:.2} dB",
                db(below)
            );
        }
    }

    /// A steady hum under the fundamental (60 Hz, on a bin of the window)
    /// reads the same a second later, within 1 dB: it is a floor, not the
    /// attack's. A thump that lasts only the first 50 ms is gone a second
    /// later, by more than 30 dB. A signal that ends before has no later
    /// figure.
    #[test]
    fn a_steady_floor_reads_the_same_a_second_later() {
        let fs = 48_000.0;
        let fit = StiffFit {
            f0_hz: 250.0,
            b: 3e-4,
        };
        let seconds = 1.2;
        let frames = (seconds * fs) as usize;
        let attack = (ATTACK_SPAN_S * fs) as usize;
        let hum: Vec<f64> = (0..frames)
            .map(|i| 0.01 * (2.0 * PI * 60.0 * i as f64 / fs).sin())
            .collect();
        let thump: Vec<f64> = (0..frames)
            .map(|i| {
                let gate = if i < attack { 1.0 } else { 0.0 };
                gate * 0.05 * (2.0 * PI * 100.0 * i as f64 / fs).sin()
            })
            .collect();
        let floor = attack_noise(&note_lasting(&fit, fs, 2.0, &hum, seconds), fs, &fit).unwrap();
        let later = floor.below_later_db.unwrap();
        assert!((later - floor.below_db).abs() < 1.0, "{floor:?}");
        let blow = attack_noise(&note_lasting(&fit, fs, 2.0, &thump, seconds), fs, &fit).unwrap();
        assert!(
            blow.below_later_db.unwrap() < blow.below_db - 30.0,
            "{blow:?}"
        );
        let short = attack_noise(&note(&fit, fs, 2.0, &thump), fs, &fit).unwrap();
        assert_eq!(short.below_later_db, None);
    }

    /// Partials too close together for the window, silence, and a signal
    /// shorter than the window have no figure.
    #[test]
    fn too_low_a_note_or_too_short_a_signal_has_no_figure() {
        let fs = 48_000.0;
        let low = StiffFit {
            f0_hz: 27.5,
            b: 1e-5,
        };
        assert_eq!(attack_noise(&note(&low, fs, 8.0, &[]), fs, &low), None);
        let fit = StiffFit {
            f0_hz: 250.0,
            b: 3e-4,
        };
        assert_eq!(attack_noise(&[0.0; 48_000], fs, &fit), None);
        let short = note(&fit, fs, 1.0, &[]);
        assert_eq!(attack_noise(&short[..1500], fs, &fit), None);
    }
}
