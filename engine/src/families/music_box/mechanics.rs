//! The music box's mechanics, as the worker drives them: the movement turns
//! the cylinder, and each pin sends its tine a pluck when it is the lead's
//! distance (plus the lift it will bend the tip by) before the tip, so that
//! the tine sounds as the pin's angle passes the comb. The plucks' reactions
//! come back as snapshots and slow the cylinder. MIDI notes pluck the tines
//! directly.

use super::movement::Movement;
use super::spec::MusicBoxSpec;
use crate::families::{LiveProperties, field_of};
use crate::instrument::{Preset, Rebound, VelocityCurve};
use crate::mech::ForwardModel;
use crate::props::{PropertyAccess, PropertyError, PropertyTree};
use crate::rt::{Mechanics, Operation, SynthEvent};

/// Operations one control step may produce at most; more are dropped.
const OPERATIONS: usize = 256;

/// A music box's movement and pinned cylinder.
#[derive(Debug)]
pub struct MusicBoxMechanics {
    spec: MusicBoxSpec,
    /// The box's preset object name: its live paths are `NAME:field`.
    name: String,
    movement: Movement,
    /// Each pin's pluck angle (where it is sent, rad in `[0, 2π)`) and key,
    /// in angle order.
    triggers: Vec<(f64, u8)>,
    /// The next pin to send and the revolution it is in.
    next: usize,
    revolution: i64,
    /// What MIDI notes pluck at.
    velocity: VelocityCurve,
    /// Per key: plucks sent by pins whose reaction has not come back yet.
    pending: [u16; 128],
    operations: Vec<Operation>,
    plucks: u64,
    reactions: u64,
    /// Angular impulse the reactions took from the cylinder so far, N·m·s.
    reaction_n_m_s: f64,
    live: LiveProperties,
}

/// Angle (rad) before a pin's own at which its pluck is sent: the pin
/// starts `lead_m` before the tip and the tip slips off after `lift_m`.
pub fn pluck_lead_rad(spec: &MusicBoxSpec, lead_m: f64) -> f64 {
    (lead_m + spec.lift_m) / spec.cylinder_radius_m
}

impl MusicBoxMechanics {
    /// The box of `preset` (its first `[music-box.NAME]`), cylinder at 0.
    /// Allocates.
    pub fn new(preset: &Preset) -> Option<Self> {
        let (name, spec) = preset.objects.of::<MusicBoxSpec>().next()?;
        let lead_m = preset.topology().ok()?.hammers.start_gap_m;
        let before = pluck_lead_rad(spec, lead_m);
        let mut triggers: Vec<(f64, u8)> = spec
            .pins
            .iter()
            .map(|pin| {
                let angle = (pin.angle_deg.to_radians() - before).rem_euclid(std::f64::consts::TAU);
                (angle, pin.key)
            })
            .collect();
        triggers.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut mechanics = Self {
            movement: Movement::new(spec),
            name: name.to_string(),
            spec: spec.clone(),
            triggers,
            next: 0,
            revolution: 0,
            velocity: preset.velocity,
            pending: [0; 128],
            operations: Vec::with_capacity(OPERATIONS),
            plucks: 0,
            reactions: 0,
            reaction_n_m_s: 0.0,
            live: LiveProperties::of(preset, name),
        };
        mechanics.aim();
        Some(mechanics)
    }

    /// The movement: spring, train, fly and cylinder.
    pub fn movement(&self) -> &Movement {
        &self.movement
    }

    /// The box's values.
    pub fn spec(&self) -> &MusicBoxSpec {
        &self.spec
    }

    /// Plucks the pins have sent so far.
    pub fn plucks(&self) -> u64 {
        self.plucks
    }

    /// Reactions of pins' plucks come back so far.
    pub fn reactions(&self) -> u64 {
        self.reactions
    }

    /// Angular impulse the plucks' reactions took from the cylinder, N·m·s.
    pub fn reaction_n_m_s(&self) -> f64 {
        self.reaction_n_m_s
    }

    /// Points `next` at the first pin whose pluck is still ahead.
    fn aim(&mut self) {
        let tau = std::f64::consts::TAU;
        let angle = self.movement.angle_rad();
        self.revolution = (angle / tau).floor() as i64;
        let within = angle - self.revolution as f64 * tau;
        self.next = self.triggers.partition_point(|&(a, _)| a <= within);
        if self.next == self.triggers.len() {
            self.next = 0;
            self.revolution += 1;
        }
    }

    /// Sends the plucks of every pin the cylinder has brought to its
    /// sending angle.
    fn send_plucks(&mut self) {
        let tau = std::f64::consts::TAU;
        let angle = self.movement.angle_rad();
        let speed_m_s = self.movement.speed_rad_s() * self.spec.cylinder_radius_m;
        while let Some(&(at, key)) = self.triggers.get(self.next) {
            if self.revolution as f64 * tau + at > angle {
                break;
            }
            if self.operations.len() < OPERATIONS {
                self.operations.push(Operation::Pluck { key, speed_m_s });
                self.plucks += 1;
                if let Some(p) = self.pending.get_mut(usize::from(key)) {
                    *p = p.saturating_add(1);
                }
            }
            self.next += 1;
            if self.next == self.triggers.len() {
                self.next = 0;
                self.revolution += 1;
            }
        }
    }

    /// Gives the live field `field` (one the box's object declares `live`,
    /// in range: [`LiveProperties::edit`] has checked it) `value`.
    fn apply_live(&mut self, field: &str, value: f64) {
        match field {
            "running" => self.spec.running = value >= 0.5,
            "wound" => {
                self.spec.wound = value;
                self.movement.set_wound(value);
            }
            _ => {}
        }
    }
}

/// The cylinder runs on; its plucks leave as its pins reach the tines.
impl ForwardModel for MusicBoxMechanics {
    fn step(&mut self, t0: f64, t1: f64) {
        self.movement.run(self.spec.running, t1 - t0);
        self.send_plucks();
    }
}

impl PropertyAccess for MusicBoxMechanics {
    fn property(&self, path: &str) -> Option<f64> {
        Some(match field_of(&self.name, path)? {
            "running" => f64::from(u8::from(self.spec.running)),
            "wound" => self.movement.wound(),
            "cylinder_angle_rad" => self.movement.angle_rad(),
            "cylinder_speed_rad_s" => self.movement.speed_rad_s(),
            _ => return None,
        })
    }

    fn set_property(&mut self, path: &str, value: f64) -> Result<(), PropertyError> {
        let field = self.live.edit(path, value)?;
        self.apply_live(field, value);
        Ok(())
    }
}

impl Mechanics for MusicBoxMechanics {
    /// A pin's pluck let go: its impulse `J` (N·s) at the cylinder's radius
    /// takes `r·J` of angular momentum from the cylinder. (A real pin pushes
    /// back all through the pluck; the snapshot hands the whole of it over
    /// as the tip slips off, a few tenths of a second late at most.) A
    /// MIDI note's pluck does not touch the cylinder.
    fn rebound(&mut self, _t_s: f64, key: u8, rebound: &Rebound) {
        let Some(pending) = self.pending.get_mut(usize::from(key)) else {
            return;
        };
        if *pending == 0 {
            return;
        }
        *pending -= 1;
        let angular = self.spec.cylinder_radius_m * rebound.impulse_n_s;
        self.movement.react(angular);
        self.reactions += 1;
        self.reaction_n_m_s += angular;
    }

    /// MIDI notes pluck the tines directly, the pin coming at the velocity
    /// curve's speed.
    fn perform(&mut self, _t_s: f64, event: SynthEvent, now: &mut dyn FnMut(Operation)) {
        if let SynthEvent::NoteOn { key, velocity } = event
            && velocity > 0.0
        {
            now(Operation::Pluck {
                key,
                speed_m_s: self.velocity.speed(f64::from(velocity)),
            });
        }
    }

    fn drain_operations(&mut self, out: &mut dyn FnMut(Operation)) {
        for operation in self.operations.drain(..) {
            out(operation);
        }
    }

    /// The stop lever falls: the cylinder stops, the tines ring out.
    fn wind_down(&mut self) {
        self.spec.running = false;
    }

    fn reset(&mut self) {
        self.operations.clear();
        self.pending = [0; 128];
    }

    fn continue_motion_from(&mut self, previous: &dyn Mechanics) {
        let Some(old) = previous.as_any().downcast_ref::<Self>() else {
            return;
        };
        self.movement.retune(&self.spec, &old.movement);
        if self.spec.running == old.spec.running {
            self.spec.running = old.spec.running;
        }
        self.pending = old.pending;
        self.plucks = old.plucks;
        self.reactions = old.reactions;
        self.reaction_n_m_s = old.reaction_n_m_s;
        self.aim();
    }

    fn declare_properties(&self, tree: &mut PropertyTree) {
        self.live.declare(tree);
    }
}
