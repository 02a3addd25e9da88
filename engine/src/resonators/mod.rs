//! Resonators: objects that ring once excited. So far, the ideal string as a digital
//! waveguide with a contact point where a hammer can push on it.

mod delay_line;
mod fractional_delay;
mod loss_filter;
mod string;

pub use delay_line::DelayLine;
pub use fractional_delay::AllpassDelay;
pub use loss_filter::LossFilter;
pub use string::{StringDesignError, StringParams, WaveguideString};
