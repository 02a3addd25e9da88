//! An instrument's audio side built from its preset, off the audio thread:
//! the family's voices and worker, and the room it is heard in.

use crate::instrument::Preset;
use crate::room::Room;
use crate::rt::error::SynthError;
use crate::rt::family::Family;
use crate::rt::sample_rate::check_sample_rate;
use crate::rt::voices::Voices;
use crate::rt::worker::Worker;

/// `preset`'s voices and worker, as `family` builds them, at `sample_rate`
/// (Hz); the worker's operations come `latency` samples after the control
/// step that makes them.
pub(super) fn build(
    family: &dyn Family,
    preset: &Preset,
    sample_rate: f64,
    latency: u64,
) -> Result<(Box<dyn Voices>, Box<Worker>), SynthError> {
    check_sample_rate(sample_rate)?;
    let voices = family.voices(preset, sample_rate)?;
    let worker = Box::new(Worker::new(family.mechanics(preset), sample_rate, latency));
    Ok((voices, worker))
}

/// `preset`'s room at `sample_rate` (Hz), if it is heard (`room:mix` above
/// 0).
pub(super) fn build_room(preset: &Preset, sample_rate: f64) -> Option<Box<Room>> {
    let spec = preset.room.filter(|room| room.is_on())?;
    Some(Box::new(Room::new(&spec, sample_rate)))
}
