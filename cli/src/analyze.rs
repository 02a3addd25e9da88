//! `orchard analyze`: the long-term behaviour of a mechanism preset (Gelsey's
//! cycle analysis, see [`orchard_engine::mech::long_term`]) as a short report
//! and, if asked, a PNG plot.

use std::path::Path;

use orchard_engine::mech::long_term::{LongTermParams, Trace, analyze};
use orchard_engine::mech::mechanism::{self, Mechanism, MechanismDescription};

use crate::args::analyze::{AnalyzeArgs, DURATION};
use crate::outputs::{self, require_png};
use crate::plot::{self, PlotSize};
use crate::{clock, note};

/// Runs `orchard analyze`: a note analysis with `--note` (see
/// [`crate::note`]), else the mechanism's long-term report. Returns the
/// report, or a one-line reason for failing.
pub fn run_analyze(args: &AnalyzeArgs) -> Result<String, String> {
    match (args.note, &args.mechanism) {
        (Some(key), _) => note::run(args, key),
        (None, Some(name)) if mechanism::builtin(name).is_none() => {
            match clock::clock_preset(name) {
                Some(clock) => clock::run(clock, args),
                None => run_mechanism(name, args),
            }
        }
        (None, Some(mechanism)) => run_mechanism(mechanism, args),
        (None, None) => Err("give a MECHANISM or --note N".into()),
    }
}

/// The long-term report of `mechanism`: checks the arguments, simulates it,
/// and reports.
fn run_mechanism(mechanism: &str, args: &AnalyzeArgs) -> Result<String, String> {
    let check = |duration: f64| {
        DURATION
            .check("--duration", duration)
            .map_err(|e| format!("{e} for a mechanism"))
    };
    if let Some(duration) = args.duration {
        check(duration)?;
    }
    if let Some(path) = &args.plot {
        require_png("--plot", path)?;
        outputs::check(&[("--plot", path)], &[("MECHANISM", Path::new(mechanism))])?;
    }
    let description = load(mechanism)?;
    let duration = match (args.duration, description.analysis_duration_s) {
        (Some(duration), _) => duration,
        (None, Some(duration)) => {
            check(duration).map_err(|e| format!("`{mechanism}`: analysis_duration_s: {e}"))?;
            duration
        }
        (None, None) => DEFAULT_DURATION_S,
    };
    let trace = simulate(mechanism, &description, duration)?;
    report(&trace, args.plot.as_deref())
}

/// Simulated time of a mechanism unless `--duration` or the preset's
/// `analysis_duration_s` says otherwise, s.
pub const DEFAULT_DURATION_S: f64 = 31.0;

/// The reporting half of `orchard analyze`: analyses `trace` with the default
/// [`LongTermParams`], writes the plot to `plot` if given (see
/// [`plot::write_png`], default size), and returns the report, one line per
/// finding and a last line naming the plot. Irregular behaviour and too
/// little data are findings; errors are one line (a plot that cannot be
/// written).
pub fn report(trace: &Trace, plot: Option<&Path>) -> Result<String, String> {
    let analysis = analyze(trace, &LongTermParams::default()).map_err(|e| e.to_string())?;
    let mut text = analysis.to_string();
    if let Some(path) = plot {
        plot::write_png(trace, path, PlotSize::for_trace(trace))?;
        text.push_str(&format!("\nwrote plot {}", path.display()));
    }
    Ok(text)
}

/// The largest mechanism file read, bytes.
const MAX_MECHANISM_BYTES: u64 = 16 << 20;

/// The description of the mechanism preset `preset`: a built-in name such
/// as `escapement` or a path to a mechanism TOML file.
fn load(preset: &str) -> Result<MechanismDescription, String> {
    let text = match mechanism::builtin(preset) {
        Some(text) => text.to_string(),
        None if Path::new(preset).is_file() => {
            orchard_engine::input::read_capped_text(Path::new(preset), MAX_MECHANISM_BYTES)
                .map_err(|e| format!("cannot read mechanism preset `{preset}`: {e}"))?
        }
        None => {
            return Err(format!(
                "unknown mechanism preset `{preset}` (built in: {})",
                mechanism::BUILTIN_NAMES.join(", ")
            ));
        }
    };
    MechanismDescription::from_toml(&text)
        .map_err(|e| format!("`{preset}`: cannot read mechanism: {e}"))
}

/// Simulates the mechanism `description` (of preset `preset`, the name
/// errors give) from rest for `duration` seconds and records it (see
/// [`mechanism::record::record`]: every state variable and the kinetic
/// energy every 5 ms), with a progress bar on a terminal.
fn simulate(
    preset: &str,
    description: &MechanismDescription,
    duration: f64,
) -> Result<Trace, String> {
    let model = Mechanism::new(description).map_err(|e| format!("`{preset}`: {e}"))?;
    // A large mechanism can take minutes: a bar shows how far the run has
    // gone and how long it has left (drawn only when stderr is a terminal).
    let bar = indicatif::ProgressBar::new((duration * 1000.0).ceil() as u64).with_style(
        indicatif::ProgressStyle::with_template(
            "simulating {msg} {bar:20} {pos}/{len} ms, {eta} left",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(format!("`{}`", orchard_engine::input::name(preset)));
    let trace = mechanism::record::record_with_progress(model, duration, &mut |t| {
        bar.set_position((t * 1000.0) as u64);
    });
    bar.finish_and_clear();
    trace.map_err(|e| format!("`{preset}`: {e}"))
}
