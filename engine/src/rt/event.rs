//! What the synthesiser is told to do, and when.

/// A performance event, as every front end (plugin, standalone, renderer) delivers it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SynthEvent {
    /// Strike `key` with normalised velocity (MIDI velocity / 127).
    NoteOn {
        /// MIDI key.
        key: u8,
        /// 0 to 1; 0 acts as a note-off.
        velocity: f32,
    },
    /// Release `key`: its damper falls.
    NoteOff {
        /// MIDI key.
        key: u8,
        /// Release velocity, 0 to 1 (MIDI note-off velocity / 127; 0.5 when the
        /// source has none): how fast the key is let up, and so how soon its
        /// damper lands.
        velocity: f32,
    },
    /// Sustain pedal depth, 0 (up) to 1 (down), continuous (MIDI CC 64 / 127).
    Sustain(f32),
    /// Sostenuto pedal down or up (MIDI CC 66 ≥ 64).
    Sostenuto(bool),
    /// Una corda (soft) pedal depth, 0 to 1 (MIDI CC 67 / 127).
    UnaCorda(f32),
    /// Every damper falls (MIDI CC 123).
    AllNotesOff,
    /// Everything stops at once (MIDI CC 120).
    AllSoundOff,
}

impl SynthEvent {
    /// The event a MIDI control change means, if Orchard responds to it:
    /// `controller` is the CC number, `value` its value normalised to 0–1
    /// (value / 127). Sustain (64) and una corda (67) are continuous; sostenuto
    /// (66) is down from half way.
    pub fn from_controller(controller: u8, value: f32) -> Option<Self> {
        let value = if value.is_finite() {
            value.clamp(0.0, 1.0)
        } else {
            0.0
        };
        Some(match controller {
            64 => Self::Sustain(value),
            66 => Self::Sostenuto(value >= 0.5),
            67 => Self::UnaCorda(value),
            120 => Self::AllSoundOff,
            123 => Self::AllNotesOff,
            _ => return None,
        })
    }
}

/// An event at a frame offset within the block being processed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimedEvent {
    /// Frames from the start of the block.
    pub offset: usize,
    /// What happens.
    pub event: SynthEvent,
}

#[cfg(test)]
mod tests {
    use super::SynthEvent;

    #[test]
    fn pedals_and_channel_modes_map_from_their_controllers() {
        assert_eq!(
            SynthEvent::from_controller(64, 0.5),
            Some(SynthEvent::Sustain(0.5))
        );
        assert_eq!(
            SynthEvent::from_controller(66, 64.0 / 127.0),
            Some(SynthEvent::Sostenuto(true))
        );
        assert_eq!(
            SynthEvent::from_controller(66, 63.0 / 127.0),
            Some(SynthEvent::Sostenuto(false))
        );
        assert_eq!(
            SynthEvent::from_controller(67, 2.0),
            Some(SynthEvent::UnaCorda(1.0))
        );
        assert_eq!(
            SynthEvent::from_controller(64, f32::NAN),
            Some(SynthEvent::Sustain(0.0))
        );
        assert_eq!(
            SynthEvent::from_controller(123, 0.0),
            Some(SynthEvent::AllNotesOff)
        );
        assert_eq!(
            SynthEvent::from_controller(120, 0.0),
            Some(SynthEvent::AllSoundOff)
        );
        assert_eq!(SynthEvent::from_controller(1, 0.3), None);
    }
}
