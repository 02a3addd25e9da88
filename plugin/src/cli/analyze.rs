//! `orchard analyze`: the long-term behaviour of a mechanism preset (Gelsey's
//! cycle analysis, see [`orchard_engine::mech::long_term`]) as a short report
//! and, if asked, a PNG plot.

use std::path::Path;

use orchard_engine::mech::long_term::{LongTermParams, Trace, analyze};

use super::AnalyzeArgs;
use super::plot::{self, PlotSize};

/// Runs `orchard analyze`: checks the arguments, simulates the preset, and
/// reports. Returns the report, or a one-line reason for failing.
pub fn run_analyze(args: &AnalyzeArgs) -> Result<String, String> {
    if !(args.duration.is_finite() && args.duration > 0.0) {
        return Err(format!(
            "--duration {} must be a positive number of seconds",
            args.duration
        ));
    }
    if let Some(path) = &args.plot {
        let is_png = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"));
        if !is_png {
            return Err(format!(
                "--plot {}: plots are written as PNG, so the name must end in .png",
                path.display()
            ));
        }
    }
    let trace = simulate(&args.preset, args.duration)?;
    report(&trace, args.plot.as_deref())
}

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

/// Simulates the mechanism preset `preset` (a name or a path to a preset file)
/// for `duration` seconds and records its state variables and kinetic energy.
///
/// The mechanism presets plug in here: this is the one place that maps a
/// preset to a running model and its recorded [`Trace`]. No mechanism presets
/// exist yet, so every name is unknown.
fn simulate(preset: &str, duration: f64) -> Result<Trace, String> {
    let _ = duration;
    Err(format!("unknown mechanism preset `{preset}`"))
}
