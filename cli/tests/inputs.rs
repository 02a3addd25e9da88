//! Hostile and wrong inputs (issue 29), run as a user runs them: every
//! input file is read with a size cap and never blocks on a FIFO; a folder
//! that links to itself is searched once; a MIDI tempo of 0, a recording
//! at 1 Hz, a manifest naming a column twice are refused; a manifest's
//! preset is found from its folder; a huge manifest line is not echoed.

use std::path::Path;
use std::time::Duration;

mod common;
use common::{
    assert_clean_failure, end, mkfifo, note, orchard, orchard_within, scratch, short_note, tempo,
    write_midi,
};

/// Longest a refusal may take here, far above what it takes (milliseconds)
/// and far below "for ever".
const LIMIT: Duration = Duration::from_secs(60);

/// A FIFO nobody writes to, given as any input (MIDI, scale, keyboard
/// mapping, manifest, `compare`'s and `pin`'s inputs, preset), is refused
/// at once in one line naming it; `/dev/zero` as a scale, a mapping or a
/// manifest is refused before it is read.
#[test]
fn fifos_and_endless_devices_are_refused_at_once() {
    let dir = scratch("fifos");
    let fifo = dir.join("pipe");
    mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    let midi = dir.join("x.mid");
    short_note(&midi);
    let midi = midi.to_str().unwrap();
    let wav = dir.join("x.wav");
    let wav = wav.to_str().unwrap();
    let scl = format!("{}/../tunings/19-edo.scl", env!("CARGO_MANIFEST_DIR"));
    let out_dir = dir.join("out");
    let out_dir = out_dir.to_str().unwrap();
    for source in [fifo, "/dev/zero"] {
        let runs: [Vec<&str>; 3] = [
            vec!["render", midi, "-o", wav, "--tuning", source],
            vec![
                "render", midi, "-o", wav, "--tuning", &scl, "--keymap", source,
            ],
            vec!["render", "--manifest", source, "--out-dir", out_dir],
        ];
        for args in runs {
            let out = orchard_within(None, &args, LIMIT);
            assert_clean_failure(&out, source);
            assert_clean_failure(&out, "not a regular file");
        }
    }
    let runs: [Vec<&str>; 4] = [
        vec!["render", fifo, "-o", wav],
        vec!["render", midi, "-o", wav, "--preset", fifo],
        vec!["compare", fifo, fifo, "--note", "60"],
        vec!["pin", fifo, "-o", wav],
    ];
    for args in runs {
        let out = orchard_within(None, &args, LIMIT);
        assert_clean_failure(&out, fifo);
    }
    assert!(!Path::new(wav).exists());
    std::fs::remove_dir_all(dir).ok();
}

/// A folder holding two links to itself (2^40 paths down to the kernel's
/// limit of links) renders each file in it once.
#[test]
fn a_folder_linking_to_itself_is_searched_once() {
    let dir = scratch("self-links");
    let songs = dir.join("songs");
    std::fs::create_dir_all(&songs).unwrap();
    short_note(&songs.join("a.mid"));
    for link in ["self", "again"] {
        std::os::unix::fs::symlink(".", songs.join(link)).unwrap();
    }
    let out_dir = dir.join("out");
    let args = [
        "render",
        songs.to_str().unwrap(),
        "--out-dir",
        out_dir.to_str().unwrap(),
        "--max-tail",
        "0.1",
    ];
    let out = orchard_within(None, &args, LIMIT);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("1 file: 1 rendered"), "{stdout}");
    let written: Vec<_> = std::fs::read_dir(&out_dir).unwrap().collect();
    assert_eq!(written.len(), 1);
    std::fs::remove_dir_all(dir).ok();
}

/// A MIDI tempo of 0 microseconds per quarter note is refused, naming it.
#[test]
fn a_tempo_of_zero_is_refused() {
    let dir = scratch("tempo-zero");
    let midi = dir.join("zero.mid");
    write_midi(
        &midi,
        midly::Format::SingleTrack,
        vec![vec![tempo(0, 0), note(0, 60, 90), note(480, 60, 0), end(0)]],
    );
    let out = orchard(&[
        "render",
        midi.to_str().unwrap(),
        "-o",
        dir.join("x.wav").to_str().unwrap(),
    ]);
    assert_clean_failure(&out, "a tempo of 0 microseconds per quarter note");
    assert!(!dir.join("x.wav").exists());
    std::fs::remove_dir_all(dir).ok();
}

/// Writes a mono 16-bit WAV at `rate` Hz: a decaying 440 Hz tone of 4096
/// samples.
fn tone(path: &Path, rate: u32) {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut wav = hound::WavWriter::create(path, spec).unwrap();
    for n in 0..4096 {
        let t = f64::from(n) / 48_000.0;
        let s = (std::f64::consts::TAU * 440.0 * t).sin() * (-t * 20.0).exp();
        wav.write_sample((s * 16_000.0) as i16).unwrap();
    }
    wav.finalize().unwrap();
}

/// `compare` against a recording at 1 Hz (whose onsets would be hours
/// late) is refused, naming the file and the range of rates.
#[test]
fn a_recording_at_one_hertz_is_refused() {
    let dir = scratch("one-hertz");
    let (good, slow) = (dir.join("good.wav"), dir.join("slow.wav"));
    tone(&good, 48_000);
    tone(&slow, 1);
    let out = orchard(&[
        "compare",
        good.to_str().unwrap(),
        slow.to_str().unwrap(),
        "--note",
        "69",
    ]);
    assert_clean_failure(&out, &format!("cannot read {}", slow.display()));
    assert_clean_failure(&out, "sample rate 1 Hz is outside 1000 to 2000000 Hz");
    std::fs::remove_dir_all(dir).ok();
}

/// A manifest naming a column twice is refused, naming the column; its
/// preset file is found from its folder, as its inputs are, whatever the
/// working directory.
#[test]
fn manifest_columns_and_preset_paths() {
    let dir = scratch("manifest-columns");
    let lists = dir.join("lists");
    std::fs::create_dir_all(&lists).unwrap();
    short_note(&lists.join("a.mid"));
    let manifest = lists.join("list.csv");
    std::fs::write(&manifest, "input,output,preset,input\na.mid,a.wav,,b.mid\n").unwrap();
    let out = orchard(&["render", "--manifest", manifest.to_str().unwrap()]);
    assert_clean_failure(&out, "line 1: the header names the column `input` twice");
    assert!(!lists.join("a.wav").exists());

    let bar = format!("{}/../presets/mallet-bar.toml", env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(bar, lists.join("bar.toml")).unwrap();
    std::fs::write(&manifest, "input,output,preset\na.mid,a.wav,bar.toml\n").unwrap();
    let args = [
        "render",
        "--manifest",
        "lists/list.csv",
        "--max-tail",
        "0.1",
    ];
    let out = orchard_within(Some(&dir), &args, LIMIT);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(lists.join("a.wav").is_file());
    std::fs::remove_dir_all(dir).ok();
}

/// A manifest with a line of a megabyte is refused quoting at most a short
/// excerpt of it (not the line, once or twice); one larger than the cap is
/// refused unread.
#[test]
fn a_huge_manifest_line_is_not_echoed() {
    let dir = scratch("manifest-huge");
    let manifest = dir.join("list.csv");
    let huge = "x".repeat(1 << 20);
    for text in [
        format!("input,output,preset\n{huge}.mid,a.wav,\n"),
        format!("input,output,preset\na.mid,{huge}.wav,\n"),
        format!("{huge},output,preset\na.mid,a.wav,\n"),
        format!("input,output,preset\na.mid,a.wav,{huge}\n"),
    ] {
        std::fs::write(&manifest, &text).unwrap();
        let out = orchard(&["render", "--manifest", manifest.to_str().unwrap()]);
        assert_clean_failure(&out, "list.csv line");
        assert!(
            out.stderr.len() < 1000,
            "{} bytes of errors",
            out.stderr.len()
        );
    }
    let file = std::fs::File::create(&manifest).unwrap();
    file.set_len(17 << 20).unwrap();
    let out = orchard(&["render", "--manifest", manifest.to_str().unwrap()]);
    assert_clean_failure(&out, "larger than 16 MiB");
    std::fs::remove_dir_all(dir).ok();
}
