//! Synthesiser events at sample times to a Standard MIDI File: what the
//! standalone app records alongside its audio.
//!
//! The file is format 0 (one track) at 960 ticks per quarter note and 120
//! beats a minute (1920 ticks a second, 0.52 ms a tick), every event on
//! channel 1; its times are the samples' times rounded to the nearest tick.

use midly::num::{u4, u15, u24, u28};
use midly::{Format, Header, MetaMessage, Smf, Timing, TrackEvent, TrackEventKind};

use super::message::message_of;
use crate::rt::SynthEvent;

/// Ticks per quarter note of the files written.
pub const TICKS_PER_QUARTER: u16 = 960;
/// Their tempo, microseconds per quarter note (120 beats a minute).
pub const TEMPO_US: u32 = 500_000;
/// Ticks per second at that tempo.
pub const TICKS_PER_SECOND: f64 = TICKS_PER_QUARTER as f64 * 1e6 / TEMPO_US as f64;

/// The bytes of a Standard MIDI File holding `events` (sample index from the
/// start, event; in time order) at `sample_rate` (Hz), its end of track at
/// `end_sample` (or at the last event, if later). Allocates: the file.
pub fn smf_bytes(events: &[(u64, SynthEvent)], sample_rate: f64, end_sample: u64) -> Vec<u8> {
    let rate = if sample_rate.is_finite() && sample_rate > 0.0 {
        sample_rate
    } else {
        1.0
    };
    let tick_of = |sample: u64| (sample as f64 / rate * TICKS_PER_SECOND).round() as u64;
    let mut track = Vec::with_capacity(events.len() + 2);
    track.push(TrackEvent {
        delta: u28::new(0),
        kind: TrackEventKind::Meta(MetaMessage::Tempo(u24::new(TEMPO_US))),
    });
    let mut last_tick = 0;
    // A delta too long for one event (over 38 hours) is spread over
    // zero-length text events.
    let mut push = |track: &mut Vec<TrackEvent<'static>>, tick: u64, kind| {
        let mut delta = tick.saturating_sub(last_tick);
        while delta > u64::from(u28::max_value().as_int()) {
            track.push(TrackEvent {
                delta: u28::max_value(),
                kind: TrackEventKind::Meta(MetaMessage::Text(b"")),
            });
            delta -= u64::from(u28::max_value().as_int());
        }
        track.push(TrackEvent {
            delta: u28::new(delta as u32),
            kind,
        });
        last_tick = last_tick.max(tick);
    };
    for &(sample, event) in events {
        let kind = TrackEventKind::Midi {
            channel: u4::new(0),
            message: message_of(event),
        };
        push(&mut track, tick_of(sample), kind);
    }
    let end = tick_of(end_sample);
    push(
        &mut track,
        end,
        TrackEventKind::Meta(MetaMessage::EndOfTrack),
    );
    let smf = Smf {
        header: Header::new(
            Format::SingleTrack,
            Timing::Metrical(u15::new(TICKS_PER_QUARTER)),
        ),
        tracks: vec![track],
    };
    let mut bytes = Vec::new();
    // Writing to memory cannot fail.
    let _ = smf.write_std(&mut bytes);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Events written at sample times read back at those times (to half a
    /// tick, 0.26 ms) and as the same events.
    #[test]
    fn a_written_file_reads_back_at_the_same_times() {
        let rate = 48_000.0;
        let events = [
            (
                4_800,
                SynthEvent::NoteOn {
                    key: 60,
                    velocity: 100.0 / 127.0,
                },
            ),
            (12_345, SynthEvent::Sustain(1.0)),
            (
                48_000,
                SynthEvent::NoteOff {
                    key: 60,
                    velocity: 0.0,
                },
            ),
        ];
        let bytes = smf_bytes(&events, rate, 96_000);
        let score = super::super::parse(&bytes).unwrap();
        assert_eq!(score.events.len(), events.len());
        for (read, (sample, event)) in score.events.iter().zip(events) {
            let expected_s = sample as f64 / rate;
            assert!(
                (read.time_s - expected_s).abs() <= 0.5 / TICKS_PER_SECOND,
                "{read:?} vs {expected_s}"
            );
            assert_eq!(read.event, event);
        }
        assert!((score.end_s - 2.0).abs() < 1e-9);
    }
}
