//! MIDI channel messages and synthesiser events, both ways: what a MIDI file
//! read means to the synthesiser, and what a recording writes for what the
//! synthesiser played. The two agree: an event written and read back is the
//! same event, to MIDI's 7-bit resolution.

use midly::MidiMessage;
use midly::live::LiveEvent;
use midly::num::u7;

use crate::rt::{DEFAULT_RELEASE_VELOCITY, SynthEvent};

/// The synthesiser event a MIDI channel message means, if Orchard plays it:
/// notes, and the controllers of [`SynthEvent::from_controller`]. A note-on
/// at velocity 0 is a note-off at the default release velocity.
pub fn event_of(message: MidiMessage) -> Option<SynthEvent> {
    let unit = |value: u7| f32::from(value.as_int()) / 127.0;
    match message {
        MidiMessage::NoteOn { key, vel } if vel.as_int() > 0 => Some(SynthEvent::NoteOn {
            key: key.as_int(),
            velocity: unit(vel),
        }),
        MidiMessage::NoteOn { key, .. } => Some(SynthEvent::NoteOff {
            key: key.as_int(),
            velocity: DEFAULT_RELEASE_VELOCITY,
        }),
        MidiMessage::NoteOff { key, vel } => Some(SynthEvent::NoteOff {
            key: key.as_int(),
            velocity: unit(vel),
        }),
        MidiMessage::Controller { controller, value } => {
            SynthEvent::from_controller(controller.as_int(), unit(value))
        }
        _ => None,
    }
}

/// The synthesiser event that one MIDI message, as its raw bytes (status byte
/// first, as a MIDI cable or `mido`'s `Message.bytes()` carries it), means, if
/// Orchard plays it ([`event_of`]); system messages mean nothing to it. Bytes
/// that are no complete MIDI message are refused with a one-line reason.
pub fn event_of_bytes(bytes: &[u8]) -> Result<Option<SynthEvent>, String> {
    match LiveEvent::parse(bytes) {
        Ok(LiveEvent::Midi { message, .. }) => Ok(event_of(message)),
        Ok(_) => Ok(None),
        Err(error) => Err(format!(
            "the bytes {} are no MIDI message: {error}",
            hex(&bytes[..bytes.len().min(8)])
        )),
    }
}

/// Bytes as hexadecimal pairs, e.g. `[90 3c 64]`.
fn hex(bytes: &[u8]) -> String {
    let pairs: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("[{}]", pairs.join(" "))
}

/// The MIDI channel message for a synthesiser event: note-on (velocity at
/// least 1, so that it stays a note-on), note-off, or the controller that
/// [`event_of`] reads back as the event (sustain 64, sostenuto 66, una corda
/// 67, all sound off 120, all notes off 123). Keys above 127 are clamped.
pub fn message_of(event: SynthEvent) -> MidiMessage {
    // 0–1 to 0–127, rounded; non-finite values as 0.
    let seven_bit = |unit: f32| {
        let unit = if unit.is_finite() { unit } else { 0.0 };
        u7::new((unit.clamp(0.0, 1.0) * 127.0).round() as u8)
    };
    let key = |key: u8| u7::new(key.min(127));
    let controller = |number: u8, value: u7| MidiMessage::Controller {
        controller: u7::new(number),
        value,
    };
    match event {
        SynthEvent::NoteOn { key: k, velocity } => MidiMessage::NoteOn {
            key: key(k),
            vel: seven_bit(velocity).max(u7::new(1)),
        },
        SynthEvent::NoteOff { key: k, velocity } => MidiMessage::NoteOff {
            key: key(k),
            vel: seven_bit(velocity),
        },
        SynthEvent::Sustain(depth) => controller(64, seven_bit(depth)),
        SynthEvent::Sostenuto(down) => controller(66, u7::new(if down { 127 } else { 0 })),
        SynthEvent::UnaCorda(depth) => controller(67, seven_bit(depth)),
        SynthEvent::AllSoundOff => controller(120, u7::new(0)),
        SynthEvent::AllNotesOff => controller(123, u7::new(0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_written_reads_back_as_itself() {
        let events = [
            SynthEvent::NoteOn {
                key: 60,
                velocity: 100.0 / 127.0,
            },
            SynthEvent::NoteOff {
                key: 60,
                velocity: 64.0 / 127.0,
            },
            SynthEvent::Sustain(1.0),
            SynthEvent::Sustain(0.0),
            SynthEvent::Sostenuto(true),
            SynthEvent::Sostenuto(false),
            SynthEvent::UnaCorda(90.0 / 127.0),
            SynthEvent::AllSoundOff,
            SynthEvent::AllNotesOff,
        ];
        for event in events {
            assert_eq!(event_of(message_of(event)), Some(event), "{event:?}");
        }
    }

    /// Raw bytes on any channel mean what the file's messages mean; system
    /// messages mean nothing; broken bytes are refused, by value.
    #[test]
    fn raw_messages_are_read_on_every_channel() {
        let on = event_of_bytes(&[0x93, 60, 100]).unwrap();
        assert_eq!(
            on,
            Some(SynthEvent::NoteOn {
                key: 60,
                velocity: 100.0 / 127.0
            })
        );
        assert_eq!(
            event_of_bytes(&[0xb0, 64, 127]).unwrap(),
            Some(SynthEvent::Sustain(1.0))
        );
        assert_eq!(event_of_bytes(&[0xe0, 0, 64]).unwrap(), None);
        assert_eq!(event_of_bytes(&[0xf8]).unwrap(), None);
        let error = event_of_bytes(&[0x90, 60]).unwrap_err();
        assert!(
            error.starts_with("the bytes [90 3c] are no MIDI message"),
            "{error}"
        );
        assert!(event_of_bytes(&[]).is_err());
        assert!(event_of_bytes(&[60, 100]).is_err());
    }

    #[test]
    fn a_quiet_note_on_stays_a_note_on() {
        let event = SynthEvent::NoteOn {
            key: 200,
            velocity: 0.001,
        };
        assert_eq!(
            message_of(event),
            MidiMessage::NoteOn {
                key: u7::new(127),
                vel: u7::new(1)
            }
        );
    }
}
