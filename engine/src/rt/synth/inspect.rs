//! Reading the mechanics of a lock-step synthesiser as they are now, between
//! blocks: for output probes and measurements (the editor uses the published
//! [`crate::rt::Views`] instead, which work in both modes).

use super::{Link, Synth};
use crate::mech::action::Action;

impl Synth {
    /// The grand action as the worker has advanced it so far (its last control
    /// step at or before the end of the last block): hammer travel, dampers,
    /// keys and pedals. `None` in realtime mode (the worker lives on its own
    /// thread) and for instruments without an action.
    pub fn lock_step_action(&self) -> Option<&Action> {
        match &self.link {
            Link::LockStep { host, .. } => host.worker.action(),
            Link::Realtime { .. } => None,
        }
    }
}
