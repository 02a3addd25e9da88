//! Standard MIDI Files, as `orchard render FILE.mid` reads them.

use orchard_cli::midi_file;

use super::check;

/// Parses `data` as a MIDI file. A file refused is refused in one line; a
/// file accepted is a score whose times are finite, in order, and end by
/// its end.
pub fn midi_file(data: &[u8]) {
    match midi_file::parse(data) {
        Err(error) => check::one_line(&error),
        Ok(score) => {
            assert!(
                score.end_s.is_finite() && score.end_s >= 0.0,
                "{}",
                score.end_s
            );
            let mut last = 0.0;
            for event in &score.events {
                assert!(
                    event.time_s.is_finite() && event.time_s >= last,
                    "an event at {} s after one at {last} s",
                    event.time_s
                );
                last = event.time_s;
            }
            assert!(last <= score.end_s, "an event after the end");
        }
    }
}
