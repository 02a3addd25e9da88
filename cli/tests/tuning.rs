//! `--temperament`, `--tuning FILE.scl` and `--keymap FILE.kbm`, run as a user
//! runs them: the rendered note sounds where the chosen tuning puts it, and
//! a bad file stops the render with one line naming the file and the line.

use orchard_engine::analysis::peak_frequency;

mod common;
use common::{assert_clean_failure, one_note, orchard, read_left, render, scratch};

const RATE: f64 = 48_000.0;

/// The example files under `tunings/`.
fn example(name: &str) -> String {
    format!("{}/../tunings/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn cents(a: f64, b: f64) -> f64 {
    1200.0 * (a / b).log2()
}

/// The first partial (Hz) of `key` rendered with `args` (the grand on its
/// board, so within a cent: see `render_options.rs`), sought within half a
/// semitone of `expected` Hz.
fn pitch(name: &str, key: u8, expected: f64, args: &[&str]) -> f64 {
    let dir = scratch(name);
    let midi = dir.join("note.mid");
    one_note(&midi, key, 90, 0, 2);
    let out = dir.join("note.wav");
    render(&midi, &out, args);
    let left = read_left(&out);
    let window = &left[(0.1 * RATE) as usize..(0.9 * RATE) as usize];
    let band = 2f64.powf(0.5 / 12.0);
    let f = peak_frequency(window, RATE, expected / band, expected * band).unwrap();
    std::fs::remove_dir_all(dir).ok();
    f
}

/// Werckmeister III's E4 lies 390.225 − 888.270 cents from A4 (13.955 cents
/// below equal temperament's), and the stretch is off: E4 at 327.82 Hz.
#[test]
fn temperament_flag_tunes_the_keyboard() {
    let expected = 440.0 * 2f64.powf((390.225 - 888.270) / 1200.0);
    let args = [
        "--temperament",
        "werckmeister-iii",
        "--set",
        "tuning:stretch=0",
    ];
    let f = pitch("werckmeister", 64, expected, &args);
    assert!(
        cents(f, expected).abs() < 1.0,
        "E4 at {f} Hz, not {expected}"
    );
}

/// The example 19-EDO scale with its mapping (degree 0 on middle C at 256 Hz),
/// from its files or by its built-in name: key 62 sounds two nineteenths of
/// an octave above 256 Hz.
#[test]
fn scala_files_tune_the_keyboard() {
    let (scl, kbm) = (example("19-edo.scl"), example("19-edo.kbm"));
    let expected = 256.0 * 2f64.powf(2.0 / 19.0);
    let args = [
        "--tuning",
        &scl,
        "--keymap",
        &kbm,
        "--set",
        "tuning:stretch=0",
    ];
    let f = pitch("19-edo", 62, expected, &args);
    assert!(
        cents(f, expected).abs() < 1.0,
        "key 62 at {f} Hz, not {expected}"
    );
    // The same, built in by name (as docs/cli.md runs it, from anywhere).
    let args = [
        "--tuning",
        "19-edo",
        "--keymap",
        "19-edo",
        "--set",
        "tuning:stretch=0",
    ];
    assert_eq!(pitch("19-edo-built-in", 62, expected, &args), f);
}

/// A bad pitch line, a bad mapping line and an unknown temperament each stop
/// the render with one line naming the file and the line.
#[test]
fn bad_tuning_files_are_named_with_their_line() {
    let dir = scratch("bad-tuning");
    let midi = dir.join("note.mid");
    one_note(&midi, 60, 90, 0, 1);
    let out = dir.join("note.wav");
    let scl = dir.join("tuning.scl");
    std::fs::write(
        &scl,
        "! tuning.scl\n!\nA scale\n 12\n!\n 16/15\n 9/8\n 6/5\nabc\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let base = [
            "render",
            midi.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ];
        orchard(&[&base[..], extra].concat())
    };
    assert_clean_failure(
        &run(&["--tuning", scl.to_str().unwrap()]),
        "tuning.scl line 9: expected a ratio like 3/2 or a cents value like 701.955, found 'abc'",
    );
    let kbm = dir.join("keys.kbm");
    std::fs::write(&kbm, "! keys.kbm\n12\n0\n127\n60\n69\n440.0\n12\n0\n1\ny\n").unwrap();
    let good_scl = example("19-edo.scl");
    assert_clean_failure(
        &run(&["--tuning", &good_scl, "--keymap", kbm.to_str().unwrap()]),
        "keys.kbm line 11: expected a scale degree or x, found 'y'",
    );
    assert_clean_failure(
        &run(&["--temperament", "meantone"]),
        "--temperament meantone: expected one of equal, werckmeister-iii",
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(dir).ok();
}
