//! Sympathetic resonance through the one bridge and soundboard every string
//! stands on: an undamped string answers the bridge's motion at its own
//! partials, a damped one does not.

use orchard_engine::instrument::Preset;
use orchard_engine::rt::{Synth, SynthEvent};

const FS: f64 = 48_000.0;
const C3: u8 = 48;
const C4: u8 = 60;

/// A grand piano at 48 kHz.
fn grand() -> Synth {
    Synth::new(&Preset::default_grand(), FS).unwrap()
}

/// Plays on for `seconds`, in 64-frame blocks.
fn play(synth: &mut Synth, seconds: f64) {
    let (mut l, mut r) = ([0.0f32; 64], [0.0f32; 64]);
    for _ in 0..(seconds * FS / 64.0).round() as usize {
        synth.process(&mut l, &mut r);
    }
}

/// The energy on C4's strings 0.6 s after C3 (struck at velocity 110, held
/// 0.3 s) has been damped, with C4 pressed as softly as a key can be (velocity
/// 1, its hammer barely reaching the strings) beforehand if `c4_held`, and C3
/// struck if `c3_struck`.
fn c4_energy_after_c3(c4_held: bool, c3_struck: bool) -> f64 {
    let mut synth = grand();
    if c4_held {
        synth.note_on(C4, 1.0 / 127.0);
    }
    play(&mut synth, 0.2);
    if c3_struck {
        synth.note_on(C3, 110.0 / 127.0);
    }
    play(&mut synth, 0.3);
    let c3_held = synth.resonator_energy_j(C3);
    synth.note_off(C3);
    play(&mut synth, 0.6);
    assert!(
        synth.resonator_energy_j(C3) <= 1e-5 * c3_held,
        "C3's dampers stop it: {} J from {c3_held} J",
        synth.resonator_energy_j(C3)
    );
    synth.resonator_energy_j(C4)
}

/// With C4 held down softly and C3 struck staccato, C4's strings ring on after
/// C3 is damped with several times the energy C4 keeps when held alone: C3's
/// second partial drove them through the bridge. With C4 not held, its
/// dampers keep it silent.
#[test]
fn a_held_key_answers_a_struck_one() {
    let both = c4_energy_after_c3(true, true);
    let held_alone = c4_energy_after_c3(true, false);
    let struck_alone = c4_energy_after_c3(false, true);
    assert!(held_alone > 0.0, "the soft C4 sounds");
    assert!(
        both > 3.0 * held_alone,
        "C4 held: {both:.3e} J with C3, {held_alone:.3e} J without"
    );
    assert!(
        struck_alone < 1e-3 * both,
        "C4 damped: {struck_alone:.3e} J against {both:.3e} J held"
    );
}

/// With the sustain pedal down, C3 struck alone excites the strings whose
/// partials lie on its own (C4 on its second, G4 on its third, C5 on its
/// fourth) far more than a neighbour whose partials do not (C♯4, F♯4): the
/// resonance comes from the strings' own tuning, through the bridge.
#[test]
fn with_the_pedal_down_c3_excites_its_harmonics() {
    let mut synth = grand();
    synth.apply(SynthEvent::Sustain(1.0));
    play(&mut synth, 0.1);
    synth.note_on(C3, 110.0 / 127.0);
    play(&mut synth, 0.1);
    synth.note_off(C3);
    play(&mut synth, 1.5);
    let c3 = synth.resonator_energy_j(C3);
    let energy = |key: u8| synth.resonator_energy_j(key);
    for (key, name) in [(60u8, "C4"), (67, "G4"), (72, "C5")] {
        assert!(
            energy(key) > 1e-6 * c3,
            "{name}: {:.3e} J against C3's {c3:.3e} J",
            energy(key)
        );
        for (other, other_name) in [(61u8, "C#4"), (66, "F#4")] {
            assert!(
                energy(key) > 5.0 * energy(other),
                "{name} {:.3e} J, {other_name} {:.3e} J",
                energy(key),
                energy(other)
            );
        }
    }
}

/// With the pedal up and no key held, every damped string is at rest soon
/// after the dampers fall, and the sound has fallen by more than 40 dB; only
/// the top strings, which have no dampers, may still ring.
#[test]
fn with_the_pedal_up_the_dampers_stop_everything() {
    let mut synth = grand();
    synth.note_on(C3, 110.0 / 127.0);
    let (mut l, mut r) = ([0.0f32; 64], [0.0f32; 64]);
    let mut peak = 0.0f32;
    for _ in 0..(0.3 * FS / 64.0) as usize {
        synth.process(&mut l, &mut r);
        peak = l.iter().chain(&r).fold(peak, |p, x| p.max(x.abs()));
    }
    synth.note_off(C3);
    play(&mut synth, 1.0);
    let highest_damped = 88;
    for key in 21..=highest_damped {
        assert!(
            synth.resonator_energy_j(key) < 1e-12,
            "key {key} rings with {:.3e} J",
            synth.resonator_energy_j(key)
        );
    }
    let mut late_peak = 0.0f32;
    for _ in 0..(0.2 * FS / 64.0) as usize {
        synth.process(&mut l, &mut r);
        late_peak = l.iter().chain(&r).fold(late_peak, |p, x| p.max(x.abs()));
    }
    assert!(
        late_peak < 0.01 * peak,
        "{late_peak} after the dampers, {peak} before"
    );
}
