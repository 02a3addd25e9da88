//! The chiming clock's mechanics, as the worker drives them: the going
//! train ([`Movement`]) ticking and keeping time, the chime train ringing
//! the Westminster quarters when the minute hand passes each quarter, the
//! strike train counting the hour after the hour's chime, and MIDI notes
//! striking the rods directly.

use super::movement::Movement;
use super::spec::ClockSpec;
use super::trains::{FallingHammer, PinTrain};
use super::westminster;
use crate::families::{LiveProperties, ThrownStrikers, field_of};
use crate::instrument::{Preset, Rebound};
use crate::mech::mechanism::BRACKET_MOVEMENT_TOML;
use crate::mech::{Model, ModelState, StepAdjustment};
use crate::props::{PropertyAccess, PropertyError, PropertyTree};
use crate::rt::{
    ClockTrains, IMPACT_SITE_KEYS, Mechanics, MechanismSnapshot, Operation, SynthEvent,
};

/// Pins on the strike train's pin wheel, one blow each.
pub const STRIKE_PINS: usize = 8;

/// Seconds in a quarter of an hour.
const QUARTER_S: f64 = 900.0;

/// Operations one control step may produce at most; more are dropped.
const OPERATIONS: usize = 256;

/// Which hammer of the strike train is the hour's (after the four bells').
const HOUR_HAMMER: usize = 4;

/// A chiming clock's going, chime and strike trains.
#[derive(Debug)]
pub struct ClockMechanics {
    spec: ClockSpec,
    /// The clock's preset object name: its live paths are `NAME:field`.
    name: String,
    movement: Movement,
    chime: PinTrain,
    strike: PinTrain,
    /// Quarters since midnight the hands had passed at the last step.
    quarters_passed: i64,
    /// Hours the strike train has yet to count when the chime locks.
    hour_to_strike: Option<usize>,
    /// What MIDI notes throw at the rods.
    strikers: ThrownStrikers,
    /// What the last step did, in time order.
    operations: Vec<Operation>,
    /// The clock's live properties, declared.
    live: LiveProperties,
    /// Blows of the movement's parts so far.
    blows: u64,
    /// Per impact site: the approach speed (m/s) and mass (kg) of the blow
    /// last handed to the audio side there.
    sent: [Option<(f64, f64)>; SITES],
    /// The last blow's impulse as the audio side measured it.
    last_impulse: Option<MeasuredImpulse>,
    /// Snapshots of blows come back so far.
    measured: u64,
}

/// Impact sites the clock tells apart (the keys from
/// [`crate::rt::IMPACT_SITE_KEYS`] up).
const SITES: usize = 128;

/// A blow as the contact tree at audio rate resolved it: the snapshot that
/// comes back to the mechanism.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeasuredImpulse {
    /// The site.
    pub site: usize,
    /// The approach speed the mechanism handed over, m/s.
    pub speed_in_m_s: f64,
    /// Momentum the blow exchanged, `m·(v_in + v_out)`, N·s.
    pub impulse_n_s: f64,
    /// Speed out over speed in.
    pub restitution: f64,
}

impl ClockMechanics {
    /// The clock of `preset` (its first `[clock.NAME]`), hands set, barrels
    /// at rest where the last quarter left them. Allocates.
    pub fn new(preset: &Preset) -> Option<Self> {
        let (name, spec) = preset.objects.of::<ClockSpec>().next()?;
        let spec = spec.clone();
        let movement = Movement::new(&spec);
        let mut clock = Self {
            chime: PinTrain::new(westminster::SLOTS, spec.chime_torque_n_m, &spec),
            strike: PinTrain::new(STRIKE_PINS, spec.strike_torque_n_m, &spec),
            movement,
            quarters_passed: 0,
            hour_to_strike: None,
            strikers: ThrownStrikers::new(preset.velocity),
            operations: Vec::with_capacity(OPERATIONS),
            live: LiveProperties::of(preset, name),
            name: name.to_string(),
            spec,
            blows: 0,
            sent: [None; SITES],
            last_impulse: None,
            measured: 0,
        };
        clock.set_hands(clock.spec.time_h * 3600.0);
        Some(clock)
    }

    /// Sets the hands to `time_s` (s after midnight): the chime barrel rests
    /// where the last quarter left it, nothing is ringing.
    fn set_hands(&mut self, time_s: f64) {
        self.movement.set_dial_time_s(time_s);
        self.quarters_passed = (time_s / QUARTER_S).floor() as i64;
        let last_quarter = self.quarters_passed.rem_euclid(4) as usize;
        let quarter = if last_quarter == 0 { 4 } else { last_quarter };
        self.chime.rest_at(westminster::rest_slot(quarter));
        self.strike.rest_at(0);
        self.chime.stop();
        self.strike.stop();
        self.hour_to_strike = None;
    }

    /// The going train.
    pub fn movement(&self) -> &Movement {
        &self.movement
    }

    /// The clock's values.
    pub fn spec(&self) -> &ClockSpec {
        &self.spec
    }

    /// Blows of the movement's parts so far.
    pub fn blows(&self) -> u64 {
        self.blows
    }

    /// How many blows' snapshots have come back from the audio side.
    pub fn measured_blows(&self) -> u64 {
        self.measured
    }

    /// The last blow as the audio side measured it, if one has come back.
    pub fn last_impulse(&self) -> Option<MeasuredImpulse> {
        self.last_impulse
    }

    /// What the chime and strike trains are doing: the quarter being rung,
    /// the hour being (or about to be) counted and the strokes left.
    pub fn trains(&self) -> ClockTrains {
        let last_quarter = self.quarters_passed.rem_euclid(4) as u8;
        let hour_now = self.quarters_passed.div_euclid(4).rem_euclid(12) as u8;
        let (strike_hour, strokes_left) = match self.hour_to_strike {
            Some(hours) => (hours as u8, hours as u8),
            None if self.strike.is_running() => (
                if hour_now == 0 { 12 } else { hour_now },
                self.strike.slots_left().min(usize::from(u8::MAX)) as u8,
            ),
            None => (0, 0),
        };
        ClockTrains {
            chime_quarter: match (self.chime.is_running(), last_quarter) {
                (false, _) => 0,
                (true, 0) => 4,
                (true, q) => q,
            },
            strike_hour,
            striking: self.strike.is_running(),
            strokes_left,
        }
    }

    /// Releases the trains when the minute hand passes a quarter.
    fn release_quarters(&mut self) {
        let passed = (self.movement.dial_time_s() / QUARTER_S).floor() as i64;
        while self.quarters_passed < passed {
            self.quarters_passed += 1;
            let quarter = self.quarters_passed.rem_euclid(4) as usize;
            let changes = if quarter == 0 { 4 } else { quarter };
            self.chime.release(changes * westminster::SLOTS_PER_CHANGE);
            if quarter == 0 {
                let hour = (self.quarters_passed / 4).rem_euclid(12) as usize;
                self.hour_to_strike = Some(if hour == 0 { 12 } else { hour });
            }
        }
    }

    /// Hands over every hammer that has reached its rod by `t_s`.
    fn land(&mut self, t_s: f64) {
        let Self {
            chime,
            strike,
            operations,
            spec,
            ..
        } = self;
        let mut strike_rod = |hammer: FallingHammer| {
            push(
                operations,
                Operation::Strike {
                    key: rod_of(spec, hammer.hammer),
                    speed_m_s: hammer.speed_m_s,
                    shifted: false,
                },
            );
        };
        chime.land(t_s, &mut strike_rod);
        strike.land(t_s, &mut strike_rod);
    }

    /// Gives the live field `field` (one the clock's object declares
    /// `live`, in range: [`LiveProperties::edit`] has checked it) `value`.
    fn apply_live(&mut self, field: &str, value: f64) {
        match field {
            "running" => {
                self.spec.running = value >= 0.5;
                self.movement.set_running(self.spec.running);
            }
            "time_h" => {
                self.spec.time_h = value;
                self.set_hands(value * 3600.0);
            }
            "wound" => {
                self.spec.wound = value;
                self.movement.set_wound(value);
            }
            "balance_inertia_kg_m2" => self.spec.balance_inertia_kg_m2 = value,
            "hairspring_n_m_per_rad" => self.spec.hairspring_n_m_per_rad = value,
            _ => return,
        }
        self.movement.set_balance(
            self.spec.balance_inertia_kg_m2,
            self.spec.hairspring_n_m_per_rad,
        );
    }

    fn clock(mechanics: &dyn Mechanics) -> Option<&Self> {
        mechanics.as_any().downcast_ref()
    }
}

/// Queues `operation` for the worker, unless a step has made
/// [`OPERATIONS`] already (then it is dropped).
fn push(operations: &mut Vec<Operation>, operation: Operation) {
    if operations.len() < OPERATIONS {
        operations.push(operation);
    }
}

/// The rod hammer `hammer` of a train strikes: the quarter bells', then the
/// hour's.
fn rod_of(spec: &ClockSpec, hammer: usize) -> u8 {
    spec.bell_keys()
        .get(hammer)
        .copied()
        .unwrap_or(spec.hour_key)
}

impl Model for ClockMechanics {
    fn initialize(&mut self, _t: f64) {}

    fn advance(&mut self, t0: f64, t1: f64) -> Option<StepAdjustment> {
        let Self {
            movement,
            operations,
            sent,
            blows,
            ..
        } = self;
        movement.step_towards(t1, &mut |blow| {
            *blows += 1;
            if let Some(sent) = sent.get_mut(blow.site) {
                *sent = Some((blow.speed_m_s, blow.mass_kg));
            }
            if let Ok(site) = u8::try_from(blow.site) {
                push(
                    operations,
                    Operation::Impact {
                        site,
                        speed_m_s: blow.speed_m_s,
                    },
                );
            }
        });
        self.release_quarters();
        self.chime.step(t0, t1, westminster::bell_at);
        // Whether it locked this step does not matter here: the next hour
        // releases it again.
        self.strike.step(t0, t1, |_| Some(HOUR_HAMMER));
        if !self.chime.is_running()
            && let Some(hours) = self.hour_to_strike.take()
        {
            self.strike.release(hours);
        }
        self.land(t1);
        None
    }

    fn save_state(&self) -> ModelState {
        self.movement.save_state()
    }

    fn may_reject_steps(&self) -> bool {
        false
    }

    fn restore_state(&mut self, _state: &ModelState) {}
}

impl PropertyAccess for ClockMechanics {
    fn property(&self, path: &str) -> Option<f64> {
        Some(match field_of(&self.name, path)? {
            "running" => f64::from(u8::from(self.movement.is_running())),
            "time_h" => self.movement.dial_time_s() / 3600.0,
            "wound" => self.movement.wound(),
            "balance_inertia_kg_m2" => self.spec.balance_inertia_kg_m2,
            "hairspring_n_m_per_rad" => self.spec.hairspring_n_m_per_rad,
            "tick_impulse_n_s" => self.last_impulse?.impulse_n_s,
            _ => return None,
        })
    }

    fn set_property(&mut self, path: &str, value: f64) -> Result<(), PropertyError> {
        let field = self.live.edit(path, value)?;
        self.apply_live(field, value);
        Ok(())
    }
}

impl Mechanics for ClockMechanics {
    /// A blow's parts let go at audio rate: the impulse it exchanged is
    /// measured from the speeds in and out (paired with the last blow
    /// handed to that site: a site struck again before its parts let go,
    /// a bounce, pairs the later blow's speed with the earlier's parting).
    fn rebound(&mut self, _t_s: f64, key: u8, rebound: &Rebound) {
        let speed_m_s = rebound.speed_m_s;
        let Some(site) = key.checked_sub(IMPACT_SITE_KEYS).map(usize::from) else {
            return;
        };
        if let Some(Some((speed_in, mass))) = self.sent.get(site).copied() {
            self.measured += 1;
            self.last_impulse = Some(MeasuredImpulse {
                site,
                speed_in_m_s: speed_in,
                impulse_n_s: mass * (speed_in + speed_m_s),
                restitution: speed_m_s / speed_in,
            });
        }
    }

    /// MIDI notes strike the rods directly, at the velocity curve's speed.
    fn perform(&mut self, t_s: f64, event: SynthEvent, now: &mut dyn FnMut(Operation)) {
        self.strikers.perform(t_s, event, now);
    }

    fn drain_operations(&mut self, out: &mut dyn FnMut(Operation)) {
        for operation in self.operations.drain(..) {
            out(operation);
        }
    }

    /// The clock stops (its balance held); a chime or strike in progress
    /// finishes, as it would on a real clock, whose trains have springs of
    /// their own.
    fn wind_down(&mut self) {
        self.spec.running = false;
        self.movement.set_running(false);
    }

    fn reset(&mut self) {
        self.chime.stop();
        self.strike.stop();
        self.hour_to_strike = None;
        self.operations.clear();
        self.sent = [None; SITES];
    }

    fn continue_motion_from(&mut self, previous: &dyn Mechanics) {
        let Some(old) = Self::clock(previous) else {
            return;
        };
        self.movement.continue_from(&old.movement);
        // The values this build changed take effect; the rest carries on.
        self.movement.apply_changes(&self.spec, &old.spec);
        self.chime = old.chime.clone();
        self.strike = old.strike.clone();
        self.chime.retune(self.spec.chime_torque_n_m, &self.spec);
        self.strike.retune(self.spec.strike_torque_n_m, &self.spec);
        self.quarters_passed = old.quarters_passed;
        self.hour_to_strike = old.hour_to_strike;
        self.blows = old.blows;
        self.sent = old.sent;
        self.last_impulse = old.last_impulse;
        self.measured = old.measured;
        if self.spec.time_h != old.spec.time_h {
            self.set_hands(self.spec.time_h * 3600.0);
        }
    }

    fn declare_properties(&self, tree: &mut PropertyTree) {
        self.live.declare(tree);
    }

    /// The going train (`bracket-movement`): its subsystems' positions, the
    /// time its hands show, and the chime and strike trains.
    fn publish_mechanism(&self, snapshot: &mut MechanismSnapshot) -> bool {
        snapshot.description = Some(BRACKET_MOVEMENT_TOML);
        snapshot.set_positions(self.movement.mechanism().positions());
        snapshot.dial_time_s = Some(self.movement.dial_time_s());
        snapshot.trains = Some(self.trains());
        true
    }
}
