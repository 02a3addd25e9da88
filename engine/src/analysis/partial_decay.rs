//! How fast each partial of a note dies: the decay time of one partial's
//! level, where a string's losses show (Bensa et al., "The simulation of
//! piano string vibration", 2003: a partial of wavenumber `k` decays at
//! `σ = b1 + b2·k²`), which the broadband decay ([`super::two_stage_decay`])
//! averages away behind the loudest partials.
//!
//! The strings of a unison beat, and a partial's level swings by tens of
//! decibels over a beat; its power averaged over a whole beat does not
//! (the beat's cross term averages out) and falls as the strings' decay
//! does. So the decay is read on the partial's power averaged over
//! [`BEAT_SPAN_S`] either side of each frame (which follows a steady decay
//! exactly), fitted with a straight line in dB from a span after the peak
//! down to [`PARTIAL_DECAY_DB`] under the averaged peak (for at most
//! [`PARTIAL_DECAY_SPAN_S`]).

use super::decay::LevelTrack;
use super::dips::note_tracks;
use super::fit::fit_line;

/// A partial's decay is followed down to this many dB under its peak.
pub const PARTIAL_DECAY_DB: f64 = 20.0;
/// ...and for at most this long after it, s.
pub const PARTIAL_DECAY_SPAN_S: f64 = 4.0;
/// A partial's power is averaged over this long either side of each
/// frame, s: a beat of twice this period or faster averages out.
pub const BEAT_SPAN_S: f64 = 1.0;
/// The partial's peak must stand this many dB over the noise beside it
/// (so that the last 10 dB of its followed decay still do).
const CLEAR_OF_NOISE_DB: f64 = PARTIAL_DECAY_DB + 10.0;
/// Fewest frames a partial's decay is fitted to.
const MIN_FRAMES: usize = 10;

/// The T60 (s) of each partial at `frequencies_hz` (Hz) of the note heard
/// on `channels` (each sampled at `sample_rate`, Hz, from its own
/// [`onset`](super::onset); several channels' tracks averaged in power),
/// whose first
/// partial is at `first_hz` (Hz): each tracked as [`super::partial_dips`]
/// tracks it, and timed by [`track_t60`]. `None` for a partial that does
/// not stand [`PARTIAL_DECAY_DB`] + 10 dB over the noise half way to the
/// next partial, or does not fall; empty for a silent signal.
///
/// Allocates: the tracks.
pub fn partial_t60s(
    channels: &[&[f32]],
    sample_rate: f64,
    first_hz: f64,
    frequencies_hz: &[f64],
) -> Vec<Option<f64>> {
    let Some(track) = note_tracks(channels, sample_rate, first_hz) else {
        return Vec::new();
    };
    frequencies_hz
        .iter()
        .map(|&hz| {
            let partial = track(hz);
            let noise = track(hz + 0.5 * first_hz);
            let peak = partial.levels_db.iter().copied().fold(f64::MIN, f64::max);
            let floor = noise.levels_db.iter().sum::<f64>() / noise.levels_db.len().max(1) as f64;
            if peak < floor + CLEAR_OF_NOISE_DB {
                return None;
            }
            track_t60(&partial)
        })
        .collect()
}

/// The T60 (s) of a level `track`: 60 dB over the fall per second of the
/// line fitted to its power averaged over [`BEAT_SPAN_S`] either side of
/// each frame, from a span after the loudest frame (where the average
/// starts to fall) to the last frame within [`PARTIAL_DECAY_DB`] of the
/// average's peak and [`PARTIAL_DECAY_SPAN_S`] after the start. `None` with
/// fewer than ten such frames or a level that does not fall.
pub fn track_t60(track: &LevelTrack) -> Option<f64> {
    let levels = &track.levels_db;
    let times = &track.times_s;
    let peak_at = levels
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))?
        .0;
    let averaged = |i: usize| {
        let near = |j: &usize| (times[*j] - times[i]).abs() <= BEAT_SPAN_S;
        let from = (0..=i).rev().take_while(near).last().unwrap_or(i);
        let to = (i..levels.len()).take_while(near).last().unwrap_or(i);
        let power: f64 = levels[from..=to]
            .iter()
            .map(|db| 10f64.powf(db / 10.0))
            .sum();
        10.0 * (power / (to + 1 - from) as f64).log10()
    };
    let first = (peak_at..levels.len()).find(|&i| times[i] - times[peak_at] >= BEAT_SPAN_S)?;
    let smooth: Vec<(f64, f64)> = (first..levels.len())
        .take_while(|&i| times[i] - times[first] <= PARTIAL_DECAY_SPAN_S)
        .map(|i| (times[i], averaged(i)))
        .collect();
    let top = smooth.iter().map(|&(_, db)| db).fold(f64::MIN, f64::max);
    let last = smooth
        .iter()
        .rposition(|&(_, db)| db >= top - PARTIAL_DECAY_DB)?;
    if last + 1 < MIN_FRAMES {
        return None;
    }
    let line = fit_line(smooth[..=last].iter().copied())?;
    (line.slope < 0.0).then(|| -60.0 / line.slope)
}

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use super::*;

    /// Partials `(Hz, amplitude, T60 s)` of a note `seconds` long at `fs`.
    fn note(parts: &[(f64, f64, f64)], fs: f64, seconds: f64) -> Vec<f32> {
        (0..(seconds * fs) as usize)
            .map(|i| {
                let t = i as f64 / fs;
                parts
                    .iter()
                    .map(|&(hz, a, t60)| a * 10f64.powf(-3.0 * t / t60) * (2.0 * PI * hz * t).sin())
                    .sum::<f64>() as f32
            })
            .collect()
    }

    /// Each partial's own decay is read, within 5 %, whatever the others
    /// do: 4 s, 1.5 s and 0.6 s at 220, 440 and 660 Hz.
    #[test]
    fn each_partial_is_timed_alone() {
        let fs = 16_000.0;
        let signal = note(
            &[(220.0, 0.5, 4.0), (440.0, 0.3, 1.5), (660.0, 0.2, 0.6)],
            fs,
            5.0,
        );
        let t60s = partial_t60s(&[&signal[..]], fs, 220.0, &[220.0, 440.0, 660.0]);
        for (t60, expected) in t60s.iter().zip([4.0, 1.5, 0.6]) {
            let t60 = t60.unwrap();
            assert!(
                (t60 / expected - 1.0).abs() < 0.05,
                "{t60} s, made {expected} s"
            );
        }
    }

    /// A partial whose two strings beat (0.5 Hz apart, amplitudes 1 and
    /// 0.8: troughs 19 dB deep every 2 s) is timed by its decay of 10 s,
    /// within 10 %, not by the fall into its first null (which alone reads
    /// 3.6 s).
    #[test]
    fn a_beating_partial_is_timed_through_its_beats() {
        let fs = 16_000.0;
        let signal = note(&[(440.0, 0.3, 10.0), (440.5, 0.24, 10.0)], fs, 8.0);
        let t60 = partial_t60s(&[&signal[..]], fs, 440.0, &[440.25])[0].unwrap();
        assert!((t60 / 10.0 - 1.0).abs() < 0.1, "{t60} s");
    }

    /// A partial lost in the noise has no decay time, and silence none at
    /// all.
    #[test]
    fn noise_and_silence_give_nothing() {
        let fs = 16_000.0;
        let mut state = 1u32;
        let signal: Vec<f32> = note(&[(440.0, 0.3, 2.0)], fs, 3.0)
            .iter()
            .map(|&s| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                s + 0.05 * (f64::from(state) / f64::from(u32::MAX) - 0.5) as f32
            })
            .collect();
        // The fundamental stands clear; a partial at 880 Hz was never there.
        let t60s = partial_t60s(&[&signal[..]], fs, 440.0, &[440.0, 880.0]);
        assert!(t60s[0].is_some() && t60s[1].is_none(), "{t60s:?}");
        assert!(partial_t60s(&[&[0.0; 16_000]], fs, 440.0, &[440.0]).is_empty());
    }
}
