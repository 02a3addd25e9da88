//! `orchard compare` run as a user runs it: synthetic notes whose partials,
//! inharmonicity, decay and brightness are known, an Ogg Vorbis note that
//! Orchard made (`tests/fixtures/Orchard.A4.ogg`), a real recording of the
//! reference grand when `ORCHARD_RECORDINGS` names a folder of them, the
//! keyboard table, and bad input.

use std::f64::consts::PI;
use std::path::{Path, PathBuf};

mod common;
use common::{assert_clean_failure, orchard, orchard_ok, scratch};

/// A synthetic struck string: partials 1 to 12 at amplitude `0.2 / n` and
/// frequencies `n · f0 · sqrt(1 + B n²)`, whose level falls with T60
/// `early_t60_s` for its first 15 dB and `late_t60_s` after, starting after
/// `lead_s` of silence.
struct Note {
    f0_hz: f64,
    b: f64,
    early_t60_s: f64,
    late_t60_s: f64,
    lead_s: f64,
    seconds: f64,
}

impl Note {
    fn partial_hz(&self, n: u32) -> f64 {
        let n = f64::from(n);
        n * self.f0_hz * (1.0 + self.b * n * n).sqrt()
    }

    fn amplitude(n: u32) -> f64 {
        0.2 / f64::from(n)
    }

    /// The level at `t` s after the start of the note, dB.
    fn level_db(&self, t: f64) -> f64 {
        let bend_s = 15.0 * self.early_t60_s / 60.0;
        if t < bend_s {
            -60.0 * t / self.early_t60_s
        } else {
            -15.0 - 60.0 * (t - bend_s) / self.late_t60_s
        }
    }

    /// The samples at `sample_rate` Hz.
    fn samples(&self, sample_rate: f64) -> Vec<f64> {
        let lead = (self.lead_s * sample_rate) as usize;
        (0..((self.lead_s + self.seconds) * sample_rate) as usize)
            .map(|i| {
                let Some(after) = i.checked_sub(lead) else {
                    return 0.0;
                };
                let t = after as f64 / sample_rate;
                let tone: f64 = (1..=12)
                    .map(|n| Self::amplitude(n) * (2.0 * PI * self.partial_hz(n) * t).sin())
                    .sum();
                tone * 10f64.powf(self.level_db(t) / 20.0)
            })
            .collect()
    }

    /// Power-weighted mean frequency of the partials, Hz: the spectral
    /// centroid of the note (all partials decay alike).
    fn centroid_hz(&self) -> f64 {
        let power = |n: u32| Self::amplitude(n).powi(2);
        (1..=12).map(|n| self.partial_hz(n) * power(n)).sum::<f64>()
            / (1..=12).map(power).sum::<f64>()
    }

    /// Writes the note to `path`: mono 32-bit float at 48 kHz, or stereo
    /// 16-bit integer at 44.1 kHz (both channels alike).
    fn write(&self, path: &Path, stereo_int16: bool) {
        let (channels, sample_rate, bits, format) = if stereo_int16 {
            (2, 44_100, 16, hound::SampleFormat::Int)
        } else {
            (1, 48_000, 32, hound::SampleFormat::Float)
        };
        let spec = hound::WavSpec {
            channels,
            sample_rate,
            bits_per_sample: bits,
            sample_format: format,
        };
        let mut writer = hound::WavWriter::create(path, spec).unwrap();
        for s in self.samples(f64::from(sample_rate)) {
            for _ in 0..channels {
                if stereo_int16 {
                    writer.write_sample((s * 32_767.0).round() as i16).unwrap();
                } else {
                    writer.write_sample(s as f32).unwrap();
                }
            }
        }
        writer.finalize().unwrap();
    }
}

/// The render's and the recording's cells of the report line starting with
/// `label` (columns of 26, 12 and 12 characters).
fn cells(text: &str, label: &str) -> (String, String) {
    let line = text
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no `{label}` line in\n{text}"));
    let cell = |skip: usize| -> String { line.chars().skip(skip).take(12).collect() };
    (cell(26).trim().to_owned(), cell(38).trim().to_owned())
}

/// The number a cell starts with.
fn number(cell: &str) -> f64 {
    cell.split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number in `{cell}`"))
}

/// Both cells of a line as numbers.
fn numbers(text: &str, label: &str) -> (f64, f64) {
    let (ours, theirs) = cells(text, label);
    (number(&ours), number(&theirs))
}

fn assert_near(measured: f64, truth: f64, tolerance: f64, what: &str, text: &str) {
    assert!(
        (measured / truth - 1.0).abs() < tolerance,
        "{what}: measured {measured}, made {truth}\n{text}"
    );
}

/// The environment variable that names a folder of the reference grand's
/// recordings (the University of Iowa MIS piano, ff: `Piano.ff.A4.ogg`, ...).
const RECORDINGS_VARIABLE: &str = "ORCHARD_RECORDINGS";

/// The folder of reference recordings, if `ORCHARD_RECORDINGS` names one;
/// `None`, saying in one line that `test` was skipped, if it is not set. A
/// variable that names no folder is a mistake, not a skip: it panics.
fn recordings(test: &str) -> Option<PathBuf> {
    let Some(folder) = std::env::var_os(RECORDINGS_VARIABLE) else {
        eprintln!("skipped {test}: {RECORDINGS_VARIABLE} names no folder of reference recordings");
        return None;
    };
    let folder = PathBuf::from(folder);
    assert!(
        folder.is_dir(),
        "{RECORDINGS_VARIABLE}={} is not a folder",
        folder.display()
    );
    Some(folder)
}

/// What `compare` measured of `tests/fixtures/Orchard.A4.ogg` when it was
/// made: its first partial (Hz), early and late T60 (s).
const OGG_PARTIAL_1_HZ: f64 = 440.20;
const OGG_EARLY_T60_S: f64 = 1.39;
const OGG_LATE_T60_S: f64 = 11.67;

/// An Ogg Vorbis file of a piano note, committed with the tests: Orchard's
/// A4 at velocity 100 (see `tests/fixtures/README.md` for how it was made).
fn orchard_ogg() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/Orchard.A4.ogg")
}

/// Two synthetic notes of A3 with different strings and decays: compare
/// reports each one's partial levels, B, early and late T60 and centroid
/// within a few per cent of how they were made. The note comes from the
/// recording's file name; the render is longer than the recording, so its
/// late T60 is also given over the recording's length.
#[test]
fn compare_reports_what_synthetic_notes_were_made_of() {
    let dir = scratch("synthetic");
    let render = Note {
        f0_hz: 220.0,
        b: 4e-4,
        early_t60_s: 1.2,
        late_t60_s: 6.0,
        lead_s: 0.1,
        seconds: 6.0,
    };
    let recording = Note {
        f0_hz: 221.0,
        b: 9e-4,
        early_t60_s: 2.0,
        late_t60_s: 15.0,
        lead_s: 0.0,
        seconds: 4.0,
    };
    let render_path = dir.join("render.wav");
    let recording_path = dir.join("Piano.ff.A3.wav");
    render.write(&render_path, false);
    recording.write(&recording_path, true);
    let text = orchard_ok(&[
        "compare",
        render_path.to_str().unwrap(),
        recording_path.to_str().unwrap(),
    ]);
    assert!(
        text.starts_with("note: A3 (from the file name Piano.ff.A3.wav)"),
        "{text}"
    );
    let (ours, theirs) = numbers(&text, "partial 1, Hz");
    assert_near(ours, render.partial_hz(1), 1e-4, "render partial 1", &text);
    assert_near(
        theirs,
        recording.partial_hz(1),
        1e-4,
        "recording partial 1",
        &text,
    );
    for n in [2u32, 5, 10] {
        let (ours, theirs) = numbers(&text, &format!("partial {n}, dB re 1"));
        let made = -20.0 * f64::from(n).log10();
        assert!((ours - made).abs() < 0.5, "partial {n}: {ours} dB\n{text}");
        assert!(
            (theirs - made).abs() < 0.5,
            "partial {n}: {theirs} dB\n{text}"
        );
    }
    let (ours, theirs) = numbers(&text, "B (partials 1-8)");
    assert_near(ours, render.b, 0.03, "render B", &text);
    assert_near(theirs, recording.b, 0.03, "recording B", &text);
    let (ours, theirs) = numbers(&text, "early T60");
    assert_near(ours, render.early_t60_s, 0.03, "render early T60", &text);
    assert_near(
        theirs,
        recording.early_t60_s,
        0.03,
        "recording early T60",
        &text,
    );
    let (ours, theirs) = numbers(&text, "late T60  ");
    assert_near(ours, render.late_t60_s, 0.03, "render late T60", &text);
    // The recording ends before -45 dB: fitted from -15 dB to its end.
    assert_near(
        theirs,
        recording.late_t60_s,
        0.03,
        "recording late T60",
        &text,
    );
    // The render measured as long as the recording (4 s from the onset).
    let (cut, _) = numbers(&text, "late T60, first 4.00 s");
    assert_near(
        cut,
        render.late_t60_s,
        0.03,
        "render late T60 over 4 s",
        &text,
    );
    let (ours, theirs) = numbers(&text, "centroid, first 0.3 s");
    assert_near(ours, render.centroid_hz(), 0.02, "render centroid", &text);
    assert_near(
        theirs,
        recording.centroid_hz(),
        0.02,
        "recording centroid",
        &text,
    );
    // Every partial decays as the whole, timed from a second after its
    // peak: on the late slope (the render over the recording's 4 s).
    for n in [1u32, 4, 10] {
        let (ours, theirs) = numbers(&text, &format!("partial {n} T60"));
        assert_near(ours, render.late_t60_s, 0.1, "render partial T60", &text);
        assert_near(
            theirs,
            recording.late_t60_s,
            0.1,
            "recording partial T60",
            &text,
        );
    }
    let ratio = text
        .lines()
        .find_map(|l| l.strip_prefix("partials' T60s, render over recording: ×"))
        .unwrap_or_else(|| panic!("no partial decay ratio in\n{text}"));
    let (ratio, timed) = ratio.split_once(", ").unwrap();
    assert_near(number(ratio), 6.0 / 15.0, 0.1, "partial decay ratio", &text);
    assert_eq!(timed, "10", "{text}");
    // Both made with partials at 0.2 / n: partials 2-10 alike.
    let difference = text
        .lines()
        .find_map(|l| l.strip_prefix("partials 2-10 vs 1, render − recording: mean "))
        .unwrap_or_else(|| panic!("no partial level difference in\n{text}"));
    let (mean, rest) = difference.split_once(" dB, mean absolute ").unwrap();
    assert!(number(mean).abs() < 0.5, "{text}");
    assert!(number(rest) < 0.5, "{text}");
    assert!(rest.ends_with("(9 of 9 partials)"), "{text}");
    // Nothing but partials in the attack.
    for label in ["between partials, dB", "below partial 1, dB"] {
        let (ours, theirs) = numbers(&text, label);
        assert!(ours < -30.0 && theirs < -30.0, "{label}\n{text}");
    }
    // All partials decay together without beating: no dips.
    for n in 1..=4 {
        let (ours, theirs) = numbers(&text, &format!("partial {n} deepest dip"));
        assert!(ours > -2.0 && theirs > -2.0, "partial {n}\n{text}");
    }
    // The render is a mono file, the recording the same sound in both
    // channels.
    let (ours, theirs) = cells(&text, "L/R correlation");
    assert_eq!(ours, "–", "{text}");
    assert_eq!(theirs, "1.00", "{text}");
    assert_eq!(cells(&text, "side/mid, dB").1, "−∞", "{text}");
    std::fs::remove_dir_all(dir).ok();
}

/// Without a note name anywhere, `--note` (a number or a name) or else the
/// pitch estimate tells where the partials are.
#[test]
fn the_note_comes_from_note_or_from_the_sound() {
    let dir = scratch("which-note");
    let note = Note {
        f0_hz: 110.0,
        b: 2e-4,
        early_t60_s: 1.5,
        late_t60_s: 8.0,
        lead_s: 0.0,
        seconds: 2.0,
    };
    let path = dir.join("tone.wav");
    note.write(&path, false);
    let file = path.to_str().unwrap();
    let estimated = orchard_ok(&["compare", file, file]);
    let first = estimated.lines().next().unwrap();
    assert!(
        first.starts_with("note: estimated from the recording at "),
        "{estimated}"
    );
    let (f, _) = numbers(&estimated, "partial 1, Hz");
    assert_near(f, note.partial_hz(1), 1e-4, "partial 1", &estimated);
    for given in ["45", "A2"] {
        let text = orchard_ok(&["compare", file, file, "--note", given]);
        assert!(text.starts_with("note: A2 (--note)"), "{text}");
        let (b, _) = numbers(&text, "B (partials 1-8)");
        assert_near(b, note.b, 0.03, "B", &text);
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Orchard's A4 at velocity 100, held 2 s, written by `analyze --note --wav`
/// into `dir` as `a4.wav`; returns its path.
fn orchard_a4(dir: &Path) -> PathBuf {
    let wav = dir.join("a4.wav");
    let analysed = orchard_ok(&[
        "analyze",
        "--note",
        "69",
        "--velocity",
        "100",
        "--duration",
        "2",
        "--wav",
        wav.to_str().unwrap(),
    ]);
    assert!(
        analysed
            .trim_end()
            .ends_with(&format!("wrote {}", wav.display())),
        "{analysed}"
    );
    wav
}

/// Orchard's A4 written by `analyze --note --wav`, beside the committed Ogg
/// Vorbis A4 that Orchard made: the Ogg file is decoded at its own rate and
/// measured as it was when it was made (first partial 440.20 Hz, early T60
/// 1.39 s, late T60 11.67 s over its 3 s), and both first partials lie
/// within 10 cents of 440 Hz.
#[test]
fn an_ogg_vorbis_note_is_decoded_and_measured() {
    let dir = scratch("ogg");
    let wav = orchard_a4(&dir);
    let text = orchard_ok(&[
        "compare",
        wav.to_str().unwrap(),
        orchard_ogg().to_str().unwrap(),
    ]);
    assert!(
        text.starts_with("note: A4 (from the file name Orchard.A4.ogg)"),
        "{text}"
    );
    assert!(text.contains("at 44100 Hz"), "{text}");
    let (ours, theirs) = numbers(&text, "partial 1, Hz");
    for (who, hz) in [("the render", ours), ("the Ogg file", theirs)] {
        let cents = 1200.0 * (hz / 440.0).log2();
        assert!(cents.abs() < 10.0, "{who}'s A4 at {hz} Hz\n{text}");
    }
    assert_near(
        theirs,
        OGG_PARTIAL_1_HZ,
        1e-4,
        "the Ogg file's partial 1",
        &text,
    );
    let (_, early) = numbers(&text, "early T60");
    let (_, late) = numbers(&text, "late T60  ");
    assert_near(
        early,
        OGG_EARLY_T60_S,
        0.02,
        "the Ogg file's early T60",
        &text,
    );
    assert_near(late, OGG_LATE_T60_S, 0.02, "the Ogg file's late T60", &text);
    // `analyze --wav` writes both channels as played: a correlation.
    let (correlation, _) = numbers(&text, "L/R correlation");
    assert!((-1.0..=1.0).contains(&correlation), "{text}");
    std::fs::remove_dir_all(dir).ok();
}

/// The reference grand's A4 (from `ORCHARD_RECORDINGS`), an Ogg Vorbis
/// file, beside Orchard's A4: the recording's first partial lies within 10
/// cents of 440 Hz, and its decay, measured on its two channels, is the
/// two-stage decay that `docs/reference-measurements.md` gives for them
/// (early 1.3 s, as each channel's alone, late 11 s; ±30 %).
#[test]
fn a_real_recording_is_decoded_and_measured() {
    let Some(recordings) = recordings("a_real_recording_is_decoded_and_measured") else {
        return;
    };
    let dir = scratch("real");
    let wav = orchard_a4(&dir);
    let a4 = recordings.join("Piano.ff.A4.ogg");
    let text = orchard_ok(&["compare", wav.to_str().unwrap(), a4.to_str().unwrap()]);
    assert!(
        text.starts_with("note: A4 (from the file name Piano.ff.A4.ogg)"),
        "{text}"
    );
    assert!(text.contains("at 44100 Hz"), "{text}");
    let (_, theirs) = numbers(&text, "partial 1, Hz");
    let cents = 1200.0 * (theirs / 440.0).log2();
    assert!(
        cents.abs() < 10.0,
        "the recording's A4 at {theirs} Hz\n{text}"
    );
    let (_, early) = numbers(&text, "early T60");
    let (_, late) = numbers(&text, "late T60  ");
    assert!((0.9..=1.7).contains(&early), "{text}");
    assert!((7.7..=14.3).contains(&late), "{text}");
    // The render (2 s) is shorter than the recording: nothing to cut.
    assert!(!text.contains("late T60, first"), "{text}");
    std::fs::remove_dir_all(dir).ok();
}

/// The keyboard mode renders each key and prints one Markdown row per key,
/// with the recording's measures beside Orchard's.
#[test]
fn the_keyboard_mode_prints_a_markdown_table() {
    let dir = scratch("keyboard");
    let folder = dir.join("recordings");
    std::fs::create_dir_all(&folder).unwrap();
    for (name, f0_hz) in [("C4", 261.63), ("E4", 329.63)] {
        let note = Note {
            f0_hz,
            b: 3e-4,
            early_t60_s: 2.0,
            late_t60_s: 12.0,
            lead_s: 0.0,
            seconds: 3.0,
        };
        note.write(&folder.join(format!("Piano.ff.{name}.wav")), true);
    }
    std::fs::write(folder.join("README.md"), "not a recording").unwrap();
    let text = orchard_ok(&[
        "compare",
        "--keyboard",
        folder.to_str().unwrap(),
        "--from",
        "60",
        "--to",
        "64",
        "--every",
        "4",
        "--duration",
        "1.5",
    ]);
    // Three tables: the decay and brightness, the tone and attack, and the
    // recordings' two channels against each other.
    let mut tables: Vec<Vec<&str>> = Vec::new();
    let mut in_table = false;
    for line in text.lines() {
        let row = line.starts_with('|');
        if row && !in_table {
            tables.push(Vec::new());
        }
        if row {
            tables.last_mut().unwrap().push(line);
        }
        in_table = row;
    }
    assert_eq!(tables.len(), 3, "{text}");
    let table = &tables[0];
    assert_eq!(table.len(), 4, "{text}");
    assert!(table[0].contains("Orchard early / late T60"), "{text}");
    assert_eq!(table[1], "|---|---|---|---|---|---|", "{text}");
    for (row, key) in table[2..].iter().zip(["C4", "E4"]) {
        let columns: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(columns.len(), 8, "{row}");
        assert_eq!(columns[1], key, "{row}");
        // The recording's early and late T60 as made.
        let (early, late) = columns[3].split_once(" / ").unwrap();
        assert_near(number(early), 2.0, 0.03, "early T60", &text);
        assert_near(number(late), 12.0, 0.03, "late T60", &text);
        // Orchard's B and the recording's, both measured.
        let (ours, theirs) = columns[5].split_once(" / ").unwrap();
        assert!(number(ours) > 0.5 && number(ours) < 50.0, "{row}");
        assert_near(number(theirs), 3.0, 0.03, "recording B ×1e4", &text);
    }
    let tone = &tables[1];
    assert_eq!(tone.len(), 4, "{text}");
    assert!(tone[0].contains("partials 2–10 O−R"), "{text}");
    for (row, key) in tone[2..].iter().zip(["C4", "E4"]) {
        let columns: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(columns.len(), 12, "{row}");
        assert_eq!(columns[1], key, "{row}");
        // Partials 2-10 of both, compared: all nine, or eight where the
        // render's spaced pair cancels one in its mono sum (as a recorded
        // pair does at some partials).
        let (_, count) = columns[2].rsplit_once(", ").unwrap();
        assert!(matches!(count, "8" | "9"), "{row}");
        // Partials 1-10 of both timed: the ratio of their T60s, over all
        // ten (the synthetic recording's stand clear of its silence).
        let (ratio, count) = columns[3].rsplit_once(", ").unwrap();
        assert!(number(ratio.trim_start_matches('×')) > 0.0, "{row}");
        assert_eq!(count, "10", "{row}");
        // The synthetic recording's attack holds only partials, and its
        // partials decay without beating.
        for column in [4, 5, 6] {
            let (_, theirs) = columns[column].split_once(" / ").unwrap();
            assert!(number(theirs) < -30.0, "{row}");
        }
        for dip in columns[8].split(" / ") {
            assert!(number(dip) > -3.0, "{row}");
        }
        // Orchard's stereo image, and the recording's (one sound in both
        // channels).
        let (ours, theirs) = columns[9].split_once(" / ").unwrap();
        assert!((-1.0..=1.0).contains(&number(ours)), "{row}");
        assert_eq!(theirs, "1.00", "{row}");
    }
    // The recordings' channels are alike: they do not differ on any figure.
    let pair = &tables[2];
    assert_eq!(pair.len(), 4, "{text}");
    assert!(pair[0].contains("partials 2–10 L−R"), "{text}");
    for (row, key) in pair[2..].iter().zip(["C4", "E4"]) {
        let columns: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(columns.len(), 10, "{row}");
        assert_eq!(columns[1], key, "{row}");
        assert!(columns[2].ends_with(" / 0.0, 9"), "{row}");
        assert!(columns[3].starts_with("×1.00, "), "{row}");
        // Decays, centroids and the attack's noise, left as right.
        for column in &columns[4..=8] {
            let (left, right) = column.split_once(" / ").unwrap();
            assert_eq!(left, right, "{row}");
        }
    }
    // A key without a recording stops the comparison before any rendering.
    let out = orchard(&[
        "compare",
        "--keyboard",
        folder.to_str().unwrap(),
        "--from",
        "60",
        "--to",
        "61",
        "--every",
        "1",
    ]);
    assert_clean_failure(&out, "no recording of C♯4 (key 61)");
    std::fs::remove_dir_all(dir).ok();
}

/// Missing, corrupt, silent and foreign files, and bad options, each stop
/// with one line naming the problem.
#[test]
fn bad_input_fails_cleanly() {
    let dir = scratch("bad");
    let good = dir.join("Piano.ff.A3.wav");
    Note {
        f0_hz: 220.0,
        b: 4e-4,
        early_t60_s: 1.0,
        late_t60_s: 5.0,
        lead_s: 0.0,
        seconds: 1.0,
    }
    .write(&good, false);
    let missing = dir.join("missing.wav");
    let corrupt_wav = dir.join("corrupt.wav");
    std::fs::write(&corrupt_wav, b"RIFF\x10\x00\x00\x00WAVEjunkjunkjunk").unwrap();
    let corrupt_ogg = dir.join("corrupt.ogg");
    std::fs::write(
        &corrupt_ogg,
        b"OggS\x00\x02garbage that is no Vorbis stream",
    )
    .unwrap();
    let text_file = dir.join("notes.wav");
    std::fs::write(&text_file, "C4 D4 E4").unwrap();
    let empty = dir.join("empty.ogg");
    std::fs::write(&empty, b"").unwrap();
    let silent = dir.join("silent.wav");
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 48_000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut writer = hound::WavWriter::create(&silent, spec).unwrap();
    for _ in 0..48_000 {
        writer.write_sample(0i16).unwrap();
    }
    writer.finalize().unwrap();
    // The first 6 kB of an Ogg Vorbis A4: its headers and a little sound.
    let truncated = dir.join("truncated.ogg");
    let a4 = std::fs::read(orchard_ogg()).unwrap();
    assert!(a4.len() > 12_000, "the committed Ogg file is whole");
    std::fs::write(&truncated, &a4[..6_000]).unwrap();

    let good = good.to_str().unwrap();
    for (file, reason) in [
        (&missing, "missing.wav: No such file"),
        (&corrupt_wav, "corrupt.wav"),
        (&corrupt_ogg, "corrupt.ogg"),
        (
            &text_file,
            "notes.wav: neither a WAV nor an Ogg Vorbis file",
        ),
        (&empty, "empty.ogg: too short"),
        (&silent, "silent.wav is silent"),
    ] {
        let file = file.to_str().unwrap();
        assert_clean_failure(&orchard(&["compare", file, good]), reason);
        assert_clean_failure(&orchard(&["compare", good, file]), reason);
    }
    // Cut short inside an Ogg page, the recording is corrupt.
    let out = orchard(&["compare", good, truncated.to_str().unwrap(), "--note", "A4"]);
    assert_clean_failure(&out, "truncated.ogg");
    for (args, reason) in [
        (&["compare", good, good, "--note", "H4"][..], "--note H4"),
        (&["compare", good][..], "RECORDING"),
        (&["compare"][..], "required"),
        (
            &["compare", "--keyboard", "/no/such/folder"][..],
            "cannot read the folder /no/such/folder",
        ),
        (
            &[
                "compare",
                "--keyboard",
                "/tmp",
                "--from",
                "70",
                "--to",
                "60",
            ][..],
            "--from 70 is above --to 60",
        ),
        (
            &["compare", "--keyboard", "/tmp", "--from", "5"][..],
            "--from 5 is outside the Grand piano preset's keyboard",
        ),
        (
            &["compare", good, good, "--set", "tuning:a4_hz=442"][..],
            "--preset, --set, --seed, --temperament and --tuning are for --keyboard",
        ),
        (
            &["compare", good, good, "--every", "2"][..],
            "are for --keyboard",
        ),
    ] {
        assert_clean_failure(&orchard(args), reason);
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn help_lists_the_arguments() {
    let out = orchard(&["compare", "--help"]);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "[RENDER]",
        "[RECORDING]",
        "--note <N>",
        "--keyboard <DIR>",
        "--every <N>",
        "--from <KEY>",
        "--to <KEY>",
        "--velocity <V>",
        "--duration <SECONDS>",
        "--preset <PRESET>",
        "--set <PATH=VALUE>",
        "--seed <N>",
    ] {
        assert!(help.contains(needle), "missing {needle}:\n{help}");
    }
    let top = String::from_utf8_lossy(&orchard(&["--help"]).stdout).to_string();
    assert!(top.contains("compare"), "{top}");
}
