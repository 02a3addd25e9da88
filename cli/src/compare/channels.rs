//! A note heard on two channels, measured without mixing them.
//!
//! A spaced pair of microphones hears each partial with its own phase (each
//! partial's path to each microphone is its own, several wavelengths long
//! above a few hundred hertz). Their mono mix cancels a partial that the two
//! hear out of phase, though neither microphone, nor a listener between
//! the loudspeakers, loses it: measured on the mix, a stereo render's or
//! recording's fundamental can fall 20 dB or more, and every figure taken
//! against it follows. So each figure of a stereo sound is taken on each
//! channel on its own (from that channel's onset) and the two are averaged
//! in power: partial levels, the broadband and partials' level tracks, the
//! centroid and the attack's noise. A mono sound is its one channel.

use orchard_engine::analysis::{
    ATTACK_SPAN_S, AttackNoise, StiffFit, attack_noise, centroid_first, from_onset,
};

use crate::audio_file::MonoAudio;

/// The channels `audio` is measured on: a stereo sound's two, else its one.
pub fn channels(audio: &MonoAudio) -> Vec<&[f32]> {
    match &audio.stereo {
        Some(stereo) => vec![&stereo.left, &stereo.right],
        None => vec![&audio.signal],
    }
}

/// Each channel of `channels` from its own onset for at most `seconds` (s)
/// at `sample_rate` (Hz) ([`first_seconds`]); silent channels are left out.
pub fn from_onsets<'a>(channels: &[&'a [f32]], sample_rate: f64, seconds: f64) -> Vec<&'a [f32]> {
    channels
        .iter()
        .filter_map(|c| first_seconds(c, sample_rate, seconds))
        .collect()
}

/// `channel` from its onset for at most `seconds` (s) at `sample_rate`
/// (Hz); `None` if it is silent.
fn first_seconds(channel: &[f32], sample_rate: f64, seconds: f64) -> Option<&[f32]> {
    let heard = from_onset(channel)?;
    let span = (seconds.max(0.0) * sample_rate).round() as usize;
    Some(&heard[..span.min(heard.len())])
}

/// The power spectral centroid (Hz) of the first `seconds` (s) from the
/// onset of the note heard on `channels` (sampled at `sample_rate`, Hz):
/// each channel's centroid ([`centroid_first`]) weighted by its energy over
/// that span.
pub fn centroid_heard(channels: &[&[f32]], sample_rate: f64, seconds: f64) -> Option<f64> {
    let [centroid] = energy_weighted(channels, sample_rate, seconds, |i| {
        Some([centroid_first(channels[i], sample_rate, seconds)?])
    })?;
    Some(centroid)
}

/// The energy between the partials and below the first in the attack of
/// the note heard on `channels` (sampled at `sample_rate`, Hz; see
/// [`attack_noise`]), each figure the power mean over the channels weighted
/// by each channel's energy over the attack, dB re all of it.
pub fn attack_heard(channels: &[&[f32]], sample_rate: f64, fit: &StiffFit) -> Option<AttackNoise> {
    let power = |db: f64| 10f64.powf(db / 10.0);
    let noises: Vec<Option<AttackNoise>> = channels
        .iter()
        .map(|c| attack_noise(c, sample_rate, fit))
        .collect();
    let [between, below] = energy_weighted(channels, sample_rate, ATTACK_SPAN_S, |i| {
        let noise = noises[i]?;
        Some([power(noise.between_db), power(noise.below_db)])
    })?;
    let db = |p: f64| 10.0 * p.max(f64::MIN_POSITIVE).log10();
    // Channels whose signal ends before the later window are left out.
    let later = energy_weighted(channels, sample_rate, ATTACK_SPAN_S, |i| {
        Some([power(noises[i]?.below_later_db?)])
    });
    Some(AttackNoise {
        between_db: db(between),
        below_db: db(below),
        below_later_db: later.map(|[p]| db(p)),
    })
}

/// The mean of the `N` figures `figures` gives for each channel (by its
/// index in `channels`), each channel weighted by its energy over the first
/// `seconds` (s) from its onset; channels without the figures or without
/// energy are left out.
fn energy_weighted<const N: usize>(
    channels: &[&[f32]],
    sample_rate: f64,
    seconds: f64,
    figures: impl Fn(usize) -> Option<[f64; N]>,
) -> Option<[f64; N]> {
    let (mut weighted, mut total) = ([0.0; N], 0.0);
    for (index, &channel) in channels.iter().enumerate() {
        let Some(span) = first_seconds(channel, sample_rate, seconds) else {
            continue;
        };
        let energy: f64 = span.iter().map(|&s| f64::from(s) * f64::from(s)).sum();
        if let Some(values) = figures(index).filter(|_| energy > 0.0) {
            for (sum, value) in weighted.iter_mut().zip(values) {
                *sum += energy * value;
            }
            total += energy;
        }
    }
    (total > 0.0).then(|| weighted.map(|sum| sum / total))
}

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use super::*;
    use crate::compare::NoteMeasures;

    const RATE: f64 = 48_000.0;

    /// `amplitude·sin(2π·hz·t)` for `seconds`, decaying at 3 dB/s.
    fn tone(hz: f64, amplitude: f64, seconds: f64) -> Vec<f64> {
        (0..(seconds * RATE) as usize)
            .map(|i| {
                let t = i as f64 / RATE;
                amplitude * (2.0 * PI * hz * t).sin() * 10f64.powf(-3.0 * t / 20.0)
            })
            .collect()
    }

    /// A centroid heard on two channels weights each by its energy: two
    /// equally loud tones average their frequencies, a silent channel
    /// counts for nothing.
    #[test]
    fn the_centroid_weights_each_channel_by_its_energy() {
        let low: Vec<f32> = tone(500.0, 0.5, 1.0).iter().map(|&x| x as f32).collect();
        let high: Vec<f32> = tone(2000.0, 0.5, 1.0).iter().map(|&x| x as f32).collect();
        let silent = vec![0.0f32; low.len()];
        let both = centroid_heard(&[&low, &high], RATE, 0.3).unwrap();
        assert!((both - 1250.0).abs() < 15.0, "{both}");
        let one = centroid_heard(&[&low, &silent], RATE, 0.3).unwrap();
        let alone = centroid_first(&low, RATE, 0.3).unwrap();
        assert!((one - alone).abs() < 1e-9, "{one} against {alone}");
    }

    /// A note whose fundamental the right microphone hears inverted: on
    /// their mix it falls 20 dB and more, heard on both channels its
    /// partials stand as on each channel, and its decay is the channels'.
    #[test]
    fn a_stereo_note_is_measured_on_both_channels() {
        let f0 = 220.0;
        let partials = |sign: f64| -> Vec<f32> {
            let mut note = vec![0.0; (3.0 * RATE) as usize];
            for n in 1..=8 {
                let gain = if n == 1 { sign } else { 1.0 };
                for (x, p) in note
                    .iter_mut()
                    .zip(tone(f0 * f64::from(n), 0.1 / f64::from(n), 3.0))
                {
                    *x += gain * p;
                }
            }
            note.iter().map(|&x| x as f32).collect()
        };
        let audio = MonoAudio::of_pair(partials(1.0), partials(-1.0), RATE);
        let heard = NoteMeasures::of(&audio, f0).unwrap();
        let left = NoteMeasures::of(&MonoAudio::of_channel(partials(1.0), RATE), f0).unwrap();
        for n in 2..=8 {
            let (both, one) = (heard.level_db(n).unwrap(), left.level_db(n).unwrap());
            assert!(
                (both - one).abs() < 0.1,
                "partial {n}: {both} against {one}"
            );
        }
        let mixed =
            NoteMeasures::of(&MonoAudio::of_channel(audio.signal.clone(), RATE), f0).unwrap();
        assert!(
            mixed.level_db(2).is_none_or(|db| db > 20.0),
            "the mix lost its fundamental: {:?}",
            mixed.level_db(2)
        );
        let (both, one) = (heard.decay.early_t60_s, left.decay.early_t60_s);
        assert!(
            (both.unwrap() / one.unwrap() - 1.0).abs() < 0.02,
            "{both:?} against {one:?}"
        );
    }
}
