//! The chiming clock from the command line: `render --duration --start`
//! with no MIDI file, the clock winding down at the end, the refusals, and
//! `analyze chiming-clock`.

mod common;
use common::{assert_clean_failure, orchard, orchard_ok, read_left, scratch};

const RATE: f64 = 48_000.0;

/// Onsets of the clicks in `x` (s).
fn clicks(x: &[f32]) -> Vec<f64> {
    orchard_engine::analysis::click_onsets(x, RATE)
}

fn peak(x: &[f32]) -> f32 {
    x.iter().fold(0.0, |m, s| m.max(s.abs()))
}

/// With no MIDI file the clock runs for `--duration` seconds, ticking at
/// its beat; then its balance is held and the plate and case ring out, so
/// the file ends soon after.
#[test]
fn a_clock_renders_on_its_own_for_its_duration_and_winds_down() {
    let dir = scratch("clock-render");
    let out = dir.join("clock.wav");
    let out_arg = out.to_str().unwrap();
    let summary = orchard_ok(&[
        "render",
        "--preset",
        "chiming-clock",
        "--duration",
        "3",
        "--start",
        "10:10",
        "-o",
        out_arg,
    ]);
    assert!(summary.contains("wrote"), "{summary}");
    let left = read_left(&out);
    let seconds = left.len() as f64 / RATE;
    assert!((3.0..3.6).contains(&seconds), "{seconds} s");
    let ticks: Vec<f64> = clicks(&left).into_iter().filter(|&t| t > 1.0).collect();
    assert!(ticks.len() >= 8, "{ticks:?}");
    let beat = (ticks[ticks.len() - 1] - ticks[0]) / (ticks.len() - 1) as f64;
    assert!((beat - 0.2).abs() < 0.003, "a tick every {beat} s");
    std::fs::remove_dir_all(dir).ok();
}

/// Two seconds before noon the render ends in the hour's chime: far louder
/// than the ticks before it.
#[test]
fn started_before_the_hour_it_chimes() {
    let dir = scratch("clock-noon");
    let out = dir.join("noon.wav");
    orchard_ok(&[
        "render",
        "--preset",
        "chiming-clock",
        "--duration",
        "4",
        "--start",
        "11:59:58",
        "--max-tail",
        "0",
        "-o",
        out.to_str().unwrap(),
    ]);
    let left = read_left(&out);
    let ticking = peak(&left[..(1.9 * RATE) as usize]);
    let chiming = peak(&left[(2.0 * RATE) as usize..]);
    assert!(
        chiming > 10.0 * ticking,
        "chime {chiming} against ticks {ticking}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn clock_options_are_checked() {
    let dir = scratch("clock-refusals");
    let out = dir.join("x.wav");
    let out_arg = out.to_str().unwrap();
    for (args, mentions) in [
        (
            vec![
                "render",
                "--duration",
                "2",
                "--start",
                "10:00",
                "-o",
                out_arg,
            ],
            "`grand-piano` has no clock",
        ),
        (
            vec![
                "render",
                "--preset",
                "chiming-clock",
                "--duration",
                "2",
                "--start",
                "24:61",
                "-o",
                out_arg,
            ],
            "'24:61' is not a time of day",
        ),
        (
            vec![
                "render",
                "--preset",
                "chiming-clock",
                "--duration",
                "0",
                "-o",
                out_arg,
            ],
            "--duration",
        ),
    ] {
        assert_clean_failure(&orchard(&args), mentions);
    }
    assert!(!out.exists());
    std::fs::remove_dir_all(dir).ok();
}

/// `analyze chiming-clock` reports the beat, the trains' cycles and the
/// chime as a superimposed process, and the beat follows the balance.
#[test]
fn analyze_reports_the_beat_and_the_trains() {
    let report = orchard_ok(&["analyze", "chiming-clock"]);
    let beat = |report: &str| -> f64 {
        report
            .split("beat ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|number| number.parse().ok())
            .unwrap_or_else(|| panic!("no beat in {report}"))
    };
    assert!((beat(&report) - 0.2).abs() < 0.002, "{report}");
    for mentions in [
        "18000 beats per hour",
        "escapement: regular",
        "chime train: 16 notes at the hour",
        "strike train: twelve blows",
        "superimposed process: the chime every 900",
    ] {
        assert!(report.contains(mentions), "no `{mentions}` in {report}");
    }
    let heavier = orchard_ok(&[
        "analyze",
        "chiming-clock",
        "--set",
        "clock:balance_inertia_kg_m2=1.0e-8",
    ]);
    // Twice the inertia: √2 times the beat, within the escapement's pull.
    let ratio = beat(&heavier) / beat(&report);
    assert!((ratio / 2f64.sqrt() - 1.0).abs() < 0.012, "{ratio}");
}
