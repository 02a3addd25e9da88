//! The plugin's `process` in the standalone app: with the session on, a MIDI
//! file played through the transport sounds, and a take records the output
//! and the file's notes, with `process` allocating nothing. (A test binary
//! of its own: the standalone session is one per process.)

use std::time::Duration;

use nice_plug::prelude::*;
use orchard::standalone::{self, state_file::Devices};
use orchard::{Orchard, Task};
use orchard_engine::rt::SynthEvent;

const RATE: u32 = 48_000;
const BLOCK: usize = 256;

#[path = "support/host.rs"]
mod host;

use host::{Host, process_block};

#[test]
fn a_midi_file_plays_and_a_take_records_it_without_allocating() {
    let dir = std::env::temp_dir().join(format!("orchard-process-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A4 from 50 ms to 350 ms.
    let song = dir.join("a4.mid");
    let events = [
        (
            2_400,
            SynthEvent::NoteOn {
                key: 69,
                velocity: 0.8,
            },
        ),
        (
            16_800,
            SynthEvent::NoteOff {
                key: 69,
                velocity: 0.5,
            },
        ),
    ];
    std::fs::write(
        &song,
        orchard_engine::midi::smf_bytes(&events, 48_000.0, 24_000),
    )
    .unwrap();
    let takes = dir.join("takes");
    let session = standalone::enable(takes.clone(), None, Devices::default()).unwrap();
    session.transport.open(&song, true).unwrap();
    session.recorder.set_recording(true);

    let mut plugin = Orchard::default();
    // What a host's wrapper does first: every smoother starts at its value.
    for (_, param, _) in plugin.params().param_map() {
        // SAFETY: the parameter belongs to `plugin`, alive for the whole
        // test; nothing else runs yet.
        unsafe { param._internal_update_smoother(RATE as f32, true) };
    }
    let mut host = Host::new(RATE as f32);
    let layout = Orchard::AUDIO_IO_LAYOUTS[0];
    let config = BufferConfig {
        sample_rate: RATE as f32,
        min_buffer_size: None,
        max_buffer_size: BLOCK as u32,
        process_mode: ProcessMode::Realtime,
    };
    assert!(plugin.activate(&layout, &config, &mut host));
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    // 0.6 s: past the file's end (0.5 s).
    let blocks = RATE as usize * 6 / 10 / BLOCK;
    for _ in 0..blocks {
        process_block(&mut plugin, &mut host, &mut left, &mut right);
    }
    assert!(session.recorder.finish(Duration::from_secs(5)));

    let mut files: Vec<_> = std::fs::read_dir(&takes)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    let score = orchard_engine::midi::read(&files[0]).unwrap();
    let notes: Vec<(f64, SynthEvent)> = score.events.iter().map(|e| (e.time_s, e.event)).collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(matches!(notes[0].1, SynthEvent::NoteOn { key: 69, .. }));
    assert!(matches!(notes[1].1, SynthEvent::NoteOff { key: 69, .. }));
    // At the file's times, to a tick.
    assert!((notes[0].0 - 0.05).abs() < 1e-3, "{notes:?}");
    assert!((notes[1].0 - 0.35).abs() < 1e-3, "{notes:?}");
    let mut wav = hound::WavReader::open(&files[1]).unwrap();
    let samples: Vec<f32> = wav.samples::<f32>().map(Result::unwrap).collect();
    assert_eq!(samples.len(), blocks * BLOCK * 2);
    let peak = |from_s: f64, to_s: f64| {
        let frame = |s: f64| (s * f64::from(RATE)) as usize * 2;
        samples[frame(from_s)..frame(to_s)]
            .iter()
            .fold(0.0f32, |p, x| p.max(x.abs()))
    };
    // Silence before the note; the struck string after it.
    assert_eq!(peak(0.0, 0.045), 0.0);
    assert!(peak(0.06, 0.3) > 1e-3, "peak {}", peak(0.06, 0.3));
    // The transport followed the file to its end and stopped.
    assert!(!session.transport.is_playing());
    let _ = std::fs::remove_dir_all(dir);
}
