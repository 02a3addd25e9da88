//! A chime or strike train: a spring turns a pin barrel, a fly (an air brake,
//! drag ∝ ω²) governs its speed, and each pin lifts a hammer against its
//! spring and drops it onto a rod. A locking detent holds the barrel until
//! the going train releases it, and stops it again after its run.

use super::spec::ClockSpec;
use crate::families::GovernedWheel;

/// Where in a slot a pin starts lifting its hammer, and where it lets go
/// (fractions of the slot).
const LIFT_FROM: f64 = 0.1;
const DROP_AT: f64 = 0.8;

/// Most hammers in flight at once (struck, not yet sent).
const PENDING: usize = 8;

/// How a pin lifts a hammer and what the hammer does when dropped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HammerLaw {
    /// Angle the pin lifts it through, rad.
    pub lift_rad: f64,
    /// Its spring, N·m/rad.
    pub spring_n_m_per_rad: f64,
    /// Its moment of inertia, kg·m².
    pub inertia_kg_m2: f64,
    /// From its arbor to its head, m.
    pub arm_m: f64,
}

impl HammerLaw {
    /// The hammers of `spec`.
    pub fn of(spec: &ClockSpec) -> Self {
        Self {
            lift_rad: spec.hammer_lift_rad,
            spring_n_m_per_rad: spec.hammer_spring_n_m_per_rad,
            inertia_kg_m2: spec.hammer_inertia_kg_m2,
            arm_m: spec.hammer_arm_m,
        }
    }

    /// Speed of the head when it meets the rod, m/s: the spring's energy
    /// `k·θ²/2` turned into `I·ω²/2`.
    pub fn strike_speed_m_s(&self) -> f64 {
        self.lift_rad * (self.spring_n_m_per_rad / self.inertia_kg_m2).sqrt() * self.arm_m
    }

    /// Time from the drop to the blow, s: a quarter period of the hammer on
    /// its spring.
    pub fn fall_s(&self) -> f64 {
        0.25 * std::f64::consts::TAU * (self.inertia_kg_m2 / self.spring_n_m_per_rad).sqrt()
    }
}

/// A hammer on its way to a rod.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FallingHammer {
    /// When it strikes, s.
    pub at_s: f64,
    /// Which hammer (the train's numbering).
    pub hammer: usize,
    /// Head speed at the blow, m/s.
    pub speed_m_s: f64,
}

/// A spring-driven, fly-governed pin barrel.
#[derive(Debug, Clone, PartialEq)]
pub struct PinTrain {
    /// Pin slots per turn.
    slots: usize,
    /// The barrel turning (angle grows; slot `k` spans `[k, k+1)·2π/slots`).
    barrel: GovernedWheel,
    /// Where the detent will stop it, rad; `None` while locked.
    stop_at: Option<f64>,
    /// Spring torque at the barrel, N·m.
    torque: f64,
    hammers: HammerLaw,
    falling: [Option<FallingHammer>; PENDING],
}

impl PinTrain {
    /// A locked train with `slots` pin slots per turn, driven by `torque`
    /// (N·m) and governed by `spec`'s fly.
    pub fn new(slots: usize, torque: f64, spec: &ClockSpec) -> Self {
        Self {
            slots,
            barrel: GovernedWheel::new(
                spec.fly_drag_n_m_s2,
                spec.fly_ratio,
                spec.barrel_inertia_kg_m2,
            ),
            stop_at: None,
            torque,
            hammers: HammerLaw::of(spec),
            falling: [None; PENDING],
        }
    }

    /// Takes `spec`'s and `torque`'s values, keeping the motion.
    pub fn retune(&mut self, torque: f64, spec: &ClockSpec) {
        let Self {
            barrel: GovernedWheel { angle, speed, .. },
            stop_at,
            falling,
            ..
        } = *self;
        *self = Self::new(self.slots, torque, spec);
        self.barrel.angle = angle;
        self.barrel.speed = speed;
        self.stop_at = stop_at;
        self.falling = falling;
    }

    /// Angle of one slot, rad.
    fn slot_angle(&self) -> f64 {
        std::f64::consts::TAU / self.slots as f64
    }

    /// The slot the barrel is in.
    pub fn slot(&self) -> usize {
        (self.barrel.angle / self.slot_angle()).floor() as usize
    }

    /// Puts the barrel at rest at the start of `slot`.
    pub fn rest_at(&mut self, slot: usize) {
        self.barrel.angle = slot as f64 * self.slot_angle();
        self.barrel.speed = 0.0;
        self.stop_at = None;
    }

    /// Releases the barrel to turn through `slots` slots.
    pub fn release(&mut self, slots: usize) {
        let start = self.slot() as f64 * self.slot_angle();
        self.stop_at = Some(start + slots as f64 * self.slot_angle());
    }

    /// Whether the barrel is turning.
    pub fn is_running(&self) -> bool {
        self.stop_at.is_some()
    }

    /// Pin slots the barrel has yet to turn through before the detent locks
    /// it (a slot begun counts whole); 0 while it is locked.
    pub fn slots_left(&self) -> usize {
        self.stop_at.map_or(0, |stop| {
            ((stop - self.barrel.angle) / self.slot_angle())
                .ceil()
                .max(0.0) as usize
        })
    }

    /// Barrel speed, rad/s.
    pub fn speed_rad_s(&self) -> f64 {
        self.barrel.speed
    }

    /// The steady speed the fly lets the barrel reach with no hammer to lift,
    /// rad/s.
    pub fn governed_speed_rad_s(&self) -> f64 {
        self.barrel.governed_speed_rad_s(self.torque)
    }

    /// Advances from `t0` to `t1` (s). `hammer_at(slot)` says which hammer
    /// the pins of a slot lift (`None`: none); each hammer dropped goes to
    /// the falling list. Returns true if the detent locked the barrel in
    /// this step.
    pub fn step(&mut self, t0: f64, t1: f64, hammer_at: impl Fn(usize) -> Option<usize>) -> bool {
        let Some(stop_at) = self.stop_at else {
            return false;
        };
        let dt = t1 - t0;
        let slot_angle = self.slot_angle();
        let slot = self.slot();
        let within = self.barrel.angle / slot_angle - slot as f64;
        let law = self.hammers;
        // The hammer being lifted pushes back through the pin.
        let lifting = hammer_at(slot).is_some() && (LIFT_FROM..DROP_AT).contains(&within);
        let load = if lifting {
            let rise = law.lift_rad / ((DROP_AT - LIFT_FROM) * slot_angle);
            let theta = rise * (within - LIFT_FROM) * slot_angle;
            law.spring_n_m_per_rad * theta * rise
        } else {
            0.0
        };
        let before = self.barrel.angle;
        self.barrel.turn(self.torque - load, dt);
        // A pin let go of its hammer within the step.
        let drop = (slot as f64 + DROP_AT) * slot_angle;
        if before < drop
            && self.barrel.angle >= drop
            && let Some(hammer) = hammer_at(slot)
        {
            let fraction = (drop - before) / (self.barrel.angle - before).max(f64::MIN_POSITIVE);
            let dropped_s = t0 + fraction * dt;
            self.fall(FallingHammer {
                at_s: dropped_s + law.fall_s(),
                hammer,
                speed_m_s: law.strike_speed_m_s(),
            });
        }
        if self.barrel.angle >= stop_at {
            self.barrel.angle = stop_at;
            self.barrel.speed = 0.0;
            self.stop_at = None;
            return true;
        }
        false
    }

    fn fall(&mut self, hammer: FallingHammer) {
        if let Some(free) = self.falling.iter_mut().find(|f| f.is_none()) {
            *free = Some(hammer);
        }
    }

    /// Hands over every hammer that has struck by `t_s`.
    pub fn land(&mut self, t_s: f64, out: &mut impl FnMut(FallingHammer)) {
        for slot in &mut self.falling {
            if let Some(hammer) = *slot
                && hammer.at_s <= t_s
            {
                *slot = None;
                out(hammer);
            }
        }
    }

    /// Everything at rest where it is, nothing falling.
    pub fn stop(&mut self) {
        self.barrel.speed = 0.0;
        self.stop_at = None;
        self.falling = [None; PENDING];
    }
}
