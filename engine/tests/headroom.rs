//! The default level leaves headroom for real playing (issue 19, item 6).
//!
//! Dense pedalled playing, as a pianist plays it live, must not clip a sound
//! card: 30 s with the sustain pedal down, a ten-note chord every half second
//! and a glissando every four seconds peaks at +1.9 dBFS with the level the
//! grand piano had before (`output:gain_per_newton = 0.008`), as the score
//! played live through JACK did (+1.87 dBFS). With the default level it must
//! peak below −1 dBFS, with room to spare for changes of the sound. A level is
//! a gain, not a compressor: a single note played as hard as a key can be
//! played stays well audible.

use orchard_engine::instrument::Preset;
use orchard_engine::rt::{Score, Synth, SynthEvent};

const FS: f64 = 48_000.0;
/// Length of the dense score, s.
const LENGTH_S: f64 = 30.0;
/// Time between two chords, s.
const CHORD_EVERY_S: f64 = 0.5;
/// How long each chord's keys are held, s (the pedal holds them on).
const CHORD_HELD_S: f64 = 0.4;
/// The chord: C major over three octaves, ten fingers.
const CHORD: [u8; 10] = [36, 43, 48, 52, 55, 60, 64, 67, 72, 76];
/// Time between two glissandos, s.
const GLISSANDO_EVERY_S: f64 = 4.0;
/// Time between two keys of a glissando, s.
const GLISSANDO_STEP_S: f64 = 0.02;
/// The glissando's range: the white keys from C2 to C7.
const GLISSANDO_KEYS: std::ops::RangeInclusive<u8> = 36..=96;
/// How hard every key is struck (MIDI velocity 110): forte.
const VELOCITY: f32 = 110.0 / 127.0;
/// The loudest peak allowed for the dense score, dBFS: 1 dB below full
/// scale. The default level puts it near −3 dBFS, leaving 2 dB for changes
/// of the sound to come (the aftersound).
const DENSE_PEAK_LIMIT_DB: f64 = -1.0;
/// The quietest peak allowed for one note struck as hard as possible, dBFS.
const SINGLE_NOTE_FLOOR_DB: f64 = -18.0;

/// Frame of `seconds`.
fn at(seconds: f64) -> u64 {
    (seconds * FS).round() as u64
}

/// A key struck at `start_s` with [`VELOCITY`] and let up after `held_s`.
fn strike(events: &mut Vec<(u64, SynthEvent)>, key: u8, start_s: f64, held_s: f64) {
    let velocity = VELOCITY;
    events.push((at(start_s), SynthEvent::NoteOn { key, velocity }));
    let velocity = 0.5;
    events.push((at(start_s + held_s), SynthEvent::NoteOff { key, velocity }));
}

/// The dense score: the sustain pedal down throughout, a ten-note chord every
/// [`CHORD_EVERY_S`] and a white-key glissando up from C2 to C7 every
/// [`GLISSANDO_EVERY_S`].
fn dense_score() -> Score {
    let mut events = vec![(0, SynthEvent::Sustain(1.0))];
    let chords = (LENGTH_S / CHORD_EVERY_S) as usize;
    for start_s in (0..chords).map(|i| i as f64 * CHORD_EVERY_S) {
        for key in CHORD {
            strike(&mut events, key, start_s, CHORD_HELD_S);
        }
    }
    let white_keys: Vec<u8> = GLISSANDO_KEYS
        .filter(|key| [0, 2, 4, 5, 7, 9, 11].contains(&(key % 12)))
        .collect();
    let glissandos = (LENGTH_S / GLISSANDO_EVERY_S).ceil() as usize;
    for start_s in (0..glissandos).map(|i| i as f64 * GLISSANDO_EVERY_S) {
        for (i, &key) in white_keys.iter().enumerate() {
            let key_s = start_s + i as f64 * GLISSANDO_STEP_S;
            strike(&mut events, key, key_s, GLISSANDO_STEP_S);
        }
    }
    Score::new(events, at(LENGTH_S))
}

/// The peak of `score` played on `preset`, dBFS, both channels.
fn peak_db(preset: &Preset, score: &Score) -> f64 {
    let mut synth = Synth::new(preset, FS).unwrap();
    let (mut left, mut right) = (vec![0.0f32; 512], vec![0.0f32; 512]);
    let mut player = score.player();
    let mut peak = 0.0f32;
    while player.sample() < score.end_sample() {
        player.play(&mut synth, &mut left, &mut right);
        peak = left.iter().chain(&right).fold(peak, |m, x| m.max(x.abs()));
    }
    20.0 * f64::from(peak).log10()
}

#[test]
fn dense_pedalled_playing_peaks_below_full_scale() {
    let peak = peak_db(&Preset::default_grand(), &dense_score());
    assert!(
        peak < DENSE_PEAK_LIMIT_DB,
        "the dense score peaks at {peak:.2} dBFS"
    );
}

#[test]
fn a_single_fortissimo_note_stays_loud() {
    let preset = Preset::default_grand();
    for key in [36, 60, 84] {
        let velocity = 1.0;
        let score = Score::new([(0, SynthEvent::NoteOn { key, velocity })], at(1.0));
        let peak = peak_db(&preset, &score);
        assert!(
            peak > SINGLE_NOTE_FLOOR_DB,
            "key {key} at full velocity peaks at {peak:.2} dBFS"
        );
    }
}
