//! What several of the engine's tests share.

use orchard_engine::instrument::Preset;

/// The default grand heard from the bridge (microphone 0) at the level it
/// had there (0.004 per newton): the output the figures of the tests that
/// use it were written for, and the one that shows the strings and the
/// board themselves. The preset's own output, a close pair, hears each key
/// after its own time of flight and weights its partials by the board's
/// acceleration and the strings' radiation, which moves onsets by up to
/// 4 ms, pitches by fractions of a cent and levels by many decibels.
pub fn grand_at_bridge() -> Preset {
    let mut preset = Preset::default_grand();
    preset.set("output:microphone", 0.0).unwrap();
    preset.set("output:gain_per_newton", 0.004).unwrap();
    preset
}
