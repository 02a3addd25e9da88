//! Loading other instruments into a running synthesiser: built off the audio
//! thread, swapped in at the start of a block, freed off the audio thread.

use rtrb::{Consumer, Producer};

use super::build::{build, build_room};
use crate::instrument::Preset;
use crate::room::Room;
use crate::rt::error::SynthError;
use crate::rt::family::Family;
use crate::rt::voices::Voices;
use crate::rt::worker::Worker;

/// A new instrument's audio side, prepared off the audio thread.
pub(super) struct Prepared {
    pub voices: Box<dyn Voices>,
    /// Its room, at the host's rate; none when it is heard dry.
    pub room: Option<Box<Room>>,
    pub preset: Preset,
    /// Its family's name: a live install needs the same family.
    pub family: &'static str,
    /// Whether it should carry on what the running instrument is playing, if
    /// the shapes agree ([`InstrumentLoader::load_live`]).
    pub live: bool,
}

/// Loads other instruments into a running synthesiser without the audio
/// thread allocating or freeing: [`InstrumentLoader::load`] and
/// [`InstrumentLoader::load_live`] build the voices and the worker here, the
/// audio thread swaps them in at the start of its next block, and the replaced
/// ones come back here to be freed ([`InstrumentLoader::collect`]).
pub struct InstrumentLoader {
    pub(super) sample_rate: f64,
    /// The host's rate, Hz: the room's.
    pub(super) host_sample_rate: f64,
    pub(super) latency: u64,
    pub(super) instruments: Producer<Box<Prepared>>,
    pub(super) workers: Producer<Box<Worker>>,
    pub(super) replaced: Consumer<Box<Prepared>>,
    pub(super) retired: Consumer<Box<Worker>>,
}

impl std::fmt::Debug for InstrumentLoader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InstrumentLoader")
            .field("sample_rate", &self.sample_rate)
            .finish_non_exhaustive()
    }
}

impl InstrumentLoader {
    /// Builds `preset` for the synthesiser and queues it; it starts sounding at
    /// the next block (everything playing stops; the pedals and held keys
    /// stay). Fails if the preset cannot be built, or if the last instrument
    /// loaded has not been installed yet.
    ///
    /// Allocates: the new instrument (call it off the audio thread).
    pub fn load_with(
        &mut self,
        family: &'static dyn Family,
        preset: &Preset,
    ) -> Result<(), SynthError> {
        self.prepare(family, preset, false)
    }

    /// Builds `preset`, an edit of the running instrument (other tuning,
    /// losses, hammers, gains…), and queues it to take over at the next block
    /// with everything sounding carrying on: the audio thread moves every
    /// key's waves, dampers, hammers in flight and the soundboard's ringing
    /// into the new voices ([`Voices::continue_from`]), and the new worker
    /// carries on the keys, pedals and hammers of the old
    /// ([`Action::continue_motion_from`](crate::families::grand_piano::action::Action::continue_motion_from)).
    /// The edit sounds from that block on, on the notes already sounding too.
    ///
    /// When the shapes differ (another family, other keys, another number of
    /// strings on a key, other bar modes, a soundboard added or removed, a
    /// different number of shared hammers), it is a switch as
    /// [`InstrumentLoader::load`] makes. Fails as `load` does.
    ///
    /// Allocates: the new instrument (call it off the audio thread); the
    /// install allocates nothing.
    pub fn load_live_with(
        &mut self,
        family: &'static dyn Family,
        preset: &Preset,
    ) -> Result<(), SynthError> {
        self.prepare(family, preset, true)
    }

    /// Builds `preset`'s voices and worker and queues them, to carry on the
    /// running instrument's sound if `live`.
    fn prepare(
        &mut self,
        family: &'static dyn Family,
        preset: &Preset,
        live: bool,
    ) -> Result<(), SynthError> {
        self.collect();
        if self.instruments.is_full() || self.workers.is_full() {
            return Err(SynthError::SwitchPending);
        }
        let (voices, worker) = build(family, preset, self.sample_rate, self.latency)?;
        // The worker first: the audio thread announces the switch to the
        // worker only once it has taken the voices.
        if self.workers.push(worker).is_err() {
            return Err(SynthError::SwitchPending);
        }
        let prepared = Box::new(Prepared {
            voices,
            room: build_room(preset, self.host_sample_rate),
            preset: preset.clone(),
            family: family.name(),
            live,
        });
        self.instruments
            .push(prepared)
            .map_err(|_| SynthError::SwitchPending)
    }

    /// Frees the instruments the synthesiser has replaced.
    pub fn collect(&mut self) {
        while self.replaced.pop().is_ok() {}
        while self.retired.pop().is_ok() {}
    }
}
