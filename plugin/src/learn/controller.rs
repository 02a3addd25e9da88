//! What a player moves to drive a binding: a MIDI control change (CC 0 to
//! 119; the modulation wheel is CC 1), the pitch-bend wheel, or channel
//! pressure, on one MIDI channel or on any.
//!
//! Controllers 120 to 127 are channel-mode messages (all notes off, all
//! sound off, …), not controls, and are never sources.

use nice_plug::prelude::NoteEvent;
use serde::{Deserialize, Serialize};

/// The highest CC number that is a control (120 and up are channel modes).
pub const LAST_CC: u8 = 119;
/// The code of the pitch-bend wheel in [`Control::code`] (VST3's number for
/// its pitch-bend proxy, past the 128 CCs).
const PITCH_BEND_CODE: u8 = 129;
/// The code of channel pressure in [`Control::code`] (VST3's, likewise).
const CHANNEL_PRESSURE_CODE: u8 = 128;
/// The raw 14-bit value of a pitch-bend wheel at rest.
const BEND_CENTRE: f32 = 8192.0;
/// The largest raw 14-bit pitch-bend value.
const BEND_MAX: f32 = 16383.0;

/// A kind of MIDI controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Control {
    /// A control change, number 0 to [`LAST_CC`] (1 is the modulation wheel).
    Cc {
        /// The controller number.
        number: u8,
    },
    /// The pitch-bend wheel (14 bits, its rest position the middle).
    PitchBend,
    /// Channel pressure (aftertouch).
    ChannelPressure,
}

impl Control {
    /// One byte naming it: the CC number, 128 for channel pressure, 129 for
    /// pitch bend; `None` for a CC number past [`LAST_CC`].
    pub fn code(self) -> Option<u8> {
        match self {
            Self::Cc { number } if number <= LAST_CC => Some(number),
            Self::Cc { .. } => None,
            Self::PitchBend => Some(PITCH_BEND_CODE),
            Self::ChannelPressure => Some(CHANNEL_PRESSURE_CODE),
        }
    }

    /// The control a [`code`](Self::code) names.
    pub fn from_code(code: u8) -> Option<Self> {
        match code {
            0..=LAST_CC => Some(Self::Cc { number: code }),
            PITCH_BEND_CODE => Some(Self::PitchBend),
            CHANNEL_PRESSURE_CODE => Some(Self::ChannelPressure),
            _ => None,
        }
    }

    /// Its name for the editor: `CC 74`, `Mod wheel (CC 1)`, `Pitch bend`.
    pub fn label(self) -> String {
        match self {
            Self::Cc { number: 1 } => "Mod wheel (CC 1)".into(),
            Self::Cc { number } => format!("CC {number}"),
            Self::PitchBend => "Pitch bend".into(),
            Self::ChannelPressure => "Channel pressure".into(),
        }
    }
}

/// A controller on a MIDI channel (0 to 15), or on any channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// The controller.
    pub control: Control,
    /// The channel, 0 to 15 (shown as 1 to 16); `None` for any channel.
    pub channel: Option<u8>,
}

impl Source {
    /// Whether it can be bound: a control ([`Control::code`]) on a channel
    /// that exists.
    pub fn is_valid(self) -> bool {
        self.control.code().is_some() && self.channel.is_none_or(|c| c < 16)
    }

    /// Whether a movement on `channel` of `control` moves this source.
    pub fn matches(self, control: Control, channel: u8) -> bool {
        self.control == control && self.channel.is_none_or(|c| c == channel)
    }

    /// Its name for the editor: `CC 74, ch 1`, `Pitch bend, any channel`.
    pub fn label(self) -> String {
        match self.channel {
            Some(channel) => format!("{}, ch {}", self.control.label(), channel + 1),
            None => format!("{}, any channel", self.control.label()),
        }
    }
}

/// One movement of a controller: which, on which channel, to where.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Movement {
    /// The controller.
    pub control: Control,
    /// The channel, 0 to 15.
    pub channel: u8,
    /// Its position, 0 to 1: a CC's value ÷ 127, pressure likewise; pitch
    /// bend 0 fully down, 0.5 exactly at rest (raw 8192), 1 fully up.
    pub position: f32,
}

impl Movement {
    /// The movement a host's MIDI event is, if it is one of a controller
    /// that can be bound. Allocates nothing (the audio thread calls it).
    pub fn of_event<S>(event: &NoteEvent<S>) -> Option<Self> {
        let (control, channel, position) = match *event {
            NoteEvent::MidiCC {
                channel, cc, value, ..
            } if cc <= LAST_CC => (Control::Cc { number: cc }, channel, value),
            NoteEvent::MidiPitchBend { channel, value, .. } => {
                (Control::PitchBend, channel, bend_position(value))
            }
            NoteEvent::MidiChannelPressure {
                channel, pressure, ..
            } => (Control::ChannelPressure, channel, pressure),
            _ => return None,
        };
        let position = if position.is_finite() {
            position.clamp(0.0, 1.0)
        } else {
            0.0
        };
        Some(Self {
            control,
            channel: channel.min(15),
            position,
        })
    }

    /// The source it comes from, on its channel.
    pub fn source(self) -> Source {
        Source {
            control: self.control,
            channel: Some(self.channel),
        }
    }
}

/// A pitch-bend value as the framework gives it (raw ÷ 16383) made a
/// position that is exactly 0.5 at the wheel's rest (raw 8192): each half of
/// the wheel's travel maps onto its half of 0 to 1.
fn bend_position(value: f32) -> f32 {
    let raw = (value * BEND_MAX).round();
    if raw <= BEND_CENTRE {
        0.5 * raw / BEND_CENTRE
    } else {
        0.5 + 0.5 * (raw - BEND_CENTRE) / (BEND_MAX - BEND_CENTRE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bend(raw: u16) -> NoteEvent<()> {
        NoteEvent::MidiPitchBend {
            timing: 0,
            channel: 3,
            value: f32::from(raw) / BEND_MAX,
        }
    }

    #[test]
    fn pitch_bend_is_exactly_centred_at_rest_and_spans_zero_to_one() {
        let position = |raw| Movement::of_event(&bend(raw)).unwrap().position;
        assert_eq!(position(8192), 0.5, "the wheel at rest");
        assert_eq!(position(0), 0.0);
        assert_eq!(position(16383), 1.0);
        // One step either side of the rest is a small move either way.
        assert!(position(8191) < 0.5 && position(8191) > 0.4999);
        assert!(position(8193) > 0.5 && position(8193) < 0.5001);
        let moved = Movement::of_event(&bend(0)).unwrap();
        assert_eq!(moved.control, Control::PitchBend);
        assert_eq!(moved.channel, 3);
    }

    #[test]
    fn ccs_are_controls_up_to_119_and_modes_are_not() {
        let cc = |cc, value| NoteEvent::<()>::MidiCC {
            timing: 0,
            channel: 0,
            cc,
            value,
        };
        let moved = Movement::of_event(&cc(74, 127.0 / 127.0)).unwrap();
        assert_eq!(moved.control, Control::Cc { number: 74 });
        assert_eq!(moved.position, 1.0);
        assert!(Movement::of_event(&cc(119, 0.5)).is_some());
        assert!(Movement::of_event(&cc(120, 0.0)).is_none(), "all sound off");
        assert!(Movement::of_event(&cc(123, 0.0)).is_none(), "all notes off");
        assert_eq!(
            Movement::of_event(&cc(7, f32::NAN)).unwrap().position,
            0.0,
            "a non-finite value is clamped, not passed on"
        );
        assert_eq!(Movement::of_event(&cc(7, 3.0)).unwrap().position, 1.0);
        assert!(Control::Cc { number: 120 }.code().is_none());
        for code in (0..=LAST_CC).chain([128, 129]) {
            let control = Control::from_code(code).unwrap();
            assert_eq!(control.code(), Some(code));
        }
        assert!(Control::from_code(130).is_none());
    }

    #[test]
    fn a_source_on_a_channel_ignores_the_others_and_any_channel_takes_all() {
        let on_two = Source {
            control: Control::Cc { number: 1 },
            channel: Some(2),
        };
        let mod_wheel = Control::Cc { number: 1 };
        assert!(on_two.matches(mod_wheel, 2));
        assert!(!on_two.matches(mod_wheel, 3));
        assert!(!on_two.matches(Control::PitchBend, 2));
        let any = Source {
            channel: None,
            ..on_two
        };
        assert!((0..16).all(|channel| any.matches(mod_wheel, channel)));
        assert_eq!(on_two.label(), "Mod wheel (CC 1), ch 3");
        assert!(
            !Source {
                channel: Some(16),
                ..on_two
            }
            .is_valid()
        );
    }
}
