//! Options of `orchard fit`.

use std::path::PathBuf;

use super::held_keys::HeldKeyArgs;

/// Options of `orchard fit`.
#[derive(Debug, clap::Args)]
pub struct FitArgs {
    /// The folder of recordings: a WAV or Ogg Vorbis file per key whose name
    /// holds the note, as in Piano.ff.Db4.ogg (as `compare --keyboard` reads
    /// them).
    #[arg(value_name = "DIR")]
    pub recordings: PathBuf,
    /// The keys to fit, MIDI numbers or note names separated by commas
    /// (21,33,45 or A0,A1,A2): at each, the fitted values become an anchor of
    /// the preset.
    #[arg(long, value_name = "KEYS", value_delimiter = ',', required = true)]
    pub keys: Vec<String>,
    /// Fit jointly at these anchor keys instead (MIDI numbers or note names
    /// separated by commas): every candidate plays every key of --keys, the
    /// search minimises their mean cost, and the fitted values become
    /// anchors at these keys only, the keys between interpolated
    /// geometrically, so that the fitted keyboard stays smooth.
    #[arg(long, value_name = "KEYS", value_delimiter = ',')]
    pub anchors: Vec<String>,
    /// The preset file to write: the instrument with the fitted values at the
    /// keys.
    #[arg(short, long, value_name = "FILE.toml")]
    pub out: PathBuf,
    /// Also write the report (a Markdown table per key) to this file.
    #[arg(long, value_name = "FILE.md")]
    pub report: Option<PathBuf>,
    /// The parameters to fit, separated by commas, from loss_b1, loss_b2,
    /// bridge_impedance_kg_s, felt_stiffness, felt_exponent and position
    /// (default all but position).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub params: Vec<String>,
    /// Most candidates the search renders at each key, or jointly (default
    /// 60).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub iterations: Option<u32>,
    /// How each key is rendered (--velocity, --duration, --sample-rate
    /// and the instrument fitted).
    #[command(flatten)]
    pub held: HeldKeyArgs,
}
