//! The grand piano's mechanics: its action (keys, hammers, dampers and three
//! pedals, [`Action`]) as the worker drives it, turning let-offs into strikes
//! and damper moves into damper operations.

use super::action::{Action, ActionCommand, ActionEvent, ActionSettings, KEYS, LOWEST_NOTE};
use crate::mech::property::PropertyTree;
use crate::mech::{Model, ModelState, PropertyAccess, PropertyError, StepAdjustment};
use crate::rt::{DEFAULT_RELEASE_VELOCITY, Mechanics, Operation, Pedals, SynthEvent};

/// Action events one control period may produce: a let-off and a damper move
/// for every key, twice over.
const ACTION_EVENTS: usize = 4 * KEYS;

/// A grand action and the events of its present step.
#[derive(Debug)]
pub struct PianoMechanics {
    action: Action,
    /// The action's events of the present step (time s, event).
    events: Vec<(f64, ActionEvent)>,
}

impl PianoMechanics {
    /// An action with `settings`, every key at rest.
    ///
    /// Allocates: the action's queues and the event buffer.
    pub fn new(settings: ActionSettings) -> Self {
        Self {
            action: Action::new(settings),
            events: Vec::with_capacity(ACTION_EVENTS),
        }
    }

    /// The action.
    pub fn action(&self) -> &Action {
        &self.action
    }

    /// `previous` as a grand's mechanics, if it is one.
    fn grand(previous: &dyn Mechanics) -> Option<&Action> {
        previous
            .as_any()
            .downcast_ref::<PianoMechanics>()
            .map(|m| &m.action)
    }
}

impl Model for PianoMechanics {
    fn initialize(&mut self, t: f64) {
        self.action.initialize(t);
    }

    fn preadvance(&mut self, t0: f64, t1: f64) -> Option<StepAdjustment> {
        self.action.preadvance(t0, t1)
    }

    fn advance(&mut self, t0: f64, t1: f64) -> Option<StepAdjustment> {
        self.action.advance(t0, t1)
    }

    fn max_step_size(&self) -> Option<f64> {
        self.action.max_step_size()
    }

    fn save_state(&self) -> ModelState {
        self.action.save_state()
    }

    fn may_reject_steps(&self) -> bool {
        self.action.may_reject_steps()
    }

    fn restore_state(&mut self, state: &ModelState) {
        self.action.restore_state(state);
    }
}

impl PropertyAccess for PianoMechanics {
    fn property(&self, path: &str) -> Option<f64> {
        self.action.property(path)
    }

    fn set_property(&mut self, path: &str, value: f64) -> Result<(), PropertyError> {
        self.action.set_property(path, value)
    }
}

impl Mechanics for PianoMechanics {
    fn perform(&mut self, t_s: f64, event: SynthEvent, _now: &mut dyn FnMut(Operation)) {
        let action = &mut self.action;
        let mut command = |c| {
            action.command(t_s, c);
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

    fn rebound(&mut self, t_s: f64, key: u8, speed_m_s: f64) {
        self.action.command(
            t_s,
            ActionCommand::Rebound {
                note: key,
                speed: speed_m_s,
            },
        );
    }

    fn drain_operations(&mut self, out: &mut dyn FnMut(Operation)) {
        self.action.drain_events(&mut self.events);
        let shifted = self.action.una_corda() >= 0.5;
        for &(_, event) in &self.events {
            out(match event {
                ActionEvent::LetOff { note, speed } => Operation::Strike {
                    key: note,
                    speed_m_s: speed,
                    shifted,
                },
                ActionEvent::Damper { note, amount } => Operation::Damper { key: note, amount },
            });
        }
        self.events.clear();
    }

    fn reset(&mut self) {
        self.action.reset();
        self.events.clear();
    }

    fn continue_from(&mut self, previous: &dyn Mechanics) {
        if let Some(old) = Self::grand(previous) {
            self.action.continue_from(old);
        }
    }

    fn continue_motion_from(&mut self, previous: &dyn Mechanics) {
        if let Some(old) = Self::grand(previous) {
            self.action.continue_motion_from(old);
        }
    }

    fn declare_properties(&self, tree: &mut PropertyTree) {
        self.action.declare_properties(tree);
    }

    fn striker_travel(&self, key: u8) -> Option<f64> {
        self.action.hammer_travel(key)
    }

    fn damper(&self, key: u8) -> Option<f64> {
        self.action.damper(key)
    }

    fn key_down(&self, key: u8) -> Option<bool> {
        self.action.key_down(key)
    }

    fn pedals(&self) -> Pedals {
        Pedals {
            sustain: self.action.sustain(),
            sostenuto: self.action.sostenuto(),
            una_corda: self.action.una_corda(),
        }
    }
}
