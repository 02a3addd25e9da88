//! Honest output levels (issue 19, item 6), run as a user runs them: clipping
//! is reported, `--normalize` brings the peak to −1 dBFS, `--limiter` holds
//! it there without clipping, and float32 keeps what is beyond full scale.

use std::path::Path;

use midly::Format;

mod common;
use common::{assert_clean_failure, end, note, orchard, orchard_ok, read_wav, scratch, write_midi};

/// Every MIDI key struck at full velocity at once and held for a second.
fn all_keys_held(path: &Path) {
    let beat = u32::from(common::TICKS_PER_BEAT);
    let mut events: Vec<_> = (0..=127).map(|key| note(0, key, 127)).collect();
    events.push(note(2 * beat, 0, 0));
    events.extend((1..=127).map(|key| note(0, key, 0)));
    events.push(end(0));
    write_midi(path, Format::SingleTrack, vec![events]);
}

/// The peak of `samples`, dBFS.
fn peak_db(samples: &[f32]) -> f64 {
    let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    20.0 * f64::from(peak).log10()
}

/// Renders `midi` to `out` with extra `args`, the tail cut at half a
/// second; returns the summary.
fn render(midi: &Path, out: &Path, args: &[&str]) -> String {
    common::render(midi, out, &[&["--max-tail", "0.5"][..], args].concat())
}

/// 128 held notes clip a 24-bit file, and the summary says how many samples;
/// with `--normalize` the peak is −1 dBFS (or `--ceiling`) and nothing clips;
/// with `--limiter` nothing passes −1 dBFS; in float32 what is beyond full
/// scale is kept, and reported.
#[test]
fn held_notes_report_clipping_and_normalise_to_minus_1_dbfs() {
    let dir = scratch("levels");
    let midi = dir.join("all-keys.mid");
    all_keys_held(&midi);
    let out = dir.join("out.wav");

    let plain = render(&midi, &out, &[]);
    assert!(plain.contains("samples clipped"), "{plain}");
    let (_, samples) = read_wav(&out);
    let frames = samples.len();
    assert!(
        peak_db(&samples) > -0.001,
        "a clipped file peaks at full scale"
    );
    let over: usize = plain
        .split(", ")
        .find_map(|part| part.strip_suffix(" samples clipped (see --normalize and --limiter)"))
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("no count in {plain}"));
    let at_full_scale = samples.iter().filter(|s| s.abs() > 0.99999).count();
    assert!(
        over > 0 && at_full_scale >= over,
        "{over} vs {at_full_scale}"
    );

    let normalised = render(&midi, &out, &["--normalize"]);
    assert!(
        normalised.contains("peak -1.0 dBFS, normalised by -"),
        "{normalised}"
    );
    assert!(!normalised.contains("clipped"), "{normalised}");
    let peak = peak_db(&read_wav(&out).1);
    assert!((peak + 1.0).abs() < 0.001, "normalised to {peak} dBFS");

    render(&midi, &out, &["--normalize", "--ceiling", "-6"]);
    let peak = peak_db(&read_wav(&out).1);
    assert!((peak + 6.0).abs() < 0.001, "normalised to {peak} dBFS");

    let limited = render(&midi, &out, &["--limiter"]);
    assert!(limited.contains(", limited by up to "), "{limited}");
    assert!(!limited.contains("clipped"), "{limited}");
    let (_, samples) = read_wav(&out);
    let peak = peak_db(&samples);
    assert!(peak <= -1.0 && peak > -1.5, "limited to {peak} dBFS");
    assert_eq!(samples.len(), frames, "the limiter changed the length");

    let float = render(&midi, &out, &["--format", "float32"]);
    assert!(
        float.contains("samples beyond full scale (kept: float32)"),
        "{float}"
    );
    let (_, samples) = read_wav(&out);
    assert!(peak_db(&samples) > 6.0, "float32 was clipped");
    std::fs::remove_dir_all(dir).ok();
}

/// Below its ceiling the limiter changes nothing: the demo, which peaks well
/// below −1 dBFS, renders to the same bytes with `--limiter` as without.
#[test]
fn the_limiter_leaves_a_quiet_render_as_it_is() {
    let dir = scratch("limiter-quiet");
    let (plain, limited) = (dir.join("plain.wav"), dir.join("limited.wav"));
    let summary = orchard_ok(&["render", "--demo", "-o", plain.to_str().unwrap()]);
    let limited_summary = orchard_ok(&[
        "render",
        "--demo",
        "-o",
        limited.to_str().unwrap(),
        "--limiter",
    ]);
    assert!(
        limited_summary.contains("the limiter never acted"),
        "{limited_summary}"
    );
    assert!(!summary.contains("limited"), "{summary}");
    let bytes = std::fs::read(&plain).unwrap();
    assert!(
        bytes == std::fs::read(&limited).unwrap(),
        "the limiter acted"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// The level options are refused where they make no sense, saying why.
#[test]
fn level_options_are_checked() {
    let dir = scratch("level-options");
    let out = dir.join("out.wav");
    let out_arg = out.to_str().unwrap();
    for (args, mentions) in [
        (
            &["--ceiling", "-3"][..],
            "--ceiling applies to --normalize or --limiter",
        ),
        (
            &["--normalize", "--limiter"][..],
            "'--normalize' cannot be used with '--limiter'",
        ),
        (
            &["--limiter", "--ceiling", "3"][..],
            "--ceiling 3 must be between -40 and 0 dBFS",
        ),
        (
            &["--limiter", "--ceiling=-100"][..],
            "--ceiling -100 must be between -40 and 0 dBFS",
        ),
    ] {
        let full = [&["render", "--demo", "-o", out_arg][..], args].concat();
        assert_clean_failure(&orchard(&full), mentions);
    }
    assert!(!out.exists());
    std::fs::remove_dir_all(dir).ok();
}
