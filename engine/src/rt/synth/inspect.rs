//! Reading the mechanics of a lock-step synthesiser as they are now, between
//! blocks: for output probes and measurements (the editor uses the published
//! [`crate::rt::Views`] instead, which work in both modes).

use super::{Link, Synth};
use crate::rt::Mechanics;

impl Synth {
    /// The family's mechanics as the worker has advanced them so far (its
    /// last control step at or before the end of the last block): strikers,
    /// dampers, keys, pedals and properties. `None` in realtime mode (the
    /// worker lives on its own thread).
    pub fn lock_step_mechanics(&self) -> Option<&dyn Mechanics> {
        match &self.link {
            Link::LockStep { host, .. } => Some(host.worker.mechanics()),
            Link::Realtime { .. } => None,
        }
    }
}
