//! Why a struck-string key could not be built.

use crate::resonators::StringDesignError;
use crate::wdf::TreeError;

/// Why a key could not be built.
#[derive(Debug, Clone, PartialEq)]
pub enum VoiceError {
    /// The string cannot be built at this sample rate.
    String(StringDesignError),
    /// The hammer's tree is invalid (a value out of range).
    Hammer(TreeError),
}

impl std::fmt::Display for VoiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::String(e) => e.fmt(f),
            Self::Hammer(e) => write!(f, "hammer: {e}"),
        }
    }
}

impl std::error::Error for VoiceError {}
