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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_apply_in_order_like_padl() {
        // `at (degz=90, movx=1)`: rotate first, then move.
        let p = Placement::from_steps(&[Step::RotateDeg(90.0), Step::Move([1.0, 0.0])]);
        let q = p.apply(Vector::new(1.0, 0.0));
        assert!((q - Vector::new(1.0, 1.0)).length() < 1e-12, "{q:?}");
        // `at (movx=1, degz=90)`: the move is rotated too.
        let p = Placement::from_steps(&[Step::Move([1.0, 0.0]), Step::RotateDeg(90.0)]);
        let q = p.apply(Vector::new(1.0, 0.0));
        assert!((q - Vector::new(0.0, 2.0)).length() < 1e-12, "{q:?}");
    }

    #[test]
    fn a_block_is_centred_on_its_rectangle() {
        // blo(x=0.3, y=5.4) at (movx=-3.2): the escapement's tooth.
        let b = Primitive::block(
            0,
            [0.3, 5.4],
            [0.0, 1.0],
            Placement::from_steps(&[Step::Move([-3.2, 0.0])]),
        );
        assert!((b.placement.offset - Vector::new(-3.05, 2.7)).length() < 1e-12);
        assert!((b.section.thickness() - 0.3).abs() < 1e-12);
        let touching = Primitive::disc(1, 1.0, [1.0, 2.0], Placement::IDENTITY);
        assert!(!b.z_overlaps(&touching), "touching faces do not overlap");
    }
}
