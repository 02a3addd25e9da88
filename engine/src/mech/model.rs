//! Models and their state (Lloyd et al., ArtiSynth Reference Manual, Section 2.1).

/// Everything a model needs to advance deterministically from a given time: a
/// flat vector of numbers (positions, velocities, contact and other internal
/// state). Saving and restoring it must reproduce a run bit for bit.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelState(pub Vec<f64>);

use std::borrow::Cow;

/// A model's request about its step (Section 2.5): `scaling` < 1 means the step
/// failed and should be retried at `scaling` times its length (0: no
/// recommendation); ≥ 1 means it succeeded.
#[derive(Debug, Clone, PartialEq)]
pub struct StepAdjustment {
    /// Recommended factor for the step size.
    pub scaling: f64,
    /// Why the step should change, for the error raised at the minimum step
    /// (borrowed when fixed, so a successful step need not allocate).
    pub message: Cow<'static, str>,
}

impl StepAdjustment {
    /// A failed step, to be retried at `scaling` times its length.
    pub fn reduce(scaling: f64, message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            scaling,
            message: message.into(),
        }
    }
}

/// Something that holds state and is advanced in time by the scheduler.
///
/// The contract (Section 2.1): after `save_state`, `preadvance(t1, t2)`,
/// `advance(t1, t2)`, then `restore_state`, `initialize(t1)`, `preadvance` and
/// `advance` again give exactly the same state.
pub trait Model {
    /// Prepares the model for time `t` (s): at the start, after a reset to a
    /// waypoint, and before a step is retried.
    fn initialize(&mut self, t: f64);
    /// Work before the agents act on the step `t0 → t1` (s).
    fn preadvance(&mut self, _t0: f64, _t1: f64) -> Option<StepAdjustment> {
        None
    }
    /// Advances the model from `t0` to `t1` (s).
    fn advance(&mut self, t0: f64, t1: f64) -> Option<StepAdjustment>;
    /// The largest step this model accepts (s), if it has one.
    fn max_step_size(&self) -> Option<f64> {
        None
    }
    /// The model's present state.
    fn save_state(&self) -> ModelState;

    /// Writes the model's present state into `state`, as
    /// [`Model::save_state`] would return it. Models that can override it
    /// to reuse `state`'s memory, so that saving before each retried step
    /// allocates nothing.
    fn save_state_into(&self, state: &mut ModelState) {
        *state = self.save_state();
    }

    /// Whether [`Model::advance`] may ask for a shorter step. The scheduler
    /// saves the state before each sub-step only of models that may, so a
    /// model that never does (an analytic one) is advanced without allocating.
    fn may_reject_steps(&self) -> bool {
        true
    }
    /// Returns the model to a saved state.
    fn restore_state(&mut self, state: &ModelState);
}
