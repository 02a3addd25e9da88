//! A felt mallet on a free-free bar (marimba, vibraphone, glockenspiel): the
//! same wave-digital machinery as the piano hammer, with the bar's modes in
//! place of the string.
//!
//! Seen from the strike point, each bending mode of the bar is a mass, a spring
//! and a damper moving together: in the mobility analogy (velocity ↔ voltage,
//! force ↔ current) a capacitor `m_k`, an inductor `1/k_k` and a resistor
//! `1/c_k` in parallel, and the point's velocity is the sum of the modes'
//! velocities, so the modes hang in series. The mallet's mass (a capacitor) and
//! the bar join in series under the felt, the tree's root, exactly as the
//! hammer and string do. The felt root opens when the mallet leaves, and the
//! modes ring on in the same tree.
//!
//! A uniform free-free bar's modes lie at `β_n² ∝ f_n` with `β_n·L` = 4.7300,
//! 7.8532, 10.9956 (partials 1 : 2.7565 : 5.4039); each mode's mass seen at a
//! point `x` is the bar's mass over the mode shape's square there.

use serde::Deserialize;

use crate::wdf::description::{capacitor, inductor, parallel, resistor, series};
use crate::wdf::{Bct, Element, FeltLaw, LeafId, TreeDescription, TreeError};

/// `β_n·L` of the first free-free bending modes.
const BETA_L: [f64; 3] = [4.730_040_745, 7.853_204_624, 10.995_607_838];

/// A mallet-and-bar instrument as data.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BarPreset {
    /// Name shown to the player.
    pub name: String,
    /// One line on what it is.
    pub description: String,
    /// The bar.
    pub bar: BarSpec,
    /// The mallet.
    pub mallet: MalletSpec,
    /// Where the mallet strikes and where the sound is picked up.
    pub interaction: Interaction,
}

/// A uniform bar with free ends.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BarSpec {
    /// Frequency of the first bending mode, Hz.
    pub fundamental_hz: f64,
    /// Mass of the bar, kg.
    pub mass_kg: f64,
    /// 60 dB decay time of each mode, s (one per mode, up to three).
    pub t60_s: Vec<f64>,
}

/// The mallet: a mass with a felt (or rubber) head.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MalletSpec {
    /// Head mass, kg.
    pub mass_kg: f64,
    /// The head's compression law.
    pub felt: FeltLaw,
    /// Distance from the bar when released, m.
    pub start_gap_m: f64,
}

/// Which object strikes which, and where (fractions of the bar's length).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Interaction {
    /// Strike point, 0–1 along the bar.
    pub strike_position: f64,
    /// Pickup point, 0–1 along the bar.
    pub pickup_position: f64,
}

/// Why a bar preset cannot be used.
#[derive(Debug, Clone, PartialEq)]
pub enum BarError {
    /// TOML that does not parse or does not match the schema.
    Parse(String),
    /// A value out of its range: the path and the reason.
    Invalid {
        /// Where in the preset.
        path: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The tree could not be built.
    Tree(TreeError),
}

impl std::fmt::Display for BarError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Parse(message) => write!(f, "{message}"),
            Self::Invalid { path, reason } => write!(f, "`{path}`: {reason}"),
            Self::Tree(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for BarError {}

impl BarPreset {
    /// Reads and checks a preset.
    pub fn from_toml(text: &str) -> Result<Self, BarError> {
        let preset: Self = toml::from_str(text).map_err(|e| BarError::Parse(e.to_string()))?;
        preset.validate()?;
        Ok(preset)
    }

    fn validate(&self) -> Result<(), BarError> {
        let check = |ok: bool, path: &'static str, reason: &str| {
            if ok {
                Ok(())
            } else {
                Err(BarError::Invalid {
                    path,
                    reason: reason.to_string(),
                })
            }
        };
        let positive = |x: f64| x.is_finite() && x > 0.0;
        let inside = |x: f64| x > 0.0 && x < 1.0;
        check(
            positive(self.bar.fundamental_hz) && self.bar.fundamental_hz <= 5_000.0,
            "bar.fundamental_hz",
            "must lie in (0, 5000] Hz",
        )?;
        check(
            positive(self.bar.mass_kg),
            "bar.mass_kg",
            "must be positive",
        )?;
        check(
            !self.bar.t60_s.is_empty()
                && self.bar.t60_s.len() <= BETA_L.len()
                && self.bar.t60_s.iter().all(|&t| positive(t)),
            "bar.t60_s",
            "needs one to three positive decay times",
        )?;
        check(
            positive(self.mallet.mass_kg),
            "mallet.mass_kg",
            "must be positive",
        )?;
        check(
            positive(self.mallet.felt.stiffness) && self.mallet.felt.exponent >= 1.0,
            "mallet.felt",
            "needs a positive stiffness and an exponent of at least 1",
        )?;
        check(
            positive(self.mallet.start_gap_m),
            "mallet.start_gap_m",
            "must be positive",
        )?;
        check(
            inside(self.interaction.strike_position),
            "interaction.strike_position",
            "must lie strictly between 0 and 1",
        )?;
        check(
            inside(self.interaction.pickup_position),
            "interaction.pickup_position",
            "must lie strictly between 0 and 1",
        )
    }

    /// Partial frequencies of the bar, Hz.
    pub fn partials_hz(&self) -> Vec<f64> {
        let beta1 = BETA_L[0];
        BETA_L[..self.bar.t60_s.len()]
            .iter()
            .map(|b| self.bar.fundamental_hz * (b / beta1).powi(2))
            .collect()
    }
}

/// Shape of free-free mode `n` at `x` (fraction of the length), normalised so
/// its mean square over the bar is 1.
fn mode_shape(n: usize, x: f64) -> f64 {
    let b = BETA_L[n];
    let sigma = (b.cosh() - b.cos()) / (b.sinh() - b.sin());
    let bx = b * x;
    bx.cosh() + bx.cos() - sigma * (bx.sinh() + bx.sin())
}

/// One struck bar.
#[derive(Debug, Clone)]
pub struct MalletBar {
    tree: Bct,
    mallet: LeafId,
    /// Each mode's mass leaf and its weight at the pickup (shape ratio).
    modes: Vec<(LeafId, f64)>,
    start_gap_m: f64,
}

impl MalletBar {
    /// The bar and mallet of `preset` at `sample_rate` (Hz).
    pub fn new(preset: &BarPreset, sample_rate: f64) -> Result<Self, BarError> {
        let strike = preset.interaction.strike_position;
        let pickup = preset.interaction.pickup_position;
        let partials = preset.partials_hz();
        let mut branches = Vec::new();
        let mut weights = Vec::new();
        for (n, (&f, &t60)) in partials.iter().zip(&preset.bar.t60_s).enumerate() {
            let shape = mode_shape(n, strike);
            if shape.abs() < 1e-3 || f >= 0.45 * sample_rate {
                continue; // a node at the strike point, or above Nyquist
            }
            let mass = preset.bar.mass_kg / (shape * shape);
            // Pre-warped so the bilinear transform puts the mode exactly at f.
            let omega = 2.0 * sample_rate * (std::f64::consts::PI * f / sample_rate).tan();
            let stiffness = mass * omega * omega;
            let damping = 2.0 * mass * 1000f64.ln() / t60;
            branches.push(parallel([
                capacitor(&format!("mode{n}"), mass),
                inductor(&format!("spring{n}"), 1.0 / stiffness),
                resistor(&format!("loss{n}"), 1.0 / damping),
            ]));
            weights.push((n, mode_shape(n, pickup) / shape));
        }
        if branches.is_empty() {
            return Err(BarError::Invalid {
                path: "interaction.strike_position",
                reason: "strikes no mode below Nyquist".into(),
            });
        }
        let description = TreeDescription::new(
            "felt",
            Element::Felt {
                law: preset.mallet.felt,
            },
            series([capacitor("mallet", preset.mallet.mass_kg), series(branches)]),
        );
        let tree = Bct::new(&description, sample_rate).map_err(BarError::Tree)?;
        let modes = weights
            .into_iter()
            .map(|(n, w)| Ok((tree.leaf(&format!("mode{n}"))?, w)))
            .collect::<Result<_, TreeError>>()
            .map_err(BarError::Tree)?;
        Ok(Self {
            mallet: tree.leaf("mallet").map_err(BarError::Tree)?,
            tree,
            modes,
            start_gap_m: preset.mallet.start_gap_m,
        })
    }

    /// Throws the mallet at the bar at `speed_m_s` from its start gap; a bar
    /// still ringing is struck where it is.
    pub fn strike(&mut self, speed_m_s: f64) {
        let speed = if speed_m_s.is_finite() {
            speed_m_s.clamp(1e-3, 20.0)
        } else {
            1e-3
        };
        let bar_velocity = self.bar_velocity();
        self.tree.set_reactive_state(self.mallet, speed);
        let gap = self.start_gap_m;
        if let Some(felt) = self.tree.felt_mut() {
            felt.set_state(-gap, speed - bar_velocity);
        }
    }

    /// Velocity of the bar at the strike point, m/s.
    fn bar_velocity(&self) -> f64 {
        self.modes
            .iter()
            .map(|&(leaf, _)| self.tree.voltage(leaf))
            .sum()
    }

    /// The felt's present contact force, N.
    pub fn contact_force(&self) -> f64 {
        self.tree.felt().map_or(0.0, |felt| felt.force())
    }

    /// Advances one sample; returns the bar's velocity at the pickup, m/s.
    pub fn tick(&mut self) -> f64 {
        self.tree.tick();
        self.modes
            .iter()
            .map(|&(leaf, weight)| weight * self.tree.voltage(leaf))
            .sum()
    }
}
