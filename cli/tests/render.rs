//! `orchard render` run as a user runs it.

use std::process::Command;

mod common;
use common::{assert_clean_failure, one_note, orchard, read_wav, scratch};

/// The README's command: `render --demo -o demo.wav`.
#[test]
fn demo_renders_to_a_readable_wav() {
    let dir = scratch("demo");
    let out = dir.join("demo.wav");
    let result = orchard(&["render", "--demo", "-o", out.to_str().unwrap()]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );

    let (spec, samples) = read_wav(&out);
    assert_eq!(spec.sample_rate, 48_000);
    assert_eq!(spec.channels, 2);
    assert_eq!(
        (spec.bits_per_sample, spec.sample_format),
        (24, hound::SampleFormat::Int)
    );
    let seconds = samples.len() as f64 / 2.0 / 48_000.0;
    // The phrase ends at 7.7 s; every damper is down by then and the damped
    // strings stop within about a second; the top strings, which have no
    // dampers, ring on quietly with what the bridge gave them for a few
    // seconds more (their late T60 is 2–8 s), and the render stops when all
    // is silent, well before the 20 s the tail may last.
    let end = orchard_cli::demo::phrase().end_s;
    assert!(
        seconds >= end && seconds < end + 5.0,
        "{seconds} s for a {end} s phrase"
    );
    assert!(samples.iter().all(|s| s.is_finite()));
    let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    assert!(peak > 0.05, "nearly silent: peak {peak}");
    assert!(peak < 1.0, "clipped: peak {peak}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn sample_rate_and_float_format_are_honoured() {
    let dir = scratch("float");
    let out = dir.join("demo.wav");
    let args = [
        "render",
        "--demo",
        "-o",
        out.to_str().unwrap(),
        "--sample-rate",
        "44100",
    ];
    let result = orchard(&[&args[..], &["--format", "float32"]].concat());
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let (spec, samples) = read_wav(&out);
    assert_eq!(spec.sample_rate, 44_100);
    assert_eq!(
        (spec.bits_per_sample, spec.sample_format),
        (32, hound::SampleFormat::Float)
    );
    assert!(samples.iter().any(|s| s.abs() > 0.05));
    std::fs::remove_dir_all(dir).ok();
}

/// A one-note MIDI file: the note starts at one second (tempo 120, 480 ticks per
/// beat, two beats of rest) and the file is rendered to its end.
#[test]
fn renders_a_midi_file() {
    let dir = scratch("midi");
    let midi = dir.join("one-note.mid");
    one_note(&midi, 69, 90, 2, 1);
    let out = dir.join("one-note.wav");
    let result = orchard(&[
        "render",
        midi.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let (_, samples) = read_wav(&out);
    let left: Vec<f32> = samples.iter().step_by(2).copied().collect();
    let onset = left.iter().position(|s| s.abs() > 1e-4).unwrap() as f64 / 48_000.0;
    // The hammer leaves at 1.0 s and flies 2 mm at a few m/s before it touches.
    assert!((1.0..1.005).contains(&onset), "onset at {onset} s");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bad_inputs_fail_with_one_clear_line() {
    let dir = scratch("errors");
    let out = dir.join("out.wav");
    let out_arg = out.to_str().unwrap();

    let missing = dir.join("missing.mid");
    assert_clean_failure(
        &orchard(&["render", missing.to_str().unwrap(), "-o", out_arg]),
        "missing.mid",
    );

    let garbage = dir.join("garbage.mid");
    std::fs::write(&garbage, b"this is not a MIDI file, just words").unwrap();
    assert_clean_failure(
        &orchard(&["render", garbage.to_str().unwrap(), "-o", out_arg]),
        "not a valid Standard MIDI File",
    );

    let truncated = dir.join("truncated.mid");
    std::fs::write(
        &truncated,
        b"MThd\x00\x00\x00\x06\x00\x00\x00\x01\x01\xe0MTrk\x00\x00\x00\x20\x00\x90",
    )
    .unwrap();
    assert_clean_failure(
        &orchard(&["render", truncated.to_str().unwrap(), "-o", out_arg]),
        "not a valid Standard MIDI File",
    );

    assert_clean_failure(
        &orchard(&["render", dir.to_str().unwrap(), "-o", out_arg]),
        "cannot read",
    );

    assert_clean_failure(
        &orchard(&["render", "--demo", "--preset", "harpsichord", "-o", out_arg]),
        "no preset `harpsichord`",
    );
    let broken = dir.join("broken.toml");
    let text = orchard_engine::instrument::DEFAULT_PRESET_TOML.replacen(
        "felt_exponent = 3.0",
        "felt_exponent = 9.0",
        1,
    );
    std::fs::write(&broken, text).unwrap();
    assert_clean_failure(
        &orchard(&[
            "render",
            "--demo",
            "--preset",
            broken.to_str().unwrap(),
            "-o",
            out_arg,
        ]),
        "broken.toml: hammers/anchor/60:felt_exponent = 9",
    );
    // Malformed property overrides: each named, before the output is touched.
    for (setting, mentions) in [
        ("tuning:a4_hz", "--set tuning:a4_hz: expected PATH=VALUE"),
        ("tuning:a4_hz=loud", "`loud` is not a number"),
        ("tuning:a4_hz=nan", "must be finite"),
        ("tuning:a4=442", "no property `tuning:a4`"),
        (
            "tuning:a4_hz=5000",
            "tuning:a4_hz = 5000 is outside its range",
        ),
        (
            "action:restitution=2",
            "action:restitution = 2 is outside its range",
        ),
    ] {
        assert_clean_failure(
            &orchard(&["render", "--demo", "--set", setting, "-o", out_arg]),
            mentions,
        );
    }
    assert!(!out.exists(), "a failed render wrote {out_arg}");

    let unwritable = dir.join("no-such-directory").join("out.wav");
    assert_clean_failure(
        &orchard(&["render", "--demo", "-o", unwritable.to_str().unwrap()]),
        "no-such-directory/out.wav: there is no directory",
    );
    std::fs::remove_dir_all(dir).ok();
}

/// `orchard presets` lists the built-in instruments, and `--preset` plays any
/// of them: the mallet-and-bar preset renders the demo too.
#[test]
fn presets_are_listed_and_playable() {
    let listed = orchard(&["presets"]);
    assert!(listed.status.success());
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(text.lines().any(|l| l.starts_with("grand-piano")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("mallet-bar")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("celesta")), "{text}");
    let dir = scratch("presets");
    let out = dir.join("bars.wav");
    let result = orchard(&[
        "render",
        "--demo",
        "--preset",
        "mallet-bar",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(result.status.success(), "{result:?}");
    let (_, samples) = read_wav(&out);
    let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    assert!(peak > 1e-3 && peak < 1.0, "peak {peak}");
    std::fs::remove_dir_all(dir).ok();
}

/// A failed render never destroys the file it would have replaced.
#[test]
fn failed_render_keeps_the_existing_output() {
    let dir = scratch("keep");
    let out = dir.join("take1.wav");
    std::fs::write(&out, b"precious").unwrap();
    let garbage = dir.join("garbage.mid");
    std::fs::write(&garbage, b"MThd garbage").unwrap();
    let result = orchard(&[
        "render",
        garbage.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!result.status.success());
    assert_eq!(std::fs::read(&out).unwrap(), b"precious");
    let leftovers = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(leftovers, 2, "a partial file was left behind");
    std::fs::remove_dir_all(dir).ok();
}

/// `orchard bench` reports a realtime factor per scenario and the peak memory;
/// a bad option is one line and a failure.
#[test]
fn bench_reports_realtime_factors() {
    let out = Command::new(env!("CARGO_BIN_EXE_orchard"))
        .args(["bench", "--scenario", "one-note", "--tail", "0.3"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("one note: "), "{text}");
    let factor: f64 = first["one note: ".len()..]
        .split_once('×')
        .and_then(|(f, _)| f.parse().ok())
        .unwrap_or_else(|| panic!("no factor in {first}"));
    assert!(factor > 0.0 && factor.is_finite());
    assert!(text.contains("peak resident memory: "), "{text}");
    let bad = Command::new(env!("CARGO_BIN_EXE_orchard"))
        .args(["bench", "--tail=0"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert_eq!(String::from_utf8_lossy(&bad.stderr).lines().count(), 1);
    // Any preset: the celesta's glissando runs over its own keys.
    let celesta = Command::new(env!("CARGO_BIN_EXE_orchard"))
        .args([
            "bench",
            "--preset",
            "celesta",
            "--scenario",
            "glissando",
            "--tail",
            "0.3",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&celesta.stdout);
    assert!(celesta.status.success(), "{celesta:?}");
    assert!(text.starts_with("glissando over every key: "), "{text}");
    let unknown = Command::new(env!("CARGO_BIN_EXE_orchard"))
        .args(["bench", "--preset", "harpsichord"])
        .output()
        .unwrap();
    assert!(!unknown.status.success());
    assert_eq!(String::from_utf8_lossy(&unknown.stderr).lines().count(), 1);
}
