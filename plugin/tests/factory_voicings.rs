//! The factory voicings of the grand sound as they are named: the bright
//! grand brighter than the grand, the grand brighter than the mellow grand,
//! and all three in tune with one another.
//!
//! Brightness is the power-weighted spectral centroid of the first 0.3 s of
//! a note from its onset, the measure `docs/reference-measurements.md`
//! ("Brightness and dynamics") gives for the recorded Steinway: from pp to
//! ff its C4 centroid rises ×1.6. A voicing changes the felt (stiffness ×4
//! or ÷4: a contact shortened or lengthened by 4^(1/(p+1)) ≈ 1.41 at p = 3)
//! and the strings' frequency-dependent loss (b2 ÷ or × 8^0.5 ≈ 2.83), so
//! at one velocity it must move the centroid by a step a listener hears,
//! though less than the whole dynamic range does.

use orchard::OrchardParams;
use orchard::factory;
use orchard::user_preset;
use orchard_engine::analysis::{peak_frequency, power_centroid};
use orchard_engine::instrument::Preset;
use orchard_engine::rt::Synth;

const FS: f64 = 48_000.0;
/// Seconds measured from the onset.
const SPAN_S: f64 = 0.3;
/// A mezzo-forte blow.
const VELOCITY: f32 = 80.0 / 127.0;

/// The instrument the factory preset `id` builds.
fn instrument(id: &str) -> Preset {
    let preset = &factory::named(id).expect("a factory preset").preset;
    let plan = user_preset::plan(preset, &OrchardParams::default()).unwrap();
    plan.settings.instrument_with(&preset.edits)
}

/// The first [`SPAN_S`] seconds from the onset of `key` on `instrument`, mono.
fn attack(instrument: &Preset, key: u8) -> Vec<f32> {
    let mut synth = Synth::new(instrument, FS).unwrap();
    let frames = ((SPAN_S + 0.05) * FS) as usize;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    synth.note_on(key, VELOCITY);
    synth.process(&mut left, &mut right);
    let mono: Vec<f32> = left
        .iter()
        .zip(&right)
        .map(|(l, r)| 0.5 * (l + r))
        .collect();
    let peak = mono.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    assert!(peak > 0.0, "key {key} is silent");
    let onset = mono.iter().position(|x| x.abs() > 0.01 * peak).unwrap();
    mono[onset..onset + (SPAN_S * FS) as usize].to_vec()
}

/// Power-weighted centroid of `signal`, Hz.
fn brightness_hz(signal: &[f32]) -> f64 {
    let samples: Vec<f64> = signal.iter().map(|&x| f64::from(x)).collect();
    power_centroid(&samples, FS).unwrap()
}

#[test]
fn bright_is_brighter_than_the_grand_and_mellow_darker() {
    let voicings = ["bright-grand", "grand-piano", "mellow-grand"].map(instrument);
    for key in [48u8, 60, 72] {
        let [bright, grand, mellow] = voicings.each_ref().map(|v| brightness_hz(&attack(v, key)));
        let (up, down) = (bright / grand, grand / mellow);
        println!("key {key}: bright {bright:.0} Hz, grand {grand:.0} Hz, mellow {mellow:.0} Hz");
        // A step a listener hears (a tenth of the centroid) and less than the
        // ×1.6 of the whole dynamic range at C4.
        for (what, ratio) in [("bright/grand", up), ("grand/mellow", down)] {
            assert!(
                (1.1..1.6).contains(&ratio),
                "key {key}: {what} centroid ratio {ratio:.3}"
            );
        }
    }
}

#[test]
fn every_voicing_is_in_tune_with_the_grand() {
    for id in ["bright-grand", "mellow-grand"] {
        let voicing = instrument(id);
        for key in [48u8, 60, 72] {
            let nominal = voicing.fundamental_hz(key);
            let band = (nominal * 0.97, nominal * 1.03);
            let heard = peak_frequency(&attack(&voicing, key), FS, band.0, band.1).unwrap();
            let grand =
                peak_frequency(&attack(&instrument("grand-piano"), key), FS, band.0, band.1)
                    .unwrap();
            let cents = 1200.0 * (heard / grand).log2();
            // The felt and the strings' loss barely move a partial's
            // frequency: within 3 cents of the grand's own note (the FFT's
            // resolution over 0.3 s, interpolated, is finer than that).
            assert!(
                cents.abs() < 3.0,
                "{id} key {key}: {cents:.2} cents from the grand"
            );
            assert_eq!(
                voicing.fundamental_hz(key),
                instrument("grand-piano").fundamental_hz(key)
            );
        }
    }
}
