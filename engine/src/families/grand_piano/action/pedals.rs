//! The three pedals: sustain (continuous, so half-pedalling leaves partial
//! damping), sostenuto (holds up the dampers of the keys down when it is
//! pressed) and una corda; where each key's damper is headed under them.

use super::key::Key;

/// The pedals' positions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Pedals {
    /// Sustain pedal depth, 0 (up) to 1 (down).
    pub sustain: f64,
    /// Whether the sostenuto pedal is down.
    pub sostenuto: bool,
    /// Una corda position, 0–1: how far the hammers have shifted off one string.
    pub una_corda: f64,
}

impl Pedals {
    /// All three up.
    pub const UP: Self = Self {
        sustain: 0.0,
        sostenuto: false,
        una_corda: 0.0,
    };
    /// Values in the saved form.
    pub const FIELDS: usize = 3;

    /// Presses (`down`) or releases the sostenuto pedal over `keys`.
    pub fn set_sostenuto(&mut self, down: bool, keys: &mut [Key]) {
        self.sostenuto = down;
        for key in keys {
            // Pressing it holds the dampers of keys down at that moment
            // (and keeps those it held); releasing it lets all go.
            key.held = down && (key.down || key.held);
        }
    }

    /// Where `key`'s damper is headed, 0 (lifted) to 1 (down): lifted by a
    /// held key or sostenuto, else by the sustain pedal.
    pub fn damper_target(&self, key: &Key) -> f64 {
        let lifted = key.down || (self.sostenuto && key.held);
        if lifted { 0.0 } else { 1.0 - self.sustain }
    }

    /// Appends the saved form ([`Pedals::FIELDS`] values).
    pub fn save(&self, out: &mut Vec<f64>) {
        out.extend([
            self.sustain,
            if self.sostenuto { 1.0 } else { 0.0 },
            self.una_corda,
        ]);
    }

    /// The pedals from their saved form.
    pub fn restore(values: &[f64]) -> Self {
        Self {
            sustain: values[0],
            sostenuto: values[1] != 0.0,
            una_corda: values[2],
        }
    }
}
