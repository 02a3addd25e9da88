//! The command line: the `orchard` command, its subcommands and the options
//! each takes (one module per subcommand, and the instrument options several
//! share). Their doc comments are the help text. What each subcommand does
//! is in its own module ([`crate::render_command`], [`crate::analyze`],
//! [`crate::compare`], [`crate::fit`], [`crate::presets`], [`crate::bench`],
//! [`crate::pin`]).

pub mod analyze;
pub mod bench;
pub mod compare;
pub mod fit;
pub mod held_keys;
pub mod instrument;
pub mod pin;
pub mod presets;
pub mod render;

use clap::{Parser, Subcommand};

use crate::probe;
use analyze::AnalyzeArgs;
use bench::BenchArgs;
use compare::CompareArgs;
use fit::FitArgs;
use pin::PinArgs;
use presets::PresetsArgs;
use render::RenderArgs;

/// Orchard: physically modelled mechanical instruments.
#[derive(Debug, Parser)]
#[command(name = "orchard", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Render a Standard MIDI File (or the built-in demo) to a WAV file, with
    /// property overrides and output probes.
    #[command(after_help = probe::probe_help())]
    Render(RenderArgs),
    /// Report the long-term behaviour of a mechanism (cycle period,
    /// kinetic-energy minima per cycle, change of each part per cycle), or with
    /// --note measure one note of an instrument (hammer contact, partials and
    /// inharmonicity, decay times, spectrogram).
    Analyze(AnalyzeArgs),
    /// Measure a render and a recording of the same note side by side
    /// (partial levels, inharmonicity, early and late decay, brightness), or
    /// with --keyboard render keys with a preset and compare each with the
    /// recording of that key in a folder, one Markdown table row per key.
    Compare(CompareArgs),
    /// Fit a preset's physical parameters (the strings' losses and bridge,
    /// the felt's stiffness and exponent, optionally the strike position) at
    /// chosen keys to recordings of those keys, so that the early and late
    /// T60, the centroid and the partial levels `compare` measures match;
    /// write the preset with the fitted values as anchors, and a report.
    Fit(FitArgs),
    /// List the built-in instrument presets, one per line with what it is, or
    /// with --paths every property path of one preset and its value.
    Presets(PresetsArgs),
    /// Measure how fast an instrument (the grand piano unless --preset names
    /// another) plays: realtime factors for one note, a ten-note chord, a
    /// glissando over every key and a minute of dense playing, and peak memory.
    Bench(BenchArgs),
    /// Arrange a MIDI file's notes onto a music box's cylinder (transposed
    /// into its comb's range, pins at the cylinder's angles; notes the comb
    /// lacks are listed) and write the box as a preset file.
    Pin(PinArgs),
}
