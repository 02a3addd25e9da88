//! One key of a struck-string instrument: a felt hammer and its string.

use super::KeyParams;
use super::strike::{ContactTrace, PulseCounter, StrikeReport};
use crate::resonators::{StringDesignError, WaveguideString};
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
/// and the string's contact point (a resistive source of `1/(2·Z0)` whose EMF is
/// minus the velocity the arriving waves would give the point).
#[derive(Debug, Clone)]
struct HammerTree {
    tree: Bct,
    mass: LeafId,
    contact_leaf: LeafId,
    contact: SourceId,
}

impl HammerTree {
    fn new(
        params: &KeyParams,
        string: &WaveguideString,
        sample_rate: f64,
    ) -> Result<Self, TreeError> {
        let description = TreeDescription::new(
            "felt",
            Element::Felt { law: params.felt },
            series([
                capacitor("hammer", params.hammer_mass_kg),
                element(
                    "string",
                    Element::ResistiveVoltageSource {
                        volts: 0.0,
                        ohms: string.contact_resistance(),
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

/// A key's string and the hammer that strikes it.
///
/// Allocates: the string's delay lines, the hammer tree and the contact trace, in
/// [`StruckString::new`]; nothing after.
#[derive(Debug, Clone)]
pub struct StruckString {
    params: KeyParams,
    sample_rate: f64,
    start_gap_m: f64,
    string: WaveguideString,
    hammer: HammerTree,
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
        let string =
            WaveguideString::new(params.string, sample_rate, damper_t60_s, damper_travel_s)
                .map_err(VoiceError::String)?;
        Ok(Self {
            hammer: HammerTree::new(&params, &string, sample_rate).map_err(VoiceError::Hammer)?,
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

    /// The string.
    pub fn string(&self) -> &WaveguideString {
        &self.string
    }

    /// Hammer velocity (m/s, towards the string) while it is grafted to the string.
    pub fn hammer_velocity(&self) -> Option<f64> {
        self.flight
            .map(|_| self.hammer.tree.voltage(self.hammer.mass))
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
        let closing_rate = speed - self.string.free_velocity();
        let tree = &mut self.hammer.tree;
        tree.reset();
        tree.set_reactive_state(self.hammer.mass, speed);
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
        self.string.set_damper(false);
        self.quiet_samples = 0;
        self.sounding = true;
    }

    /// Lowers (`true`) or lifts (`false`) the damper.
    pub fn set_damper(&mut self, engaged: bool) {
        self.string.set_damper(engaged);
    }

    /// Advances one sample; returns the bridge force, N.
    #[inline]
    pub fn tick(&mut self) -> f64 {
        let force = if self.flight.is_some() {
            let hammer = &mut self.hammer;
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
            || (self.hammer.felt().compression().is_finite() && force.is_finite());
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
        let felt = self.hammer.felt();
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
                report.rebound_velocity_m_s = Some(self.hammer.tree.voltage(self.hammer.mass));
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
        self.hammer.tree.reset();
        self.flight = None;
        self.report = StrikeReport::default();
        self.trace.clear();
        self.quiet_samples = 0;
        self.sounding = false;
    }
}
