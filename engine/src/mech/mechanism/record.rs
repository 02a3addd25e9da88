//! A mechanism's run recorded for the long-term analysis: every state
//! variable and the kinetic energy sampled at a fixed interval by an output
//! probe of the scheduler, as [`crate::mech::long_term::Trace`].

use crate::mech::long_term::{Trace, Unit, Variable};
use crate::mech::{OutputProbe, RootModel};

use super::Mechanism;

/// Interval at which [`record`] samples a run, s: short against the
/// escapement's 7.4 s balance period and its tooth drops of about 0.1 s.
pub const SAMPLE_INTERVAL_S: f64 = 0.005;

/// Largest and smallest steps of the scheduler, s (the mechanism's own step
/// limit and error control choose the steps in between).
const MAX_STEP_S: f64 = 0.05;
const MIN_STEP_S: f64 = 1e-10;

/// The model's name in the root, and so the first segment of the probe's paths.
const MODEL: &str = "mechanism";
/// The mechanism's derived kinetic-energy property.
const KINETIC_ENERGY: &str = "energy:kinetic";

/// Simulates `model` from its initial state for `duration_s` seconds under
/// the scheduler and records every state variable (named as
/// [`variable`] names them) and the kinetic energy every
/// [`SAMPLE_INTERVAL_S`]. Fails with a one-line reason (the time and what
/// went wrong) if the simulation does.
///
/// Allocates: the trace, about `duration_s / SAMPLE_INTERVAL_S` samples.
pub fn record(model: Mechanism, duration_s: f64) -> Result<Trace, String> {
    let variables: Vec<Variable> = model
        .state_names()
        .iter()
        .map(|path| variable(&model, path))
        .collect();
    let mut paths: Vec<String> = model.state_names();
    paths.push(KINETIC_ENERGY.to_string());
    let paths: Vec<String> = paths.iter().map(|p| format!("{MODEL}/{p}")).collect();
    let path_refs: Vec<&str> = paths.iter().map(String::as_str).collect();

    let mut root = RootModel::new(MAX_STEP_S, MIN_STEP_S).map_err(|e| e.to_string())?;
    root.add_model(MODEL, Box::new(model));
    let probe = OutputProbe::new(&path_refs, Some(SAMPLE_INTERVAL_S), 0.0, duration_s)
        .map_err(|e| e.to_string())?;
    root.agents_mut(None).output_probes.push(probe);
    root.initialize().map_err(|e| e.to_string())?;
    root.run_until(duration_s).map_err(|e| e.to_string())?;

    let rows = root.agents(None).output_probes[0].rows();
    let mut trace = Trace::with_capacity(variables, rows.len());
    for (t, values) in rows {
        let (state, energy) = values.split_at(values.len() - 1);
        trace
            .push(*t, state, energy[0])
            .map_err(|e| format!("at t = {t} s: {e}"))?;
    }
    Ok(trace)
}

/// How a state variable is named and measured in reports and plots:
/// `parts/wheel:position` becomes "wheel position" in radians if the wheel turns.
pub fn variable(model: &Mechanism, path: &str) -> Variable {
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
