//! Time derivatives of the state (Gelsey's Algorithm 8): springs and friction
//! on each subsystem, then every overlapping primitive pair's penalty force
//! (Eq. 4) turned into generalized forces by the geometric force multiplier α.
//! Also the Jacobians the implicit integrator's Newton solve needs.

use parry2d_f64::math::Vector;
use parry2d_f64::math::{Pose, Rot2};
use parry2d_f64::query::{self, Contact, sat};
use parry2d_f64::shape::{Cuboid, SupportMap};

use super::geometry::{Section, pose};
use super::structure::{Motion, Structure};

/// One overlapping primitive pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactPoint {
    /// The two primitives (indices into [`Structure::primitives`]).
    pub primitives: (usize, usize),
    /// Contact point, midway between the surfaces (u).
    pub point: Vector,
    /// Unit normal, out of the first primitive.
    pub normal: Vector,
    /// Overlap depth `o` (u).
    pub overlap: f64,
    /// Overlap rate `ȯ` (u/s).
    pub rate: f64,
    /// Force magnitude `l` (force units).
    pub force: f64,
}

/// Scratch memory for evaluations. Allocates: everything, in [`Workspace::new`].
#[derive(Debug, Clone, Default)]
pub struct Workspace {
    /// Every primitive's pose in the drawing (its part at position 0).
    local: Vec<Pose>,
    /// Every primitive's pose in the world at the evaluated state.
    pub world: Vec<Pose>,
    /// World-axis bounding boxes of every primitive at the evaluated state.
    pub bounds: Vec<Bounds>,
    /// Contacts found at the evaluated state.
    pub contacts: Vec<ContactPoint>,
    /// Accelerations of the subsystems (rad/s² or u/s²).
    pub acc: Vec<f64>,
    /// ∂acc/∂q, row-major n×n.
    pub jac_q: Vec<f64>,
    /// ∂acc/∂v, row-major n×n.
    pub jac_v: Vec<f64>,
}

impl Workspace {
    /// Scratch for a structure.
    pub fn new(s: &Structure) -> Self {
        let n = s.subsystems.len();
        Self {
            local: s.primitives.iter().map(|p| pose(p.placement)).collect(),
            world: vec![Pose::IDENTITY; s.primitives.len()],
            bounds: vec![Bounds::default(); s.primitives.len()],
            // At most one contact a pair: finding them never allocates.
            contacts: Vec::with_capacity(s.pairs.len()),
            acc: vec![0.0; n],
            jac_q: vec![0.0; n * n],
            jac_v: vec![0.0; n * n],
        }
    }
}

/// Places every primitive at subsystem positions `q`.
pub fn place(s: &Structure, q: &[f64], w: &mut Workspace) {
    for part in &s.parts {
        let x = part.subsystem.map_or(0.0, |(i, f)| f * q[i]);
        let (rotation, offset) = match part.motion {
            Motion::Frame => (Rot2::IDENTITY, Vector::ZERO),
            Motion::Revolute { pivot } => {
                let r = Rot2::new(x);
                (r, pivot - r * pivot)
            }
            Motion::Prismatic { axis } => (Rot2::IDENTITY, axis * x),
        };
        for k in part.primitives.clone() {
            let local = w.local[k];
            let placed = Pose::from_parts(
                rotation * local.translation + offset,
                rotation * local.rotation,
            );
            w.world[k] = placed;
            w.bounds[k] = Bounds::of(&s.primitives[k].section, &placed);
        }
    }
}

/// Finds the overlapping primitive pairs at the placed state, with their
/// overlap rates from velocities `v` and forces from Eq. (4). Returns nothing;
/// fills `w.contacts`. Call [`place`] first.
pub fn find_contacts(s: &Structure, v: &[f64], w: &mut Workspace) {
    w.contacts.clear();
    for &(i, j) in &s.pairs {
        if !w.bounds[i].overlaps(&w.bounds[j]) {
            continue;
        }
        let (a, b) = (&s.primitives[i], &s.primitives[j]);
        let Some(c) = primitive_contact(&a.section, w.world[i], &b.section, w.world[j]) else {
            continue;
        };
        let point = (c.point1 + c.point2) * 0.5;
        let normal = c.normal1;
        let (sa, aa, sb, ab) = multipliers(s, (a.part, b.part), point, normal);
        let rate = sa.map_or(0.0, |k| aa * v[k]) + sb.map_or(0.0, |k| ab * v[k]);
        let (force, _, _) = s.contact.force(-c.dist, rate);
        w.contacts.push(ContactPoint {
            primitives: (i, j),
            point,
            normal,
            overlap: -c.dist,
            rate,
            force,
        });
    }
}

/// An axis-aligned box in world coordinates (u), for culling primitive pairs
/// before the exact query.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Bounds {
    /// Smallest corner.
    pub min: Vector,
    /// Largest corner.
    pub max: Vector,
}

impl Bounds {
    /// The box around a section placed at `p`.
    pub fn of(section: &Section, p: &Pose) -> Self {
        let half = match section {
            Section::Block(c) => {
                let (sin, cos) = (p.rotation.im, p.rotation.re);
                let h = c.half_extents;
                Vector::new(
                    cos.abs() * h.x + sin.abs() * h.y,
                    sin.abs() * h.x + cos.abs() * h.y,
                )
            }
            Section::Disc(b) => Vector::splat(b.radius),
        };
        Self {
            min: p.translation - half,
            max: p.translation + half,
        }
    }

    /// Whether two boxes overlap.
    pub fn overlaps(&self, other: &Self) -> bool {
        self.min.x < other.max.x
            && other.min.x < self.max.x
            && self.min.y < other.max.y
            && other.min.y < self.max.y
    }
}

/// The contact of two placed sections in world coordinates, if they overlap:
/// parry's specialised queries called directly (no shape dispatch).
fn primitive_contact(a: &Section, p1: Pose, b: &Section, p2: Pose) -> Option<Contact> {
    let p12 = p1.inv_mul(&p2);
    if let (Section::Block(x), Section::Block(y)) = (a, b) {
        return block_contact(x, p1, y, p2);
    }
    let mut c = match (a, b) {
        (Section::Block(_), Section::Block(_)) => None,
        (Section::Disc(x), Section::Disc(y)) => query::contact::contact_ball_ball(&p12, x, y, 0.0),
        (Section::Disc(x), Section::Block(y)) => {
            query::contact::contact_ball_convex_polyhedron(&p12, x, y, 0.0)
        }
        (Section::Block(x), Section::Disc(y)) => {
            query::contact::contact_convex_polyhedron_ball(&p12, x, y, 0.0)
        }
    }?;
    if c.dist >= 0.0 {
        return None;
    }
    c.transform_by_mut(&p1, &p2);
    Some(c)
}

/// Two blocks by the separating-axis test. parry's `contact_cuboid_cuboid`
/// finds the right axis but measures depth by projecting the deepest vertex
/// onto the whole cuboid; with a thin tooth's corner deep in a pawl it
/// reported no contact, then the full 0.1 u a nanometre of motion later (see
/// the ratchet regression test). The penalty force needs a continuous
/// overlap, so the depth here is the SAT penetration itself and the point is
/// the deepest vertex moved half the depth back out.
fn block_contact(x: &Cuboid, p1: Pose, y: &Cuboid, p2: Pose) -> Option<Contact> {
    let p12 = p1.inv_mul(&p2);
    let p21 = p12.inverse();
    let (s1, n1) = sat::cuboid_cuboid_find_local_separating_normal_oneway(x, y, &p12);
    if s1 >= 0.0 {
        return None;
    }
    let (s2, n2) = sat::cuboid_cuboid_find_local_separating_normal_oneway(y, x, &p21);
    if s2 >= 0.0 {
        return None;
    }
    let (normal, point) = if s1 >= s2 {
        // A vertex of y lies inside x, across x's face with normal n1.
        let normal = p1.rotation * n1;
        let vertex = p2 * y.local_support_point(p21.rotation * -n1);
        (normal, vertex + normal * (0.5 * -s1))
    } else {
        // A vertex of x lies inside y, across y's face with normal n2.
        let normal = -(p2.rotation * n2);
        let vertex = p1 * x.local_support_point(p12.rotation * -n2);
        (normal, vertex - normal * (0.5 * -s2))
    };
    let dist = s1.max(s2);
    Some(Contact::new(point, point, normal, -normal, dist))
}

type Multipliers = (Option<usize>, f64, Option<usize>, f64);

/// Geometric force multipliers α of a contact between parts `(a, b)` at
/// `point` with normal `normal` out of `a`: `ȯ = Σ α_s·v_s` and the contact
/// pushes subsystem `s` with generalized force `−α_s·l`.
fn multipliers(
    s: &Structure,
    (a, b): (usize, usize),
    point: Vector,
    normal: Vector,
) -> Multipliers {
    let one = |p: usize, sign: f64| -> (Option<usize>, f64) {
        let part = &s.parts[p];
        match part.subsystem {
            None => (None, 0.0),
            Some((k, f)) => (
                Some(k),
                sign * f * part.motion.point_velocity(point).dot(normal),
            ),
        }
    };
    let (sa, aa) = one(a, 1.0);
    let (sb, ab) = one(b, -1.0);
    (sa, aa, sb, ab)
}

/// Evaluates accelerations and their Jacobians at `(q, v)`: `w.acc`,
/// `w.jac_q`, `w.jac_v`, `w.contacts`.
pub fn evaluate(s: &Structure, q: &[f64], v: &[f64], w: &mut Workspace) {
    let n = s.subsystems.len();
    place(s, q, w);
    find_contacts(s, v, w);
    w.jac_q.fill(0.0);
    w.jac_v.fill(0.0);
    // Generalized forces first; divided by inertia at the end.
    for (k, sub) in s.subsystems.iter().enumerate() {
        w.acc[k] = -sub.friction * v[k];
        w.jac_v[k * n + k] = -sub.friction;
    }
    for spring in &s.springs {
        if let Some((k, f)) = s.parts[spring.part].subsystem {
            let x = f * q[k];
            w.acc[k] -= f * spring.stiffness * (x - spring.relaxed);
            w.jac_q[k * n + k] -= f * f * spring.stiffness;
        }
    }
    for c in &w.contacts {
        let (i, j) = c.primitives;
        let parts = (s.primitives[i].part, s.primitives[j].part);
        let (sa, aa, sb, ab) = multipliers(s, parts, c.point, c.normal);
        let (l, dl_do, dl_drate) = s.contact.force(c.overlap, c.rate);
        let terms = [(sa, aa), (sb, ab)];
        for &(si, ai) in &terms {
            let Some(si) = si else { continue };
            w.acc[si] -= ai * l;
            for &(sj, aj) in &terms {
                let Some(sj) = sj else { continue };
                w.jac_q[si * n + sj] -= ai * dl_do * aj;
                w.jac_v[si * n + sj] -= ai * dl_drate * aj;
            }
        }
    }
    for (k, sub) in s.subsystems.iter().enumerate() {
        let m = sub.inertia;
        w.acc[k] /= m;
        for j in 0..n {
            w.jac_q[k * n + j] /= m;
            w.jac_v[k * n + j] /= m;
        }
    }
}

/// Potential energy of the springs and of the contacts' elastic term `E·o²/2`
/// at the placed state (energy units). Call [`evaluate`] or [`find_contacts`]
/// first for the contacts.
pub fn potential_energy(s: &Structure, q: &[f64], w: &Workspace) -> f64 {
    let springs: f64 = s
        .springs
        .iter()
        .map(|sp| {
            let x = s.part_position(sp.part, q);
            0.5 * sp.stiffness * (x - sp.relaxed).powi(2)
        })
        .sum();
    let contacts: f64 = w
        .contacts
        .iter()
        .map(|c| 0.5 * s.contact.stiffness * c.overlap * c.overlap)
        .sum();
    springs + contacts
}

/// Kinetic energy Σ ½·I_s·v_s² (energy units).
pub fn kinetic_energy(s: &Structure, v: &[f64]) -> f64 {
    s.subsystems
        .iter()
        .zip(v)
        .map(|(sub, &vk)| 0.5 * sub.inertia * vk * vk)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mech::mechanism::geometry::rotate;

    fn block(hx: f64, hy: f64) -> Cuboid {
        Cuboid::new(Vector::new(hx, hy))
    }

    #[test]
    fn block_overlap_is_continuous_in_a_sweep() {
        // Sweep a thin block past a long one's corners and faces; the depth
        // may change no faster than the motion (4 mm per sample). The
        // configuration where parry's own query jumped is a regression test in
        // `tests/mech_mechanism.rs`.
        let long = block(2.82, 0.3);
        let thin = block(0.2, 0.6);
        let angle = -0.97;
        let p1 = Pose::new(Vector::new(0.0, 0.0), angle);
        let mut last: Option<f64> = None;
        for k in 0..2000 {
            let x = -4.0 + 8.0 * k as f64 / 2000.0;
            let centre = rotate(Vector::new(x, -0.75), angle);
            let p2 = Pose::new(centre, 0.3);
            let depth = block_contact(&long, p1, &thin, p2).map_or(0.0, |c| -c.dist);
            if let Some(d) = last {
                assert!(
                    (depth - d).abs() <= 0.004 + 1e-12,
                    "jump {d} -> {depth} at x = {x}"
                );
            }
            last = Some(depth);
        }
    }

    #[test]
    fn block_contact_normal_points_from_the_first_into_the_second() {
        let a = block(1.0, 1.0);
        let p1 = Pose::new(Vector::ZERO, 0.0);
        let p2 = Pose::new(Vector::new(1.9, 0.0), 0.0);
        let c = block_contact(&a, p1, &a, p2).expect("overlap");
        assert!((c.dist + 0.1).abs() < 1e-12);
        assert!((c.normal1 - Vector::new(1.0, 0.0)).length() < 1e-12);
        assert!((c.point1.x - 0.95).abs() < 1e-12, "{:?}", c.point1);
    }
}
