//! Every subcommand ends quietly when the reader of its standard output goes
//! away (issue 29), as Unix tools do: `orchard presets | head -1` must not
//! panic ("failed printing to stdout: Broken pipe", exit status 101).

use std::io::Read;
use std::process::{Command, Stdio};

mod common;
use common::{scratch, short_note};

/// Runs `orchard` with `args`, its standard output a pipe closed before
/// anything is read, `times` times; asserts that no run panicked or printed
/// an error, and that each ended by SIGPIPE or with status 0.
fn ends_quietly_when_the_reader_goes(args: &[&str], times: usize) {
    use std::os::unix::process::ExitStatusExt;

    for run in 0..times {
        let mut child = Command::new(env!("CARGO_BIN_EXE_orchard"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes at once, as `head` does once it has its line.
        drop(child.stdout.take());
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        assert!(!stderr.contains("panicked"), "{args:?} run {run}: {stderr}");
        assert!(stderr.is_empty(), "{args:?} run {run}: {stderr}");
        assert!(
            status.success() || status.signal() == Some(libc::SIGPIPE),
            "{args:?} run {run}: {status:?}"
        );
    }
}

/// `orchard presets`, and its longer `--paths` listing, 50 times each.
#[test]
fn presets_end_quietly_on_a_closed_pipe() {
    ends_quietly_when_the_reader_goes(&["presets"], 50);
    ends_quietly_when_the_reader_goes(&["presets", "--paths", "grand-piano"], 50);
}

/// A render to the standard output (`-o -`), and one writing its summary
/// there, end quietly and leave no partial file.
#[test]
fn renders_end_quietly_on_a_closed_pipe() {
    let dir = scratch("closed-pipe");
    let midi = dir.join("x.mid");
    short_note(&midi);
    let midi = midi.to_str().unwrap();
    let wav = dir.join("x.wav");
    let wav = wav.to_str().unwrap();
    ends_quietly_when_the_reader_goes(&["render", midi, "--max-tail", "0.1", "-o", "-"], 5);
    ends_quietly_when_the_reader_goes(&["render", midi, "--max-tail", "0.1", "-o", wav], 5);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    std::fs::remove_dir_all(&dir).ok();
}
