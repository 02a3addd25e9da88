//! One tine, the pin that plucks it and, on a bass tine, its damper, as a
//! wave-digital tree at the sample rate.
//!
//! The root is the Hertzian steel contact of pin and tip (`F = K·x^p`,
//! p = 1.5, Hunt–Crossley loss). Below it, in series (one force, the
//! velocities adding): the pin, a velocity source driven at the cylinder's
//! surface speed (a resistive voltage source in the mobility analogy, its
//! resistance negligible), and the tip, where the tine's modes
//! ([`crate::instrument::modes_in_series`]) and, on a bass tine, the damper
//! meet (in parallel: one velocity, their forces adding). The damper is a
//! soft, lossy pad (a second contact, `F = K·x·(1 + β·ẋ)`) on a wire the
//! pin pushes (a second velocity source). Two contacts in one tree: the
//! tree is a [`crate::wdf::MultiportTree`], its two nonlinear ports solved
//! jointly.
//!
//! A pluck: the pin starts the lead's distance before the tip. On a damped
//! tine it first lifts the damper's wire (for half the lead), pressing the
//! pad onto the tip, which stills a tine still ringing; when the pin
//! reaches the tip it passes the wire, the damper drops away, and the pin
//! bends the tip slowly (a fraction of a second at a music box's speed: the
//! tine follows quasi-statically) until the tip slips off the pin's end:
//! the contact opens at once and the tine rings. At that moment the tine
//! reports the contact's [`Rebound`], its impulse `∫F dt` the reaction the
//! cylinder felt.

use crate::instrument::{ModalVoice, ModesBranch, PointMode, Rebound, modes_in_series};
use crate::wdf::description::{element, parallel, series, voltage_source};
use crate::wdf::{Element, FeltLaw, PortId, SourceId, TreeDescription, TreeError};

use super::tine_tree::{PIN_CONTACT, TineTree};

/// Internal resistance of the pin's velocity source, s/kg: at a pluck's
/// tenth of a newton it slows the pin by 0.1 µm/s.
const PIN_RESISTANCE: f64 = 1e-6;

/// Speed of a tine's pickup point past which it has surely run away, m/s:
/// the hardest pluck the velocity curve allows (20 m/s) leaves a tine
/// moving at a few tens of metres per second, and a steel tine moving at a
/// kilometre per second is no longer simulating anything. Past it the
/// tine is silenced as a non-finite one is, before its motion overflows
/// the output.
const RUNAWAY_M_S: f64 = 1000.0;

/// Where the pin is put once it has let go, m from the tip: far beyond any
/// swing of the tine.
const GONE_M: f64 = 0.01;

/// The sign of the wire's velocity, in the tree, as the pin pushes it at
/// the tip: the pad sits on the pin's side and presses the tip the way the
/// pin will, but its branch hangs across the tip with the opposite
/// orientation to the pin's.
const WIRE_TOWARDS_TIP: f64 = -1.0;

/// A bass tine's damper: a pad on a wire that the pin presses onto the tip.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Damper {
    /// The pad's law on the tine: linear (`p = 1`), with Hunt–Crossley loss.
    pub pad: FeltLaw,
    /// How far the pin pushes the pad onto the tip at rest, m.
    pub press_m: f64,
}

/// A damper in a tine's tree.
#[derive(Debug, Clone, Copy)]
struct DamperPorts {
    pad: PortId,
    wire: SourceId,
    press_m: f64,
    /// Whether the pad is on its way to the tip or pressing it.
    engaged: bool,
}

/// A tine and its pin. Allocates in [`Tine::new`] only.
#[derive(Debug, Clone)]
pub struct Tine {
    /// The tine's modes in their tree, the pin's contact with the tip, and
    /// whether the tine sounds.
    voice: ModalVoice<TineTree>,
    pin: SourceId,
    damper: Option<DamperPorts>,
    /// Each kept mode's clamp weight, in the order of the modes.
    clamp_weights: Vec<f64>,
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
    period_s: f64,
}

impl Tine {
    /// A tine with `modes` (as the pin meets them, each with its clamp
    /// weight), plucked through the contact `law` by a pin that starts
    /// `lead_m` before the tip and lets go after bending it by `lift_m`,
    /// with `damper` if it has one.
    /// It rests once its pickup velocity stays below `silence_threshold`
    /// (m/s) for two periods of its first mode. Modes above 0.45 of
    /// `sample_rate` (Hz) are left out; `None` if none is left.
    pub fn new(
        modes: &[(PointMode, f64)],
        law: FeltLaw,
        (lead_m, lift_m): (f64, f64),
        damper: Option<Damper>,
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
        let tip = match damper {
            Some(damper) => parallel([
                branch,
                series([
                    element("pad", Element::Felt { law: damper.pad }),
                    voltage_source("wire", PIN_RESISTANCE),
                ]),
            ]),
            None => branch,
        };
        let description = TreeDescription::new(
            PIN_CONTACT,
            Element::Felt { law },
            series([voltage_source("pin", PIN_RESISTANCE), tip]),
        );
        let tree = TineTree::new(&description, sample_rate, damper.is_some())?;
        let damper = match damper {
            Some(damper) => Some(DamperPorts {
                pad: tree.port("pad")?,
                wire: tree.source("wire")?,
                press_m: damper.press_m,
                engaged: false,
            }),
            None => None,
        };
        let pin = tree.source("pin")?;
        let voice = ModalVoice::new(
            tree,
            &weights,
            point[0].frequency_hz,
            sample_rate,
            silence_threshold,
        )?
        .running_away_past(RUNAWAY_M_S);
        Ok(Some(Self {
            voice,
            pin,
            damper,
            clamp_weights: weights.iter().map(|&(n, _)| modes[n].1).collect(),
            lead_m,
            lift_m,
            pin_speed: 0.0,
            pin_travel_m: 0.0,
            plucking: false,
            period_s: 1.0 / sample_rate,
        }))
    }

    /// A pin comes at `speed_m_s` from the lead's distance before the tip;
    /// a tine still ringing is caught where it is. On a damped tine the
    /// pin pushes the damper's wire first: the pad starts as far from the
    /// tip as it will be pressed past it.
    pub fn pluck(&mut self, speed_m_s: f64) {
        let speed = self.voice.strike(speed_m_s, 1e-5);
        let tip = self.voice.velocity();
        let tree = self.voice.tree_mut();
        tree.set_source(self.pin, speed);
        tree.set_pin(-self.lead_m, speed - tip);
        if let Some(damper) = self.damper.as_mut() {
            damper.engaged = true;
            tree.set_source(damper.wire, WIRE_TOWARDS_TIP * speed);
            if let Some(pad) = tree.pad_mut(damper.pad) {
                pad.set_state(-damper.press_m, speed - tip);
            }
        }
        self.pin_speed = speed;
        self.pin_travel_m = 0.0;
        self.plucking = true;
    }

    /// The pin passes the damper's wire: the pad drops away from the tip.
    fn drop_damper(&mut self) {
        let tip = self.voice.velocity();
        if let Some(damper) = self.damper.as_mut() {
            damper.engaged = false;
            let tree = self.voice.tree_mut();
            tree.set_source(damper.wire, 0.0);
            if let Some(pad) = tree.pad_mut(damper.pad) {
                pad.set_state(-GONE_M, -tip);
            }
        }
    }

    /// The damper's wire, lifted by the pin for as far as it takes to
    /// press the pad onto the tip, is then held: the pin slides along it.
    /// Once the pin has reached the tip and bent it off the pad (which
    /// presses from the pin's side), the pin passes the wire and the damper
    /// drops away, touching nothing.
    fn drive_damper(&mut self) {
        let travel = self.pin_travel_m;
        let lead = self.lead_m;
        if let Some(damper) = self.damper.filter(|d| d.engaged) {
            if travel >= lead && self.damper_force() == 0.0 && self.contact_force() > 0.0 {
                self.drop_damper();
            } else if travel >= 2.0 * damper.press_m {
                self.voice.tree_mut().set_source(damper.wire, 0.0);
            }
        }
    }

    /// The pin leaves: the contact opens at once, far from the tip.
    fn slip_off(&mut self) {
        self.drop_damper();
        let tip = self.voice.velocity();
        let tree = self.voice.tree_mut();
        tree.set_source(self.pin, 0.0);
        tree.set_pin(-GONE_M, -tip);
        self.plucking = false;
    }

    /// How the tip last slipped off its pin (its speed, the largest force
    /// and the impulse of the pluck), once: `None` until it does again.
    pub fn take_let_go(&mut self) -> Option<Rebound> {
        self.voice.take_let_go()
    }

    /// Force of the pin on the tine, N.
    pub fn contact_force(&self) -> f64 {
        self.voice.tree().pin().0
    }

    /// Force of the damper's pad on the tine, N (zero for a tine without).
    pub fn damper_force(&self) -> f64 {
        self.damper
            .and_then(|damper| self.voice.tree().pad(damper.pad))
            .map_or(0.0, |pad| pad.force())
    }

    /// Force the tine puts on its clamp (the comb's base, the case), N.
    pub fn clamp_force(&self) -> f64 {
        self.voice
            .spring_forces()
            .zip(&self.clamp_weights)
            .map(|(force, &weight)| weight * force)
            .sum()
    }

    /// Each mode's state now, as `out(index, velocity, spring_force)`:
    /// its index among the modes the tine was built from, its velocity
    /// where the pin meets it (m/s) and the force in its spring (N).
    pub fn mode_states(&self, out: &mut dyn FnMut(usize, f64, f64)) {
        self.voice.mode_states(out);
    }

    /// Whether a pin is plucking or the tine rings.
    pub fn is_active(&self) -> bool {
        self.voice.is_active()
    }

    /// How many times the simulation went non-finite (or ran away past
    /// `RUNAWAY_M_S`) and was silenced.
    pub fn non_finite_resets(&self) -> u32 {
        self.voice.non_finite_resets()
    }

    /// Advances one sample; returns the tine's velocity at the pickup, m/s.
    pub fn tick(&mut self) -> f64 {
        let out = self.voice.tick();
        if self.voice.has_failed(out) {
            self.reset();
            return 0.0;
        }
        // The tine may rest only once no pin is at work this sample.
        let may_rest = !self.plucking;
        if self.plucking {
            self.pin_travel_m += self.pin_speed * self.period_s;
            self.drive_damper();
            let force = self.contact_force();
            let touching = self.voice.contact_mut().record(force);
            let compression = self.voice.tree().pin().1;
            let bend = self.pin_travel_m - self.lead_m - compression.max(0.0);
            if touching && bend >= self.lift_m {
                let tip = self.voice.velocity();
                self.voice.contact_mut().let_go(tip);
                self.slip_off();
            }
        }
        if self.voice.settle(out, may_rest) {
            self.reset();
        }
        out
    }

    /// Tine at rest, no pin near.
    pub fn reset(&mut self) {
        self.voice.reset();
        let tree = self.voice.tree_mut();
        tree.set_source(self.pin, 0.0);
        tree.set_pin(-GONE_M, 0.0);
        self.drop_damper();
        self.plucking = false;
        self.pin_travel_m = 0.0;
    }

    /// Whether `other` has the same tree with the same modes kept.
    pub fn same_shape(&self, other: &Tine) -> bool {
        self.voice.same_shape(&other.voice)
    }

    /// Carries on what `old` (this tine in another build of the same shape)
    /// was doing, with this tine's values. Allocates nothing.
    pub fn continue_from(&mut self, old: &Tine) {
        if !self.voice.continue_from(&old.voice) {
            return;
        }
        let pin_speed = if old.plucking { old.pin_speed } else { 0.0 };
        self.voice.tree_mut().set_source(self.pin, pin_speed);
        if let (Some(damper), Some(old_damper)) = (self.damper.as_mut(), old.damper) {
            damper.engaged = old_damper.engaged;
            let lifting = old_damper.engaged && old.pin_travel_m < 2.0 * old_damper.press_m;
            let wire = if lifting {
                WIRE_TOWARDS_TIP * old.pin_speed
            } else {
                0.0
            };
            self.voice.tree_mut().set_source(damper.wire, wire);
        }
        self.pin_speed = old.pin_speed;
        self.pin_travel_m = old.pin_travel_m;
        self.plucking = old.plucking;
    }
}
