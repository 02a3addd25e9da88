//! Felt hammers and mallets (`[felt-hammers.NAME]`): a mass with a felt
//! head per key, its values given at anchor keys. Every family's strikers
//! (a music box's pins are stiff felts too).

use serde::{Deserialize, Serialize};

use super::anchored::{Anchored, value_at};
use super::check::Checker;
use super::error::PresetError;
use crate::wdf::{FeltLaw, UNUSED_RELAXATION_S};
use crate::{anchor_fields, fields};

/// Felt hysteresis (s/m) where no anchor gives one: a lossless felt, as every
/// hammer was before the felt had hysteresis.
pub const LOSSLESS_FELT: f64 = 0.0;

/// Felt relaxing fraction where no anchor gives one: a felt that does not
/// relax, as every hammer was before the felt relaxed.
pub const UNRELAXING_FELT: f64 = 0.0;

/// Felt hammers (or mallets): a mass with a felt head, one per key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HammerSet {
    /// Distance between felt and target when the hammer is released into its
    /// free flight (the action's let-off distance), m.
    pub start_gap_m: f64,
    /// Values at anchor keys, in ascending key order.
    pub anchor: Vec<HammerAnchor>,
}

/// A hammer's physical values at an anchor key. A field the anchor does not
/// give (`None`; omitted in the preset) is interpolated between the nearest
/// anchors that give it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HammerAnchor {
    /// MIDI key.
    pub key: u8,
    /// Hammer mass per string it strikes, kg (as in Chaigne & Askenfelt's
    /// single-string model: a trichord's hammer weighs three times this).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mass_kg: Option<f64>,
    /// Felt stiffness `K` of `F = K·x^p` per string struck, N/m^p.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub felt_stiffness: Option<f64>,
    /// Felt exponent `p`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub felt_exponent: Option<f64>,
    /// Hunt–Crossley hysteresis `β` of the felt, s/m (`F = K·x^p·(1 + β·ẋ)`);
    /// where no anchor gives it, [`LOSSLESS_FELT`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub felt_hysteresis_s_per_m: Option<f64>,
    /// Stulov's relaxing fraction `ε` of the felt: the part of its stiffness
    /// a slow compression relaxes; where no anchor gives it, [`UNRELAXING_FELT`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub felt_relaxing_fraction: Option<f64>,
    /// Stulov's relaxation time `τ` of the felt, s; where no anchor gives it,
    /// [`UNUSED_RELAXATION_S`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub felt_relaxation_s: Option<f64>,
}

impl Anchored for HammerAnchor {
    fn key(&self) -> u8 {
        self.key
    }
}

impl HammerSet {
    /// The value of an anchor field at `key` (see [`value_at`]).
    pub fn at(&self, key: u8, field: fn(&HammerAnchor) -> Option<f64>) -> Option<f64> {
        value_at(&self.anchor, key, field)
    }

    /// The felt of `key`'s hammer; `None` only if the anchors miss a field
    /// (which validation refuses).
    pub fn felt(&self, key: u8) -> Option<FeltLaw> {
        Some(FeltLaw {
            stiffness: self.at(key, |a| a.felt_stiffness)?,
            exponent: self.at(key, |a| a.felt_exponent)?,
            hysteresis_s_per_m: self
                .at(key, |a| a.felt_hysteresis_s_per_m)
                .unwrap_or(LOSSLESS_FELT),
            relaxing_fraction: self
                .at(key, |a| a.felt_relaxing_fraction)
                .unwrap_or(UNRELAXING_FELT),
            relaxation_s: self
                .at(key, |a| a.felt_relaxation_s)
                .unwrap_or(UNUSED_RELAXATION_S),
        })
    }

    pub(super) fn check(&self, c: &Checker) -> Result<(), PresetError> {
        c.declared(self)?;
        c.each_anchor(&self.anchor, |c, a| c.declared_anchor(a))
    }
}

fields!(HammerSet {
    start_gap_m: Real, "m", [1e-5, 0.05, "0.01 mm to 50 mm"],
        "Gap between felt and target when the hammer starts its free flight (the action's let-off)", live;
});
anchor_fields!(HammerAnchor {
    mass_kg, "kg", [1e-4, 0.1, "0.1 g to 100 g"], "Hammer mass per string struck: a heavier hammer stays longer and sounds rounder";
    felt_stiffness, "N/m^p", [1e3, 1e16, "1e3 to 1e16 N/m^p"], "Felt stiffness K of F = K·x^p, per string struck: harder felt sounds brighter";
    felt_exponent, "", [1.0, 5.0, "1 to 5"],
        "Felt exponent p of F = K·x^p: higher makes the felt harden as it compresses, brighter when loud";
    felt_hysteresis_s_per_m = LOSSLESS_FELT, "s/m", [0.0, 2.0, "0 to 2 s/m"],
        "Felt hysteresis β of F = K·x^p·(1 + β·ẋ): how much of the blow the felt absorbs (0 lossless)";
    felt_relaxing_fraction = UNRELAXING_FELT, "", [0.0, 0.95, "0 to 0.95"],
        "Part of the felt's stiffness a slow blow relaxes away: more makes soft notes darker than loud ones";
    felt_relaxation_s = UNUSED_RELAXATION_S, "s", [1e-6, 0.1, "1 µs to 100 ms"],
        "Time the felt takes to relax: blows much shorter meet the whole stiffness";
});
