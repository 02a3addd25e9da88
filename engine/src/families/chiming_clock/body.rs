//! The plate and case as one body that every blow leaves ringing.
//!
//! While two parts are in contact, the blow's own tree holds the body's
//! modes as seen where they meet ([`super::voices`]). Once they let go, each
//! mode rings on by itself: a mass, a spring and a damper with nothing
//! pushing. The tree hands the modes' states to this bank, which rings
//! every blow's modes on in one set of oscillators, so that a body struck
//! at many sites costs one body, not one per site.
//!
//! Each oscillator is the same trapezoidal (bilinear) discretisation the
//! tree's parallel mass, spring and damper are, with the same pre-warped
//! stiffness, so a mode rings on in the bank exactly as it would have in
//! its tree. A mode is kept in the units the ear weighs it with: its
//! velocity times its pickup weight (m/s), and its spring force times the
//! same weight over the mode's mass at the struck point (m/s²).

/// One mode: its one-sample update and its state.
#[derive(Debug, Clone, Copy, PartialEq)]
struct BankMode {
    /// The 2×2 update of (velocity, force over mass), row by row.
    update: [f64; 4],
    /// Weighted velocity, m/s.
    velocity: f64,
    /// Weighted spring force over mass, m/s².
    force_per_mass: f64,
}

/// The body's modes, ringing on after the blows.
///
/// Allocates in [`BodyModes::new`] only.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyModes {
    modes: Vec<BankMode>,
    /// Output below which the body counts as quiet, m/s.
    silence: f64,
    /// Samples of quiet after which it rests.
    rest_after: u32,
    quiet: u32,
    ringing: bool,
}

impl BodyModes {
    /// Modes at `(frequency_hz, t60_s)` at `sample_rate` (Hz); the body
    /// rests after its output stays below `silence` (m/s) for two periods of
    /// its lowest mode.
    pub fn new(modes: &[(f64, f64)], sample_rate: f64, silence: f64) -> Self {
        let h = 0.5 / sample_rate;
        let lowest = modes
            .iter()
            .map(|&(f, _)| f)
            .fold(f64::INFINITY, f64::min)
            .max(1.0);
        let modes = modes
            .iter()
            .map(|&(f, t60)| {
                // As the tree's mode: pre-warped so the bilinear transform
                // puts it exactly at f, and 60 dB down after t60.
                let omega = 2.0 * sample_rate * (std::f64::consts::PI * f / sample_rate).tan();
                let beta = 2.0 * 1000f64.ln() / t60;
                let w2 = omega * omega;
                // (I − A·h)⁻¹ (I + A·h) for A = [[−β, −1], [ω², 0]].
                let det = 1.0 + beta * h + w2 * h * h;
                let update = [
                    (1.0 - beta * h - w2 * h * h) / det,
                    -2.0 * h / det,
                    2.0 * w2 * h / det,
                    (1.0 + beta * h - w2 * h * h) / det,
                ];
                BankMode {
                    update,
                    velocity: 0.0,
                    force_per_mass: 0.0,
                }
            })
            .collect();
        Self {
            modes,
            silence,
            rest_after: (2.0 * sample_rate / lowest).ceil() as u32,
            quiet: 0,
            ringing: false,
        }
    }

    /// Adds a mode's state handed over by a blow's tree: `velocity` (m/s)
    /// and `spring_force` (N) at the struck point, the mode's `mass_kg`
    /// there and its `pickup` weight.
    pub fn take(
        &mut self,
        mode: usize,
        velocity: f64,
        spring_force: f64,
        mass_kg: f64,
        pickup: f64,
    ) {
        if let Some(m) = self.modes.get_mut(mode)
            && velocity.is_finite()
            && spring_force.is_finite()
        {
            m.velocity += pickup * velocity;
            m.force_per_mass += pickup * spring_force / mass_kg;
            self.ringing = true;
            self.quiet = 0;
        }
    }

    /// Whether any mode rings.
    pub fn is_ringing(&self) -> bool {
        self.ringing
    }

    /// Advances one sample; returns what the ear hears, m/s.
    pub fn tick(&mut self) -> f64 {
        if !self.ringing {
            return 0.0;
        }
        let mut out = 0.0;
        for m in &mut self.modes {
            let [a, b, c, d] = m.update;
            // The force term enters the velocity's equation with −1.
            let velocity = a * m.velocity + b * m.force_per_mass;
            let force = c * m.velocity + d * m.force_per_mass;
            m.velocity = velocity;
            m.force_per_mass = force;
            out += velocity;
        }
        if out.abs() < self.silence {
            self.quiet += 1;
            if self.quiet > self.rest_after {
                self.reset();
            }
        } else {
            self.quiet = 0;
        }
        out
    }

    /// Everything at rest.
    pub fn reset(&mut self) {
        for m in &mut self.modes {
            m.velocity = 0.0;
            m.force_per_mass = 0.0;
        }
        self.ringing = false;
        self.quiet = 0;
    }

    /// Carries on `old`'s ringing if it has the same modes (returns whether
    /// it did). Allocates nothing.
    pub fn continue_from(&mut self, old: &BodyModes) -> bool {
        if self.modes.len() != old.modes.len() {
            return false;
        }
        for (m, o) in self.modes.iter_mut().zip(&old.modes) {
            m.velocity = o.velocity;
            m.force_per_mass = o.force_per_mass;
        }
        self.ringing = old.ringing;
        self.quiet = old.quiet;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instrument::{MalletBar, PointMode, Striker};
    use crate::wdf::FeltLaw;

    /// A blow's modes handed to the bank ring on exactly as they would have
    /// in the blow's own tree.
    #[test]
    fn handed_over_modes_ring_on_as_in_their_tree() {
        let fs = 48_000.0;
        let modes = [
            (560.0, 0.4, 0.3, 0.8),
            (1_340.0, 0.17, 0.9, -0.4),
            (2_900.0, 0.08, 2.5, 1.3),
            (7_100.0, 0.03, 0.7, 0.2),
        ]
        .map(|(frequency_hz, t60_s, mass_kg, pickup)| PointMode {
            frequency_hz,
            t60_s,
            mass_kg,
            pickup,
        });
        let striker = Striker {
            mass_kg: 1e-3,
            law: FeltLaw::elastic(1e9, 1.5).with_hysteresis(0.5),
            start_gap_m: 1e-6,
        };
        let mut tree = MalletBar::from_modes(0, &modes, &striker, 500.0, fs, 0.0).unwrap();
        let pairs: Vec<(f64, f64)> = modes.iter().map(|m| (m.frequency_hz, m.t60_s)).collect();
        let mut body = BodyModes::new(&pairs, fs, 0.0);
        tree.strike(0.3);
        let mut handed = false;
        for _ in 0..200 {
            tree.tick();
            if tree.take_let_go().is_some() {
                tree.mode_states(&mut |n, velocity, force| {
                    body.take(n, velocity, force, modes[n].mass_kg, modes[n].pickup);
                });
                handed = true;
                break;
            }
        }
        assert!(handed, "the striker never let go");
        let mut largest: f64 = 0.0;
        for _ in 0..(0.3 * fs) as usize {
            let (in_tree, in_body) = (tree.tick(), body.tick());
            largest = largest.max(in_tree.abs());
            assert!(
                (in_tree - in_body).abs() <= 1e-9 * largest.max(1e-12),
                "{in_tree} in the tree, {in_body} in the bank"
            );
        }
        assert!(largest > 0.0);
    }
}
