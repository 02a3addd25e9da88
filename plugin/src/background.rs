//! The plugin's background thread: rebuilding the instrument when a sound
//! parameter or the instrument state changed, and turning the properties
//! MIDI controllers moved into edits. `process` asks for both without
//! waiting (and without allocating); the thread does the work and hands a
//! rebuilt instrument to the running synthesiser.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nice_plug::prelude::*;
use orchard_engine::rt::{InstrumentLoader, SynthError};

use crate::params::OrchardParams;
use crate::property_moves;
use crate::sound::SoundSettings;

/// A job for the background thread.
#[derive(Debug, Clone, Copy)]
pub enum Task {
    /// Rebuild the instrument.
    Rebuild(Rebuild),
    /// Turn the properties MIDI controllers moved into edits
    /// ([`property_moves::apply_property_moves`]).
    ApplyControllers,
}

/// The background task: build the instrument for these settings and hand it to
/// the running synthesiser.
#[derive(Debug, Clone, Copy)]
pub struct Rebuild {
    settings: SoundSettings,
}

/// How long the background thread waits for the last instrument to be taken
/// before handing over the next, at most; and how long `deactivate` waits
/// for a rebuild in progress.
const HANDOVER_WAIT: Duration = Duration::from_secs(2);

/// What was built last, and whether a rebuild is under way: the audio
/// thread's view of the rebuilds.
#[derive(Debug, Default)]
pub struct Rebuilds {
    /// The settings of the instrument built last (or being built).
    built: Option<SoundSettings>,
    /// The version of the instrument state built last (see
    /// [`crate::VersionedState::version`]).
    built_state: u64,
    /// Whether a rebuild is queued or running.
    rebuilding: Arc<AtomicBool>,
}

impl Rebuilds {
    /// Records that the instrument for `settings` and the instrument state
    /// at `state` was just built (by `activate`).
    pub fn built(&mut self, settings: SoundSettings, state: u64) {
        self.built = Some(settings);
        self.built_state = state;
    }

    /// Asks the background thread to rebuild the instrument if a sound
    /// parameter or the instrument state changed since the last build: one
    /// rebuild at a time, and a change made meanwhile is picked up when it
    /// is done. On the audio thread: wait-free, allocates nothing.
    pub fn request_if_changed<P: Plugin<BackgroundTask = Task>>(
        &mut self,
        params: &OrchardParams,
        context: &mut impl ProcessContext<P>,
    ) {
        let wanted = SoundSettings::from_params(params);
        let state = params.state.version();
        let changed = self.built != Some(wanted) || self.built_state != state;
        if changed && !self.rebuilding.swap(true, Ordering::AcqRel) {
            self.built(wanted, state);
            context.execute_background(Task::Rebuild(Rebuild { settings: wanted }));
        }
    }

    /// Waits (at most [`HANDOVER_WAIT`]) for a rebuild in progress, so no
    /// background task outlives the synthesiser it builds for; then
    /// forgets what was built.
    pub fn finish(&mut self) {
        let step = Duration::from_millis(2);
        for _ in 0..HANDOVER_WAIT.as_millis() / step.as_millis() {
            if !self.rebuilding.load(Ordering::Acquire) {
                break;
            }
            std::thread::sleep(step);
        }
        self.built = None;
    }

    /// The background thread's work: each task as it comes (the plugin's
    /// task executor).
    pub fn executor(
        &self,
        loader: Arc<Mutex<Option<InstrumentLoader>>>,
        params: Arc<OrchardParams>,
    ) -> Box<dyn Fn(Task) + Send> {
        let rebuilding = Arc::clone(&self.rebuilding);
        Box::new(move |task: Task| match task {
            Task::Rebuild(rebuild) => {
                load(&loader, &rebuild.settings.instrument_with(&params.edits()));
                rebuilding.store(false, Ordering::Release);
            }
            Task::ApplyControllers => {
                property_moves::apply_property_moves(&params);
                params.controllers.applied();
            }
        })
    }
}

/// Hands `preset`, built, to the running synthesiser through its loader,
/// waiting (at most [`HANDOVER_WAIT`]) for the last one to be taken.
fn load(loader: &Mutex<Option<InstrumentLoader>>, preset: &orchard_engine::instrument::Preset) {
    let Ok(mut guard) = loader.lock() else {
        return;
    };
    let Some(loader) = guard.as_mut() else {
        return;
    };
    let step = Duration::from_millis(5);
    for _ in 0..HANDOVER_WAIT.as_millis() / step.as_millis() {
        match loader.load_live(preset) {
            Err(SynthError::SwitchPending) => std::thread::sleep(step),
            Err(error) => {
                nice_error!("Orchard cannot build the instrument: {error}");
                break;
            }
            Ok(()) => break,
        }
    }
}

/// Asks the background thread to turn the properties MIDI controllers
/// moved into edits, unless it is doing so already. On the audio thread:
/// wait-free, allocates nothing.
pub fn request_controller_moves<P: Plugin<BackgroundTask = Task>>(
    params: &OrchardParams,
    context: &mut impl ProcessContext<P>,
) {
    if params.controllers.claim_application() {
        context.execute_background(Task::ApplyControllers);
    }
}
