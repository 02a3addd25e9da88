//! Options of `orchard fit`.

use std::path::PathBuf;

use orchard_engine::rt::parse_sample_rate;

use super::instrument::InstrumentArgs;

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
    /// Most renders the search makes at each key (default 60).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub iterations: Option<u32>,
    /// MIDI velocity of each key, 1 to 127 (default 100).
    #[arg(long, value_name = "V")]
    pub velocity: Option<u8>,
    /// How long each key is held and rendered, s (default 8).
    #[arg(long, value_name = "SECONDS")]
    pub duration: Option<f64>,
    /// Sample rate of the renders, Hz, 1000 to 2000000 (default 48000).
    #[arg(long, value_parser = parse_sample_rate)]
    pub sample_rate: Option<u32>,
    /// The instrument fitted (--preset, --set, --seed).
    #[command(flatten)]
    pub instrument: InstrumentArgs,
}
