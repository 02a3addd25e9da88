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
//!
//! One concept per file: `keyboard` (which keys), `messages` (commands in,
//! events out), `settings` and `velocity_curve`, `key` (one key's moving
//! parts), `pedals`, `motion` (how the parts move), `model` (the action under
//! the scheduler) and `properties` (its property table). The [`Action`]
//! itself, its queues and what it shows are here.

mod key;
mod keyboard;
mod messages;
mod model;
mod motion;
mod pedals;
mod properties;
mod settings;

pub use crate::instrument::VelocityCurve;
pub use keyboard::{KEYS, LOWEST_NOTE, NOTES, key_index};
pub use messages::{ActionCommand, ActionEvent};
pub use properties::Setting;
pub use settings::ActionSettings;

use crate::capacity::copy_within_capacity;

use key::Key;
use pedals::Pedals;

/// A grand piano's 88 actions and its three pedals.
#[derive(Debug)]
pub struct Action {
    settings: ActionSettings,
    keys: [Key; KEYS],
    pedals: Pedals,
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
            pedals: Pedals::UP,
            commands: Vec::with_capacity(QUEUE),
            events: Vec::with_capacity(QUEUE),
            now: 0.0,
        }
    }

    /// Every key at rest, dampers down, pedals up, queues emptied (their
    /// capacity kept, so this does not allocate).
    pub fn reset(&mut self) {
        self.keys = [Key::REST; KEYS];
        self.pedals = Pedals::UP;
        self.commands.clear();
        self.events.clear();
        self.now = 0.0;
    }

    /// Takes over where `previous` (another instrument's action) is: the pedals
    /// and which keys are held, with their dampers; every hammer at rest. A
    /// player who switches instruments with the pedal down keeps it down.
    pub fn continue_from(&mut self, previous: &Action) {
        self.pedals = previous.pedals;
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
        self.pedals = previous.pedals;
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
        self.pedals.una_corda
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
        self.pedals.sustain
    }

    /// Whether the sostenuto pedal is down.
    pub fn sostenuto(&self) -> bool {
        self.pedals.sostenuto
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
            pedals: self.pedals,
            commands,
            events,
            now: self.now,
        }
    }
}
