//! The host parameters, each declared once: its permanent id, name, knob
//! (range, unit, default source, what moving it does) and the properties it
//! drives. The nice-plug parameters ([`HostParams`]), the ids hosts and
//! MIDI bindings use ([`PARAM_IDS`]), the sound settings
//! ([`crate::sound::SoundSettings`]) and what each parameter changes in the
//! instrument are all derived from this one table.

use std::sync::OnceLock;

use nice_plug::prelude::*;

use super::build::{Declared, property_default};
use super::declaration::{DefaultFrom, HostParam, Knob, Span};
use super::instrument::Instrument;
use super::reach::PropertyReach;
use crate::microphone_choice::MicrophoneChoice;
use crate::tuning_choices::{TemperamentChoice, TemperamentKey};

/// Declares the host parameters: for each, the field of [`HostParams`]
/// holding it, its nice-plug type and its declaration. Generates
/// [`HOST_PARAMS`] (the declarations in order), [`PARAM_COUNT`],
/// [`HostParams`] (each parameter built from its declaration) and its
/// [`Params`] implementation (the declared ids, in order).
macro_rules! host_parameters {
    ($(
        $(#[doc = $doc:literal])+
        $field:ident: $kind:ty = $declaration:expr;
    )+) => {
        /// Each parameter's place in [`HOST_PARAMS`].
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy)]
        enum Slot {
            $($field,)+
        }

        /// How many host parameters there are.
        pub const PARAM_COUNT: usize = [$(Slot::$field),+].len();

        /// Every host parameter's declaration, in the order hosts list
        /// them (and [`HostParams::param_ptrs`] gives them).
        pub const HOST_PARAMS: [HostParam; PARAM_COUNT] = [$($declaration),+];

        /// The host parameters, each built from its declaration in
        /// [`HOST_PARAMS`].
        pub struct HostParams {
            $($(#[doc = $doc])+ pub $field: $kind,)+
        }

        impl HostParams {
            /// Every parameter at its default.
            pub(crate) fn declared() -> Self {
                let defaults = defaults();
                Self {
                    $($field: <$kind as Declared>::declared(
                        &HOST_PARAMS[Slot::$field as usize],
                        defaults[Slot::$field as usize],
                    ),)+
                }
            }

            /// Every parameter, in the order of [`HOST_PARAMS`] (allocates
            /// nothing).
            pub fn param_ptrs(&self) -> [ParamPtr; PARAM_COUNT] {
                [$(self.$field.as_ptr()),+]
            }

            /// Every parameter's present plain value (a choice's index, a
            /// switch's 0 or 1), in the order of [`HOST_PARAMS`] (wait-free,
            /// allocates nothing: for the audio thread).
            pub fn plain_values(&self) -> [f32; PARAM_COUNT] {
                [$(Declared::plain(&self.$field)),+]
            }

            /// The continuous parameters (knobs, not choices or switches),
            /// each with its index in [`HOST_PARAMS`], in that order.
            pub fn floats(&self) -> impl Iterator<Item = (usize, &FloatParam)> + Clone {
                [$(Declared::as_float(&self.$field)),+]
                    .into_iter()
                    .enumerate()
                    .filter_map(|(index, param)| Some((index, param?)))
            }
        }
    };
}

/// The ids of [`HOST_PARAMS`], in order.
const fn ids() -> [&'static str; PARAM_COUNT] {
    let mut ids = [""; PARAM_COUNT];
    let mut index = 0;
    while index < PARAM_COUNT {
        ids[index] = HOST_PARAMS[index].id;
        index += 1;
    }
    ids
}

/// The id of every host parameter, in the order of [`HOST_PARAMS`].
pub const PARAM_IDS: [&str; PARAM_COUNT] = ids();

// SAFETY: the pointers `param_map` gives are to fields of `self`, valid as
// long as it is; the ids are the declared ones, which the tests check are
// unique.
unsafe impl Params for HostParams {
    fn param_map(&self) -> Vec<(String, ParamPtr, String)> {
        PARAM_IDS
            .iter()
            .zip(self.param_ptrs())
            .map(|(id, param)| (id.to_string(), param, String::new()))
            .collect()
    }
}

/// Every host parameter's default plain value, in the order of
/// [`HOST_PARAMS`]: the knob's own, or the value of the property it drives
/// in the preset its declaration names (read once per process). A property
/// that preset lacks (the tests refuse such a declaration) gives 0.
fn defaults() -> &'static [f32; PARAM_COUNT] {
    static DEFAULTS: OnceLock<[f32; PARAM_COUNT]> = OnceLock::new();
    DEFAULTS.get_or_init(|| {
        let mut sources = Vec::new();
        HOST_PARAMS.map(|declaration| {
            if let Some(own) = declaration.knob.own_default() {
                return own;
            }
            property_default(&declaration, &mut sources).map_or(0.0, |value| value as f32)
        })
    })
}

/// The default instrument's property values are the defaults of most knobs.
const GRAND: DefaultFrom = DefaultFrom::DefaultInstrument;
/// The built-in clock's are those of the mechanism's, which the default
/// instrument lacks.
const CLOCK: DefaultFrom = DefaultFrom::Builtin("chiming-clock");

/// A knob setting its properties to its value, over `min` to `max`.
const fn value(
    min: f32,
    max: f32,
    digits: usize,
    unit: &'static str,
    default: DefaultFrom,
) -> Knob {
    Knob::Value {
        span: Span {
            min,
            max,
            skewed: false,
        },
        digits,
        unit,
        default,
    }
}

/// Field `field` of every object of the kinds `kinds`.
const fn field(kinds: &'static [&'static str], field: &'static str) -> Option<PropertyReach> {
    Some(PropertyReach::Field { kinds, field })
}

host_parameters! {
    /// Output level, applied after the instrument (a gain, shown in dB).
    output_level: FloatParam = HostParam {
        id: "level",
        name: "Output level",
        knob: Knob::OutputLevel,
        reach: None,
    };
    /// Which instrument plays.
    instrument: EnumParam<Instrument> = HostParam {
        id: "instrument",
        name: "Instrument",
        knob: Knob::Instrument,
        reach: None,
    };
    /// Felt hardness: −1 (soft, stiffness ÷ 4) to +1 (hard, × 4).
    hardness: FloatParam = HostParam {
        id: "hardness",
        name: "Hammer hardness",
        knob: Knob::Power { base: 4.0, sign: 1.0 },
        reach: field(&["felt-hammers"], "felt_stiffness"),
    };
    /// Brightness: −1 (dull, high partials damped 8× more) to +1 (8× less).
    brightness: FloatParam = HostParam {
        id: "brightness",
        name: "Brightness",
        knob: Knob::Power { base: 8.0, sign: -1.0 },
        reach: field(&["stiff-strings"], "loss_b2"),
    };
    /// Sustain length: the strings' frequency-independent loss divided by this.
    decay: FloatParam = HostParam {
        id: "decay",
        name: "Decay",
        knob: Knob::Factor { inverse: true },
        reach: field(&["stiff-strings"], "loss_b1"),
    };
    /// Spread of the strings of a note, cents.
    detune: FloatParam = HostParam {
        id: "detune",
        name: "Unison detune",
        knob: value(0.0, 10.0, 2, " cents", GRAND),
        reach: field(&["stiff-strings"], "detune_cents"),
    };
    /// Level of the soundboard's resonance.
    resonance: FloatParam = HostParam {
        id: "resonance",
        name: "String resonance",
        knob: value(0.0, 2.0, 3, "", GRAND),
        reach: field(&["soundboard"], "body_gain"),
    };
    /// Pitch of A4, Hz.
    a4: FloatParam = HostParam {
        id: "a4",
        name: "A4 tuning",
        knob: value(415.0, 466.0, 2, " Hz", GRAND),
        reach: Some(PropertyReach::Path("tuning:a4_hz")),
    };
    /// Octave stretch: 0 equal temperament, 1 beatless octaves.
    stretch: FloatParam = HostParam {
        id: "stretch",
        name: "Stretch",
        knob: value(0.0, 1.0, 3, "", GRAND),
        reach: Some(PropertyReach::Path("tuning:stretch")),
    };
    /// The temperament.
    temperament: EnumParam<TemperamentChoice> = HostParam {
        id: "temperament",
        name: "Temperament",
        knob: Knob::Choice { default: GRAND },
        reach: Some(PropertyReach::Path("tuning:temperament")),
    };
    /// The key the temperament is laid from.
    temperament_key: EnumParam<TemperamentKey> = HostParam {
        id: "temperament-key",
        name: "Temperament key",
        knob: Knob::Choice { default: GRAND },
        reach: Some(PropertyReach::Path("tuning:temperament_key")),
    };
    /// Velocity curve exponent: above 1 more of the range for soft playing
    /// (the action's too).
    velocity_curve: FloatParam = HostParam {
        id: "velocity-curve",
        name: "Velocity curve",
        knob: Knob::Value {
            span: Span { min: 0.33, max: 3.0, skewed: true },
            digits: 3,
            unit: "",
            default: GRAND,
        },
        reach: Some(PropertyReach::Path("velocity:curve")),
    };
    /// Stereo width of the keyboard, 0 (mono) to 1.
    width: FloatParam = HostParam {
        id: "width",
        name: "Stereo width",
        knob: value(0.0, 1.0, 3, "", GRAND),
        reach: Some(PropertyReach::Path("output:stereo_width")),
    };
    /// A clock's balance swings, a music box's cylinder turns (on); or they
    /// are held (off). The id is the clock's, from before music boxes.
    clock_running: BoolParam = HostParam {
        id: "clock-running",
        name: "Mechanism running",
        knob: Knob::Switch { default: CLOCK },
        reach: field(&["clock", "music-box"], "running"),
    };
    /// The time a clock's hands are set to, hours after midnight.
    clock_time: FloatParam = HostParam {
        id: "clock-time",
        name: "Clock time",
        knob: Knob::TimeOfDay { default: CLOCK },
        reach: field(&["clock"], "time_h"),
    };
    /// How far a clock's or a music box's mainspring is wound, 0 to 1.
    clock_winding: FloatParam = HostParam {
        id: "clock-winding",
        name: "Mechanism winding",
        knob: value(0.0, 1.0, 3, "", CLOCK),
        reach: field(&["clock", "music-box"], "wound"),
    };
    /// Where the instrument is heard from.
    microphone: EnumParam<MicrophoneChoice> = HostParam {
        id: "microphone",
        name: "Microphone",
        knob: Knob::Choice { default: GRAND },
        reach: Some(PropertyReach::Path("output:microphone")),
    };
    /// How much of the room is heard, 0 to 1 (the room alone); at 0 a
    /// preset's own room keeps its mix, and the built-in instruments, which
    /// have none, are heard dry.
    room: FloatParam = HostParam {
        id: "room",
        name: "Room",
        knob: Knob::RoomMix,
        reach: Some(PropertyReach::RoomPath("room:mix")),
    };
    /// The room's reverberation time times this.
    room_decay: FloatParam = HostParam {
        id: "room-decay",
        name: "Room decay",
        knob: Knob::Factor { inverse: false },
        reach: Some(PropertyReach::RoomPath("room:t60_s")),
    };
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use orchard_engine::instrument::{Preset, RoomSpec};

    use super::super::build::default_source;
    use super::*;

    /// The preset a declaration's properties are looked up in: the one its
    /// default is read from, or (for a knob whose default is its own) the
    /// default instrument, given the default room where it reaches the
    /// room.
    fn home(declaration: &HostParam) -> Preset {
        let source = declaration
            .knob
            .default_from()
            .unwrap_or(DefaultFrom::DefaultInstrument);
        let mut preset = default_source(source)
            .unwrap_or_else(|| panic!("{}: {source:?} loads", declaration.id));
        if let Some(PropertyReach::RoomPath(_)) = declaration.reach {
            preset.room.get_or_insert_with(RoomSpec::default);
        }
        preset
    }

    /// Every declared host parameter that drives properties resolves, in
    /// the preset its default comes from (the default instrument, or the
    /// built-in clock for the mechanism's), to property paths that preset
    /// has, read through `Preset::get`. Renaming a property breaks this.
    #[test]
    fn every_declared_parameter_resolves_to_properties_of_its_instrument() {
        for declaration in &HOST_PARAMS {
            let Some(reach) = declaration.reach else {
                continue;
            };
            let preset = home(declaration);
            let paths = reach.paths(&preset);
            assert!(!paths.is_empty(), "{} reaches nothing", declaration.id);
            for path in paths {
                assert!(preset.get(&path).is_some(), "{}: {path}", declaration.id);
            }
        }
    }

    /// A host parameter whose default is a property's has, as its default
    /// (the one hosts see), the value of that property at every path it
    /// reaches in the preset its declaration names: change the preset's
    /// value, or declare another default, and this fails.
    #[test]
    fn every_default_is_the_value_of_the_property_it_drives() {
        let params = HostParams::declared();
        let mut checked = 0;
        for (declaration, param) in HOST_PARAMS.iter().zip(params.param_ptrs()) {
            if declaration.knob.default_from().is_none() {
                continue;
            }
            let preset = home(declaration);
            let reach = declaration.reach.expect("a default read from a property");
            // SAFETY: the pointer is to a field of `params`, alive here.
            let default = unsafe { param.default_plain_value() };
            for path in reach.paths(&preset) {
                let value = preset.get(&path).expect("it resolves");
                assert_eq!(default, value as f32, "{}: {path}", declaration.id);
                checked += 1;
            }
        }
        assert!(checked >= 10, "only {checked} defaults were read");
    }

    /// A knob that sets its properties to its value shows their declared
    /// unit, and its span lies within the range the property has in its
    /// instrument: a knob never offers what an edit would refuse.
    #[test]
    fn every_value_knob_shows_its_propertys_unit_within_its_range() {
        let mut checked = 0;
        for declaration in &HOST_PARAMS {
            let (Knob::Value { span, unit, .. }, Some(reach)) =
                (declaration.knob, declaration.reach)
            else {
                continue;
            };
            let preset = home(declaration);
            for path in reach.paths(&preset) {
                let info = preset.property_info(&path).expect("it resolves");
                assert_eq!(unit.trim(), info.unit, "{}: {path}", declaration.id);
                let (min, max) = info.range;
                assert!(
                    f64::from(span.min) >= min && f64::from(span.max) <= max,
                    "{}: {path} offers {}..{}, its property {min}..{max}",
                    declaration.id,
                    span.min,
                    span.max
                );
                checked += 1;
            }
        }
        assert!(checked >= 6, "only {checked} knobs were checked");
    }

    /// The declarations are sound: ids unique, every knob built as the
    /// kind of nice-plug parameter it needs (a choice as a choice, a switch
    /// as a switch, the rest continuous), and a knob whose default is its
    /// own leaves the properties it reaches as they are.
    #[test]
    fn declarations_are_unique_and_built_as_their_kind() {
        let ids: BTreeSet<&str> = PARAM_IDS.iter().copied().collect();
        assert_eq!(ids.len(), PARAM_COUNT, "ids are unique");
        let params = HostParams::declared();
        for (declaration, param) in HOST_PARAMS.iter().zip(params.param_ptrs()) {
            let kind_fits = match declaration.knob {
                Knob::Instrument | Knob::Choice { .. } => matches!(param, ParamPtr::EnumParam(_)),
                Knob::Switch { .. } => matches!(param, ParamPtr::BoolParam(_)),
                _ => matches!(param, ParamPtr::FloatParam(_)),
            };
            assert!(kind_fits, "{} is declared as another kind", declaration.id);
            // SAFETY: the pointer is to a field of `params`, alive here.
            assert_eq!(unsafe { param.name() }, declaration.name);
            if let (Some(own), Some(_)) = (declaration.knob.own_default(), declaration.reach) {
                let change = declaration.knob.change(own);
                assert!(
                    matches!(change, Some(super::super::Change::Times(factor)) if factor == 1.0),
                    "{}: {change:?} at its default",
                    declaration.id
                );
            }
        }
    }
}
