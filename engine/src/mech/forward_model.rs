//! Models that only ever run forwards: their steps always succeed, and they
//! keep no state that a retried step or a waypoint must restore.

use super::model::{Model, ModelState, StepAdjustment};

/// A model advanced only forwards (a striker thrown at once, a music box's
/// cylinder that runs on): it never asks for a shorter step, so the
/// scheduler never retries one; it needs no preparation for a time; and it
/// saves nothing (its state is empty) and restores nothing. Implementing it
/// gives the [`Model`], written once here.
pub trait ForwardModel {
    /// Runs the model from `t0` to `t1` (s).
    fn step(&mut self, t0: f64, t1: f64);
}

impl<T: ForwardModel> Model for T {
    fn initialize(&mut self, _t: f64) {}

    fn advance(&mut self, t0: f64, t1: f64) -> Option<StepAdjustment> {
        self.step(t0, t1);
        None
    }

    fn save_state(&self) -> ModelState {
        ModelState::default()
    }

    fn may_reject_steps(&self) -> bool {
        false
    }

    fn restore_state(&mut self, _state: &ModelState) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the time it has run.
    struct Clock {
        ran_s: f64,
    }

    impl ForwardModel for Clock {
        fn step(&mut self, t0: f64, t1: f64) {
            self.ran_s += t1 - t0;
        }
    }

    /// As a [`Model`], a forward model runs each step it is given, never
    /// asks for a shorter one, saves an empty state and restoring one leaves
    /// it where it is.
    #[test]
    fn a_forward_model_runs_on_and_saves_nothing() {
        let mut clock = Clock { ran_s: 0.0 };
        clock.initialize(0.0);
        assert_eq!(Model::advance(&mut clock, 0.0, 0.25), None);
        assert_eq!(Model::advance(&mut clock, 0.25, 0.75), None);
        assert_eq!(clock.ran_s, 0.75);
        assert!(!clock.may_reject_steps());
        assert_eq!(clock.max_step_size(), None);
        let saved = clock.save_state();
        assert_eq!(saved, ModelState::default());
        clock.restore_state(&ModelState(vec![1.0, 2.0]));
        assert_eq!(clock.ran_s, 0.75);
    }
}
