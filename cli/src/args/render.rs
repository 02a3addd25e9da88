//! Options of `orchard render`, and the ranges of its numbers.

use std::path::PathBuf;

use orchard_engine::rt::parse_sample_rate;

use super::instrument::InstrumentArgs;
use crate::destination;
use crate::ranged::Ranged;
use crate::riff::SampleFormat;

/// Options of `orchard render`.
#[derive(Debug, Clone, clap::Args)]
pub struct RenderArgs {
    /// The Standard MIDI File to play (type 0, 1 or 2); without one (nor
    /// --demo nor --duration) a music box plays the tune on its cylinder.
    /// Several files, folders (searched for .mid and .midi files) or
    /// patterns (`songs/*.mid`) render them all into --out-dir, in parallel:
    /// a file that fails is reported in one line and the rest go on; the
    /// summary counts those rendered, failed and skipped, and the exit
    /// status is 1 if any failed.
    #[arg(value_name = "MIDI", conflicts_with = "demo")]
    pub midi: Vec<PathBuf>,
    /// Play the built-in demo phrase instead of a MIDI file.
    #[arg(long)]
    pub demo: bool,
    /// Play for this long, s: with no MIDI file, the instrument on its own (a
    /// clock runs, ticks and chimes; others stay silent); with one, at least
    /// this long. Then what runs by itself stops (a clock's balance is held)
    /// and the sound rings out.
    #[arg(long, value_name = "SECONDS", value_parser = DURATION)]
    pub duration: Option<f64>,
    /// Set a clock's hands to this time before it starts, `HH:MM` or
    /// `HH:MM:SS` (24-hour), e.g. `11:59:00` to hear it strike noon.
    #[arg(long, value_name = "HH:MM[:SS]", value_parser = parse_clock_time)]
    pub start: Option<f64>,
    /// The WAV file to write; `-` writes it to the standard output (and the
    /// summary to the standard error). With several inputs, the folder to
    /// write them to (as --out-dir).
    #[arg(short, long, required_unless_present_any = ["out_dir", "manifest"])]
    pub output: Option<PathBuf>,
    /// Render every input into this folder (created if missing), each as its
    /// name with `.wav` (`song.mid` -> `song.wav`), keeping the sub-folders
    /// of a folder given as input.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["output", "demo"])]
    pub out_dir: Option<PathBuf>,
    /// Render the files a CSV lists: a header naming the columns `input`,
    /// `output`, `preset` and optionally `set` (`PATH=VALUE` pairs joined by
    /// `;`), then one row per file. Paths are relative to the manifest's
    /// folder (outputs to --out-dir's if given); an empty preset is --preset's.
    #[arg(long, value_name = "FILE.csv", conflicts_with_all = ["midi", "demo"])]
    pub manifest: Option<PathBuf>,
    /// Renders at once when several files are rendered [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub jobs: Option<u32>,
    /// With several files: skip each whose output already exists (a
    /// finished render: one under way never has the output's name).
    #[arg(long)]
    pub resume: bool,
    /// Sample rate of the output, Hz (1000 to 2000000; below 44100 the
    /// instrument runs at a multiple of it and is filtered down).
    #[arg(long, default_value_t = 48_000, value_parser = parse_sample_rate)]
    pub sample_rate: u32,
    /// Sample format of the output.
    #[arg(long, value_enum, default_value_t = SampleFormat::Int24)]
    pub format: SampleFormat,
    /// Longest time to let the instrument ring after the last event before stopping, s.
    #[arg(long, default_value_t = 20.0, value_name = "SECONDS", value_parser = MAX_TAIL)]
    pub max_tail: f64,
    /// Longest score to render, s (a MIDI file lasting longer is refused).
    #[arg(long, default_value_t = 6.0 * 3600.0, value_name = "SECONDS", value_parser = MAX_DURATION)]
    pub max_duration: f64,
    /// Scale the whole render by one gain so that its peak is at --ceiling.
    /// The render is played twice: once to find its peak, once to write it
    /// (it is deterministic, so both are the same), which bounds memory and
    /// disk to those of a plain render.
    #[arg(long, conflicts_with = "limiter")]
    pub normalize: bool,
    /// Hold the output at or below --ceiling with a lookahead peak limiter
    /// (2 ms lookahead, 150 ms release); below the ceiling it leaves the
    /// sound as it is. Off by default.
    #[arg(long)]
    pub limiter: bool,
    /// The peak --normalize brings the render to, or the ceiling --limiter
    /// holds, dBFS [default: -1].
    #[arg(long, value_name = "DBFS", value_parser = CEILING, allow_negative_numbers = true)]
    pub ceiling: Option<f64>,
    /// The instrument.
    #[command(flatten)]
    pub instrument: InstrumentArgs,
    /// Sample this probe over the render (repeatable; one CSV column each, see
    /// the probe paths below). Needs --probe-out.
    #[arg(long = "probe", value_name = "PATH")]
    pub probes: Vec<String>,
    /// The CSV file the probes are written to: a header `time_s,PATH,...`, then
    /// one row per interval from time 0.
    #[arg(long, value_name = "FILE.csv")]
    pub probe_out: Option<PathBuf>,
    /// Time between two probe rows, s (rounded to whole samples, at least one).
    #[arg(long, value_name = "SECONDS", default_value_t = 0.001, value_parser = PROBE_INTERVAL)]
    pub probe_interval: f64,
    /// Rendered as one of a batch: no progress bar of its own.
    #[arg(skip)]
    pub in_batch: bool,
}

impl RenderArgs {
    /// Whether an output goes to the standard output (`-`), which the
    /// summary must then leave to the WAV or CSV.
    pub fn writes_to_stdout(&self) -> bool {
        self.output
            .as_deref()
            .is_some_and(destination::goes_to_stdout)
            || self
                .probe_out
                .as_deref()
                .is_some_and(destination::goes_to_stdout)
    }
}

/// `render --duration`, s: a week at most.
pub const DURATION: Ranged = Ranged::above(0.0, 7.0 * 24.0 * 3600.0, "s");

/// Hours after midnight of a time of day typed as `HH:MM` or `HH:MM:SS`.
pub fn parse_clock_time(text: &str) -> Result<f64, String> {
    orchard_engine::input::time_of_day_h(text).ok_or_else(|| {
        format!("'{text}' is not a time of day as HH:MM or HH:MM:SS (00:00 to 24:00)")
    })
}

/// `render --max-tail`, s.
pub const MAX_TAIL: Ranged = Ranged::closed(0.0, 600.0, "s");
/// `render --max-duration`, s: a week at most.
pub const MAX_DURATION: Ranged = Ranged::above(0.0, 7.0 * 24.0 * 3600.0, "s");
/// `render --ceiling`, dBFS.
pub const CEILING: Ranged = Ranged::closed(-40.0, 0.0, "dBFS");
/// `render --ceiling` unless given, dBFS.
pub const DEFAULT_CEILING_DB: f64 = -1.0;
/// `render --probe-interval`, s.
pub const PROBE_INTERVAL: Ranged = Ranged::above(0.0, 10.0, "s");
