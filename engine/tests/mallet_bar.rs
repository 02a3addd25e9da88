//! The mallet-and-bar preset: a second instrument built from data with the same
//! wave-digital machinery as the piano.

use orchard_engine::analysis::peak_frequency;
use orchard_engine::instrument::{BarParams, MalletBar, Preset};
use orchard_engine::rt::Synth;

const PRESET: &str = include_str!("../../presets/mallet-bar.toml");
const A4: u8 = 69;

/// The bar under A4 in the preset.
fn a4_bar() -> BarParams {
    Preset::from_toml(PRESET)
        .unwrap()
        .bar_params(A4)
        .expect("a bar instrument")
}

fn render(params: &BarParams, speed: f64, seconds: f64, fs: f64) -> (Vec<f32>, f64) {
    let mut bar = MalletBar::new(params, fs, 0.0).unwrap();
    bar.strike(speed);
    let mut peak_force: f64 = 0.0;
    let samples = (seconds * fs) as usize;
    let out = (0..samples)
        .map(|_| {
            let y = bar.tick();
            peak_force = peak_force.max(bar.contact_force());
            y as f32
        })
        .collect();
    (out, peak_force)
}

/// The rendered partials sit within 0.5 % of the free-free bar's ratios
/// 1 : 2.7565 : 5.4039 (`docs/reference-measurements.md`), at 44.1 and 96 kHz.
#[test]
fn partials_follow_the_free_free_bar() {
    let preset = a4_bar();
    let f0 = preset.fundamental_hz;
    assert_eq!(f0, 440.0);
    for fs in [44_100.0, 96_000.0] {
        let (out, peak_force) = render(&preset, 2.0, 1.0, fs);
        assert!(peak_force > 1.0, "the mallet hit ({peak_force} N)");
        assert!(out.iter().all(|y| y.is_finite()));
        for ratio in [1.0, 2.7565, 5.4039] {
            let target = ratio * f0;
            let found = peak_frequency(&out, fs, 0.97 * target, 1.03 * target).unwrap();
            assert!(
                (found / target - 1.0).abs() < 0.005,
                "{fs} Hz: partial {ratio} at {found} Hz, expected {target}"
            );
        }
    }
}

/// The mallet leaves: contact lasts about a millisecond, after which the bar
/// rings freely and a harder strike is louder.
#[test]
fn the_mallet_bounces_off_and_louder_strikes_are_louder() {
    let preset = a4_bar();
    let fs = 48_000.0;
    let mut bar = MalletBar::new(&preset, fs, 0.0).unwrap();
    bar.strike(2.0);
    let forces: Vec<f64> = (0..4_800)
        .map(|_| {
            bar.tick();
            bar.contact_force()
        })
        .collect();
    let first = forces.iter().position(|&f| f > 0.0).unwrap();
    let last = forces.iter().rposition(|&f| f > 0.0).unwrap();
    let contact_ms = (last - first) as f64 / fs * 1e3;
    assert!((0.2..5.0).contains(&contact_ms), "contact {contact_ms} ms");
    let level = |speed| {
        let (out, _) = render(&preset, speed, 0.5, fs);
        orchard_engine::analysis::rms(&out)
    };
    assert!(level(0.5) < level(1.5) && level(1.5) < level(4.0));
}

/// The same preset format and the same synthesiser play it: a note-on throws the
/// mallet, each key's bar sounds at its equal-tempered pitch, and the bars fall
/// silent by themselves (no dampers, so a note-off does nothing).
#[test]
fn the_synthesiser_plays_the_bars_at_their_pitches() {
    let preset = Preset::builtin("mallet-bar").unwrap().unwrap();
    let fs = 48_000.0;
    for key in [57u8, 69, 81] {
        let mut synth = Synth::new(&preset, fs).unwrap();
        synth.note_on(key, 0.8);
        synth.note_off(key);
        let (mut left, mut right) = (vec![0.0f32; 48_000], vec![0.0f32; 48_000]);
        synth.process(&mut left, &mut right);
        let target = 440.0 * 2f64.powf(f64::from(key as i32 - 69) / 12.0);
        let found = peak_frequency(&left, fs, 0.97 * target, 1.03 * target).unwrap();
        assert!(
            (found / target - 1.0).abs() < 0.002,
            "key {key}: {found} Hz vs {target}"
        );
        let peak = left.iter().fold(0.0f32, |m, y| m.max(y.abs()));
        assert!(peak > 0.003 && peak < 1.0, "key {key}: peak {peak}");
        let mut tail = vec![0.0f32; 48_000];
        let mut tail_r = tail.clone();
        for _ in 0..12 {
            synth.process(&mut tail, &mut tail_r);
        }
        assert!(!synth.is_active(), "key {key} rings on after 13 s");
    }
}
