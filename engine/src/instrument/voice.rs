//! One key of a struck-string instrument: a felt hammer and the note's strings.

use super::KeyParams;
use super::strike::{ContactTrace, PulseCounter, StrikeReport};
use crate::resonators::{StringDesignError, Unison};
use crate::wdf::description::{capacitor, element, series};
use crate::wdf::{Bct, Element, FeltRoot, LeafId, SourceId, TreeDescription, TreeError};

/// The hammer leaves the tree once it is this many start gaps away from the string
/// (the proximity condition of seed 004, Section 4, ceases to hold).
const PROXIMITY_GAPS: f64 = 2.0;

/// Longest a hammer stays grafted to its string after a strike, s: by then a real
/// action's backcheck has caught it.
const MAX_FLIGHT_S: f64 = 0.25;

/// How much of a strike's contact force the [`ContactTrace`] keeps, s.
const TRACE_S: f64 = 0.025;

/// The flight of a hammer between its release and its pruning.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Flight {
    /// Samples since release.
    age: u64,
    /// Whether the felt pushed on the string at the previous sample.
    was_touching: bool,
    /// Force pulses so far.
    pulses: PulseCounter,
}

/// The hammer as a wave-digital tree, grafted onto the string while it is near.
///
/// Description: the felt is the root; below it, in series (the same force acts on
/// both), the hammer mass (a capacitor of `m` kg, its voltage the hammer velocity)
/// and the strings' contact point (a resistive source of `1/Σ 2·Z0` over the
/// struck strings, whose EMF is minus the velocity the arriving waves would give
/// the point).
#[derive(Debug, Clone)]
struct HammerTree {
    tree: Bct,
    mass: LeafId,
    contact_leaf: LeafId,
    contact: SourceId,
}

impl HammerTree {
    /// The hammer of a note with `strings` strings, striking `struck` of them
    /// through a port of resistance `contact_resistance` (s/kg).
    ///
    /// Preset anchors give the hammer's mass and the felt's stiffness per
    /// string, as in Chaigne & Askenfelt's single-string model (REFERENCE.md's
    /// 2.97 g at C4 is a third of a real C4 hammer): the whole hammer weighs
    /// `strings` times as much, and its felt, pressing on `struck` strings side
    /// by side, is `struck` times as stiff. Each struck string then meets the
    /// same hammer as in the single-string model.
    fn new(
        params: &KeyParams,
        strings: usize,
        struck: usize,
        contact_resistance: f64,
        sample_rate: f64,
    ) -> Result<Self, TreeError> {
        let mut law = params.felt;
        law.stiffness *= struck as f64;
        let description = TreeDescription::new(
            "felt",
            Element::Felt { law },
            series([
                capacitor("hammer", params.hammer_mass_kg * strings as f64),
                element(
                    "string",
                    Element::ResistiveVoltageSource {
                        volts: 0.0,
                        ohms: contact_resistance,
                    },
                ),
            ]),
        );
        let tree = Bct::new(&description, sample_rate)?;
        Ok(Self {
            mass: tree.leaf("hammer")?,
            contact_leaf: tree.leaf("string")?,
            contact: tree.source("string")?,
            tree,
        })
    }

    fn felt(&self) -> &FeltRoot {
        self.tree.felt().expect("the hammer tree's root is a felt")
    }
}

/// Why a key could not be built.
#[derive(Debug, Clone, PartialEq)]
pub enum VoiceError {
    /// The string cannot be built at this sample rate.
    String(StringDesignError),
    /// The hammer's tree is invalid (a value out of range).
    Hammer(TreeError),
}

impl std::fmt::Display for VoiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::String(e) => e.fmt(f),
            Self::Hammer(e) => write!(f, "hammer: {e}"),
        }
    }
}

impl std::error::Error for VoiceError {}

/// A key's strings and the hammer that strikes them.
///
/// Allocates: the strings' delay lines, one hammer tree per subset of strings
/// the hammer can strike (for una corda) and the contact trace, in
/// [`StruckString::new`]; nothing after.
#[derive(Debug, Clone)]
pub struct StruckString {
    params: KeyParams,
    sample_rate: f64,
    start_gap_m: f64,
    string: Unison,
    /// Hammer trees for each nonempty subset of strings (index = mask − 1).
    hammers: Vec<HammerTree>,
    /// Index into `hammers` chosen for the next strike.
    selected_hammer: usize,
    /// Index into `hammers` of the tree of the current (or last) flight.
    hammer_in_use: usize,
    flight: Option<Flight>,
    report: StrikeReport,
    trace: ContactTrace,
    /// Consecutive samples with the bridge force below the silence threshold.
    quiet_samples: u32,
    /// Bridge force below which the string counts as silent, N.
    silence_threshold_n: f64,
    sounding: bool,
    /// How many times the simulation went non-finite and was reset.
    non_finite_resets: u32,
}

impl StruckString {
    /// Builds the key at `sample_rate` (Hz). `silence_threshold_n` is the bridge
    /// force (N) below which a string that has rung for a whole period goes to sleep.
    pub fn new(
        params: KeyParams,
        sample_rate: f64,
        start_gap_m: f64,
        damper_t60_s: f64,
        damper_travel_s: f64,
        silence_threshold_n: f64,
    ) -> Result<Self, VoiceError> {
        let mut string = Unison::new(&params.unison(damper_t60_s, damper_travel_s), sample_rate)
            .map_err(VoiceError::String)?;
        let masks = (1u8 << string.len()) - 1;
        let mut hammers = Vec::with_capacity(usize::from(masks));
        for mask in 1..=masks {
            string.set_struck_strings(mask);
            hammers.push(
                HammerTree::new(
                    &params,
                    string.len(),
                    mask.count_ones() as usize,
                    string.contact_resistance(),
                    sample_rate,
                )
                .map_err(VoiceError::Hammer)?,
            );
        }
        string.set_struck_strings(masks);
        let all = hammers.len() - 1;
        Ok(Self {
            hammers,
            selected_hammer: all,
            hammer_in_use: all,
            params,
            sample_rate,
            start_gap_m,
            string,
            flight: None,
            report: StrikeReport::default(),
            trace: ContactTrace::new(TRACE_S, sample_rate),
            quiet_samples: 0,
            silence_threshold_n,
            sounding: false,
            non_finite_resets: 0,
        })
    }

    /// The physical values of this key.
    pub fn params(&self) -> &KeyParams {
        &self.params
    }

    /// The note's strings.
    pub fn string(&self) -> &Unison {
        &self.string
    }

    /// Chooses which of the note's strings the next strikes hit: bit `i` for string
    /// `i` (una corda moves the hammers to strike fewer). Bits for strings the note
    /// lacks are ignored; a mask with none left selects all. Takes effect at the
    /// next [`StruckString::strike`]; a hammer in flight keeps its strings.
    pub fn set_struck_strings(&mut self, mask: u8) {
        let all = (1u8 << self.string.len()) - 1;
        let mask = match mask & all {
            0 => all,
            m => m,
        };
        self.selected_hammer = usize::from(mask) - 1;
    }

    /// The strings the current (or last) strike hit: bit `i` for string `i`.
    pub fn struck_strings(&self) -> u8 {
        self.hammer_in_use as u8 + 1
    }

    /// Hammer velocity (m/s, towards the string) while it is grafted to the string.
    pub fn hammer_velocity(&self) -> Option<f64> {
        self.flight.map(|_| {
            self.hammers[self.hammer_in_use]
                .tree
                .voltage(self.hammers[self.hammer_in_use].mass)
        })
    }

    /// What the last strike did.
    pub fn report(&self) -> &StrikeReport {
        &self.report
    }

    /// The contact force and felt compression of the last strike, from its first
    /// touch (up to 25 ms).
    pub fn contact_trace(&self) -> &ContactTrace {
        &self.trace
    }

    /// How many times this key's simulation went non-finite and was silenced.
    pub fn non_finite_resets(&self) -> u32 {
        self.non_finite_resets
    }

    /// Whether the string is sounding or a hammer is in flight.
    pub fn is_active(&self) -> bool {
        self.sounding || self.flight.is_some()
    }

    /// Releases the hammer towards the string at `speed_m_s` from the start gap and
    /// lifts the damper. A string still ringing is struck where it is.
    pub fn strike(&mut self, speed_m_s: f64) {
        let speed = if speed_m_s.is_finite() {
            speed_m_s.max(1e-3)
        } else {
            1e-3
        };
        if self.flight.is_none() {
            self.hammer_in_use = self.selected_hammer;
            self.string.set_struck_strings(self.hammer_in_use as u8 + 1);
        }
        let closing_rate = speed - self.string.free_velocity();
        let hammer = &mut self.hammers[self.hammer_in_use];
        let tree = &mut hammer.tree;
        tree.reset();
        tree.set_reactive_state(hammer.mass, speed);
        if let Some(felt) = tree.felt_mut() {
            felt.set_state(-self.start_gap_m, closing_rate);
        }
        self.flight = Some(Flight {
            age: 0,
            was_touching: false,
            pulses: PulseCounter::default(),
        });
        self.trace.clear();
        self.report = StrikeReport {
            strike_speed_m_s: speed,
            ..StrikeReport::default()
        };
        self.string.set_damper(0.0);
        self.quiet_samples = 0;
        self.sounding = true;
    }

    /// Lowers (`true`) or lifts (`false`) the damper.
    pub fn set_damper(&mut self, engaged: bool) {
        self.string.set_damper(if engaged { 1.0 } else { 0.0 });
    }

    /// Sets how hard the damper presses, 0 (lifted) to 1 (down); in between it
    /// only partly damps (half-pedalling). Clamped to [0, 1].
    pub fn set_damper_amount(&mut self, amount: f64) {
        self.string.set_damper(amount);
    }

    /// Advances one sample; returns the bridge force, N.
    #[inline]
    pub fn tick(&mut self) -> f64 {
        let force = if self.flight.is_some() {
            let hammer = &mut self.hammers[self.hammer_in_use];
            hammer
                .tree
                .set_source(hammer.contact, -self.string.free_velocity());
            hammer.tree.tick();
            // The same force acts on hammer and string; into the string's port
            // flows −F.
            -hammer.tree.current(hammer.contact_leaf)
        } else {
            0.0
        };
        let bridge = self.string.step(force);
        let hammer_finite = self.flight.is_none()
            || (self.hammers[self.hammer_in_use]
                .felt()
                .compression()
                .is_finite()
                && force.is_finite());
        if !(bridge.is_finite() && hammer_finite) {
            // Contain the fault: this key falls silent instead of poisoning the mix.
            self.reset();
            self.non_finite_resets = self.non_finite_resets.saturating_add(1);
            return 0.0;
        }
        if self.flight.is_some() {
            self.track_contact();
        }
        if bridge.abs() < self.silence_threshold_n {
            self.quiet_samples = self.quiet_samples.saturating_add(1);
            self.sleep_if_silent();
        } else {
            self.quiet_samples = 0;
        }
        bridge
    }

    /// Puts the string to sleep (exactly at rest) once every wave on it has passed
    /// the bridge below the silence threshold, with no hammer near. Deciding this per
    /// sample keeps the output independent of how audio is divided into blocks.
    fn sleep_if_silent(&mut self) {
        if self.sounding
            && self.flight.is_none()
            && f64::from(self.quiet_samples) > self.string.period_samples() + 2.0
        {
            self.string.reset();
            self.sounding = false;
        }
    }

    /// Updates the strike report and the contact trace, and prunes the hammer's
    /// tree when it has gone. The tree is pruned only while the felt carries no
    /// force, so pruning never changes the force on the string (no click): once
    /// the hammer has touched and is two start gaps away, or once the action's
    /// backcheck would have caught it.
    fn track_contact(&mut self) {
        let Some(flight) = self.flight.as_mut() else {
            return;
        };
        flight.age += 1;
        let t = flight.age as f64 / self.sample_rate;
        let felt = self.hammers[self.hammer_in_use].felt();
        let (force, compression) = (felt.force(), felt.compression());
        let report = &mut self.report;
        let touching = force > 0.0;
        if touching && !flight.was_touching {
            report.contacts += 1;
            if report.first_touch_s.is_none() {
                report.first_touch_s = Some(t);
            }
        }
        if !touching && flight.was_touching {
            report.last_release_s = Some(t);
            if report.contacts == 1 {
                report.contact_duration_s = Some(t - report.first_touch_s.unwrap_or(t));
                report.rebound_velocity_m_s = Some(
                    self.hammers[self.hammer_in_use]
                        .tree
                        .voltage(self.hammers[self.hammer_in_use].mass),
                );
            }
        }
        if report.first_touch_s.is_some() {
            flight.pulses.push(force);
            report.force_pulses = flight.pulses.count();
            self.trace.push(force, compression);
        }
        report.peak_force_n = report.peak_force_n.max(force);
        flight.was_touching = touching;

        let far = compression < -PROXIMITY_GAPS * self.start_gap_m;
        let caught = t > MAX_FLIGHT_S;
        if !touching && ((report.contacts > 0 && far) || caught) {
            self.flight = None;
            report.hammer_gone = true;
            report.pruned_after_s = Some(t);
        }
    }

    /// Brings everything to rest: string still, damper up, no hammer.
    pub fn reset(&mut self) {
        self.string.reset();
        for hammer in &mut self.hammers {
            hammer.tree.reset();
        }
        self.flight = None;
        self.report = StrikeReport::default();
        self.trace.clear();
        self.quiet_samples = 0;
        self.sounding = false;
    }
}
