//! Where a mechanism's shapes are at its present state, for drawing it: every
//! primitive with its part and world placement, and the axes parts turn
//! about. The placements come from [`dynamics::place`], the same ones contact
//! detection uses.

use parry2d_f64::math::Vector;

use super::dynamics;
use super::geometry::{Placement, Section};
use super::runtime::Mechanism;
use super::structure::Motion;

/// One primitive of a part where the present state puts it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedShape {
    /// Index of its part, in [`Mechanism::part_names`] order.
    pub part: usize,
    /// Its cross-section: a block's half extents or a disc's radius (u).
    pub section: Section,
    /// Its centre (u) and orientation (rad, counter-clockwise) in the
    /// drawing: a block's rectangle is `placement` applied to its corners
    /// `(±half.x, ±half.y)`; a disc turns with its part by `placement.angle`.
    pub placement: Placement,
    /// Its extent along z (u): higher layers are drawn over lower ones.
    pub z: [f64; 2],
}

impl PlacedShape {
    /// Where the point `(x, y)` of the shape's own frame (u, from its centre,
    /// along its unturned axes) is in the drawing (u).
    pub fn point(&self, x: f64, y: f64) -> Vector {
        self.placement.apply(Vector::new(x, y))
    }

    /// A block's corners in the drawing (u), counter-clockwise; `None` for a
    /// disc.
    pub fn corners(&self) -> Option<[Vector; 4]> {
        let Section::Block(block) = self.section else {
            return None;
        };
        let h = block.half_extents;
        Some(
            [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .map(|(sx, sy)| self.point(sx * h.x, sy * h.y)),
        )
    }
}

impl Mechanism {
    /// Every primitive of every part (frame parts included) at the present
    /// state, in description order. Places the primitives in the scratch
    /// workspace; allocates nothing.
    pub fn shapes(&mut self) -> impl ExactSizeIterator<Item = PlacedShape> + '_ {
        dynamics::place(&self.structure, &self.q, &mut self.work);
        self.structure
            .primitives
            .iter()
            .zip(&self.work.world)
            .map(|(primitive, pose)| PlacedShape {
                part: primitive.part,
                section: primitive.section,
                placement: Placement {
                    offset: pose.translation,
                    angle: pose.rotation.angle(),
                },
                z: primitive.z,
            })
    }

    /// The fixed axis part `part` turns about (u), for a part on a revolute
    /// pair; `None` for frame and sliding parts and indices past the last part.
    pub fn pivot(&self, part: usize) -> Option<Vector> {
        match self.structure.parts.get(part)?.motion {
            Motion::Revolute { pivot } => Some(pivot),
            Motion::Frame | Motion::Prismatic { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::f64::consts::{PI, TAU};

    use super::*;
    use crate::mech::mechanism::builtin;
    use crate::mech::mechanism::geometry::rotate;
    use crate::props::PropertyAccess;

    fn escapement() -> Mechanism {
        Mechanism::from_toml(builtin("escapement").unwrap()).unwrap()
    }

    #[test]
    fn shapes_turn_with_their_part_about_its_pivot() {
        let mut m = escapement();
        let wheel = m.part_names().position(|n| n == "wheel").unwrap();
        let pivot = m.pivot(wheel).expect("the wheel turns");
        let before: Vec<PlacedShape> = m.shapes().filter(|s| s.part == wheel).collect();
        // The disc and ten teeth.
        assert_eq!(before.len(), 11);
        let turn = 0.3;
        m.set_property("parts/wheel:position", turn).unwrap();
        let after: Vec<PlacedShape> = m.shapes().filter(|s| s.part == wheel).collect();
        for (b, a) in before.iter().zip(&after) {
            let centre = rotate(b.placement.offset - pivot, turn) + pivot;
            assert!((a.placement.offset - centre).length() < 1e-12, "{a:?}");
            let turned = a.placement.angle - b.placement.angle - turn;
            assert!(((turned + PI).rem_euclid(TAU) - PI).abs() < 1e-12, "{a:?}");
            assert_eq!(a.section, b.section);
        }
    }

    #[test]
    fn corners_of_a_turned_block_are_its_rectangle() {
        // A 2 × 1 block centred at (3, 4), turned a quarter turn.
        let shape = PlacedShape {
            part: 0,
            section: Section::Block(parry2d_f64::shape::Cuboid::new(Vector::new(1.0, 0.5))),
            placement: Placement {
                offset: Vector::new(3.0, 4.0),
                angle: PI / 2.0,
            },
            z: [0.0, 1.0],
        };
        let corners = shape.corners().expect("a block has corners");
        let expected = [(3.5, 3.0), (3.5, 5.0), (2.5, 5.0), (2.5, 3.0)];
        for (c, (x, y)) in corners.iter().zip(expected) {
            assert!((*c - Vector::new(x, y)).length() < 1e-12, "{corners:?}");
        }
        let disc = PlacedShape {
            section: Section::Disc(parry2d_f64::shape::Ball::new(1.0)),
            ..shape
        };
        assert_eq!(disc.corners(), None);
        // A disc's rim point turns with it.
        assert!((disc.point(1.0, 0.0) - Vector::new(3.0, 5.0)).length() < 1e-12);
    }

    #[test]
    fn frame_shapes_stay_and_have_no_pivot() {
        let mut m = escapement();
        let frame = m.part_names().position(|n| n == "frame").unwrap();
        assert_eq!(m.pivot(frame), None);
        assert_eq!(m.pivot(usize::MAX), None);
        let pins: Vec<PlacedShape> = m.shapes().filter(|s| s.part == frame).collect();
        assert_eq!(pins.len(), 2, "two banking pins");
        m.set_property("parts/lever:position", 0.2).unwrap();
        let again: Vec<PlacedShape> = m.shapes().filter(|s| s.part == frame).collect();
        assert_eq!(pins, again);
        assert!((pins[0].placement.offset - Vector::new(-1.6, 14.0)).length() < 1e-12);
    }
}
