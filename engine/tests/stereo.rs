//! Stereo from the physics: the grand's default output is a spaced pair of
//! microphones over the strings, each hearing the board's modes through the
//! board's motion under and around it and each key's strings from its own
//! distance (`engine/src/resonators/listening.rs`). A held note is then
//! heard as a decorrelated pair, as a recorded one is, while its mono sum
//! loses none of its partials; the bridge force stays available as
//! microphone 0.

use nice_assert_no_alloc::{AllocDisabler, assert_no_alloc};
use orchard_engine::analysis::{amplitude_at, measure_partials};
use orchard_engine::instrument::{MICROPHONES, Preset};
use orchard_engine::rt::Synth;

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

const FS: f64 = 48_000.0;
const BLOCK: usize = 128;
/// The held notes measured: C2, C4 and A4.
const KEYS: [u8; 3] = [36, 60, 69];
/// The stretch measured, s: past the hammer's contact, while the note holds.
const FROM_S: f64 = 0.2;
const TO_S: f64 = 2.0;

/// `key` struck at velocity 100 and held for 2 s on `preset`, played in
/// blocks without allocating: left and right over the measured stretch.
fn held(preset: &Preset, key: u8) -> (Vec<f64>, Vec<f64>) {
    let mut synth = Synth::new(preset, FS).unwrap();
    let frames = (TO_S * FS) as usize / BLOCK * BLOCK;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    synth.note_on(key, 100.0 / 127.0);
    for (l, r) in left.chunks_mut(BLOCK).zip(right.chunks_mut(BLOCK)) {
        assert_no_alloc(|| synth.process(l, r));
    }
    let stretch = |x: &[f32]| {
        x[(FROM_S * FS) as usize..]
            .iter()
            .map(|&s| f64::from(s))
            .collect::<Vec<f64>>()
    };
    (stretch(&left), stretch(&right))
}

/// Pearson's correlation of `a` and `b` at zero lag.
fn correlation(a: &[f64], b: &[f64]) -> f64 {
    let mean = |x: &[f64]| x.iter().sum::<f64>() / x.len() as f64;
    let (ma, mb) = (mean(a), mean(b));
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (x - ma, y - mb);
        ab += x * y;
        aa += x * x;
        bb += y * y;
    }
    ab / (aa * bb).sqrt()
}

fn fundamental_hz(key: u8) -> f64 {
    440.0 * 2f64.powf((f64::from(key) - 69.0) / 12.0)
}

/// The default output is the close pair, not the bridge.
fn default_grand() -> Preset {
    let preset = Preset::default_grand();
    assert_eq!(MICROPHONES[preset.output.microphone as usize], "close");
    preset
}

/// A recorded pair over a grand measures a held note's left/right
/// correlation between −0.3 and +0.15; the bridge force, panned, measured
/// 0.98 to 1.0. At the default output C2, C4 and A4 stay below 0.5.
#[test]
fn a_held_note_is_heard_as_a_decorrelated_pair() {
    let preset = default_grand();
    for key in KEYS {
        let (left, right) = held(&preset, key);
        let r = correlation(&left, &right);
        eprintln!("key {key}: left/right correlation {r:+.3}");
        assert!(r < 0.5, "key {key}: correlation {r}");
    }
}

/// Summed to mono, a spaced pair cancels where its two signals are out of
/// phase. Partials 1 to 10 of each held note are no more than 3 dB weaker
/// in L+R than in the left channel alone (in phase and alike, L+R is 6 dB
/// over L; uncorrelated, 3 dB on average).
#[test]
fn the_mono_sum_keeps_every_partial() {
    let preset = default_grand();
    for key in KEYS {
        let (left, right) = held(&preset, key);
        let sum: Vec<f64> = left.iter().zip(&right).map(|(l, r)| l + r).collect();
        let left_f32: Vec<f32> = left.iter().map(|&s| s as f32).collect();
        let partials = measure_partials(&left_f32, FS, fundamental_hz(key), 10);
        assert!(
            partials.len() >= 8,
            "key {key}: {} partials",
            partials.len()
        );
        for p in &partials {
            let db = 20.0
                * (amplitude_at(&sum, FS, p.frequency_hz)
                    / amplitude_at(&left, FS, p.frequency_hz))
                .log10();
            eprintln!("key {key} partial {}: L+R {db:+.1} dB against L", p.number);
            assert!(db > -3.0, "key {key}, partial {}: {db} dB", p.number);
        }
    }
}

/// Microphone 0 is the bridge force, panned by where each node is: the
/// microphones' places and the board's surface density, which set only
/// what microphones hear, change nothing there, and a held note is nearly
/// mono (its left and right differ only by the pans of the nodes the board
/// pushes back on).
#[test]
fn microphone_zero_is_the_bridge_force() {
    let mut bridge = default_grand();
    bridge.set("output:microphone", 0.0).unwrap();
    let mut denser = bridge.clone();
    denser.set("soundboard:surface_density_kg_m2", 9.0).unwrap();
    let (left, right) = held(&bridge, 60);
    assert_eq!((left.clone(), right.clone()), held(&denser, 60));
    let r = correlation(&left, &right);
    assert!(r > 0.95, "correlation {r}");
    // At the close pair the density does change the sound.
    let (close, _) = held(&default_grand(), 60);
    let mut denser_close = default_grand();
    denser_close
        .set("soundboard:surface_density_kg_m2", 9.0)
        .unwrap();
    assert_ne!(close, held(&denser_close, 60).0);
}
