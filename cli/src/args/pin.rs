//! Options of `orchard pin`.

use std::path::PathBuf;

/// Options of `orchard pin`.
#[derive(Debug, clap::Args)]
pub struct PinArgs {
    /// The Standard MIDI File whose notes are pinned.
    pub midi: PathBuf,
    /// The preset file to write: the music box with the tune on its cylinder.
    #[arg(short, long)]
    pub output: PathBuf,
    /// The music box whose comb and cylinder take the tune: a built-in
    /// preset's name or a preset file.
    #[arg(long, default_value = "music-box")]
    pub preset: String,
}
