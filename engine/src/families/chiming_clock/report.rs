//! What `orchard analyze chiming-clock` reports: the beat the going train
//! keeps (found by Gelsey's long-term analysis of a run of the movement),
//! the chime and strike trains' cycles (their pin barrels run from release
//! to lock), and the chiming as a process periodically superimposed on the
//! escapement's regular pattern (Gelsey's Fig. 25: its period, duration and
//! first start).

use std::fmt;

use super::mechanics::{ClockMechanics, STRIKE_PINS};
use super::movement::{ESCAPE_WHEEL_TURN_S, Movement};
use super::spec::ClockSpec;
use super::trains::PinTrain;
use super::westminster;
use crate::instrument::Preset;
use crate::mech::long_term::{self, LongTermParams, LongTermReport, Trace, Variable};
use crate::mech::mechanism::record;

/// Interval at which the movement's run is recorded, s: short against the
/// tooth drops of a few milliseconds' approach.
const SAMPLE_S: f64 = 5e-4;

/// Longest a train is followed from its release, s.
const LONGEST_RUN_S: f64 = 120.0;

/// Step of the trains' simulation, s (the worker's control period).
const TRAIN_STEP_S: f64 = 1.0 / crate::rt::CONTROL_RATE_HZ;

/// Teeth of the escape wheel; two beats per tooth.
const TEETH: f64 = 10.0;

/// The going train's beat and the trains' cycles.
#[derive(Debug, Clone, PartialEq)]
pub struct ClockReport {
    /// Gelsey's analysis of the movement's run.
    pub long_term: LongTermReport,
    /// Time between two ticks, s (half a swing of the balance).
    pub beat_s: f64,
    /// The balance's swing, half its travel from one turning point to the
    /// other, degrees, over the last quarter of the run.
    pub amplitude_deg: f64,
    /// Each quarter's chime (quarters 1 to 4), from release to lock.
    pub quarters: [TrainRun; 4],
    /// Counting twelve, from release to lock.
    pub twelve: TrainRun,
    /// Time between two quarters' releases, s: the minute hand's quarter
    /// turn at this beat.
    pub quarter_period_s: f64,
    /// When the next quarter is released after the clock starts, s.
    pub first_start_s: f64,
}

/// One run of a pin barrel.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TrainRun {
    /// Hammer blows.
    pub blows: usize,
    /// Pin slots the barrel turned through.
    pub slots: usize,
    /// From release to the barrel locked, s.
    pub duration_s: f64,
    /// Mean time between blows, s (0 with fewer than two).
    pub interval_s: f64,
}

impl TrainRun {
    /// Mean time the barrel takes to turn one pin slot, s.
    pub fn slot_s(&self) -> f64 {
        self.duration_s / self.slots.max(1) as f64
    }
}

/// Why a clock cannot be analysed.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportError(pub String);

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl ClockReport {
    /// Runs the movement of `preset`'s clock for `duration_s` (at least a
    /// few seconds) and its trains through an hour's quarters.
    pub fn measure(preset: &Preset, duration_s: f64) -> Result<Self, ReportError> {
        let clock = ClockMechanics::new(preset)
            .ok_or_else(|| ReportError(format!("`{}` has no clock", preset.name)))?;
        let mut spec = clock.spec().clone();
        spec.running = true;
        let (long_term, amplitude_deg) = run_movement(&spec, duration_s)?;
        let regular = long_term.regularity().ok_or_else(|| {
            ReportError(format!(
                "the movement does not settle into a regular beat in {duration_s} s: {long_term}"
            ))
        })?;
        let wheel = long_term
            .variables
            .iter()
            .position(|v| v.name == "wheel position")
            .ok_or_else(|| ReportError("the movement has no escape wheel".into()))?;
        let teeth_per_cycle = (regular.changes[wheel].per_cycle.abs() * TEETH
            / std::f64::consts::TAU)
            .round()
            .max(1.0);
        let beat_s = regular.period_s / (2.0 * teeth_per_cycle);
        let dial_rate = (ESCAPE_WHEEL_TURN_S / TEETH / 2.0) / beat_s;
        let start = spec.time_h * 3600.0;
        let to_next_quarter = 900.0 - start.rem_euclid(900.0);
        let quarters = [1, 2, 3, 4].map(|q| chime_run(&spec, q));
        let twelve = strike_run(&spec, 12);
        Ok(Self {
            long_term,
            beat_s,
            amplitude_deg,
            quarters,
            twelve,
            quarter_period_s: 900.0 / dial_rate,
            first_start_s: to_next_quarter / dial_rate,
        })
    }

    /// Beats per hour.
    pub fn beats_per_hour(&self) -> f64 {
        3600.0 / self.beat_s
    }
}

/// Records the movement's escapement for `duration_s` and analyses it;
/// also returns the balance's late swing, degrees.
fn run_movement(spec: &ClockSpec, duration_s: f64) -> Result<(LongTermReport, f64), ReportError> {
    let mut movement = Movement::new(spec);
    let variables: Vec<Variable> = movement
        .mechanism()
        .state_names()
        .iter()
        .map(|path| record::variable(movement.mechanism(), path))
        .collect();
    let samples = (duration_s / SAMPLE_S).ceil() as usize;
    let mut trace = Trace::with_capacity(variables, samples);
    let (mut lowest, mut highest) = (f64::INFINITY, f64::NEG_INFINITY);
    for i in 1..=samples {
        let t = i as f64 * SAMPLE_S;
        movement.run_to(t, &mut |_| {});
        if movement.is_seized() {
            return Err(ReportError(format!("the movement seized at {t:.3} s")));
        }
        let state = movement.save_state();
        trace
            .push(t, &state.0, movement.mechanism().kinetic_energy())
            .map_err(|e| ReportError(e.to_string()))?;
        if t > 0.75 * duration_s {
            lowest = lowest.min(movement.balance_angle());
            highest = highest.max(movement.balance_angle());
        }
    }
    let report = long_term::analyze(&trace, &LongTermParams::default())
        .map_err(|e| ReportError(e.to_string()))?;
    Ok((report, (0.5 * (highest - lowest)).to_degrees()))
}

/// Follows a pin barrel from release to lock, counting the hammers it
/// drops.
fn follow(
    mut train: PinTrain,
    slots: usize,
    hammer_at: impl Fn(usize) -> Option<usize> + Copy,
) -> TrainRun {
    let mut drops = Vec::new();
    let mut t = 0.0;
    while t < LONGEST_RUN_S {
        let locked = train.step(t, t + TRAIN_STEP_S, hammer_at);
        t += TRAIN_STEP_S;
        train.land(f64::INFINITY, &mut |hammer| drops.push(hammer.at_s));
        if locked {
            break;
        }
    }
    let interval_s = if drops.len() > 1 {
        (drops[drops.len() - 1] - drops[0]) / (drops.len() - 1) as f64
    } else {
        0.0
    };
    TrainRun {
        blows: drops.len(),
        slots,
        duration_s: t,
        interval_s,
    }
}

/// Quarter `quarter`'s chime (1 to 4).
fn chime_run(spec: &ClockSpec, quarter: usize) -> TrainRun {
    let mut train = PinTrain::new(westminster::SLOTS, spec.chime_torque_n_m, spec);
    let before = if quarter == 1 { 4 } else { quarter - 1 };
    train.rest_at(westminster::rest_slot(before));
    let slots = quarter * westminster::SLOTS_PER_CHANGE;
    train.release(slots);
    follow(train, slots, westminster::bell_at)
}

/// The strike train counting `hours`.
fn strike_run(spec: &ClockSpec, hours: usize) -> TrainRun {
    let mut train = PinTrain::new(STRIKE_PINS, spec.strike_torque_n_m, spec);
    train.rest_at(0);
    train.release(hours);
    follow(train, hours, |_| Some(0))
}

impl fmt::Display for ClockReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hour = &self.quarters[3];
        writeln!(
            f,
            "beat {:.4} s ({:.0} beats per hour), balance swinging ±{:.0}°",
            self.beat_s,
            self.beats_per_hour(),
            self.amplitude_deg
        )?;
        writeln!(f, "escapement: {}", self.long_term)?;
        writeln!(
            f,
            "chime train: {} notes at the hour, one pin slot every {:.3} s, {:.2} s from \
             release to lock (quarters: {:.2}, {:.2}, {:.2} s)",
            hour.blows,
            hour.slot_s(),
            hour.duration_s,
            self.quarters[0].duration_s,
            self.quarters[1].duration_s,
            self.quarters[2].duration_s
        )?;
        writeln!(
            f,
            "strike train: twelve blows {:.3} s apart, {:.2} s from release to lock",
            self.twelve.interval_s, self.twelve.duration_s
        )?;
        write!(
            f,
            "superimposed process: the chime every {:.1} s (a quarter hour of this beat), \
             lasting {:.2} to {:.2} s (the hour with twelve strokes), first starting {:.2} s \
             after the clock is started",
            self.quarter_period_s,
            self.quarters[0].duration_s,
            hour.duration_s + self.twelve.duration_s,
            self.first_start_s
        )
    }
}
