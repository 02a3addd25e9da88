//! `orchard render` beyond the basics, run as a user runs it: repeatable
//! renders, tempo maps across tracks, `--set`, `--seed` and `--probe`.

use std::path::Path;

use midly::Format;
use orchard_engine::analysis::peak_frequency;

mod common;
use common::{
    TICKS_PER_BEAT, controller, end, note, one_note, orchard, read_left, render, scratch, tempo,
    write_midi,
};

const RATE: f64 = 48_000.0;
const BEAT: u32 = TICKS_PER_BEAT as u32;

/// A type-1 file: a tempo map in the first track (120 beats a minute, 80 from
/// beat 2, 150 from beat 4) and notes in two more tracks, at
/// (beat, key): (1, 60), (2.5, 64), (3, 67), (5, 72) and (6, 55). Returns the
/// notes' times in seconds and keys.
fn tempo_map_file(path: &Path) -> Vec<(f64, u8)> {
    let tempos = vec![
        tempo(0, 500_000),
        tempo(2 * BEAT, 750_000),
        tempo(2 * BEAT, 400_000),
        end(4 * BEAT),
    ];
    let short = BEAT / 4;
    let melody = vec![
        note(BEAT, 60, 100),
        note(short, 60, 0),
        note(2 * BEAT - short, 67, 100),
        note(short, 67, 0),
        note(2 * BEAT - short, 72, 100),
        note(short, 72, 0),
        end(0),
    ];
    let answer = vec![
        note(5 * BEAT / 2, 64, 100),
        note(short, 64, 0),
        note(7 * BEAT / 2 - short, 55, 100),
        note(short, 55, 0),
        end(0),
    ];
    write_midi(path, Format::Parallel, vec![tempos, melody, answer]);
    // Beats 0-2 at 0.5 s, 2-4 at 0.75 s, then 0.4 s.
    vec![
        (0.5, 60),
        (1.0 + 0.5 * 0.75, 64),
        (1.75, 67),
        (2.5 + 0.4, 72),
        (2.5 + 2.0 * 0.4, 55),
    ]
}

/// The first sample near `expected_s` that stands well above what was
/// sounding just before, s.
fn onset_near(left: &[f32], expected_s: f64) -> f64 {
    let at = |s: f64| (s * RATE).round() as usize;
    let background = left[at(expected_s - 0.05)..at(expected_s - 0.002)]
        .iter()
        .fold(0.0f32, |m, s| m.max(s.abs()));
    let threshold = (20.0 * background).max(1e-4);
    let from = at(expected_s - 0.002);
    let offset = left[from..at(expected_s + 0.05)]
        .iter()
        .position(|s| s.abs() > threshold)
        .unwrap_or_else(|| panic!("no onset near {expected_s} s"));
    (from + offset) as f64 / RATE
}

/// The same MIDI file rendered twice gives the same bytes; so does the same
/// `--seed`, and another seed another sound.
#[test]
fn renders_are_bit_identical() {
    let dir = scratch("identical");
    let midi = dir.join("tempo-map.mid");
    tempo_map_file(&midi);
    let (a, b, c, d) = (
        dir.join("a.wav"),
        dir.join("b.wav"),
        dir.join("c.wav"),
        dir.join("d.wav"),
    );
    render(&midi, &a, &[]);
    render(&midi, &b, &[]);
    let bytes = std::fs::read(&a).unwrap();
    assert!(bytes.len() > 100_000);
    assert!(bytes == std::fs::read(&b).unwrap(), "two renders differ");

    render(&midi, &c, &["--seed", "5"]);
    render(&midi, &d, &["--seed", "5"]);
    let seeded = std::fs::read(&c).unwrap();
    assert!(
        seeded == std::fs::read(&d).unwrap(),
        "seeded renders differ"
    );
    render(&midi, &d, &["--seed", "6"]);
    assert!(
        seeded != std::fs::read(&d).unwrap(),
        "the seed changes nothing"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// Tempo changes in the first track of a type-1 file time the notes of the
/// other tracks: every note sounds where the tempo map puts it, within 1 ms
/// (after the same short hammer flight for every note of the same velocity).
#[test]
fn type_1_tempo_changes_place_the_notes() {
    let dir = scratch("tempo-map");
    let midi = dir.join("tempo-map.mid");
    let notes = tempo_map_file(&midi);
    let out = dir.join("tempo-map.wav");
    // Heard from the bridge: the default close pair hears each key after
    // its own time of flight, up to 4 ms apart across the keyboard.
    render(&midi, &out, &["--set", "output:microphone=0"]);
    let left = read_left(&out);
    let delays: Vec<f64> = notes
        .iter()
        .map(|&(t, _)| onset_near(&left, t) - t)
        .collect();
    // Let-off, 2 mm of flight and the first sample loud enough to see.
    let flight = delays[0];
    assert!((0.0..0.002).contains(&flight), "{delays:?}");
    for (&(t, key), delay) in notes.iter().zip(&delays) {
        assert!(
            (delay - flight).abs() < 1e-3,
            "key {key} expected at {t} s sounds {:.2} ms late; all delays {delays:?}",
            (delay - flight) * 1e3
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

/// `--set tuning:a4_hz=442` raises A4 by 1200·log2(442/440) = 7.85 cents.
#[test]
fn set_retunes_the_piano() {
    let dir = scratch("set-a4");
    let midi = dir.join("a4.mid");
    one_note(&midi, 69, 90, 0, 2);
    let pitch = |args: &[&str]| {
        let out = dir.join("a4.wav");
        render(&midi, &out, args);
        let left = read_left(&out);
        let stretch = &left[(0.1 * RATE) as usize..(0.9 * RATE) as usize];
        peak_frequency(stretch, RATE, 400.0, 480.0).unwrap()
    };
    let cents = |a: f64, b: f64| 1200.0 * (a / b).log2();
    let standard = pitch(&[]);
    // Within a cent: the strings are tuned for their in-phase motion on the
    // board's bridge (the prompt sound); the aftersound, which leaves the
    // bridge still, sounds a fraction of a cent away, and this window holds
    // both.
    assert!(cents(standard, 440.0).abs() < 1.0, "A4 at {standard} Hz");
    let raised = pitch(&["--set", "tuning:a4_hz=442"]);
    let moved = cents(raised, standard);
    assert!(
        (moved - 7.85).abs() < 0.5,
        "{standard} Hz -> {raised} Hz: {moved} cents"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// One probe column, by name, as (time s, value) rows.
fn column(csv: &str, name: &str) -> Vec<(f64, f64)> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let index = header.iter().position(|h| *h == name).unwrap();
    lines
        .map(|line| {
            let cells: Vec<f64> = line.split(',').map(|c| c.parse().unwrap()).collect();
            (cells[0], cells[index])
        })
        .collect()
}

/// The values of `rows` between `from_s` and `to_s`.
fn between(rows: &[(f64, f64)], from_s: f64, to_s: f64) -> Vec<f64> {
    rows.iter()
        .filter(|(t, _)| (from_s..to_s).contains(t))
        .map(|&(_, v)| v)
        .collect()
}

/// `--probe` records the action (key, hammer, damper, pedal), the strings and
/// the output every `--probe-interval`, and leaves the audio untouched.
#[test]
fn probes_record_a_note_and_the_pedal() {
    let dir = scratch("probes");
    let midi = dir.join("note-and-pedal.mid");
    // Middle C held from 0.5 s to 1 s; the sustain pedal down from 1.5 s to 2.5 s.
    write_midi(
        &midi,
        Format::SingleTrack,
        vec![vec![
            note(BEAT, 60, 100),
            note(BEAT, 60, 0),
            controller(BEAT, 64, 127),
            controller(2 * BEAT, 64, 0),
            end(BEAT),
        ]],
    );
    let probes = [
        "key/60:down",
        "key/60:hammer_travel",
        "key/60:damper",
        "key/60:string_energy_j",
        "key/60:peak_force_n",
        "pedals:sustain",
        "output:rms",
        "hammers:start_gap_m",
        "tuning:a4_hz",
    ];
    let csv_path = dir.join("probes.csv");
    let mut args = vec![
        "--probe-out",
        csv_path.to_str().unwrap(),
        "--probe-interval",
        "0.002",
    ];
    for probe in probes {
        args.extend(["--probe", probe]);
    }
    let probed = dir.join("probed.wav");
    let summary = render(&midi, &probed, &args);
    assert!(summary.contains("wrote 9 probes to"), "{summary}");
    let plain = dir.join("plain.wav");
    render(&midi, &plain, &[]);
    assert!(
        std::fs::read(&probed).unwrap() == std::fs::read(&plain).unwrap(),
        "probing changed the audio"
    );

    let csv = std::fs::read_to_string(&csv_path).unwrap();
    assert_eq!(
        csv.lines().next().unwrap(),
        format!("time_s,{}", probes.join(","))
    );
    let frames = read_left(&plain).len();
    assert_eq!(csv.lines().count(), 1 + 1 + frames / 96, "rows");
    let times: Vec<f64> = column(&csv, "tuning:a4_hz").iter().map(|r| r.0).collect();
    assert_eq!(times[0], 0.0);
    assert!(times.windows(2).all(|w| (w[1] - w[0] - 0.002).abs() < 1e-9));

    let all = |name: &str, from: f64, to: f64, ok: &dyn Fn(f64) -> bool| {
        let values = between(&column(&csv, name), from, to);
        assert!(
            !values.is_empty() && values.iter().all(|&v| ok(v)),
            "{name} in {from}..{to} s: {values:?}"
        );
    };
    let max = |name: &str, from: f64, to: f64| {
        between(&column(&csv, name), from, to)
            .into_iter()
            .fold(f64::MIN, f64::max)
    };
    all("key/60:down", 0.0, 0.5, &|v| v == 0.0);
    all("key/60:down", 0.502, 1.0, &|v| v == 1.0);
    all("key/60:down", 1.002, 3.0, &|v| v == 0.0);
    // The hammer rises to let-off, just short of the string, and falls back.
    all("key/60:hammer_travel", 0.0, 0.5, &|v| v == 0.0);
    let highest = max("key/60:hammer_travel", 0.5, 0.55);
    assert!((0.9..=1.0).contains(&highest), "hammer travel {highest}");
    all("key/60:hammer_travel", 0.6, 1.0, &|v| v < 0.9);
    // The damper lifts with the key and falls after it.
    all("key/60:damper", 0.0, 0.5, &|v| v == 1.0);
    all("key/60:damper", 0.53, 1.0, &|v| v < 0.05);
    all("key/60:damper", 1.3, 1.5, &|v| v > 0.95);
    // The strings take energy from the strike and lose it once damped.
    all("key/60:string_energy_j", 0.0, 0.5, &|v| v == 0.0);
    let energy = max("key/60:string_energy_j", 0.5, 1.0);
    assert!(energy > 0.0, "{energy}");
    all("key/60:string_energy_j", 1.45, 1.5, &|v| v < 0.01 * energy);
    let force = max("key/60:peak_force_n", 0.5, 1.0);
    assert!((5.0..500.0).contains(&force), "peak force {force} N");
    all("key/60:peak_force_n", 0.0, 0.5, &|v| v == 0.0);
    all("key/60:peak_force_n", 0.6, 3.0, &|v| v == force);
    // The pedal follows CC 64.
    all("pedals:sustain", 0.0, 1.5, &|v| v == 0.0);
    all("pedals:sustain", 1.55, 2.5, &|v| v > 0.99);
    all("pedals:sustain", 2.55, 3.0, &|v| v < 0.01);
    all("output:rms", 0.0, 0.5, &|v| v == 0.0);
    assert!(max("output:rms", 0.5, 1.0) > 1e-3);
    all("hammers:start_gap_m", 0.0, 3.0, &|v| v > 0.0 && v < 0.01);
    all("tuning:a4_hz", 0.0, 3.0, &|v| v == 440.0);
    std::fs::remove_dir_all(dir).ok();
}

/// Bad probes and probe options fail in one line before anything is written.
#[test]
fn bad_probes_fail_cleanly() {
    let dir = scratch("bad-probes");
    let out = dir.join("out.wav");
    let csv = dir.join("probes.csv");
    let (out_arg, csv_arg) = (out.to_str().unwrap(), csv.to_str().unwrap());
    let unwritable = dir.join("missing").join("p.csv");
    for (args, mentions) in [
        (
            vec!["--probe", "nothing:here", "--probe-out", csv_arg],
            "--probe nothing:here: unknown probe path",
        ),
        (
            vec!["--probe", "key/60:colour", "--probe-out", csv_arg],
            "no key quantity `colour`",
        ),
        (
            vec!["--probe", "key/200:damper", "--probe-out", csv_arg],
            "`200` is not a MIDI key",
        ),
        (vec!["--probe", "key/60:damper"], "give --probe-out"),
        (vec!["--probe-out", csv_arg], "give at least one --probe"),
        (
            vec![
                "--probe",
                "output:rms",
                "--probe-out",
                csv_arg,
                "--probe-interval",
                "0",
            ],
            "--probe-interval 0",
        ),
        (
            vec![
                "--probe",
                "key/60:damper",
                "--preset",
                "mallet-bar",
                "--probe-out",
                csv_arg,
            ],
            "has no action to probe",
        ),
        (
            vec![
                "--probe",
                "output:rms",
                "--probe-out",
                unwritable.to_str().unwrap(),
            ],
            "missing/p.csv: there is no directory",
        ),
    ] {
        let full = [&["render", "--demo", "-o", out_arg][..], &args].concat();
        common::assert_clean_failure(&orchard(&full), mentions);
    }
    assert!(!out.exists() && !csv.exists());
    std::fs::remove_dir_all(dir).ok();
}

/// Outputs that cannot be written as asked are refused before rendering,
/// and an existing file named twice is left as it was.
#[test]
fn bad_outputs_are_refused_before_rendering() {
    let dir = scratch("bad-outputs");
    let out = dir.join("out.wav");
    std::fs::write(&out, b"keep me").unwrap();
    let out_arg = out.to_str().unwrap();
    let spelt_otherwise = dir.join(".").join("out.wav");
    let folder = format!("{}/", dir.join("folder").display());
    for (args, mentions) in [
        (
            vec![
                "-o",
                out_arg,
                "--probe",
                "output:rms",
                "--probe-out",
                spelt_otherwise.to_str().unwrap(),
            ],
            "the same file as -o",
        ),
        (vec!["-o", dir.to_str().unwrap()], "is a directory"),
        (vec!["-o", &folder], "is a directory"),
        (
            vec!["-o", out_arg, "--max-tail", "1e300"],
            "--max-tail 1e300 must be between 0 and 600 s",
        ),
        (
            vec!["-o", out_arg, "--max-tail=-1"],
            "must be between 0 and 600 s",
        ),
    ] {
        let full = [&["render", "--demo"][..], &args].concat();
        common::assert_clean_failure(&orchard(&full), mentions);
    }
    assert_eq!(std::fs::read(&out).unwrap(), b"keep me");
    std::fs::remove_dir_all(dir).ok();
}

/// Inputs that would make a render unbounded are refused, saying why: a
/// device that never ends, and a score lasting days.
#[test]
fn unbounded_inputs_are_refused() {
    let dir = scratch("unbounded");
    let out = dir.join("out.wav");
    let days = dir.join("days.mid");
    // A note that starts 2^28 − 1 ticks in: 77 hours at 120 beats a minute.
    write_midi(
        &days,
        Format::SingleTrack,
        vec![vec![note((1 << 28) - 1, 60, 90), note(BEAT, 60, 0), end(0)]],
    );
    let out_arg = out.to_str().unwrap();
    for (input, mentions) in [
        ("/dev/zero", "is not a regular file"),
        (days.to_str().unwrap(), "longer than --max-duration 21600 s"),
    ] {
        common::assert_clean_failure(&orchard(&["render", input, "-o", out_arg]), mentions);
    }
    assert!(!out.exists());
    std::fs::remove_dir_all(dir).ok();
}

/// `--sample-rate` takes what the plugin takes, 1 kHz to 2 MHz: at 8 kHz
/// A4 sounds in tune, and a rate outside the range is refused with it.
#[test]
fn low_sample_rates_render_in_tune_and_the_range_is_named() {
    let dir = scratch("low-rate");
    let (midi, out) = (dir.join("a4.mid"), dir.join("a4.wav"));
    one_note(&midi, 69, 100, 0, 2);
    render(&midi, &out, &["--sample-rate", "8000", "--max-tail", "0"]);
    let (spec, _) = common::read_wav(&out);
    assert_eq!(spec.sample_rate, 8_000);
    let left = read_left(&out);
    let pitch = peak_frequency(&left[800..], 8_000.0, 420.0, 460.0).unwrap();
    assert!((pitch - 440.4).abs() < 1.0, "A4 at {pitch} Hz");
    let (midi_arg, out_arg) = (midi.to_str().unwrap(), out.to_str().unwrap());
    for (rate, mentions) in [
        ("999", "999 Hz is outside 1000 to 2000000 Hz"),
        ("2000001", "2000001 Hz is outside 1000 to 2000000 Hz"),
        ("44.1k", "'44.1k' is not a whole number of Hz"),
    ] {
        let args = ["render", midi_arg, "-o", out_arg, "--sample-rate", rate];
        common::assert_clean_failure(&orchard(&args), mentions);
    }
    std::fs::remove_dir_all(dir).ok();
}
