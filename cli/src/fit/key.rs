//! One fit: parameters at anchor keys searched in log space ([`Search`])
//! for the renders whose figures best match the recordings of the keys
//! matched, each candidate rendered exactly as `orchard compare --keyboard`
//! plays the key. A key fitted on its own is its own anchor; keys fitted
//! jointly share anchors, between which the preset interpolates, so that
//! what is fitted varies smoothly along the keyboard.

use orchard_engine::instrument::Preset;

use super::figures::{Figures, Residuals, Tolerances};
use super::parameters::{Parameter, Placed};
use super::simplex::Search;
use crate::audio_file::MonoAudio;
use crate::compare::{NoteMeasures, PairSpread, in_parallel};
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
    /// How closely a render's figures are aimed at them: widened to how
    /// far the recording's two channels lie apart.
    pub tolerances: Tolerances,
}

impl Recorded {
    /// The recording `audio` of the note whose first partial is near
    /// `first_hz` (Hz), measured as `measures`.
    pub fn of(audio: &MonoAudio, measures: &NoteMeasures, first_hz: f64) -> Self {
        Self {
            from_onset_s: measures.from_onset_s,
            figures: Figures::of_recording(audio, measures),
            tolerances: Tolerances::widened_to(PairSpread::of(audio, first_hz).as_ref()),
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

/// A recorded key the fit matches, and how its renders came out.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyOutcome {
    /// The MIDI key.
    pub key: u8,
    /// The recording's figures.
    pub recording: Figures,
    /// How closely they were aimed at.
    pub tolerances: Tolerances,
    /// The preset's render before the fit.
    pub before: Outcome,
    /// The render with the fitted values.
    pub after: Outcome,
}

/// What one fit found.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// The keys whose anchors hold the fitted values, low to high.
    pub anchors: Vec<u8>,
    /// Each parameter at each anchor (anchor by anchor), with its value in
    /// the preset and its bounds.
    pub placed: Vec<Placed>,
    /// The fitted value of each, in the order of `placed`.
    pub fitted: Vec<f64>,
    /// The keys matched, in the order given.
    pub keys: Vec<KeyOutcome>,
    /// The mean cost over the keys before the fit.
    pub cost_before: f64,
    /// The mean cost over the keys after the fit.
    pub cost_after: f64,
    /// How many candidates the search rendered (each at every key).
    pub renders: usize,
}

/// Fits `parameters` at the `anchors` of `preset` to the `recorded` keys,
/// rendering each candidate at every key as `play` says (in parallel) and
/// minimising the mean of their costs: at most `budget` candidates in the
/// search (the preset as it is among them when it lies within the bounds),
/// and one of the fitted values at the end. Errors are one line: a
/// parameter the preset lacks, or a render that fails from the start.
pub fn fit(
    preset: &Preset,
    anchors: &[u8],
    recorded: &[(u8, Recorded)],
    parameters: &[Parameter],
    play: Play,
    budget: usize,
) -> Result<Fit, String> {
    let placed = anchors
        .iter()
        .flat_map(|&anchor| parameters.iter().map(move |p| p.at(preset, anchor)))
        .collect::<Result<Vec<_>, _>>()?;
    let keys: Vec<u8> = recorded.iter().map(|(key, _)| *key).collect();
    // The outcome at every key of `values` at the paths of `placed` (none:
    // the preset).
    let outcomes = |values: &[f64]| -> Result<Vec<Outcome>, String> {
        let candidate = with_values(preset, &placed, values)?;
        let play_key = |key: u8| {
            let (_, recording) = recorded
                .iter()
                .find(|(k, _)| *k == key)
                .expect("a key recorded");
            let figures = render_figures(&candidate, key, play, recording.from_onset_s)?;
            let residuals = Residuals::between(&figures, &recording.figures, &recording.tolerances);
            Ok(Outcome { figures, residuals })
        };
        if let [key] = keys[..] {
            Ok(vec![play_key(key)?])
        } else {
            in_parallel(&keys, play_key).into_iter().collect()
        }
    };
    let mean_cost = |outcomes: &[Outcome]| {
        outcomes.iter().map(|o| o.residuals.cost).sum::<f64>() / outcomes.len().max(1) as f64
    };
    // The preset as it is, which may lie outside the bounds: the search
    // then starts on the nearest bound.
    let before = outcomes(&[])?;
    let start: Vec<f64> = placed
        .iter()
        .map(|p| p.preset_value.clamp(p.bounds.0, p.bounds.1))
        .collect();
    let inside = placed.iter().zip(&start).all(|(p, &s)| p.preset_value == s);
    let search = Search {
        start: start.iter().map(|v| v.ln()).collect(),
        start_value: inside.then_some(mean_cost(&before)),
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
        outcomes(&values_of(&placed, logs)).map_or(f64::NAN, |o| mean_cost(&o))
    });
    // Written with as many figures as the search resolves.
    let fitted: Vec<f64> = values_of(&placed, &found.point)
        .into_iter()
        .zip(&placed)
        .map(|(v, p)| round_significant(v, FIGURES).clamp(p.bounds.0, p.bounds.1))
        .collect();
    let after = outcomes(&fitted)?;
    Ok(Fit {
        anchors: anchors.to_vec(),
        placed,
        fitted,
        cost_before: mean_cost(&before),
        cost_after: mean_cost(&after),
        keys: recorded
            .iter()
            .zip(before.into_iter().zip(after))
            .map(|((key, recording), (before, after))| KeyOutcome {
                key: *key,
                recording: recording.figures.clone(),
                tolerances: recording.tolerances,
                before,
                after,
            })
            .collect(),
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
