//! Orchard as a standalone app: audio through ALSA or JACK, notes from a MIDI input.
//! Run with `--help` for the backend, device, sample-rate and buffer options.

use std::process::ExitCode;

fn main() -> ExitCode {
    if nice_plug::prelude::nice_export_standalone::<orchard::Orchard>() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
