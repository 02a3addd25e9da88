//! The instrument's state beyond the host parameters (the property edits),
//! saved in the host's project with them, and the count of its changes the
//! audio thread watches.

use std::sync::Mutex;
use std::sync::PoisonError;
use std::sync::atomic::{AtomicU64, Ordering};

use nice_plug::params::persist::PersistentField;
use orchard_engine::instrument::PropertyEdit;
use serde::{Deserialize, Serialize};

use super::state_formats::{STATE_FORMAT, edits_of_any_format};

/// The instrument's state beyond the host parameters, saved in the host's
/// project with them: property edits (from user presets and the editor),
/// applied in order after the parameters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct InstrumentState {
    /// The format it was written in ([`crate::STATE_FORMAT`] for this build's).
    pub format: u32,
    /// Property edits, in order (e.g. `strings:detune_cents` set to 1.5).
    #[serde(deserialize_with = "edits_of_any_format")]
    pub edits: Vec<PropertyEdit>,
}

/// The instrument state, and a count of its changes: `process` sees that the
/// editor edited it or a host loaded another without taking its lock.
#[derive(Debug, Default)]
pub struct VersionedState {
    pub(crate) state: Mutex<InstrumentState>,
    version: AtomicU64,
}

impl VersionedState {
    /// A state with no edits, written in this build's format.
    pub(super) fn empty() -> Self {
        Self {
            state: Mutex::new(InstrumentState {
                format: STATE_FORMAT,
                edits: Vec::new(),
            }),
            version: AtomicU64::new(0),
        }
    }

    /// How many times the state has changed (wait-free: for the audio thread).
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    /// Reads the state (off the audio thread: it locks).
    pub(super) fn read<R>(&self, read: impl FnOnce(&InstrumentState) -> R) -> R {
        read(&self.state.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Replaces the state (off the audio thread: it locks).
    pub(super) fn replace(&self, state: InstrumentState) {
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = state;
        self.version.fetch_add(1, Ordering::AcqRel);
    }

    /// Changes the edits in place, holding the lock throughout; counts a
    /// change if `change` says it made one (off the audio thread).
    pub(super) fn update(&self, change: impl FnOnce(&mut Vec<PropertyEdit>) -> bool) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if change(&mut state.edits) {
            state.format = STATE_FORMAT;
            self.version.fetch_add(1, Ordering::AcqRel);
        }
    }
}

impl<'a> PersistentField<'a, InstrumentState> for VersionedState {
    fn set(&self, new_value: InstrumentState) {
        self.replace(new_value);
    }

    fn map<F, R>(&self, f: F) -> R
    where
        F: Fn(&InstrumentState) -> R,
    {
        self.read(f)
    }
}
