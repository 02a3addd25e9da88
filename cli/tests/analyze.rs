//! `orchard analyze` run as a user runs it, and its reporting half on a
//! synthetic escapement trace.

use std::collections::HashSet;
use std::f64::consts::TAU;
use std::path::Path;

use orchard_cli::analyze::report;
use orchard_cli::plot::{PlotSize, write_png};
use orchard_engine::mech::long_term::{Trace, Unit, Variable};

mod common;
use common::{assert_clean_failure, orchard, orchard_ok, scratch};

/// Balance `0.8 cos(2π t / 0.73 s)` rad and an escape wheel advancing 12° per
/// cycle, at rest where the balance turns; sampled every millisecond.
fn escapement(duration_s: f64) -> Trace {
    let period_s = 0.73;
    let step = 12f64.to_radians();
    let mut trace = Trace::new(vec![
        Variable::new("balance", Unit::Radian),
        Variable::new("escape wheel", Unit::Radian),
    ]);
    for i in 0..(duration_s * 1000.0) as usize {
        let t = i as f64 * 1e-3;
        let u = 2.0 * t / period_s;
        let balance = 0.8 * (TAU * t / period_s).cos();
        let wheel = step / 2.0 * (u - (TAU * u).sin() / TAU);
        let balance_rate = -0.8 * TAU / period_s * (TAU * t / period_s).sin();
        let wheel_rate = step / period_s * (1.0 - (TAU * u).cos());
        let energy = 1e-6 * balance_rate.powi(2) + 2.5e-7 * wheel_rate.powi(2);
        trace.push(t, &[balance, wheel], energy).unwrap();
    }
    trace
}

/// Decodes a PNG: width, height, and its pixels as RGB(A) tuples.
fn decode(path: &Path) -> (u32, u32, Vec<Vec<u8>>) {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let pixels = buf[..info.buffer_size()]
        .chunks(channels)
        .map(<[u8]>::to_vec)
        .collect();
    (info.width, info.height, pixels)
}

#[test]
fn unknown_preset_fails_with_one_line_naming_it() {
    let out = orchard(&["analyze", "nonexistent"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("`nonexistent`"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_duration_and_plot_name_fail_before_simulating() {
    for (args, needle) in [
        (&["analyze", "clock", "--duration", "0"][..], "--duration 0"),
        (
            &["analyze", "clock", "--duration", "inf"][..],
            "--duration inf",
        ),
        (
            &["analyze", "clock", "--duration", "1e9"][..],
            "at most 3600 s",
        ),
        (&["analyze", "clock", "--plot", "beats.txt"][..], ".png"),
    ] {
        let out = orchard(args);
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

#[test]
fn help_lists_the_arguments() {
    let out = orchard(&["analyze", "--help"]);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "[MECHANISM]",
        "--duration",
        "default 31 for a mechanism",
        "--plot <FILE.png>",
        "--note <N>",
        "--velocity <V>",
        "--spectrogram <FILE.png>",
        "--wav <FILE.wav>",
        "--preset <PRESET>",
        "--set <PATH=VALUE>",
        "--seed <N>",
    ] {
        assert!(help.contains(needle), "missing {needle}:\n{help}");
    }
    let top = String::from_utf8_lossy(&orchard(&["--help"]).stdout).to_string();
    assert!(top.contains("analyze"), "{top}");
}

#[test]
fn report_describes_the_cycle_and_writes_a_readable_plot() {
    let dir = scratch("report");
    let path = dir.join("escapement.png");
    let trace = escapement(12.0);
    let text = report(&trace, Some(&path)).unwrap();
    let mut lines = text.lines();
    let first = lines.next().unwrap();
    assert!(
        first.starts_with("regular: period 0.730 s, 2 kinetic-energy minima per cycle"),
        "{text}"
    );
    assert!(
        first.contains("escape wheel advances 12.0° per cycle"),
        "{text}"
    );
    assert_eq!(
        lines.next(),
        Some(format!("wrote plot {}", path.display()).as_str())
    );

    let (width, height, pixels) = decode(&path);
    let size = PlotSize::for_trace(&trace);
    assert_eq!((width, height), (size.width_px, size.height_px));
    assert_eq!((width, height), (1200, 600));
    let distinct: HashSet<&Vec<u8>> = pixels.iter().collect();
    assert!(distinct.len() > 10, "{} colours", distinct.len());
    // The curves are blue; the labels dark.
    let blue = pixels.iter().filter(|p| p[2] > 180 && p[0] < 80).count();
    let dark = pixels
        .iter()
        .filter(|p| p[0] < 60 && p[1] < 60 && p[2] < 60)
        .count();
    assert!(blue > 1000, "{blue} blue pixels");
    assert!(dark > 500, "{dark} dark pixels");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn plot_honours_the_size_and_refuses_what_it_cannot_draw() {
    let dir = scratch("sizes");
    let trace = escapement(3.0);
    let path = dir.join("small.png");
    let size = PlotSize {
        width_px: 640,
        height_px: 300,
    };
    write_png(&trace, &path, size).unwrap();
    let (width, height, _) = decode(&path);
    assert_eq!((width, height), (640, 300));

    let tiny = PlotSize {
        width_px: 100,
        height_px: 100,
    };
    let err = write_png(&trace, &dir.join("tiny.png"), tiny).unwrap_err();
    assert!(
        err.contains("too small") && err.contains("tiny.png"),
        "{err}"
    );
    let empty = Trace::new(vec![Variable::new("x", Unit::Metre)]);
    let err = write_png(&empty, &dir.join("empty.png"), size).unwrap_err();
    assert!(err.contains("no samples"), "{err}");
    let err = report(&trace, Some(&dir.join("missing-dir").join("x.png"))).unwrap_err();
    assert!(err.contains("x.png") && !err.contains('\n'), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn report_of_too_short_a_run_says_so() {
    let text = report(&escapement(1.5), None).unwrap();
    assert!(text.starts_with("insufficient data:"), "{text}");
    assert_eq!(text.lines().count(), 1);
}

/// Gelsey's escapement from rest, analysed as a user runs it: regular, with a
/// period within 1 % of the balance's damped free period 2π/√(k/I − (c/2I)²)
/// (I = 20, k = 15, c = 6: 7.366 s; the escapement adds its impulses and
/// locking), and the escape wheel advancing one whole tooth (36°) per cycle.
#[test]
fn the_escapement_ticks_regularly_at_the_balance_period() {
    let dir = scratch("escapement");
    let plot = dir.join("escapement.png");
    let out = orchard(&["analyze", "escapement", "--plot", plot.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("regular: period "), "{text}");
    let period: f64 = text["regular: period ".len()..]
        .split_once(" s")
        .and_then(|(p, _)| p.parse().ok())
        .unwrap_or_else(|| panic!("no period in {text}"));
    let free = std::f64::consts::TAU / (15.0f64 / 20.0 - (6.0f64 / 40.0).powi(2)).sqrt();
    assert!(
        (period / free - 1.0).abs() < 0.01,
        "period {period} s vs {free} s"
    );
    assert!(
        text.contains("wheel position advances 36.0° per cycle (clockwise)"),
        "{text}"
    );
    let (width, height, _) = decode(&plot);
    assert_eq!((width, height), (1200, 1400));
}

/// The number after `prefix` in `text`, up to `suffix`.
fn number_after(text: &str, prefix: &str, suffix: &str) -> f64 {
    let start = text
        .find(prefix)
        .unwrap_or_else(|| panic!("no `{prefix}` in {text}"))
        + prefix.len();
    text[start..]
        .split_once(suffix)
        .and_then(|(n, _)| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no number after `{prefix}` in {text}"))
}

/// Middle C at velocity 80 as a user measures it: the felt touches for 1–4
/// ms, the partials give the preset's inharmonicity within 15 %, and the
/// spectrogram is a real image.
#[test]
fn a_note_is_measured_and_drawn() {
    let dir = scratch("note");
    let png = dir.join("c4.png");
    let text = orchard_ok(&[
        "analyze",
        "--note",
        "60",
        "--velocity",
        "80",
        "--spectrogram",
        png.to_str().unwrap(),
    ]);
    assert!(text.starts_with("key 60 (C4) at velocity 80"), "{text}");
    let contact_ms = number_after(&text, "contact: ", "ms");
    assert!((1.0..=4.0).contains(&contact_ms), "{text}");
    let pulses = number_after(&text, "contact, ", "force pulse");
    assert!((1.0..=5.0).contains(&pulses), "{text}");
    let force = number_after(&text, "peak force ", "N");
    assert!((5.0..500.0).contains(&force), "{text}");
    let b = number_after(&text, "B = ", "fitted");
    let preset_b = number_after(&text, "(preset ", "for key 60");
    assert!((preset_b - 3.77e-4).abs() < 1e-9, "{text}");
    assert!(
        (b / preset_b - 1.0).abs() < 0.15,
        "B {b} vs {preset_b}: {text}"
    );
    // Eight partials fitted, a table row per partial, decay times of the level.
    assert!(
        text.contains("fitted to partials 1,2,3,4,5,6,7,8 "),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.trim_start().starts_with("8 ")),
        "{text}"
    );
    let early = number_after(&text, "decay of the level: T60 ", "s early");
    assert!(early > 0.1 && early < 60.0, "{text}");
    assert!(text.contains("late (-15 to -45 dB or the end)"), "{text}");
    assert!(
        text.trim_end()
            .ends_with(&format!("wrote spectrogram {}", png.display()))
    );

    let (width, height, pixels) = decode(&png);
    assert_eq!((width, height), (1200, 700));
    let distinct: HashSet<&Vec<u8>> = pixels.iter().collect();
    assert!(distinct.len() > 50, "{} colours", distinct.len());
    // Mostly the dark background of quiet cells, with bright partials.
    let bright = pixels.iter().filter(|p| p[0] > 200 && p[1] > 120).count();
    assert!(bright > 1000, "{bright} bright pixels");
    std::fs::remove_dir_all(dir).ok();
}

/// Bad note analyses fail in one line before anything is simulated or written.
#[test]
fn bad_note_analyses_fail_cleanly() {
    let dir = scratch("bad-note");
    let png = dir.join("s.png");
    let png_arg = png.to_str().unwrap();
    for (args, mentions) in [
        (
            &["--note", "10"][..],
            "--note 10 is outside the Grand piano preset's keyboard",
        ),
        (
            &["--note", "60", "--velocity", "0"][..],
            "--velocity 0 must be 1 to 127",
        ),
        (&["--note", "60", "--duration", "0"][..], "--duration 0"),
        (
            &["--note", "60", "--spectrogram", "s.jpg"][..],
            "must end in .png",
        ),
        (
            &["--note", "60", "--set", "strings:nothing=1"][..],
            "no property `strings:nothing`",
        ),
        (
            &["--note", "60", "--preset", "harpsichord"][..],
            "no preset `harpsichord`",
        ),
        (
            &["--note", "60", "--plot", png_arg][..],
            "cannot be used with",
        ),
        (&["escapement", "--note", "60"][..], "cannot be used with"),
        (&["--spectrogram", png_arg][..], "required"),
        (&["--wav", "x.wav"][..], "required"),
        (
            &["--note", "60", "--wav", "/no/such/dir/n.wav"][..],
            "--wav /no/such/dir/n.wav: there is no directory /no/such/dir",
        ),
        (
            &["--note", "60", "--spectrogram", "/no/such/dir/s.png"][..],
            "--spectrogram /no/such/dir/s.png: there is no directory",
        ),
    ] {
        let full = [&["analyze"][..], args].concat();
        assert_clean_failure(&orchard(&full), mentions);
    }
    assert!(!png.exists());
    std::fs::remove_dir_all(dir).ok();
}

/// The bars of the mallet preset are no strings: measured, but with no
/// inharmonicity fit.
#[test]
fn a_bar_is_measured_without_a_string_fit() {
    let text = orchard_ok(&[
        "analyze",
        "--note",
        "72",
        "--preset",
        "mallet-bar",
        "--duration",
        "2",
    ]);
    assert!(text.contains("contact: "), "{text}");
    assert!(text.contains("partials: not measured"), "{text}");
    assert!(text.contains("decay of the level: T60 "), "{text}");
}

/// Gelsey's chiming clock (Fig. 26) as a user analyses it, over the preset's
/// own 480 s: the escapement's regular pattern, the balance's swing drifting
/// as the mainspring runs down, and the chime superimposed every turn of the
/// large gear: twice round the escape wheel (ratio −1/2) of ten teeth, 20
/// cycles, within the 1 % the cycle's duration may vary along the run.
#[test]
fn the_chiming_clock_chimes_once_per_turn_of_its_large_gear() {
    let text = orchard_ok(&["analyze", "gelsey-chime"]);
    assert!(text.starts_with("regular: period "), "{text}");
    let period = number_after(&text, "regular: period ", " s");
    assert!(
        text.contains("wheel position advances 36.0° per cycle (clockwise)"),
        "{text}"
    );
    assert!(
        text.contains("gradual: balance position at each cycle start drifts"),
        "{text}"
    );
    let chime = number_after(&text, "superimposed process every ", " s");
    assert!(
        (chime / (20.0 * period) - 1.0).abs() < 0.01,
        "chime every {chime} s, cycle {period} s: {text}"
    );
    let lasting = number_after(&text, "lasting ", " s");
    assert!(lasting > period && lasting < chime / 2.0, "{text}");
    assert!(
        text.contains("clapper position, clapper velocity return to where they were"),
        "{text}"
    );
}

/// The variants of Figs. 27 and 28, as a user analyses them: the missing
/// tooth gives a pattern of a whole revolution, the large tooth stops the
/// clock.
#[test]
fn the_escapement_variants_end_as_gelsey_reports() {
    let missing = orchard_ok(&["analyze", "escapement-missing-tooth"]);
    assert!(missing.starts_with("regular: "), "{missing}");
    assert!(
        missing.contains("wheel position advances 360° per cycle (clockwise)"),
        "{missing}"
    );
    assert!(missing.contains("then broke"), "{missing}");
    let large = orchard_ok(&["analyze", "escapement-large-tooth"]);
    assert!(large.starts_with("stopped: at rest from "), "{large}");
    assert!(large.contains("then broke"), "{large}");
}
