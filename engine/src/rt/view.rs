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
    /// The mechanism the instrument runs (a clock's movement), if it runs
    /// one: where its parts are, for the editor to draw them.
    pub mechanism: MechanismSnapshot,
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
            mechanism: MechanismSnapshot::default(),
        }
    }
}

/// Every MIDI key.
pub const MIDI_KEYS: usize = 128;

/// Most kinematic subsystems a published mechanism may have.
pub const MAX_MECHANISM_POSITIONS: usize = 16;

/// A mechanism the instrument runs, as the worker last left it: which one,
/// and each kinematic subsystem's position, so that a copy of it can be
/// drawn where the worker's is. Fixed-size: publishing allocates nothing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MechanismSnapshot {
    /// The mechanism's description (its TOML text, e.g.
    /// [`crate::mech::mechanism::BRACKET_MOVEMENT_TOML`]), from which the
    /// reader builds its own copy for the shapes; `None` when the
    /// instrument runs no mechanism.
    pub description: Option<&'static str>,
    /// Each kinematic subsystem's position (rad for a turning one, the
    /// description's length unit for a sliding one), in the order of
    /// [`crate::mech::mechanism::Mechanism::positions`]; the first
    /// [`MechanismSnapshot::count`] are in use.
    pub positions: [f64; MAX_MECHANISM_POSITIONS],
    /// How many of `positions` are in use.
    pub count: usize,
    /// The time the clock's hands show, s after midnight (growing past a
    /// day); `None` for a mechanism without a dial.
    pub dial_time_s: Option<f64>,
    /// What a clock's chime and strike trains are doing; `None` without
    /// them.
    pub trains: Option<ClockTrains>,
}

impl Default for MechanismSnapshot {
    fn default() -> Self {
        Self {
            description: None,
            positions: [0.0; MAX_MECHANISM_POSITIONS],
            count: 0,
            dial_time_s: None,
            trains: None,
        }
    }
}

impl MechanismSnapshot {
    /// The positions in use (rad or length units).
    pub fn positions(&self) -> &[f64] {
        &self.positions[..self.count.min(MAX_MECHANISM_POSITIONS)]
    }

    /// Copies `positions` in (the first [`MAX_MECHANISM_POSITIONS`] of
    /// them; returns false if there were more). Allocates nothing.
    pub fn set_positions(&mut self, positions: &[f64]) -> bool {
        let n = positions.len().min(MAX_MECHANISM_POSITIONS);
        self.positions[..n].copy_from_slice(&positions[..n]);
        self.positions[n..].fill(0.0);
        self.count = n;
        n == positions.len()
    }
}

/// A chiming clock's chime and strike trains.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClockTrains {
    /// The quarter the chime train is ringing, 1 to 4 (4 at the hour); 0
    /// while it is locked.
    pub chime_quarter: u8,
    /// The hour the strike train is counting or is about to count once the
    /// chime has locked, 1 to 12; 0 when there is none.
    pub strike_hour: u8,
    /// Whether the strike train is turning (false while it waits for the
    /// chime).
    pub striking: bool,
    /// Strokes the strike train has yet to release before it locks.
    pub strokes_left: u8,
}

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
