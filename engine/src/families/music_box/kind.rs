//! The music box's object kind: its comb is what the pins strike, and it is
//! checked against the pins and the keyboard once the strike is resolved.

use super::comb::TineDesign;
use super::spec::MusicBoxSpec;
use crate::instrument::{
    Bound, Checker, HammerSet, Instrument, ObjectKind, ObjectSpec, PresetError,
};
use crate::props::DeclaredRange;

/// The music box's own object kind, as its presets list it.
pub const KINDS: &[ObjectKind] = &[ObjectKind::of::<MusicBoxSpec>("music-box")];

/// The nearest a music box's pin may meet its tine to the clamp, as a
/// fraction of the tine's length.
///
/// A pin bends its tine by the lift where it meets it, and the tip swings by
/// that bend times the length's ratio to the pin's distance from the clamp,
/// cubed and more: met nearer the clamp than half its length, a tine would
/// be bent far past what steel bears (and swing at tens of metres per
/// second).
pub const MIN_PIN_POSITION: f64 = 0.5;

impl ObjectSpec for MusicBoxSpec {
    fn kind(&self) -> &'static str {
        "music-box"
    }

    fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        self.check(c)
    }

    /// Its comb is what the pins strike, near the tips.
    fn struck(&self) -> Option<DeclaredRange> {
        Some(DeclaredRange {
            min: MIN_PIN_POSITION,
            max: 0.99,
            text: "0.5 to 0.99 of a tine: pins pluck near the tip",
        })
    }

    /// Its pins have at least [`MIN_PIN_HYSTERESIS_S_PER_M`] of loss at
    /// every anchor.
    fn bounds_in(&self, _name: &str, instrument: &Instrument<'_>) -> Vec<Bound> {
        let pins = &instrument.topology.strike.hammers;
        vec![Bound::new(pins, "felt_hysteresis_s_per_m", PIN_LOSS)]
    }

    fn check_in(
        &self,
        name: &str,
        instrument: &Instrument<'_>,
        root: &Checker,
    ) -> Result<(), PresetError> {
        let lead_m = instrument.topology.hammers.start_gap_m;
        check_comb(instrument, self, lead_m, &root.child(name))?;
        check_pins(
            self,
            instrument.topology.hammers,
            &root.child(&instrument.topology.strike.hammers),
        )
    }
}

/// A music box's dampers press less than half the pins' lead `lead_m`
/// (m), and every tine of its comb is on the keyboard (a tine off it
/// would have no voice) and can be cut for its key's pitch (a
/// key far below the longest tine's pitch would need more lead than
/// [`super::comb::MAX_TIP_MASS_RATIO`] times the
/// tine's mass): checked as `NAME:keys`.
fn check_comb(
    instrument: &Instrument<'_>,
    spec: &MusicBoxSpec,
    lead_m: f64,
    c: &Checker,
) -> Result<(), PresetError> {
    if spec.keys.iter().any(|&key| key < spec.damped_below_key) {
        c.require(
            2.0 * spec.damper_press_m < lead_m,
            "damper_press_m",
            spec.damper_press_m,
            "under half the pins' start_gap_m: the pin lifts a damper's wire over the first \
             half of its lead, before it reaches the tip",
        )?;
    }
    for &key in &spec.keys {
        c.require(
            (instrument.keyboard.lowest_key..=instrument.keyboard.highest_key).contains(&key),
            "keys",
            f64::from(key),
            "keys of the keyboard, keyboard:lowest_key to keyboard:highest_key",
        )?;
        c.require(
            TineDesign::new(spec, key, instrument.fundamental_hz(key)).is_ok(),
            "keys",
            f64::from(key),
            "keys a tine can be cut for: with the tine at longest_tine_m, at most 50 times its mass in lead",
        )?;
    }
    Ok(())
}

/// The least Hunt–Crossley loss of a music box's pin on its tine, s/m.
///
/// A pin is no lossless spring: it is an oiled steel wire standing proud of
/// the cylinder, and it bends as it pushes, so a pin that comes to a tine
/// still ringing stills it within a few cycles (the built-in box's 2 s/m:
/// a blow at 0.3 m/s keeps about 60 % of its speed). Below about 1 s/m that
/// chatter of the tine on the steadily driven pin gains energy in the
/// contact's discrete solution until the tine's motion overflows, so a
/// box's pins take 1 s/m or more (up to the felts' 2 s/m).
pub const MIN_PIN_HYSTERESIS_S_PER_M: f64 = 1.0;

/// The loss a music box's pins may have, s/m (see
/// [`MIN_PIN_HYSTERESIS_S_PER_M`]).
const PIN_LOSS: DeclaredRange = DeclaredRange {
    min: MIN_PIN_HYSTERESIS_S_PER_M,
    max: 2.0,
    text: "1 to 2 s/m for a music box's pins: a lossless pin catching a ringing tine gains \
           energy",
};

/// A music box's pins have at least [`MIN_PIN_HYSTERESIS_S_PER_M`] of loss
/// at every tine of `spec`'s comb, where an anchor that does not give it
/// would leave the lossless default (the anchors' own values are bounded
/// by [`PIN_LOSS`], a [`Bound`]).
fn check_pins(spec: &MusicBoxSpec, pins: &HammerSet, c: &Checker) -> Result<(), PresetError> {
    for &key in &spec.keys {
        let loss = pins.felt(key).map_or(0.0, |law| law.hysteresis_s_per_m);
        c.child(&format!("{}/key/{key}", c.component())).require(
            PIN_LOSS.holds(loss),
            "felt_hysteresis_s_per_m",
            loss,
            PIN_LOSS.text,
        )?;
    }
    Ok(())
}
