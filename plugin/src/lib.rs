//! Orchard as a VST3 and CLAP instrument plugin, plus what its standalone app
//! shares with it. The command-line renderer is a crate of its own
//! (`orchard-cli`), so that the plugin links none of its dependencies.
//!
//! The modules below are grouped in layers, the top one first: a module
//! imports modules of its own layer or of those below it, never of one
//! above nor through this root, and no files import each other in a
//! circle (`tests/module_imports.rs` checks it).
#![warn(missing_docs)]

// The entry points: the CLAP factories, and the VST3 one (nice-plug's
// wrapper, offering the host fewer MIDI controller proxies, with Orchard's
// own editor view).
mod clap_export;
mod vst3_export;

// The plugin: the synthesiser, its lifecycle and `process`.
mod plugin;

// The editor.
pub mod editor;

// The standalone app's session: recorder, file player, devices.
pub mod standalone;

// What the plugin does off and on the audio thread: rebuilds, the block's
// events, the controllers' property moves; the factory and user presets.
mod background;
mod events;
pub mod factory;
pub mod property_moves;
pub mod user_preset;

// The sound the parameters describe.
pub mod sound;

// Everything the host saves (the parameters, the instrument state, the
// editor's layout, the MIDI bindings); the link between the editor and
// the audio thread.
pub mod link;
mod params;

// MIDI learn: controllers bound to host parameters and properties.
pub mod learn;

// The host parameters, each declared once.
mod host_params;

// Leaves: choices of the parameters, the output's guard.
pub mod microphone_choice;
pub mod output_guard;
pub mod tuning_choices;

#[cfg(test)]
#[path = "../tests/support/host.rs"]
mod test_host;

pub use background::{Rebuild, Task};
pub use host_params::{
    DefaultFrom, HOST_PARAMS, HostParam, HostParams, Instrument, Knob, PARAM_COUNT, PARAM_IDS,
    PropertyReach, Span,
};
pub use params::{InstrumentState, OrchardParams, STATE_FORMAT, VersionedState};
pub use plugin::Orchard;

/// The CLAP entry point: nice-plug's plugin factory, plus preset discovery
/// and preset loading (see `clap_export`).
#[allow(non_upper_case_globals)]
#[unsafe(no_mangle)]
#[used]
pub static clap_entry: nice_plug::wrapper::clap::clap_plugin_entry = clap_export::ENTRY;
