//! Why a synthesiser, or an instrument loaded into one, could not be
//! prepared.

use std::fmt;

use super::sample_rate::UnsupportedRate;
use crate::instrument::PresetError;

/// Why a synthesiser could not be prepared.
#[derive(Debug, Clone, PartialEq)]
pub enum SynthError {
    /// The sample rate, Hz, is not one an instrument can be built for
    /// ([`super::SAMPLE_RATES_HZ`]).
    SampleRate(f64),
    /// The preset's objects do not fit together.
    Preset(PresetError),
    /// A key's voice cannot be built at this sample rate: the family's
    /// one-line reason, naming the key.
    Voice(String),
    /// The preset names a family no registry knows, or no family fits it.
    Family(String),
    /// The mechanical worker's thread could not be started.
    Worker(String),
    /// The last instrument loaded has not been installed yet.
    SwitchPending,
}

impl fmt::Display for SynthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SampleRate(rate) => UnsupportedRate(*rate).fmt(f),
            Self::Preset(e) => e.fmt(f),
            Self::Voice(reason) => reason.fmt(f),
            Self::Family(reason) => reason.fmt(f),
            Self::Worker(reason) => write!(f, "cannot start the mechanical worker: {reason}"),
            Self::SwitchPending => {
                write!(
                    f,
                    "the instrument loaded before has not started playing yet"
                )
            }
        }
    }
}

impl std::error::Error for SynthError {}

impl From<UnsupportedRate> for SynthError {
    fn from(UnsupportedRate(rate): UnsupportedRate) -> Self {
        Self::SampleRate(rate)
    }
}
