//! Options of `orchard compare`.

use std::path::PathBuf;

use orchard_engine::rt::parse_sample_rate;

use super::instrument::InstrumentArgs;

/// Options of `orchard compare`.
#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// The render: a WAV or Ogg Vorbis file of one note. Not with --keyboard.
    #[arg(
        value_name = "RENDER",
        required_unless_present = "keyboard",
        conflicts_with = "keyboard",
        requires = "recording"
    )]
    pub render: Option<PathBuf>,
    /// The recording to compare it with: a WAV or Ogg Vorbis file of the same
    /// note.
    #[arg(value_name = "RECORDING")]
    pub recording: Option<PathBuf>,
    /// The note both files play: a MIDI number (60 is middle C) or a name
    /// (C4, Db4, C#4). By default read from the recording's file name (as in
    /// Piano.ff.C4.ogg) or the render's, else estimated from the recording.
    #[arg(long, value_name = "N", conflicts_with = "keyboard")]
    pub note: Option<String>,
    /// Render keys with the instrument and compare each with the recording of
    /// that key in this folder (a WAV or Ogg Vorbis file whose name holds the
    /// note, as in Piano.ff.Db4.ogg); prints a Markdown table.
    #[arg(long, value_name = "DIR")]
    pub keyboard: Option<PathBuf>,
    /// Keyboard: compare every Nth key from --from (default 4).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=127))]
    pub every: Option<u8>,
    /// Keyboard: the lowest key compared, a MIDI number (default 21, A0).
    #[arg(long, value_name = "KEY", value_parser = clap::value_parser!(u8).range(0..=127))]
    pub from: Option<u8>,
    /// Keyboard: the highest key compared, a MIDI number (default 108, C8).
    #[arg(long, value_name = "KEY", value_parser = clap::value_parser!(u8).range(0..=127))]
    pub to: Option<u8>,
    /// Keyboard: MIDI velocity of each key, 1 to 127 (default 100).
    #[arg(long, value_name = "V")]
    pub velocity: Option<u8>,
    /// Keyboard: how long each key is held and rendered, s (default 8).
    #[arg(long, value_name = "SECONDS")]
    pub duration: Option<f64>,
    /// Keyboard: sample rate of the renders, Hz, 1000 to 2000000 (default 48000).
    #[arg(long, value_parser = parse_sample_rate)]
    pub sample_rate: Option<u32>,
    /// Keyboard: the instrument (--preset, --set, --seed).
    #[command(flatten)]
    pub instrument: InstrumentArgs,
}
