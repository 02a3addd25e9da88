//! The mechanical worker: the instrument's slow mechanics (the grand action, or
//! a thrown mallet) at control rate, turning the player's commands into
//! timestamped operations for the audio thread. It owns the mechanical
//! [`RootModel`] (the action is one of its models, advanced by the scheduler)
//! and the [`PropertyTree`] that checks every property edit.
//!
//! The worker steps a fixed grid of control samples. A grid sample `b` is
//! stepped once every command stamped at or before `b` is known (a
//! [`ToWorker::Clock`] later than `b` has arrived); what the action did in
//! `(b − period, b]` becomes operations stamped `b + latency`. The same messages
//! therefore give the same operations whether the worker runs inline (lock-step)
//! or on its own thread (realtime), and whatever the audio block size.

use rtrb::{Consumer, Producer};

use super::SynthEvent;
use super::ops::{Operation, Stamped, ToWorker};
use super::synth::DEFAULT_RELEASE_VELOCITY;
use super::triple_buffer::Publisher;
use super::view::MechanicsView;
use crate::instrument::Preset;
use crate::mech::action::{
    Action, ActionCommand, ActionEvent, KEYS, LOWEST_NOTE, VelocityCurve, key_index,
};
use crate::mech::property::PropertyTree;
use crate::mech::scheduler::{ModelId, RootModel};

/// Control rate of the mechanics, Hz.
pub const CONTROL_RATE_HZ: f64 = 3_000.0;

/// Action events one control period may produce: a let-off and a damper move
/// for every key, twice over.
const ACTION_EVENTS: usize = 4 * KEYS;

/// Control steps between two views published for the editor (about 60 per second).
const STEPS_PER_VIEW: u64 = 50;

/// Longest and shortest step of the root model, s.
const MAX_STEP_S: f64 = 1e-3;
const MIN_STEP_S: f64 = 1e-7;

/// The instrument's mechanics.
pub struct Worker {
    /// The mechanical models, advanced by the scheduler.
    root: RootModel,
    /// The grand action among them, if the instrument has one.
    action: Option<ModelId>,
    /// The action's events of the present step.
    events: Vec<(f64, ActionEvent)>,
    /// Every mechanical property: description, unit, range, value.
    properties: PropertyTree,
    /// Velocity to hammer speed for instruments without an action.
    velocity: VelocityCurve,
    sample_rate: f64,
    /// Samples per control period.
    period: u64,
    /// The next grid sample to step.
    next_step: u64,
    /// Samples between a control step and the operations it produces.
    latency: u64,
    /// The current reset epoch.
    epoch: u32,
    /// Property edits refused (unknown path, NaN, out of range).
    rejected: u64,
    /// Where the editor's view of the mechanics goes, if anyone watches.
    view: Option<Publisher<MechanicsView>>,
    /// Control steps since the last view.
    steps_since_view: u64,

    /// Per key: the peak force of its hammer's last contact, N.
    contact_force: [f32; KEYS],
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker")
            .field("next_step", &self.next_step)
            .field("latency", &self.latency)
            .field("rejected", &self.rejected)
            .finish_non_exhaustive()
    }
}

impl Worker {
    /// The mechanics of `preset` at `sample_rate` (Hz); operations are stamped
    /// `latency` samples after the control step that makes them.
    ///
    /// Allocates: the root model, the action's queues and the property tree.
    pub fn new(preset: &Preset, sample_rate: f64, latency: u64) -> Self {
        let mut root =
            RootModel::new(MAX_STEP_S, MIN_STEP_S).expect("the worker's step sizes are valid");
        let mut properties = PropertyTree::new();
        let action = preset.topology().ok().and_then(|t| {
            let spec = t.action?;
            let damper_travel_s = t.dampers.map_or(0.006, |d| d.travel_s);
            let settings = spec.settings(preset.velocity, t.hammers.start_gap_m, damper_travel_s);
            let action = Action::new(settings);
            action.declare_properties(&mut properties);
            Some(root.add_model("action", Box::new(action)))
        });
        // Nothing can fail at t = 0 without agents; a failure would only leave
        // the waypoint unsaved.
        let _ = root.initialize();
        Self {
            root,
            action,
            events: Vec::with_capacity(ACTION_EVENTS),
            properties,
            velocity: preset.velocity,
            sample_rate,
            period: (sample_rate / CONTROL_RATE_HZ).round().max(1.0) as u64,
            next_step: 0,
            latency,
            epoch: 0,
            rejected: 0,
            view: None,
            steps_since_view: 0,
            contact_force: [0.0; KEYS],
        }
    }

    /// The grand action, if the instrument has one.
    pub fn action(&self) -> Option<&Action> {
        self.root.model_as(self.action?)
    }

    fn action_mut(&mut self) -> Option<&mut Action> {
        self.root.model_as_mut(self.action?)
    }

    /// Every mechanical property, with its description, unit, range and value.
    pub fn properties(&self) -> &PropertyTree {
        &self.properties
    }

    /// Publishes a view of the mechanics to `view` about 60 times a second.
    pub fn publish_view_to(&mut self, view: Publisher<MechanicsView>) {
        self.view = Some(view);
    }

    /// Continues where `previous` (another instrument's mechanics) stopped: its
    /// clock, its epoch and its view; the pedals and held keys, hammers at rest
    /// ([`Action::continue_from`]).
    fn take_over(&mut self, previous: &mut Worker) {
        self.take_clock_and_view(previous);
        if let (Some(old), Some(new)) = (previous.action(), self.action_mut()) {
            new.continue_from(old);
        }
    }

    /// Carries on everything `previous` (the same instrument with other
    /// values) is doing: its clock, epoch and view, what the editor sees, and
    /// the whole action in motion ([`Action::continue_motion_from`]). The
    /// operations `previous` has sent stay valid: no new epoch begins.
    ///
    /// Allocates nothing.
    fn carry_on_from(&mut self, previous: &mut Worker) {
        self.take_clock_and_view(previous);
        self.steps_since_view = previous.steps_since_view;
        self.rejected = previous.rejected;
        self.contact_force = previous.contact_force;
        if let (Some(old), Some(new)) = (previous.action(), self.action_mut()) {
            new.continue_motion_from(old);
        }
    }

    /// Takes `previous`'s place on the control grid, its epoch and its view.
    fn take_clock_and_view(&mut self, previous: &mut Worker) {
        self.next_step = previous.next_step;
        self.epoch = previous.epoch;
        self.view = previous.view.take();
    }

    /// Starts reset epoch `epoch` at sample `at`: operations of older epochs are
    /// dropped by the audio thread, and the grid resumes at the next control
    /// sample.
    fn begin_epoch(&mut self, at: u64, epoch: u32) {
        self.epoch = epoch;
        self.events.clear();
        self.next_step = at.div_ceil(self.period) * self.period;
    }

    /// Samples between a command and its earliest operation.
    pub fn latency(&self) -> u64 {
        self.latency
    }

    /// Property edits refused so far.
    pub fn rejected_edits(&self) -> u64 {
        self.rejected
    }

    /// Handles one message; operations go to `out`, in time order.
    pub fn receive(
        &mut self,
        message: Stamped<ToWorker>,
        out: &mut impl FnMut(Stamped<Operation>),
    ) {
        let at = message.at;
        match message.item {
            ToWorker::Perform(event) => self.perform(at, event, out),
            ToWorker::Rebound {
                key,
                speed_m_s,
                peak_force_n,
            } => {
                if let Some(slot) = key_index(key).map(|i| &mut self.contact_force[i]) {
                    *slot = peak_force_n as f32;
                }
                let t = self.time_s(at);
                if let Some(action) = self.action_mut() {
                    action.command(
                        t,
                        ActionCommand::Rebound {
                            note: key,
                            speed: speed_m_s,
                        },
                    );
                }
            }

            ToWorker::SetProperty { path, value } => {
                if !self.set_property(path, value) {
                    self.rejected += 1;
                }
            }
            ToWorker::Reset => {
                if let Some(action) = self.action_mut() {
                    action.reset();
                }
                self.begin_epoch(at, message.epoch);
            }
            ToWorker::Clock => self.run_until(at, out),
            // Handled by the host that owns the worker.
            ToWorker::Install { .. } => {}
        }
    }

    /// Sets a mechanical property by path (`action:*`, see [`Action`]) in the
    /// property tree and the model. Unknown paths and values outside the range
    /// (NaN too) are refused: nothing changes and it returns false. Checked
    /// before anything is built, so a refusal allocates nothing.
    pub fn set_property(&mut self, path: &str, value: f64) -> bool {
        if !self.properties.accepts(path, value) {
            return false;
        }
        let Some(id) = self.action else {
            return false;
        };
        self.properties.set(path, value).is_ok()
            && self.root.model_mut(id).set_property(path, value).is_ok()
    }

    fn time_s(&self, sample: u64) -> f64 {
        sample as f64 / self.sample_rate
    }

    /// A player's command at sample `at`.
    fn perform(&mut self, at: u64, event: SynthEvent, out: &mut impl FnMut(Stamped<Operation>)) {
        let t = self.time_s(at);
        let (latency, epoch, velocity_curve) = (self.latency, self.epoch, self.velocity);
        let Some(action) = self.action_mut() else {
            // No action: a note-on throws the hammer (mallet) itself, at once.
            if let SynthEvent::NoteOn { key, velocity } = event
                && velocity > 0.0
            {
                out(Stamped {
                    at: at + latency,
                    epoch,
                    item: Operation::Strike {
                        key,
                        speed_m_s: velocity_curve.speed(f64::from(velocity)),
                        shifted: false,
                    },
                });
            }
            return;
        };
        let mut command = |c| {
            action.command(t, c);
        };
        match event {
            SynthEvent::NoteOn { key, velocity } if velocity > 0.0 => {
                let velocity = (velocity.min(1.0) * 127.0).round().max(1.0) as u8;
                command(ActionCommand::KeyDown {
                    note: key,
                    velocity,
                });
            }
            // Velocity 0 (or NaN) is a note-off, as in MIDI.
            SynthEvent::NoteOn { key, .. } => command(ActionCommand::KeyUp {
                note: key,
                velocity: f64::from(DEFAULT_RELEASE_VELOCITY),
            }),
            SynthEvent::NoteOff { key, velocity } => command(ActionCommand::KeyUp {
                note: key,
                velocity: f64::from(velocity),
            }),
            SynthEvent::Sustain(depth) => {
                command(ActionCommand::Sustain(f64::from(depth).clamp(0.0, 1.0)));
            }
            SynthEvent::Sostenuto(down) => command(ActionCommand::Sostenuto(down)),
            SynthEvent::UnaCorda(depth) => {
                command(ActionCommand::UnaCorda(f64::from(depth).clamp(0.0, 1.0)));
            }
            SynthEvent::AllNotesOff => {
                for key in 0..KEYS as u8 {
                    command(ActionCommand::KeyUp {
                        note: LOWEST_NOTE + key,
                        velocity: f64::from(DEFAULT_RELEASE_VELOCITY),
                    });
                }
                command(ActionCommand::Sustain(0.0));
                command(ActionCommand::Sostenuto(false));
            }
            SynthEvent::AllSoundOff => {}
        }
    }

    /// Steps every grid sample before `clock`.
    fn run_until(&mut self, clock: u64, out: &mut impl FnMut(Stamped<Operation>)) {
        while self.next_step < clock {
            let b = self.next_step;
            self.step(b, out);
            self.next_step = b + self.period;
            self.steps_since_view += 1;
            if self.steps_since_view >= STEPS_PER_VIEW {
                self.steps_since_view = 0;
                self.publish_view(b);
            }
        }
    }

    /// Writes the present state of keys, hammers, dampers and pedals to the view.
    fn publish_view(&mut self, sample: u64) {
        let time_s = self.time_s(sample);
        let rejected_edits = self.rejected;
        let contact_force = self.contact_force;
        let Some(action) = self.action.and_then(|id| self.root.model_as::<Action>(id)) else {
            return;
        };
        let Some(view) = self.view.as_mut() else {
            return;
        };
        view.publish_with(|v| {
            v.time_s = time_s;
            for (i, note) in (LOWEST_NOTE..).take(KEYS).enumerate() {
                v.hammer_travel[i] = action.hammer_travel(note).unwrap_or(0.0) as f32;
                v.damper[i] = action.damper(note).unwrap_or(1.0) as f32;
                v.key_down[i] = action.key_down(note).unwrap_or(false);
            }
            v.last_contact_force_n = contact_force;
            v.sustain = action.sustain() as f32;
            v.sostenuto = action.sostenuto();
            v.una_corda = action.una_corda() as f32;
            v.rejected_edits = rejected_edits;
        });
    }

    /// Advances the mechanics to grid sample `b` and sends what the action did.
    fn step(&mut self, b: u64, out: &mut impl FnMut(Stamped<Operation>)) {
        let t1 = self.time_s(b);
        // The step before the first grid sample starts before 0, so that
        // commands at 0 are taken at the first step.
        let t0 = (b as f64 - self.period as f64) / self.sample_rate;
        let (latency, epoch) = (self.latency, self.epoch);
        // The action is solved in closed form and has no agents: the step
        // cannot fail.
        let _ = self.root.advance(t0, t1);
        let Some(id) = self.action else {
            return;
        };
        let Some(action) = self.root.model_as_mut::<Action>(id) else {
            return;
        };
        let events = &mut self.events;
        action.drain_events(events);
        let shifted = action.una_corda() >= 0.5;
        for &(_, event) in events.iter() {
            let item = match event {
                ActionEvent::LetOff { note, speed } => Operation::Strike {
                    key: note,
                    speed_m_s: speed,
                    shifted,
                },
                ActionEvent::Damper { note, amount } => Operation::Damper { key: note, amount },
            };
            out(Stamped {
                at: b + latency,
                epoch,
                item,
            });
        }
        events.clear();
    }
}

/// The worker with its ends of the queues: what runs inline in lock-step mode
/// and on the worker's thread in realtime mode.
pub(super) struct WorkerHost {
    pub worker: Box<Worker>,
    pub commands: Consumer<Stamped<ToWorker>>,
    pub operations: Producer<Stamped<Operation>>,
    /// Workers of instruments about to be installed.
    pub installs: Consumer<Box<Worker>>,
    /// Replaced workers, back to the loader to be freed off the audio thread.
    pub retired: Producer<Box<Worker>>,
}

impl WorkerHost {
    /// Handles every message waiting; `before` sees each one first.
    pub fn drain(&mut self, mut before: impl FnMut(&Stamped<ToWorker>)) {
        while let Ok(message) = self.commands.pop() {
            before(&message);
            if let ToWorker::Install { live } = message.item {
                self.install(message, live);
                continue;
            }
            let operations = &mut self.operations;
            self.worker.receive(message, &mut |op| {
                // A full queue means the audio thread has stopped reading; the
                // operation is lost with it.
                let _ = operations.push(op);
            });
        }
    }

    /// Replaces the worker with the next one installed: `live`, carrying on
    /// the old one's motion and epoch; otherwise from the message's sample and
    /// epoch on, with the hammers at rest.
    fn install(&mut self, message: Stamped<ToWorker>, live: bool) {
        let Ok(mut next) = self.installs.pop() else {
            return;
        };
        if live {
            next.carry_on_from(&mut self.worker);
        } else {
            next.take_over(&mut self.worker);
            next.begin_epoch(message.at, message.epoch);
        }
        let previous = std::mem::replace(&mut self.worker, next);
        if let Err(rtrb::PushError::Full(previous)) = self.retired.push(previous) {
            // The loader has not collected the last ones: keep the memory
            // rather than free it here, which may be the audio thread.
            std::mem::forget(previous);
        }
    }
}
