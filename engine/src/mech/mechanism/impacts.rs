//! Where and how hard parts strike each other: what a mechanism's contacts
//! tell the audio-rate trees that make them heard.
//!
//! A *site* is a pair of primitives that may touch, with the copies of a
//! repeated shape on one part (a wheel's teeth, a pallet drawn as two
//! blocks, a pair of banking pins) taken as one: every tooth of the escape
//! wheel striking the exit pallet strikes the same site.

use parry2d_f64::math::Vector;

use super::dynamics::ContactPoint;
use super::runtime::Mechanism;
use super::structure::Motion;

/// A place where two parts strike each other.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactSite {
    /// The first primitive of each shape's family of copies (indices into the
    /// mechanism's primitives, in ascending order).
    pub primitives: (usize, usize),
}

impl Mechanism {
    /// The first primitive of `i`'s family: the lowest-numbered primitive of
    /// the same part with the same section and z extent.
    fn family_head(&self, i: usize) -> usize {
        let primitives = &self.structure.primitives;
        let p = &primitives[i];
        self.structure.parts[p.part]
            .primitives
            .clone()
            .find(|&j| primitives[j].section == p.section && primitives[j].z == p.z)
            .unwrap_or(i)
    }

    /// Every site where parts may strike each other, in the order of the
    /// mechanism's interacting pairs. Allocates.
    pub fn contact_sites(&self) -> Vec<ContactSite> {
        let mut sites: Vec<ContactSite> = Vec::new();
        for &(i, j) in &self.structure.pairs {
            let key = ordered(self.family_head(i), self.family_head(j));
            if sites.iter().any(|s| s.primitives == key) {
                continue;
            }
            sites.push(ContactSite { primitives: key });
        }
        sites
    }

    /// The index in `sites` (from [`Mechanism::contact_sites`]) of the site
    /// contact `c` touches, if it is one. Allocates nothing.
    pub fn site_of(&self, sites: &[ContactSite], c: &ContactPoint) -> Option<usize> {
        let key = ordered(
            self.family_head(c.primitives.0),
            self.family_head(c.primitives.1),
        );
        sites.iter().position(|s| s.primitives == key)
    }

    /// The mass the contact `c` meets along its normal (mass units): one over
    /// the sum, for each moving part, of the square of how fast the contact
    /// point moves along the normal per unit of its subsystem's velocity,
    /// over the subsystem's generalized inertia. Infinite between two frame
    /// parts.
    pub fn impact_mass(&self, c: &ContactPoint) -> f64 {
        let s = &self.structure;
        let mut compliance = 0.0;
        for &primitive in [c.primitives.0, c.primitives.1].iter() {
            let part = &s.parts[s.primitives[primitive].part];
            let Some((k, factor)) = part.subsystem else {
                continue;
            };
            let lever = match part.motion {
                Motion::Frame => 0.0,
                Motion::Revolute { pivot } => cross(c.point - pivot, c.normal),
                Motion::Prismatic { axis } => axis.dot(c.normal),
            };
            let jacobian = factor * lever;
            let inertia = s.subsystems[k].inertia;
            if inertia > 0.0 {
                compliance += jacobian * jacobian / inertia;
            }
        }
        if compliance > 0.0 {
            1.0 / compliance
        } else {
            f64::INFINITY
        }
    }
}

fn ordered(a: usize, b: usize) -> (usize, usize) {
    if a <= b { (a, b) } else { (b, a) }
}

/// The z component of `a × b`.
fn cross(a: Vector, b: Vector) -> f64 {
    a.x * b.y - a.y * b.x
}
