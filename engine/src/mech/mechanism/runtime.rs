//! The running mechanism: structure, state, scratch, and the [`Model`]
//! implementation the scheduler drives.

use super::build::{BuildError, build};
use super::description::MechanismDescription;
use super::dynamics::{self, ContactPoint, Workspace};
use super::integrator::{Failure, IntegrationParameters, Integrator, Outcome};
use super::structure::{Motion, Structure};
use crate::mech::model::{Model, ModelState, StepAdjustment};

/// A mechanism simulated with Gelsey's local (penalty) contact model.
///
/// State: each kinematic subsystem's position (rad or u) and velocity (rad/s
/// or u/s), in [`Mechanism::state_names`] order. Allocates: everything in
/// [`Mechanism::new`]; stepping allocates nothing (saving state allocates
/// its vector).
#[derive(Debug, Clone)]
pub struct Mechanism {
    pub(super) structure: Structure,
    pub(super) q: Vec<f64>,
    pub(super) v: Vec<f64>,
    pub(super) params: IntegrationParameters,
    pub(super) work: Workspace,
    integrator: Integrator,
    time: f64,
    /// Why the last step was refused, for [`Mechanism::last_rejection`].
    last_rejection: Option<Rejection>,
}

/// Why [`Mechanism`] refused a step, kept without formatting (a refusal
/// on the audio thread allocates nothing).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Rejection {
    /// A step of this length (s) is no step.
    BadStep(f64),
    /// The step (s) was longer than the state allows (s).
    TooLong { step_s: f64, limit_s: f64 },
    /// The integrator failed.
    Failed(Failure),
}

impl Mechanism {
    /// Builds a mechanism from its description.
    pub fn new(d: &MechanismDescription) -> Result<Self, BuildError> {
        let (structure, q, v) = build(d)?;
        let n = q.len();
        let work = Workspace::new(&structure);
        Ok(Self {
            structure,
            q,
            v,
            params: IntegrationParameters::default(),
            work,
            integrator: Integrator::new(n),
            time: 0.0,
            last_rejection: None,
        })
    }

    /// Parses and builds a TOML description.
    pub fn from_toml(text: &str) -> Result<Self, BuildError> {
        let d = MechanismDescription::from_toml(text).map_err(BuildError::Parse)?;
        Self::new(&d)
    }

    /// The mechanism's name.
    pub fn name(&self) -> &str {
        &self.structure.name
    }

    /// The integrator's parameters.
    pub fn parameters(&self) -> &IntegrationParameters {
        &self.params
    }

    /// Changes the integrator's parameters.
    pub fn set_parameters(&mut self, params: IntegrationParameters) {
        self.params = params;
    }

    /// Names of the state variables, in [`Model::save_state`] order:
    /// `<root part>:position` then `<root part>:velocity` per subsystem.
    pub fn state_names(&self) -> Vec<String> {
        let mut names = Vec::with_capacity(2 * self.q.len());
        for suffix in ["position", "velocity"] {
            for sub in &self.structure.subsystems {
                let root = &self.structure.parts[sub.members[0].0];
                names.push(format!("parts/{}:{suffix}", root.name));
            }
        }
        names
    }

    /// Whether the part called `name` turns (a revolute pair, positions in rad)
    /// rather than slides (prismatic, positions in u); `None` for no such part.
    pub fn turns(&self, name: &str) -> Option<bool> {
        let p = self.structure.parts.iter().position(|p| p.name == name)?;
        Some(self.is_revolute(p))
    }

    /// Names of all parts, frame parts included, in description order.
    pub fn part_names(&self) -> impl Iterator<Item = &str> {
        self.structure.parts.iter().map(|p| p.name.as_str())
    }

    /// Kinetic energy of all moving parts (energy units: mass·u²/s²).
    pub fn kinetic_energy(&self) -> f64 {
        dynamics::kinetic_energy(&self.structure, &self.v)
    }

    /// Potential energy of the springs and of the contacts' elastic term
    /// `E·o²/2` (energy units).
    pub fn potential_energy(&mut self) -> f64 {
        dynamics::place(&self.structure, &self.q, &mut self.work);
        dynamics::find_contacts(&self.structure, &self.v, &mut self.work);
        dynamics::potential_energy(&self.structure, &self.q, &self.work)
    }

    /// The contacts at the present state (overlap, force, where).
    pub fn contacts(&mut self) -> &[ContactPoint] {
        dynamics::place(&self.structure, &self.q, &mut self.work);
        dynamics::find_contacts(&self.structure, &self.v, &mut self.work);
        &self.work.contacts
    }

    /// Names of the two parts a contact's primitives belong to.
    pub fn contact_parts(&self, c: &ContactPoint) -> (&str, &str) {
        let part = |i: usize| {
            self.structure.parts[self.structure.primitives[i].part]
                .name
                .as_str()
        };
        (part(c.primitives.0), part(c.primitives.1))
    }

    /// The largest step the present state allows (s): the configured maximum,
    /// and no point of any part moving farther than `max_travel` of the
    /// thinnest moving primitive at the present velocities.
    pub fn step_limit(&self) -> f64 {
        let s = &self.structure;
        let speed: f64 = s
            .parts
            .iter()
            .filter_map(|p| p.subsystem.map(|(k, f)| (f * self.v[k]).abs() * p.reach))
            .fold(0.0, f64::max);
        let travel = self.params.max_travel * s.min_thickness;
        if speed > 0.0 {
            self.params.max_step.min(travel / speed)
        } else {
            self.params.max_step
        }
    }

    /// Why the last refused step was refused, in full (names and numbers);
    /// `None` if no step was refused yet. Allocates: call it off the audio
    /// thread (the refusal itself carries only a fixed text).
    pub fn last_rejection(&self) -> Option<String> {
        Some(match self.last_rejection? {
            Rejection::BadStep(h) => format!("bad step {h} s"),
            Rejection::TooLong { step_s, limit_s } => {
                format!("step {step_s:.3e} s longer than the limit {limit_s:.3e} s")
            }
            Rejection::Failed(Failure::Newton) => "Newton iteration did not converge".into(),
            Rejection::Failed(Failure::Error(e)) => format!("error estimate {e:.3} × tolerance"),
            Rejection::Failed(Failure::Overlap(o, (i, j))) => {
                let part = |k: usize| &self.structure.parts[self.structure.primitives[k].part].name;
                format!(
                    "contact between `{}` and `{}` would overlap {o:.4} u (max {})",
                    part(i),
                    part(j),
                    self.params.max_overlap
                )
            }
            Rejection::Failed(Failure::Singular) => {
                "non-finite state or singular Newton matrix".into()
            }
        })
    }

    /// Refuses a step for `why`, asking for `scaling` times its length; the
    /// message is fixed text ([`Mechanism::last_rejection`] has the detail).
    fn reject(&mut self, scaling: f64, why: Rejection) -> StepAdjustment {
        self.last_rejection = Some(why);
        let message = match why {
            Rejection::BadStep(_) => "bad step",
            Rejection::TooLong { .. } => "step longer than the state allows",
            Rejection::Failed(Failure::Newton) => "Newton iteration did not converge",
            Rejection::Failed(Failure::Error(_)) => "error estimate above the tolerance",
            Rejection::Failed(Failure::Overlap(..)) => "a contact would overlap too deep",
            Rejection::Failed(Failure::Singular) => "non-finite state or singular Newton matrix",
        };
        StepAdjustment::reduce(scaling, message)
    }

    /// Whether part `p` turns (its position is an angle).
    pub(super) fn is_revolute(&self, p: usize) -> bool {
        matches!(self.structure.parts[p].motion, Motion::Revolute { .. })
    }

    /// Takes `other`'s state (positions, velocities, time) if it has the
    /// same subsystems; returns whether it did. Allocates nothing.
    pub fn continue_from(&mut self, other: &Mechanism) -> bool {
        if self.q.len() != other.q.len() {
            return false;
        }
        self.q.copy_from_slice(&other.q);
        self.v.copy_from_slice(&other.v);
        self.time = other.time;
        true
    }

    /// Each kinematic subsystem's position (rad or u), in the order of the
    /// first half of [`Mechanism::state_names`]. Allocates nothing.
    pub fn positions(&self) -> &[f64] {
        &self.q
    }

    /// Puts every kinematic subsystem at `positions` (rad or u, in the
    /// order of [`Mechanism::positions`]), velocities untouched: to show a
    /// mechanism where another copy of it is. Returns false, changing
    /// nothing, when the count differs. Allocates nothing.
    pub fn set_positions(&mut self, positions: &[f64]) -> bool {
        if positions.len() != self.q.len() {
            return false;
        }
        self.q.copy_from_slice(positions);
        true
    }

    /// Mechanism time of the last `initialize` or accepted `advance` (s).
    pub fn time(&self) -> f64 {
        self.time
    }
}

impl Model for Mechanism {
    fn initialize(&mut self, t: f64) {
        self.time = t;
    }

    /// One implicit step from `t0` to `t1`. Fails (asking for a shorter step)
    /// when the step exceeds [`Mechanism::step_limit`], Newton fails, the error
    /// estimate exceeds the tolerance, or a contact would end deeper than
    /// `max_overlap`. On success it may recommend a longer next step.
    fn advance(&mut self, t0: f64, t1: f64) -> Option<StepAdjustment> {
        let h = t1 - t0;
        if h.is_nan() || h <= 0.0 || !h.is_finite() {
            return Some(self.reject(0.0, Rejection::BadStep(h)));
        }
        let limit = self.step_limit();
        if h > limit * (1.0 + 1e-9) {
            return Some(self.reject(
                limit / h,
                Rejection::TooLong {
                    step_s: h,
                    limit_s: limit,
                },
            ));
        }
        let outcome = self.integrator.step(
            &self.structure,
            &mut self.work,
            &mut self.q,
            &mut self.v,
            h,
            &self.params,
        );
        match outcome {
            Outcome::Rejected { scaling, failure } => {
                Some(self.reject(scaling, Rejection::Failed(failure)))
            }
            Outcome::Accepted { growth } => {
                self.time = t1;
                (growth > 1.0).then(|| StepAdjustment {
                    scaling: growth,
                    message: "error estimate allows a longer step".into(),
                })
            }
        }
    }

    fn max_step_size(&self) -> Option<f64> {
        Some(self.step_limit())
    }

    fn save_state(&self) -> ModelState {
        let mut s = ModelState(Vec::with_capacity(2 * self.q.len()));
        self.save_state_into(&mut s);
        s
    }

    /// Reuses `state`'s memory: allocates nothing once it has held a state.
    fn save_state_into(&self, state: &mut ModelState) {
        state.0.clear();
        state.0.extend_from_slice(&self.q);
        state.0.extend_from_slice(&self.v);
    }

    /// Restores a state saved by this mechanism; a state of the wrong length
    /// is ignored.
    fn restore_state(&mut self, state: &ModelState) {
        let n = self.q.len();
        if state.0.len() == 2 * n {
            self.q.copy_from_slice(&state.0[..n]);
            self.v.copy_from_slice(&state.0[n..]);
        }
    }
}
