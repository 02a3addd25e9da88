//! Uniform bars, one per key (`[free-free-bars.NAME]`, free at both ends;
//! `[clamped-free-bars.NAME]`, clamped at one): mallet bars, a celesta's
//! bars, a clock's gong rods.

use serde::{Deserialize, Serialize};

use super::check::Checker;
use super::error::PresetError;
use crate::fields;
use crate::props::DeclaredRange;

/// Most modes a bar may list.
pub const MAX_BAR_MODES: usize = 3;

/// How a bar is held, which sets its modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarEnds {
    /// Free at both ends, resting on its nodes (marimba, celesta):
    /// partials 1 : 2.7565 : 5.4039.
    FreeFree,
    /// Clamped at one end (a gong rod, a music-box tine): partials
    /// 1 : 6.267 : 17.55. Positions along it are measured from the clamp.
    ClampedFree,
}

/// `β_n·L` of the first free-free bending modes.
const FREE_FREE_BETA_L: [f64; 3] = [4.730_040_745, 7.853_204_624, 10.995_607_838];

/// `β_n·L` of the first clamped-free bending modes.
const CLAMPED_FREE_BETA_L: [f64; 3] = [1.875_104_069, 4.694_091_133, 7.854_757_438];

impl BarEnds {
    /// `β_n·L` of the first bending modes.
    fn beta_l(self) -> &'static [f64; 3] {
        match self {
            Self::FreeFree => &FREE_FREE_BETA_L,
            Self::ClampedFree => &CLAMPED_FREE_BETA_L,
        }
    }

    /// Shape of mode `n` at `x` (fraction of the length from the clamped or
    /// first free end), normalised so its mean square over the bar is 1.
    pub fn mode_shape(self, n: usize, x: f64) -> f64 {
        let b = self.beta_l()[n];
        let bx = b * x;
        match self {
            Self::FreeFree => {
                let sigma = (b.cosh() - b.cos()) / (b.sinh() - b.sin());
                bx.cosh() + bx.cos() - sigma * (bx.sinh() + bx.sin())
            }
            Self::ClampedFree => {
                let sigma = (b.sinh() - b.sin()) / (b.cosh() + b.cos());
                bx.cosh() - bx.cos() - sigma * (bx.sinh() - bx.sin())
            }
        }
    }

    /// Frequencies of the first `modes` partials over the fundamental.
    pub fn partial_ratios(self, modes: usize) -> impl Iterator<Item = f64> {
        let beta = self.beta_l();
        beta[..modes.min(beta.len())]
            .iter()
            .map(move |b| (b / beta[0]).powi(2))
    }
}

/// Smallest size of a mode's shape at the strike point (of a mean square
/// of 1) that the strike excites: below it the point is a node of the mode.
pub const NODE_SHAPE: f64 = 1e-3;

/// Whether a strike at `position` (fraction of the length) excites any of the
/// bar's first `modes` modes, i.e. misses a node of at least one.
pub fn strikes_a_mode(ends: BarEnds, position: f64, modes: usize) -> bool {
    (0..modes.min(ends.beta_l().len())).any(|n| ends.mode_shape(n, position).abs() >= NODE_SHAPE)
}

/// Uniform bars, one per key, tuned to the keyboard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BarSet {
    /// Mass of each bar, kg.
    pub mass_kg: f64,
    /// 60 dB decay time of each bending mode, s (one to three modes).
    pub t60_s: Vec<f64>,
    /// Where the sound is picked up, as a fraction of the bar's length.
    pub pickup_position: f64,
    /// How they are held: which table lists them.
    #[serde(skip, default = "free_free")]
    pub ends: BarEnds,
}

fn free_free() -> BarEnds {
    BarEnds::FreeFree
}

/// Each of a bar set's decay times, s.
const BAR_T60_S: DeclaredRange = DeclaredRange {
    min: 1e-3,
    max: 100.0,
    text: "1 ms to 100 s",
};

impl BarSet {
    pub(super) fn check(&self, c: &Checker) -> Result<(), PresetError> {
        c.declared(self)?;
        c.require(
            (1..=MAX_BAR_MODES).contains(&self.t60_s.len()),
            "t60_s",
            self.t60_s.len() as f64,
            "one to three decay times",
        )?;
        for &t60 in &self.t60_s {
            c.within("t60_s", t60, BAR_T60_S)?;
        }
        Ok(())
    }
}

fields!(BarSet {
    mass_kg: Real, "kg", [1e-4, 100.0, "0.1 g to 100 kg"], "Mass of each bar";
    pickup_position: Real, "", [0.001, 0.999, "strictly between 0 and 1"], "Where the sound is picked up, as a fraction of the bar's length";
});
