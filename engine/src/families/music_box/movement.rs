//! The music box's movement: a mainspring in its barrel turns the pinned
//! cylinder through a gear train, and a fly governs it.
//!
//! The spring's torque is nearly flat over most of its turns, falling by
//! `spring_droop` from fully wound to nearly run down, and over its last
//! `spring_knee` it falls away (its coils lie on the arbor):
//!
//! `τ_s(u) = τ_full·(1 − droop·(1 − u))·(1 − e^(−u/knee))`,
//!
//! `u` the wound fraction. At the cylinder the torque is `τ_s/g` (`g` turns
//! of the cylinder per turn of the barrel), less the train's friction, a
//! constant torque; the fly's drag `c·ω²` meets it at `ω = √(τ_net/c)`: the
//! tempo holds nearly steady while the spring is flat and sags at the end.
//! A pluck's reaction, the angular impulse `r·J` that comes back from the
//! tine as it slips off, loads the cylinder over the next pluck's length
//! (a load torque decaying with that time constant, whose integral is
//! `r·J`): a real pin pushes back all through its pluck, and the snapshot
//! comes at its end. The fly settles within milliseconds, so what the
//! reaction costs is the time `r·J/(2·τ_net)` (`τ_net = c·ω²`).

use super::spec::MusicBoxSpec;
use crate::families::GovernedWheel;

/// The mainspring's torque at its barrel, N·m, at wound fraction `u`.
pub fn spring_torque_n_m(spec: &MusicBoxSpec, u: f64) -> f64 {
    if u <= 0.0 {
        return 0.0;
    }
    spec.spring_torque_n_m
        * (1.0 - spec.spring_droop * (1.0 - u))
        * (1.0 - (-u / spec.spring_knee).exp())
}

/// The net torque driving the cylinder at wound fraction `u`, N·m: the
/// spring's through the train, less friction.
pub fn net_torque_n_m(spec: &MusicBoxSpec, u: f64) -> f64 {
    spring_torque_n_m(spec, u) / spec.cylinder_turns_per_spring_turn - spec.friction_torque_n_m
}

/// Angle the cylinder turns from fully wound to run down, rad.
pub fn cylinder_travel_rad(spec: &MusicBoxSpec) -> f64 {
    std::f64::consts::TAU * spec.spring_turns * spec.cylinder_turns_per_spring_turn
}

/// Spring, train, fly and cylinder.
#[derive(Debug, Clone, PartialEq)]
pub struct Movement {
    spec: MusicBoxSpec,
    cylinder: GovernedWheel,
    /// Wound fraction when the cylinder's angle was 0.
    wound_at_zero: f64,
    /// Reactions' angular impulse still to load the cylinder, N·m·s.
    reaction_left_n_m_s: f64,
    /// Time over which it is loaded (its time constant), s.
    reaction_time_s: f64,
}

impl Movement {
    /// The movement of `spec`, at rest with its cylinder at 0 and its
    /// spring wound to `spec.wound`.
    pub fn new(spec: &MusicBoxSpec) -> Self {
        Self {
            cylinder: GovernedWheel::new(
                spec.fly_drag_n_m_s2,
                spec.fly_ratio,
                spec.cylinder_inertia_kg_m2,
            ),
            wound_at_zero: spec.wound,
            reaction_left_n_m_s: 0.0,
            reaction_time_s: 0.1,
            spec: spec.clone(),
        }
    }

    /// The fly's drag seen at the cylinder, `τ = c·ω²`, N·m·s².
    pub fn drag_n_m_s2(&self) -> f64 {
        self.cylinder.drag
    }

    /// Angle the cylinder has turned, rad (grows).
    pub fn angle_rad(&self) -> f64 {
        self.cylinder.angle
    }

    /// The cylinder's speed, rad/s.
    pub fn speed_rad_s(&self) -> f64 {
        self.cylinder.speed
    }

    /// How far the spring is wound now, 0 to 1.
    pub fn wound(&self) -> f64 {
        (self.wound_at_zero - self.cylinder.angle / cylinder_travel_rad(&self.spec)).max(0.0)
    }

    /// Winds (or lets down) the spring to `wound` (0 to 1).
    pub fn set_wound(&mut self, wound: f64) {
        self.wound_at_zero = wound + self.cylinder.angle / cylinder_travel_rad(&self.spec);
    }

    /// The steady speed the fly lets the cylinder reach now, rad/s.
    pub fn governed_speed_rad_s(&self) -> f64 {
        self.cylinder
            .governed_speed_rad_s(net_torque_n_m(&self.spec, self.wound()))
    }

    /// Advances `dt` (s); a held cylinder (`running` false) stays put.
    pub fn run(&mut self, running: bool, dt: f64) {
        if running {
            let load = self.reaction_left_n_m_s / self.reaction_time_s.max(dt);
            self.reaction_left_n_m_s -= load * dt;
            let torque = net_torque_n_m(&self.spec, self.wound()) - load;
            self.cylinder.turn(torque, dt);
        } else {
            self.cylinder.speed = 0.0;
        }
    }

    /// A pluck pushed back on the cylinder with the angular impulse
    /// `angular_impulse` (N·m·s): it loads the cylinder over the time a
    /// pin takes to bend a tine by the lift at the present speed.
    pub fn react(&mut self, angular_impulse: f64) {
        if angular_impulse.is_finite() && angular_impulse > 0.0 {
            self.reaction_left_n_m_s += angular_impulse;
            let surface_m_s = self.cylinder.speed * self.spec.cylinder_radius_m;
            self.reaction_time_s = (self.spec.lift_m / surface_m_s.max(1e-6)).clamp(1e-3, 1.0);
        }
    }

    /// Takes `spec`'s values, keeping the motion and the spring's wind.
    pub fn retune(&mut self, spec: &MusicBoxSpec, old: &Movement) {
        let (angle, speed) = (old.cylinder.angle, old.cylinder.speed);
        let wound = old.wound();
        *self = Self::new(spec);
        self.cylinder.angle = angle;
        self.cylinder.speed = speed;
        self.reaction_left_n_m_s = old.reaction_left_n_m_s;
        self.reaction_time_s = old.reaction_time_s;
        self.set_wound(if spec.wound != old.spec.wound {
            spec.wound
        } else {
            wound
        });
    }
}
