//! Options of `orchard compare`.

use std::path::PathBuf;

use super::held_keys::HeldKeyArgs;

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
    /// Keyboard: how each key is rendered (--velocity, --duration,
    /// --sample-rate and the instrument).
    #[command(flatten)]
    pub held: HeldKeyArgs,
}
