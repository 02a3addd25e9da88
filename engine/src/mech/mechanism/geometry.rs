//! Shapes of parts: Gelsey's 2.5-D primitives (blocks and discs extruded along
//! z), placed in the drawing and moved with their part.

use parry2d_f64::math::{Pose, Vector};
use parry2d_f64::shape::{Ball, Cuboid, Shape};

use super::description::Step;

/// A rigid transform of the drawing plane: rotate by `angle` (rad) about the
/// origin, then translate by `offset` (u).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// Translation (u).
    pub offset: Vector,
    /// Rotation (rad, counter-clockwise).
    pub angle: f64,
}

impl Placement {
    /// No motion.
    pub const IDENTITY: Self = Self {
        offset: Vector::ZERO,
        angle: 0.0,
    };

    /// Applies PADL-2 style steps in order.
    pub fn from_steps(steps: &[Step]) -> Self {
        steps.iter().fold(Self::IDENTITY, |p, step| match *step {
            Step::RotateDeg(deg) => p.then_rotate(deg.to_radians()),
            Step::Move([x, y]) => Self {
                offset: p.offset + Vector::new(x, y),
                angle: p.angle,
            },
        })
    }

    /// This placement followed by a rotation of `angle` (rad) about the origin.
    pub fn then_rotate(self, angle: f64) -> Self {
        Self {
            offset: rotate(self.offset, angle),
            angle: self.angle + angle,
        }
    }

    /// Where this placement takes the point `p`.
    pub fn apply(self, p: Vector) -> Vector {
        rotate(p, self.angle) + self.offset
    }
}

/// `v` rotated by `angle` (rad) counter-clockwise.
pub fn rotate(v: Vector, angle: f64) -> Vector {
    let (s, c) = angle.sin_cos();
    Vector::new(c * v.x - s * v.y, s * v.x + c * v.y)
}

/// The cross-section of a primitive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Section {
    /// A rectangle with these half extents (u).
    Block(Cuboid),
    /// A circle of this radius (u).
    Disc(Ball),
}

impl Section {
    /// The parry shape for contact queries.
    pub fn shape(&self) -> &dyn Shape {
        match self {
            Self::Block(c) => c,
            Self::Disc(b) => b,
        }
    }

    /// Radius of the smallest circle about the centre that holds the section (u).
    pub fn bounding_radius(&self) -> f64 {
        match self {
            Self::Block(c) => c.half_extents.length(),
            Self::Disc(b) => b.radius,
        }
    }

    /// The section's smallest width (u): how far a part may travel in one step
    /// before it could pass through this primitive.
    pub fn thickness(&self) -> f64 {
        match self {
            Self::Block(c) => 2.0 * c.half_extents.x.min(c.half_extents.y),
            Self::Disc(b) => 2.0 * b.radius,
        }
    }
}

/// A primitive solid of a part, in the drawn pose of the mechanism.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Primitive {
    /// Index of the part it belongs to.
    pub part: usize,
    /// Its cross-section.
    pub section: Section,
    /// Centre and orientation in the drawing (the part at position 0).
    pub placement: Placement,
    /// Extent along z (u).
    pub z: [f64; 2],
}

impl Primitive {
    /// A block from (0, 0) to `size`, placed by `placement`.
    pub fn block(part: usize, size: [f64; 2], z: [f64; 2], placement: Placement) -> Self {
        let half = Vector::new(0.5 * size[0], 0.5 * size[1]);
        Self {
            part,
            section: Section::Block(Cuboid::new(half)),
            placement: Placement {
                offset: placement.apply(half),
                angle: placement.angle,
            },
            z,
        }
    }

    /// A disc of `diameter` centred where `placement` takes the origin.
    pub fn disc(part: usize, diameter: f64, z: [f64; 2], placement: Placement) -> Self {
        Self {
            part,
            section: Section::Disc(Ball::new(0.5 * diameter)),
            placement: Placement {
                offset: placement.offset,
                angle: 0.0,
            },
            z,
        }
    }

    /// Whether the z extents of two primitives overlap (touching is not overlap).
    pub fn z_overlaps(&self, other: &Self) -> bool {
        self.z[0] < other.z[1] && other.z[0] < self.z[1]
    }
}

/// A parry pose from a placement.
pub fn pose(p: Placement) -> Pose {
    Pose::new(p.offset, p.angle)
}
