//! One tine and the pin that plucks it, as a wave-digital tree at the
//! sample rate.
//!
//! The root is the Hertzian steel contact of pin and tip (`F = K·x^p`,
//! p = 1.5, Hunt–Crossley loss). Below it, in series (one force, the
//! velocities adding): the pin, a velocity source driven at the cylinder's
//! surface speed (a resistive voltage source in the mobility analogy, its
//! resistance negligible), and the tine's modes as the pin meets them
//! ([`crate::instrument::modes_in_series`]). The pin starts the lead's
//! distance before the tip, meets it and bends it slowly (a fraction of a
//! second at a music box's speed: the tine follows quasi-statically), and
//! when the tip has been bent by the lift it slips off the pin's end: the
//! contact opens at once and the tine rings. At that moment the tine
//! reports the contact's [`Rebound`], its impulse `∫F dt` the reaction the
//! cylinder felt.
//!
//! The tree is built with room to grow: a damper contact on a bass tine
//! (the lead engineer's multiport root) joins the same modes.

use crate::instrument::{ContactLog, ModesBranch, PointMode, Rebound, modes_in_series};
use crate::wdf::description::{series, voltage_source};
use crate::wdf::{Bct, Element, FeltLaw, LeafId, SourceId, TreeDescription, TreeError};

/// Internal resistance of the pin's velocity source, s/kg: at a pluck's
/// tenth of a newton it slows the pin by 0.1 µm/s.
const PIN_RESISTANCE: f64 = 1e-6;

/// Where the pin is put once it has let go, m from the tip: far beyond any
/// swing of the tine.
const GONE_M: f64 = 0.01;

/// A tine and its pin. Allocates in [`Tine::new`] only.
#[derive(Debug, Clone)]
pub struct Tine {
    tree: Bct,
    pin: SourceId,
    /// Each kept mode's mass leaf and pickup weight.
    modes: Vec<(LeafId, f64)>,
    /// Each kept mode's spring leaf, its index among the modes it was built
    /// from, and its clamp weight.
    springs: Vec<(LeafId, usize, f64)>,
    /// Distance the pin starts from the tip, m.
    lead_m: f64,
    /// Bend of the tip at which it slips off, m.
    lift_m: f64,
    /// Pin speed, m/s, while it plucks.
    pin_speed: f64,
    /// How far the pin has travelled since the pluck began, m.
    pin_travel_m: f64,
    /// Whether a pin is on its way or bending the tip.
    plucking: bool,
    /// The pin's contact with the tip: its record, and how it last let go
    /// until taken.
    contact: ContactLog,
    period_s: f64,
    silence_threshold: f64,
    quiet_samples: u32,
    sleep_after: u32,
    sounding: bool,
    non_finite_resets: u32,
}

impl Tine {
    /// A tine with `modes` (as the pin meets them, each with its clamp
    /// weight), plucked through the contact `law` by a pin that starts
    /// `lead_m` before the tip and lets go after bending it by `lift_m`.
    /// It rests once its pickup velocity stays below `silence_threshold`
    /// (m/s) for two periods of its first mode. Modes above 0.45 of
    /// `sample_rate` (Hz) are left out; `None` if none is left.
    pub fn new(
        modes: &[(PointMode, f64)],
        law: FeltLaw,
        lead_m: f64,
        lift_m: f64,
        sample_rate: f64,
        silence_threshold: f64,
    ) -> Result<Option<Self>, TreeError> {
        let point: Vec<PointMode> = modes.iter().map(|&(mode, _)| mode).collect();
        let Some(ModesBranch {
            branch, weights, ..
        }) = modes_in_series(&point, sample_rate, None)
        else {
            return Ok(None);
        };
        let description = TreeDescription::new(
            "contact",
            Element::Felt { law },
            series([voltage_source("pin", PIN_RESISTANCE), branch]),
        );
        let tree = Bct::new(&description, sample_rate)?;
        let springs = weights
            .iter()
            .map(|&(n, _)| Ok((tree.leaf(&format!("spring{n}"))?, n, modes[n].1)))
            .collect::<Result<_, TreeError>>()?;
        let mode_leaves = weights
            .iter()
            .map(|&(n, w)| Ok((tree.leaf(&format!("mode{n}"))?, w)))
            .collect::<Result<_, TreeError>>()?;
        Ok(Some(Self {
            pin: tree.source("pin")?,
            tree,
            modes: mode_leaves,
            springs,
            lead_m,
            lift_m,
            pin_speed: 0.0,
            pin_travel_m: 0.0,
            plucking: false,
            contact: ContactLog::new(sample_rate),
            period_s: 1.0 / sample_rate,
            silence_threshold,
            quiet_samples: 0,
            sleep_after: (2.0 * sample_rate / point[0].frequency_hz).ceil() as u32,
            sounding: false,
            non_finite_resets: 0,
        }))
    }

    /// A pin comes at `speed_m_s` from the lead's distance before the tip;
    /// a tine still ringing is caught where it is.
    pub fn pluck(&mut self, speed_m_s: f64) {
        let speed = if speed_m_s.is_finite() {
            speed_m_s.clamp(1e-5, 20.0)
        } else {
            1e-5
        };
        let tip = self.tip_velocity();
        self.tree.set_source(self.pin, speed);
        if let Some(contact) = self.tree.felt_mut() {
            contact.set_state(-self.lead_m, speed - tip);
        }
        self.pin_speed = speed;
        self.pin_travel_m = 0.0;
        self.plucking = true;
        self.sounding = true;
        self.quiet_samples = 0;
    }

    /// The pin leaves: the contact opens at once, far from the tip.
    fn slip_off(&mut self) {
        let tip = self.tip_velocity();
        self.tree.set_source(self.pin, 0.0);
        if let Some(contact) = self.tree.felt_mut() {
            contact.set_state(-GONE_M, -tip);
        }
        self.plucking = false;
    }

    /// How the tip last slipped off its pin (its speed, the largest force
    /// and the impulse of the pluck), once: `None` until it does again.
    pub fn take_let_go(&mut self) -> Option<Rebound> {
        self.contact.take_let_go()
    }

    /// Velocity of the tine where the pin meets it, m/s.
    fn tip_velocity(&self) -> f64 {
        self.modes
            .iter()
            .map(|&(leaf, _)| self.tree.voltage(leaf))
            .sum()
    }

    /// Force of the pin on the tine, N.
    pub fn contact_force(&self) -> f64 {
        self.tree.felt().map_or(0.0, |contact| contact.force())
    }

    /// Force the tine puts on its clamp (the comb's base, the case), N.
    pub fn clamp_force(&self) -> f64 {
        self.springs
            .iter()
            .map(|&(leaf, _, weight)| weight * self.tree.current(leaf))
            .sum()
    }

    /// Each mode's state now, as `out(index, velocity, spring_force)`:
    /// its index among the modes the tine was built from, its velocity
    /// where the pin meets it (m/s) and the force in its spring (N).
    pub fn mode_states(&self, out: &mut dyn FnMut(usize, f64, f64)) {
        for (&(mass, _), &(spring, index, _)) in self.modes.iter().zip(&self.springs) {
            out(index, self.tree.voltage(mass), self.tree.current(spring));
        }
    }

    /// Whether a pin is plucking or the tine rings.
    pub fn is_active(&self) -> bool {
        self.sounding
    }

    /// How many times the simulation went non-finite and was silenced.
    pub fn non_finite_resets(&self) -> u32 {
        self.non_finite_resets
    }

    /// Advances one sample; returns the tine's velocity at the pickup, m/s.
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
        if self.plucking {
            self.pin_travel_m += self.pin_speed * self.period_s;
            let touching = self.contact.record(self.contact_force());
            let compression = self.tree.felt().map_or(0.0, |c| c.compression());
            let bend = self.pin_travel_m - self.lead_m - compression.max(0.0);
            if touching && bend >= self.lift_m {
                self.contact.let_go(self.tip_velocity());
                self.slip_off();
            }
            self.quiet_samples = 0;
        } else if out.abs() < self.silence_threshold {
            self.quiet_samples = self.quiet_samples.saturating_add(1);
            if self.quiet_samples > self.sleep_after && self.sounding {
                self.reset();
            }
        } else {
            self.quiet_samples = 0;
        }
        out
    }

    /// Tine at rest, no pin near.
    pub fn reset(&mut self) {
        self.tree.reset();
        self.tree.set_source(self.pin, 0.0);
        if let Some(contact) = self.tree.felt_mut() {
            contact.set_state(-GONE_M, 0.0);
        }
        self.plucking = false;
        self.sounding = false;
        self.contact.reset();
        self.pin_travel_m = 0.0;
        self.quiet_samples = 0;
    }

    /// Whether `other` has the same tree with the same modes kept.
    pub fn same_shape(&self, other: &Tine) -> bool {
        self.tree.same_structure(&other.tree)
            && self.springs.len() == other.springs.len()
            && self
                .springs
                .iter()
                .zip(&other.springs)
                .all(|(a, b)| a.1 == b.1)
    }

    /// Carries on what `old` (this tine in another build of the same shape)
    /// was doing, with this tine's values. Allocates nothing.
    pub fn continue_from(&mut self, old: &Tine) {
        if !self.same_shape(old) {
            return;
        }
        self.tree.continue_from(&old.tree);
        self.tree
            .set_source(self.pin, if old.plucking { old.pin_speed } else { 0.0 });
        self.pin_speed = old.pin_speed;
        self.pin_travel_m = old.pin_travel_m;
        self.plucking = old.plucking;
        self.contact.continue_from(&old.contact);
        self.quiet_samples = old.quiet_samples;
        self.sounding = old.sounding;
        self.non_finite_resets = old.non_finite_resets;
    }
}
