//! A held note of the grand piano sings: a prompt sound that falls fast
//! while the unison's in-phase motion drains into the bridge, then a long
//! aftersound (Weinreich 1977), measured as `orchard analyze` and `orchard
//! compare` measure it (`docs/reference-measurements.md`: 50 ms windows,
//! early T60 from the first 10 dB, late T60 from −15 to −45 dB or the end).

use orchard_engine::analysis::two_stage_decay;
use orchard_engine::instrument::Preset;
use orchard_engine::rt::Synth;

const FS: f64 = 48_000.0;

/// `key` struck at velocity 80 on `preset` and held for `seconds`: the mono
/// output.
fn held(preset: &Preset, key: u8, seconds: f64) -> Vec<f32> {
    let mut synth = Synth::new(preset, FS).unwrap();
    synth.note_on(key, 80.0 / 127.0);
    let frames = (seconds * FS) as usize;
    let mut out = Vec::with_capacity(frames);
    let (mut l, mut r) = ([0.0f32; 256], [0.0f32; 256]);
    while out.len() < frames {
        synth.process(&mut l, &mut r);
        out.extend(l.iter().zip(&r).map(|(a, b)| 0.5 * (a + b)));
    }
    out
}

/// (early, late) T60 of `key` held on `preset`, s.
fn decay(preset: &Preset, key: u8, seconds: f64) -> (f64, f64) {
    let d = two_stage_decay(&held(preset, key, seconds), FS);
    let (early, late) = (d.early_t60_s.unwrap(), d.late_t60_s.unwrap());
    eprintln!("key {key}: early {early:.2} s, late {late:.2} s");
    (early, late)
}

/// Middle C and A4 have an aftersound: late T60 at least 8 s and at least
/// three times the early one (the recordings: 15 s, ratio 7).
#[test]
fn the_middle_of_the_keyboard_has_an_aftersound() {
    let grand = Preset::default_grand();
    for key in [60, 69] {
        let (early, late) = decay(&grand, key, 8.0);
        assert!(late >= 8.0, "key {key}: late T60 {late} s");
        assert!(late >= 3.0 * early, "key {key}: {early} s, then {late} s");
    }
}

/// The bass rings longest (C2: late T60 at least 15 s; the recording 32 s)
/// and the treble still sings (C7: at least 2 s; the recording 5.4 s).
#[test]
fn bass_and_treble_sustain() {
    let grand = Preset::default_grand();
    let (_, c2) = decay(&grand, 36, 12.0);
    assert!(c2 >= 15.0, "C2 late T60 {c2} s");
    let (_, c7) = decay(&grand, 96, 5.0);
    assert!(c7 >= 2.0, "C7 late T60 {c7} s");
}

/// The two stages come from the unison: C4 with its three strings decays in
/// two stages; built with one string (the same string, the same bridge), the
/// fast stage has nothing to give way to, and the decay is a single stage.
/// The top strings are damped here, so that nothing but C4 rings.
#[test]
fn two_stage_decay_comes_from_the_unison() {
    let mut three = Preset::default_grand();
    three.set("dampers:highest_damped_key", 108.0).unwrap();
    let mut one = three.clone();
    one.set("strings:triples_from_key", 61.0).unwrap();
    one.set("strings:pairs_from_key", 61.0).unwrap();
    let (early3, late3) = decay(&three, 60, 8.0);
    let (early1, late1) = decay(&one, 60, 8.0);
    assert!(
        late3 >= 3.0 * early3,
        "three strings: {early3} s, {late3} s"
    );
    assert!(late1 < 1.6 * early1, "one string: {early1} s, {late1} s");
}
