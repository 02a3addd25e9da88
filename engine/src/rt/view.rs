//! Read-only views for the editor: the latest mechanical state and meters,
//! published through triple buffers so that neither the audio thread nor the
//! worker ever waits for the reader.

use super::triple_buffer::Subscriber;

/// The mechanics as the worker last published them (about 60 times a second).
/// Per-key values are indexed by MIDI key; keys the instrument lacks read as
/// at rest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MechanicsView {
    /// The worker's time, s since the synthesiser was prepared.
    pub time_s: f64,
    /// Per MIDI key: the striker's (hammer's, mallet's) travel towards what it
    /// strikes, 0 (at rest) to 1 (touching).
    pub striker_travel: [f32; MIDI_KEYS],
    /// Per MIDI key: the damper, 0 lifted to 1 down (1 for keys without one).
    pub damper: [f32; MIDI_KEYS],
    /// Per MIDI key: held down.
    pub key_down: [bool; MIDI_KEYS],
    /// Per MIDI key: the largest force of its striker's last contact, N (from
    /// the audio side).
    pub last_contact_force_n: [f32; MIDI_KEYS],
    /// Sustain pedal depth, 0 to 1.
    pub sustain: f32,
    /// Sostenuto pedal down.
    pub sostenuto: bool,
    /// Una corda pedal depth, 0 to 1.
    pub una_corda: f32,
    /// Property edits the worker has refused.
    pub rejected_edits: u64,
}

impl Default for MechanicsView {
    fn default() -> Self {
        Self {
            time_s: 0.0,
            striker_travel: [0.0; MIDI_KEYS],
            damper: [1.0; MIDI_KEYS],
            key_down: [false; MIDI_KEYS],
            last_contact_force_n: [0.0; MIDI_KEYS],
            sustain: 0.0,
            sostenuto: false,
            una_corda: 0.0,
            rejected_edits: 0,
        }
    }
}

/// Every MIDI key.
pub const MIDI_KEYS: usize = 128;

/// The output as the audio thread last published it (after every block).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeterView {
    /// Samples rendered so far.
    pub samples: u64,
    /// Peak of the last block, left and right (full scale 1).
    pub peak: [f32; 2],
    /// RMS of the last block, left and right.
    pub rms: [f32; 2],
    /// Keys sounding or with a hammer in flight.
    pub sounding_keys: u32,
    /// Operations applied late (the worker fell behind).
    pub late_operations: u64,
    /// Voices muted and reset because they went non-finite.
    pub non_finite_resets: u64,
    /// Per MIDI key: the energy of the waves on its resonator (a piano key's
    /// strings), J, measured about 60 times a second (0 for keys at rest,
    /// families that do not measure it and keys the instrument lacks).
    pub resonator_energy_j: [f32; MIDI_KEYS],
}

impl Default for MeterView {
    fn default() -> Self {
        Self {
            samples: 0,
            peak: [0.0; 2],
            rms: [0.0; 2],
            sounding_keys: 0,
            late_operations: 0,
            non_finite_resets: 0,
            resonator_energy_j: [0.0; MIDI_KEYS],
        }
    }
}

/// The editor's ends of both views.
pub struct Views {
    /// Mechanics, from the worker.
    pub mechanics: Subscriber<MechanicsView>,
    /// Meters, from the audio thread.
    pub meters: Subscriber<MeterView>,
}

impl std::fmt::Debug for Views {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Views").finish_non_exhaustive()
    }
}
