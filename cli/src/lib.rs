//! The `orchard` command line: offline rendering of MIDI files and demos to WAV,
//! notes measured, compared with recordings and fitted to them, the long-term analysis of
//! mechanisms, and speed measurements.
//!
//! A crate of its own so that the plugin links none of what only the command
//! line needs (argument parsing, plots, progress bars, MIDI and audio files);
//! it plays the engine (`orchard-engine`) directly.
//!
//! The modules below are grouped in layers, the top one first: a module
//! imports modules of its own layer or of those below it, never of one
//! above nor through this root, and no two modules import each other
//! (`tests/module_imports.rs` checks it).
#![warn(missing_docs)]

// The subcommands, each run by its `run_*` (`note` and `clock` are
// `analyze --note` and `analyze` of a clock).
pub mod analyze;
pub mod bench;
pub mod clock;
pub mod compare;
pub mod fit;
pub mod note;
pub mod pin;
pub mod presets;
pub mod render_command;

// The command line: the subcommands and their options (the help text),
// and the ranges their numbers are checked against.
pub mod args;
pub mod ranged;

// Playing the instrument and measuring it: `--set`, the demo, the render
// loop, probes, level stages, plots.
pub mod demo;
pub mod level;
pub mod limiter;
pub mod overrides;
pub mod plot;
pub mod probe;
pub mod render;
pub mod spectrogram;

// Files read and written, and the checks made before writing them.
pub mod audio_file;
pub mod destination;
pub mod outputs;
pub mod riff;
pub mod wav;

// The process: signals, the standard streams, memory.
pub mod interrupt;
pub mod memory;
pub mod print;

/// `--temperament`, `--tuning` and `--keymap` (in the engine: the standalone
/// app takes them too).
pub use orchard_engine::instrument::tuning_files;
/// Standard MIDI Files to scores (in the engine: the standalone app reads
/// them too).
pub use orchard_engine::midi as midi_file;
/// Performances as timed events in seconds (in the engine, with the MIDI files).
pub use orchard_engine::midi as score;

// The names the `orchard` binary, the Python package and the tests use.
pub use args::instrument::{DEFAULT_PRESET, InstrumentArgs};
pub use args::render::{MAX_DURATION, MAX_TAIL};
pub use args::{Cli, Command};
pub use presets::{builtin_preset_list, property_values, run_presets};
pub use render_command::run_render;
pub use riff::SampleFormat;
