//! What passes between the action and the rest of the instrument: commands from
//! the player (keys, pedals, and the strings' report of a rebound) and events
//! for the strings (let-off, damper moves), each at a time (s).

/// A command from the player, at a time (s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ActionCommand {
    /// A key goes down.
    KeyDown {
        /// MIDI note number.
        note: u8,
        /// MIDI velocity, 1–127.
        velocity: u8,
    },
    /// A key is released.
    KeyUp {
        /// MIDI note number.
        note: u8,
        /// Release velocity, 0 to 1 (MIDI note-off velocity / 127; 0.5 when the
        /// source has none): how fast the key is let up. At 0.5 the key rises in
        /// `key_return_s` and the damper lands in `damper_travel_s`; a release
        /// twice as fast takes half as long, down to a quarter, and a slow one
        /// up to four times as long.
        velocity: f64,
    },
    /// Sustain pedal position, 0 (up) to 1 (down), continuous (CC64 / 127).
    Sustain(f64),
    /// Sostenuto pedal down or up (CC66).
    Sostenuto(bool),
    /// Una corda pedal position, 0 to 1 (CC67 / 127).
    UnaCorda(f64),
    /// The strings' side reports that a hammer has let go of its strings,
    /// moving away at `speed` (m/s): the hammer falls from the string at that
    /// speed instead of the restitution model's.
    Rebound {
        /// MIDI note number.
        note: u8,
        /// Speed away from the string, m/s.
        speed: f64,
    },
}

/// What the action tells the strings, at a time (s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ActionEvent {
    /// The jack lets a hammer go at let-off: from here it flies free and the
    /// strings' side simulates it (the hammer comes near, De Sanctis et al.
    /// 2003, Section 4).
    LetOff {
        /// MIDI note number.
        note: u8,
        /// Speed the hammer will meet the string with, m/s (gravity over the
        /// last millimetres included).
        speed: f64,
        /// Speed of the key's front as the jack lets go, m/s: it goes on down
        /// by the aftertouch at this speed and lands on the keybed.
        key_speed: f64,
    },
    /// A damper's amount changed.
    Damper {
        /// MIDI note number.
        note: u8,
        /// 0 lifted (free string) to 1 fully down.
        amount: f64,
    },
}
