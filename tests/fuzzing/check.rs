//! The properties every fuzz target asserts.

use orchard_engine::instrument::Preset;
use orchard_engine::rt::Synth;

/// Longest error message accepted, characters: errors quote a short excerpt
/// of the input, never all of it.
pub const MAX_ERROR_CHARS: usize = 300;

/// The sample rate presets are built at, Hz.
pub const SAMPLE_RATE_HZ: f64 = 44_100.0;

/// Panics unless `message` (an error shown to the user) is one non-empty
/// line of at most [`MAX_ERROR_CHARS`] characters.
pub fn one_line(message: &str) {
    assert!(!message.trim().is_empty(), "an empty error message");
    assert!(
        !message.contains('\n'),
        "an error of more than one line: {message:?}"
    );
    let chars = message.chars().count();
    assert!(
        chars <= MAX_ERROR_CHARS,
        "an error of {chars} characters: {:?}…",
        message.chars().take(MAX_ERROR_CHARS).collect::<String>()
    );
}

/// Panics unless `preset`, which validated, builds a synthesiser: an error at
/// build time is a validation bug.
pub fn builds(preset: &Preset) {
    if let Err(error) = Synth::new(preset, SAMPLE_RATE_HZ) {
        panic!("a preset that validates does not build: {error}");
    }
}
