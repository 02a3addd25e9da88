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

/// An event at a frame offset within the block being processed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimedEvent {
    /// Frames from the start of the block.
    pub offset: usize,
    /// What happens.
    pub event: SynthEvent,
}
