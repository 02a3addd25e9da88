//! The action as a model of the mechanical scheduler: it advances step by step,
//! applying each queued command at its own time, and saves and restores its
//! state.

use crate::mech::model::{Model, ModelState, StepAdjustment};

use super::Action;
use super::key::Key;
use super::keyboard::KEYS;
use super::pedals::Pedals;

/// Values in the saved state: the pedals, then every key.
const STATE_LEN: usize = Pedals::FIELDS + KEYS * Key::FIELDS;

impl Model for Action {
    fn initialize(&mut self, _t: f64) {}

    fn advance(&mut self, t0: f64, t1: f64) -> Option<StepAdjustment> {
        let mut t = t0;
        // Commands due by the step's end, each at its own time.
        while let Some(&(time, command)) = self.commands.first() {
            if time > t1 {
                break;
            }
            let at = time.max(t);
            if at > t {
                self.evolve(t, at);
                t = at;
            }
            self.commands.remove(0);
            self.now = t;
            self.apply(command);
        }
        if t1 > t {
            self.evolve(t, t1);
        }
        None
    }

    fn max_step_size(&self) -> Option<f64> {
        // Dampers and the check are resolved to a millisecond.
        Some(1e-3)
    }

    /// The action's motion is solved in closed form: it never asks for a
    /// shorter step.
    fn may_reject_steps(&self) -> bool {
        false
    }

    fn save_state(&self) -> ModelState {
        let mut values = Vec::with_capacity(STATE_LEN);
        self.pedals.save(&mut values);
        for key in &self.keys {
            key.save(&mut values);
        }
        ModelState(values)
    }

    fn restore_state(&mut self, state: &ModelState) {
        let values = &state.0;
        if values.len() != STATE_LEN {
            return;
        }
        let (pedals, keys) = values.split_at(Pedals::FIELDS);
        self.pedals = Pedals::restore(pedals);
        for (key, chunk) in self.keys.iter_mut().zip(keys.chunks(Key::FIELDS)) {
            *key = Key::restore(chunk);
        }
    }
}
