//! The built mechanism's fixed structure: parts, kinematic subsystems (Gelsey's
//! Fig. 7), springs, contact constants and the primitive pairs that may touch.

use parry2d_f64::math::Vector;

use super::geometry::{Placement, Primitive, rotate};

/// How a part moves with its generalized position `x` (rad or u).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Motion {
    /// Fixed to the frame.
    Frame,
    /// Turns by `x` rad about `pivot` (u).
    Revolute {
        /// The axis' position (u).
        pivot: Vector,
    },
    /// Slides by `x` u along the unit vector `axis`.
    Prismatic {
        /// Direction of positive motion (unit).
        axis: Vector,
    },
}

impl Motion {
    /// The placement that takes the drawn pose to the pose at position `x`.
    pub fn placement(self, x: f64) -> Placement {
        match self {
            Self::Frame => Placement::IDENTITY,
            Self::Revolute { pivot } => Placement {
                offset: pivot - rotate(pivot, x),
                angle: x,
            },
            Self::Prismatic { axis } => Placement {
                offset: axis * x,
                angle: 0.0,
            },
        }
    }

    /// Velocity of the material point now at `p` per unit of `ẋ` (u per rad or
    /// u per u).
    /// `pivot` is fixed, so this does not depend on `x`.
    pub fn point_velocity(self, p: Vector) -> Vector {
        match self {
            Self::Frame => Vector::ZERO,
            Self::Revolute { pivot } => {
                let r = p - pivot;
                Vector::new(-r.y, r.x)
            }
            Self::Prismatic { axis } => axis,
        }
    }
}

/// A part at run time.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// Its name in property paths.
    pub name: String,
    /// Its pair with the frame.
    pub motion: Motion,
    /// Moment of inertia (mass·u²) or mass.
    pub inertia: f64,
    /// Viscous friction with the frame (per rad/s or per u/s).
    pub friction: f64,
    /// Its kinematic subsystem and the factor `x_part = factor · q_subsystem`,
    /// or `None` for frame parts.
    pub subsystem: Option<(usize, f64)>,
    /// Its primitives' indices in [`Structure::primitives`].
    pub primitives: std::ops::Range<usize>,
    /// Farthest any of its primitives reaches from the pivot (u); 1 for a
    /// prismatic part (its points move at `ẋ`).
    pub reach: f64,
}

/// A kinematic subsystem: parts bound by gears into one degree of freedom
/// (Algorithm 7). Its state is the root part's position and velocity.
#[derive(Debug, Clone, PartialEq)]
pub struct Subsystem {
    /// Member parts and their factors (the root's is 1).
    pub members: Vec<(usize, f64)>,
    /// Generalized inertia Σ factor²·I.
    pub inertia: f64,
    /// Generalized friction Σ factor²·h.
    pub friction: f64,
}

/// A linear spring between a part and the frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Spring {
    /// Its name in property paths.
    pub name: String,
    /// The part it acts on.
    pub part: usize,
    /// Torque per rad or force per u.
    pub stiffness: f64,
    /// Position of no force (rad or u).
    pub relaxed: f64,
}

/// Gelsey's Eq. (4) constants.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactConstants {
    /// `E` (force/u).
    pub stiffness: f64,
    /// `D`.
    pub damping: f64,
    /// `M` (1/u).
    pub damping_scale: f64,
}

impl ContactConstants {
    /// Contact force magnitude `l` for overlap `o` (u) growing at `rate` (u/s),
    /// with its derivatives `∂l/∂o` and `∂l/∂ȯ`; zero without overlap or when the
    /// damping term would pull the parts together (`E + D·M·ȯ ≤ 0`).
    pub fn force(&self, o: f64, rate: f64) -> (f64, f64, f64) {
        let dm = self.damping * self.damping_scale;
        let k = self.stiffness + dm * rate;
        if o <= 0.0 || k <= 0.0 {
            (0.0, 0.0, 0.0)
        } else {
            (k * o, k, dm * o)
        }
    }
}

/// Everything about a mechanism that does not change as it moves.
#[derive(Debug, Clone, PartialEq)]
pub struct Structure {
    /// Display name.
    pub name: String,
    /// All parts, frame parts included.
    pub parts: Vec<Part>,
    /// All primitives of all parts.
    pub primitives: Vec<Primitive>,
    /// The kinematic subsystems: one state position and velocity each.
    pub subsystems: Vec<Subsystem>,
    /// Springs.
    pub springs: Vec<Spring>,
    /// Contact constants.
    pub contact: ContactConstants,
    /// Primitive pairs from different subsystems (or one on the frame) whose z
    /// extents overlap: Gelsey's interactors, flattened.
    pub pairs: Vec<(usize, usize)>,
    /// Thinnest moving primitive (u).
    pub min_thickness: f64,
}

impl Structure {
    /// Recomputes each subsystem's generalized inertia and friction after a
    /// part's inertia or friction changed.
    pub fn refresh_subsystems(&mut self) {
        for s in &mut self.subsystems {
            s.inertia = s
                .members
                .iter()
                .map(|&(p, f)| f * f * self.parts[p].inertia)
                .sum();
            s.friction = s
                .members
                .iter()
                .map(|&(p, f)| f * f * self.parts[p].friction)
                .sum();
        }
    }

    /// Position of part `p` given subsystem positions `q` (rad or u).
    pub fn part_position(&self, p: usize, q: &[f64]) -> f64 {
        self.parts[p].subsystem.map_or(0.0, |(s, f)| f * q[s])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GELSEY: ContactConstants = ContactConstants {
        stiffness: 1e5,
        damping: 1e4,
        damping_scale: 100.0,
    };

    #[test]
    fn penalty_force_follows_eq_4() {
        // l = E·o + D·ȯ·M·o.
        let (l, dl_do, dl_drate) = GELSEY.force(0.01, 0.05);
        assert!((l - (1e5 * 0.01 + 1e4 * 0.05 * 100.0 * 0.01)).abs() < 1e-9);
        assert!((dl_do - (1e5 + 1e6 * 0.05)).abs() < 1e-9);
        assert!((dl_drate - 1e6 * 0.01).abs() < 1e-9);
        // No overlap, no force; separating so fast that E + D·M·ȯ < 0: no pull.
        assert_eq!(GELSEY.force(0.0, 1.0), (0.0, 0.0, 0.0));
        assert_eq!(GELSEY.force(0.01, -0.2), (0.0, 0.0, 0.0));
    }

    #[test]
    fn revolute_placement_keeps_the_pivot_fixed() {
        let m = Motion::Revolute {
            pivot: Vector::new(0.0, 7.5),
        };
        let p = m.placement(0.3);
        assert!((p.apply(Vector::new(0.0, 7.5)) - Vector::new(0.0, 7.5)).length() < 1e-12);
        // A point 1 u right of the pivot moves up at 1 u per rad.
        let v = m.point_velocity(Vector::new(1.0, 7.5));
        assert!((v - Vector::new(0.0, 1.0)).length() < 1e-12);
    }
}
