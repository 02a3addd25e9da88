//! The `orchard` command line: offline rendering of MIDI files and demos to WAV,
//! the long-term analysis of mechanisms, and speed measurements.

pub mod analyze;
pub mod bench;
pub mod demo;
pub mod midi_file;
pub mod plot;
pub mod render;
pub mod score;
pub mod wav;

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

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
    /// Render a Standard MIDI File (or the built-in demo) to a WAV file.
    Render(RenderArgs),
    /// Simulate a mechanism and report its long-term behaviour: cycle period,
    /// kinetic-energy minima per cycle, change of each part per cycle.
    Analyze(AnalyzeArgs),
    /// List the built-in instrument presets, one per line with what it is.
    Presets,
    /// Measure how fast the default instrument plays: realtime factors for one
    /// note, a ten-note chord and an 88-key glissando, and peak memory.
    Bench(BenchArgs),
}

/// Options of `orchard bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Run only this scenario (all three by default).
    #[arg(long, value_enum)]
    pub scenario: Option<bench::Scenario>,
    /// Seconds rendered after each scenario's last strike.
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
    pub tail: f64,
    /// Sample rate, Hz.
    #[arg(long, default_value_t = 48_000, value_parser = clap::value_parser!(u32).range(22_050..=192_000))]
    pub sample_rate: u32,
}

/// Options of `orchard analyze`.
#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// The mechanism preset: a name or a path to a preset file.
    pub preset: String,
    /// Simulated time, s.
    #[arg(long, value_name = "SECONDS", default_value_t = 31.0)]
    pub duration: f64,
    /// Also write a PNG plot of the state variables and kinetic energy over time.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
}

/// Options of `orchard render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// The Standard MIDI File to play (type 0, 1 or 2).
    #[arg(required_unless_present = "demo", conflicts_with = "demo")]
    pub midi: Option<PathBuf>,
    /// Play the built-in demo phrase instead of a MIDI file.
    #[arg(long)]
    pub demo: bool,
    /// The WAV file to write.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Sample rate of the output, Hz.
    #[arg(long, default_value_t = 48_000, value_parser = clap::value_parser!(u32).range(22_050..=192_000))]
    pub sample_rate: u32,
    /// Sample format of the output.
    #[arg(long, value_enum, default_value_t = SampleFormat::Int24)]
    pub format: SampleFormat,
    /// Longest time to let the instrument ring after the last event before stopping, s.
    #[arg(long, default_value_t = 20.0)]
    pub max_tail: f64,
    /// The instrument: a built-in preset's name (see `orchard presets`) or the
    /// path of a preset file.
    #[arg(long, default_value = "grand-piano")]
    pub preset: String,
}

/// Runs `orchard render`: reads the score, renders it, writes the WAV. Returns a
/// one-line summary, or a one-line reason for failing.
pub fn run_render(args: &RenderArgs) -> Result<String, String> {
    use orchard_engine::instrument::Preset;

    let score = match (&args.midi, args.demo) {
        (_, true) => demo::phrase(),
        (Some(path), false) => midi_file::read(path)?,
        (None, false) => return Err("give a MIDI file or --demo".into()),
    };
    if !(args.max_tail.is_finite() && args.max_tail >= 0.0) {
        return Err(format!(
            "--max-tail {} must be a non-negative number of seconds",
            args.max_tail
        ));
    }
    // Before the output is touched: a bad preset leaves an existing file alone.
    let preset = Preset::load(&args.preset).map_err(|e| e.to_string())?;
    let mut wav = wav::StereoWav::create(&args.output, args.sample_rate, args.format)?;
    let rate = f64::from(args.sample_rate);
    let expected_frames = ((score.end_s + 1.0) * rate) as u64;
    // Only long renders get a bar; it draws only when stderr is a terminal.
    let bar = if score.end_s > 10.0 {
        indicatif::ProgressBar::new(expected_frames)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let summary = render::render(
        &preset,
        &score,
        args.sample_rate,
        args.max_tail,
        |l, r| wav.write(l, r),
        |frames| bar.set_position(frames.min(expected_frames)),
    )?;
    bar.finish_and_clear();
    let (peak, clipped) = (wav.peak, wav.clipped);
    wav.finish()?;
    let peak_db = 20.0 * f64::from(peak).max(1e-10).log10();
    let mut line = format!(
        "wrote {}: {:.2} s at {} Hz, peak {:.1} dBFS",
        args.output.display(),
        summary.frames as f64 / rate,
        args.sample_rate,
        peak_db
    );
    if clipped > 0 {
        line.push_str(&format!(", {clipped} samples clipped"));
    }
    if !summary.rang_out {
        line.push_str(", cut off while still ringing (see --max-tail)");
    }
    Ok(line)
}

/// Runs `orchard presets`: the built-in presets, one line each.
pub fn run_presets() -> Result<String, String> {
    use orchard_engine::instrument::{BUILTIN_PRESETS, Preset};

    let mut lines = Vec::new();
    for (name, _) in BUILTIN_PRESETS {
        let preset = Preset::load(name).map_err(|e| format!("{name}: {e}"))?;
        lines.push(format!("{name:<14}{}", preset.description));
    }
    Ok(lines.join("\n"))
}

/// WAV sample formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SampleFormat {
    /// 24-bit integer PCM.
    Int24,
    /// 32-bit IEEE float.
    Float32,
}
