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
//! A uniform bar's modes lie at `β_n² ∝ f_n`. Free at both ends, `β_n·L` =
//! 4.7300, 7.8532, 10.9956 (partials 1 : 2.7565 : 5.4039); clamped at one end
//! (a gong rod, a music-box tine), 1.8751, 4.6941, 7.8548 (partials
//! 1 : 6.267 : 17.55). Each mode's mass seen at a point `x` is the bar's mass
//! over the mode shape's square there (shapes normalised to a mean square of
//! 1 over the bar).
//!
//! The same tree serves any body whose modes are known at the struck point
//! ([`PointMode`], [`MalletBar::from_modes`]): a clock's plate and case struck
//! by an escape wheel's tooth.

use super::bar_fittings::{BarFittings, HelmholtzBox, NECK, t60_dashpot_kg_s};
use super::modal_voice::ModalVoice;
use super::preset::{BarEnds, NODE_SHAPE};
use super::{Preset, Rebound};
use crate::wdf::description::Connection;
use crate::wdf::description::{capacitor, inductor, parallel, resistor, series};
use crate::wdf::{Bct, Element, FeltLaw, LeafId, Patch, TreeDescription, TreeError};

/// One mode of a body as a striker sees it at the point it strikes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointMode {
    /// Frequency, Hz.
    pub frequency_hz: f64,
    /// 60 dB decay time, s.
    pub t60_s: f64,
    /// The mode's mass seen at the struck point, kg: its modal mass over
    /// the square of its shape there.
    pub mass_kg: f64,
    /// Weight of the mode's velocity at the struck point in the output (the
    /// shape at the pickup over the shape at the struck point).
    pub pickup: f64,
}

/// Everything needed to build one key's bar and mallet.
#[derive(Debug, Clone, PartialEq)]
pub struct BarParams {
    /// MIDI key.
    pub key: u8,
    /// How the bar is held.
    pub ends: BarEnds,
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
        self.ends
            .partial_ratios(self.t60_s.len())
            .map(|ratio| self.fundamental_hz * ratio)
            .collect()
    }

    /// The mallet (or hammer) that strikes the bar.
    pub fn striker(&self) -> Striker {
        Striker {
            mass_kg: self.mallet_mass_kg,
            law: self.felt,
            start_gap_m: self.start_gap_m,
        }
    }

    /// The bar's modes seen at the strike point (those with a node there
    /// left out), weighted for the pickup.
    pub fn point_modes(&self) -> Vec<PointMode> {
        self.point_modes_at(&self.partials_hz())
    }

    /// The bar's modes seen at the strike point, as [`BarParams::point_modes`],
    /// with mode `n` at `partials[n]` (Hz) instead of the uniform bar's
    /// frequency: a bar whose tuning cuts moved its partials (the shapes,
    /// and so the masses at the strike point, are the uniform bar's).
    pub fn point_modes_at(&self, partials: &[f64]) -> Vec<PointMode> {
        let mut modes = Vec::with_capacity(partials.len());
        for (n, (&f, &t60)) in partials.iter().zip(&self.t60_s).enumerate() {
            let shape = self.ends.mode_shape(n, self.strike_position);
            if shape.abs() < NODE_SHAPE {
                continue;
            }
            modes.push(PointMode {
                frequency_hz: f,
                t60_s: t60,
                mass_kg: self.mass_kg / (shape * shape),
                pickup: self.ends.mode_shape(n, self.pickup_position) / shape,
            });
        }
        modes
    }
}

impl Preset {
    /// The physical values of `key`'s bar and mallet; `None` unless the
    /// instrument's hammers strike bars.
    pub fn bar_params(&self, key: u8) -> Option<BarParams> {
        let topology = self.topology().ok()?;
        let (bars, ends) = topology.bars()?;
        let mallets = topology.hammers;
        Some(BarParams {
            key,
            ends,
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

/// What strikes a body: a mass behind a contact law.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Striker {
    /// Mass, kg.
    pub mass_kg: f64,
    /// The contact's compression law (a felt, a leather face, a Hertzian
    /// steel-on-steel contact: `F = K·x^p`).
    pub law: FeltLaw,
    /// Distance from the body when it is thrown, m.
    pub start_gap_m: f64,
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

/// A body's modes as seen at one point, as a wave-digital branch (see
/// [`modes_in_series`]).
#[derive(Debug, Clone)]
pub struct ModesBranch {
    /// Each mode a mass `mode{n}`, a spring `spring{n}` and a damper
    /// `loss{n}` in parallel, the modes in series (the point's velocity is
    /// the sum of theirs).
    pub branch: Connection,
    /// Each kept mode's index among those given and its pickup weight.
    pub weights: Vec<(usize, f64)>,
    /// Each kept mode's loss leaf, mass (kg) and own damping (kg/s).
    pub losses: Vec<(String, f64, f64)>,
    /// Whether a resonator box hangs on the first mode.
    pub boxed: bool,
}

/// `modes` (as seen at one point) as a wave-digital branch, with
/// `resonator` on the first mode if it is given and that mode is kept.
/// Modes at or above 0.45 of `sample_rate` (Hz) are left out; `None` if
/// none is left.
pub fn modes_in_series(
    modes: &[PointMode],
    sample_rate: f64,
    resonator: Option<HelmholtzBox>,
) -> Option<ModesBranch> {
    let mut branches = Vec::new();
    let mut weights = Vec::new();
    let mut losses = Vec::new();
    let mut boxed = false;
    for (n, mode) in modes.iter().enumerate() {
        let f = mode.frequency_hz;
        if f >= 0.45 * sample_rate {
            continue; // above Nyquist
        }
        let mass = mode.mass_kg;
        // Pre-warped so the bilinear transform puts the mode exactly at f.
        let omega = 2.0 * sample_rate * (std::f64::consts::PI * f / sample_rate).tan();
        let stiffness = mass * omega * omega;
        let damping = t60_dashpot_kg_s(mass, mode.t60_s);
        let loss = format!("loss{n}");
        let mut parts = vec![
            capacitor(&format!("mode{n}"), mass),
            inductor(&format!("spring{n}"), 1.0 / stiffness),
            resistor(&loss, 1.0 / damping),
        ];
        losses.push((loss, mass, damping));
        if let Some(resonator) = resonator.filter(|_| n == 0) {
            parts.push(resonator.branch(mass, omega));
            boxed = true;
        }
        branches.push(parallel(parts));
        weights.push((n, mode.pickup));
    }
    // The modes in series; a single mode is its own branch (a series
    // connection needs two children).
    let branch = match branches.len() {
        0 => return None,
        1 => branches.remove(0),
        _ => series(branches),
    };
    Some(ModesBranch {
        branch,
        weights,
        losses,
        boxed,
    })
}

/// A damper's two settings, as patches of the modes' loss leaves (applied
/// in order, all of one set after all of the other).
#[derive(Debug, Clone)]
struct DamperPatches {
    /// Pressed on the bar.
    down: Vec<Patch>,
    /// Lifted off it.
    up: Vec<Patch>,
    /// Whether it is pressed on the bar now.
    is_down: bool,
}

/// One struck bar.
#[derive(Debug, Clone)]
pub struct MalletBar {
    /// The bar's modes in their tree, the mallet's contact, and whether the
    /// bar sounds.
    voice: ModalVoice<Bct>,
    mallet: LeafId,
    /// The resonator box's neck mass leaf and its mouth's weight in the output.
    mouth: Option<(LeafId, f64)>,
    /// The damper, if the bar has one.
    damper: Option<DamperPatches>,
    start_gap_m: f64,
    /// Whether the mallet has met the bar since it was last thrown.
    touched: bool,
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
        Self::from_modes(
            params.key,
            &params.point_modes(),
            &params.striker(),
            params.fundamental_hz,
            sample_rate,
            silence_threshold,
        )
    }

    /// A body with `modes` (as seen at the struck point) struck by
    /// `striker`; `key` names it in errors. It goes to rest once its pickup
    /// velocity stays below `silence_threshold` (m/s) for two periods of
    /// `lowest_hz`. Modes at or above 0.45 of `sample_rate` (Hz) are left out.
    pub fn from_modes(
        key: u8,
        modes: &[PointMode],
        striker: &Striker,
        lowest_hz: f64,
        sample_rate: f64,
        silence_threshold: f64,
    ) -> Result<Self, BarError> {
        Self::with_fittings(
            key,
            modes,
            striker,
            &BarFittings::default(),
            (lowest_hz, sample_rate, silence_threshold),
        )
    }

    /// A bar as [`MalletBar::from_modes`] builds it, with `fittings` mounted:
    /// a resonator box on the first of `modes` (if it lies below Nyquist), a damper
    /// (down at first). `rates` are the lowest frequency (Hz), the sample
    /// rate (Hz) and the silence threshold (m/s) of `from_modes`.
    ///
    /// Allocates: the tree and the damper's patches.
    pub fn with_fittings(
        key: u8,
        modes: &[PointMode],
        striker: &Striker,
        fittings: &BarFittings,
        (lowest_hz, sample_rate, silence_threshold): (f64, f64, f64),
    ) -> Result<Self, BarError> {
        let Some(ModesBranch {
            branch: bar,
            weights,
            losses,
            boxed,
        }) = modes_in_series(modes, sample_rate, fittings.resonator)
        else {
            return Err(BarError::NoModeStruck { key });
        };
        let description = TreeDescription::new(
            "felt",
            Element::Felt { law: striker.law },
            series([capacitor("mallet", striker.mass_kg), bar]),
        );
        let mut tree = Bct::new(&description, sample_rate).map_err(BarError::Tree)?;
        let mouth = match fittings.resonator {
            Some(resonator) if boxed => Some((
                tree.leaf(NECK).map_err(BarError::Tree)?,
                resonator.mouth_gain,
            )),
            _ => None,
        };
        let damper = match fittings.damper_t60_s {
            Some(t60_s) => {
                let mut planner = tree.planner();
                let mut patches = |pressed: bool| {
                    losses
                        .iter()
                        .map(|(leaf, mass, damping)| {
                            let extra = if pressed {
                                t60_dashpot_kg_s(*mass, t60_s)
                            } else {
                                0.0
                            };
                            let ohms = 1.0 / (damping + extra);
                            planner
                                .set_element(leaf, Element::Resistor { ohms })
                                .map_err(BarError::Tree)
                        })
                        .collect::<Result<Vec<_>, _>>()
                };
                let down = patches(true)?;
                let up = patches(false)?;
                // A bar at rest has its damper on it.
                for patch in &down {
                    tree.apply_patch(patch);
                }
                Some(DamperPatches {
                    down,
                    up,
                    is_down: true,
                })
            }
            None => None,
        };

        let voice = ModalVoice::new(tree, &weights, lowest_hz, sample_rate, silence_threshold)
            .map_err(BarError::Tree)?;
        Ok(Self {
            mallet: voice.tree().leaf("mallet").map_err(BarError::Tree)?,
            voice,
            mouth,
            damper,
            start_gap_m: striker.start_gap_m,
            touched: false,
        })
    }

    /// Throws the mallet at the bar at `speed_m_s` from its start gap; a bar
    /// still ringing is struck where it is.
    pub fn strike(&mut self, speed_m_s: f64) {
        let speed = self.voice.strike(speed_m_s, 1e-3);
        let bar_velocity = self.voice.velocity();
        let tree = self.voice.tree_mut();
        tree.set_reactive_state(self.mallet, speed);
        if let Some(felt) = tree.felt_mut() {
            felt.set_state(-self.start_gap_m, speed - bar_velocity);
        }
        self.touched = false;
    }

    /// How the mallet last let go of the bar (its speed away from it and
    /// the contact's largest force), once: `None` until it lets go again.
    pub fn take_let_go(&mut self) -> Option<Rebound> {
        self.voice.take_let_go()
    }

    /// How many times the simulation went non-finite and was silenced.
    pub fn non_finite_resets(&self) -> u32 {
        self.voice.non_finite_resets()
    }

    /// Whether the bar is ringing or the mallet in flight.
    pub fn is_active(&self) -> bool {
        self.voice.is_active()
    }

    /// Whether `other` keeps the same modes in the same tree (the modes with a
    /// node at the strike point or above Nyquist are left out): what
    /// [`MalletBar::continue_from`] needs.
    pub fn same_shape(&self, other: &MalletBar) -> bool {
        self.voice.same_shape(&other.voice)
    }

    /// Carries on what `old` (this key's bar in another build of the same
    /// shape, see [`MalletBar::same_shape`]) was doing, with this bar's values:
    /// every mode's velocity and force, the mallet in flight or in contact,
    /// whether it sounds. A bar of another shape stays as it is.
    ///
    /// Allocates nothing.
    pub fn continue_from(&mut self, old: &MalletBar) {
        if !self.voice.continue_from(&old.voice) {
            return;
        }
        if let Some(old_damper) = &old.damper {
            self.set_damper(old_damper.is_down);
        }
        self.touched = old.touched;
    }

    /// Brings bar and mallet to rest.
    pub fn reset(&mut self) {
        self.voice.reset();
        self.touched = false;
    }

    /// Each mode's state now, as `out(index, velocity, spring_force)`: its
    /// index among the modes the bar was built from, its velocity at the
    /// struck point (m/s) and the force in its spring (N). Modes left out
    /// (above Nyquist) are not reported.
    pub fn mode_states(&self, out: &mut dyn FnMut(usize, f64, f64)) {
        self.voice.mode_states(out);
    }

    /// Presses the bar's damper on it (`down`) or lifts it; nothing for a bar
    /// without one.
    ///
    /// Allocates nothing.
    pub fn set_damper(&mut self, down: bool) {
        if let Some(damper) = &mut self.damper
            && damper.is_down != down
        {
            for patch in if down { &damper.down } else { &damper.up } {
                self.voice.tree_mut().apply_patch(patch);
            }
            damper.is_down = down;
        }
    }

    /// Whether the bar's damper is pressed on it (false for a bar without one).
    pub fn damper_down(&self) -> bool {
        self.damper.as_ref().is_some_and(|d| d.is_down)
    }

    /// The felt's present contact force, N.
    pub fn contact_force(&self) -> f64 {
        self.voice.tree().felt().map_or(0.0, |felt| felt.force())
    }

    /// Advances one sample; returns the bar's velocity at the pickup, m/s. A
    /// bar whose simulation goes non-finite is silenced and reset.
    pub fn tick(&mut self) -> f64 {
        let mut out = self.voice.tick();
        // Added only where there is a box, so that a bar without one sums
        // exactly as before (not even a zero's sign changes).
        if let Some((neck, gain)) = self.mouth {
            out += gain * self.voice.tree().voltage(neck);
        }
        if self.voice.has_failed(out) {
            self.reset();
            return 0.0;
        }
        let was_touching = self.voice.contact().is_touching();
        let force = self.contact_force();
        let touching = self.voice.contact_mut().record(force);
        if was_touching && !touching {
            let parting = self.voice.velocity() - self.voice.tree().voltage(self.mallet);
            self.voice.contact_mut().let_go(parting);
        }
        self.touched |= touching;
        // The mallet has left long ago once the bar has been quiet this long
        // after a strike; rest it exactly so it costs nothing.
        if self.voice.settle(out, self.touched && !touching) {
            self.reset();
        }
        out
    }
}
