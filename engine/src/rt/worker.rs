//! The mechanical worker: the instrument family's slow mechanics (a grand
//! action, a thrown mallet: a [`Mechanics`]) at control rate, turning the
//! player's commands into timestamped operations for the audio thread. It owns
//! the mechanical [`RootModel`] (the mechanics are its one model, advanced by
//! the scheduler and held as [`Mechanics`], so the worker reaches them without
//! a downcast) and the [`PropertyTree`] that checks every property edit.
//!
//! The worker steps a fixed grid of control samples. A grid sample `b` is
//! stepped once every command stamped at or before `b` is known (a
//! [`ToWorker::Clock`] later than `b` has arrived); what the mechanics did in
//! `(b − period, b]` becomes operations stamped `b + latency`. The same messages
//! therefore give the same operations whether the worker runs inline (lock-step)
//! or on its own thread (realtime), and whatever the audio block size.

use rtrb::{Consumer, Producer};

use super::mechanics::Mechanics;
use super::ops::{Operation, Stamped, ToWorker};
use super::triple_buffer::Publisher;
use super::view::{MIDI_KEYS, MechanicsView, MechanismSnapshot};
use crate::mech::scheduler::{ModelId, RootModel};
use crate::props::PropertyTree;

/// Control rate of the mechanics, Hz.
pub const CONTROL_RATE_HZ: f64 = 3_000.0;

/// Control steps between two views published for the editor (about 60 per second).
const STEPS_PER_VIEW: u64 = 50;

/// Longest and shortest step of the root model, s.
const MAX_STEP_S: f64 = 1e-3;
const MIN_STEP_S: f64 = 1e-7;

/// The instrument's mechanics.
pub struct Worker {
    /// The family's mechanics, advanced by the scheduler.
    root: RootModel<dyn Mechanics>,
    /// The mechanics' place in `root`.
    mechanics: ModelId,
    /// Every mechanical property: description, unit, range, value.
    properties: PropertyTree,
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

    /// Per MIDI key: the peak force of its striker's last contact, N.
    contact_force: [f32; MIDI_KEYS],
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
    /// Runs `mechanics` at `sample_rate` (Hz); operations are stamped
    /// `latency` samples after the control step that makes them.
    ///
    /// Allocates: the root model and the property tree.
    pub fn new(mechanics: Box<dyn Mechanics>, sample_rate: f64, latency: u64) -> Self {
        let mut root = RootModel::of_models(MAX_STEP_S, MIN_STEP_S)
            .expect("the worker's step sizes are valid");
        let mut properties = PropertyTree::new();
        mechanics.declare_properties(&mut properties);
        let mechanics = root.add_model("mechanics", mechanics);
        // Nothing can fail at t = 0 without agents; a failure would only leave
        // the waypoint unsaved.
        let _ = root.initialize();
        Self {
            root,
            mechanics,
            properties,
            sample_rate,
            period: (sample_rate / CONTROL_RATE_HZ).round().max(1.0) as u64,
            next_step: 0,
            latency,
            epoch: 0,
            rejected: 0,
            view: None,
            steps_since_view: 0,
            contact_force: [0.0; MIDI_KEYS],
        }
    }

    /// The family's mechanics.
    pub fn mechanics(&self) -> &dyn Mechanics {
        self.root.model(self.mechanics)
    }

    fn mechanics_mut(&mut self) -> &mut dyn Mechanics {
        self.root.model_mut(self.mechanics)
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
    /// clock, its epoch and its view; the pedals and held keys, strikers at
    /// rest ([`Mechanics::continue_from`]).
    fn take_over(&mut self, previous: &mut Worker) {
        self.take_clock_and_view(previous);
        self.mechanics_mut().continue_from(previous.mechanics());
    }

    /// Carries on everything `previous` (the same instrument with other
    /// values) is doing: its clock, epoch and view, what the editor sees, and
    /// the mechanics in motion ([`Mechanics::continue_motion_from`]). The
    /// operations `previous` has sent stay valid: no new epoch begins.
    ///
    /// Allocates nothing.
    fn carry_on_from(&mut self, previous: &mut Worker) {
        self.take_clock_and_view(previous);
        self.steps_since_view = previous.steps_since_view;
        self.rejected = previous.rejected;
        self.contact_force = previous.contact_force;
        self.mechanics_mut()
            .continue_motion_from(previous.mechanics());
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
            ToWorker::Rebound { key, rebound } => {
                if let Some(slot) = self.contact_force.get_mut(usize::from(key)) {
                    *slot = rebound.peak_force_n as f32;
                }
                let t = self.time_s(at);
                self.mechanics_mut().rebound(t, key, &rebound);
            }
            ToWorker::SetProperty { path, value } => {
                if !self.set_property(path, value) {
                    self.rejected += 1;
                }
            }
            ToWorker::Reset => {
                self.mechanics_mut().reset();
                self.begin_epoch(at, message.epoch);
            }
            ToWorker::Clock => self.run_until(at, out),
            ToWorker::WindDown => self.mechanics_mut().wind_down(),
            // Handled by the host that owns the worker.
            ToWorker::Install { .. } => {}
        }
    }

    /// Sets a mechanical property by path (`action:*` on a grand) in the
    /// property tree and the mechanics. Unknown paths and values outside the
    /// range (NaN too) are refused: nothing changes and it returns false.
    /// Checked before anything is built, so a refusal allocates nothing.
    pub fn set_property(&mut self, path: &str, value: f64) -> bool {
        if !self.properties.accepts(path, value) {
            return false;
        }
        self.properties.set(path, value).is_ok()
            && self.mechanics_mut().set_property(path, value).is_ok()
    }

    fn time_s(&self, sample: u64) -> f64 {
        sample as f64 / self.sample_rate
    }

    /// A player's command at sample `at`; operations it causes at once are
    /// stamped `at + latency`.
    fn perform(
        &mut self,
        at: u64,
        event: super::SynthEvent,
        out: &mut impl FnMut(Stamped<Operation>),
    ) {
        let t = self.time_s(at);
        let (stamp, epoch) = (at + self.latency, self.epoch);
        self.mechanics_mut().perform(t, event, &mut |item| {
            out(Stamped {
                at: stamp,
                epoch,
                item,
            });
        });
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

    /// Writes the present state of keys, strikers, dampers and pedals, and
    /// the mechanism the instrument runs, to the view.
    fn publish_view(&mut self, sample: u64) {
        let time_s = self.time_s(sample);
        let rejected_edits = self.rejected;
        let contact_force = self.contact_force;
        let Some(mut view) = self.view.take() else {
            return;
        };
        let mechanics = self.mechanics();
        view.publish_with(|v| {
            v.time_s = time_s;
            for key in 0..MIDI_KEYS as u8 {
                let i = usize::from(key);
                v.striker_travel[i] = mechanics.striker_travel(key).unwrap_or(0.0) as f32;
                v.damper[i] = mechanics.damper(key).unwrap_or(1.0) as f32;
                v.key_down[i] = mechanics.key_down(key).unwrap_or(false);
            }
            v.last_contact_force_n = contact_force;
            let pedals = mechanics.pedals();
            v.sustain = pedals.sustain as f32;
            v.sostenuto = pedals.sostenuto;
            v.una_corda = pedals.una_corda as f32;
            v.rejected_edits = rejected_edits;
            if !mechanics.publish_mechanism(&mut v.mechanism) {
                v.mechanism = MechanismSnapshot::default();
            }
        });
        self.view = Some(view);
    }

    /// Advances the mechanics to grid sample `b` and sends what they did.
    fn step(&mut self, b: u64, out: &mut impl FnMut(Stamped<Operation>)) {
        let t1 = self.time_s(b);
        // The step before the first grid sample starts before 0, so that
        // commands at 0 are taken at the first step.
        let t0 = (b as f64 - self.period as f64) / self.sample_rate;
        let (stamp, epoch) = (b + self.latency, self.epoch);
        // The built-in mechanics are solved in closed form and have no
        // agents: the step cannot fail.
        let _ = self.root.advance(t0, t1);
        self.mechanics_mut().drain_operations(&mut |item| {
            out(Stamped {
                at: stamp,
                epoch,
                item,
            });
        });
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
