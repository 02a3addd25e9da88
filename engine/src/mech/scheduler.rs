//! The root model and its advance loop (Lloyd et al., ArtiSynth Reference
//! Manual, Sections 2.3–2.5): models advanced in sub-steps bounded by their own
//! step sizes and their output probes' event times, agents applied around each
//! sub-step in ArtiSynth's order, adaptive stepping with state save/restore,
//! and waypoints that save the whole state at chosen times so a run can be
//! reset there and repeated bit for bit.

use std::any::Any;

use super::agents::{Agents, AgentsState, same_time};
use super::model::{Model, ModelState};
use crate::props::{PropertyAccess, PropertyError};

/// A model the root can advance and whose properties agents can reach.
pub trait Simulated: Model + PropertyAccess + Send {
    /// The model as its own type, for its owner to read.
    fn as_any(&self) -> &dyn Any;
    /// The model as its own type, for its owner to drive.
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// The model as the properties its agents read.
    fn as_properties(&self) -> &dyn PropertyAccess;
    /// The model as the properties its agents set.
    fn as_properties_mut(&mut self) -> &mut dyn PropertyAccess;
}

impl<T: Model + PropertyAccess + Send + 'static> Simulated for T {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn as_properties(&self) -> &dyn PropertyAccess {
        self
    }

    fn as_properties_mut(&mut self) -> &mut dyn PropertyAccess {
        self
    }
}

/// Index of a model in its [`RootModel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelId(usize);

/// Why a run stopped.
#[derive(Debug, Clone, PartialEq)]
pub enum SchedulerError {
    /// Adaptive stepping reduced a model's step below the minimum.
    StepTooSmall {
        /// The model's name.
        model: String,
        /// Where it failed, s.
        time: f64,
        /// The step it would have needed to try, s.
        step: f64,
        /// The model's reason.
        message: String,
    },
    /// A model failed a step and adaptive stepping is off.
    StepFailed {
        /// The model's name.
        model: String,
        /// Where it failed, s.
        time: f64,
        /// The model's reason.
        message: String,
    },
    /// An agent addressed a property that does not exist or set a bad value.
    Property(PropertyError),
    /// No waypoint with saved state at this time.
    NoWaypoint(f64),
    /// Step sizes must be positive and finite, with minimum ≤ maximum.
    BadStepSizes,
}

impl std::fmt::Display for SchedulerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::StepTooSmall {
                model,
                time,
                step,
                message,
            } => write!(
                f,
                "{model}: step {step:e} s at t = {time} s is below the minimum step ({message})"
            ),
            Self::StepFailed {
                model,
                time,
                message,
            } => write!(f, "{model}: step failed at t = {time} s ({message})"),
            Self::Property(error) => error.fmt(f),
            Self::NoWaypoint(t) => write!(f, "no waypoint with saved state at t = {t} s"),
            Self::BadStepSizes => write!(f, "step sizes must be positive with minimum ≤ maximum"),
        }
    }
}

impl std::error::Error for SchedulerError {}

impl From<PropertyError> for SchedulerError {
    fn from(error: PropertyError) -> Self {
        Self::Property(error)
    }
}

/// One model with its own agents and its present effective step.
struct Entry<M: ?Sized> {
    name: String,
    model: Box<M>,
    agents: Agents,
    /// The step size adaptive stepping currently allows, s.
    effective_step: f64,
}

/// The models seen as one property tree: `name/path:property` reaches `path:property`
/// of the model called `name`. Root-owned agents act through it.
struct ModelSet<'a, M: ?Sized>(&'a mut [Entry<M>]);

fn route<'p, M: ?Sized>(entries: &[Entry<M>], path: &'p str) -> Option<(usize, &'p str)> {
    let (name, rest) = path.split_once('/')?;
    let index = entries.iter().position(|e| e.name == name)?;
    Some((index, rest))
}

impl<M: Simulated + ?Sized> PropertyAccess for ModelSet<'_, M> {
    fn property(&self, path: &str) -> Option<f64> {
        let (index, rest) = route(self.0, path)?;
        self.0[index].model.property(rest)
    }

    fn set_property(&mut self, path: &str, value: f64) -> Result<(), PropertyError> {
        let (index, rest) =
            route(self.0, path).ok_or_else(|| PropertyError::UnknownPath(path.to_string()))?;
        self.0[index].model.set_property(rest, value)
    }
}

/// Everything needed to restart from a waypoint.
#[derive(Debug, Clone, PartialEq)]
struct Saved {
    models: Vec<(ModelState, AgentsState)>,
    root_agents: AgentsState,
}

/// A time at which the whole state is saved when the run passes it.
#[derive(Debug, Clone, PartialEq)]
struct Waypoint {
    time: f64,
    saved: Option<Saved>,
}

/// The top of the hierarchy: all models, the agents not tied to one model, and
/// the scheduler's step sizes, time and waypoints.
///
/// Its models are of one type `M`: any [`Simulated`] model by default; an
/// owner that drives its models through a trait of its own holds them as
/// that trait's objects (`RootModel<dyn Mechanics>`), and reaches each as
/// such without a downcast.
pub struct RootModel<M: Simulated + ?Sized = dyn Simulated> {
    entries: Vec<Entry<M>>,
    agents: Agents,
    max_step: f64,
    min_step: f64,
    adaptive: bool,
    time: f64,
    waypoints: Vec<Waypoint>,
}

/// How much the effective step may grow after each successful step.
const STEP_GROWTH: f64 = 2.0;
/// The reduction used when a model asks for a smaller step without saying how
/// much (scaling 0).
const DEFAULT_REDUCTION: f64 = 0.5;

impl RootModel {
    /// An empty root of any models, with maximum step `max_step` (s) and
    /// adaptive stepping down to `min_step` (s).
    pub fn new(max_step: f64, min_step: f64) -> Result<Self, SchedulerError> {
        Self::of_models(max_step, min_step)
    }
}

impl<M: Simulated + ?Sized> RootModel<M> {
    /// An empty root of models of type `M`, with maximum step `max_step` (s)
    /// and adaptive stepping down to `min_step` (s).
    pub fn of_models(max_step: f64, min_step: f64) -> Result<Self, SchedulerError> {
        let valid = max_step.is_finite() && min_step > 0.0 && min_step <= max_step;
        if !valid {
            return Err(SchedulerError::BadStepSizes);
        }
        Ok(Self {
            entries: Vec::new(),
            agents: Agents::default(),
            max_step,
            min_step,
            adaptive: true,
            time: 0.0,
            waypoints: vec![Waypoint {
                time: 0.0,
                saved: None,
            }],
        })
    }

    /// Turns adaptive stepping on or off (on by default).
    pub fn set_adaptive_stepping(&mut self, enabled: bool) {
        self.adaptive = enabled;
    }

    /// Adds a model under `name` (the first segment of its properties' paths).
    pub fn add_model(&mut self, name: &str, model: Box<M>) -> ModelId {
        self.entries.push(Entry {
            name: name.to_string(),
            model,
            agents: Agents::default(),
            effective_step: self.max_step,
        });
        ModelId(self.entries.len() - 1)
    }

    /// The agents of a model (paths relative to it), or of the root (`None`,
    /// paths starting with a model's name).
    pub fn agents_mut(&mut self, owner: Option<ModelId>) -> &mut Agents {
        match owner {
            Some(ModelId(i)) => &mut self.entries[i].agents,
            None => &mut self.agents,
        }
    }

    /// The agents of a model, or of the root.
    pub fn agents(&self, owner: Option<ModelId>) -> &Agents {
        match owner {
            Some(ModelId(i)) => &self.entries[i].agents,
            None => &self.agents,
        }
    }

    /// A model, for reading. `id` is one this root gave (models are never
    /// removed).
    pub fn model(&self, id: ModelId) -> &M {
        self.entries[id.0].model.as_ref()
    }

    /// A model, for changing between runs. `id` is one this root gave.
    pub fn model_mut(&mut self, id: ModelId) -> &mut M {
        self.entries[id.0].model.as_mut()
    }

    /// The present time, s.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Saves the whole state whenever a run passes `time` (s).
    pub fn add_waypoint(&mut self, time: f64) {
        if !self.waypoints.iter().any(|w| same_time(w.time, time)) {
            self.waypoints.push(Waypoint { time, saved: None });
            self.waypoints.sort_by(|a, b| a.time.total_cmp(&b.time));
        }
    }

    /// Starts at t = 0: initializes every model, lets output probes whose
    /// window starts at 0 record the initial state, and saves the waypoint at 0.
    pub fn initialize(&mut self) -> Result<(), SchedulerError> {
        self.time = 0.0;
        for entry in &mut self.entries {
            entry.model.initialize(0.0);
            entry.effective_step = self.max_step;
            record_initial(&mut entry.agents, entry.model.as_properties())?;
        }
        record_initial(&mut self.agents, &ModelSet(&mut self.entries))?;
        self.save_waypoint_here()
    }

    /// Runs until `end` (s), stopping at every waypoint to save state.
    pub fn run_until(&mut self, end: f64) -> Result<(), SchedulerError> {
        while self.time < end && !same_time(self.time, end) {
            let t0 = self.time;
            // The next point of the grid of maximum steps (not t0 + step, so
            // that rounding does not accumulate over a long run).
            let mut t1 = ((t0 / self.max_step + 1e-9).floor() + 1.0) * self.max_step;
            t1 = t1.min(end);
            if let Some(w) = self
                .waypoints
                .iter()
                .find(|w| w.time > t0 && !same_time(w.time, t0))
            {
                t1 = t1.min(w.time);
            }
            if same_time(t1, end) {
                t1 = end;
            }
            self.advance(t0, t1)?;
            self.time = t1;
            self.save_waypoint_here()?;
        }
        Ok(())
    }

    /// Returns to the waypoint at `time` (s), whose state was saved when a run
    /// passed it: models, controllers, monitors and the properties input probes
    /// control are restored, output probes forget what they recorded after it.
    pub fn reset_to(&mut self, time: f64) -> Result<(), SchedulerError> {
        let saved = self
            .waypoints
            .iter()
            .find(|w| same_time(w.time, time))
            .and_then(|w| w.saved.clone())
            .ok_or(SchedulerError::NoWaypoint(time))?;
        for (entry, (state, agents)) in self.entries.iter_mut().zip(&saved.models) {
            entry.model.restore_state(state);
            entry.model.initialize(time);
            entry
                .agents
                .restore_state(agents, time, entry.model.as_properties_mut())?;
            entry.effective_step = self.max_step;
        }
        let mut models = ModelSet(&mut self.entries);
        self.agents
            .restore_state(&saved.root_agents, time, &mut models)?;
        self.time = time;
        Ok(())
    }

    fn save_waypoint_here(&mut self) -> Result<(), SchedulerError> {
        let Some(index) = self
            .waypoints
            .iter()
            .position(|w| same_time(w.time, self.time))
        else {
            return Ok(());
        };
        let models = self
            .entries
            .iter()
            .map(|e| {
                Ok((
                    e.model.save_state(),
                    e.agents.save_state(e.model.as_properties())?,
                ))
            })
            .collect::<Result<_, PropertyError>>()?;
        let root_agents = self.agents.save_state(&ModelSet(&mut self.entries))?;
        self.waypoints[index].saved = Some(Saved {
            models,
            root_agents,
        });
        Ok(())
    }

    /// The root's advance from `t0` to `t1` (Section 2.4): sub-steps ending at
    /// the root's output-probe events, with root-owned inputs and controllers
    /// before every model's advance and monitors and output probes after.
    pub fn advance(&mut self, t0: f64, t1: f64) -> Result<(), SchedulerError> {
        let mut ta = t0;
        while ta < t1 && !same_time(ta, t1) {
            let tb = next_time(ta, t1, t1 - ta, &self.agents);
            self.agents
                .apply_inputs(ta, tb, &mut ModelSet(&mut self.entries))?;
            for entry in &mut self.entries {
                advance_model(entry, ta, tb, self.max_step, self.min_step, self.adaptive)?;
            }
            self.agents
                .apply_outputs(ta, tb, &ModelSet(&mut self.entries))?;
            ta = tb;
        }
        Ok(())
    }
}

/// Output probes (only) record the state at t = 0, dropping anything recorded
/// by an earlier run.
fn record_initial(agents: &mut Agents, model: &dyn PropertyAccess) -> Result<(), PropertyError> {
    for probe in agents.output_probes.iter_mut().filter(|p| p.active) {
        probe.truncate_after(-1.0);
        probe.apply(0.0, model)?;
    }
    Ok(())
}

/// The end of the next sub-step from `ta`: at most `step` later, no later than
/// `t1`, and no later than the next output-probe event of `agents`.
fn next_time(ta: f64, t1: f64, step: f64, agents: &Agents) -> f64 {
    let mut tb = (ta + step).min(t1);
    if let Some(event) = agents.next_event_after(ta) {
        tb = tb.min(event);
    }
    if same_time(tb, t1) { t1 } else { tb }
}

/// `advanceModel` with adaptive stepping (Section 2.5): the state of a model
/// that may reject steps is saved before each sub-step; a step the model rejects
/// is retried shorter from the restored state, down to `min_step`.
fn advance_model<M: Simulated + ?Sized>(
    entry: &mut Entry<M>,
    t0: f64,
    t1: f64,
    max_step: f64,
    min_step: f64,
    adaptive: bool,
) -> Result<(), SchedulerError> {
    let nominal = entry
        .model
        .max_step_size()
        .map_or(max_step, |h| h.min(max_step));
    let mut ta = t0;
    while ta < t1 && !same_time(ta, t1) {
        let mut tb = next_time(ta, t1, entry.effective_step.min(nominal), &entry.agents);
        let retry = adaptive && entry.model.may_reject_steps();
        let state = retry.then(|| entry.model.save_state());
        // Only rejected steps restore controllers: save them only when a retry
        // can happen (an empty list does not allocate).
        let controllers = if retry {
            entry.agents.controller_states()
        } else {
            Vec::new()
        };
        loop {
            let mut adjustment = entry.model.preadvance(ta, tb);
            if adjustment.as_ref().is_none_or(|a| a.scaling >= 1.0) {
                entry
                    .agents
                    .apply_inputs(ta, tb, entry.model.as_properties_mut())?;
                adjustment = entry.model.advance(ta, tb);
            }
            let Some(failure) = adjustment.filter(|a| a.scaling < 1.0) else {
                break;
            };
            let Some(state) = state.as_ref() else {
                return Err(SchedulerError::StepFailed {
                    model: entry.name.clone(),
                    time: ta,
                    message: failure.message.into_owned(),
                });
            };
            let scaling = if failure.scaling > 0.0 {
                failure.scaling
            } else {
                DEFAULT_REDUCTION
            };
            let step = (tb - ta) * scaling;
            if step < min_step {
                return Err(SchedulerError::StepTooSmall {
                    model: entry.name.clone(),
                    time: ta,
                    step,
                    message: failure.message.into_owned(),
                });
            }
            entry.effective_step = step;
            tb = ta + step;
            entry.model.restore_state(state);
            entry.model.initialize(ta);
            entry.agents.restore_controllers(&controllers);
        }
        entry
            .agents
            .apply_outputs(ta, tb, entry.model.as_properties())?;
        entry.effective_step = (entry.effective_step * STEP_GROWTH).min(nominal);
        ta = tb;
    }
    Ok(())
}
