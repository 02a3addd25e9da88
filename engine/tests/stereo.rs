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
/// The held notes measured: every fourth key from A0 to C♯7, as the
/// recordings are compared (`orchard compare --keyboard`).
fn keys() -> impl Iterator<Item = u8> {
    (21..=97).step_by(4)
}
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

/// A recorded spaced pair over a Steinway D (the ff set the grand is
/// compared with; velocity 100, 0.2–2 s after the onset) measures a held
/// note's left/right correlation between −0.9 and +0.6 across every fourth
/// key, near 0 in the middle, and 0.5 or more at 3 of those 20 keys: each
/// partial reaches the two microphones with its own phase, and where one
/// partial dominates a note, the note's correlation is that partial's
/// phase difference. The bridge force, panned, measured 0.98 to 1.0. At
/// the default output about as few keys reach 0.5 as on the recording (the
/// count over 20 keys is a binomial draw: 3 expected at the recording's
/// rate, at most 5 allowed, 1.3 standard deviations over), and the median
/// lies within ±0.3.
#[test]
fn held_notes_are_heard_as_a_decorrelated_pair() {
    let preset = default_grand();
    let mut correlations: Vec<f64> = keys()
        .map(|key| {
            let (left, right) = held(&preset, key);
            let r = correlation(&left, &right);
            eprintln!("key {key}: left/right correlation {r:+.3}");
            r
        })
        .collect();
    let high = correlations.iter().filter(|&&r| r >= 0.5).count();
    assert!(high <= 5, "{high} keys at 0.5 or more: {correlations:?}");
    correlations.sort_by(f64::total_cmp);
    let median = correlations[correlations.len() / 2];
    assert!(median.abs() <= 0.3, "median {median}");
}

/// Summed to mono, a spaced pair cancels where its two signals are out of
/// phase (in phase and alike, L+R is 6 dB over L; uncorrelated, 3 dB on
/// average). The recorded pair loses more than 3 dB in L+R against L at 28
/// of the about 196 partials 1 to 10 of every fourth key (14 %; worst
/// −38 dB, at A0): a spaced pair is not mono-compatible partial by partial, and
/// neither is the default output, by no more than the recording (at most
/// a fifth of the partials, none by more than 40 dB).
#[test]
fn the_mono_sum_loses_no_more_partials_than_a_recorded_pair() {
    let preset = default_grand();
    let (mut partials, mut lost) = (0, 0);
    for key in keys() {
        let (left, right) = held(&preset, key);
        let sum: Vec<f64> = left.iter().zip(&right).map(|(l, r)| l + r).collect();
        let left_f32: Vec<f32> = left.iter().map(|&s| s as f32).collect();
        for p in measure_partials(&left_f32, FS, fundamental_hz(key), 10) {
            let db = 20.0
                * (amplitude_at(&sum, FS, p.frequency_hz)
                    / amplitude_at(&left, FS, p.frequency_hz))
                .log10();
            partials += 1;
            if db < -3.0 {
                lost += 1;
                eprintln!("key {key} partial {}: L+R {db:+.1} dB against L", p.number);
            }
            assert!(db > -40.0, "key {key}, partial {}: {db} dB", p.number);
        }
    }
    assert!(partials >= 150, "{partials} partials measured");
    assert!(
        5 * lost <= partials,
        "{lost} of {partials} partials lose more than 3 dB"
    );
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

/// The width sets how far apart the close pair stands: together (width 0)
/// the two microphones hear the same sound, and wider they part.
#[test]
fn the_width_spaces_the_close_pair() {
    let mut together = default_grand();
    together.set("output:stereo_width", 0.0).unwrap();
    let (left, right) = held(&together, 60);
    assert_eq!(left, right);
    let (left, right) = held(&default_grand(), 60);
    assert!(correlation(&left, &right) < 0.95);
}
