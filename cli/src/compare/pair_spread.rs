//! How far a stereo recording's two microphones differ on the figures
//! `compare` measures: the same note of the same piano, heard from two
//! places, measured channel by channel.
//!
//! A board's and a room's transfer from the strings to a microphone swings
//! by several decibels from one partial to the next and from one place to
//! the next (the modes of the board and the room overlap, and each place
//! hears each partial with its own phase). A render and a recording can
//! agree no better on a figure than the recording's own two channels agree
//! with each other, unless the render stands where the recording's
//! microphones stood, over a board with the same modes: the spread between
//! the channels is the floor under every comparison of that figure.

use orchard_engine::analysis::LevelDifference;

use super::measures::{DECAY_PARTIALS, NoteMeasures, partial_decay_ratio};
use crate::audio_file::MonoAudio;

/// One recording's left channel against its right, on the figures the
/// keyboard comparison gives.
#[derive(Debug, Clone, PartialEq)]
pub struct PairSpread {
    /// The left channel's measures.
    pub left: NoteMeasures,
    /// The right channel's measures.
    pub right: NoteMeasures,
    /// Partials 2–10 relative to the fundamental, left − right.
    pub levels: Option<LevelDifference>,
    /// Partials 1–[`DECAY_PARTIALS`] timed on each channel over its whole
    /// length: the geometric mean of left over right, and how many both
    /// have.
    pub partial_decay: Option<(f64, usize)>,
}

impl PairSpread {
    /// Measures each channel of `audio` (a two-channel recording of the note
    /// whose first partial is near `first_hz`, Hz) on its own. `None` for a
    /// recording of one channel, or one whose channel is silent.
    pub fn of(audio: &MonoAudio, first_hz: f64) -> Option<Self> {
        let stereo = audio.stereo.as_ref()?;
        let channel = |signal: &[f32]| MonoAudio::of_channel(signal.to_vec(), audio.sample_rate);
        let (left_audio, right_audio) = (channel(&stereo.left), channel(&stereo.right));
        let left = NoteMeasures::of(&left_audio, first_hz)?;
        let right = NoteMeasures::of(&right_audio, first_hz)?;
        let timed = |m: &NoteMeasures, a: &MonoAudio| m.partial_t60s_over(a, m.from_onset_s);
        let partial_decay =
            partial_decay_ratio(&timed(&left, &left_audio), &timed(&right, &right_audio));
        Some(Self {
            levels: left.levels_against(&right),
            partial_decay,
            left,
            right,
        })
    }
}

/// The legend of the pair's table.
pub fn legend() -> String {
    format!(
        "The recording against itself: its left microphone against its right, each channel \
         measured on its own as above (partials 2–10 relative to partial 1, left − right; \
         partials 1-{DECAY_PARTIALS} timed, left over right; the energy between the partials and \
         below the first in the first 50 ms, left / right). Two microphones over one piano \
         differ this much on each figure: a render that does not stand where they stood, over \
         the same board, can come no closer than this."
    )
}

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use super::*;

    /// A decaying note of ten partials at `f0` (Hz), 3 s at 48 kHz, with
    /// partial 2's amplitude times `second`.
    fn note(f0: f64, second: f64) -> Vec<f32> {
        let rate = 48_000.0;
        (0..(3.0 * rate) as usize)
            .map(|i| {
                let t = i as f64 / rate;
                let sum: f64 = (1..=10)
                    .map(|n| {
                        let gain = if n == 2 { second } else { 1.0 };
                        let n = f64::from(n);
                        gain / n * (2.0 * PI * n * f0 * t).sin() * (-t * (0.5 + 0.2 * n)).exp()
                    })
                    .sum();
                (0.1 * sum) as f32
            })
            .collect()
    }

    fn stereo(left: Vec<f32>, right: Vec<f32>) -> MonoAudio {
        MonoAudio::of_pair(left, right, 48_000.0)
    }

    /// Two channels alike do not differ; a channel whose second partial is
    /// 6 dB stronger differs by 6 dB in that partial alone (6/9 dB over
    /// partials 2–10), and by nothing in its decay.
    #[test]
    fn the_spread_is_the_difference_between_the_channels() {
        let f0 = 220.0;
        let alike = PairSpread::of(&stereo(note(f0, 1.0), note(f0, 1.0)), f0).unwrap();
        let levels = alike.levels.unwrap();
        assert!(levels.mean_abs_db < 1e-9, "{levels:?}");
        assert_eq!(levels.compared, 9);
        let (ratio, timed) = alike.partial_decay.unwrap();
        assert!(
            (ratio - 1.0).abs() < 1e-9 && timed >= 8,
            "{ratio} over {timed}"
        );

        let louder = PairSpread::of(&stereo(note(f0, 2.0), note(f0, 1.0)), f0).unwrap();
        let levels = louder.levels.unwrap();
        let six = 20.0 * 2f64.log10() / 9.0;
        assert!((levels.mean_db - six).abs() < 0.1, "{levels:?}");
        assert!((levels.mean_abs_db - six).abs() < 0.1, "{levels:?}");
        let (ratio, _) = louder.partial_decay.unwrap();
        assert!((ratio - 1.0).abs() < 0.03, "{ratio}");
    }

    /// A recording of one channel has no pair to compare.
    #[test]
    fn a_mono_recording_has_no_spread() {
        let mono = MonoAudio::of_channel(note(220.0, 1.0), 48_000.0);
        assert_eq!(PairSpread::of(&mono, 220.0), None);
    }
}
