//! Every value a preset validates produces finite audio (issue 29, item 4).
//!
//! For every built-in preset and every numeric property it stores, the
//! property is set to each end of the range validation accepts (one at a
//! time, the rest as the preset has it) and a short piece is rendered: a
//! few keys struck hard while the mechanism runs (a clock ticks, a music
//! box's cylinder turns with a pin about to pluck). The output must be
//! finite and no voice may have gone non-finite (the synthesiser silences
//! such a voice, which hides the fault in the audio but not in its
//! counters). A value that cannot be made finite is not allowed by the
//! range: the range says why, in its doc comment.

use orchard_engine::families::builtin_presets;
use orchard_engine::families::chiming_clock::ClockSpec;
use orchard_engine::families::music_box::MusicBoxSpec;
use orchard_engine::families::music_box::PinSpec;
use orchard_engine::instrument::HammerSet;
use orchard_engine::instrument::Preset;
use orchard_engine::rt::{Synth, SynthEvent};

/// Sample rate, Hz.
const FS: f64 = 48_000.0;
/// Frames per block.
const BLOCK: usize = 256;
/// How long before noon a clock is started, s: its chime's first blow
/// falls about 0.7 s later.
const CLOCK_BEFORE_NOON_S: f64 = 0.02;

/// Length of each render of `preset`, s: long enough for a strike to land
/// and ring, for a clock's chime to strike its first rod and for a music
/// box's pin to catch a tine still ringing and pluck it.
fn render_s(preset: &Preset) -> f64 {
    if preset.objects.of::<ClockSpec>().next().is_some() {
        1.0
    } else if preset.objects.of::<MusicBoxSpec>().next().is_some() {
        0.6
    } else {
        0.3
    }
}

/// The keys a property reaches: an anchor's own key (where its value is
/// the one set; the keys between anchors lie between their values), else
/// the keyboard's ends and middle.
fn keys_for(preset: &Preset, path: &str) -> Vec<u8> {
    let anchored = path
        .split_once("/anchor/")
        .and_then(|(_, rest)| rest.split(':').next()?.parse::<u8>().ok());
    let (lo, hi) = (preset.keyboard.lowest_key, preset.keyboard.highest_key);
    match anchored {
        Some(key) => vec![key.clamp(lo, hi)],
        None => vec![lo, lo + (hi - lo) / 2, hi],
    }
}

/// `preset` made to move at once: a clock started just before noon, so
/// that it chimes; a music box's cylinder turning with a pin for each of
/// `keys` it has a tine for just past its pluck's lead, which catches the
/// tine still ringing from the note and plucks it again.
fn moving(mut preset: Preset, keys: &[u8]) -> Preset {
    for clock in preset.objects.of_mut::<ClockSpec>() {
        clock.time_h = 12.0 - CLOCK_BEFORE_NOON_S / 3600.0;
    }
    for spec in preset.objects.of_mut::<MusicBoxSpec>() {
        spec.running = true;
        spec.pins = keys
            .iter()
            .filter(|&&key| spec.has_tine(key))
            .map(|&key| PinSpec {
                key,
                angle_deg: 6.0,
            })
            .collect();
    }
    preset
}

/// What went wrong rendering `preset` with `keys` struck, if anything.
fn fault(preset: &Preset, keys: &[u8]) -> Option<String> {
    let preset = moving(preset.clone(), keys);
    let mut synth = match Synth::new(&preset, FS) {
        Ok(synth) => synth,
        Err(error) => return Some(format!("does not build: {error}")),
    };
    synth.apply(SynthEvent::Sustain(1.0));
    for &key in keys {
        synth.note_on(key, 1.0);
    }
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    let blocks = (render_s(&preset) * FS) as usize / BLOCK;
    let mut non_finite = 0usize;
    for _ in 0..blocks {
        synth.process(&mut left, &mut right);
        non_finite += left.iter().chain(&right).filter(|x| !x.is_finite()).count();
    }
    let resets = synth.counters().non_finite_resets;
    (non_finite > 0 || resets > 0)
        .then(|| format!("{non_finite} non-finite samples, {resets} voices reset"))
}

#[test]
fn every_property_at_the_ends_of_its_range_renders_finite_audio() {
    let mut faults = Vec::new();
    let mut renders = 0;
    for (name, _) in builtin_presets() {
        let base = Preset::builtin(name).unwrap().unwrap();
        assert!(
            fault(&base, &keys_for(&base, "")).is_none(),
            "{name} as it is"
        );
        for path in base.paths() {
            let info = base.property_info(&path).unwrap();
            let ends = [(info.range.0, info.slider.0), (info.range.1, info.slider.1)];
            for value in ends.map(|(end, slider)| if end.is_finite() { end } else { slider }) {
                let mut preset = base.clone();
                if preset.set(&path, value).is_err() {
                    // Another check (not a range) refuses it: nothing to play.
                    continue;
                }
                renders += 1;
                if let Some(why) = fault(&preset, &keys_for(&preset, &path)) {
                    faults.push(format!("{name} {path}={value}: {why}"));
                }
            }
        }
    }
    eprintln!("{renders} renders");
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// Below the range, where validation now refuses it, a lossless pin still
/// renders finite audio: the tine that runs away is silenced and counted,
/// as a non-finite one is (it used to overflow the output with infinities
/// and NaN, counting nothing).
#[test]
fn a_tine_that_runs_away_is_silenced_not_heard_as_infinities() {
    let mut preset = Preset::builtin("music-box").unwrap().unwrap();
    let pins = preset.objects.get_as_mut::<HammerSet>("pins").unwrap();
    pins.anchor[0].felt_hysteresis_s_per_m = Some(0.0);
    assert!(preset.validate().is_err());
    let preset = moving(preset, &[72]);
    let mut synth = Synth::new(&preset, FS).unwrap();
    synth.note_on(72, 1.0);
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    let mut peak = 0.0f32;
    for _ in 0..(1.0 * FS) as usize / BLOCK {
        synth.process(&mut left, &mut right);
        peak = left.iter().chain(&right).fold(peak, |m, x| m.max(x.abs()));
    }
    // At most the runaway bound (1000 m/s) times the output's gain (0.25).
    assert!(peak.is_finite() && peak < 250.0, "peak {peak}");
    assert!(synth.counters().non_finite_resets > 0);
}
