//! The grand piano's action at control rate: key press → hammer thrown →
//! let-off → free flight → strike; rebound, check and repetition; dampers that
//! lift with the key and fall on release; sustain (continuous, so half-pedalling
//! leaves partial damping), sostenuto and una corda.
//!
//! Each key's hammer moves along its blow distance `D` (rest at 0, the string at
//! `D`). While the jack pushes it, it accelerates uniformly; from let-off (`D`
//! minus the let-off distance) it flies free against gravity and strikes the
//! string at a speed set by the key velocity through the velocity curve. In the
//! default (fast) mode the jack's stroke is skipped: a note-on throws the hammer
//! from let-off, so sound follows within the flight time of the last
//! millimetres (under 5 ms). With `realistic_travel` the whole stroke is
//! simulated (tens of milliseconds, longer for soft notes).
//!
//! After a strike the hammer rebounds and falls; while the key is held the check
//! catches it `check_drop` below the string. A released key rises over
//! `key_return_s`; pressed again once it has risen past `repetition_rise` of its
//! dip, the repetition lever has reset and the hammer is thrown again from where
//! it is (from the check, a shorter flight). A realistic action pressed again
//! before that does not strike.

use serde::{Deserialize, Serialize};

use crate::capacity::copy_within_capacity;

use super::model::{Model, ModelState, PropertyAccess, PropertyError, StepAdjustment};
use super::property::{PropertyInfo, PropertyTree};

/// Gravity, m/s².
const GRAVITY: f64 = 9.81;
/// Number of keys (A0 to C8).
pub const KEYS: usize = 88;
/// MIDI note of the lowest key.
pub const LOWEST_NOTE: u8 = 21;
/// The lowest and highest MIDI notes the action has (A0 and C8).
pub const NOTES: (u8, u8) = (LOWEST_NOTE, LOWEST_NOTE + KEYS as u8 - 1);

/// A command from the player, at a time (s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ActionCommand {
    /// A key goes down.
    KeyDown {
        /// MIDI note number.
        note: u8,
        /// MIDI velocity, 1–127.
        velocity: u8,
    },
    /// A key is released.
    KeyUp {
        /// MIDI note number.
        note: u8,
        /// Release velocity, 0 to 1 (MIDI note-off velocity / 127; 0.5 when the
        /// source has none): how fast the key is let up. At 0.5 the key rises in
        /// `key_return_s` and the damper lands in `damper_travel_s`; a release
        /// twice as fast takes half as long, down to a quarter, and a slow one
        /// up to four times as long.
        velocity: f64,
    },
    /// Sustain pedal position, 0 (up) to 1 (down), continuous (CC64 / 127).
    Sustain(f64),
    /// Sostenuto pedal down or up (CC66).
    Sostenuto(bool),
    /// Una corda pedal position, 0 to 1 (CC67 / 127).
    UnaCorda(f64),
    /// The strings' side reports that a hammer has let go of its strings,
    /// moving away at `speed` (m/s): the hammer falls from the string at that
    /// speed instead of the restitution model's.
    Rebound {
        /// MIDI note number.
        note: u8,
        /// Speed away from the string, m/s.
        speed: f64,
    },
}

/// What the action tells the strings, at a time (s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ActionEvent {
    /// The jack lets a hammer go at let-off: from here it flies free and the
    /// strings' side simulates it (the hammer comes near, seed 004 Section 4).
    LetOff {
        /// MIDI note number.
        note: u8,
        /// Speed the hammer will meet the string with, m/s (gravity over the
        /// last millimetres included).
        speed: f64,
    },
    /// A damper's amount changed.
    Damper {
        /// MIDI note number.
        note: u8,
        /// 0 lifted (free string) to 1 fully down.
        amount: f64,
    },
}

/// Where a key's hammer is in its cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// At rest on its rail.
    Rest,
    /// Pushed by the jack with constant acceleration.
    Pushed,
    /// Free flight towards the string after let-off.
    Flight,
    /// Falling back after the strike.
    Falling,
    /// Held by the check while the key is down.
    Caught,
}

/// One key's moving parts.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Key {
    phase: Phase,
    /// Hammer position along the blow distance, m (0 at rest).
    position: f64,
    /// Hammer velocity, m/s (positive towards the string).
    velocity: f64,
    /// Jack acceleration while pushed, m/s².
    push: f64,
    /// Whether the key is held down.
    down: bool,
    /// How far the key has risen since release, as a fraction of its dip.
    rise: f64,
    /// Whether sostenuto holds this key's damper up.
    held: bool,
    /// Present damper amount, 0–1.
    damper: f64,
    /// How fast the key was let up, relative to a release at velocity 0.5:
    /// scales its rise and its damper's landing.
    release_rate: f64,
}

impl Key {
    const REST: Self = Self {
        phase: Phase::Rest,
        position: 0.0,
        velocity: 0.0,
        push: 0.0,
        down: false,
        rise: 1.0,
        held: false,
        damper: 1.0,
        release_rate: 1.0,
    };
    const FIELDS: usize = 9;

    fn save(&self, out: &mut Vec<f64>) {
        let phase = match self.phase {
            Phase::Rest => 0.0,
            Phase::Pushed => 1.0,
            Phase::Flight => 2.0,
            Phase::Falling => 3.0,
            Phase::Caught => 4.0,
        };
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        out.extend([
            phase,
            self.position,
            self.velocity,
            self.push,
            flag(self.down),
            self.rise,
            flag(self.held),
            self.damper,
            self.release_rate,
        ]);
    }

    fn restore(values: &[f64]) -> Self {
        let phase = match values[0] as u8 {
            1 => Phase::Pushed,
            2 => Phase::Flight,
            3 => Phase::Falling,
            4 => Phase::Caught,
            _ => Phase::Rest,
        };
        Self {
            phase,
            position: values[1],
            velocity: values[2],
            push: values[3],
            down: values[4] != 0.0,
            rise: values[5],
            held: values[6] != 0.0,
            damper: values[7],
            release_rate: values[8],
        }
    }
}

/// Index of MIDI `note` among the action's keys from A0, if it has that key.
pub fn key_index(note: u8) -> Option<usize> {
    let index = usize::from(note.checked_sub(LOWEST_NOTE)?);
    (index < KEYS).then_some(index)
}

/// How fast a key released at `velocity` (0 to 1, 0.5 the usual MIDI default)
/// rises and lets its damper down, relative to the settings' times: velocity
/// over 0.5, from a quarter to four times as fast.
fn release_rate(velocity: f64) -> f64 {
    let v = if velocity.is_finite() { velocity } else { 0.5 };
    (v / 0.5).clamp(0.25, 4.0)
}

/// The action's settings (all properties, under `action:`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ActionSettings {
    /// Hammer blow distance, m (44–49 mm on grands).
    pub blow_distance: f64,
    /// Let-off: distance from the string where the jack releases, m (1–3 mm).
    pub let_off: f64,
    /// How far below the string the check catches a falling hammer, m.
    pub check_drop: f64,
    /// From key velocity to hammer speed at the string.
    pub velocity: VelocityCurve,
    /// Fraction of the strike speed the hammer rebounds with.
    pub restitution: f64,
    /// Time for a released key to rise fully, s.
    pub key_return_s: f64,
    /// Fraction of the key's dip it must rise before the repetition resets.
    pub repetition_rise: f64,
    /// Time a damper takes to travel fully, s.
    pub damper_travel_s: f64,
    /// Simulate the jack's whole stroke (1) or throw from let-off (0).
    pub realistic_travel: bool,
}

impl Default for ActionSettings {
    fn default() -> Self {
        Self {
            blow_distance: 0.047,
            let_off: 0.002,
            check_drop: 0.015,
            velocity: VelocityCurve::default(),
            restitution: 0.5,
            key_return_s: 0.04,
            repetition_rise: 0.3,
            damper_travel_s: 0.006,
            realistic_travel: false,
        }
    }
}

impl ActionSettings {
    /// Hammer speed at the string for MIDI velocity `velocity`, m/s.
    pub fn strike_speed(&self, velocity: u8) -> f64 {
        self.velocity
            .speed(f64::from(velocity.clamp(1, 127)) / 127.0)
    }
}

/// From MIDI velocity to hammer speed at the string: geometric between the
/// softest and hardest speeds, along `(velocity/127)^curve`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VelocityCurve {
    /// Hammer speed at MIDI velocity 1, m/s.
    pub softest_speed_m_s: f64,
    /// Hammer speed at MIDI velocity 127, m/s.
    pub hardest_speed_m_s: f64,
    /// Curve exponent: 1 spreads speeds geometrically over the velocities;
    /// above 1 the soft end gets more of the range, below 1 the loud end.
    #[serde(default = "linear_curve")]
    pub curve: f64,
}

fn linear_curve() -> f64 {
    1.0
}

impl Default for VelocityCurve {
    fn default() -> Self {
        Self {
            softest_speed_m_s: 0.4,
            hardest_speed_m_s: 6.5,
            curve: 1.0,
        }
    }
}

impl VelocityCurve {
    /// Hammer speed (m/s) for a normalised velocity (MIDI velocity / 127); values
    /// outside [1/127, 1], and NaN, are clamped to the softest and hardest speeds.
    pub fn speed(&self, velocity: f64) -> f64 {
        let lowest = (1.0f64 / 127.0).powf(self.curve);
        let x = if velocity.is_nan() { 0.0 } else { velocity };
        let x = x.clamp(0.0, 1.0).powf(self.curve);
        let fraction = ((x - lowest) / (1.0 - lowest)).clamp(0.0, 1.0);
        self.softest_speed_m_s * (self.hardest_speed_m_s / self.softest_speed_m_s).powf(fraction)
    }
}

/// One of the action's numeric properties (path `action:NAME`).
struct ActionProperty {
    name: &'static str,
    min: f64,
    max: f64,
    unit: &'static str,
    description: &'static str,
}

const fn property(
    name: &'static str,
    min: f64,
    max: f64,
    unit: &'static str,
    description: &'static str,
) -> ActionProperty {
    ActionProperty {
        name,
        min,
        max,
        unit,
        description,
    }
}

/// The action's numeric properties.
const PROPERTIES: &[ActionProperty] = &[
    property(
        "blow_distance",
        0.01,
        0.1,
        "m",
        "hammer travel from rest to string",
    ),
    property(
        "let_off",
        0.0005,
        0.01,
        "m",
        "distance from the string where the jack lets go",
    ),
    property(
        "check_drop",
        0.002,
        0.04,
        "m",
        "how far below the string the check catches the hammer",
    ),
    property(
        "softest_speed",
        0.05,
        10.0,
        "m/s",
        "hammer speed at velocity 1",
    ),
    property(
        "hardest_speed",
        0.1,
        20.0,
        "m/s",
        "hammer speed at velocity 127",
    ),
    property(
        "curve",
        0.2,
        5.0,
        "",
        "velocity curve exponent (1: geometric)",
    ),
    property(
        "restitution",
        0.0,
        0.95,
        "",
        "rebound speed over strike speed when the strings report none",
    ),
    property(
        "key_return_s",
        0.005,
        0.5,
        "s",
        "time for a released key to rise",
    ),
    property(
        "repetition_rise",
        0.0,
        1.0,
        "",
        "fraction of the dip a key must rise to repeat",
    ),
    property(
        "damper_travel_s",
        0.0005,
        0.1,
        "s",
        "time a damper takes to travel fully",
    ),
    property(
        "realistic_travel",
        0.0,
        1.0,
        "",
        "1: simulate the whole key stroke; 0: throw from let-off",
    ),
];

/// A grand piano's 88 actions and its three pedals.
#[derive(Debug)]
pub struct Action {
    settings: ActionSettings,
    keys: [Key; KEYS],
    sustain: f64,
    sostenuto: bool,
    una_corda: f64,
    /// Commands waiting for their time, in time order.
    commands: Vec<(f64, ActionCommand)>,
    /// Events produced, with their times.
    events: Vec<(f64, ActionEvent)>,
    /// Time of the command being applied, s.
    now: f64,
}

/// Commands and events a run may hold before they are drained (so the audio
/// side never makes the action allocate).
const QUEUE: usize = 1024;

impl Action {
    /// All keys at rest, dampers down, pedals up.
    ///
    /// Allocates: the command and event queues.
    pub fn new(settings: ActionSettings) -> Self {
        Self {
            settings,
            keys: [Key::REST; KEYS],
            sustain: 0.0,
            sostenuto: false,
            una_corda: 0.0,
            commands: Vec::with_capacity(QUEUE),
            events: Vec::with_capacity(QUEUE),
            now: 0.0,
        }
    }

    /// Every key at rest, dampers down, pedals up, queues emptied (their
    /// capacity kept, so this does not allocate).
    pub fn reset(&mut self) {
        self.keys = [Key::REST; KEYS];
        self.sustain = 0.0;
        self.sostenuto = false;
        self.una_corda = 0.0;
        self.commands.clear();
        self.events.clear();
        self.now = 0.0;
    }

    /// Takes over where `previous` (another instrument's action) is: the pedals
    /// and which keys are held, with their dampers; every hammer at rest. A
    /// player who switches instruments with the pedal down keeps it down.
    pub fn continue_from(&mut self, previous: &Action) {
        self.sustain = previous.sustain;
        self.sostenuto = previous.sostenuto;
        self.una_corda = previous.una_corda;
        for (key, old) in self.keys.iter_mut().zip(&previous.keys) {
            *key = Key {
                down: old.down,
                rise: old.rise,
                held: old.held,
                damper: old.damper,
                release_rate: old.release_rate,
                ..Key::REST
            };
        }
    }

    /// Takes over everything `previous` (the action of the same instrument with
    /// other values) is doing, with these settings: the pedals, every key with
    /// its hammer in flight, falling or caught (on a shorter blow distance no
    /// farther than the string) and its damper, the commands still waiting
    /// and the present time. A hammer `previous` let off still strikes the
    /// strings, and reports back to this action.
    ///
    /// Allocates nothing (the queues have room for `previous`').
    pub fn continue_motion_from(&mut self, previous: &Action) {
        self.sustain = previous.sustain;
        self.sostenuto = previous.sostenuto;
        self.una_corda = previous.una_corda;
        let string = self.settings.blow_distance;
        for (key, old) in self.keys.iter_mut().zip(&previous.keys) {
            *key = Key {
                position: old.position.min(string),
                ..*old
            };
        }
        copy_within_capacity(&mut self.commands, &previous.commands);
        copy_within_capacity(&mut self.events, &previous.events);
        self.now = previous.now;
    }

    /// The range (min, max) of the numeric property at `path` (`action:NAME`),
    /// if there is one.
    pub fn property_range(path: &str) -> Option<(f64, f64)> {
        let name = path.strip_prefix("action:")?;
        let p = PROPERTIES.iter().find(|p| p.name == name)?;
        Some((p.min, p.max))
    }

    /// Declares the action's properties under component `action` of `tree`,
    /// with their present values as defaults.
    pub fn declare_properties(&self, tree: &mut PropertyTree) {
        tree.add_component("action");
        for p in PROPERTIES {
            let path = format!("action:{}", p.name);
            let default = self.property(&path).unwrap_or(p.min);
            tree.declare(
                "action",
                PropertyInfo::new(p.name, p.description, p.unit, p.min, p.max, default),
            );
        }
    }

    /// The settings in use.
    pub fn settings(&self) -> &ActionSettings {
        &self.settings
    }

    /// Queues a command at time `t` (s). Commands with the same time keep their
    /// order. Returns false (and drops it) if the queue is full.
    pub fn command(&mut self, t: f64, command: ActionCommand) -> bool {
        if self.commands.len() >= QUEUE || !t.is_finite() {
            return false;
        }
        let at = self.commands.partition_point(|(time, _)| *time <= t);
        self.commands.insert(at, (t, command));
        true
    }

    /// Moves the produced events (time s, event) into `out`, oldest first.
    pub fn drain_events(&mut self, out: &mut Vec<(f64, ActionEvent)>) {
        out.append(&mut self.events);
    }

    /// Una corda position, 0–1: how far the hammers have shifted off one string.
    pub fn una_corda(&self) -> f64 {
        self.una_corda
    }

    /// A key's hammer travel towards the string, 0 (at rest) to 1 (at the string).
    pub fn hammer_travel(&self, note: u8) -> Option<f64> {
        Some(self.key(note)?.position / self.settings.blow_distance)
    }

    /// Whether a key is held down.
    pub fn key_down(&self, note: u8) -> Option<bool> {
        Some(self.key(note)?.down)
    }

    /// Sustain pedal depth, 0–1.
    pub fn sustain(&self) -> f64 {
        self.sustain
    }

    /// Whether the sostenuto pedal is down.
    pub fn sostenuto(&self) -> bool {
        self.sostenuto
    }

    /// A key's present damper amount (0 lifted, 1 down).
    pub fn damper(&self, note: u8) -> Option<f64> {
        Some(self.key(note)?.damper)
    }

    fn key(&self, note: u8) -> Option<&Key> {
        self.keys.get(key_index(note)?)
    }

    fn key_mut(&mut self, note: u8) -> Option<&mut Key> {
        self.keys.get_mut(key_index(note)?)
    }

    fn emit(&mut self, t: f64, event: ActionEvent) {
        if self.events.len() < QUEUE {
            self.events.push((t, event));
        }
    }

    /// Applies one command (at the present time of the run).
    fn apply(&mut self, command: ActionCommand) {
        let s = self.settings;
        match command {
            ActionCommand::KeyDown { note, velocity } => {
                let Some(key) = self.key_mut(note) else {
                    return;
                };
                let reset = !s.realistic_travel || key.rise >= s.repetition_rise;
                key.down = true;
                key.rise = 0.0;
                if !reset || matches!(key.phase, Phase::Pushed | Phase::Flight) {
                    return;
                }
                let speed = s.strike_speed(velocity);
                let let_off_at = s.blow_distance - s.let_off;
                if s.realistic_travel && key.position < let_off_at {
                    // Uniform push from where the hammer is to let-off, reaching
                    // the speed that carries it to the string at `speed`.
                    let at_let_off = (speed * speed + 2.0 * GRAVITY * s.let_off).sqrt();
                    let distance = let_off_at - key.position;
                    key.push = at_let_off * at_let_off / (2.0 * distance);
                    key.velocity = 0.0;
                    key.phase = Phase::Pushed;
                } else {
                    // Thrown from let-off (or from where it is, if closer).
                    let from = key.position.max(let_off_at);
                    let gap = s.blow_distance - from;
                    key.position = from;
                    key.velocity = (speed * speed + 2.0 * GRAVITY * gap).sqrt();
                    key.phase = Phase::Flight;
                    self.emit(self.now, ActionEvent::LetOff { note, speed });
                }
            }
            ActionCommand::KeyUp { note, velocity } => {
                if let Some(key) = self.key_mut(note) {
                    key.down = false;
                    key.release_rate = release_rate(velocity);
                    if key.phase == Phase::Caught {
                        key.phase = Phase::Falling;
                    }
                }
            }
            ActionCommand::Sustain(value) => self.sustain = value.clamp(0.0, 1.0),
            ActionCommand::Sostenuto(down) => {
                self.sostenuto = down;
                for key in &mut self.keys {
                    // Pressing it holds the dampers of keys down at that moment
                    // (and keeps those it held); releasing it lets all go.
                    key.held = down && (key.down || key.held);
                }
            }
            ActionCommand::UnaCorda(value) => self.una_corda = value.clamp(0.0, 1.0),
            ActionCommand::Rebound { note, speed } => {
                let Some(key) = self.key_mut(note) else {
                    return;
                };
                if !(speed.is_finite() && speed >= 0.0) {
                    return;
                }
                // Our own flight model has the hammer at (or past) the string
                // by now; from the measured separation it falls at the measured
                // speed.
                if matches!(key.phase, Phase::Flight | Phase::Falling) {
                    key.position = s.blow_distance;
                    key.velocity = -speed;
                    key.phase = Phase::Falling;
                }
            }
        }
    }

    /// Moves every key's parts from `t0` to `t1` (s) with no command between.
    fn evolve(&mut self, t0: f64, t1: f64) {
        let s = self.settings;
        let h = t1 - t0;
        let string = s.blow_distance;
        let check = s.blow_distance - s.check_drop;
        for index in 0..KEYS {
            let note = LOWEST_NOTE + index as u8;
            let mut key = self.keys[index];
            if !key.down {
                key.rise = (key.rise + h * key.release_rate / s.key_return_s).min(1.0);
            }
            match key.phase {
                Phase::Rest | Phase::Caught => {}
                Phase::Pushed => {
                    let let_off_at = string - s.let_off;
                    let remaining = let_off_at - key.position;
                    let v = key.velocity;
                    // Time to let-off under the push: v·τ + a·τ²/2 = remaining.
                    let tau = (-v + (v * v + 2.0 * key.push * remaining).sqrt()) / key.push;
                    if tau <= h {
                        key.position = let_off_at;
                        key.velocity = v + key.push * tau;
                        key.phase = Phase::Flight;
                        let discriminant = key.velocity * key.velocity - 2.0 * GRAVITY * s.let_off;
                        if discriminant > 0.0 {
                            let speed = discriminant.sqrt();
                            self.emit(t0 + tau, ActionEvent::LetOff { note, speed });
                        }
                        self.keys[index] = key;
                        self.evolve_flight(index, t0 + tau, t1);
                        key = self.keys[index];
                    } else {
                        key.position += v * h + 0.5 * key.push * h * h;
                        key.velocity = v + key.push * h;
                    }
                }
                Phase::Flight => {
                    self.keys[index] = key;
                    self.evolve_flight(index, t0, t1);
                    key = self.keys[index];
                }
                Phase::Falling => {
                    let v = key.velocity - GRAVITY * h;
                    let x = key.position + key.velocity * h - 0.5 * GRAVITY * h * h;
                    if key.down && x <= check {
                        (key.position, key.velocity, key.phase) = (check, 0.0, Phase::Caught);
                    } else if x <= 0.0 {
                        key = Key {
                            phase: Phase::Rest,
                            position: 0.0,
                            velocity: 0.0,
                            ..key
                        };
                    } else {
                        (key.position, key.velocity) = (x, v);
                    }
                }
            }
            // A hammer at rest under a released key returns to its rail.
            if !key.down && key.phase == Phase::Caught {
                key.phase = Phase::Falling;
            }
            // Dampers: lifted by a held key or sostenuto, else by the pedal.
            let lifted = key.down || (self.sostenuto && key.held);
            let target = if lifted { 0.0 } else { 1.0 - self.sustain };
            // A damper lands as fast as its key was let up; it lifts at its
            // own pace.
            let falling = target > key.damper;
            let rate = if falling { key.release_rate } else { 1.0 };
            let travel = h * rate / s.damper_travel_s;
            let damper = if key.down && !s.realistic_travel {
                // The fast action skips the key's dip, and with it the damper's
                // rise: it is up by the time the hammer leaves let-off.
                0.0
            } else {
                key.damper + (target - key.damper).clamp(-travel, travel)
            };
            if damper != key.damper {
                key.damper = damper;
                self.emit(
                    t1,
                    ActionEvent::Damper {
                        note,
                        amount: damper,
                    },
                );
            }
            self.keys[index] = key;
        }
    }

    /// Free flight of key `index` from `t0` to `t1`: strikes if it reaches the
    /// string, then rebounds.
    fn evolve_flight(&mut self, index: usize, t0: f64, t1: f64) {
        let s = self.settings;
        let mut key = self.keys[index];
        let gap = s.blow_distance - key.position;
        let v = key.velocity;
        let h = t1 - t0;
        // Reaches the string when v·τ − g·τ²/2 = gap (the earlier root).
        let discriminant = v * v - 2.0 * GRAVITY * gap;
        let tau = if discriminant >= 0.0 {
            (v - discriminant.sqrt()) / GRAVITY
        } else {
            f64::INFINITY
        };
        if tau <= h {
            let speed = v - GRAVITY * tau;
            key.position = s.blow_distance;
            key.velocity = -s.restitution * speed;
            key.phase = Phase::Falling;
            let rest = h - tau;
            key.position += key.velocity * rest - 0.5 * GRAVITY * rest * rest;
            key.velocity -= GRAVITY * rest;
        } else {
            key.position += v * h - 0.5 * GRAVITY * h * h;
            key.velocity = v - GRAVITY * h;
            if key.velocity <= 0.0 {
                // Too slow to reach the string (a silent press): it falls back.
                key.phase = Phase::Falling;
            }
        }
        self.keys[index] = key;
    }
}

impl Clone for Action {
    /// A copy with queues of full capacity (a derived clone would shrink them
    /// to their length, and the copy would then drop or allocate).
    fn clone(&self) -> Self {
        let mut commands = Vec::with_capacity(QUEUE);
        commands.extend_from_slice(&self.commands);
        let mut events = Vec::with_capacity(QUEUE);
        events.extend_from_slice(&self.events);
        Self {
            settings: self.settings,
            keys: self.keys,
            sustain: self.sustain,
            sostenuto: self.sostenuto,
            una_corda: self.una_corda,
            commands,
            events,
            now: self.now,
        }
    }
}

impl Model for Action {
    fn initialize(&mut self, _t: f64) {}

    fn advance(&mut self, t0: f64, t1: f64) -> Option<StepAdjustment> {
        let mut t = t0;
        // Commands due by the step's end, each at its own time.
        while let Some(&(time, command)) = self.commands.first() {
            if time > t1 {
                break;
            }
            let at = time.max(t);
            if at > t {
                self.evolve(t, at);
                t = at;
            }
            self.commands.remove(0);
            self.now = t;
            self.apply(command);
        }
        if t1 > t {
            self.evolve(t, t1);
        }
        None
    }

    fn max_step_size(&self) -> Option<f64> {
        // Dampers and the check are resolved to a millisecond.
        Some(1e-3)
    }

    /// The action's motion is solved in closed form: it never asks for a
    /// shorter step.
    fn may_reject_steps(&self) -> bool {
        false
    }

    fn save_state(&self) -> ModelState {
        let mut values = Vec::with_capacity(3 + KEYS * Key::FIELDS);
        values.extend([
            self.sustain,
            if self.sostenuto { 1.0 } else { 0.0 },
            self.una_corda,
        ]);
        for key in &self.keys {
            key.save(&mut values);
        }
        ModelState(values)
    }

    fn restore_state(&mut self, state: &ModelState) {
        let values = &state.0;
        if values.len() != 3 + KEYS * Key::FIELDS {
            return;
        }
        self.sustain = values[0];
        self.sostenuto = values[1] != 0.0;
        self.una_corda = values[2];
        for (key, chunk) in self.keys.iter_mut().zip(values[3..].chunks(Key::FIELDS)) {
            *key = Key::restore(chunk);
        }
    }
}

impl PropertyAccess for Action {
    fn property(&self, path: &str) -> Option<f64> {
        let s = &self.settings;
        match path {
            "pedals:sustain" => return Some(self.sustain),
            "pedals:una_corda" => return Some(self.una_corda),
            _ => {}
        }
        Some(match path.strip_prefix("action:")? {
            "blow_distance" => s.blow_distance,
            "let_off" => s.let_off,
            "check_drop" => s.check_drop,
            "softest_speed" => s.velocity.softest_speed_m_s,
            "hardest_speed" => s.velocity.hardest_speed_m_s,
            "curve" => s.velocity.curve,
            "restitution" => s.restitution,
            "key_return_s" => s.key_return_s,
            "repetition_rise" => s.repetition_rise,
            "damper_travel_s" => s.damper_travel_s,
            "realistic_travel" => f64::from(u8::from(s.realistic_travel)),
            _ => return None,
        })
    }

    fn set_property(&mut self, path: &str, value: f64) -> Result<(), PropertyError> {
        let (min, max) = Self::property_range(path)
            .ok_or_else(|| PropertyError::UnknownPath(path.to_string()))?;
        let name = path.strip_prefix("action:").unwrap_or(path);
        if !(value >= min && value <= max) {
            return Err(PropertyError::OutOfRange {
                path: path.to_string(),
                value,
                min,
                max,
            });
        }
        let s = &mut self.settings;
        match name {
            "blow_distance" => s.blow_distance = value,
            "let_off" => s.let_off = value,
            "check_drop" => s.check_drop = value,
            "softest_speed" => s.velocity.softest_speed_m_s = value,
            "hardest_speed" => s.velocity.hardest_speed_m_s = value,
            "curve" => s.velocity.curve = value,
            "restitution" => s.restitution = value,
            "key_return_s" => s.key_return_s = value,
            "repetition_rise" => s.repetition_rise = value,
            "damper_travel_s" => s.damper_travel_s = value,
            _ => s.realistic_travel = value >= 0.5,
        }
        Ok(())
    }
}
