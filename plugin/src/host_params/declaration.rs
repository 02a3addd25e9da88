//! What declaring a host parameter says: its permanent id, its name, its
//! knob (kind, range, unit, where its default comes from, and what moving
//! it does) and the properties it reaches. The declarations themselves are
//! one table, [`super::host`].

use super::reach::PropertyReach;

/// One host parameter, declared once: everything else about it (its
/// nice-plug parameter, its place in the ids and in the sound settings,
/// what it changes in the instrument) is derived from this.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HostParam {
    /// The permanent id: hosts store automation and state under it, user
    /// presets and MIDI bindings name it (`hardness`).
    pub id: &'static str,
    /// The name hosts show (`Hammer hardness`).
    pub name: &'static str,
    /// Its kind, range, unit and default, and what moving it does.
    pub knob: Knob,
    /// The properties it drives; `None` for the output level and the
    /// instrument choice, which drive none.
    pub reach: Option<PropertyReach>,
}

/// The built-in preset a parameter's default is read from: the value there
/// of the property it drives, so the parameter at its default leaves that
/// preset as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultFrom {
    /// The default instrument (the grand piano,
    /// [`orchard_engine::instrument::Preset::default_grand`]).
    DefaultInstrument,
    /// The built-in preset of this name (`chiming-clock`): for a property
    /// the default instrument lacks.
    Builtin(&'static str),
}

/// The plain values a knob spans.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    /// The lowest value.
    pub min: f32,
    /// The highest value.
    pub max: f32,
    /// Whether the knob gives its lower half more travel (a skew of −1, as
    /// nice-plug's `FloatRange::skew_factor(-1.0)`): for ranges over a
    /// ratio, such as 0.33 to 3.
    pub skewed: bool,
}

/// What kind of knob a host parameter is, and so what moving it does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Knob {
    /// The output level: a gain from −60 to +12 dB (shown in dB), 0 dB by
    /// default, gliding over 20 ms; applied after the instrument.
    OutputLevel,
    /// Which built-in instrument plays (the first, the default instrument,
    /// by default).
    Instrument,
    /// Sets each property it reaches to the knob's value, over `span`,
    /// shown with `digits` decimals and `unit`.
    Value {
        /// Its plain values.
        span: Span,
        /// Decimals shown.
        digits: usize,
        /// The unit shown after the value (` cents`, ` Hz`), or nothing.
        unit: &'static str,
        /// Where its default is read.
        default: DefaultFrom,
    },
    /// Scales each property it reaches by `base` to the power of `sign` × the
    /// knob (−1 to 1); at 0, the default, the preset's own values.
    Power {
        /// The factor at +1 (for `sign` 1).
        base: f64,
        /// 1, or −1 for a knob that divides as it rises.
        sign: f64,
    },
    /// Scales each property it reaches by the knob, 0.25 to 4 (× shown), or
    /// divides it by the knob if `inverse`; at 1, the default, the preset's
    /// own values.
    Factor {
        /// Whether it divides.
        inverse: bool,
    },
    /// A choice (its index is the property's value).
    Choice {
        /// Where its default is read.
        default: DefaultFrom,
    },
    /// On (1) or off (0).
    Switch {
        /// Where its default is read.
        default: DefaultFrom,
    },
    /// A time of day, hours after midnight (0 to 24), shown and set to the
    /// second.
    TimeOfDay {
        /// Where its default is read.
        default: DefaultFrom,
    },
    /// The room's mix, 0 to 1: above 0 it sets the mix and brings the
    /// default room to a preset without one; at 0, the default, a preset's
    /// own room keeps its mix (the built-in instruments, which have none,
    /// are heard dry).
    RoomMix,
}

/// How a parameter changes the properties it reaches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Change {
    /// To this value.
    To(f64),
    /// By this factor, from the preset's value.
    Times(f64),
}

impl Knob {
    /// The preset its default is the value of a property of, if it is.
    pub fn default_from(self) -> Option<DefaultFrom> {
        match self {
            Self::Value { default, .. }
            | Self::Choice { default }
            | Self::Switch { default }
            | Self::TimeOfDay { default } => Some(default),
            _ => None,
        }
    }

    /// Its default plain value where that is the knob's own (the value that
    /// leaves a preset as it is), not a property's.
    pub fn own_default(self) -> Option<f32> {
        match self {
            Self::OutputLevel => Some(1.0),
            Self::Instrument | Self::Power { .. } | Self::RoomMix => Some(0.0),
            Self::Factor { .. } => Some(1.0),
            _ => None,
        }
    }

    /// What the knob at the plain value `value` (a choice's index, a
    /// switch's 0 or 1) does to the properties it reaches; `None` for the
    /// output level and the instrument choice.
    pub fn change(self, value: f32) -> Option<Change> {
        Some(match self {
            Self::OutputLevel | Self::Instrument => return None,
            Self::Value { .. } => Change::To(decimal(value)),
            Self::Power { base, sign } => Change::Times(base.powf(sign * f64::from(value))),
            Self::Factor { inverse: true } => Change::Times(1.0 / f64::from(value)),
            Self::Factor { inverse: false } => Change::Times(decimal(value)),
            Self::Choice { .. } | Self::Switch { .. } => Change::To(f64::from(value)),
            // To the second, as the parameter shows it.
            Self::TimeOfDay { .. } => Change::To((f64::from(value) * 3600.0).round() / 3600.0),
            Self::RoomMix if value > 0.0 => Change::To(decimal(value)),
            // At 0 a preset's own room keeps its mix.
            Self::RoomMix => Change::Times(1.0),
        })
    }

    /// Whether the knob at `value` brings the default room to a preset
    /// heard dry.
    pub fn brings_room(self, value: f32) -> bool {
        self == Self::RoomMix && value > 0.0
    }
}

/// The `f64` a host means by an `f32` parameter value: the shortest decimal
/// that reads back as it (0.6, not 0.6000000238).
fn decimal(value: f32) -> f64 {
    value.to_string().parse().unwrap_or(f64::from(value))
}
