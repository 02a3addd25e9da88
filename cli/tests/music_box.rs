//! `orchard pin` and the music box on the command line: a MIDI file's notes
//! pinned on the cylinder in their order, at angles in proportion to their
//! times, transposed into the comb; the pinned box renders without a MIDI
//! file and plays every pin, and a MIDI file plays its own notes alone.

mod common;

use common::{end, note, one_note, orchard, orchard_ok, read_left, scratch, write_midi};
use midly::Format;
use orchard_engine::families::music_box::MusicBoxSpec;
use orchard_engine::instrument::Preset;

/// A tune of `keys`, each `beats[i]` quarter notes after the one before
/// (the first at 0; 480 ticks a beat, at the default 120 beats a minute:
/// 0.5 s), each an eighth long. Returns the notes' times, s.
fn tune(path: &std::path::Path, keys: &[u8], beats: &[u32]) -> Vec<f64> {
    let mut track = Vec::new();
    let mut times = Vec::new();
    let mut beat = 0;
    for (i, (&key, &gap)) in keys.iter().zip(beats).enumerate() {
        beat += gap;
        let delta = if i == 0 { gap * 480 } else { gap * 480 - 240 };
        track.push(note(delta, key, 90));
        track.push(note(240, key, 0));
        times.push(0.5 * f64::from(beat));
    }
    track.push(end(0));
    write_midi(path, Format::SingleTrack, vec![track]);
    times
}

#[test]
fn pin_round_trips_a_tunes_notes_and_order() {
    let dir = scratch("pin_round_trip");
    let midi = dir.join("song.mid");
    let boxed = dir.join("box.toml");
    // An octave above the comb, with a C♯ it lacks.
    let keys = [84u8, 88, 91, 96, 85, 93, 89, 84];
    let gaps = [0u32, 1, 1, 2, 1, 1, 1, 2];
    let written = tune(&midi, &keys, &gaps);
    let result = orchard(&["pin", midi.to_str().unwrap(), "-o", boxed.to_str().unwrap()]);
    assert!(result.status.success(), "{result:?}");
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        stderr.contains("C♯6") && stderr.contains("not on the comb"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert!(stdout.contains("-12 semitones"), "{stdout}");
    let preset = Preset::load(boxed.to_str().unwrap()).unwrap();
    let pins = &preset.objects.get_as::<MusicBoxSpec>("box").unwrap().pins;
    let expected: Vec<u8> = keys.iter().filter(|&&k| k != 85).map(|&k| k - 12).collect();
    let found: Vec<u8> = pins.iter().map(|p| p.key).collect();
    assert_eq!(found, expected);
    // Times as written, s, but where the C♯ was.
    let times: Vec<f64> = keys
        .iter()
        .zip(&written)
        .filter_map(|(&k, &t)| (k != 85).then_some(t))
        .collect();
    let angles: Vec<f64> = pins.iter().map(|p| p.angle_deg).collect();
    assert!(angles.windows(2).all(|w| w[1] > w[0]), "{angles:?}");
    let degrees_per_s =
        (angles[angles.len() - 1] - angles[0]) / (times[times.len() - 1] - times[0]);
    for (angle, time) in angles.iter().zip(&times) {
        let placed = angles[0] + degrees_per_s * (time - times[0]);
        assert!((angle - placed).abs() < 1e-3, "{angles:?} for {times:?}");
    }
    // One turn in some 40 s: 9° a second.
    assert!(
        (degrees_per_s / 9.0 - 1.0).abs() < 0.05,
        "{degrees_per_s}°/s"
    );

    // It plays: the render without a MIDI file lasts until the last pin.
    let wav = dir.join("box.wav");
    let summary = orchard_ok(&[
        "render",
        "--preset",
        boxed.to_str().unwrap(),
        "-o",
        wav.to_str().unwrap(),
    ]);
    let seconds = common::read_left(&wav).len() as f64 / 48_000.0;
    let last_s = angles[angles.len() - 1] / degrees_per_s;
    assert!(
        seconds > last_s,
        "{seconds} s for a tune ending at {last_s} s: {summary}"
    );
}

/// A MIDI file on the music box plays its notes and nothing else (issue
/// 29): keys the comb lacks, held 2 s, render silence (the cylinder used to
/// turn under them, its pins sounding from 1.11 s); without a MIDI file
/// the cylinder turns and its tune sounds.
#[test]
fn a_midi_file_plays_its_notes_alone() {
    let dir = scratch("box_midi_alone");
    for key in [59u8, 90] {
        let midi = dir.join(format!("held-{key}.mid"));
        one_note(&midi, key, 100, 0, 4);
        let wav = dir.join(format!("held-{key}.wav"));
        common::render(&midi, &wav, &["--preset", "music-box"]);
        let left = read_left(&wav);
        assert!(left.len() >= 2 * 48_000, "{} frames", left.len());
        assert!(left.iter().all(|&s| s == 0.0), "key {key}: the box played");
    }
    let wav = dir.join("tune.wav");
    let path = wav.to_str().unwrap();
    orchard_ok(&[
        "render",
        "--preset",
        "music-box",
        "--duration",
        "1.5",
        "-o",
        path,
    ]);
    let left = read_left(&wav);
    let peak = left[48_000..].iter().fold(0.0f32, |m, s| m.max(s.abs()));
    assert!(peak > 1e-3, "the cylinder's first pins: peak {peak}");
}

#[test]
fn pin_refuses_a_preset_that_is_not_a_music_box() {
    let dir = scratch("pin_not_a_box");
    let midi = dir.join("song.mid");
    tune(&midi, &[72], &[0]);
    let out = dir.join("box.toml");
    let result = orchard(&[
        "pin",
        midi.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--preset",
        "grand-piano",
    ]);
    common::assert_clean_failure(&result, "not a music box");
    assert!(!out.exists());
}
