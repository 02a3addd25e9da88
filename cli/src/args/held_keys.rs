//! How `compare --keyboard` and `fit` render each key they compare with its
//! recording: held at one velocity for a time at a sample rate, on an
//! instrument.

use orchard_engine::rt::parse_sample_rate;

use super::instrument::InstrumentArgs;

/// MIDI velocity of each key unless `--velocity` says otherwise.
pub const DEFAULT_VELOCITY: u8 = 100;
/// Sample rate of the renders unless `--sample-rate` says otherwise, Hz.
pub const DEFAULT_SAMPLE_RATE: u32 = 48_000;

/// Options of the renders of held keys.
#[derive(Debug, clap::Args)]
pub struct HeldKeyArgs {
    /// MIDI velocity of each key, 1 to 127 (default 100).
    #[arg(long, value_name = "V")]
    pub velocity: Option<u8>,
    /// How long each key is held and rendered, s (default 8).
    #[arg(long, value_name = "SECONDS")]
    pub duration: Option<f64>,
    /// Sample rate of the renders, Hz, 1000 to 2000000 (default 48000).
    #[arg(long, value_parser = parse_sample_rate)]
    pub sample_rate: Option<u32>,
    /// The instrument (--preset, --set, --seed).
    #[command(flatten)]
    pub instrument: InstrumentArgs,
}

impl HeldKeyArgs {
    /// The velocity given, or [`DEFAULT_VELOCITY`].
    pub fn velocity(&self) -> u8 {
        self.velocity.unwrap_or(DEFAULT_VELOCITY)
    }

    /// The sample rate given, or [`DEFAULT_SAMPLE_RATE`], Hz.
    pub fn sample_rate(&self) -> u32 {
        self.sample_rate.unwrap_or(DEFAULT_SAMPLE_RATE)
    }

    /// Whether any of these options was given (they mean nothing where
    /// nothing is rendered).
    pub fn any_given(&self) -> bool {
        self.velocity.is_some()
            || self.duration.is_some()
            || self.sample_rate.is_some()
            || self.instrument.any_given()
    }
}
