//! Resonators: objects that ring once excited. A string's physical description,
//! the stiff string with dispersion, its longitudinal vibration, the strings
//! of one note coupled through the bridge, the soundboard, the one bridge that joins every
//! string to it, and the keybed the keys knock on.

mod board_hearing;
mod bridge;
mod delay_line;
mod dispersion;
mod fractional_delay;
mod half_order;
mod keybed;
mod listening;
mod longitudinal;
mod loop_lanes;
mod loss_filter;
mod soundboard;
mod stiff_string;
mod string;
pub mod string_field;
pub mod string_radiation;
mod unison;

pub use board_hearing::{BoardHearing, BoardPaths};
pub use bridge::{Bridge, KeyOnBridge};
pub use delay_line::DelayLine;
pub use dispersion::{
    DispersionCascade, DispersionDesign, MAX_DISPERSION_SECTIONS, stiff_partial_hz,
};
pub use fractional_delay::AllpassDelay;
pub use half_order::HalfOrderSlope;
pub use keybed::{Keybed, KeybedHearing, KeybedParams};
pub use listening::{
    BOARD_AREA_M2, BRIDGE_LENGTH_M, Placement, heard_share, in_phase_share, microphone_trim,
    string_weight,
};
pub use longitudinal::{
    BAND_HZ as LONGITUDINAL_BAND_HZ, Longitudinal, LongitudinalParams, MAX_LONGITUDINAL_MODES,
};
pub use loss_filter::LossFilter;
pub use soundboard::{BRIDGE_BLOCK, BRIDGE_NODES, MAX_BOARD_MODES, Soundboard, SoundboardParams};
pub use stiff_string::StiffString;
pub use string::{StringDesignError, StringParams};
pub use string_radiation::{RadiationFilter, StringRadiation};
pub use unison::{MAX_UNISON_STRINGS, SecondPlane, StringDeviation, Unison, UnisonParams};
