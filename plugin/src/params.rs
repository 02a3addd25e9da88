//! The parameters a host sees and automates.

use nice_plug::prelude::*;

/// Host-visible parameters. Ids are permanent: hosts store automation under them.
#[derive(Params)]
pub struct OrchardParams {
    /// Output level, in decibels, applied after the instrument.
    #[id = "level"]
    pub output_level: FloatParam,
}

impl Default for OrchardParams {
    fn default() -> Self {
        Self {
            output_level: FloatParam::new(
                "Output level",
                util::db_to_gain(0.0),
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
        }
    }
}
