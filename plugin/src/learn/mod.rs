//! MIDI learn: controllers (CCs, the modulation wheel, pitch bend, channel
//! pressure) bound to host parameters and instrument properties.
//!
//! The editor binds them (right-click a control, move a controller: see
//! [`crate::editor`]); the bindings are saved with the host's project (the
//! `midi-bindings` field of the plugin state), not in user presets, which
//! describe an instrument, not a player's setup. On the audio thread a
//! controller moves a bound host parameter at once (its value is set where
//! the host's automation sets it; the host is told through the editor's
//! automation gestures while the editor is open, since nice-plug 0.4.2 gives
//! `process` no way to report a parameter change), and a bound property
//! through an edit of the instrument state made by a background task,
//! coalesced: however many messages come, one application runs at a time
//! and takes each property's latest position, and the rebuild that follows
//! is the one every edit takes.

mod binding;
mod controller;
mod table;

pub use binding::{Binding, BindingList, BindingTarget, property_value};
pub use controller::{Control, LAST_CC, Movement, Source};
pub use table::{ControllerMap, MAX_BINDINGS};
