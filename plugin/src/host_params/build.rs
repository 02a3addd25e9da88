//! A nice-plug parameter built from its declaration, with its default read
//! from the property it drives.

use std::sync::Arc;

use nice_plug::prelude::*;
use orchard_engine::instrument::Preset;

use super::declaration::{DefaultFrom, HostParam, Knob, Span};
use super::value_text::{parse_time_of_day, rounded, time_of_day};

/// A kind of nice-plug parameter a host parameter can be declared as.
pub(super) trait Declared: Param + Sized {
    /// The parameter `declaration` describes, at the plain value `default`.
    fn declared(declaration: &HostParam, default: f32) -> Self;

    /// Its present plain value (a choice's index, a switch's 0 or 1).
    fn plain(&self) -> f32;

    /// It, if it is a continuous knob.
    fn as_float(&self) -> Option<&FloatParam> {
        None
    }
}

impl Declared for FloatParam {
    fn declared(declaration: &HostParam, default: f32) -> Self {
        let name = declaration.name;
        let linear = |min, max| FloatRange::Linear { min, max };
        let skewed = |min, max| FloatRange::Skewed {
            min,
            max,
            factor: FloatRange::skew_factor(-1.0),
        };
        match declaration.knob {
            Knob::OutputLevel => FloatParam::new(
                name,
                default,
                FloatRange::Skewed {
                    min: util::db_to_gain(-60.0),
                    max: util::db_to_gain(12.0),
                    factor: FloatRange::gain_skew_factor(-60.0, 12.0),
                },
            )
            .with_smoother(SmoothingStyle::Logarithmic(20.0))
            .with_unit(" dB")
            .with_value_to_string(formatters::v2s_f32_gain_to_db(1))
            .with_string_to_value(formatters::s2v_f32_gain_to_db()),
            Knob::Value {
                span:
                    Span {
                        min,
                        max,
                        skewed: is_skewed,
                    },
                digits,
                unit,
                ..
            } => {
                let range = if is_skewed {
                    skewed(min, max)
                } else {
                    linear(min, max)
                };
                FloatParam::new(name, default, range)
                    .with_unit(unit)
                    .with_value_to_string(rounded(digits))
            }
            Knob::Factor { .. } => FloatParam::new(name, default, skewed(0.25, 4.0))
                .with_unit("×")
                .with_value_to_string(rounded(3)),
            Knob::TimeOfDay { .. } => FloatParam::new(name, default, linear(0.0, 24.0))
                .with_value_to_string(Arc::new(time_of_day))
                .with_string_to_value(Arc::new(parse_time_of_day)),
            Knob::Power { .. } => {
                FloatParam::new(name, default, linear(-1.0, 1.0)).with_value_to_string(rounded(3))
            }
            // The room's mix, and (a declaration the tests refuse) any
            // other knob declared continuous: 0 to 1.
            Knob::RoomMix | Knob::Instrument | Knob::Choice { .. } | Knob::Switch { .. } => {
                FloatParam::new(name, default, linear(0.0, 1.0)).with_value_to_string(rounded(3))
            }
        }
    }

    fn plain(&self) -> f32 {
        self.value()
    }

    fn as_float(&self) -> Option<&FloatParam> {
        Some(self)
    }
}

impl Declared for BoolParam {
    fn declared(declaration: &HostParam, default: f32) -> Self {
        BoolParam::new(declaration.name, default != 0.0)
    }

    fn plain(&self) -> f32 {
        if self.value() { 1.0 } else { 0.0 }
    }
}

impl<T: Enum + PartialEq + 'static> Declared for EnumParam<T> {
    fn declared(declaration: &HostParam, default: f32) -> Self {
        EnumParam::new(declaration.name, T::from_index(default as usize))
    }

    fn plain(&self) -> f32 {
        self.value().to_index() as f32
    }
}

/// The value of the property `declaration` drives in the preset it names
/// its default's source (the first path it reaches there), loading that
/// preset into `sources` if it is not there yet.
pub(super) fn property_default(
    declaration: &HostParam,
    sources: &mut Vec<(DefaultFrom, Option<Preset>)>,
) -> Option<f64> {
    let source = declaration.knob.default_from()?;
    if !sources.iter().any(|(known, _)| *known == source) {
        sources.push((source, default_source(source)));
    }
    let (_, preset) = sources.iter().find(|(known, _)| *known == source)?;
    let preset = preset.as_ref()?;
    let path = declaration.reach?.paths(preset).into_iter().next()?;
    preset.get(&path)
}

/// The preset `source` names, if it loads.
pub(super) fn default_source(source: DefaultFrom) -> Option<Preset> {
    match source {
        DefaultFrom::DefaultInstrument => Some(Preset::default_grand()),
        DefaultFrom::Builtin(name) => Preset::load(name).ok(),
    }
}
