//! The celesta: every key in tune, the Helmholtz box making the fundamental
//! louder and heard longer than the same bar without it, dampers that stop a
//! released note unless the pedal holds them up, a glissando that plays
//! without allocating, and offline renders that repeat bit for bit.

use nice_assert_no_alloc::{AllocDisabler, assert_no_alloc};
use orchard_engine::analysis::{amplitude_at, fit_line, peak_frequency};
use orchard_engine::families::celesta::{self, CelestaSpec};
use orchard_engine::instrument::{BarFittings, MalletBar, Preset};
use orchard_engine::rt::Synth;

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

const FS: f64 = 48_000.0;
const BLOCK: usize = 256;
const C5: u8 = 72;

fn preset() -> Preset {
    Preset::builtin("celesta").unwrap().unwrap()
}

/// `seconds` more of `synth`, mixed to mono, in blocks of [`BLOCK`].
fn play(synth: &mut Synth, seconds: f64) -> Vec<f32> {
    let frames = (seconds * FS) as usize;
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    let mut out = Vec::with_capacity(frames + BLOCK);
    while out.len() < frames {
        synth.process(&mut left, &mut right);
        out.extend(left.iter().zip(&right).map(|(l, r)| 0.5 * (l + r)));
    }
    out.truncate(frames);
    out
}

fn equal_tempered_hz(key: u8) -> f64 {
    440.0 * 2f64.powf((f64::from(key) - 69.0) / 12.0)
}

/// The fundamental's amplitude (at `f_hz`) in 50 ms windows: (time s, dB).
fn fundamental_track(signal: &[f64], f_hz: f64) -> Vec<(f64, f64)> {
    let window = (0.05 * FS) as usize;
    signal
        .chunks_exact(window)
        .enumerate()
        .map(|(i, chunk)| {
            let a = amplitude_at(chunk, FS, f_hz).max(1e-30);
            ((i as f64 + 0.5) * 0.05, 20.0 * a.log10())
        })
        .collect()
}

/// Every key of C4 to C8, played alone, sounds within 2 cents of its
/// equal-tempered pitch (A4 = 440 Hz), measured from the rendered note.
#[test]
fn every_key_is_in_tune() {
    let preset = preset();
    let mut synth = Synth::new(&preset, FS).unwrap();
    let mut worst: f64 = 0.0;
    for key in preset.keyboard.lowest_key..=preset.keyboard.highest_key {
        synth.note_on(key, 0.7);
        let note = play(&mut synth, 0.6);
        synth.note_off(key);
        play(&mut synth, 0.5);
        let target = equal_tempered_hz(key);
        let found = peak_frequency(
            &note[(0.05 * FS) as usize..],
            FS,
            0.97 * target,
            1.03 * target,
        )
        .unwrap();
        let cents = 1200.0 * (found / target).log2();
        worst = worst.max(cents.abs());
        assert!(
            cents.abs() < 2.0,
            "key {key}: {found:.3} Hz, {cents:+.2} cents"
        );
    }
    eprintln!("worst tuning error over C4–C8: {worst:.3} cents");
}

/// The same C5 bar struck at the same speed with its box and without: the
/// box's mouth makes the fundamental stronger (at least 10 dB at its peak)
/// and keeps it above a fixed level (40 dB under the bare bar's peak) for
/// longer (by a quarter of a second at least). The box draws energy from the bar, so the fundamental's own
/// decay rate (T60) is faster with it: both are printed.
#[test]
fn the_box_strengthens_and_lengthens_the_fundamental() {
    let preset = preset();
    let spec = preset
        .topology()
        .unwrap()
        .joined::<CelestaSpec>()
        .unwrap()
        .clone();
    let params = preset.bar_params(C5).unwrap();
    let f1 = params.fundamental_hz;
    let partials: Vec<f64> = spec.partial_ratios().iter().map(|r| r * f1).collect();
    let modes = params.point_modes_at(&partials);
    let render = |fittings: &BarFittings| -> Vec<f64> {
        let mut bar =
            MalletBar::with_fittings(C5, &modes, &params.striker(), fittings, (f1, FS, 0.0))
                .unwrap();
        bar.set_damper(false);
        bar.strike(1.5);
        (0..(4.0 * FS) as usize).map(|_| bar.tick()).collect()
    };
    let boxed = celesta::fittings(&spec);
    assert!(boxed.resonator.is_some());
    let bare = BarFittings {
        resonator: None,
        ..boxed
    };
    let with_box = fundamental_track(&render(&boxed), f1);
    let without = fundamental_track(&render(&bare), f1);
    let peak = |track: &[(f64, f64)]| track.iter().map(|p| p.1).fold(f64::MIN, f64::max);
    let gain_db = peak(&with_box) - peak(&without);
    let threshold = peak(&without) - 40.0;
    let heard_s = |track: &[(f64, f64)]| {
        track
            .iter()
            .rposition(|p| p.1 > threshold)
            .map_or(0.0, |i| track[i].0)
    };
    let t60 = |track: &[(f64, f64)]| {
        let top = peak(track);
        let line = fit_line(
            track
                .iter()
                .filter(|p| p.0 > 0.1 && p.1 < top - 3.0 && p.1 > top - 40.0)
                .copied(),
        )
        .unwrap();
        -60.0 / line.slope
    };
    eprintln!(
        "C5 fundamental: box {gain_db:+.1} dB at its peak; above the threshold {:.2} s \
         with the box, {:.2} s without; T60 {:.2} s with, {:.2} s without",
        heard_s(&with_box),
        heard_s(&without),
        t60(&with_box),
        t60(&without)
    );
    assert!(gain_db > 10.0, "the box adds {gain_db:.1} dB");
    assert!(
        heard_s(&with_box) > heard_s(&without) + 0.25,
        "heard {:.2} s with the box, {:.2} s without",
        heard_s(&with_box),
        heard_s(&without)
    );
}

/// A note released without the pedal stops: 0.3 s after the release its
/// level is at least 40 dB below its level at the release (the dampers fade
/// the fundamental by 60 dB in 0.15 s). With the pedal down it rings on,
/// within 12 dB of it.
#[test]
fn the_pedal_holds_notes_and_the_dampers_stop_them() {
    let preset = preset();
    let fall_db = |pedal: bool| {
        let mut synth = Synth::new(&preset, FS).unwrap();
        if pedal {
            synth.set_sustain(1.0);
        }
        synth.note_on(C5, 0.7);
        let held = play(&mut synth, 0.5);
        synth.note_off(C5);
        let after = play(&mut synth, 0.4);
        let rms = |x: &[f32]| orchard_engine::analysis::rms(x).max(1e-30);
        let before = rms(&held[held.len() - 2400..]);
        let later = rms(&after[(0.3 * FS) as usize..(0.35 * FS) as usize]);
        20.0 * (before / later).log10()
    };
    let (free, pedalled) = (fall_db(false), fall_db(true));
    eprintln!(
        "0.3 s after the release: {free:.1} dB down without the pedal, {pedalled:.1} dB with it"
    );
    assert!(free > 40.0, "without the pedal only {free:.1} dB down");
    assert!(pedalled < 12.0, "with the pedal {pedalled:.1} dB down");
}

/// A pedalled glissando up all 49 keys, 25 ms apart, played block by block
/// under `assert_no_alloc`: it sounds and stays finite. Its speed is
/// measured by `orchard bench --preset celesta`.
fn glissando(synth: &mut Synth) -> Vec<f32> {
    let preset = preset();
    let step = (0.025 * FS) as usize / BLOCK * BLOCK;
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    let mut out = Vec::new();
    synth.set_sustain(1.0);
    let keys = preset.keyboard.lowest_key..=preset.keyboard.highest_key;
    let blocks = (keys.clone().count() * step + (2.0 * FS) as usize) / BLOCK;
    let mut keys = keys.peekable();
    for block in 0..blocks {
        if (block * BLOCK).is_multiple_of(step)
            && let Some(key) = keys.next()
        {
            synth.note_on(key, 0.8);
            synth.note_off(key);
        }
        assert_no_alloc(|| synth.process(&mut left, &mut right));
        out.extend_from_slice(&left);
        out.extend_from_slice(&right);
    }
    out
}

#[test]
fn a_glissando_plays_without_allocating_and_repeats_bit_for_bit() {
    let preset = preset();
    let first = glissando(&mut Synth::new(&preset, FS).unwrap());
    assert!(first.iter().all(|y| y.is_finite()));
    let peak = first.iter().fold(0.0f32, |m, y| m.max(y.abs()));
    assert!(peak > 0.01 && peak < 1.0, "peak {peak}");
    let second = glissando(&mut Synth::new(&preset, FS).unwrap());
    assert!(first == second, "two renders differ");
}

/// Every value of the celesta has a path that `--set` reaches, and a box
/// coupling of 0 builds bars without boxes.
#[test]
fn the_celestas_values_are_properties() {
    let mut preset = preset();
    for path in [
        "action:partial_ratio_2",
        "action:box_coupling",
        "action:damper_t60_s",
        "action:mouth_gain",
    ] {
        assert!(preset.get(path).is_some(), "{path}");
    }
    preset.set("action:box_coupling", 0.0).unwrap();
    preset.set("action:partial_ratio_2", 2.7565).unwrap();
    let spec = preset
        .topology()
        .unwrap()
        .joined::<CelestaSpec>()
        .unwrap()
        .clone();
    assert!(celesta::fittings(&spec).resonator.is_none());
    assert!(preset.set("action:box_q", 0.0).is_err());
    Synth::new(&preset, FS).unwrap();
}
