//! `orchard render` of many files at once: the same bytes as one at a time,
//! a bad file reported while the rest finish, and `--resume`.

mod common;

use std::path::{Path, PathBuf};

use common::{one_note, orchard, orchard_ok, scratch};

/// Options that keep each render short.
const QUICK: [&str; 6] = [
    "--sample-rate",
    "8000",
    "--max-tail",
    "0.2",
    "--preset",
    "music-box",
];

/// Writes 20 one-note files, `songs/NN.mid`, half of them in `songs/more/`.
fn twenty_songs(dir: &Path) -> Vec<PathBuf> {
    let songs = dir.join("songs");
    std::fs::create_dir_all(songs.join("more")).unwrap();
    (0..20u8)
        .map(|i| {
            let folder = if i % 2 == 0 {
                songs.clone()
            } else {
                songs.join("more")
            };
            let path = folder.join(format!("{i:02}.mid"));
            one_note(&path, 60 + i, 60 + i, 0, 1);
            path
        })
        .collect()
}

/// Where the batch writes `input` (its place under `songs/`, as a WAV).
fn output_of(dir: &Path, out: &Path, input: &Path) -> PathBuf {
    out.join(input.strip_prefix(dir.join("songs")).unwrap())
        .with_extension("wav")
}

/// Runs `orchard render` of `songs/` into `out` with `--jobs 2` and `extra`.
fn batch(dir: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let jobs = [&["--jobs", "2"], extra].concat();
    orchard(&render_args(&dir.join("songs"), "--out-dir", out, &jobs))
}

/// `render INPUT FLAG OUTPUT` with [`QUICK`] and `extra`.
fn render_args<'a>(
    input: &'a Path,
    flag: &'a str,
    output: &'a Path,
    extra: &[&'a str],
) -> Vec<&'a str> {
    let paths = [input, output].map(|path| path.to_str().unwrap());
    [&["render", paths[0], flag, paths[1]][..], &QUICK, extra].concat()
}

/// Runs [`batch`], asserts that it succeeded with a summary beginning
/// `summary`, and returns the summary.
fn batch_ok(dir: &Path, out: &Path, extra: &[&str], summary: &str) -> String {
    let result = batch(dir, out, extra);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{stderr}");
    let stdout = String::from_utf8(result.stdout).unwrap();
    assert!(stdout.starts_with(summary), "{stdout}");
    stdout
}

/// Twenty files rendered two at a time are byte for byte the files rendered
/// one by one, each where its place in the folder says.
#[test]
fn a_parallel_batch_renders_the_same_bytes_as_single_renders() {
    let dir = scratch("batch-same");
    let inputs = twenty_songs(&dir);
    let out = dir.join("out");
    let stdout = batch_ok(
        &dir,
        &out,
        &[],
        "20 files: 20 rendered, 0 failed, 0 skipped",
    );
    assert!(stdout.contains("with 2 jobs; peak memory"), "{stdout}");
    for input in &inputs {
        let alone = dir.join("alone.wav");
        orchard_ok(&render_args(input, "-o", &alone, &[]));
        let batched = std::fs::read(output_of(&dir, &out, input)).unwrap();
        assert_eq!(
            batched,
            std::fs::read(&alone).unwrap(),
            "{}",
            input.display()
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

/// A corrupt file is reported in one line with the reason a single render
/// gives, the others are written, and the exit status says one failed;
/// `--resume` then renders only what is missing.
#[test]
fn a_bad_file_is_reported_and_resume_renders_only_the_missing() {
    let dir = scratch("batch-bad");
    let inputs = twenty_songs(&dir);
    let bad = dir.join("songs").join("bad.mid");
    std::fs::write(&bad, b"MThd, but not a MIDI file").unwrap();
    let out = dir.join("out");
    let result = batch(&dir, &out, &[]);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(1), "{stderr}");
    let alone = orchard(&["render", bad.to_str().unwrap(), "-o", "unused.wav"]);
    let reason = String::from_utf8_lossy(&alone.stderr);
    let reason = reason.trim().strip_prefix("orchard: error: ").unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert_eq!(lines[0], format!("orchard: {}: {reason}", bad.display()));
    assert!(
        lines[1].starts_with("orchard: error: 21 files: 20 rendered, 1 failed, 0 skipped"),
        "{stderr}"
    );
    assert!(!out.join("bad.wav").exists());

    // Three outputs are lost; the others keep their files untouched.
    let lost = [&inputs[0], &inputs[7], &inputs[12]];
    let mut kept = Vec::new();
    for input in &inputs {
        let output = output_of(&dir, &out, input);
        if lost.contains(&input) {
            std::fs::remove_file(&output).unwrap();
        } else {
            kept.push((
                output.clone(),
                output.metadata().unwrap().modified().unwrap(),
            ));
        }
    }
    std::fs::remove_file(&bad).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let summary = "20 files: 3 rendered, 0 failed, 17 skipped";
    batch_ok(&dir, &out, &["--resume"], summary);
    for (output, modified) in kept {
        assert_eq!(output.metadata().unwrap().modified().unwrap(), modified);
    }
    for input in lost {
        assert!(output_of(&dir, &out, input).is_file());
    }
    std::fs::remove_dir_all(dir).ok();
}

/// A manifest names each file's output and preset, and its settings.
#[test]
fn a_manifest_renders_its_rows() {
    let dir = scratch("batch-manifest");
    one_note(&dir.join("a.mid"), 60, 80, 0, 1);
    std::fs::write(
        dir.join("list.csv"),
        "input,output,preset,set\n\
         a.mid,plain.wav,music-box,\n\
         a.mid,sharp/a.wav,music-box,tuning:a4_hz=452\n",
    )
    .unwrap();
    let manifest = dir.join("list.csv");
    let args = ["render", "--manifest", manifest.to_str().unwrap()];
    let stdout = orchard_ok(&[&args[..], &QUICK[..4]].concat());
    assert!(stdout.starts_with("2 files: 2 rendered"), "{stdout}");
    let plain = std::fs::read(dir.join("plain.wav")).unwrap();
    assert_ne!(plain, std::fs::read(dir.join("sharp/a.wav")).unwrap());
    std::fs::remove_dir_all(dir).ok();
}

/// Batch mistakes stop it before anything renders, in one line.
#[test]
fn batch_mistakes_are_one_line() {
    let dir = scratch("batch-mistakes");
    twenty_songs(&dir);
    let songs = dir.join("songs");
    let file = dir.join("file.wav");
    std::fs::write(&file, b"").unwrap();
    let result = orchard(&render_args(&songs, "-o", &file, &[]));
    // A folder with -o FILE is one unreadable MIDI file, as it always was.
    common::assert_clean_failure(&result, "cannot read");
    let (a, b) = (songs.join("00.mid"), songs.join("02.mid"));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let not_yet = dir.join("new.wav");
    let result = orchard(&["render", a, b, "-o", not_yet.to_str().unwrap()]);
    common::assert_clean_failure(&result, "several renders go to a folder");
    assert!(!not_yet.exists());
    let folder = format!("{}/", dir.join("folder").display());
    let stdout = orchard_ok(&[&["render", a, b, "-o", &folder][..], &QUICK].concat());
    assert!(stdout.starts_with("2 files: 2 rendered"), "{stdout}");
    assert!(dir.join("folder").join("02.wav").is_file());
    let pattern = songs.join("*.midi");
    let result = orchard(&["render", pattern.to_str().unwrap(), "--out-dir", "x"]);
    common::assert_clean_failure(&result, "no file matches");
    std::fs::remove_dir_all(dir).ok();
}

/// A signal stops a batch: the render under way fails and leaves no partial
/// file, the files not begun are skipped, and the exit status is 1.
#[test]
fn a_signal_stops_the_batch_and_leaves_no_partial_file() {
    let dir = scratch("batch-signal");
    let songs = dir.join("songs");
    std::fs::create_dir_all(&songs).unwrap();
    // Ten minutes of one held note each: far longer than the signal takes.
    for key in [60, 62, 64] {
        one_note(&songs.join(format!("{key}.mid")), key, 90, 0, 1200);
    }
    let out = dir.join("out");
    // A render has begun once a partial file holds more than its header.
    let written = || {
        std::fs::read_dir(&out).map_or(0, |entries| {
            entries
                .filter_map(|e| e.ok()?.metadata().ok())
                .map(|m| m.len())
                .sum::<u64>()
        })
    };
    let args = render_args(&songs, "--out-dir", &out, &["--jobs", "1"]);
    let (status, stderr) = common::signal_while_rendering(&args, written, 50_000, libc::SIGTERM);
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("3 files: 0 rendered, 1 failed, 2 skipped"),
        "{stderr}"
    );
    assert!(
        stderr
            .trim_end()
            .ends_with("stopped by a signal; no output file was replaced or left half-written"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_dir(&out).unwrap().count(),
        0,
        "a file was left"
    );
    std::fs::remove_dir_all(dir).ok();
}
