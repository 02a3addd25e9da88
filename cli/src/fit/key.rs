//! One key fitted: its parameters searched in log space ([`Search`]) for
//! the render whose figures best match the recording's, each candidate
//! rendered exactly as `orchard compare --keyboard` plays the key.

use orchard_engine::instrument::Preset;

use super::figures::{Figures, Residuals};
use super::parameters::{Parameter, Placed};
use super::simplex::Search;
use crate::audio_file::MonoAudio;
use crate::compare::NoteMeasures;
use crate::note;

/// The initial simplex's edge along each coordinate: a factor of this (or
/// a quarter of the span between the bounds, if less).
const FIRST_STEP_FACTOR: f64 = 2.0;
/// The search stops once its points agree within this factor.
const AGREEMENT_FACTOR: f64 = 1.002;

/// Significant figures of a fitted value (the search resolves a factor of
/// [`AGREEMENT_FACTOR`]).
const FIGURES: i32 = 4;

/// How each key is played: as `compare --keyboard` plays it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Play {
    /// MIDI velocity, 1 to 127.
    pub velocity: u8,
    /// How long the key is held and rendered, s.
    pub duration_s: f64,
    /// Sample rate, Hz.
    pub sample_rate: u32,
}

/// A key's recording, measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    /// Its length from the onset, s.
    pub from_onset_s: f64,
    /// Its figures.
    pub figures: Figures,
}

impl Recorded {
    /// The recording measured as `measures`.
    pub fn of(measures: &NoteMeasures) -> Self {
        Self {
            from_onset_s: measures.from_onset_s,
            figures: Figures::of_recording(measures),
        }
    }
}

/// A render's figures and how far they lie from the recording's.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The render's figures.
    pub figures: Figures,
    /// Their residuals against the recording's.
    pub residuals: Residuals,
}

/// What fitting one key found.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyFit {
    /// The MIDI key.
    pub key: u8,
    /// The parameters at the key, with their values in the preset and bounds.
    pub placed: Vec<Placed>,
    /// The fitted value of each, in the order of `placed`.
    pub fitted: Vec<f64>,
    /// The recording's figures.
    pub recording: Figures,
    /// The preset's render before the fit.
    pub before: Outcome,
    /// The render with the fitted values.
    pub after: Outcome,
    /// How many renders the search made.
    pub renders: usize,
}

/// Fits `parameters` at `key` of `preset` to `recorded`, rendering each
/// candidate as `play` says: at most `budget` renders in the search (the
/// preset as it is among them when it lies within the bounds), and one of
/// the fitted values at the end. Errors are one line:
/// a parameter the preset lacks, or a render that fails from the start.
pub fn fit_key(
    preset: &Preset,
    key: u8,
    parameters: &[Parameter],
    recorded: &Recorded,
    play: Play,
    budget: usize,
) -> Result<KeyFit, String> {
    let placed = parameters
        .iter()
        .map(|p| p.at(preset, key))
        .collect::<Result<Vec<_>, _>>()?;
    // The outcome of `values` at the paths of `placed` (none: the preset).
    let outcome = |values: &[f64]| -> Result<Outcome, String> {
        let candidate = with_values(preset, &placed, values)?;
        let figures = render_figures(&candidate, key, play, recorded.from_onset_s)?;
        let residuals = Residuals::between(&figures, &recorded.figures);
        Ok(Outcome { figures, residuals })
    };
    // The preset as it is, which may lie outside the bounds: the search
    // then starts on the nearest bound.
    let before = outcome(&[])?;
    let start: Vec<f64> = placed
        .iter()
        .map(|p| p.preset_value.clamp(p.bounds.0, p.bounds.1))
        .collect();
    let inside = placed.iter().zip(&start).all(|(p, &s)| p.preset_value == s);
    let search = Search {
        start: start.iter().map(|v| v.ln()).collect(),
        start_value: inside.then_some(before.residuals.cost),
        bounds: placed
            .iter()
            .map(|p| (p.bounds.0.ln(), p.bounds.1.ln()))
            .collect(),
        steps: placed
            .iter()
            .map(|p| {
                FIRST_STEP_FACTOR
                    .ln()
                    .min((p.bounds.1 / p.bounds.0).ln() / 4.0)
            })
            .collect(),
        budget: budget.max(1),
        tolerance: AGREEMENT_FACTOR.ln(),
    };
    let found = search.minimize(|logs| {
        // A candidate that cannot be played is the worst there is.
        outcome(&values_of(&placed, logs)).map_or(f64::NAN, |o| o.residuals.cost)
    });
    // Written with as many figures as the search resolves.
    let fitted: Vec<f64> = values_of(&placed, &found.point)
        .into_iter()
        .zip(&placed)
        .map(|(v, p)| round_significant(v, FIGURES).clamp(p.bounds.0, p.bounds.1))
        .collect();
    let after = outcome(&fitted)?;
    Ok(KeyFit {
        key,
        placed,
        fitted,
        recording: recorded.figures.clone(),
        before,
        after,
        renders: found.evaluations,
    })
}

/// `value` rounded to `figures` significant figures.
pub fn round_significant(value: f64, figures: i32) -> f64 {
    if value == 0.0 || !value.is_finite() {
        return value;
    }
    // Powers of ten are exact as divisors and multipliers, their
    // reciprocals are not.
    let decimals = figures - 1 - value.abs().log10().floor() as i32;
    if decimals >= 0 {
        let scale = 10f64.powi(decimals);
        (value * scale).round() / scale
    } else {
        let scale = 10f64.powi(-decimals);
        (value / scale).round() * scale
    }
}

/// The values whose logarithms are `logs`, each within its bounds (which
/// rounding might cross by an ulp).
fn values_of(placed: &[Placed], logs: &[f64]) -> Vec<f64> {
    placed
        .iter()
        .zip(logs)
        .map(|(p, l)| l.exp().clamp(p.bounds.0, p.bounds.1))
        .collect()
}

/// `preset` with `values` set at the paths of `placed` (which adds anchors
/// at the key where it had none).
pub fn with_values(preset: &Preset, placed: &[Placed], values: &[f64]) -> Result<Preset, String> {
    let mut changed = preset.clone();
    for (p, &value) in placed.iter().zip(values) {
        changed.set(&p.path, value).map_err(|e| e.to_string())?;
    }
    Ok(changed)
}

/// The figures of `key` played on `preset` as `play` says, its late T60
/// measured over the first `recording_s` (s) from the onset.
fn render_figures(
    preset: &Preset,
    key: u8,
    play: Play,
    recording_s: f64,
) -> Result<Figures, String> {
    let recording = note::play(
        preset,
        key,
        play.velocity,
        play.duration_s,
        play.sample_rate,
    )?;
    let audio = MonoAudio {
        signal: recording.signal,
        sample_rate: recording.sample_rate,
        stereo: Some(recording.stereo),
    };
    let measures = NoteMeasures::of(&audio, preset.fundamental_hz(key))
        .ok_or_else(|| format!("key {key} made no sound"))?;
    Ok(Figures::of_render(&audio, &measures, recording_s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_rounded_to_significant_figures() {
        assert_eq!(round_significant(0.475_269_261, 4), 0.4753);
        assert_eq!(round_significant(8_445_123_456.0, 4), 8.445e9);
        assert_eq!(round_significant(2.700_04e-4, 4), 2.7e-4);
        assert_eq!(round_significant(-1234.5, 2), -1200.0);
        assert_eq!(round_significant(0.0, 4), 0.0);
    }
}
