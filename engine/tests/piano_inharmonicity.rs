//! The grand's inharmonicity through the bass/tenor break: the last wound
//! strings are stiffer than the plain wire that follows them, so `B` falls
//! from A2 to C♯3 and rises again through the tenor (Young's doubling every
//! 8 semitones takes over above C4).
//!
//! Yardstick: the Iowa Steinway's ff notes measured by the analysis `orchard
//! compare` uses (`B` fitted by least squares to partials 1–8 of the
//! second from 50 ms after the onset, both channels;
//! `docs/reference-measurements.md`): A2 1.87, C♯3 1.16, F3 1.82 and A3
//! 2.15 × 10⁻⁴. Each render is held within a factor of 1.3 of it, as the
//! issue of matching the recordings asks; before the tenor's own anchor the
//! preset's interpolation from C2 to C4 put C♯3 at 2.1 times the
//! recording's.

use orchard_engine::analysis::{StiffFit, note_partials};
use orchard_engine::rt::Synth;

mod support;
use support::grand_at_bridge;

const FS: f64 = 48_000.0;

/// `B` of `key` held 1.2 s at MIDI velocity 100 on the default grand, heard
/// at the bridge: partials 1–8 fitted as `compare` fits them.
fn measured_b(key: u8) -> f64 {
    let preset = grand_at_bridge();
    let mut synth = Synth::new(&preset, FS).unwrap();
    let frames = (1.2 * FS) as usize;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    synth.note_on(key, 100.0 / 127.0);
    synth.process(&mut left, &mut right);
    let partials = note_partials(&left, FS, preset.fundamental_hz(key), 8);
    assert!(partials.len() >= 7, "key {key}: {partials:?}");
    StiffFit::fit_note(&partials).unwrap().b
}

#[test]
fn the_tenor_is_as_inharmonic_as_the_steinways() {
    let recorded = [(45, 1.87e-4), (49, 1.16e-4), (53, 1.82e-4), (57, 2.15e-4)];
    let measured: Vec<(u8, f64)> = recorded
        .iter()
        .map(|&(key, _)| (key, measured_b(key)))
        .collect();
    for (&(key, steinway), &(_, b)) in recorded.iter().zip(&measured) {
        let ratio = b / steinway;
        assert!(
            (1.0 / 1.3..=1.3).contains(&ratio),
            "key {key}: B = {b:.3e}, the Steinway's {steinway:.3e} (×{ratio:.2})"
        );
    }
    // The break: C♯3's plain wire is less stiff than A2's wound string.
    assert!(measured[1].1 < 0.75 * measured[0].1, "{measured:?}");
}
