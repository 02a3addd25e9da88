//! The grand piano played through its action: note-on to sound, dampers and the
//! three pedals, una corda, repetition — measured on the synthesiser's output.

use orchard_engine::analysis::rms;
use orchard_engine::families::grand_piano::PianoVoices;
use orchard_engine::rt::{Synth, SynthEvent};

mod support;
use support::grand_at_bridge;

const FS: f64 = 48_000.0;
const C4: u8 = 60;
const E4: u8 = 64;

fn piano() -> Synth {
    Synth::new(&grand_at_bridge(), FS).unwrap()
}

/// Renders `seconds` and returns the left channel.
fn render(synth: &mut Synth, seconds: f64) -> Vec<f32> {
    let frames = (seconds * FS).round() as usize;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    synth.process(&mut left, &mut right);
    left
}

/// Level of `signal` over `[from, to)` seconds, dB re its level over the first
/// `reference` seconds.
fn level_db(signal: &[f32], reference: (f64, f64), window: (f64, f64)) -> f64 {
    let slice = |(a, b): (f64, f64)| &signal[(a * FS) as usize..(b * FS) as usize];
    20.0 * (rms(slice(window)) / rms(slice(reference))).log10()
}

/// Plays `key` for 0.3 s and releases it with the sustain pedal at `sustain`;
/// returns the level 0.45–0.5 s after the release re the 50 ms before it, dB.
fn decay_after_release(sustain: f32) -> f64 {
    let mut synth = piano();
    synth.set_sustain(sustain);
    synth.note_on(C4, 0.6);
    let mut out = render(&mut synth, 0.3);
    synth.note_off(C4);
    out.extend(render(&mut synth, 0.5));
    level_db(&out, (0.25, 0.3), (0.75, 0.8))
}

/// From the note-on, the first sound comes within 5 ms at every velocity (the
/// default action throws the hammer from let-off), and sooner for louder notes.
#[test]
fn note_on_sounds_within_five_ms() {
    let mut delays = Vec::new();
    for velocity in [1.0 / 127.0, 0.25, 0.5, 1.0] {
        let mut synth = piano();
        synth.note_on(C4, velocity);
        let out = render(&mut synth, 0.02);
        let first = out.iter().position(|y| y.abs() > 1e-6).unwrap();
        let delay_ms = first as f64 / FS * 1e3;
        assert!(delay_ms <= 5.0, "velocity {velocity}: {delay_ms} ms");
        delays.push(delay_ms);
    }
    assert!(delays.windows(2).all(|w| w[1] < w[0]), "{delays:?}");
}

/// With the pedal up the damper takes a released note 40 dB down within half a
/// second; with the pedal down it rings on; half pedal lands in between.
#[test]
fn sustain_pedal_holds_the_dampers_off() {
    let up = decay_after_release(0.0);
    let down = decay_after_release(1.0);
    let half = decay_after_release(0.5);
    assert!(up < -40.0, "pedal up: {up} dB");
    assert!(down > -25.0, "pedal down: {down} dB");
    assert!(
        up + 10.0 < half && half + 10.0 < down,
        "half pedal: {half} dB"
    );
}

/// Sostenuto holds the dampers of the keys down when it is pressed, and only
/// those: C4, held at that moment, rings after release; E4, pressed later,
/// is damped on release. Lifting the pedal damps C4.
#[test]
fn sostenuto_holds_only_the_keys_down_when_pressed() {
    let solo = |with_c4: bool, with_e4: bool| {
        let mut synth = piano();
        let mut out = Vec::new();
        if with_c4 {
            synth.note_on(C4, 0.6);
        }
        out.extend(render(&mut synth, 0.1));
        synth.apply(SynthEvent::Sostenuto(true));
        if with_e4 {
            synth.note_on(E4, 0.6);
        }
        out.extend(render(&mut synth, 0.2));
        synth.note_off(C4);
        synth.note_off(E4);
        out.extend(render(&mut synth, 0.5));
        synth.apply(SynthEvent::Sostenuto(false));
        out.extend(render(&mut synth, 0.5));
        out
    };
    let c4 = solo(true, false);
    let held = level_db(&c4, (0.25, 0.3), (0.75, 0.8));
    assert!(held > -25.0, "C4 under sostenuto: {held} dB");
    let lifted = level_db(&c4, (0.25, 0.3), (1.25, 1.3));
    assert!(lifted < -40.0, "C4 after the pedal lifts: {lifted} dB");
    let e4 = solo(false, true);
    let damped = level_db(&e4, (0.25, 0.3), (0.75, 0.8));
    assert!(damped < -40.0, "E4 pressed after the pedal: {damped} dB");
}

/// Una corda shifts the hammers: a trichord is struck on two strings, a pair on
/// one, while a single bass string stays struck; lifted, all strings again.
#[test]
fn una_corda_strikes_fewer_strings() {
    let mut synth = piano();
    synth.set_una_corda(1.0);
    for key in [C4, 40, 25] {
        synth.note_on(key, 0.6);
    }
    render(&mut synth, 0.05);
    assert_eq!(struck_strings(&synth, C4), Some(0b011));
    assert_eq!(struck_strings(&synth, 40), Some(0b01));
    assert_eq!(struck_strings(&synth, 25), Some(0b1));
    synth.set_una_corda(0.0);
    for key in [C4, 40] {
        synth.note_off(key);
    }
    render(&mut synth, 0.1);
    for key in [C4, 40] {
        synth.note_on(key, 0.6);
    }
    render(&mut synth, 0.05);
    assert_eq!(struck_strings(&synth, C4), Some(0b111));
    assert_eq!(struck_strings(&synth, 40), Some(0b11));
}

/// A key struck again while it still sounds strikes again: the second blow's
/// report replaces the first, and the note grows louder.
#[test]
fn a_repeated_key_strikes_again() {
    let mut synth = piano();
    synth.note_on(C4, 0.3);
    let first = render(&mut synth, 0.1);
    let first_speed = synth.strike_report(C4).unwrap().strike_speed_m_s;
    synth.note_off(C4);
    render(&mut synth, 0.01);
    synth.note_on(C4, 1.0);
    let second = render(&mut synth, 0.1);
    let second_speed = synth.strike_report(C4).unwrap().strike_speed_m_s;
    assert!(second_speed > 3.0 * first_speed);
    assert!(rms(&second) > 2.0 * rms(&first[2_400..]));
}

/// The strings `key`'s last strike hit, bit `i` for string `i`.
fn struck_strings(synth: &Synth, key: u8) -> Option<u8> {
    synth
        .voices()
        .as_any()
        .downcast_ref::<PianoVoices>()
        .and_then(|voices| voices.struck_strings(key))
}
