//! The messages between the audio thread and the mechanical worker.

use super::SynthEvent;
use crate::instrument::Rebound;

/// A message with the sample it belongs to (samples since the synthesiser was
/// prepared).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stamped<T> {
    /// Sample time.
    pub at: u64,
    /// Which reset epoch it belongs to: operations of an epoch the audio thread
    /// has left (by a reset) are dropped.
    pub epoch: u32,
    /// The message.
    pub item: T,
}

/// What the audio thread tells the worker.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ToWorker {
    /// The player did something (never [`SynthEvent::AllSoundOff`]: that is a
    /// [`ToWorker::Reset`]).
    Perform(SynthEvent),
    /// Set a property of the mechanics by path (e.g. `action:curve`).
    SetProperty {
        /// Property path.
        path: &'static str,
        /// New value.
        value: f64,
    },
    /// A hammer let go of its strings after a strike, at this message's
    /// sample, moving away from them at `speed_m_s` (the snapshot the action
    /// uses to check the hammer and time a repetition); or two parts of a
    /// mechanism let go of each other at an impact site (`key` from
    /// [`IMPACT_SITE_KEYS`] up).
    Rebound {
        /// MIDI key, or [`IMPACT_SITE_KEYS`] plus the impact site.
        key: u8,
        /// How the parts let go: speed apart, largest force and impulse.
        rebound: Rebound,
    },

    /// Everything stopped; a new epoch begins.
    Reset,
    /// The performance is over: mechanisms that run by themselves stop
    /// (see [`crate::rt::Mechanics::wind_down`]).
    WindDown,
    /// A new instrument's worker takes over (from the install queue).
    Install {
        /// Whether the new instrument has the old one's shape and carries on
        /// its motion (a live edit: hammers, keys and epoch carry on);
        /// otherwise a new epoch begins with the hammers at rest.
        live: bool,
    },
    /// The audio has rendered every sample before `at`: every message stamped
    /// before it has been sent, so the worker may step its control grid up to it.
    Clock,
}

/// The first of the keys that name impact sites in [`ToWorker::Rebound`]:
/// the parts that met at site `s` ([`Operation::Impact`]) let go of each
/// other as key `IMPACT_SITE_KEYS + s` (sites 0 to 127; MIDI keys are below).
pub const IMPACT_SITE_KEYS: u8 = 128;

/// What the worker tells the audio thread to do, at a sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Operation {
    /// Take a contact from the shared hammer pool, fit it to `key`, graft it
    /// onto the key's strings (or throw the key's mallet at its bar) and throw
    /// it from its start gap at `speed_m_s`; `shifted` by the una corda pedal.
    Strike {
        /// MIDI key.
        key: u8,
        /// Speed at which the hammer will meet the string, m/s.
        speed_m_s: f64,
        /// Whether the una corda has shifted the hammer off one string.
        shifted: bool,
    },
    /// Two parts of a mechanism are about to strike each other at `site` (a
    /// family's numbering of the places its parts collide: a tooth on a
    /// pallet; a grand's key, by its MIDI number, on the keybed): graft the
    /// site's contact tree and let it strike at `speed_m_s`, its approach
    /// speed (a grand's key lands after its aftertouch at that speed and
    /// knocks on the keybed, `resonators::Keybed`).
    Impact {
        /// The site.
        site: u8,
        /// Approach speed along the contact's normal, m/s.
        speed_m_s: f64,
    },
    /// A pin of a turning cylinder (a music box's) comes to `key`'s tine at
    /// `speed_m_s`, the cylinder's surface speed: it lifts the tine's damper
    /// where the tine has one, then catches the tine's tip, bends it and
    /// lets it go. Sent when the pin is a preset distance (the damper's lead)
    /// before the tip.
    Pluck {
        /// MIDI key of the tine.
        key: u8,
        /// Surface speed of the pin, m/s.
        speed_m_s: f64,
    },
    /// Set `key`'s damper: 0 lifted to 1 fully down.
    Damper {
        /// MIDI key.
        key: u8,
        /// Damper amount, 0 to 1.
        amount: f64,
    },
}
