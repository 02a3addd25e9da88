//! Dips in a partial's decay: where its level falls below its smooth decay
//! and comes back, as when two strings of a unison beat against each other.
//! Beating between equal amplitudes nulls the partial; a real grand's
//! partials show shallow, irregular dips.

use super::decay::LevelTrack;
use super::fit::fit_line;
use super::onset::from_onset;
use super::spectrum::amplitude_at;

/// Shortest frame a partial's level is measured over, s.
pub const DIP_FRAME_S: f64 = 0.05;
/// A frame holds at least this many periods of the first partial, so that
/// neighbouring partials are told apart.
pub const DIP_FRAME_PERIODS: f64 = 6.0;
/// Frames start this far apart, s.
pub const DIP_HOP_S: f64 = 0.01;
/// A dip is measured against the level this long on either side of it, s:
/// beats up to twice as slow are seen at their full depth.
pub const DIP_SIDE_S: f64 = 1.5;
/// Only levels within this many dB of the partial's peak serve as the
/// reference a dip is measured against (below, a recording's noise floor
/// has dips of its own).
pub const DIP_RANGE_DB: f64 = 40.0;

/// The decay that brings the level after a frame back to it is fitted over
/// this many times [`DIP_SIDE_S`] after the frame (or to the track's end):
/// over two beats or more, a beat's own rise and fall hardly tilt it.
const DECAY_FIT_SIDES: f64 = 2.0;

/// A frame counts only where its reference stands at least this many dB
/// above the noise beside the partial (so that the noise's own dips are not
/// read as the partial's: a dip is then credible to about this depth).
pub const DIP_CLEAR_DB: f64 = 20.0;

/// The deepest dip of a partial's level below its smooth decay.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dip {
    /// How far the level falls below its smooth decay there, dB (0 or
    /// negative).
    pub depth_db: f64,
    /// When, s from the start of the track.
    pub time_s: f64,
}

/// The level of the sinusoid at `frequency_hz` (Hz) in `signal` (sampled at
/// `sample_rate`, Hz), frame by frame: Hann-windowed frames of `frame_s` (s)
/// every `hop_s` (s), each read by [`amplitude_at`] (a band about `2 /
/// frame_s` wide either side of the frequency), in dB re full scale 1 at the
/// frame's centre (s from the start of `signal`).
///
/// Allocates: the track and one frame.
pub fn partial_track(
    signal: &[f32],
    sample_rate: f64,
    frequency_hz: f64,
    frame_s: f64,
    hop_s: f64,
) -> LevelTrack {
    let frame = ((frame_s * sample_rate).round() as usize).max(4);
    let hop = ((hop_s * sample_rate).round() as usize).max(1);
    let mut track = LevelTrack::default();
    let mut samples = Vec::with_capacity(frame);
    for (i, chunk) in signal.windows(frame).step_by(hop).enumerate() {
        samples.clear();
        samples.extend(chunk.iter().map(|&s| f64::from(s)));
        let centre_s = (i * hop) as f64 / sample_rate + 0.5 * frame as f64 / sample_rate;
        track.push(centre_s, amplitude_at(&samples, sample_rate, frequency_hz));
    }
    track
}

/// The deepest dip of `track` below its smooth decay, from its loudest
/// frame on. At each frame the smooth decay is the lower of two references:
/// the highest level in the [`DIP_SIDE_S`] before it, and the highest level
/// in the [`DIP_SIDE_S`] after it brought back to the frame along the decay
/// after it (a straight line in dB fitted over twice that span, taken flat
/// if it rises). Only frames within [`DIP_RANGE_DB`] of the peak serve as
/// references or in the fit (so a beat whose troughs fall below that range
/// reads a little shallower), and a frame is left out unless there are such
/// frames before it and for at least half of [`DIP_SIDE_S`] after it: a
/// partial that fades into the noise, or into nothing, or the track's end,
/// is not a dip. A frame's dip is its level less the reference; a level that
/// only falls (at whatever changing rate) has almost none, and the trough of
/// a beat between partials of amplitudes `a > b` lies `20·log10((a − b)/(a +
/// b))` below its crests. `None` for an empty track or one without such a
/// frame. With a `noise` track (the level beside the partial, frame by frame
/// as `track`), a frame counts only where its reference lies at least
/// [`DIP_CLEAR_DB`] above the mean (in dB) of the noise within
/// [`DIP_SIDE_S`] of it.
pub fn deepest_dip(track: &LevelTrack, noise: Option<&LevelTrack>) -> Option<Dip> {
    let levels = &track.levels_db;
    let times = &track.times_s;
    let (peak_at, &peak) = levels
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))?;
    let audible = |k: &usize| levels[*k] >= peak - DIP_RANGE_DB;
    let mut deepest: Option<Dip> = None;
    for i in peak_at..levels.len() {
        let t = times[i];
        let before = (peak_at..=i)
            .rev()
            .take_while(|&j| t - times[j] <= DIP_SIDE_S)
            .filter(audible)
            .map(|j| levels[j])
            .fold(f64::NEG_INFINITY, f64::max);
        let after = |span_s: f64| {
            (i..levels.len())
                .take_while(move |&k| times[k] - t <= span_s)
                .filter(audible)
        };
        let slope = fit_line(after(DECAY_FIT_SIDES * DIP_SIDE_S).map(|k| (times[k], levels[k])))
            .map_or(0.0, |line| line.slope.min(0.0));
        let audible_after_s = after(DIP_SIDE_S).last().map_or(0.0, |k| times[k] - t);
        let after = after(DIP_SIDE_S)
            .map(|k| levels[k] - slope * (times[k] - t))
            .fold(f64::NEG_INFINITY, f64::max);
        let reference = before.min(after);
        let noise_db = noise.map_or(f64::NEG_INFINITY, |noise| {
            let near: Vec<f64> = (0..noise.levels_db.len().min(levels.len()))
                .filter(|&k| (times[k] - t).abs() <= DIP_SIDE_S)
                .map(|k| noise.levels_db[k])
                .collect();
            near.iter().sum::<f64>() / near.len().max(1) as f64
        });
        if reference < noise_db + DIP_CLEAR_DB {
            continue;
        }
        if reference == f64::NEG_INFINITY || audible_after_s < 0.5 * DIP_SIDE_S {
            continue;
        }
        let depth_db = levels[i] - reference;
        if deepest.is_none_or(|d| depth_db < d.depth_db) {
            deepest = Some(Dip {
                depth_db,
                time_s: t,
            });
        }
    }
    deepest
}

/// The deepest dip ([`deepest_dip`]) of each partial at `frequencies_hz`
/// (Hz) of the note heard on `channels` (each sampled at `sample_rate`, Hz,
/// from its own [`onset`](super::onset); several channels' tracks averaged in power),
/// whose first partial is at `first_hz` (Hz): each tracked by
/// [`partial_track`] over frames of [`DIP_FRAME_S`] or
/// [`DIP_FRAME_PERIODS`] periods of the first partial, whichever is longer,
/// every [`DIP_HOP_S`], against the noise tracked alike half way to the
/// next partial (`hz + first_hz / 2`). Times are from the onset. Empty for a
/// silent signal.
///
/// Allocates: the tracks.
pub fn partial_dips(
    channels: &[&[f32]],
    sample_rate: f64,
    first_hz: f64,
    frequencies_hz: &[f64],
) -> Vec<Option<Dip>> {
    let Some(track) = note_tracks(channels, sample_rate, first_hz) else {
        return Vec::new();
    };
    frequencies_hz
        .iter()
        .map(|&hz| deepest_dip(&track(hz), Some(&track(hz + 0.5 * first_hz))))
        .collect()
}

/// How a note's partials are tracked: the note heard on `channels` (each
/// sampled at `sample_rate`, Hz, from its own [`onset`](super::onset)), whose first
/// partial is at `first_hz` (Hz), by [`partial_track`] at any frequency
/// over frames of [`DIP_FRAME_S`] or [`DIP_FRAME_PERIODS`] periods of the
/// first partial, whichever is longer, every [`DIP_HOP_S`]; several
/// channels' tracks averaged in power ([`LevelTrack::power_mean`]). `None`
/// for silent channels.
pub(super) fn note_tracks<'a>(
    channels: &'a [&'a [f32]],
    sample_rate: f64,
    first_hz: f64,
) -> Option<impl Fn(f64) -> LevelTrack + 'a> {
    let heard: Vec<&[f32]> = channels.iter().filter_map(|c| from_onset(c)).collect();
    if heard.is_empty() {
        return None;
    }
    let frame_s = DIP_FRAME_S.max(DIP_FRAME_PERIODS / first_hz);
    Some(move |hz: f64| {
        let tracks: Vec<LevelTrack> = heard
            .iter()
            .map(|c| partial_track(c, sample_rate, hz, frame_s, DIP_HOP_S))
            .collect();
        LevelTrack::power_mean(&tracks)
    })
}

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use super::*;

    /// Sinusoids `(Hz, amplitude)` decaying together at `db_at(t)` dB, for
    /// `seconds` at `fs` Hz.
    fn decaying(
        parts: &[(f64, f64)],
        db_at: impl Fn(f64) -> f64,
        fs: f64,
        seconds: f64,
    ) -> Vec<f32> {
        (0..(seconds * fs) as usize)
            .map(|i| {
                let t = i as f64 / fs;
                let tone: f64 = parts
                    .iter()
                    .map(|&(hz, a)| a * (2.0 * PI * hz * t).sin())
                    .sum();
                (tone * 10f64.powf(db_at(t) / 20.0)) as f32
            })
            .collect()
    }

    /// Two sines 0.7 Hz apart (a beat every 1.4 s), decaying at 5 dB/s:
    /// amplitudes 1 and ½ dip 20·log10(½ / 1½) = −9.5 dB below their crests,
    /// 1 and 0.9 dip −25.6 dB, equal ones deeper than −35 dB.
    #[test]
    fn a_beat_dips_as_deep_as_its_amplitudes_say() {
        let fs = 16_000.0;
        for (b, expected) in [(0.5, -9.54), (0.9, -25.58)] {
            let signal = decaying(&[(440.0, 0.3), (440.7, 0.3 * b)], |t| -5.0 * t, fs, 6.0);
            let dips = partial_dips(&[&signal[..]], fs, 440.0, &[440.35]);
            let dip = dips[0].unwrap();
            assert!(
                (dip.depth_db - expected).abs() < 1.0,
                "b = {b}: {dip:?}, made {expected} dB"
            );
        }
        let equal = decaying(&[(440.0, 0.3), (440.7, 0.3)], |t| -5.0 * t, fs, 6.0);
        let dip = partial_dips(&[&equal[..]], fs, 440.0, &[440.35])[0].unwrap();
        assert!(dip.depth_db < -35.0, "{dip:?}");
        // Beat nulls come every 1/0.7 s from 0.714 s on.
        let from_null = ((dip.time_s - 0.714) * 0.7).fract();
        assert!(!(0.05..=0.95).contains(&from_null), "{dip:?}");
    }

    /// One partial decaying in two stages (60 dB/s for its first 15 dB, then
    /// 6 dB/s) beside a steady neighbour a fifth above: no dip deeper than
    /// 1.5 dB. The neighbour is not heard in the partial's band.
    #[test]
    fn a_smooth_two_stage_decay_has_no_dip() {
        let fs = 16_000.0;
        let bend_s = 0.25;
        let db_at = |t: f64| {
            if t < bend_s {
                -60.0 * t
            } else {
                -15.0 - 6.0 * (t - bend_s)
            }
        };
        let mut signal = decaying(&[(220.0, 0.3)], db_at, fs, 5.0);
        for (i, s) in signal.iter_mut().enumerate() {
            *s += (0.05 * (2.0 * PI * 330.0 * i as f64 / fs).sin()) as f32;
        }
        let dip = partial_dips(&[&signal[..]], fs, 110.0, &[220.0])[0].unwrap();
        assert!(dip.depth_db > -1.5, "{dip:?}");
        assert!(partial_dips(&[&[0.0; 1000]], fs, 110.0, &[220.0]).is_empty());
        // Cut to silence after 2 s: fading into nothing is no dip.
        for s in &mut signal[2 * fs as usize..] {
            *s = 0.0;
        }
        let dip = partial_dips(&[&signal[..]], fs, 110.0, &[220.0])[0].unwrap();
        assert!(dip.depth_db > -1.5, "{dip:?}");
    }

    /// A partial decaying at 10 dB/s into white noise that reads about 35 dB
    /// below its start in a frame's band: where the noise lies within 20 dB
    /// of it, the noise's own dips do not count; without the noise track
    /// they read as deep dips (deeper than 10 dB).
    #[test]
    fn the_noise_floor_is_not_a_dip() {
        let fs = 16_000.0;
        let mut signal = decaying(&[(220.0, 0.3)], |t| -10.0 * t, fs, 8.0);
        let mut state = 1u64;
        for s in &mut signal {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let uniform = (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
            *s += (0.22 * uniform) as f32;
        }
        // Noise 20 dB down still moves the level by a few dB.
        let dip = partial_dips(&[&signal[..]], fs, 110.0, &[220.0])[0].unwrap();
        assert!(dip.depth_db > -5.0, "{dip:?}");
        let start = crate::analysis::onset(&signal).unwrap();
        let track = partial_track(&signal[start..], fs, 220.0, 0.0545, DIP_HOP_S);
        let unguarded = deepest_dip(&track, None).unwrap();
        assert!(unguarded.depth_db < -10.0, "{unguarded:?}");
    }
}
