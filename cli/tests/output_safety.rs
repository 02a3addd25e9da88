//! Outputs are safe (issue 19, item 9), run as a user runs them: a render
//! stopped by a signal or failing half way leaves the file it would have
//! replaced as it was and no partial file behind; `-o -` writes the WAV to
//! the standard output.

use std::path::Path;
use std::process::Command;

mod common;
use common::{
    assert_clean_failure, one_note, orchard, orchard_ok, scratch, signal_while_rendering,
};

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A render stopped by SIGINT (Ctrl-C), SIGTERM or SIGHUP half way through
/// leaves the old output file as it was and no partial file, and fails
/// saying why.
#[test]
fn a_render_stopped_by_a_signal_leaves_the_old_file_and_no_partial_one() {
    let dir = scratch("signals");
    // Ten minutes of one held note: far longer than any signal takes to come.
    let midi = dir.join("long.mid");
    one_note(&midi, 60, 90, 0, 1200);
    let out = dir.join("take.wav");
    let partial = dir.join(".take.wav.orchard-partial");
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        std::fs::write(&out, b"the take before").unwrap();
        let args = [
            "render",
            midi.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ];
        // Rendering has begun once the partial file holds more than its header.
        let written = || partial.metadata().map_or(0, |m| m.len());
        let (status, stderr) = signal_while_rendering(&args, written, 100_000, signal);
        assert!(!status.success(), "signal {signal}: {stderr}");
        assert!(
            stderr.contains("stopped by a signal"),
            "signal {signal}: {stderr}"
        );
        assert_eq!(std::fs::read(&out).unwrap(), b"the take before");
        assert_eq!(names(&dir), ["long.mid", "take.wav"], "signal {signal}");
    }
    std::fs::remove_dir_all(dir).ok();
}

/// A probe CSV that cannot be written stops the render: the WAV's partial
/// file goes, the old WAV stays.
#[test]
fn a_failing_csv_write_removes_the_partial_wav() {
    let dir = scratch("csv-fails");
    let out = dir.join("take.wav");
    std::fs::write(&out, b"the take before").unwrap();
    let args = [
        "render",
        "--demo",
        "-o",
        out.to_str().unwrap(),
        "--probe",
        "output:rms",
        "--probe-out",
        // Every write to it fails: "No space left on device".
        "/dev/full",
    ];
    assert_clean_failure(&orchard(&args), "cannot write /dev/full");
    assert_eq!(std::fs::read(&out).unwrap(), b"the take before");
    assert_eq!(names(&dir), ["take.wav"]);
    std::fs::remove_dir_all(dir).ok();
}

/// `-o -` writes the WAV to the standard output, as a stream (sizes
/// unknown: `0xFFFF_FFFF`) holding the same samples as a file render, and
/// the summary to the standard error; no file is made.
#[test]
fn a_dash_writes_the_wav_to_the_standard_output() {
    let dir = scratch("stdout");
    let file = dir.join("file.wav");
    orchard_ok(&["render", "--demo", "-o", file.to_str().unwrap()]);
    let streamed = Command::new(env!("CARGO_BIN_EXE_orchard"))
        .args(["render", "--demo", "-o", "-"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&streamed.stderr);
    assert!(streamed.status.success(), "{stderr}");
    assert!(
        stderr.starts_with("wrote the standard output: "),
        "{stderr}"
    );
    let stream = streamed.stdout;
    let u32_at = |at: usize| u32::from_le_bytes(stream[at..at + 4].try_into().unwrap());
    assert_eq!(&stream[0..4], b"RIFF");
    assert_eq!(u32_at(4), u32::MAX);
    assert_eq!(&stream[8..16], b"WAVEJUNK");
    assert_eq!(&stream[72..76], b"data");
    assert_eq!(u32_at(76), u32::MAX);
    // The file's header says how long it is; the samples are the same.
    let file = std::fs::read(&file).unwrap();
    assert_eq!(file[..4], stream[..4]);
    assert_eq!(file[8..72], stream[8..72]);
    assert_eq!(file[80..], stream[80..]);
    assert_eq!(names(&dir), ["file.wav"]);
    std::fs::remove_dir_all(dir).ok();
}

/// A device is written into, never replaced: `-o /dev/null` renders.
#[test]
fn a_device_is_written_into() {
    let summary = orchard_ok(&["render", "--demo", "-o", "/dev/null"]);
    assert!(summary.starts_with("wrote /dev/null: "), "{summary}");
    use std::os::unix::fs::FileTypeExt;
    let null = Path::new("/dev/null").metadata().unwrap();
    assert!(null.file_type().is_char_device());
}
