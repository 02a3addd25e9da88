//! The celesta's simplified piano action: a key throws its hammer at the
//! speed the velocity curve gives, after the time the hammer takes to reach
//! its bar, and lifts the key's damper; the damper pedal (MIDI CC 64) lifts
//! every damper. A damper falls when neither its key nor the pedal holds it.
//!
//! The hammer is taken to reach its speed `v` evenly over its blow distance
//! `d` from rest, so it strikes `2·d/v` after the note-on (13 ms at 3 m/s
//! over 20 mm, 80 ms at 0.5 m/s): a soft note speaks later, as on a piano.
//! There is no escapement, check or repetition to simulate: a key struck
//! again throws its hammer again. The worker edits the blow distance live by
//! its preset path (`action:blow_distance_m`).

use crate::families::LiveProperties;
use crate::instrument::VelocityCurve;
use crate::mech::{Model, ModelState, StepAdjustment};
use crate::props::{PropertyAccess, PropertyError, PropertyTree};
use crate::rt::{Mechanics, Operation, Pedals, SynthEvent};

/// MIDI keys.
const KEYS: usize = 128;

/// Pedal depth from which the dampers are off the bars.
const PEDAL_LIFTS_AT: f64 = 0.5;

/// Keys, hammers in flight, dampers and the pedal.
#[derive(Debug, Clone)]
pub struct CelestaAction {
    /// Velocity to hammer speed.
    velocity: VelocityCurve,
    /// Hammer travel from rest to the bar, m.
    blow_distance_m: f64,
    /// Which keys are held down.
    down: [bool; KEYS],
    /// Each key's hammer in flight: when it meets its bar (s) and how fast
    /// (m/s).
    flying: [Option<(f64, f64)>; KEYS],
    /// Which dampers are lifted off their bars.
    lifted: [bool; KEYS],
    /// Damper pedal depth, 0 to 1.
    sustain: f64,
    /// The strikes of the present step, in key order.
    strikes: Vec<Operation>,
    /// The blow distance by its preset path, if the worker may edit it.
    live: LiveProperties,
}

impl CelestaAction {
    /// An action at rest whose hammers fly `blow_distance_m` (m) at the
    /// speeds `velocity` gives; `live`, the celesta's live fields (its blow
    /// distance) by their preset paths, lets the worker edit it.
    ///
    /// Allocates: the buffer of a step's strikes.
    pub fn new(velocity: VelocityCurve, blow_distance_m: f64, live: LiveProperties) -> Self {
        Self {
            velocity,
            blow_distance_m,
            down: [false; KEYS],
            flying: [None; KEYS],
            lifted: [false; KEYS],
            sustain: 0.0,
            strikes: Vec::with_capacity(KEYS),
            live,
        }
    }

    /// Puts each damper where its key and the pedal want it, telling `now`
    /// of every one that moves.
    fn place_dampers(&mut self, now: &mut dyn FnMut(Operation)) {
        let pedal = self.sustain >= PEDAL_LIFTS_AT;
        for key in 0..KEYS {
            let lift = pedal || self.down[key];
            if lift != self.lifted[key] {
                self.lifted[key] = lift;
                now(Operation::Damper {
                    key: key as u8,
                    amount: if lift { 0.0 } else { 1.0 },
                });
            }
        }
    }

    fn release(&mut self, key: u8) {
        if let Some(down) = self.down.get_mut(usize::from(key)) {
            *down = false;
        }
    }
}

impl Model for CelestaAction {
    fn initialize(&mut self, _t: f64) {}

    fn advance(&mut self, _t0: f64, t1: f64) -> Option<StepAdjustment> {
        for (key, flying) in self.flying.iter_mut().enumerate() {
            if let Some((at_s, speed_m_s)) = *flying
                && at_s <= t1
            {
                *flying = None;
                self.strikes.push(Operation::Strike {
                    key: key as u8,
                    speed_m_s,
                    shifted: false,
                });
            }
        }
        None
    }

    /// The pedal, then per key: down (0 or 1), damper lifted (0 or 1), and
    /// the hammer's strike time (s) and speed (m/s), NaN when at rest.
    ///
    /// Allocates: the state.
    fn save_state(&self) -> ModelState {
        let mut state = Vec::with_capacity(1 + 4 * KEYS);
        state.push(self.sustain);
        for key in 0..KEYS {
            let (at_s, speed) = self.flying[key].unwrap_or((f64::NAN, f64::NAN));
            let flag = |on: bool| f64::from(u8::from(on));
            state.extend([flag(self.down[key]), flag(self.lifted[key]), at_s, speed]);
        }
        ModelState(state)
    }

    /// Strikes are decided at the end of a step and never retried.
    fn may_reject_steps(&self) -> bool {
        false
    }

    fn restore_state(&mut self, state: &ModelState) {
        let Some((&sustain, keys)) = state.0.split_first() else {
            return;
        };
        self.sustain = sustain;
        for (key, values) in keys.chunks_exact(4).take(KEYS).enumerate() {
            self.down[key] = values[0] != 0.0;
            self.lifted[key] = values[1] != 0.0;
            self.flying[key] = (!values[2].is_nan()).then_some((values[2], values[3]));
        }
    }
}

/// Reads and sets the blow distance by its preset path, within the preset's
/// range.
impl PropertyAccess for CelestaAction {
    fn property(&self, path: &str) -> Option<f64> {
        self.live.info(path).map(|_| self.blow_distance_m)
    }

    fn set_property(&mut self, path: &str, value: f64) -> Result<(), PropertyError> {
        self.live.edit(path, value)?;
        self.blow_distance_m = value;
        Ok(())
    }
}

impl Mechanics for CelestaAction {
    fn perform(&mut self, t_s: f64, event: SynthEvent, now: &mut dyn FnMut(Operation)) {
        match event {
            SynthEvent::NoteOn { key, velocity } if velocity > 0.0 => {
                let index = usize::from(key);
                if index >= KEYS {
                    return;
                }
                let speed = self.velocity.speed(f64::from(velocity));
                self.down[index] = true;
                self.flying[index] = Some((t_s + 2.0 * self.blow_distance_m / speed, speed));
            }
            SynthEvent::NoteOn { key, .. } | SynthEvent::NoteOff { key, .. } => self.release(key),
            SynthEvent::Sustain(depth) => self.sustain = f64::from(depth).clamp(0.0, 1.0),
            SynthEvent::AllNotesOff => {
                self.down = [false; KEYS];
                self.sustain = 0.0;
            }
            SynthEvent::Sostenuto(_) | SynthEvent::UnaCorda(_) | SynthEvent::AllSoundOff => {}
        }
        self.place_dampers(now);
    }

    fn drain_operations(&mut self, out: &mut dyn FnMut(Operation)) {
        for strike in self.strikes.drain(..) {
            out(strike);
        }
    }

    fn reset(&mut self) {
        self.down = [false; KEYS];
        self.flying = [None; KEYS];
        self.lifted = [false; KEYS];
        self.sustain = 0.0;
        self.strikes.clear();
    }

    fn continue_from(&mut self, previous: &dyn Mechanics) {
        for key in 0..KEYS as u8 {
            self.down[usize::from(key)] = previous.key_down(key).unwrap_or(false);
        }
        self.sustain = previous.pedals().sustain;
    }

    fn continue_motion_from(&mut self, previous: &dyn Mechanics) {
        // Field by field: cloning `old` would allocate its buffers.
        if let Some(old) = previous.as_any().downcast_ref::<CelestaAction>() {
            self.down = old.down;
            self.flying = old.flying;
            self.lifted = old.lifted;
            self.sustain = old.sustain;
        }
    }

    fn declare_properties(&self, tree: &mut PropertyTree) {
        self.live.declare(tree);
    }

    fn striker_travel(&self, key: u8) -> Option<f64> {
        let index = usize::from(key);
        (index < KEYS).then(|| f64::from(u8::from(self.flying[index].is_some())))
    }

    fn damper(&self, key: u8) -> Option<f64> {
        let index = usize::from(key);
        (index < KEYS).then(|| if self.lifted[index] { 0.0 } else { 1.0 })
    }

    fn key_down(&self, key: u8) -> Option<bool> {
        self.down.get(usize::from(key)).copied()
    }

    fn pedals(&self) -> Pedals {
        Pedals {
            sustain: self.sustain,
            ..Pedals::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rt::DEFAULT_RELEASE_VELOCITY;

    fn action() -> CelestaAction {
        let curve = VelocityCurve {
            softest_speed_m_s: 0.5,
            hardest_speed_m_s: 3.0,
            curve: 1.0,
        };
        CelestaAction::new(curve, 0.02, LiveProperties::default())
    }

    /// A note-on lifts the damper at once and strikes `2·d/v` later; a
    /// note-off drops the damper unless the pedal holds it, and the pedal's
    /// release drops it.
    #[test]
    fn keys_and_pedal_move_the_dampers_and_throw_the_hammers() {
        let mut action = action();
        let mut ops = Vec::new();
        action.perform(
            0.0,
            SynthEvent::NoteOn {
                key: 72,
                velocity: 1.0,
            },
            &mut |op| ops.push(op),
        );
        assert_eq!(
            ops,
            [Operation::Damper {
                key: 72,
                amount: 0.0
            }]
        );
        let mut struck = Vec::new();
        action.advance(0.0, 0.0125);
        action.drain_operations(&mut |op| struck.push(op));
        assert!(struck.is_empty(), "2·20 mm at 3 m/s is 13.3 ms");
        action.advance(0.0125, 0.0135);
        action.drain_operations(&mut |op| struck.push(op));
        assert_eq!(
            struck,
            [Operation::Strike {
                key: 72,
                speed_m_s: 3.0,
                shifted: false
            }]
        );
        ops.clear();
        action.perform(0.1, SynthEvent::Sustain(1.0), &mut |op| ops.push(op));
        assert_eq!(ops.len(), KEYS - 1, "every other damper lifts");
        ops.clear();
        action.perform(
            0.2,
            SynthEvent::NoteOff {
                key: 72,
                velocity: DEFAULT_RELEASE_VELOCITY,
            },
            &mut |op| ops.push(op),
        );
        assert!(ops.is_empty(), "the pedal holds the damper up");
        action.perform(0.3, SynthEvent::Sustain(0.0), &mut |op| ops.push(op));
        assert_eq!(ops.len(), KEYS);
        assert!(
            ops.iter()
                .all(|op| matches!(op, Operation::Damper { amount, .. } if *amount == 1.0))
        );
        assert_eq!(action.damper(72), Some(1.0));
    }

    /// The worker edits the blow distance by the preset's path, within the
    /// preset's range, and declares it as the preset does.
    #[test]
    fn the_blow_distance_is_edited_live_by_its_preset_path() {
        use crate::families::celesta::Celesta;
        use crate::instrument::Preset;
        use crate::rt::Family;
        let preset = Preset::builtin("celesta").unwrap().unwrap();
        let mut mechanics = Celesta.mechanics(&preset);
        let path = "action:blow_distance_m";
        assert_eq!(mechanics.property(path), preset.get(path));
        mechanics.set_property(path, 0.03).unwrap();
        assert_eq!(mechanics.property(path), Some(0.03));
        assert!(mechanics.set_property(path, 1.0).is_err());
        assert!(mechanics.set_property("action:box_q", 3.0).is_err());
        let mut tree = PropertyTree::new();
        mechanics.declare_properties(&mut tree);
        assert_eq!(tree.info(path), Ok(&preset.property_info(path).unwrap()));
    }

    /// A saved state restored brings back the keys, dampers, pedal and
    /// hammers in flight.
    #[test]
    fn a_saved_state_restores_the_action() {
        let mut action = action();
        let mut ignore = |_| {};
        action.perform(0.0, SynthEvent::Sustain(0.8), &mut ignore);
        action.perform(
            0.0,
            SynthEvent::NoteOn {
                key: 61,
                velocity: 0.5,
            },
            &mut ignore,
        );
        let saved = action.save_state();
        let mut other = self::action();
        other.restore_state(&saved);
        // NaN marks a hammer at rest: compare the bits.
        let bits = |state: ModelState| state.0.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(other.save_state()), bits(saved));
        assert_eq!(other.key_down(61), Some(true));
        assert_eq!(other.damper(20), Some(0.0));
        assert_eq!(other.striker_travel(61), Some(1.0));
    }
}
