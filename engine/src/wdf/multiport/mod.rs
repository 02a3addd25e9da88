//! A macro-adaptor with several nonlinear elements: the case De Sanctis et al.
//! (2003) leave "still under study" (Section 2: one nonlinearity per
//! macro-adaptor; several must be combined into one multiport nonlinearity).
//! Here they are combined at the root and solved jointly each sample.
//!
//! The tree is described as any other ([`TreeDescription`]), except that
//! nonlinear elements (contacts, diodes) may sit at leaves as well as at the
//! root. Each is a port of one multiport root:
//!
//! - `law`: each port's element within a sample, `i = g(v)`, non-decreasing,
//!   and its exact answer to the wave the tree sends it.
//! - `joint`: the joint Newton solve over all ports, in wave variables.
//!
//! Building reduces the rest of the tree, seen from those ports, to its
//! open-circuit voltages `e` (a linear function of the waves the linear leaves
//! send in) and its impedance matrix `Z`, from the macro-adaptor's explicit
//! scattering matrix (the Wave Tableau, De Sanctis et al. 2003, Section 3.1).
//! With `b = M·t` over the external ports, `N` the nonlinear ports (reference
//! resistances `R`) and `L` the linear ones, and `A = (I − M_NN)⁻¹`:
//!
//! `e = A·M_NL·t_L`,  `Z = A·(I + M_NN)·R`.
//!
//! Each sample: the linear leaves' waves give `e` and the waves `M_NL·t_L`
//! they send the ports; when every element is open at `e` that is the
//! answer, else the joint solve gives each port's `(v, i)`; its element
//! sends `t = v − R·i` back in; and the linear ports' new waves follow from
//! `M` as in the tableau. A leaf port's
//! reference resistance is free (the solve works in Kirchhoff variables); it
//! is set to the diagonal of `Z`, the resistance the port sees, so that its
//! waves are of the size of its voltages.

mod joint;
mod law;

pub use joint::{JointOutcome, MAX_PORTS};
pub use law::Contact;

use nalgebra::DMatrix;

use joint::{Network, solve_joint};
use law::PortLaw;

use super::bct::{LeafId, SourceId, prepare};
use super::description::{Connection, TreeDescription};
use super::leaves::LeafBank;
use super::tableau::{delay_ports, external_scattering};
use super::topology::{Topology, TreeError};
use super::{Element, Named};

/// Below this least singular value of `I − M_NN` (or of `Z` scaled to a
/// unit diagonal) the nonlinear ports are taken as dependent: both matrices
/// have entries of order one.
const DEPENDENT_PORTS: f64 = 1e-9;

/// A nonlinear port of a [`MultiportTree`], resolved by name once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PortId(usize);

/// A wave-digital tree whose root holds several nonlinear ports, solved
/// jointly each sample (see the module).
///
/// Allocates: in [`MultiportTree::new`] only.
#[derive(Debug, Clone)]
pub struct MultiportTree {
    topology: Topology,
    leaves: LeafBank,
    /// The scattering matrix over the external ports, for reads.
    m: DMatrix<f64>,
    /// External port of each nonlinear port: the root's first.
    ports: Vec<usize>,
    laws: Vec<PortLaw>,
    /// Reference resistance of each nonlinear port.
    resistance: Vec<f64>,
    /// External ports whose incoming wave is known before the solve
    /// (reactive leaves, sources, unit delays).
    linear: Vec<usize>,
    /// `A·M_NL` over `linear`, `K × linear.len()`, row-major.
    open_circuit: Vec<f64>,
    /// `M_NL` over `linear`, `K × linear.len()`, row-major.
    incoming: Vec<f64>,
    /// `M_NN`, `K × K`, row-major.
    coupling: Vec<f64>,
    /// External ports whose outgoing wave a sample needs (reactive leaves and
    /// unit delays).
    rows: Vec<usize>,
    /// `M` over `rows` × (`linear`, then the nonlinear ports), row-major.
    row_matrix: Vec<f64>,
    /// For each external port, whether a sample computes its outgoing wave
    /// (it is in `rows` or a nonlinear port).
    computed: Vec<bool>,
    /// This sample's incoming waves at `linear`, then at the nonlinear ports.
    gathered: Vec<f64>,
    /// Waves into the macro-adaptor at every external port.
    t: Vec<f64>,
    /// Waves out of it.
    b: Vec<f64>,
    /// For each unit delay: (parent-side port, child-side port, wave held
    /// going up, wave held going down).
    delays: Vec<(usize, usize, f64, f64)>,
    /// Each port's across and through quantities at the last sample.
    v: [f64; MAX_PORTS],
    i: [f64; MAX_PORTS],
    last: JointOutcome,
    most_steps: u32,
}

impl MultiportTree {
    /// Builds the tree of `description` at `sample_rate` (Hz). The root and
    /// any number of leaves (up to [`MAX_PORTS`] in all) may be nonlinear;
    /// the root must be.
    pub fn new(description: &TreeDescription, sample_rate: f64) -> Result<Self, TreeError> {
        let root = &description.root;
        if !root.element.is_nonlinear() {
            return Err(TreeError::BadValue {
                name: root.name.clone(),
                reason: "the root of a multiport tree must be one of its nonlinear elements"
                    .to_string(),
            });
        }
        let mut nonlinear = Vec::new();
        collect_nonlinear(&description.tree, &mut nonlinear);
        if nonlinear.len() + 1 > MAX_PORTS {
            return Err(TreeError::Indeterminate(format!(
                "{} nonlinear elements are more than a multiport root holds ({MAX_PORTS})",
                nonlinear.len() + 1
            )));
        }
        for named in std::iter::once(root).chain(&nonlinear) {
            named
                .element
                .check_values()
                .map_err(|reason| TreeError::BadValue {
                    name: named.name.clone(),
                    reason,
                })?;
        }
        // First with unit reference resistances at the leaf ports, then with
        // the resistance each port sees.
        let unit = vec![1.0; nonlinear.len()];
        let first = Self::reduce(description, &nonlinear, &unit, sample_rate)?;
        let seen = first.1[1..].to_vec();
        let (mut tree, seen) = if seen.iter().all(|r| r.is_finite() && *r > 0.0) {
            Self::reduce(description, &nonlinear, &seen, sample_rate)?
        } else {
            first
        };
        for (p, &z) in seen.iter().enumerate() {
            if !(z.is_finite() && z >= 0.0) {
                let name = tree.port_name(p).to_string();
                return Err(TreeError::Indeterminate(format!(
                    "the nonlinear element '{name}' sees an impedance of {z:e} from the tree"
                )));
            }
        }
        let resistance = tree.resistance.clone();
        tree.laws = std::iter::once(root)
            .chain(&nonlinear)
            .zip(resistance)
            .map(|(named, r)| PortLaw::new(&named.element, r, sample_rate))
            .collect::<Option<_>>()
            .ok_or_else(|| TreeError::Indeterminate("a nonlinear element has no law".into()))?;
        Ok(tree)
    }

    /// The tree with the nonlinear leaves stood in for by resistors of
    /// `stand_in` Ω, reduced to its open-circuit map, with the resistance
    /// each nonlinear port sees (the diagonal of `Z`).
    fn reduce(
        description: &TreeDescription,
        nonlinear: &[Named],
        stand_in: &[f64],
        sample_rate: f64,
    ) -> Result<(Self, Vec<f64>), TreeError> {
        let standing = TreeDescription {
            root: description.root.clone(),
            tree: stand_in_for(&description.tree, nonlinear, stand_in),
        };
        let (topology, elements, leaf_r, coefficients) = prepare(&standing, sample_rate)?;
        let m = external_scattering(&topology, &coefficients)?;
        let n_leaves = topology.leaves.len();
        let mut ports = vec![n_leaves];
        let mut resistance = vec![coefficients.root_resistance];
        for named in nonlinear {
            let leaf = topology.leaf_index(&named.name)?;
            ports.push(leaf);
            resistance.push(leaf_r[leaf]);
        }
        let k = ports.len();
        let delay_sides: Vec<usize> = (0..topology.unit_delays.len())
            .flat_map(|j| {
                let (up, down) = delay_ports(n_leaves, j);
                [up, down]
            })
            .collect();
        let reactive = (0..n_leaves).filter(|&l| elements[l].is_reactive());
        let sources = (0..n_leaves).filter(|&l| {
            !ports.contains(&l)
                && elements[l].constant_reflection().is_some()
                && !matches!(elements[l], Element::Resistor { .. })
        });
        let linear: Vec<usize> = reactive
            .clone()
            .chain(sources)
            .chain(delay_sides.iter().copied())
            .collect();
        let rows: Vec<usize> = reactive.chain(delay_sides.iter().copied()).collect();

        let m_nn = DMatrix::from_fn(k, k, |r, c| m[(ports[r], ports[c])]);
        let m_nl = DMatrix::from_fn(k, linear.len(), |r, c| m[(ports[r], linear[c])]);
        let coupling = DMatrix::identity(k, k) - &m_nn;
        // Nonlinear elements forced to carry one current (in one loop with
        // nothing else) have no impedance matrix between them: `I − M_NN`
        // is then singular up to rounding.
        let least = coupling.singular_values().min();
        let a = coupling
            .try_inverse()
            .filter(|_| least > DEPENDENT_PORTS)
            .ok_or_else(|| {
                TreeError::Indeterminate(
                    "two nonlinear elements are forced to carry the same current (a loop holding \
                 nothing else): join them into one element"
                        .to_string(),
                )
            })?;
        let r = DMatrix::from_diagonal(&nalgebra::DVector::from_column_slice(&resistance));
        let z = &a * (DMatrix::identity(k, k) + &m_nn) * r;
        // Nonlinear elements forced to share one voltage (in parallel with
        // nothing between them) make `Z` singular: the solve could not tell
        // their currents apart. Measured on `Z` scaled to a unit diagonal.
        let scale = DMatrix::from_fn(k, k, |p, q| {
            z[(p, q)]
                / (z[(p, p)].abs() * z[(q, q)].abs())
                    .sqrt()
                    .max(f64::MIN_POSITIVE)
        });
        if scale.singular_values().min() <= DEPENDENT_PORTS {
            return Err(TreeError::Indeterminate(
                "two nonlinear elements are forced to share one voltage (in parallel with \
                 nothing between them): join them into one element"
                    .to_string(),
            ));
        }
        let e = &a * &m_nl;
        let row_major = |x: &DMatrix<f64>| {
            (0..x.nrows())
                .flat_map(|i| (0..x.ncols()).map(move |j| (i, j)))
                .map(|(i, j)| x[(i, j)])
                .collect::<Vec<f64>>()
        };
        let columns: Vec<usize> = linear.iter().chain(&ports).copied().collect();
        let row_matrix = rows
            .iter()
            .flat_map(|&row| columns.iter().map(move |&col| (row, col)))
            .map(|(row, col)| m[(row, col)])
            .collect();
        let externals = m.nrows();
        let computed = (0..externals)
            .map(|port| rows.contains(&port) || ports.contains(&port))
            .collect();
        let seen = (0..k).map(|p| z[(p, p)]).collect();
        let tree = Self {
            computed,
            leaves: LeafBank::new(&elements, &leaf_r),
            delays: (0..topology.unit_delays.len())
                .map(|j| {
                    let (up, down) = delay_ports(n_leaves, j);
                    (up, down, 0.0, 0.0)
                })
                .collect(),
            topology,
            open_circuit: row_major(&e),
            incoming: row_major(&m_nl),
            coupling: row_major(&m_nn),
            gathered: vec![0.0; columns.len()],
            row_matrix,
            rows,
            linear,
            ports,
            laws: Vec::new(),
            resistance,
            m,
            t: vec![0.0; externals],
            b: vec![0.0; externals],
            v: [0.0; MAX_PORTS],
            i: [0.0; MAX_PORTS],
            last: JointOutcome::default(),
            most_steps: 0,
        };
        Ok((tree, seen))
    }

    fn port_name(&self, p: usize) -> &str {
        let port = self.ports[p];
        if port == self.topology.leaves.len() {
            &self.topology.root.name
        } else {
            &self.topology.leaves[port].name
        }
    }

    /// The nonlinear port called `name` (the root or a nonlinear leaf).
    pub fn port(&self, name: &str) -> Result<PortId, TreeError> {
        (0..self.ports.len())
            .find(|&p| self.port_name(p) == name)
            .map(PortId)
            .ok_or_else(|| TreeError::UnknownElement(name.to_string()))
    }

    /// Number of nonlinear ports.
    pub fn port_count(&self) -> usize {
        self.ports.len()
    }

    /// The linear leaf called `name`.
    pub fn leaf(&self, name: &str) -> Result<LeafId, TreeError> {
        let leaf = self.topology.leaf_index(name)?;
        if self.ports.contains(&leaf) {
            return Err(TreeError::WrongKind {
                name: name.to_string(),
                operation: "being read as a linear leaf (it is a nonlinear port)",
            });
        }
        Ok(LeafId(leaf))
    }

    /// The source leaf called `name`.
    pub fn source(&self, name: &str) -> Result<SourceId, TreeError> {
        SourceId::resolve(&self.topology, &self.leaves, name)
    }

    /// Sets a source's EMF (V) or current (A).
    pub fn set_source(&mut self, source: SourceId, value: f64) {
        source.apply(&mut self.leaves, value);
    }

    /// Puts a capacitor at `value` volts with no current (an inductor at
    /// `value` amps with no voltage), as [`super::Bct::set_reactive_state`].
    pub fn set_reactive_state(&mut self, leaf: LeafId, value: f64) {
        if !self.leaves.is_reactive(leaf.0) {
            return;
        }
        let state = match self.leaves.elements[leaf.0] {
            Element::Inductor { .. } => self.leaves.resistance[leaf.0] * value,
            _ => value,
        };
        self.leaves.set_state(leaf.0, state);
        self.b[leaf.0] = state;
        self.t[leaf.0] = self.leaves.reactive_sign(leaf.0) * state;
    }

    /// Voltage across a linear leaf at the last sample.
    pub fn voltage(&self, leaf: LeafId) -> f64 {
        0.5 * (self.t[leaf.0] + self.outgoing(leaf.0))
    }

    /// Current into a linear leaf at the last sample.
    pub fn current(&self, leaf: LeafId) -> f64 {
        (self.outgoing(leaf.0) - self.t[leaf.0]) / (2.0 * self.leaves.resistance[leaf.0])
    }

    /// The wave the adaptor sent to external port `port` at the last sample.
    fn outgoing(&self, port: usize) -> f64 {
        if self.computed[port] {
            return self.b[port];
        }
        self.m
            .row(port)
            .iter()
            .zip(&self.t)
            .map(|(m, t)| m * t)
            .sum()
    }

    /// Across quantity of a nonlinear port at the last sample (V; m/s for a
    /// contact's compression rate).
    pub fn port_voltage(&self, port: PortId) -> f64 {
        self.v[port.0]
    }

    /// Through quantity into a nonlinear port at the last sample (A; N for a
    /// contact's force).
    pub fn port_current(&self, port: PortId) -> f64 {
        self.i[port.0]
    }

    /// The contact at `port`, if it is one.
    pub fn contact(&self, port: PortId) -> Option<&Contact> {
        self.laws[port.0].contact()
    }

    /// The contact at `port`, if it is one, to place its bodies.
    pub fn contact_mut(&mut self, port: PortId) -> Option<&mut Contact> {
        self.laws[port.0].contact_mut()
    }

    /// How the last sample's joint solve went.
    pub fn last_outcome(&self) -> JointOutcome {
        self.last
    }

    /// Most Newton steps any sample's joint solve took since the tree was
    /// built or reset.
    pub fn most_steps(&self) -> u32 {
        self.most_steps
    }

    /// Evaluates one sample.
    pub fn tick(&mut self) {
        self.leaves.reflect(&mut self.t);
        for &(up, down, held_up, held_down) in &self.delays {
            self.t[up] = held_up;
            self.t[down] = held_down;
        }
        let n = self.linear.len();
        for (g, &port) in self.gathered.iter_mut().zip(&self.linear) {
            *g = self.t[port];
        }
        let k = self.ports.len();
        let (mut e, mut p_in, mut p_size) = ([0.0; MAX_PORTS], [0.0; MAX_PORTS], [0.0; MAX_PORTS]);
        let chunk = n.max(1);
        for (p, (open, row)) in self
            .open_circuit
            .chunks_exact(chunk)
            .zip(self.incoming.chunks_exact(chunk))
            .take(k)
            .enumerate()
        {
            for ((&o, &m), &t) in open[..n].iter().zip(&row[..n]).zip(&self.gathered[..n]) {
                e[p] += o * t;
                p_in[p] += m * t;
                p_size[p] += (m * t).abs();
            }
        }
        for law in &mut self.laws {
            law.begin_sample();
        }
        let mut t_ports = [0.0; MAX_PORTS];
        for (t, &port) in t_ports.iter_mut().zip(&self.ports) {
            *t = self.t[port];
        }
        let network = Network {
            open_circuit: &e[..k],
            incoming: &p_in[..k],
            incoming_size: &p_size[..k],
            coupling: &self.coupling,
            resistance: &self.resistance,
        };
        self.last = solve_joint(
            network,
            &self.laws,
            &mut t_ports[..k],
            &mut self.v[..k],
            &mut self.i[..k],
        );
        self.most_steps = self.most_steps.max(self.last.steps);
        for p in 0..k {
            let (v, i, r) = (self.v[p], self.i[p], self.resistance[p]);
            let port = self.ports[p];
            self.b[port] = v + r * i;
            self.t[port] = v - r * i;
            self.gathered[n + p] = self.t[port];
            self.laws[p].commit(v, i);
        }
        let width = self.gathered.len();
        for (row, &port) in self.row_matrix.chunks_exact(width).zip(&self.rows) {
            self.b[port] = dot(row, &self.gathered);
        }
        for (up, down, held_up, held_down) in &mut self.delays {
            *held_down = self.b[*up];
            *held_up = self.b[*down];
        }
        self.leaves.absorb(&self.b);
    }

    /// Whether `other` is built from the same flattened tree (the same
    /// leaves, adaptors, unit delays and nonlinear ports in the same places),
    /// whatever its values: what [`MultiportTree::continue_from`] needs.
    pub fn same_structure(&self, other: &MultiportTree) -> bool {
        self.topology.adaptors.len() == other.topology.adaptors.len()
            && self.delays.len() == other.delays.len()
            && self.ports == other.ports
            && self.leaves.same_layout(&other.leaves)
            && self
                .laws
                .iter()
                .zip(&other.laws)
                .all(|(a, b)| std::mem::discriminant(a) == std::mem::discriminant(b))
    }

    /// Takes over the state of `old`, a tree of the same structure whose
    /// values may differ: every reactive leaf and nonlinear port carries on
    /// with the voltage and current it had at the last sample (its waves
    /// re-expressed at this tree's port resistances), each contact with its
    /// compression; unit delays keep their waves. Sources are inputs their
    /// owner sets. Returns false, changing nothing, if the structures differ.
    ///
    /// Allocates nothing.
    pub fn continue_from(&mut self, old: &MultiportTree) -> bool {
        if !self.same_structure(old) {
            return false;
        }
        for leaf in 0..self.leaves.len() {
            if self.ports.contains(&leaf) {
                continue;
            }
            let (into, back) = super::rematch::rematched(
                (old.outgoing(leaf), old.t[leaf]),
                old.leaves.resistance[leaf],
                self.leaves.resistance[leaf],
            );
            (self.b[leaf], self.t[leaf]) = (into, back);
            if self.leaves.is_reactive(leaf) {
                // A reactive leaf's state is the wave it received last sample.
                self.leaves.set_state(leaf, into);
            }
        }
        for (new, old) in self.delays.iter_mut().zip(&old.delays) {
            (new.2, new.3) = (old.2, old.3);
        }
        for p in 0..self.ports.len() {
            let (v, i, r) = (old.v[p], old.i[p], self.resistance[p]);
            (self.v[p], self.i[p]) = (v, i);
            (self.b[self.ports[p]], self.t[self.ports[p]]) = (v + r * i, v - r * i);
            if let (Some(contact), Some(old_contact)) =
                (self.laws[p].contact_mut(), old.laws[p].contact())
            {
                contact.continue_from(old_contact);
            }
        }
        true
    }

    /// Brings every element to rest: reactive leaves, unit delays, contacts
    /// touching at no force.
    pub fn reset(&mut self) {
        self.leaves.clear_states();
        for delay in &mut self.delays {
            (delay.2, delay.3) = (0.0, 0.0);
        }
        self.t.fill(0.0);
        self.b.fill(0.0);
        self.v = [0.0; MAX_PORTS];
        self.i = [0.0; MAX_PORTS];
        for law in &mut self.laws {
            if let Some(contact) = law.contact_mut() {
                contact.set_state(0.0, 0.0);
            }
        }
        self.most_steps = 0;
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Every nonlinear leaf of `tree`, in tree order.
fn collect_nonlinear(tree: &Connection, out: &mut Vec<Named>) {
    match tree {
        Connection::Element(named) => {
            if named.element.is_nonlinear() {
                out.push(named.clone());
            }
        }
        Connection::Series(children) | Connection::Parallel(children) => {
            for child in children {
                collect_nonlinear(child, out);
            }
        }
        Connection::Inverted(child)
        | Connection::Transformer { child, .. }
        | Connection::UnitDelay(child) => collect_nonlinear(child, out),
    }
}

/// `tree` with each of the `nonlinear` leaves replaced by a resistor of the
/// matching `ohms`.
fn stand_in_for(tree: &Connection, nonlinear: &[Named], ohms: &[f64]) -> Connection {
    let recurse = |child: &Connection| stand_in_for(child, nonlinear, ohms);
    match tree {
        Connection::Element(named) => match nonlinear.iter().position(|n| n.name == named.name) {
            Some(p) => Connection::Element(Named {
                name: named.name.clone(),
                element: Element::Resistor { ohms: ohms[p] },
            }),
            None => tree.clone(),
        },
        Connection::Series(children) => Connection::Series(children.iter().map(recurse).collect()),
        Connection::Parallel(children) => {
            Connection::Parallel(children.iter().map(recurse).collect())
        }
        Connection::Inverted(child) => Connection::Inverted(Box::new(recurse(child))),
        Connection::Transformer { ratio, child } => Connection::Transformer {
            ratio: *ratio,
            child: Box::new(recurse(child)),
        },
        Connection::UnitDelay(child) => Connection::UnitDelay(Box::new(recurse(child))),
    }
}

#[cfg(test)]
mod tests;
