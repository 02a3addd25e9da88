//! Decay times of a piano tone. A struck string's sound falls in two stages:
//! a fast prompt sound while the strings' vertical motion drains into the
//! bridge, then a slow aftersound. Each stage's 60 dB decay time (T60) comes
//! from a straight line fitted to the level in dB.
//!
//! [`two_stage_decay`] measures a whole note as the recordings of a real
//! grand are measured (`docs/reference-measurements.md`): the broadband level
//! in 50 ms RMS windows; the early T60 extrapolated from the first 10 dB of
//! decay below the peak; the late T60 from 15 to 45 dB below the peak, or
//! from 15 dB below it to the end of the signal. On those recordings it gives
//! the reference's table (C4: 2.0 s early, 15 s late).

use super::fit::fit_line;
use super::onset::from_onset;

/// Length of the RMS windows of the broadband level, s (one after the other,
/// not overlapping).
pub const LEVEL_WINDOW_S: f64 = 0.05;
/// The prompt sound: from the peak level down to this many dB below it.
pub const EARLY_SPAN_DB: f64 = 10.0;
/// The aftersound starts where the level first falls this many dB below the
/// peak.
pub const LATE_FROM_DB: f64 = 15.0;
/// The aftersound ends where the level first falls this many dB below the
/// peak (or at the end of the signal).
pub const LATE_TO_DB: f64 = 45.0;
/// Fewest frames a stage needs for a decay time.
const MIN_FRAMES: usize = 3;

/// A level over time, in dB, frame by frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LevelTrack {
    /// Centre of each frame, s.
    pub times_s: Vec<f64>,
    /// Level of each frame, dB (any reference).
    pub levels_db: Vec<f64>,
}

/// Decay times of the two stages, s (`None` when the signal does not contain
/// enough of a stage, or the level does not fall).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TwoStageDecay {
    /// T60 of the prompt sound, s.
    pub early_t60_s: Option<f64>,
    /// T60 of the aftersound, s.
    pub late_t60_s: Option<f64>,
}

/// The two decay times of the note in `signal` (sampled at `sample_rate`,
/// Hz), measured on its broadband level from its [`onset`](super::onset) ([`level_track`])
/// as [`LevelTrack::two_stage_decay`] describes. Both `None` for a silent
/// signal.
///
/// Allocates: the level track.
pub fn two_stage_decay(signal: &[f32], sample_rate: f64) -> TwoStageDecay {
    from_onset(signal).map_or_else(TwoStageDecay::default, |heard| {
        level_track(heard, sample_rate).two_stage_decay()
    })
}

/// The broadband level of `signal` (sampled at `sample_rate`, Hz): the RMS of
/// consecutive windows [`LEVEL_WINDOW_S`] long, in dB re full scale 1, each
/// at the time of its centre (s from the start of `signal`). Only whole
/// windows count; a signal shorter than one window has no frames.
///
/// Allocates: the track.
pub fn level_track(signal: &[f32], sample_rate: f64) -> LevelTrack {
    let window = ((LEVEL_WINDOW_S * sample_rate).round() as usize).max(1);
    let mut track = LevelTrack::default();
    for (i, frame) in signal.chunks_exact(window).enumerate() {
        let centre_s = (i as f64 + 0.5) * window as f64 / sample_rate;
        track.push(centre_s, super::rms(frame));
    }
    track
}

/// The two-stage decay ([`LevelTrack::two_stage_decay`]) of a note heard
/// on `channels` (each sampled at `sample_rate`, Hz, from its own
/// [`onset`](super::onset)): their levels averaged in power frame by frame
/// ([`LevelTrack::power_mean`]), so that what a mix of them would cancel
/// (a partial the channels hear out of phase) still counts. One channel
/// gives [`two_stage_decay`]'s result.
pub fn two_stage_decay_heard(channels: &[&[f32]], sample_rate: f64) -> TwoStageDecay {
    let tracks: Vec<LevelTrack> = channels
        .iter()
        .filter_map(|c| Some(level_track(from_onset(c)?, sample_rate)))
        .collect();
    LevelTrack::power_mean(&tracks).two_stage_decay()
}

impl LevelTrack {
    /// The power mean of `tracks` frame by frame, `10·log10(Σ 10^(Lᵢ/10)/n)`
    /// dB, over the frames all of them have, at the first's times (tracks
    /// framed alike). Empty without tracks.
    pub fn power_mean(tracks: &[LevelTrack]) -> LevelTrack {
        let first = match tracks {
            [] => return LevelTrack::default(),
            [one] => return one.clone(),
            [first, ..] => first,
        };
        let frames = tracks.iter().map(|t| t.levels_db.len()).min().unwrap_or(0);
        let count = tracks.len() as f64;
        LevelTrack {
            times_s: first.times_s[..frames].to_vec(),
            levels_db: (0..frames)
                .map(|i| {
                    let power: f64 = tracks
                        .iter()
                        .map(|t| 10f64.powf(t.levels_db[i] / 10.0))
                        .sum();
                    10.0 * (power / count).max(f64::MIN_POSITIVE).log10()
                })
                .collect(),
        }
    }

    /// Adds one frame at `time_s` (s) of amplitude `amplitude` (linear; 0 or
    /// less reads as the smallest positive level).
    pub fn push(&mut self, time_s: f64, amplitude: f64) {
        self.times_s.push(time_s);
        self.levels_db
            .push(20.0 * amplitude.max(f64::MIN_POSITIVE).log10());
    }

    /// The decay times: the early stage fitted to the frames from the loudest
    /// one to the first that lies more than [`EARLY_SPAN_DB`] below it (that
    /// one included); the late stage to the frames from where the level first
    /// falls more than [`LATE_FROM_DB`] below the peak until it first falls
    /// more than [`LATE_TO_DB`] below it, or to the last frame.
    pub fn two_stage_decay(&self) -> TwoStageDecay {
        let Some((peak_at, &peak)) = self
            .levels_db
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
        else {
            return TwoStageDecay::default();
        };
        let below = |db: f64, from: usize| {
            (from..self.levels_db.len())
                .find(|&i| self.levels_db[i] < peak - db)
                .unwrap_or(self.levels_db.len())
        };
        let knee = below(EARLY_SPAN_DB, peak_at);
        let late_from = below(LATE_FROM_DB, peak_at);
        let late_to = below(LATE_TO_DB, late_from);
        TwoStageDecay {
            early_t60_s: self.t60(peak_at, (knee + 1).min(self.levels_db.len())),
            late_t60_s: self.t60(late_from, late_to),
        }
    }

    /// T60 of frames `from..to`, s: 60 dB over the fitted fall per second.
    fn t60(&self, from: usize, to: usize) -> Option<f64> {
        if to < from + MIN_FRAMES {
            return None;
        }
        let points = (from..to).map(|i| (self.times_s[i], self.levels_db[i]));
        let line = fit_line(points)?;
        (line.slope < 0.0).then(|| -60.0 / line.slope)
    }
}

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use super::*;

    /// A level falling `early_db_s` dB/s until `knee_db` below its start, then
    /// `late_db_s` dB/s, frame by frame every 10 ms for `seconds`.
    fn bent_track(early_db_s: f64, knee_db: f64, late_db_s: f64, seconds: f64) -> LevelTrack {
        let knee_s = knee_db / early_db_s;
        let mut track = LevelTrack::default();
        for i in 0..(seconds * 100.0) as usize {
            let t = i as f64 * 0.01;
            let db = if t < knee_s {
                -early_db_s * t
            } else {
                -knee_db - late_db_s * (t - knee_s)
            };
            track.push(t, 10f64.powf(db / 20.0));
        }
        track
    }

    /// Tracks averaged in power: two alike give themselves, one silent
    /// halves the other's power (−3 dB), and only frames all tracks have
    /// count.
    #[test]
    fn tracks_average_in_power() {
        let loud = bent_track(20.0, 10.0, 5.0, 2.0);
        let alike = LevelTrack::power_mean(&[loud.clone(), loud.clone()]);
        for (a, b) in alike.levels_db.iter().zip(&loud.levels_db) {
            assert!((a - b).abs() < 1e-9, "{a} against {b}");
        }
        let mut silent = bent_track(20.0, 10.0, 5.0, 1.0);
        silent.levels_db.iter_mut().for_each(|db| *db = -400.0);
        let half = LevelTrack::power_mean(&[loud.clone(), silent.clone()]);
        assert_eq!(half.levels_db.len(), silent.levels_db.len());
        for (a, b) in half.levels_db.iter().zip(&loud.levels_db) {
            assert!(
                (a - (b - 10.0 * 2f64.log10())).abs() < 1e-9,
                "{a} against {b}"
            );
        }
        assert!(LevelTrack::power_mean(&[]).levels_db.is_empty());
    }

    #[test]
    fn two_slopes_are_told_apart() {
        // 60 dB/s down to -12 dB, then 6 dB/s: T60s of 1 s and 10 s. The late
        // fit starts at -15 dB, past the bend, so it sees only the slow slope.
        let decay = bent_track(60.0, 12.0, 6.0, 6.0).two_stage_decay();
        let early = decay.early_t60_s.unwrap();
        let late = decay.late_t60_s.unwrap();
        assert!((early - 1.0).abs() < 1e-6, "{early}");
        assert!((late - 10.0).abs() < 1e-6, "{late}");
    }

    /// The late stage stops at -45 dB: a faster fall beyond it is not seen.
    #[test]
    fn the_late_stage_ends_45_db_below_the_peak() {
        // 60 dB/s to -12 dB, 20 dB/s to -50 dB, then 100 dB/s: the late fit
        // sees only 20 dB/s (T60 3 s).
        let mut track = bent_track(60.0, 12.0, 20.0, 5.0);
        for (t, db) in track.times_s.iter().zip(&mut track.levels_db) {
            // -50 dB is reached at 0.2 s + 38 dB / (20 dB/s) = 2.1 s.
            *db -= 80.0 * (t - 2.1).max(0.0);
        }
        let decay = track.two_stage_decay();
        let late = decay.late_t60_s.unwrap();
        assert!((late - 3.0).abs() < 1e-6, "{late}");
        // A level that never reaches -45 dB is fitted to the end.
        let short = bent_track(60.0, 12.0, 20.0, 1.5);
        assert!(*short.levels_db.last().unwrap() > -45.0);
        let late = short.two_stage_decay().late_t60_s.unwrap();
        assert!((late - 3.0).abs() < 1e-6, "{late}");
    }

    #[test]
    fn rising_or_short_tracks_have_no_decay_time() {
        let mut track = LevelTrack::default();
        for i in 0..10 {
            track.push(f64::from(i), f64::from(i + 1));
        }
        assert_eq!(track.two_stage_decay(), TwoStageDecay::default());
        assert_eq!(
            two_stage_decay(&[0.5; 100], 48_000.0),
            TwoStageDecay::default()
        );
    }

    /// A 440 Hz tone decaying with T60 0.8 s for 0.25 s (15 dB), then with
    /// T60 6 s: the 50 ms RMS level gives both within 3 %.
    #[test]
    fn a_signal_with_two_stage_decay_is_measured() {
        let fs = 48_000.0;
        let (early, late, bend_s) = (0.8, 6.0, 0.2);
        let db_at = |t: f64| {
            if t < bend_s {
                -60.0 * t / early
            } else {
                -60.0 * bend_s / early - 60.0 * (t - bend_s) / late
            }
        };
        let signal: Vec<f32> = (0..(5.0 * fs) as usize)
            .map(|i| {
                let t = i as f64 / fs;
                (10f64.powf(db_at(t) / 20.0) * (2.0 * PI * 440.0 * t).sin()) as f32
            })
            .collect();
        let decay = two_stage_decay(&signal, fs);
        let measured_early = decay.early_t60_s.unwrap();
        let measured_late = decay.late_t60_s.unwrap();
        assert!((measured_early / early - 1.0).abs() < 0.03, "{decay:?}");
        assert!((measured_late / late - 1.0).abs() < 0.03, "{decay:?}");
        let track = level_track(&signal, fs);
        assert_eq!(track.times_s.len(), 100);
        assert!((track.times_s[0] - 0.025).abs() < 1e-12);
        // A sinusoid's RMS is its amplitude over √2: -3 dB.
        assert!((track.levels_db[0] - (db_at(0.025) - 3.01)).abs() < 0.2);
    }
}
