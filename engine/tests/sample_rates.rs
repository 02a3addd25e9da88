//! The grand piano at every sample rate a host may ask for, 1 kHz to 2 MHz:
//! every key whose fundamental the rate can carry sounds at the pitch it has
//! at 48 kHz, every other key stays silent, and the output stays finite.

use orchard_engine::analysis::{onset, peak, peak_frequency};
use orchard_engine::rt::{MIN_INTERNAL_RATE_HZ, PASSBAND_EDGE, Score, Synth, SynthEvent};

mod support;
use support::grand_at_bridge;

/// A0, C4, A4, C6, A7, C8.
const KEYS: [u8; 6] = [21, 60, 69, 84, 105, 108];

/// `key` struck at velocity 100 on a fresh grand at `rate` Hz, `seconds`
/// long, played in blocks of 333 frames. Its unisons are tuned alike: a
/// cluster of strings a tuner left a fraction of a cent apart has no pitch
/// to a cent over half a second, at any rate.
fn strike(rate: f64, key: u8, seconds: f64) -> (Synth, Vec<f32>) {
    let mut preset = grand_at_bridge();
    preset.tune_unisons_alike();
    let mut synth = Synth::new(&preset, rate).expect("every rate builds");
    synth.note_on(key, 100.0 / 127.0);
    let frames = (seconds * rate) as usize;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    for (l, r) in left.chunks_mut(333).zip(right.chunks_mut(333)) {
        synth.process(l, r);
    }
    (synth, left)
}

fn nominal_hz(key: u8) -> f64 {
    440.0 * 2f64.powf((f64::from(key) - 69.0) / 12.0)
}

/// The strongest frequency within a semitone of `key`'s nominal pitch, from
/// 0.1 s after the strike on.
fn pitch(signal: &[f32], rate: f64, key: u8) -> f64 {
    let f = nominal_hz(key);
    let from = (0.1 * rate) as usize;
    peak_frequency(&signal[from..], rate, f / 1.06, f * 1.06).expect("a pitch")
}

fn cents(f: f64, reference: f64) -> f64 {
    1200.0 * (f / reference).log2()
}

#[test]
fn every_rate_plays_each_key_it_can_carry_in_tune_and_no_other() {
    let seconds = 0.6;
    let reference: Vec<f64> = KEYS
        .iter()
        .map(|&key| pitch(&strike(48_000.0, key, seconds).1, 48_000.0, key))
        .collect();
    for rate in [
        1_000.0,
        1_234.567_8,
        8_000.0,
        11_025.0,
        16_000.0,
        22_050.0,
        32_000.0,
    ] {
        for (&key, &expected) in KEYS.iter().zip(&reference) {
            let (synth, out) = strike(rate, key, seconds);
            assert!(out.iter().all(|x| x.is_finite()), "{rate} Hz, key {key}");
            assert!(synth.internal_sample_rate() >= MIN_INTERNAL_RATE_HZ);
            if nominal_hz(key) <= PASSBAND_EDGE * rate {
                let got = pitch(&out, rate, key);
                assert!(
                    cents(got, expected).abs() < 2.0,
                    "{rate} Hz, key {key}: {got:.3} Hz against {expected:.3} Hz at 48 kHz"
                );
                assert!(peak(&out) > 0.01, "{rate} Hz, key {key} is too quiet");
            } else {
                assert_eq!(peak(&out), 0.0, "{rate} Hz, key {key} sounds");
            }
        }
    }
}

#[test]
fn the_highest_rates_play_the_whole_keyboard_in_tune() {
    let seconds = 0.3;
    for key in [21, 69, 108] {
        let expected = pitch(&strike(48_000.0, key, seconds).1, 48_000.0, key);
        for rate in [
            96_000.0,
            192_000.0,
            384_000.0,
            768_000.0,
            1_234_567.8,
            2_000_000.0,
        ] {
            let (synth, out) = strike(rate, key, seconds);
            assert_eq!(synth.internal_sample_rate(), rate);
            assert!(out.iter().all(|x| x.is_finite()), "{rate} Hz, key {key}");
            let got = pitch(&out, rate, key);
            assert!(
                cents(got, expected).abs() < 2.0,
                "{rate} Hz, key {key}: {got:.3} Hz against {expected:.3} Hz at 48 kHz"
            );
        }
    }
}

/// Below 44.1 kHz the decimating filter delays the output by whole host
/// samples, and the synthesiser says so; above, lock-step has no latency.
#[test]
fn the_decimators_delay_is_reported_as_latency() {
    let preset = grand_at_bridge();
    assert_eq!(Synth::new(&preset, 48_000.0).unwrap().latency(), 0);
    assert_eq!(Synth::new(&preset, 44_100.0).unwrap().latency(), 0);
    for rate in [8_000.0, 22_050.0] {
        let synth = Synth::new(&preset, rate).unwrap();
        let latency = synth.latency() as f64;
        // A filter of this steepness needs tens of host samples, and no more
        // than 10 ms.
        assert!(
            latency >= 10.0 && latency / rate < 0.01,
            "{rate}: {latency}"
        );
    }
    assert!(Synth::new(&preset, 999.0).is_err());
    assert!(Synth::new(&preset, 2_000_001.0).is_err());
}

/// A score played at a rate the instrument runs faster than sounds each note
/// when it does at 48 kHz: the player renders the filter's delay ahead.
#[test]
fn a_score_sounds_on_time_below_the_internal_rate() {
    let onset_s = |rate: f64| {
        let key_at = (0.05 * rate) as u64;
        let score = Score::new(
            [(
                key_at,
                SynthEvent::NoteOn {
                    key: 60,
                    velocity: 0.8,
                },
            )],
            (0.2 * rate) as u64,
        );
        let mut synth = Synth::new(&grand_at_bridge(), rate).unwrap();
        let mut player = score.player();
        let frames = (0.2 * rate) as usize;
        let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
        for (l, r) in left.chunks_mut(100).zip(right.chunks_mut(100)) {
            player.play(&mut synth, l, r);
        }
        onset(&left).expect("the note sounds") as f64 / rate
    };
    let at_48k = onset_s(48_000.0);
    for rate in [8_000.0, 22_050.0] {
        let at = onset_s(rate);
        assert!(
            (at - at_48k).abs() < 0.001,
            "{rate} Hz: {at} s against {at_48k} s"
        );
    }
}
