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

use super::Preset;
use super::preset::Resonators;
use crate::wdf::description::{capacitor, inductor, parallel, resistor, series};
use crate::wdf::{Bct, Element, FeltLaw, LeafId, TreeDescription, TreeError};

/// `β_n·L` of the first free-free bending modes.
const BETA_L: [f64; 3] = [4.730_040_745, 7.853_204_624, 10.995_607_838];

/// Everything needed to build one key's bar and mallet.
#[derive(Debug, Clone, PartialEq)]
pub struct BarParams {
    /// MIDI key.
    pub key: u8,
    /// Frequency of the first bending mode, Hz.
    pub fundamental_hz: f64,
    /// Mass of the bar, kg.
    pub mass_kg: f64,
    /// 60 dB decay time of each mode, s (one to three modes).
    pub t60_s: Vec<f64>,
    /// Strike point, fraction of the length from one end.
    pub strike_position: f64,
    /// Pickup point, fraction of the length from the same end.
    pub pickup_position: f64,
    /// Mallet head mass, kg.
    pub mallet_mass_kg: f64,
    /// The head's compression law.
    pub felt: FeltLaw,
    /// Distance from the bar when the mallet is released, m.
    pub start_gap_m: f64,
}

impl BarParams {
    /// Partial frequencies of the bar, Hz.
    pub fn partials_hz(&self) -> Vec<f64> {
        let beta1 = BETA_L[0];
        BETA_L[..self.t60_s.len().min(BETA_L.len())]
            .iter()
            .map(|b| self.fundamental_hz * (b / beta1).powi(2))
            .collect()
    }
}

impl Preset {
    /// The physical values of `key`'s bar and mallet; `None` unless the
    /// instrument's hammers strike bars.
    pub fn bar_params(&self, key: u8) -> Option<BarParams> {
        let topology = self.topology().ok()?;
        let Resonators::Bars(bars) = topology.resonators else {
            return None;
        };
        let mallets = topology.hammers;
        Some(BarParams {
            key,
            fundamental_hz: self.fundamental_hz(key),
            mass_kg: bars.mass_kg,
            t60_s: bars.t60_s.clone(),
            strike_position: topology.strike.position(key)?,
            pickup_position: bars.pickup_position,
            mallet_mass_kg: mallets.at(key, |a| a.mass_kg)?,
            felt: mallets.felt(key)?,
            start_gap_m: mallets.start_gap_m,
        })
    }
}

/// Why a bar cannot be built.
#[derive(Debug, Clone, PartialEq)]
pub enum BarError {
    /// Every mode has a node at the strike point or lies above Nyquist.
    NoModeStruck {
        /// MIDI key.
        key: u8,
    },
    /// The tree could not be built.
    Tree(TreeError),
}

impl std::fmt::Display for BarError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoModeStruck { key } => write!(
                f,
                "key {key}: the mallet strikes no mode of the bar below Nyquist"
            ),
            Self::Tree(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for BarError {}

/// Smallest size of a mode's shape at the strike point (of a mean square
/// of 1) that the strike excites: below it the point is a node of the mode.
const NODE_SHAPE: f64 = 1e-3;

/// Whether a strike at `position` (fraction of the length) excites any of the
/// bar's first `modes` modes, i.e. misses a node of at least one.
pub(crate) fn strikes_a_mode(position: f64, modes: usize) -> bool {
    (0..modes.min(BETA_L.len())).any(|n| mode_shape(n, position).abs() >= NODE_SHAPE)
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
    /// Pickup velocity below which the bar counts as silent, m/s.
    silence_threshold: f64,
    /// Consecutive samples below the silence threshold.
    quiet_samples: u32,
    /// Samples of silence after which the bar is put to rest: two periods of
    /// its fundamental.
    sleep_after: u32,
    sounding: bool,
    /// Whether the mallet has met the bar since it was last thrown.
    touched: bool,
    /// How many times the simulation went non-finite and was reset.
    non_finite_resets: u32,
}

impl MalletBar {
    /// The bar and mallet of `params` at `sample_rate` (Hz); the bar goes to rest
    /// once its pickup velocity stays below `silence_threshold` (m/s) for two
    /// periods.
    pub fn new(
        params: &BarParams,
        sample_rate: f64,
        silence_threshold: f64,
    ) -> Result<Self, BarError> {
        let strike = params.strike_position;
        let pickup = params.pickup_position;
        let partials = params.partials_hz();
        let mut branches = Vec::new();
        let mut weights = Vec::new();
        for (n, (&f, &t60)) in partials.iter().zip(&params.t60_s).enumerate() {
            let shape = mode_shape(n, strike);
            if shape.abs() < NODE_SHAPE || f >= 0.45 * sample_rate {
                continue; // a node at the strike point, or above Nyquist
            }
            let mass = params.mass_kg / (shape * shape);
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
        // The modes in series; a single mode is its own branch (a series
        // connection needs two children).
        let bar = match branches.len() {
            0 => return Err(BarError::NoModeStruck { key: params.key }),
            1 => branches.remove(0),
            _ => series(branches),
        };
        let description = TreeDescription::new(
            "felt",
            Element::Felt { law: params.felt },
            series([capacitor("mallet", params.mallet_mass_kg), bar]),
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
            start_gap_m: params.start_gap_m,
            silence_threshold,
            quiet_samples: 0,
            sleep_after: (2.0 * sample_rate / params.fundamental_hz).ceil() as u32,
            sounding: false,
            touched: false,
            non_finite_resets: 0,
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
        self.sounding = true;
        self.touched = false;
        self.quiet_samples = 0;
    }

    /// How many times the simulation went non-finite and was silenced.
    pub fn non_finite_resets(&self) -> u32 {
        self.non_finite_resets
    }

    /// Whether the bar is ringing or the mallet in flight.
    pub fn is_active(&self) -> bool {
        self.sounding
    }

    /// Whether `other` keeps the same modes in the same tree (the modes with a
    /// node at the strike point or above Nyquist are left out): what
    /// [`MalletBar::continue_from`] needs.
    pub fn same_shape(&self, other: &MalletBar) -> bool {
        self.tree.same_structure(&other.tree)
            && self.modes.len() == other.modes.len()
            && self.modes.iter().zip(&other.modes).all(|(a, b)| a.0 == b.0)
    }

    /// Carries on what `old` (this key's bar in another build of the same
    /// shape, see [`MalletBar::same_shape`]) was doing, with this bar's values:
    /// every mode's velocity and force, the mallet in flight or in contact,
    /// whether it sounds. A bar of another shape stays as it is.
    ///
    /// Allocates nothing.
    pub fn continue_from(&mut self, old: &MalletBar) {
        if !self.same_shape(old) {
            return;
        }
        self.tree.continue_from(&old.tree);
        self.quiet_samples = old.quiet_samples;
        self.sounding = old.sounding;
        self.touched = old.touched;
        self.non_finite_resets = old.non_finite_resets;
    }

    /// Brings bar and mallet to rest.
    pub fn reset(&mut self) {
        self.tree.reset();
        self.sounding = false;
        self.touched = false;
        self.quiet_samples = 0;
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

    /// Advances one sample; returns the bar's velocity at the pickup, m/s. A
    /// bar whose simulation goes non-finite is silenced and reset.
    pub fn tick(&mut self) -> f64 {
        self.tree.tick();
        let out: f64 = self
            .modes
            .iter()
            .map(|&(leaf, weight)| weight * self.tree.voltage(leaf))
            .sum();
        if !out.is_finite() {
            self.reset();
            self.non_finite_resets = self.non_finite_resets.saturating_add(1);
            return 0.0;
        }
        let touching = self.contact_force() > 0.0;
        self.touched |= touching;
        if out.abs() < self.silence_threshold && self.touched && !touching {
            self.quiet_samples = self.quiet_samples.saturating_add(1);
            // The mallet has left long ago once the bar has been quiet this
            // long after a strike; rest it exactly so it costs nothing.
            if self.quiet_samples > self.sleep_after && self.sounding {
                self.reset();
            }
        } else {
            self.quiet_samples = 0;
        }
        out
    }
}
