//! A minimal adaptive loop over any [`Model`], doing what the scheduler does
//! with step adjustments: retry failed steps shorter (restore, initialize,
//! advance again) and lengthen steps the model says it can take. For tests,
//! benchmarks, offline use and the editor's live view until the scheduler
//! drives mechanisms.
//!
//! [`run`] goes from one time to another in one call; a [`Stepper`] is the
//! same loop resumed slice by slice (a GUI frame at a time) with a bound on
//! the work of each slice.

use std::borrow::Cow;

use crate::mech::model::{Model, ModelState};

/// Counts from a run.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RunStats {
    /// Accepted steps.
    pub accepted: usize,
    /// Rejected (retried) steps.
    pub rejected: usize,
    /// Shortest accepted step (s); infinite if none was accepted.
    pub min_step: f64,
    /// Longest accepted step (s).
    pub max_step: f64,
}

impl RunStats {
    fn new() -> Self {
        Self {
            min_step: f64::INFINITY,
            ..Self::default()
        }
    }

    /// Steps attempted, accepted or rejected.
    pub fn attempts(&self) -> usize {
        self.accepted + self.rejected
    }
}

/// Why a run stopped: a retry would have been shorter than the minimum
/// step. Holds the model's fixed message, so that failing allocates
/// nothing; [`std::fmt::Display`] writes the whole sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct StepFailure {
    /// Where the model stands, s.
    pub time_s: f64,
    /// The retry it would have needed, s.
    pub step_s: f64,
    /// The model's reason for the last refusal.
    pub reason: Cow<'static, str>,
}

impl std::fmt::Display for StepFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "at t = {} s, step {:.3e} s < minimum: {}",
            self.time_s, self.step_s, self.reason
        )
    }
}

impl std::error::Error for StepFailure {}

/// The adaptive loop of [`run`], resumable: its time and the step it will try
/// next carry over from one [`Stepper::advance`] to the next, so advancing a
/// model slice by slice steps it exactly as one run to the last slice's end
/// would, except that every slice ends on a step boundary.
///
/// It keeps the state it saves before each step in memory of its own, so a
/// model whose [`Model::save_state_into`] reuses memory is stepped without
/// allocating.
#[derive(Debug, Clone, PartialEq)]
pub struct Stepper {
    /// Time the model has reached (s).
    time: f64,
    /// Length of the next step to try (s).
    step: f64,
    /// A retry shorter than this fails the run (s).
    min_step: f64,
    /// The model's state before the step under way.
    saved: ModelState,
}

impl Stepper {
    /// Starts `model` at `t0` (s): initializes it there; the first step tried
    /// is `h0` (s), and a retry that would fall below `h_min` (s) fails.
    ///
    /// Allocates: room for one saved state.
    pub fn start<M: Model>(model: &mut M, t0: f64, h0: f64, h_min: f64) -> Self {
        let mut saved = ModelState::default();
        model.save_state_into(&mut saved);
        model.initialize(t0);
        Self {
            time: t0,
            step: h0,
            min_step: h_min,
            saved,
        }
    }

    /// Starts `model` again at `t0` (s), trying `h0` (s) first, as
    /// [`Stepper::start`] does, keeping this stepper's memory.
    pub fn restart<M: Model>(&mut self, model: &mut M, t0: f64, h0: f64) {
        model.initialize(t0);
        self.time = t0;
        self.step = h0;
    }

    /// Takes `other`'s place: its time and next step (and its minimum),
    /// keeping this stepper's memory where it is large enough.
    pub fn continue_from(&mut self, other: &Stepper) {
        self.time = other.time;
        self.step = other.step;
        self.min_step = other.min_step;
        self.saved.0.clone_from(&other.saved.0);
    }

    /// The time the model has reached (s).
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Advances `model` towards `t_end` (s), trying at most `max_steps` steps
    /// (accepted and rejected together): [`Stepper::time`] is then `t_end`, or
    /// earlier if the budget ran out. `on_step(model, t, h)` is called after
    /// every accepted step ending at `t`. Fails with the model's message if a
    /// retry would fall below the minimum step; the model is then back at the
    /// state of [`Stepper::time`].
    pub fn advance<M: Model>(
        &mut self,
        model: &mut M,
        t_end: f64,
        max_steps: usize,
        mut on_step: impl FnMut(&mut M, f64, f64),
    ) -> Result<RunStats, StepFailure> {
        let mut stats = RunStats::new();
        while self.time < t_end && stats.attempts() < max_steps {
            let t = self.time;
            let mut step = self.step.min(t_end - t);
            if let Some(limit) = model.max_step_size() {
                step = step.min(limit);
            }
            model.save_state_into(&mut self.saved);
            let t1 = if t_end - (t + step) < 1e-12 * t_end.abs().max(1.0) {
                t_end
            } else {
                t + step
            };
            let step = t1 - t;
            match model.advance(t, t1) {
                Some(adj) if adj.scaling < 1.0 => {
                    model.restore_state(&self.saved);
                    model.initialize(t);
                    stats.rejected += 1;
                    let scaling = if adj.scaling > 0.0 { adj.scaling } else { 0.5 };
                    self.step = step * scaling;
                    if self.step < self.min_step {
                        return Err(StepFailure {
                            time_s: t,
                            step_s: self.step,
                            reason: adj.message,
                        });
                    }
                }
                adj => {
                    self.time = t1;
                    stats.accepted += 1;
                    stats.min_step = stats.min_step.min(step);
                    stats.max_step = stats.max_step.max(step);
                    on_step(model, t1, step);
                    self.step = step * adj.map_or(1.0, |a| a.scaling);
                }
            }
        }
        Ok(stats)
    }
}

/// Advances `model` from `t0` to `t_end` (s), starting with step `h0` and
/// failing with the model's message if a retry would fall below `h_min` (s).
/// `on_step(model, t, h)` is called after every accepted step ending at `t`.
pub fn run<M: Model>(
    model: &mut M,
    t0: f64,
    t_end: f64,
    h0: f64,
    h_min: f64,
    on_step: impl FnMut(&mut M, f64, f64),
) -> Result<RunStats, String> {
    Stepper::start(model, t0, h0, h_min)
        .advance(model, t_end, usize::MAX, on_step)
        .map_err(|failure| failure.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mech::mechanism::{Mechanism, builtin};

    fn escapement() -> Mechanism {
        Mechanism::from_toml(builtin("escapement").unwrap()).unwrap()
    }

    #[test]
    fn a_run_resumed_after_spent_budgets_is_the_same_run() {
        // Through the first tooth drop (impacts, rejected steps).
        let t_end = 4.0;
        let mut whole = escapement();
        let one = run(&mut whole, 0.0, t_end, 1e-3, 1e-12, |_, _, _| {}).unwrap();

        let mut sliced = escapement();
        let mut stepper = Stepper::start(&mut sliced, 0.0, 1e-3, 1e-12);
        let mut attempts = 0;
        let mut slices = 0;
        while stepper.time() < t_end {
            let stats = stepper
                .advance(&mut sliced, t_end, 7, |_, _, _| {})
                .unwrap();
            assert!(stats.attempts() <= 7, "the budget bounds a slice");
            attempts += stats.attempts();
            slices += 1;
        }
        assert_eq!(attempts, one.attempts());
        assert!(slices > 1, "the budget split the run");
        assert_eq!(sliced.save_state(), whole.save_state(), "bit for bit");
    }

    #[test]
    fn slices_end_where_asked() {
        let mut m = escapement();
        let mut stepper = Stepper::start(&mut m, 0.0, 1e-3, 1e-12);
        for k in 1..=30 {
            let end = f64::from(k) / 60.0;
            stepper
                .advance(&mut m, end, usize::MAX, |_, _, _| {})
                .unwrap();
            assert_eq!(stepper.time(), end);
        }
    }
}
