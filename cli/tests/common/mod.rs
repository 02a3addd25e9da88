//! What the command-line tests share: scratch directories, running `orchard`,
//! reading its WAVs, writing MIDI files, and checking its failures.

// Each test crate uses its own part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use midly::num::{u4, u7, u15, u24, u28};
use midly::{Format, Header, MetaMessage, MidiMessage, Smf, Timing, TrackEvent, TrackEventKind};

/// A scratch directory unique to this test process and `name`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("orchard-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the `orchard` binary with `args`.
pub fn orchard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_orchard"))
        .args(args)
        .output()
        .unwrap()
}

/// Runs `orchard` with `args` and asserts that it succeeded; returns stdout.
pub fn orchard_ok(args: &[&str]) -> String {
    let out = orchard(args);
    assert!(
        out.status.success(),
        "orchard {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Renders `midi` to `out` with extra `args`; returns stdout (the summary).
pub fn render(midi: &Path, out: &Path, args: &[&str]) -> String {
    let base = [
        "render",
        midi.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    orchard_ok(&[&base[..], args].concat())
}

/// A WAV's format and its interleaved samples, full scale 1.
pub fn read_wav(path: &Path) -> (hound::WavSpec, Vec<f32>) {
    let mut reader = hound::WavReader::open(path).unwrap();
    let spec = reader.spec();
    let samples = match spec.sample_format {
        hound::SampleFormat::Float => reader.samples::<f32>().map(Result::unwrap).collect(),
        hound::SampleFormat::Int => {
            let full = (1i64 << (spec.bits_per_sample - 1)) as f32;
            reader
                .samples::<i32>()
                .map(|s| s.unwrap() as f32 / full)
                .collect()
        }
    };
    (spec, samples)
}

/// The left channel of a stereo WAV.
pub fn read_left(path: &Path) -> Vec<f32> {
    read_wav(path).1.iter().step_by(2).copied().collect()
}

/// Asserts a failed run: non-zero exit, one line on stderr naming the problem, no panic.
pub fn assert_clean_failure(result: &Output, mentions: &str) {
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(!result.status.success(), "succeeded: {stderr}");
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "not one line: {stderr}"
    );
    assert!(stderr.starts_with("orchard: error: "), "{stderr}");
    assert!(
        stderr.contains(mentions),
        "{stderr} does not mention {mentions}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A note-on `delta` ticks after the previous event (velocity 0: a note-off).
pub fn note(delta: u32, key: u8, velocity: u8) -> TrackEvent<'static> {
    TrackEvent {
        delta: u28::new(delta),
        kind: TrackEventKind::Midi {
            channel: u4::new(0),
            message: MidiMessage::NoteOn {
                key: u7::new(key),
                vel: u7::new(velocity),
            },
        },
    }
}

/// A controller change (e.g. 64, sustain) `delta` ticks after the previous event.
pub fn controller(delta: u32, controller: u8, value: u8) -> TrackEvent<'static> {
    TrackEvent {
        delta: u28::new(delta),
        kind: TrackEventKind::Midi {
            channel: u4::new(0),
            message: MidiMessage::Controller {
                controller: u7::new(controller),
                value: u7::new(value),
            },
        },
    }
}

/// A tempo change to `us_per_beat` microseconds per quarter note.
pub fn tempo(delta: u32, us_per_beat: u32) -> TrackEvent<'static> {
    TrackEvent {
        delta: u28::new(delta),
        kind: TrackEventKind::Meta(MetaMessage::Tempo(u24::new(us_per_beat))),
    }
}

/// The end of a track.
pub fn end(delta: u32) -> TrackEvent<'static> {
    TrackEvent {
        delta: u28::new(delta),
        kind: TrackEventKind::Meta(MetaMessage::EndOfTrack),
    }
}

/// Ticks per quarter note of the files [`write_midi`] writes.
pub const TICKS_PER_BEAT: u16 = 480;

/// Writes a Standard MIDI File of `format` with `tracks` to `path`.
pub fn write_midi(path: &Path, format: Format, tracks: Vec<Vec<TrackEvent<'static>>>) {
    let smf = Smf {
        header: Header::new(format, Timing::Metrical(u15::new(TICKS_PER_BEAT))),
        tracks,
    };
    smf.save(path).unwrap();
}

/// A file playing one note: `key` at `velocity` from `start_beats` for
/// `beats`, at 120 beats a minute.
pub fn one_note(path: &Path, key: u8, velocity: u8, start_beats: u32, beats: u32) {
    let tick = u32::from(TICKS_PER_BEAT);
    write_midi(
        path,
        Format::SingleTrack,
        vec![vec![
            note(start_beats * tick, key, velocity),
            note(beats * tick, key, 0),
            end(0),
        ]],
    );
}

/// Waits for `child` to end, at most `limit`; kills it and fails if it does not.
pub fn wait_at_most(
    child: &mut std::process::Child,
    limit: std::time::Duration,
) -> std::process::ExitStatus {
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > limit {
            child.kill().ok();
            panic!("orchard did not stop within {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Runs `orchard` with `args` and, once `written()` (the bytes its output
/// holds so far) reaches `bytes`, sends it `signal`; returns its exit status
/// and standard error.
pub fn signal_while_rendering(
    args: &[&str],
    written: impl Fn() -> u64,
    bytes: u64,
    signal: libc::c_int,
) -> (std::process::ExitStatus, String) {
    use std::time::{Duration, Instant};

    let mut child = Command::new(env!("CARGO_BIN_EXE_orchard"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while written() < bytes {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "not {bytes} bytes written after two minutes"
        );
        assert!(child.try_wait().unwrap().is_none(), "orchard ended early");
        std::thread::sleep(Duration::from_millis(10));
    }
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: signalling the child this test started and still waits for.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    let status = wait_at_most(&mut child, Duration::from_secs(60));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    (status, stderr)
}

/// Runs `orchard` with `args` in `dir` (the current directory if `None`),
/// failing if it has not ended within `limit` (as a run that blocks for ever
/// would not); returns what it printed and its status.
pub fn orchard_within(dir: Option<&Path>, args: &[&str], limit: std::time::Duration) -> Output {
    use std::io::Read;

    let mut command = Command::new(env!("CARGO_BIN_EXE_orchard"));
    command
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command.spawn().unwrap();
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).ok();
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let status = wait_at_most(&mut child, limit);
    Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

/// Makes a FIFO (named pipe) at `path`: opening it to read waits for a
/// writer, which never comes.
pub fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;

    let name = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: `name` is a NUL-terminated path that outlives the call.
    assert_eq!(
        unsafe { libc::mkfifo(name.as_ptr(), 0o600) },
        0,
        "mkfifo {path:?}"
    );
}

/// A short file to render: one note of half a second, at 120 beats a minute.
pub fn short_note(path: &Path) {
    one_note(path, 60, 90, 0, 1);
}
