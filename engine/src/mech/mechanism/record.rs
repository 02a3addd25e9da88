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
    record_with_progress(model, duration_s, &mut |_| {})
}

/// [`record`], telling `progress` the simulated time reached, s, after every
/// step of at most `MAX_STEP_S` (so a caller can show how far a long run
/// has gone); the run and the trace are the same as [`record`]'s.
pub fn record_with_progress(
    model: Mechanism,
    duration_s: f64,
    progress: &mut dyn FnMut(f64),
) -> Result<Trace, String> {
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
    // In steps on the scheduler's own grid of maximum steps, which one run
    // to the end would take too.
    let mut step = 0u64;
    loop {
        step += 1;
        let until = (step as f64 * MAX_STEP_S).min(duration_s);
        root.run_until(until).map_err(|e| e.to_string())?;
        progress(until);
        if until >= duration_s {
            break;
        }
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mech::mechanism::{MechanismDescription, builtin};

    /// A run tells its progress at least once per maximum step, in time
    /// order, up to its end, and records what a run without a listener
    /// records.
    #[test]
    fn progress_is_told_step_by_step_and_changes_nothing() {
        let description = MechanismDescription::from_toml(builtin("escapement").unwrap()).unwrap();
        let model = || Mechanism::new(&description).unwrap();
        let duration_s = 1.23;
        let mut told = Vec::new();
        let trace = record_with_progress(model(), duration_s, &mut |t| told.push(t)).unwrap();
        assert!(told.len() as f64 >= duration_s / MAX_STEP_S, "{told:?}");
        assert!(told.windows(2).all(|w| w[1] > w[0]), "{told:?}");
        assert!(told.windows(2).all(|w| w[1] - w[0] <= MAX_STEP_S + 1e-12));
        assert_eq!(told.last(), Some(&duration_s));
        assert_eq!(trace, record(model(), duration_s).unwrap());
        assert!(trace.len() as f64 >= duration_s / SAMPLE_INTERVAL_S);
    }
}
