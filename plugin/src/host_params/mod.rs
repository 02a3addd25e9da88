//! The host parameters, each declared once ([`host`]): its permanent id,
//! name, range, default (taken from the property it drives), the value
//! text, and what it drives of the instrument.
//!
//! Ids are permanent: hosts store automation and state under them. Every
//! host parameter but the output level and the instrument choice drives
//! property paths of the instrument (see [`crate::sound`]). The lowest
//! layer of the plugin but its leaves: MIDI learn binds controllers to
//! these ids, and [`crate::params`] saves the parameters with the rest of
//! the plugin's state.

mod build;
mod declaration;
mod host;
mod instrument;
mod reach;
mod value_text;

pub use declaration::{Change, DefaultFrom, HostParam, Knob, Span};
pub use host::{HOST_PARAMS, HostParams, PARAM_COUNT, PARAM_IDS};
pub use instrument::Instrument;
pub use reach::PropertyReach;
