//! The fortepiano (`presets/fortepiano.toml`) is built from the published
//! measurements of a Viennese fortepiano after Nannette Streicher (c. 1800):
//! its compass, its strings at both ends (length, diameter and wire), its
//! unisons; the masses, tensions and inharmonicities follow from them by
//! the strings' physics; and it plays in tune at the classical A4 = 430 Hz.

use std::f64::consts::PI;

use orchard_engine::analysis::note_partials;
use orchard_engine::instrument::Preset;
use orchard_engine::rt::Synth;

/// The wire of key `key`: density (kg/m³) and Young's modulus (Pa): red
/// brass for the lowest three notes, yellow brass for the next ten, iron
/// above.
fn wire(key: u8) -> (f64, f64) {
    match key {
        ..=31 => (8750.0, 100e9),
        32..=41 => (8500.0, 100e9),
        _ => (7800.0, 190e9),
    }
}

fn fortepiano() -> Preset {
    Preset::load("fortepiano").expect("a built-in preset")
}

#[test]
fn its_strings_are_the_published_ones() {
    let preset = fortepiano();
    assert_eq!(
        (preset.keyboard.lowest_key, preset.keyboard.highest_key),
        (29, 93),
        "F1 to A6, 65 notes"
    );
    // Chaigne: 1.784 m and 1.0 mm at F1, 9.2 cm and 0.33 mm at A6.
    for (key, length_m, diameter_m) in [(29, 1.784, 1.0e-3), (93, 0.092, 0.33e-3)] {
        let p = preset.key_params(key).unwrap();
        let (density, _) = wire(key);
        let mass = density * PI * diameter_m * diameter_m / 4.0 * length_m;
        assert!((p.string.length_m - length_m).abs() < 1e-9, "key {key}");
        assert!(
            (p.string.mass_kg / mass - 1.0).abs() < 0.005,
            "key {key}: {} kg against {mass} kg",
            p.string.mass_kg
        );
    }
    // Two strings a note for the lowest 41 notes, three above.
    assert_eq!(preset.key_params(69).unwrap().strings, 2);
    assert_eq!(preset.key_params(70).unwrap().strings, 3);
    let grand_c4 = Preset::default_grand()
        .key_params(60)
        .unwrap()
        .string
        .tension();
    for key in 29..=93 {
        let p = preset.key_params(key).unwrap();
        let tension = p.string.tension();
        // A fortepiano's strings pull a fraction of a modern grand's (the
        // grand's middle C: 660 N).
        assert!((60.0..170.0).contains(&tension), "key {key}: {tension} N");
        assert!(tension < 0.25 * grand_c4, "key {key}: {tension} N");
        // The inharmonicity is the wire's: B = π³·E·d⁴/(64·T·L²), with the
        // diameter from the mass and the wire's density.
        let (density, modulus) = wire(key);
        let length = p.string.length_m;
        let diameter = (4.0 * p.string.mass_kg / (PI * density * length)).sqrt();
        let b = PI.powi(3) * modulus * diameter.powi(4) / (64.0 * tension * length * length);
        // Exact at the anchors; between them the interpolations of B, the
        // length and the mass agree within 1.2 % (2 % allowed).
        assert!(
            (p.inharmonicity / b - 1.0).abs() < 0.02,
            "key {key}: B {} against the wire's {b}",
            p.inharmonicity
        );
    }
}

#[test]
fn it_plays_in_tune_at_classical_pitch() {
    let preset = fortepiano();
    assert_eq!(preset.tuning.a4_hz, 430.0);
    let fs = 48_000.0;
    for key in [29u8, 48, 60, 69, 81, 93] {
        let mut synth = Synth::new(&preset, fs).unwrap();
        let mut left = vec![0.0f32; 48_000];
        let mut right = vec![0.0f32; 48_000];
        synth.note_on(key, 0.7);
        for (l, r) in left.chunks_mut(256).zip(right.chunks_mut(256)) {
            synth.process(l, r);
        }
        let target = preset.fundamental_hz(key);
        let partials = note_partials(&left, fs, target, 3);
        let first = partials.first().expect("a first partial");
        let cents = 1200.0 * (first.frequency_hz / target).log2();
        assert!(cents.abs() < 1.5, "key {key}: {cents} cents");
    }
}
