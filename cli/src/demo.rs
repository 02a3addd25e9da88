//! The built-in demo phrase: a few bars across the keyboard.

use orchard_engine::midi::{Score, ScoreEvent};
use orchard_engine::rt::SynthEvent;

/// (start s, duration s, MIDI key, MIDI velocity)
const NOTES: &[(f64, f64, u8, u8)] = &[
    // A rising C-major arpeggio, getting louder.
    (0.00, 0.45, 48, 50),
    (0.25, 0.45, 52, 58),
    (0.50, 0.45, 55, 66),
    (0.75, 0.45, 60, 74),
    (1.00, 0.45, 64, 82),
    (1.25, 0.45, 67, 90),
    (1.50, 1.20, 72, 100),
    // A chord with the bass an octave down.
    (2.50, 1.60, 36, 96),
    (2.50, 1.60, 48, 80),
    (2.52, 1.58, 55, 76),
    (2.54, 1.56, 64, 78),
    (2.56, 1.54, 67, 84),
    // A soft answer in the treble, repeated notes included.
    (4.30, 0.20, 84, 40),
    (4.50, 0.20, 83, 45),
    (4.70, 0.20, 84, 50),
    (4.90, 0.20, 88, 55),
    (5.10, 0.20, 88, 45),
    (5.30, 0.80, 91, 60),
    // Low A and high C to end.
    (6.30, 1.40, 21, 110),
    (6.30, 1.40, 108, 70),
];

/// The demo as a score.
pub fn phrase() -> Score {
    let mut events = Vec::with_capacity(NOTES.len() * 2);
    let mut end: f64 = 0.0;
    for &(start, duration, key, velocity) in NOTES {
        events.push(ScoreEvent {
            time_s: start,
            event: SynthEvent::NoteOn {
                key,
                velocity: f32::from(velocity) / 127.0,
            },
        });
        events.push(ScoreEvent {
            time_s: start + duration,
            event: SynthEvent::NoteOff { key, velocity: 0.5 },
        });
        end = end.max(start + duration);
    }
    Score::new(events, end)
}
