//! What a struck part reports when its striker lets go: the strings of a
//! grand, a bar, a music box's tine.

/// A hammer (a mallet, a pin) letting go of what it struck.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rebound {
    /// Its speed away from the strings, m/s.
    pub speed_m_s: f64,
    /// The largest force of the contact, N.
    pub peak_force_n: f64,
    /// The impulse the contact exchanged, N·s: its force integrated over
    /// the time the parts touched (what a pinned cylinder feels of a pluck).
    pub impulse_n_s: f64,
}
