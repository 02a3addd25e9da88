//! The bodies of the fuzz targets: one function per parser a user's input
//! reaches, each taking arbitrary bytes.
//!
//! Each feeds the bytes to the entry point the front ends use and asserts
//! what must hold for any input: nothing panics; an error is one short line
//! ([`check::one_line`]); and what is accepted works: a preset that
//! validates builds a synthesiser, a mechanism that builds runs, a MIDI file
//! that parses gives a score of finite, ordered times.
//!
//! The same bodies run in two places: `cargo +nightly fuzz run TARGET` (the
//! crate in `fuzz/`, one target per function here, under libFuzzer), and
//! `tests/fuzz_corpus.rs` on stable, which replays every input kept in
//! `fuzz/corpus/TARGET/` and `fuzz/regressions/TARGET/` on every test run.

pub mod check;
mod mechanism;
mod midi;
mod preset;
mod settings;
mod state;
mod user_preset;

pub use mechanism::mechanism_toml;
pub use midi::midi_file;
pub use preset::preset_toml;
pub use settings::set_strings;
pub use state::saved_state;
pub use user_preset::user_preset_json;

/// A fuzz target's body: takes any bytes, panics on a failed check.
pub type Body = fn(&[u8]);

/// Every fuzz target: its name (the folder of its corpus, the name of its
/// binary in `fuzz/`) and its body.
pub const TARGETS: &[(&str, Body)] = &[
    ("preset_toml", preset_toml),
    ("mechanism_toml", mechanism_toml),
    ("midi_file", midi_file),
    ("saved_state", saved_state),
    ("user_preset_json", user_preset_json),
    ("set_strings", set_strings),
];
