//! `orchard analyze`: the long-term behaviour of a mechanism preset (Gelsey's
//! cycle analysis, see [`orchard_engine::mech::long_term`]) as a short report
//! and, if asked, a PNG plot.

use std::path::Path;

use orchard_engine::mech::long_term::{LongTermParams, Trace, Unit, Variable, analyze};
use orchard_engine::mech::mechanism::{self, Mechanism};
use orchard_engine::mech::{OutputProbe, RootModel};

use super::plot::{self, PlotSize};
use super::ranged::Ranged;
use super::{AnalyzeArgs, note, require_png};

/// Runs `orchard analyze`: a note analysis with `--note` (see
/// [`super::note`]), else the mechanism's long-term report. Returns the
/// report, or a one-line reason for failing.
pub fn run_analyze(args: &AnalyzeArgs) -> Result<String, String> {
    match (args.note, &args.mechanism) {
        (Some(key), _) => note::run(args, key),
        (None, Some(name)) if mechanism::builtin(name).is_none() => {
            match super::clock::clock_preset(name) {
                Some(clock) => super::clock::run(clock, args),
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
    let duration = args.duration.unwrap_or(DEFAULT_DURATION_S);
    DURATION
        .check("--duration", duration)
        .map_err(|e| format!("{e} for a mechanism"))?;
    if let Some(path) = &args.plot {
        require_png("--plot", path)?;
    }
    let trace = simulate(mechanism, duration)?;
    report(&trace, args.plot.as_deref())
}

/// Simulated time of a mechanism unless `--duration` says otherwise, s.
pub const DEFAULT_DURATION_S: f64 = 31.0;

/// Simulated time of a mechanism (`--duration`), s: at most an hour, which
/// for the escapement is 720 000 recorded samples of each state variable.
pub const DURATION: Ranged = Ranged::above(0.0, 3600.0, "s");

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

/// Interval at which a run is recorded for the analysis, s: short against
/// the escapement's 7.4 s balance period and its tooth drops of about 0.1 s.
const SAMPLE_INTERVAL: f64 = 0.005;

/// Largest and smallest steps of the scheduler, s (the mechanism's own step
/// limit and error control choose the steps in between).
const MAX_STEP: f64 = 0.05;
const MIN_STEP: f64 = 1e-10;

/// Simulates the mechanism preset `preset` (a built-in name such as
/// `escapement` or a path to a mechanism TOML file) from rest for `duration`
/// seconds under the scheduler, recording every state variable and the kinetic
/// energy every [`SAMPLE_INTERVAL`] with an output probe.
fn simulate(preset: &str, duration: f64) -> Result<Trace, String> {
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
    let model = Mechanism::from_toml(&text).map_err(|e| format!("`{preset}`: {e}"))?;
    let variables: Vec<Variable> = model
        .state_names()
        .iter()
        .map(|path| variable(&model, path))
        .collect();
    let mut paths: Vec<String> = model.state_names();
    paths.push(KINETIC_ENERGY.to_string());
    let paths: Vec<String> = paths.iter().map(|p| format!("{MODEL}/{p}")).collect();
    let path_refs: Vec<&str> = paths.iter().map(String::as_str).collect();

    let mut root = RootModel::new(MAX_STEP, MIN_STEP).map_err(|e| e.to_string())?;
    root.add_model(MODEL, Box::new(model));
    let probe = OutputProbe::new(&path_refs, Some(SAMPLE_INTERVAL), 0.0, duration)
        .map_err(|e| e.to_string())?;
    root.agents_mut(None).output_probes.push(probe);
    root.initialize().map_err(|e| format!("`{preset}`: {e}"))?;
    root.run_until(duration)
        .map_err(|e| format!("`{preset}`: {e}"))?;

    let rows = root.agents(None).output_probes[0].rows();
    let mut trace = Trace::with_capacity(variables, rows.len());
    for (t, values) in rows {
        let (state, energy) = values.split_at(values.len() - 1);
        trace
            .push(*t, state, energy[0])
            .map_err(|e| format!("`{preset}` at t = {t} s: {e}"))?;
    }
    Ok(trace)
}

/// The model's name in the root, and so the first segment of the probe's paths.
const MODEL: &str = "mechanism";
/// The mechanism's derived kinetic-energy property.
const KINETIC_ENERGY: &str = "energy:kinetic";

/// How a state variable is named and measured in reports and plots:
/// `parts/wheel:position` becomes "wheel position" in radians if the wheel turns.
fn variable(model: &Mechanism, path: &str) -> Variable {
    let (component, quantity) = path.split_once(':').unwrap_or((path, ""));
    let part = component.strip_prefix("parts/").unwrap_or(component);
    let turns = model.turns(part).unwrap_or(false);
    let unit = match (quantity, turns) {
        ("position", true) => Unit::Radian,
        ("position", false) => Unit::Other("u".into()),
        (_, true) => Unit::Other("rad/s".into()),
        (_, false) => Unit::Other("u/s".into()),
    };
    Variable::new(format!("{part} {quantity}"), unit)
}
