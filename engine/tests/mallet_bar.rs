//! The mallet-and-bar preset: a second instrument built from data with the same
//! wave-digital machinery as the piano.

use orchard_engine::analysis::peak_frequency;
use orchard_engine::instrument::{BarPreset, MalletBar};

const PRESET: &str = include_str!("../../presets/mallet-bar.toml");

fn render(preset: &BarPreset, speed: f64, seconds: f64, fs: f64) -> (Vec<f32>, f64) {
    let mut bar = MalletBar::new(preset, fs).unwrap();
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
/// 1 : 2.7565 : 5.4039 (REFERENCE.md), at 44.1 and 96 kHz.
#[test]
fn partials_follow_the_free_free_bar() {
    let preset = BarPreset::from_toml(PRESET).unwrap();
    let f0 = preset.bar.fundamental_hz;
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
    let preset = BarPreset::from_toml(PRESET).unwrap();
    let fs = 48_000.0;
    let mut bar = MalletBar::new(&preset, fs).unwrap();
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

#[test]
fn broken_presets_name_the_path_and_reason() {
    let broken = PRESET.replace("strike_position = 0.30", "strike_position = 1.5");
    let error = BarPreset::from_toml(&broken).unwrap_err().to_string();
    assert!(error.contains("interaction.strike_position"), "{error}");
    let wrong_type = PRESET.replace("mass_kg = 0.25", "mass_kg = \"heavy\"");
    let error = BarPreset::from_toml(&wrong_type).unwrap_err().to_string();
    assert!(error.contains("mass_kg"), "{error}");
    let missing = PRESET.replace("fundamental_hz = 440.0\n", "");
    let error = BarPreset::from_toml(&missing).unwrap_err().to_string();
    assert!(error.contains("fundamental_hz"), "{error}");
}
