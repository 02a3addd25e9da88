//! Options of `orchard bench`, and the scenarios it can measure.

use clap::ValueEnum;
use orchard_engine::rt::parse_sample_rate;

use super::instrument::InstrumentArgs;
use crate::ranged::Ranged;

/// Options of `orchard bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Run only this scenario (all four by default).
    #[arg(long, value_enum)]
    pub scenario: Option<Scenario>,
    /// Seconds rendered after each scenario's last strike.
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0, value_parser = TAIL)]
    pub tail: f64,
    /// Sample rate, Hz (1000 to 2000000).
    #[arg(long, default_value_t = 48_000, value_parser = parse_sample_rate)]
    pub sample_rate: u32,
    /// The instrument measured, changed as `render` changes it (e.g. with a
    /// room: `--set room:mix=0.3`).
    #[command(flatten)]
    pub instrument: InstrumentArgs,
}

/// `bench --tail`, s.
pub const TAIL: Ranged = Ranged::above(0.0, 600.0, "s");

/// A timed performance to render (what each plays is in [`crate::bench`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Scenario {
    /// Middle C, held.
    OneNote,
    /// Ten keys struck together and held.
    Chord,
    /// Every key of the instrument (the grand's 88), 50 ms apart, held (as
    /// with the sustain pedal down).
    Glissando,
    /// 60 s of dense playing (12 notes a second, pedalling): per-block process
    /// times, and note-on to first sound.
    Session,
}
