//! Options of `orchard analyze`.

use std::path::PathBuf;

use orchard_engine::rt::parse_sample_rate;

use super::instrument::InstrumentArgs;
use crate::ranged::Ranged;

/// Options of `orchard analyze`.
#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// The mechanism preset for the long-term report: a name (escapement,
    /// ratchet, ...) or a path to a mechanism file. Not with --note.
    #[arg(
        value_name = "MECHANISM",
        required_unless_present = "note",
        conflicts_with = "note"
    )]
    pub mechanism: Option<String>,
    /// Simulated time, s (default 31 for a mechanism unless its preset sets
    /// `analysis_duration_s`, 8 for a note).
    #[arg(long, value_name = "SECONDS")]
    pub duration: Option<f64>,
    /// Mechanism: also write a PNG plot of the state variables and kinetic
    /// energy over time.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    /// Play this MIDI key (60 is middle C) on the instrument and measure it:
    /// hammer contact duration, force pulses and peak force; partials 1-12 and
    /// the inharmonicity B fitted to partials 1-8 (f_n = n·f0·sqrt(1 + B·n²))
    /// against the preset's; T60 decay times, early (first 10 dB below the
    /// peak) and late (-15 to -45 dB), of the level (50 ms RMS windows) and the
    /// first six partials. The key is held throughout.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=127), conflicts_with = "plot")]
    pub note: Option<u8>,
    /// Note: MIDI velocity, 1 to 127.
    #[arg(long, value_name = "V", default_value_t = 80, requires = "note")]
    pub velocity: u8,
    /// Note: also write a spectrogram PNG (short-time Fourier transform, dB
    /// colour scale, time and frequency axes).
    #[arg(long, value_name = "FILE.png", requires = "note")]
    pub spectrogram: Option<PathBuf>,
    /// Note: also write the played note as a WAV file (32-bit float, both
    /// channels the note as measured), e.g. for `orchard compare`.
    #[arg(long, value_name = "FILE.wav", requires = "note")]
    pub wav: Option<PathBuf>,
    /// Note: sample rate, Hz (1000 to 2000000).
    #[arg(long, default_value_t = 48_000, requires = "note", value_parser = parse_sample_rate)]
    pub sample_rate: u32,
    /// Note: the instrument.
    #[command(flatten)]
    pub instrument: InstrumentArgs,
}

/// `analyze --duration` of a mechanism or a clock, s: at most an hour, which
/// for the escapement is 720 000 recorded samples of each state variable.
/// (A note's is [`crate::note::DURATION`].)
pub const DURATION: Ranged = Ranged::above(0.0, 3600.0, "s");
