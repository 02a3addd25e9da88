//! Outputs are safe (issue 19, item 9; issue 29), run as a user runs them:
//! a render stopped by a signal or failing half way leaves the file it would
//! have replaced as it was and no partial file behind; `-o -` writes the WAV
//! to the standard output; no output is ever one of the inputs, however
//! spelt, and a name for a device or an open file is written into.

use std::path::Path;
use std::process::Command;

mod common;
use common::{
    assert_clean_failure, one_note, orchard, orchard_ok, read_wav, scratch, short_note,
    signal_while_rendering,
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

/// The bytes of `path`, to check that a refused command left it as it was.
fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

/// A render's output is never one of its inputs, however spelt: the MIDI
/// file (by name, `./` name, a symbolic link to it), the preset file, the
/// scale, the keyboard mapping; nor is `--probe-out`. Each is refused in
/// one line naming both, and the input is left as it was.
#[test]
fn a_render_never_writes_over_its_inputs() {
    let dir = scratch("own-inputs");
    let midi = dir.join("x.mid");
    short_note(&midi);
    let midi_bytes = bytes(&midi);
    let link = dir.join("link.wav");
    std::os::unix::fs::symlink("x.mid", &link).unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let preset = dir.join("bar.toml");
    std::fs::copy(format!("{root}/../presets/mallet-bar.toml"), &preset).unwrap();
    let scl = dir.join("19.scl");
    std::fs::copy(format!("{root}/../tunings/19-edo.scl"), &scl).unwrap();
    let kbm = dir.join("19.kbm");
    std::fs::copy(format!("{root}/../tunings/19-edo.kbm"), &kbm).unwrap();
    let name = |path: &Path| path.to_str().unwrap().to_owned();
    let dotted = format!("{}/./x.mid", dir.display());
    let midi_name = name(&midi);
    let render = |extra: &[&str]| {
        let args = [&["render", &midi_name, "--max-tail", "0.1"][..], extra].concat();
        orchard(&args)
    };
    for output in [name(&midi), dotted, name(&link)] {
        let out = render(&["-o", &output]);
        assert_clean_failure(
            &out,
            &format!("-o {output}: is the input {}", midi.display()),
        );
        assert_eq!(bytes(&midi), midi_bytes, "-o {output}");
    }
    let wav = name(&dir.join("x.wav"));
    let out = render(&[
        "-o",
        &wav,
        "--probe",
        "output:rms",
        "--probe-out",
        &name(&midi),
    ]);
    assert_clean_failure(&out, "--probe-out");
    assert_clean_failure(&out, &format!("is the input {}", midi.display()));
    for (flag, input, extra) in [
        (
            "--preset",
            &preset,
            vec!["--preset", preset.to_str().unwrap()],
        ),
        ("--tuning", &scl, vec!["--tuning", scl.to_str().unwrap()]),
        (
            "--keymap",
            &kbm,
            vec![
                "--tuning",
                scl.to_str().unwrap(),
                "--keymap",
                kbm.to_str().unwrap(),
            ],
        ),
    ] {
        let before = bytes(input);
        let out = render(&[&extra[..], &["-o", input.to_str().unwrap()]].concat());
        assert_clean_failure(&out, &format!("is the input {flag} {}", input.display()));
        assert_eq!(bytes(input), before, "{flag}");
    }
    assert_eq!(bytes(&midi), midi_bytes);
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert!(!dir.join("x.wav").exists());
    std::fs::remove_dir_all(dir).ok();
}

/// A manifest whose row writes over its own input, another row's input or
/// the manifest, or two of whose rows write one file however spelt, is
/// refused before anything is rendered, and every file is left as it was.
#[test]
fn a_manifest_never_writes_over_its_inputs_or_itself() {
    let dir = scratch("manifest-inputs");
    for name in ["a.mid", "b.mid"] {
        short_note(&dir.join(name));
    }
    let manifest = dir.join("list.csv");
    for (rows, mentions) in [
        ("a.mid,a.mid,", "is the input"),
        ("a.mid,a.wav,\nb.mid,a.mid,", "is the input"),
        ("a.mid,list.csv,", "is the input --manifest"),
        (
            "a.mid,x.wav,\nb.mid,sub/../x.wav,",
            "would both be written to",
        ),
    ] {
        let text = format!("input,output,preset\n{rows}\n");
        std::fs::write(&manifest, &text).unwrap();
        let before: Vec<Vec<u8>> = ["a.mid", "b.mid"].map(|n| bytes(&dir.join(n))).into();
        let out = orchard(&[
            "render",
            "--manifest",
            manifest.to_str().unwrap(),
            "--max-tail",
            "0.1",
        ]);
        assert_clean_failure(&out, mentions);
        let after: Vec<Vec<u8>> = ["a.mid", "b.mid"].map(|n| bytes(&dir.join(n))).into();
        assert_eq!(before, after, "{rows}");
        assert_eq!(std::fs::read_to_string(&manifest).unwrap(), text, "{rows}");
        assert_eq!(names(&dir), ["a.mid", "b.mid", "list.csv"], "{rows}");
    }
    std::fs::remove_dir_all(dir).ok();
}

/// `orchard pin X.mid -o X.mid`, or through a link to X.mid, is refused and
/// X.mid kept; a pinned preset replaces its destination by renaming a
/// finished file over it (a hard link to the old file keeps the old text,
/// where writing into the file would have changed both), leaving no partial
/// file.
#[test]
fn pin_never_writes_over_its_input_and_writes_atomically() {
    let dir = scratch("pin-inputs");
    let midi = dir.join("x.mid");
    short_note(&midi);
    let midi_bytes = bytes(&midi);
    let link = dir.join("link.toml");
    std::os::unix::fs::symlink("x.mid", &link).unwrap();
    for output in [&midi, &link] {
        let out = orchard(&[
            "pin",
            midi.to_str().unwrap(),
            "-o",
            output.to_str().unwrap(),
        ]);
        assert_clean_failure(&out, &format!("is the input {}", midi.display()));
        assert_eq!(bytes(&midi), midi_bytes);
    }
    let box_file = dir.join("box.toml");
    let old = dir.join("old.toml");
    std::fs::write(&box_file, "the box before").unwrap();
    std::fs::hard_link(&box_file, &old).unwrap();
    orchard_ok(&[
        "pin",
        midi.to_str().unwrap(),
        "-o",
        box_file.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "the box before");
    let pinned = std::fs::read_to_string(&box_file).unwrap();
    assert!(pinned.contains("[[music-box.box.pin]]"), "{pinned}");
    assert_eq!(names(&dir), ["box.toml", "link.toml", "old.toml", "x.mid"]);
    std::fs::remove_dir_all(dir).ok();
}

/// `-o /dev/stdout` with the standard output sent to a file writes the WAV
/// into that file and leaves `/dev/stdout` a symbolic link (it was renamed
/// over); an output that is a symbolic link to a file replaces the file and
/// stays a link.
#[test]
fn a_link_is_written_through_never_replaced() {
    let dir = scratch("links");
    let midi = dir.join("x.mid");
    short_note(&midi);
    let sent = dir.join("sent.wav");
    let out = Command::new(env!("CARGO_BIN_EXE_orchard"))
        .args([
            "render",
            midi.to_str().unwrap(),
            "--max-tail",
            "0.1",
            "-o",
            "/dev/stdout",
        ])
        .stdout(std::fs::File::create(&sent).unwrap())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // The summary went to the standard error, not into the WAV.
    assert!(stderr.starts_with("wrote /dev/stdout: "), "{stderr}");
    assert!(
        std::fs::symlink_metadata("/dev/stdout")
            .unwrap()
            .is_symlink()
    );
    let plain = dir.join("plain.wav");
    common::render(&midi, &plain, &["--max-tail", "0.1"]);
    let (spec, samples) = read_wav(&sent);
    assert_eq!(spec.sample_rate, 48_000);
    assert_eq!(samples, read_wav(&plain).1);
    assert!(samples.len() > 48_000, "{} samples", samples.len());

    let target = dir.join("target.wav");
    std::fs::write(&target, b"old").unwrap();
    let link = dir.join("link.wav");
    std::os::unix::fs::symlink("target.wav", &link).unwrap();
    common::render(&midi, &link, &["--max-tail", "0.1"]);
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(read_wav(&target).1, read_wav(&plain).1);
    assert_eq!(
        names(&dir),
        ["link.wav", "plain.wav", "sent.wav", "target.wav", "x.mid"]
    );
    std::fs::remove_dir_all(dir).ok();
}

/// `analyze --note --wav DIR` fails without leaving a hidden partial file,
/// and `--wav X --spectrogram X` is refused before anything is written.
#[test]
fn analyze_outputs_are_files_of_their_own() {
    let dir = scratch("analyze-outputs");
    let folder = dir.join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let analyze = |extra: &[&str]| {
        let args = [&["analyze", "--note", "60", "--duration", "0.5"][..], extra].concat();
        orchard(&args)
    };
    let out = analyze(&["--wav", folder.to_str().unwrap()]);
    assert_clean_failure(&out, "is a directory");
    assert_eq!(names(&dir), ["folder"]);
    assert!(names(&folder).is_empty());
    let same = dir.join("x.png");
    std::fs::write(&same, b"old").unwrap();
    let out = analyze(&[
        "--wav",
        same.to_str().unwrap(),
        "--spectrogram",
        same.to_str().unwrap(),
    ]);
    assert_clean_failure(&out, "--spectrogram");
    assert_clean_failure(&out, "the same file as --wav");
    assert_eq!(bytes(&same), b"old");
    assert_eq!(names(&dir), ["folder", "x.png"]);
    std::fs::remove_dir_all(dir).ok();
}
