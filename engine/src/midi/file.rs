//! Standard MIDI Files to scores: what `orchard render` plays and the
//! standalone app's player plays.

use std::path::Path;

use midly::{Format, MetaMessage, Smf, Timing, TrackEventKind};

use crate::rt::SynthEvent;

use super::score::{Score, ScoreEvent};

/// Microseconds per quarter note until a file sets its own tempo (120 BPM).
const DEFAULT_TEMPO_US: u32 = 500_000;

/// What a track event means for the performance.
#[derive(Debug, Clone, Copy)]
enum Item {
    Tempo(u32),
    Play(SynthEvent),
}

/// Reads `path` and turns it into a score. Errors are one line for the user.
pub fn read(path: &Path) -> Result<Score, String> {
    let bytes = crate::input::read_capped(path, MAX_MIDI_BYTES)
        .map_err(|e| format!("cannot read MIDI file {}: {e}", path.display()))?;
    parse(&bytes).map_err(|e| format!("{} is not a valid Standard MIDI File: {e}", path.display()))
}

/// The largest MIDI file read, bytes (a long piano piece is tens of kB).
pub const MAX_MIDI_BYTES: u64 = 32 << 20;

/// Parses a Standard MIDI File held in memory.
pub fn parse(bytes: &[u8]) -> Result<Score, String> {
    if frame_rate_of_minus_128(bytes) {
        return Err("its time division's frame rate is -128, which is no SMPTE rate".into());
    }
    let smf = Smf::parse(bytes).map_err(|e| e.to_string())?;
    match smf.header.timing {
        Timing::Metrical(ticks) if ticks.as_int() == 0 => {
            return Err("its time division is 0 ticks per quarter note".into());
        }
        Timing::Timecode(_, 0) => return Err("its time division is 0 ticks per frame".into()),
        _ => {}
    }
    let tracks: Vec<Vec<(u64, Item)>> = smf
        .tracks
        .iter()
        .map(|track| track_items(track))
        .collect::<Result<_, _>>()?;
    let track_ends: Vec<u64> = smf
        .tracks
        .iter()
        .map(|track| track.iter().map(|e| u64::from(e.delta.as_int())).sum())
        .collect();

    match smf.header.format {
        Format::SingleTrack | Format::Parallel => {
            // One time axis: tempo changes in any track apply to all.
            let mut merged: Vec<(u64, Item)> = tracks.into_iter().flatten().collect();
            merged.sort_by_key(|&(tick, _)| tick);
            let end_tick = track_ends.iter().copied().max().unwrap_or(0);
            let (events, end_s) = to_seconds(&merged, end_tick, smf.header.timing, 0.0);
            Ok(Score::new(events, end_s))
        }
        Format::Sequential => {
            // Independent patterns played one after another.
            let mut events = Vec::new();
            let mut offset_s = 0.0;
            for (items, &end_tick) in tracks.iter().zip(&track_ends) {
                let (mut track_events, end_s) =
                    to_seconds(items, end_tick, smf.header.timing, offset_s);
                events.append(&mut track_events);
                offset_s = end_s;
            }
            Ok(Score::new(events, offset_s))
        }
    }
}

/// Whether a header chunk (`MThd`, from the first one on: an RMID file
/// wraps the chunks) gives an SMPTE time division of -128 frames a second:
/// midly negates that byte as an `i8`, which overflows (a panic in debug
/// builds), so such a file is refused before midly reads it.
fn frame_rate_of_minus_128(bytes: &[u8]) -> bool {
    let Some(first) = bytes.windows(4).position(|id| id == b"MThd") else {
        return false;
    };
    // Chunks as midly reads them: an id (4 bytes), a length (4, big-endian),
    // the data; a header's data is its format, track count and division
    // (2 bytes each).
    let mut chunks = &bytes[first..];
    while let (Some(id), Some(length)) = (chunks.get(..4), chunks.get(4..8)) {
        let length = u32::from_be_bytes([length[0], length[1], length[2], length[3]]);
        let data = &chunks[8..];
        if id == b"MThd" && data.get(4) == Some(&0x80) {
            return true;
        }
        chunks = data.get(length as usize..).unwrap_or_default();
    }
    false
}

/// The events of one track that matter, at absolute ticks; a tempo of 0
/// microseconds per quarter note (no time between beats) is refused.
fn track_items(track: &[midly::TrackEvent<'_>]) -> Result<Vec<(u64, Item)>, String> {
    let mut tick = 0u64;
    let mut items = Vec::new();
    for event in track {
        tick += u64::from(event.delta.as_int());
        let item = match event.kind {
            TrackEventKind::Meta(MetaMessage::Tempo(us)) if us.as_int() == 0 => {
                return Err(format!(
                    "a tempo of 0 microseconds per quarter note at tick {tick} \
                     (every beat would take no time)"
                ));
            }
            TrackEventKind::Meta(MetaMessage::Tempo(us)) => Item::Tempo(us.as_int()),
            TrackEventKind::Midi { message, .. } => match super::message::event_of(message) {
                Some(event) => Item::Play(event),
                None => continue,
            },
            _ => continue,
        };
        items.push((tick, item));
    }
    Ok(items)
}

/// Converts tick-stamped items (sorted by tick) to seconds, following tempo changes.
/// Returns the events and the time of `end_tick`, both offset by `offset_s`.
fn to_seconds(
    items: &[(u64, Item)],
    end_tick: u64,
    timing: Timing,
    offset_s: f64,
) -> (Vec<ScoreEvent>, f64) {
    let seconds_per_tick = |tempo_us: u32| match timing {
        Timing::Metrical(ticks_per_beat) => {
            f64::from(tempo_us) * 1e-6 / f64::from(ticks_per_beat.as_int().max(1))
        }
        Timing::Timecode(fps, subframes) => {
            1.0 / (f64::from(fps.as_f32()) * f64::from(subframes.max(1)))
        }
    };
    let mut tempo = DEFAULT_TEMPO_US;
    let (mut last_tick, mut time_s) = (0u64, offset_s);
    let mut events = Vec::with_capacity(items.len());
    for &(tick, item) in items {
        time_s += (tick - last_tick) as f64 * seconds_per_tick(tempo);
        last_tick = tick;
        match item {
            Item::Tempo(us) => tempo = us,
            Item::Play(event) => events.push(ScoreEvent { time_s, event }),
        }
    }
    let end_s = time_s + end_tick.saturating_sub(last_tick) as f64 * seconds_per_tick(tempo);
    (events, end_s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use midly::num::{u4, u7, u15, u24, u28};
    use midly::{Header, MidiMessage, TrackEvent};

    fn ev(delta: u32, kind: TrackEventKind<'static>) -> TrackEvent<'static> {
        TrackEvent {
            delta: u28::new(delta),
            kind,
        }
    }

    fn note(on: bool, key: u8) -> TrackEventKind<'static> {
        let (key, vel) = (u7::new(key), u7::new(if on { 100 } else { 0 }));
        TrackEventKind::Midi {
            channel: u4::new(0),
            message: MidiMessage::NoteOn { key, vel },
        }
    }

    fn write(smf: &Smf<'_>) -> Vec<u8> {
        let mut bytes = Vec::new();
        smf.write_std(&mut bytes).unwrap();
        bytes
    }

    /// Type 1: the tempo track halves the tempo after one beat; a note track plays on
    /// beats 0, 1 and 2 (480 ticks per beat): at 0 s, 0.5 s and 0.5 + 1.0 s.
    #[test]
    fn tempo_changes_in_another_track_place_notes() {
        let tempo = vec![
            ev(
                0,
                TrackEventKind::Meta(MetaMessage::Tempo(u24::new(500_000))),
            ),
            ev(
                480,
                TrackEventKind::Meta(MetaMessage::Tempo(u24::new(1_000_000))),
            ),
            ev(0, TrackEventKind::Meta(MetaMessage::EndOfTrack)),
        ];
        let notes = vec![
            ev(0, note(true, 60)),
            ev(480, note(false, 60)),
            ev(0, note(true, 62)),
            ev(480, note(true, 64)),
            ev(480, TrackEventKind::Meta(MetaMessage::EndOfTrack)),
        ];
        let smf = Smf {
            header: Header::new(Format::Parallel, Timing::Metrical(u15::new(480))),
            tracks: vec![tempo, notes],
        };
        let score = parse(&write(&smf)).unwrap();
        let ons: Vec<f64> = score
            .events
            .iter()
            .filter(|e| matches!(e.event, SynthEvent::NoteOn { .. }))
            .map(|e| e.time_s)
            .collect();
        assert_eq!(ons.len(), 3);
        for (t, expected) in ons.iter().zip([0.0, 0.5, 1.5]) {
            assert!((t - expected).abs() < 1e-9, "{ons:?}");
        }
        assert!((score.end_s - 2.5).abs() < 1e-9);
        // Velocity-0 note-on is a note-off.
        assert!(matches!(
            score.events[1].event,
            SynthEvent::NoteOff {
                key: 60,
                velocity: 0.5
            }
        ));
    }

    #[test]
    fn garbage_and_truncation_are_errors() {
        assert!(parse(b"not a midi file at all").is_err());
        let smf = Smf {
            header: Header::new(Format::SingleTrack, Timing::Metrical(u15::new(96))),
            tracks: vec![vec![ev(0, note(true, 60)), ev(96, note(false, 60))]],
        };
        let bytes = write(&smf);
        assert!(parse(&bytes).is_ok());
        assert!(parse(&bytes[..bytes.len() - 3]).is_err());
        let no_ticks = Smf {
            header: Header::new(Format::SingleTrack, Timing::Metrical(u15::new(0))),
            ..smf
        };
        let reason = parse(&write(&no_ticks)).unwrap_err();
        assert!(reason.contains("0 ticks per quarter note"), "{reason}");
    }
}
