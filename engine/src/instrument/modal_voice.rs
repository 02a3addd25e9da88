//! The voice of a body whose modes ring in a wave-digital tree, struck or
//! plucked through a contact: a mallet's bar ([`super::MalletBar`]), a music
//! box's tine. What every such voice keeps beside its striker: the modes
//! read at the struck point and at the pickup, the contact's record, and
//! when the body has gone quiet enough to rest or has run away.

use super::{ContactLog, Rebound};
use crate::wdf::{Bct, LeafId, TreeError};

/// The fastest strike a voice takes, m/s: the hardest the velocity curves
/// allow.
const FASTEST_STRIKE_M_S: f64 = 20.0;

/// A wave-digital tree a body's modes ring in, as its voice reads and runs
/// it (in the mobility analogy: velocities are voltages, forces currents).
pub trait ModalTree {
    /// The linear leaf called `name`.
    fn leaf(&self, name: &str) -> Result<LeafId, TreeError>;
    /// Velocity across `leaf` at the last sample, m/s.
    fn voltage(&self, leaf: LeafId) -> f64;
    /// Force through `leaf` at the last sample, N.
    fn current(&self, leaf: LeafId) -> f64;
    /// Advances one sample.
    fn tick(&mut self);
    /// Everything at rest.
    fn reset(&mut self);
    /// Whether `other` is built from the same structure, whatever its values.
    fn same_structure(&self, other: &Self) -> bool;
    /// Carries on `old`'s state; false, changing nothing, for another
    /// structure.
    fn continue_from(&mut self, old: &Self) -> bool;
}

impl ModalTree for Bct {
    fn leaf(&self, name: &str) -> Result<LeafId, TreeError> {
        Bct::leaf(self, name)
    }

    #[inline]
    fn voltage(&self, leaf: LeafId) -> f64 {
        Bct::voltage(self, leaf)
    }

    #[inline]
    fn current(&self, leaf: LeafId) -> f64 {
        Bct::current(self, leaf)
    }

    #[inline]
    fn tick(&mut self) {
        Bct::tick(self);
    }

    fn reset(&mut self) {
        Bct::reset(self);
    }

    fn same_structure(&self, other: &Self) -> bool {
        Bct::same_structure(self, other)
    }

    fn continue_from(&mut self, old: &Self) -> bool {
        Bct::continue_from(self, old)
    }
}

/// A body's modes in their tree `T` (built by
/// [`super::modes_in_series`]: mode `n` a mass `mode{n}` beside a spring
/// `spring{n}`), the contact that excites them, and whether they sound.
///
/// The body sounds from a strike until its pickup velocity has stayed below
/// a silence threshold for two periods of its lowest mode while its owner
/// lets it rest; then it is put to rest exactly, so that it costs nothing.
/// A body whose pickup goes non-finite, or past a speed at which it has
/// surely run away, is silenced and counted. Allocates in
/// [`ModalVoice::new`] only.
#[derive(Debug, Clone)]
pub struct ModalVoice<T> {
    tree: T,
    /// Each kept mode's mass leaf and its weight at the pickup.
    modes: Vec<(LeafId, f64)>,
    /// Each kept mode's spring leaf and its index among the modes the tree
    /// was built from.
    springs: Vec<(LeafId, usize)>,
    /// The striker's contact with the body: its record, and how it last let
    /// go until taken.
    contact: ContactLog,
    /// Pickup velocity below which the body counts as quiet, m/s.
    silence_threshold: f64,
    /// Pickup speed past which the body has run away, m/s.
    runaway_m_s: f64,
    /// Consecutive quiet samples while the body may rest.
    quiet_samples: u32,
    /// Quiet samples after which the body is put to rest: two periods of
    /// its lowest mode.
    sleep_after: u32,
    /// Whether the body sounds (or its striker is on its way).
    sounding: bool,
    /// How many times the simulation went non-finite or ran away and was
    /// silenced.
    non_finite_resets: u32,
}

impl<T: ModalTree> ModalVoice<T> {
    /// The modes of `tree` kept by [`super::modes_in_series`] (`weights`:
    /// each kept mode's index and pickup weight), sampled at `sample_rate`
    /// (Hz); the body rests once its pickup velocity stays below
    /// `silence_threshold` (m/s) for two periods of `lowest_hz`. Only a
    /// non-finite pickup counts as running away (see
    /// [`ModalVoice::running_away_past`]).
    ///
    /// Allocates: the modes' leaves.
    pub fn new(
        tree: T,
        weights: &[(usize, f64)],
        lowest_hz: f64,
        sample_rate: f64,
        silence_threshold: f64,
    ) -> Result<Self, TreeError> {
        let springs = weights
            .iter()
            .map(|&(n, _)| Ok((tree.leaf(&format!("spring{n}"))?, n)))
            .collect::<Result<_, TreeError>>()?;
        let modes = weights
            .iter()
            .map(|&(n, w)| Ok((tree.leaf(&format!("mode{n}"))?, w)))
            .collect::<Result<_, TreeError>>()?;
        Ok(Self {
            tree,
            modes,
            springs,
            contact: ContactLog::new(sample_rate),
            silence_threshold,
            runaway_m_s: f64::INFINITY,
            quiet_samples: 0,
            sleep_after: (2.0 * sample_rate / lowest_hz).ceil() as u32,
            sounding: false,
            non_finite_resets: 0,
        })
    }

    /// The same voice, silenced also once its pickup speed reaches
    /// `runaway_m_s` (m/s): a speed no strike it takes can give it.
    pub fn running_away_past(self, runaway_m_s: f64) -> Self {
        Self {
            runaway_m_s,
            ..self
        }
    }

    /// The tree.
    pub fn tree(&self) -> &T {
        &self.tree
    }

    /// The tree, to place its striker or change its fittings.
    pub fn tree_mut(&mut self) -> &mut T {
        &mut self.tree
    }

    /// The striker's contact record.
    pub fn contact(&self) -> &ContactLog {
        &self.contact
    }

    /// The striker's contact record, to record a sample or a let-go.
    pub fn contact_mut(&mut self) -> &mut ContactLog {
        &mut self.contact
    }

    /// A strike begins at `speed_m_s`: the body sounds. Returns the speed
    /// taken, m/s: within `slowest_m_s` and 20 m/s, the slowest for a
    /// non-finite one.
    pub fn strike(&mut self, speed_m_s: f64, slowest_m_s: f64) -> f64 {
        self.sounding = true;
        self.quiet_samples = 0;
        if speed_m_s.is_finite() {
            speed_m_s.clamp(slowest_m_s, FASTEST_STRIKE_M_S)
        } else {
            slowest_m_s
        }
    }

    /// Velocity of the body at the struck point, m/s: its modes' summed.
    pub fn velocity(&self) -> f64 {
        self.modes
            .iter()
            .map(|&(leaf, _)| self.tree.voltage(leaf))
            .sum()
    }

    /// Advances the tree one sample; returns the modes' velocity at the
    /// pickup, m/s.
    #[inline]
    pub fn tick(&mut self) -> f64 {
        self.tree.tick();
        self.modes
            .iter()
            .map(|&(leaf, weight)| weight * self.tree.voltage(leaf))
            .sum()
    }

    /// Whether the sample `out` (the pickup velocity, m/s) is non-finite or
    /// has run away; if so it is counted, and the owner resets the voice
    /// and sounds silence.
    #[inline]
    pub fn has_failed(&mut self, out: f64) -> bool {
        let failed = !out.is_finite() || out.abs() >= self.runaway_m_s;
        if failed {
            self.non_finite_resets = self.non_finite_resets.saturating_add(1);
        }
        failed
    }

    /// Counts the sample `out` (m/s) towards rest if it is quiet and the
    /// owner lets the body rest now (`may_rest`: no striker at work);
    /// returns whether the body has been quiet long enough while sounding,
    /// for the owner to reset it.
    #[inline]
    pub fn settle(&mut self, out: f64, may_rest: bool) -> bool {
        if may_rest && out.abs() < self.silence_threshold {
            self.quiet_samples = self.quiet_samples.saturating_add(1);
            self.quiet_samples > self.sleep_after && self.sounding
        } else {
            self.quiet_samples = 0;
            false
        }
    }

    /// How the striker last let go (its speed away, the contact's largest
    /// force and impulse), once: `None` until it lets go again.
    pub fn take_let_go(&mut self) -> Option<Rebound> {
        self.contact.take_let_go()
    }

    /// Whether the body sounds or a strike is under way.
    pub fn is_active(&self) -> bool {
        self.sounding
    }

    /// How many times the simulation went non-finite (or ran away) and was
    /// silenced.
    pub fn non_finite_resets(&self) -> u32 {
        self.non_finite_resets
    }

    /// The force in each kept mode's spring at the last sample (N), in the
    /// order of the modes.
    pub fn spring_forces(&self) -> impl Iterator<Item = f64> + '_ {
        self.springs
            .iter()
            .map(|&(leaf, _)| self.tree.current(leaf))
    }

    /// Each mode's state now, as `out(index, velocity, spring_force)`: its
    /// index among the modes the tree was built from, its velocity at the
    /// struck point (m/s) and the force in its spring (N). Modes left out
    /// (above Nyquist) are not reported.
    pub fn mode_states(&self, out: &mut dyn FnMut(usize, f64, f64)) {
        for (&(mass, _), &(spring, index)) in self.modes.iter().zip(&self.springs) {
            out(index, self.tree.voltage(mass), self.tree.current(spring));
        }
    }

    /// The tree at rest, the contact's record cleared, the body silent.
    pub fn reset(&mut self) {
        self.tree.reset();
        self.sounding = false;
        self.contact.reset();
        self.quiet_samples = 0;
    }

    /// Whether `other` has the same tree with the same modes kept (those
    /// with a node at the struck point or above Nyquist are left out): what
    /// [`ModalVoice::continue_from`] needs.
    pub fn same_shape(&self, other: &Self) -> bool {
        self.tree.same_structure(&other.tree)
            && self.modes.len() == other.modes.len()
            && self.modes.iter().zip(&other.modes).all(|(a, b)| a.0 == b.0)
            && self
                .springs
                .iter()
                .zip(&other.springs)
                .all(|(a, b)| a.1 == b.1)
    }

    /// Carries on what `old` (this voice in another build of the same
    /// shape) was doing, with this voice's values: every mode's velocity and
    /// force, the contact's record, whether it sounds. Returns false,
    /// changing nothing, for a voice of another shape.
    ///
    /// Allocates nothing.
    pub fn continue_from(&mut self, old: &Self) -> bool {
        if !self.same_shape(old) {
            return false;
        }
        self.tree.continue_from(&old.tree);
        self.contact.continue_from(&old.contact);
        self.quiet_samples = old.quiet_samples;
        self.sounding = old.sounding;
        self.non_finite_resets = old.non_finite_resets;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instrument::{PointMode, modes_in_series};
    use crate::wdf::description::{capacitor, series};
    use crate::wdf::{Element, FeltLaw, TreeDescription};

    const FS: f64 = 48_000.0;

    /// A mode at `frequency_hz` of 0.05 kg, ringing 1 s, heard as struck.
    fn mode(frequency_hz: f64) -> PointMode {
        PointMode {
            frequency_hz,
            t60_s: 1.0,
            mass_kg: 0.05,
            pickup: 1.0,
        }
    }

    /// A 10 g striker on `modes` behind a felt, as a voice resting below
    /// 1e-6 m/s after two periods of 480 Hz (200 samples).
    fn voice(modes: &[PointMode]) -> ModalVoice<Bct> {
        let kept = modes_in_series(modes, FS, None).expect("a mode below Nyquist");
        let description = TreeDescription::new(
            "felt",
            Element::Felt {
                law: FeltLaw::elastic(1e9, 2.5),
            },
            series([capacitor("striker", 0.01), kept.branch]),
        );
        let tree = Bct::new(&description, FS).unwrap();
        ModalVoice::new(tree, &kept.weights, 480.0, FS, 1e-6).unwrap()
    }

    /// A strike is taken within its range (the slowest for a non-finite
    /// one) and wakes the body.
    #[test]
    fn a_strike_wakes_the_body_at_a_speed_in_range() {
        let mut voice = voice(&[mode(480.0)]);
        assert!(!voice.is_active());
        assert_eq!(voice.strike(f64::NAN, 1e-3), 1e-3);
        assert!(voice.is_active());
        assert_eq!(voice.strike(50.0, 1e-3), FASTEST_STRIKE_M_S);
        assert_eq!(voice.strike(1e-6, 1e-3), 1e-3);
        assert_eq!(voice.strike(2.5, 1e-3), 2.5);
    }

    /// A sounding body rests on the 201st quiet sample in a row it may rest
    /// on, not before; a loud sample or a striker at work starts the count
    /// again; a silent body is never rested again.
    #[test]
    fn a_quiet_body_rests_after_two_periods_of_its_lowest_mode() {
        let mut voice = voice(&[mode(480.0)]);
        voice.strike(1.0, 1e-3);
        for _ in 0..150 {
            assert!(!voice.settle(0.0, true));
        }
        assert!(!voice.settle(1.0, true));
        assert!(!voice.settle(0.0, false));
        for _ in 0..200 {
            assert!(!voice.settle(0.0, true));
        }
        assert!(voice.settle(0.0, true));
        voice.reset();
        assert!(!voice.is_active());
        for _ in 0..1000 {
            assert!(!voice.settle(0.0, true));
        }
    }

    /// A non-finite pickup always fails, and is counted; a finite one only
    /// past the runaway speed the voice was given.
    #[test]
    fn non_finite_and_runaway_pickups_are_failures_counted() {
        let mut voice = voice(&[mode(480.0)]);
        assert!(voice.has_failed(f64::NAN));
        assert!(voice.has_failed(f64::NEG_INFINITY));
        assert!(!voice.has_failed(1e30));
        assert_eq!(voice.non_finite_resets(), 2);
        let mut voice = voice.running_away_past(1000.0);
        assert!(!voice.has_failed(-999.0));
        assert!(voice.has_failed(-1000.0));
        assert_eq!(voice.non_finite_resets(), 3);
    }

    /// A voice carries on only from one whose tree keeps the same modes:
    /// the same count of modes is not enough when other modes were kept (a
    /// mode above Nyquist left out), and then nothing changes.
    #[test]
    fn a_voice_continues_only_from_the_same_modes() {
        let mut ringing = voice(&[mode(480.0), mode(1300.0)]);
        ringing.strike(1.0, 1e-3);
        ringing.tree_mut().felt_mut().unwrap().set_state(0.0, 1.0);
        for _ in 0..100 {
            ringing.tick();
        }
        assert!(ringing.velocity() != 0.0);
        let mut same = voice(&[mode(480.0), mode(1300.0)]);
        assert!(same.continue_from(&ringing));
        assert!(same.is_active());
        assert_eq!(same.velocity(), ringing.velocity());
        // The same count of modes, the first left out above Nyquist.
        let mut other = voice(&[mode(30_000.0), mode(480.0), mode(1300.0)]);
        assert!(!other.same_shape(&ringing));
        assert!(!other.continue_from(&ringing));
        assert!(!other.is_active());
        assert_eq!(other.velocity(), 0.0);
    }
}
