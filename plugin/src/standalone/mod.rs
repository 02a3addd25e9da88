//! What only the standalone app has: recording takes to WAV and MIDI files,
//! playing a MIDI file with a transport, the devices chosen in the window
//! and the state kept between runs.
//!
//! The standalone program turns it on for the whole process with [`enable`]
//! before the plugin is made, as it chooses the preset with
//! [`crate::Orchard::set_default_preset`]. Plugin hosts never call it, so in
//! a DAW nothing here exists: no queues, no threads, no File menu.

pub mod player;
pub mod recorder;
pub mod state_file;
mod take_name;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use nice_plug::prelude::Param;
use orchard_engine::rt::{Synth, TimedEvent};

use crate::params::OrchardParams;
use crate::user_preset::{self, UserPreset};
use player::{FilePlayer, Transport};
use recorder::{RecordTap, Recorder};
use state_file::Devices;

/// The devices the window offers, as the program found them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeviceLists {
    /// The backends (`auto`, `jack`, `alsa`, `dummy`).
    pub backends: Vec<String>,
    /// ALSA's audio output devices.
    pub outputs: Vec<String>,
    /// ALSA's MIDI inputs.
    pub alsa_midi_inputs: Vec<String>,
    /// The JACK MIDI output ports (empty without a JACK server).
    pub jack_midi_ports: Vec<String>,
}

/// Lists the devices there are now.
pub type DeviceLister = Box<dyn Fn() -> DeviceLists + Send + Sync>;
/// Restarts the app with the devices saved in the state.
pub type Restarter = Box<dyn Fn() + Send + Sync>;

/// The standalone app's controls, shared by the program, the plugin and the
/// window.
pub struct Session {
    /// Takes to WAV and MIDI files.
    pub recorder: Recorder,
    /// The MIDI file player's transport.
    pub transport: Transport,
    /// The audio thread's ends, until the plugin takes them.
    audio: Mutex<Option<StandaloneAudio>>,
    /// The plugin's parameters, once it is made.
    params: OnceLock<Arc<OrchardParams>>,
    /// The sound to start with (from the saved state).
    start_sound: Mutex<Option<UserPreset>>,
    /// The devices chosen in the window (saved; used at the next start).
    devices: Mutex<Devices>,
    lister: OnceLock<DeviceLister>,
    restarter: OnceLock<Restarter>,
}

/// The audio thread's ends of the recorder and the player, owned by the
/// plugin.
pub struct StandaloneAudio {
    /// The recorder's end.
    pub tap: RecordTap,
    /// The player's end.
    pub player: FilePlayer,
}

impl StandaloneAudio {
    /// Plays one block on `synth` into `left` and `right`: the events
    /// `played` merged, by offset, with the MIDI file's for this block; the
    /// recorder hears every event that reaches the synthesiser. On the
    /// audio thread: allocates nothing.
    pub fn play(
        &mut self,
        synth: &mut Synth,
        left: &mut [f32],
        right: &mut [f32],
        played: impl Iterator<Item = TimedEvent>,
    ) {
        let Self { tap, player } = self;
        player.prepare(left.len());
        tap.begin_block();
        let from_file = player.events().iter().copied();
        let events = player::merge_by_offset(played, from_file)
            .inspect(|timed| tap.event(timed.offset, timed.event));
        synth.process_events(left, right, events);
    }
}

static SESSION: OnceLock<Session> = OnceLock::new();

/// Turns the standalone app's features on for this process, recording into
/// `record_folder`, starting with `sound` (if any) and `devices`. Returns the
/// session, or `None` if it was on already. Allocates: the queues; starts
/// the recorder's writer thread.
pub fn enable(
    record_folder: PathBuf,
    sound: Option<UserPreset>,
    devices: Devices,
) -> Option<&'static Session> {
    if SESSION.get().is_some() {
        return None;
    }
    let (recorder, tap) = recorder::recorder(record_folder);
    let (transport, player) = player::player();
    let session = Session {
        recorder,
        transport,
        audio: Mutex::new(Some(StandaloneAudio { tap, player })),
        params: OnceLock::new(),
        start_sound: Mutex::new(sound),
        devices: Mutex::new(devices),
        lister: OnceLock::new(),
        restarter: OnceLock::new(),
    };
    SESSION.set(session).ok()?;
    SESSION.get()
}

/// The standalone session, if this process is the standalone app.
pub fn session() -> Option<&'static Session> {
    SESSION.get()
}

impl Session {
    /// The plugin made in this process takes the audio thread's ends and
    /// gives its parameters, which get the saved sound. Only the first
    /// plugin does; later ones get `None`.
    pub(crate) fn attach(&self, params: &Arc<OrchardParams>) -> Option<StandaloneAudio> {
        if self.params.set(Arc::clone(params)).is_err() {
            return None;
        }
        let sound = self
            .start_sound
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(sound) = sound
            && let Err(error) = set_sound(params, &sound)
        {
            eprintln!("orchard-standalone: the saved sound is not used: {error}");
        }
        self.audio
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    /// The sound now (instrument, parameters, edits), once the plugin runs.
    pub fn sound(&self) -> Option<UserPreset> {
        self.params.get().map(|params| user_preset::capture(params))
    }

    /// The devices chosen.
    pub fn devices(&self) -> Devices {
        self.devices
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Chooses the devices for the next start.
    pub fn set_devices(&self, devices: Devices) {
        *self.devices.lock().unwrap_or_else(PoisonError::into_inner) = devices;
    }

    /// Sets how the devices are listed (the program does: it knows JACK
    /// and ALSA); false if it was set already.
    pub fn set_device_lister(&self, lister: DeviceLister) -> bool {
        self.lister.set(lister).is_ok()
    }

    /// The devices there are now (empty lists if nobody can tell).
    pub fn list_devices(&self) -> DeviceLists {
        self.lister.get().map(|list| list()).unwrap_or_default()
    }

    /// Sets how the app restarts; false if it was set already.
    pub fn set_restarter(&self, restart: Restarter) -> bool {
        self.restarter.set(restart).is_ok()
    }

    /// Restarts the app with the chosen devices; false if it cannot.
    pub fn restart(&self) -> bool {
        self.restarter.get().map(|restart| restart()).is_some()
    }
}

/// Sets the parameters and edits of `sound` on a plugin nothing plays yet
/// (no audio thread, no editor): its instrument, every sound parameter, the
/// temperament and its key, then the edits.
fn set_sound(params: &OrchardParams, sound: &UserPreset) -> Result<(), String> {
    let plan = user_preset::plan(sound, params)?;
    for warning in &plan.loaded.warnings {
        eprintln!("orchard-standalone: saved sound: {warning}");
    }
    let settings = plan.settings;
    let choices = [
        params.host.instrument.preview_normalized(plan.instrument),
        params
            .host
            .temperament
            .preview_normalized(settings.choice("temperament")),
        params
            .host
            .temperament_key
            .preview_normalized(settings.choice("temperament-key")),
    ];
    let choice_params = [
        params.host.instrument.as_ptr(),
        params.host.temperament.as_ptr(),
        params.host.temperament_key.as_ptr(),
    ];
    let sound_params = params.sound_params().map(|(_, param)| param.as_ptr());
    for (param, normalized) in choice_params
        .into_iter()
        .zip(choices)
        .chain(sound_params.zip(plan.normalized))
    {
        // SAFETY: the pointers are to `params`' own parameters, alive for
        // this call; nothing else reads or writes them yet (the plugin has
        // not been activated and no editor is open).
        unsafe {
            param._internal_set_normalized_value(normalized);
        }
    }
    params.set_edits(sound.edits.clone());
    Ok(())
}
