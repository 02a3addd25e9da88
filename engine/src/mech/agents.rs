//! Model agents (Lloyd et al., ArtiSynth Reference Manual, Section 2.2):
//! input probes that apply data to properties, output probes that record
//! them, controllers that act before a model advances and monitors that
//! observe it afterwards. Each is active or inactive; the scheduler calls
//! only active ones.

use std::io::{self, Write};

use super::model::ModelState;
use crate::props::{PropertyAccess, PropertyError};

/// How an input probe's value varies between its knots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interpolation {
    /// The value of the last knot at or before the time.
    Step,
    /// Piecewise linear between knots.
    Linear,
}

/// Why an agent could not be built.
#[derive(Debug, Clone, PartialEq)]
pub enum AgentError {
    /// An input probe needs at least one knot, with finite values at finite,
    /// strictly increasing times.
    BadKnots(String),
    /// A window must have start ≤ stop, an update interval must be positive.
    BadTiming(String),
}

impl std::fmt::Display for AgentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::BadKnots(path) => write!(
                f,
                "input probe on `{path}`: knots need finite values at finite, increasing times"
            ),
            Self::BadTiming(what) => write!(f, "{what}: bad start, stop or update interval"),
        }
    }
}

impl std::error::Error for AgentError {}

/// Applies a time series to one property over a window of time.
///
/// Its state is the property's value, so that a reset to a time before the
/// window restores what the property was then (the probe is not applied there).
#[derive(Debug, Clone, PartialEq)]
pub struct InputProbe {
    path: String,
    /// (time s, value), strictly increasing in time.
    knots: Vec<(f64, f64)>,
    interpolation: Interpolation,
    start: f64,
    stop: f64,
    /// Whether the scheduler applies it.
    pub active: bool,
}

impl InputProbe {
    /// A probe setting `path` from `knots` (absolute times, s), active over the
    /// knots' span.
    pub fn new(
        path: &str,
        knots: Vec<(f64, f64)>,
        interpolation: Interpolation,
    ) -> Result<Self, AgentError> {
        let finite = knots.iter().all(|(t, v)| t.is_finite() && v.is_finite());
        let increasing = knots.windows(2).all(|w| w[0].0 < w[1].0);
        let (Some(&(start, _)), Some(&(stop, _))) = (knots.first(), knots.last()) else {
            return Err(AgentError::BadKnots(path.to_string()));
        };
        if !(finite && increasing) {
            return Err(AgentError::BadKnots(path.to_string()));
        }
        Ok(Self {
            path: path.to_string(),
            knots,
            interpolation,
            start,
            stop,
            active: true,
        })
    }

    /// The same probe applied only within `[start, stop]` (s).
    pub fn with_window(mut self, start: f64, stop: f64) -> Result<Self, AgentError> {
        let ordered = start <= stop;
        if !ordered {
            return Err(AgentError::BadTiming(format!(
                "input probe on `{}`",
                self.path
            )));
        }
        (self.start, self.stop) = (start, stop);
        Ok(self)
    }

    /// The property it drives.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The probe's value at time `t` (s), held constant outside the knots.
    pub fn value_at(&self, t: f64) -> f64 {
        let after = self.knots.partition_point(|&(time, _)| time <= t);
        match (after, self.interpolation) {
            (0, _) => self.knots[0].1,
            (n, _) if n == self.knots.len() => self.knots[n - 1].1,
            (n, Interpolation::Step) => self.knots[n - 1].1,
            (n, Interpolation::Linear) => {
                let ((t0, v0), (t1, v1)) = (self.knots[n - 1], self.knots[n]);
                v0 + (v1 - v0) * (t - t0) / (t1 - t0)
            }
        }
    }

    /// Sets the property to the value at `t` (s), if `t` is in the window.
    pub fn apply(&self, t: f64, target: &mut dyn PropertyAccess) -> Result<(), PropertyError> {
        let inside = (t >= self.start || same_time(t, self.start))
            && (t <= self.stop || same_time(t, self.stop));
        if inside {
            target.set_property(&self.path, self.value_at(t))?;
        }
        Ok(())
    }

    /// The controlled property's present value.
    pub fn save_state(&self, target: &dyn PropertyAccess) -> Result<ModelState, PropertyError> {
        let value = target
            .property(&self.path)
            .ok_or_else(|| PropertyError::UnknownPath(self.path.clone()))?;
        Ok(ModelState(vec![value]))
    }

    /// Puts the controlled property back to a saved value.
    pub fn restore_state(
        &self,
        state: &ModelState,
        target: &mut dyn PropertyAccess,
    ) -> Result<(), PropertyError> {
        match state.0.as_slice() {
            [value] => target.set_property(&self.path, *value),
            _ => Ok(()),
        }
    }
}

/// Records properties at its update times to rows, written out as CSV.
///
/// Update times are the window's start and stop and every integer multiple of
/// the update interval between them; without an interval, every step's end.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputProbe {
    paths: Vec<String>,
    interval: Option<f64>,
    start: f64,
    stop: f64,
    rows: Vec<(f64, Vec<f64>)>,
    /// Whether the scheduler applies it.
    pub active: bool,
}

/// Two times closer than this (relative to their size, or absolutely below 1 s)
/// are the same event time.
const TIME_TOLERANCE: f64 = 1e-12;

/// Whether `a` and `b` are the same time.
pub(crate) fn same_time(a: f64, b: f64) -> bool {
    (a - b).abs() <= TIME_TOLERANCE * a.abs().max(b.abs()).max(1.0)
}

impl OutputProbe {
    /// A probe recording `paths` every `interval` seconds (or every step if
    /// `None`) from `start` to `stop` (s; `f64::INFINITY` for no end).
    pub fn new(
        paths: &[&str],
        interval: Option<f64>,
        start: f64,
        stop: f64,
    ) -> Result<Self, AgentError> {
        let interval_ok = interval.is_none_or(|dt| dt.is_finite() && dt > 0.0);
        if !(start.is_finite() && start <= stop && interval_ok) {
            return Err(AgentError::BadTiming(format!("output probe on {paths:?}")));
        }
        Ok(Self {
            paths: paths.iter().map(|p| p.to_string()).collect(),
            interval,
            start,
            stop,
            rows: Vec::new(),
            active: true,
        })
    }

    /// The recorded properties.
    pub fn paths(&self) -> &[String] {
        &self.paths
    }

    /// The rows recorded so far: time (s) and one value per path.
    pub fn rows(&self) -> &[(f64, Vec<f64>)] {
        &self.rows
    }

    /// The first update time strictly after `t`, if any.
    pub fn next_event_after(&self, t: f64) -> Option<f64> {
        if t < self.start && !same_time(t, self.start) {
            return Some(self.start);
        }
        let interval = self.interval?;
        let k = ((t - self.start) / interval).floor() + 1.0;
        let mut next = self.start + k * interval;
        if same_time(next, t) {
            next = self.start + (k + 1.0) * interval;
        }
        if next < self.stop && !same_time(next, self.stop) {
            Some(next)
        } else if t < self.stop && !same_time(t, self.stop) {
            Some(self.stop)
        } else {
            None
        }
    }

    /// Whether `t` is one of this probe's update times.
    pub fn is_update_time(&self, t: f64) -> bool {
        let inside = (t >= self.start || same_time(t, self.start))
            && (t <= self.stop || same_time(t, self.stop));
        if !inside {
            return false;
        }
        match self.interval {
            None => true,
            Some(interval) => {
                let k = ((t - self.start) / interval).round();
                same_time(t, self.start + k * interval) || same_time(t, self.stop)
            }
        }
    }

    /// Records the properties at `t` if it is an update time.
    pub fn apply(&mut self, t: f64, source: &dyn PropertyAccess) -> Result<(), PropertyError> {
        if !self.is_update_time(t) {
            return Ok(());
        }
        let values = self
            .paths
            .iter()
            .map(|path| {
                source
                    .property(path)
                    .ok_or_else(|| PropertyError::UnknownPath(path.clone()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.rows.push((t, values));
        Ok(())
    }

    /// Forgets rows recorded after `t` (a reset to an earlier time).
    pub fn truncate_after(&mut self, t: f64) {
        self.rows
            .retain(|&(time, _)| time <= t || same_time(time, t));
    }

    /// Writes `time,path,…` and one line per row.
    pub fn write_csv(&self, mut out: impl Write) -> io::Result<()> {
        writeln!(out, "time,{}", self.paths.join(","))?;
        for (t, values) in &self.rows {
            write!(out, "{t}")?;
            for value in values {
                write!(out, ",{value}")?;
            }
            writeln!(out)?;
        }
        Ok(())
    }
}

/// Computes control inputs just before its model advances from `t0` to `t1`.
pub trait Controller: Send {
    /// Acts on the model for the step `t0 → t1` (s).
    fn apply(
        &mut self,
        t0: f64,
        t1: f64,
        model: &mut dyn PropertyAccess,
    ) -> Result<(), PropertyError>;
    /// Internal state (e.g. a filter's history), for retries and waypoints.
    fn save_state(&self) -> ModelState {
        ModelState::default()
    }
    /// Returns to a saved state.
    fn restore_state(&mut self, _state: &ModelState) {}
}

/// Observes its model just after it advanced from `t0` to `t1`.
pub trait Monitor: Send {
    /// Looks at the model after the step `t0 → t1` (s).
    fn apply(&mut self, t0: f64, t1: f64, model: &dyn PropertyAccess) -> Result<(), PropertyError>;
    /// Internal state, for waypoints.
    fn save_state(&self) -> ModelState {
        ModelState::default()
    }
    /// Returns to a saved state.
    fn restore_state(&mut self, _state: &ModelState) {}
}

/// A controller or monitor with its active flag.
pub struct Slot<T: ?Sized> {
    /// Whether the scheduler calls it.
    pub active: bool,
    /// The agent.
    pub agent: Box<T>,
}

/// The agents of one model (or of the root model).
#[derive(Default)]
pub struct Agents {
    /// Applied at the end time of each step, before the controllers.
    pub input_probes: Vec<InputProbe>,
    /// Called before the model advances.
    pub controllers: Vec<Slot<dyn Controller>>,
    /// Called after the model advanced.
    pub monitors: Vec<Slot<dyn Monitor>>,
    /// Applied after the monitors at their update times.
    pub output_probes: Vec<OutputProbe>,
}

/// Saved state of a set of agents: one entry per input probe, controller and
/// monitor, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct AgentsState {
    probes: Vec<ModelState>,
    controllers: Vec<ModelState>,
    monitors: Vec<ModelState>,
}

impl Agents {
    /// The first output-probe update time strictly after `t`.
    pub(crate) fn next_event_after(&self, t: f64) -> Option<f64> {
        self.output_probes
            .iter()
            .filter(|p| p.active)
            .filter_map(|p| p.next_event_after(t))
            .reduce(f64::min)
    }

    pub(crate) fn apply_inputs(
        &mut self,
        ta: f64,
        tb: f64,
        model: &mut dyn PropertyAccess,
    ) -> Result<(), PropertyError> {
        for probe in self.input_probes.iter().filter(|p| p.active) {
            probe.apply(tb, model)?;
        }
        for slot in self.controllers.iter_mut().filter(|s| s.active) {
            slot.agent.apply(ta, tb, model)?;
        }
        Ok(())
    }

    pub(crate) fn apply_outputs(
        &mut self,
        ta: f64,
        tb: f64,
        model: &dyn PropertyAccess,
    ) -> Result<(), PropertyError> {
        for slot in self.monitors.iter_mut().filter(|s| s.active) {
            slot.agent.apply(ta, tb, model)?;
        }
        for probe in self.output_probes.iter_mut().filter(|p| p.active) {
            probe.apply(tb, model)?;
        }
        Ok(())
    }

    pub(crate) fn controller_states(&self) -> Vec<ModelState> {
        self.controllers
            .iter()
            .map(|s| s.agent.save_state())
            .collect()
    }

    pub(crate) fn restore_controllers(&mut self, states: &[ModelState]) {
        for (slot, state) in self.controllers.iter_mut().zip(states) {
            slot.agent.restore_state(state);
        }
    }

    pub(crate) fn save_state(
        &self,
        model: &dyn PropertyAccess,
    ) -> Result<AgentsState, PropertyError> {
        Ok(AgentsState {
            probes: self
                .input_probes
                .iter()
                .map(|p| p.save_state(model))
                .collect::<Result<_, _>>()?,
            controllers: self.controller_states(),
            monitors: self.monitors.iter().map(|s| s.agent.save_state()).collect(),
        })
    }

    pub(crate) fn restore_state(
        &mut self,
        state: &AgentsState,
        time: f64,
        model: &mut dyn PropertyAccess,
    ) -> Result<(), PropertyError> {
        for (probe, saved) in self.input_probes.iter().zip(&state.probes) {
            probe.restore_state(saved, model)?;
        }
        self.restore_controllers(&state.controllers);
        for (slot, saved) in self.monitors.iter_mut().zip(&state.monitors) {
            slot.agent.restore_state(saved);
        }
        for probe in &mut self.output_probes {
            probe.truncate_after(time);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_probe_interpolates_linearly_or_by_steps() {
        let knots = vec![(1.0, 0.0), (2.0, 10.0), (4.0, 0.0)];
        let linear = InputProbe::new("m:x", knots.clone(), Interpolation::Linear).unwrap();
        let step = InputProbe::new("m:x", knots, Interpolation::Step).unwrap();
        assert_eq!(linear.value_at(0.5), 0.0);
        assert_eq!(linear.value_at(1.5), 5.0);
        assert_eq!(linear.value_at(3.0), 5.0);
        assert_eq!(linear.value_at(9.0), 0.0);
        assert_eq!(step.value_at(1.5), 0.0);
        assert_eq!(step.value_at(2.0), 10.0);
        assert_eq!(step.value_at(3.9), 10.0);
        for bad in [vec![], vec![(1.0, 0.0), (1.0, 1.0)], vec![(0.0, f64::NAN)]] {
            assert!(InputProbe::new("m:x", bad, Interpolation::Linear).is_err());
        }
    }

    #[test]
    fn output_probe_update_times_are_start_stop_and_multiples_of_the_interval() {
        let probe = OutputProbe::new(&["m:x"], Some(0.3), 0.1, 1.0).unwrap();
        let mut t = 0.0;
        let mut events = Vec::new();
        while let Some(next) = probe.next_event_after(t) {
            events.push(next);
            t = next;
        }
        let expected = [0.1, 0.4, 0.7, 1.0];
        assert_eq!(events.len(), expected.len(), "{events:?}");
        for (e, x) in events.iter().zip(expected) {
            assert!(same_time(*e, x), "{events:?}");
            assert!(probe.is_update_time(*e));
        }
        assert!(!probe.is_update_time(0.5));
        assert!(!probe.is_update_time(1.3));
        assert!(OutputProbe::new(&["m:x"], Some(0.0), 0.0, 1.0).is_err());
        assert!(OutputProbe::new(&["m:x"], None, 2.0, 1.0).is_err());
    }
}
