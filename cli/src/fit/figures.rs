//! The figures `orchard fit` matches, measured as `orchard compare` measures
//! them ([`NoteMeasures`]): the early and late T60 of the broadband level,
//! the spectral centroid of the first 0.3 s, the levels of partials 2 to
//! 10 relative to the first over the first second, and the decay time of
//! each of partials 1 to 10 on its own; and how far a render's
//! figures lie from a recording's, each in units of the tolerance the
//! calibration aims at, widened at each key to how far the recording's own
//! two channels lie apart on that figure ([`Tolerances`]).

use crate::audio_file::MonoAudio;
use crate::compare::{NoteMeasures, PairSpread, late_t60_over, partial_decay_ratio};

/// The partials whose levels relative to the first are matched.
pub const LEVEL_PARTIALS: std::ops::RangeInclusive<u32> = 2..=10;
/// The decay times aimed at: within this factor of the recording's.
pub const T60_TOLERANCE: f64 = 1.3;
/// The centroid aimed at: within this factor of the recording's.
pub const CENTROID_TOLERANCE: f64 = 1.15;
/// The partial levels aimed at: within this of the recording's, dB.
pub const LEVEL_TOLERANCE_DB: f64 = 4.0;
/// How close a render's figures are aimed at a recording's, each a factor
/// (the decay times and the centroid) or a difference in dB (the partial
/// levels).
///
/// Two microphones over one piano do not agree on every figure (a board's
/// transfer swings from place to place by several dB from partial to
/// partial, and with it the centroid and the decay of the sum): a figure
/// on which the recording's own left and right channels lie further apart
/// than the aim is matched only within that spread, so that the fit does
/// not chase where a microphone stood.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerances {
    /// Early T60, a factor.
    pub early_t60: f64,
    /// Late T60, a factor.
    pub late_t60: f64,
    /// Centroid, a factor.
    pub centroid: f64,
    /// Levels of partials 2 to 10 relative to the first, dB.
    pub levels_db: f64,
    /// The T60 of each partial, a factor.
    pub partial_t60: f64,
}

impl Tolerances {
    /// What the calibration aims at where a recording's channels agree.
    pub const AIMED: Self = Self {
        early_t60: T60_TOLERANCE,
        late_t60: T60_TOLERANCE,
        centroid: CENTROID_TOLERANCE,
        levels_db: LEVEL_TOLERANCE_DB,
        partial_t60: T60_TOLERANCE,
    };

    /// [`Tolerances::AIMED`], each widened to how far the two channels of
    /// a stereo recording lie apart on its figure (`spread`; none for a
    /// mono recording): the larger over the smaller of the two channels'
    /// values, the mean absolute difference of their partial levels, and
    /// the geometric mean of their partials' T60s' ratios.
    pub fn widened_to(spread: Option<&PairSpread>) -> Self {
        let aimed = Self::AIMED;
        let Some(spread) = spread else {
            return aimed;
        };
        let apart = |left: Option<f64>, right: Option<f64>| match (left, right) {
            (Some(l), Some(r)) if l > 0.0 && r > 0.0 => l.max(r) / l.min(r),
            _ => 1.0,
        };
        let (left, right) = (&spread.left, &spread.right);
        Self {
            early_t60: aimed
                .early_t60
                .max(apart(left.decay.early_t60_s, right.decay.early_t60_s)),
            late_t60: aimed
                .late_t60
                .max(apart(left.decay.late_t60_s, right.decay.late_t60_s)),
            centroid: aimed
                .centroid
                .max(apart(left.centroid_hz, right.centroid_hz)),
            levels_db: aimed
                .levels_db
                .max(spread.levels.map_or(0.0, |d| d.mean_abs_db)),
            partial_t60: aimed
                .partial_t60
                .max(spread.partial_decay.map_or(1.0, |(r, _)| r.max(1.0 / r))),
        }
    }
}

/// What a figure the recording has and the render lacks (a decay that
/// never reaches its stage, a partial not found) counts for, in tolerances.
const MISSING: f64 = 5.0;

/// The figures of one note.
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    /// Early T60, s.
    pub early_t60_s: Option<f64>,
    /// Late T60, s (a render's over the recording's length from the onset).
    pub late_t60_s: Option<f64>,
    /// Spectral centroid of the first 0.3 s from the onset, Hz.
    pub centroid_hz: Option<f64>,
    /// Levels of partials 2 to 10 relative to the first, dB.
    pub levels_db: Vec<Option<f64>>,
    /// T60 of each of partials 1 to 10, s (a render's over the
    /// recording's length from the onset).
    pub partial_t60s_s: Vec<Option<f64>>,
}

impl Figures {
    /// The figures of a recording `audio` measured as `measures`.
    pub fn of_recording(audio: &MonoAudio, measures: &NoteMeasures) -> Self {
        Self::with(
            measures,
            measures.decay.late_t60_s,
            measures.partial_t60s_over(audio, measures.from_onset_s),
        )
    }

    /// The figures of a render `audio` measured as `measures`, its late T60
    /// over the first `recording_s` (s) from its onset as the recording's is.
    pub fn of_render(audio: &MonoAudio, measures: &NoteMeasures, recording_s: f64) -> Self {
        Self::with(
            measures,
            late_t60_over(audio, recording_s),
            measures.partial_t60s_over(audio, recording_s),
        )
    }

    fn with(
        measures: &NoteMeasures,
        late_t60_s: Option<f64>,
        partial_t60s_s: Vec<Option<f64>>,
    ) -> Self {
        Self {
            early_t60_s: measures.decay.early_t60_s,
            late_t60_s,
            centroid_hz: measures.centroid_hz,
            levels_db: LEVEL_PARTIALS.map(|n| measures.level_db(n)).collect(),
            partial_t60s_s,
        }
    }
}

/// How far a render's figures lie from a recording's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Residuals {
    /// Render's early T60 over the recording's.
    pub early_ratio: Option<f64>,
    /// Render's late T60 over the recording's.
    pub late_ratio: Option<f64>,
    /// Render's centroid over the recording's.
    pub centroid_ratio: Option<f64>,
    /// Mean of the render's partial levels minus the recording's over the
    /// partials both have, dB.
    pub levels_mean_db: Option<f64>,
    /// Mean absolute difference of those levels, dB.
    pub levels_mean_abs_db: Option<f64>,
    /// Render's partials' T60s over the recording's, the geometric mean
    /// over the partials both have.
    pub partial_decay_ratio: Option<f64>,
    /// The cost the search minimises: the mean square of each figure's
    /// miss in units of its tolerance (a ratio's logarithm over the
    /// tolerance's; the partial levels together weigh as one figure, and
    /// the partials' decay times together as another).
    pub cost: f64,
}

impl Residuals {
    /// The residuals of `render` against `recording`, each figure's miss in
    /// units of its `tolerances`. Figures the recording lacks are not
    /// matched; figures the render lacks count as a miss of five
    /// tolerances.
    pub fn between(render: &Figures, recording: &Figures, tolerances: &Tolerances) -> Self {
        let ratio = |ours: Option<f64>, theirs: Option<f64>| Some(ours? / theirs?);
        let mut misses = Vec::new();
        let mut miss = |ours: Option<f64>, theirs: Option<f64>, tolerance: f64| {
            if theirs.is_some() {
                misses.push(ratio(ours, theirs).map_or(MISSING, |r| r.ln() / tolerance.ln()));
            }
        };
        miss(
            render.early_t60_s,
            recording.early_t60_s,
            tolerances.early_t60,
        );
        miss(render.late_t60_s, recording.late_t60_s, tolerances.late_t60);
        miss(
            render.centroid_hz,
            recording.centroid_hz,
            tolerances.centroid,
        );
        let mut differences = Vec::new();
        let mut level_misses = Vec::new();
        for (ours, theirs) in render.levels_db.iter().zip(&recording.levels_db) {
            match (ours, theirs) {
                (Some(ours), Some(theirs)) => {
                    differences.push(ours - theirs);
                    level_misses.push((ours - theirs) / tolerances.levels_db);
                }
                (None, Some(_)) => level_misses.push(MISSING),
                _ => {}
            }
        }
        let mean = |values: &[f64]| {
            (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
        };
        let mut decay_misses = Vec::new();
        for (ours, theirs) in render.partial_t60s_s.iter().zip(&recording.partial_t60s_s) {
            if theirs.is_some() {
                decay_misses.push(
                    ratio(*ours, *theirs).map_or(MISSING, |r| r.ln() / tolerances.partial_t60.ln()),
                );
            }
        }
        let squares = |misses: &[f64]| misses.iter().map(|m| m * m).collect::<Vec<f64>>();
        let mut terms = squares(&misses);
        terms.extend(mean(&squares(&level_misses)));
        terms.extend(mean(&squares(&decay_misses)));
        let abs: Vec<f64> = differences.iter().map(|d| d.abs()).collect();
        Self {
            early_ratio: ratio(render.early_t60_s, recording.early_t60_s),
            late_ratio: ratio(render.late_t60_s, recording.late_t60_s),
            centroid_ratio: ratio(render.centroid_hz, recording.centroid_hz),
            levels_mean_db: mean(&differences),
            levels_mean_abs_db: mean(&abs),
            partial_decay_ratio: partial_decay_ratio(
                &render.partial_t60s_s,
                &recording.partial_t60s_s,
            )
            .map(|(r, _)| r),
            cost: mean(&terms).unwrap_or(0.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(early: f64, late: Option<f64>, centroid: f64, levels: &[f64]) -> Figures {
        Figures {
            early_t60_s: Some(early),
            late_t60_s: late,
            centroid_hz: Some(centroid),
            levels_db: levels.iter().map(|&l| Some(l)).collect(),
            partial_t60s_s: Vec::new(),
        }
    }

    /// The partials' decay times weigh as one figure: every partial off by
    /// the tolerance costs what one broadband T60 off by it does, and their
    /// ratio is the geometric mean.
    #[test]
    fn the_partials_decay_times_weigh_as_one_figure() {
        let mut recording = figures(2.0, None, 500.0, &[]);
        recording.partial_t60s_s = vec![Some(4.0), Some(2.0), None];
        let mut render = recording.clone();
        render.partial_t60s_s = vec![Some(4.0 * 1.3), Some(2.0 / 1.3), Some(1.0)];
        let r = Residuals::between(&render, &recording, &Tolerances::AIMED);
        // Early and centroid 0, the decays 1: the mean of three.
        assert!((r.cost - 1.0 / 3.0).abs() < 1e-9, "{r:?}");
        assert!((r.partial_decay_ratio.unwrap() - 1.0).abs() < 1e-12);
        render.partial_t60s_s[1] = None;
        let missed = Residuals::between(&render, &recording, &Tolerances::AIMED);
        // The decays: (1 + 25) / 2.
        assert!((missed.cost - 13.0 / 3.0).abs() < 1e-9, "{missed:?}");
    }

    /// A mono recording, or one whose channels agree, is aimed at as the
    /// calibration aims; a figure on which the channels lie further apart
    /// than that is aimed at within their spread, and a miss of that much
    /// costs what a miss of the aim does.
    #[test]
    fn tolerances_widen_to_how_far_the_channels_lie_apart() {
        let rate = 48_000.0;
        // Ten partials at 220 Hz decaying together; `upper` scales 2 to 10.
        let note = |upper: f64| -> Vec<f32> {
            (0..(3.0 * rate) as usize)
                .map(|i| {
                    let t = i as f64 / rate;
                    let sum: f64 = (1..=10)
                        .map(|n| {
                            let gain = if n == 1 { 1.0 } else { upper };
                            let n = f64::from(n);
                            gain / n * (2.0 * std::f64::consts::PI * n * 220.0 * t).sin()
                        })
                        .sum();
                    (0.05 * sum * (-t).exp()) as f32
                })
                .collect()
        };
        let stereo = |left: Vec<f32>, right: Vec<f32>| MonoAudio::of_pair(left, right, rate);
        assert_eq!(Tolerances::widened_to(None), Tolerances::AIMED);
        let alike = PairSpread::of(&stereo(note(1.0), note(1.0)), 220.0);
        assert_eq!(Tolerances::widened_to(alike.as_ref()), Tolerances::AIMED);
        // The left channel's partials 2-10 are 12 dB up: its centroid too.
        let apart = PairSpread::of(&stereo(note(4.0), note(1.0)), 220.0);
        let widened = Tolerances::widened_to(apart.as_ref());
        assert!((widened.levels_db - 12.04).abs() < 0.1, "{widened:?}");
        assert!(widened.centroid > 1.5, "{widened:?}");
        assert_eq!(widened.early_t60, T60_TOLERANCE);
        let recording = figures(2.0, None, 500.0, &[-6.0, -10.0]);
        let render = figures(2.0, None, 500.0, &[-6.0 + widened.levels_db, -10.0]);
        let r = Residuals::between(&render, &recording, &widened);
        // Early and centroid 0; the levels (1 + 0) / 2: the mean of three.
        assert!((r.cost - 0.5 / 3.0).abs() < 1e-9, "{r:?}");
    }

    #[test]
    fn a_miss_of_one_tolerance_in_each_figure_costs_one() {
        let recording = figures(2.0, Some(10.0), 500.0, &[-6.0, -10.0]);
        let render = figures(2.6, Some(10.0 / 1.3), 575.0, &[-2.0, -14.0]);
        let r = Residuals::between(&render, &recording, &Tolerances::AIMED);
        assert!((r.cost - 1.0).abs() < 1e-9, "{r:?}");
        assert!((r.early_ratio.unwrap() - 1.3).abs() < 1e-12);
        assert_eq!(r.levels_mean_db, Some(0.0));
        assert_eq!(r.levels_mean_abs_db, Some(4.0));
        assert_eq!(
            Residuals::between(&recording, &recording, &Tolerances::AIMED).cost,
            0.0
        );
    }

    #[test]
    fn what_the_recording_lacks_is_not_matched_and_what_the_render_lacks_costs() {
        let recording = figures(2.0, None, 500.0, &[-6.0]);
        let render = figures(2.0, Some(3.0), 500.0, &[-6.0]);
        let matched = Residuals::between(&render, &recording, &Tolerances::AIMED);
        assert_eq!((matched.cost, matched.late_ratio), (0.0, None));

        let recording = figures(2.0, Some(9.0), 500.0, &[-6.0, -8.0]);
        let mut render = figures(2.0, None, 500.0, &[-6.0, -8.0]);
        render.levels_db[1] = None;
        let missed = Residuals::between(&render, &recording, &Tolerances::AIMED);
        // Late: 25; levels: (0 + 25) / 2; early and centroid 0: mean of four.
        assert!(
            (missed.cost - (25.0 + 12.5) / 4.0).abs() < 1e-9,
            "{missed:?}"
        );
        assert_eq!(missed.levels_mean_db, Some(0.0));
    }
}
