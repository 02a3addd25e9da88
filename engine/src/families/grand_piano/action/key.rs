//! One key's moving parts: where its hammer is in its cycle, the key's dip and
//! rise, its damper, and their saved form.

/// Where a key's hammer is in its cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// At rest on its rail.
    Rest,
    /// Pushed by the jack with constant acceleration.
    Pushed,
    /// Free flight towards the string after let-off.
    Flight,
    /// Falling back after the strike.
    Falling,
    /// Held by the check while the key is down.
    Caught,
}

/// One key's moving parts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Key {
    pub phase: Phase,
    /// Hammer position along the blow distance, m (0 at rest).
    pub position: f64,
    /// Hammer velocity, m/s (positive towards the string).
    pub velocity: f64,
    /// Jack acceleration while pushed, m/s².
    pub push: f64,
    /// Whether the key is held down.
    pub down: bool,
    /// How far the key has risen since release, as a fraction of its dip.
    pub rise: f64,
    /// Whether sostenuto holds this key's damper up.
    pub held: bool,
    /// Present damper amount, 0–1.
    pub damper: f64,
    /// How fast the key was let up, relative to a release at velocity 0.5:
    /// scales its rise and its damper's landing.
    pub release_rate: f64,
}

impl Key {
    pub const REST: Self = Self {
        phase: Phase::Rest,
        position: 0.0,
        velocity: 0.0,
        push: 0.0,
        down: false,
        rise: 1.0,
        held: false,
        damper: 1.0,
        release_rate: 1.0,
    };
    pub const FIELDS: usize = 9;

    pub fn save(&self, out: &mut Vec<f64>) {
        let phase = match self.phase {
            Phase::Rest => 0.0,
            Phase::Pushed => 1.0,
            Phase::Flight => 2.0,
            Phase::Falling => 3.0,
            Phase::Caught => 4.0,
        };
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        out.extend([
            phase,
            self.position,
            self.velocity,
            self.push,
            flag(self.down),
            self.rise,
            flag(self.held),
            self.damper,
            self.release_rate,
        ]);
    }

    pub fn restore(values: &[f64]) -> Self {
        let phase = match values[0] as u8 {
            1 => Phase::Pushed,
            2 => Phase::Flight,
            3 => Phase::Falling,
            4 => Phase::Caught,
            _ => Phase::Rest,
        };
        Self {
            phase,
            position: values[1],
            velocity: values[2],
            push: values[3],
            down: values[4] != 0.0,
            rise: values[5],
            held: values[6] != 0.0,
            damper: values[7],
            release_rate: values[8],
        }
    }
}

/// How fast a key released at `velocity` (0 to 1, 0.5 the usual MIDI default)
/// rises and lets its damper down, relative to the settings' times: velocity
/// over 0.5, from a quarter to four times as fast.
pub(super) fn release_rate(velocity: f64) -> f64 {
    let v = if velocity.is_finite() { velocity } else { 0.5 };
    (v / 0.5).clamp(0.25, 4.0)
}
