//! A wheel driven by a spring and governed by a fly: an air brake whose
//! drag grows as the square of its speed, `τ = c·ω²`, so the wheel settles
//! where the drag meets the torque driving it, `ω = √(τ/c)`. A clock's
//! chime and strike barrels and a music box's cylinder turn so.

/// The wheel's motion and what governs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GovernedWheel {
    /// Angle turned, rad (grows).
    pub angle: f64,
    /// Speed, rad/s (never negative: the click stops it turning back).
    pub speed: f64,
    /// The fly's drag seen at the wheel, `τ = drag·ω²`, N·m·s².
    pub drag: f64,
    /// Moment of inertia of the wheel and its train, seen at the wheel, kg·m².
    pub inertia: f64,
}

impl GovernedWheel {
    /// A wheel at rest at angle 0, governed by a fly of drag `fly_drag`
    /// (N·m·s², at the fly) turning `fly_ratio` times as fast: the fly's
    /// drag torque grows as the square of its speed (ratio²) and is geared
    /// up to the wheel by the ratio again, so the wheel feels ratio³ of it.
    pub fn new(fly_drag: f64, fly_ratio: f64, inertia: f64) -> Self {
        Self {
            angle: 0.0,
            speed: 0.0,
            drag: fly_drag * fly_ratio * fly_ratio * fly_ratio,
            inertia,
        }
    }

    /// Advances `dt` (s) under the net driving `torque` (N·m, the spring's
    /// less every load but the fly's), semi-implicit Euler.
    pub fn turn(&mut self, torque: f64, dt: f64) {
        let drag = self.drag * self.speed * self.speed;
        let acceleration = (torque - drag) / self.inertia;
        self.speed = (self.speed + acceleration * dt).max(0.0);
        self.angle += self.speed * dt;
    }

    /// The steady speed the fly lets `torque` (N·m) reach, rad/s.
    pub fn governed_speed_rad_s(&self, torque: f64) -> f64 {
        (torque.max(0.0) / self.drag).sqrt()
    }
}
