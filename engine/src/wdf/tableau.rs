//! The Wave Tableau method (seed 004, Section 3.1): the macro-adaptor as one
//! explicit scattering matrix.

use nalgebra::{DMatrix, DVector};

use super::bct::{LeafId, SourceId, prepare};
use super::description::TreeDescription;
use super::leaves::LeafBank;
use super::root::Root;
use super::topology::{Junction, Topology, TreeError};

/// Largest tableau built: its dense matrices grow with the square of this.
const MAX_INTERNAL_PORTS: usize = 3 * 4096;

/// One side of a connection: an adaptor port inside the macro-adaptor, or one of
/// its external ports (a leaf, the root, either side of a unit delay).
#[derive(Debug, Clone, Copy)]
enum Port {
    Internal(usize),
    External(usize),
}

/// The same circuit as a [`super::Bct`], evaluated through the macro-adaptor's
/// scattering matrix `M = Q·(I + M0·C)⁻¹·M0·Qᵀ`.
///
/// The tableau joins every three-port adaptor's scattering matrix (block-diagonal
/// `M0`) with the interconnections between adaptors (`C`, carrying the scales of
/// inverters and transformers); solving it once for the external ports gives `M`,
/// and each sample is then one matrix-vector product. The root's port is adapted,
/// so its own row is computed first, the root reflects, and the rest follows.
/// External ports: the leaves, the root, and both sides of each unit delay.
///
/// Allocates: in [`WaveTableau::new`] only.
#[derive(Debug, Clone)]
pub struct WaveTableau {
    topology: Topology,
    leaves: LeafBank,
    root: Root,
    m: DMatrix<f64>,
    /// Waves into the macro-adaptor at its external ports.
    t: DVector<f64>,
    /// Waves out of it.
    b: DVector<f64>,
    root_port: usize,
    /// For each unit delay: (port on its parent side, port on its child side,
    /// delayed wave going up, delayed wave going down).
    delays: Vec<(usize, usize, f64, f64)>,
}

impl WaveTableau {
    /// Builds the tableau of `description` at `sample_rate` (Hz).
    pub fn new(description: &TreeDescription, sample_rate: f64) -> Result<Self, TreeError> {
        let (topology, elements, leaf_r, coefficients) = prepare(description, sample_rate)?;
        let n_leaves = topology.leaves.len();
        let root_port = n_leaves;
        let delay_up = |j: usize| n_leaves + 1 + 2 * j;
        let delay_down = |j: usize| n_leaves + 2 + 2 * j;
        let externals = n_leaves + 1 + 2 * topology.unit_delays.len();
        let internals = 3 * topology.adaptors.len();
        if internals > MAX_INTERNAL_PORTS {
            return Err(TreeError::Indeterminate(format!(
                "{} adaptors are too many for a dense wave tableau (at most {})",
                topology.adaptors.len(),
                MAX_INTERNAL_PORTS / 3
            )));
        }

        // What sits below an edge, seen as a port.
        let child_port = |slot: usize| {
            if slot < n_leaves {
                Port::External(slot)
            } else if slot < n_leaves + topology.unit_delays.len() {
                Port::External(delay_up(slot - n_leaves))
            } else {
                Port::Internal(3 * (slot - n_leaves - topology.unit_delays.len()) + 2)
            }
        };
        // (parent port, child port, scale): parent-side waves are scale × child-side.
        let mut edges = Vec::new();
        for (i, node) in topology.adaptors.iter().enumerate() {
            for (k, edge) in node.children.iter().enumerate() {
                edges.push((Port::Internal(3 * i + k), child_port(edge.slot), edge.scale));
            }
        }
        edges.push((
            Port::External(root_port),
            child_port(topology.top.slot),
            topology.top.scale,
        ));
        for (j, node) in topology.unit_delays.iter().enumerate() {
            edges.push((
                Port::External(delay_down(j)),
                child_port(node.child.slot),
                node.child.scale,
            ));
        }

        // M0: each adaptor's 3×3 scattering matrix, resistances seen through edges.
        let mut m0 = DMatrix::<f64>::zeros(internals, internals);
        for (i, node) in topology.adaptors.iter().enumerate() {
            let seen = node
                .children
                .map(|e| e.scale * e.scale * coefficients.resistance[e.slot]);
            let r = [seen[0], seen[1], coefficients.resistance[node.slot]];
            for row in 0..3 {
                for col in 0..3 {
                    let identity = if row == col { 1.0 } else { 0.0 };
                    m0[(3 * i + row, 3 * i + col)] = match node.junction {
                        // b = a − (R_k/R3)·Σa
                        Junction::Series => identity - r[row] / r[2],
                        // b = (Σ G_j·a_j)/G3 − a
                        Junction::Parallel => r[2] / r[col] - identity,
                    };
                }
            }
        }
        // C (internal interconnections), and the maps from external inputs into the
        // macro-adaptor (t_in) and from its reflected waves out to external ports.
        let mut c = DMatrix::<f64>::zeros(internals, internals);
        let mut into = DMatrix::<f64>::zeros(internals, externals);
        let mut out = DMatrix::<f64>::zeros(externals, internals);
        let mut direct = DMatrix::<f64>::zeros(externals, externals);
        for &(parent, child, s) in &edges {
            match (parent, child) {
                (Port::Internal(p), Port::Internal(q)) => {
                    c[(p, q)] = -s;
                    c[(q, p)] = -1.0 / s;
                }
                (Port::Internal(p), Port::External(e)) => {
                    into[(p, e)] = s;
                    out[(e, p)] = 1.0 / s;
                }
                (Port::External(e), Port::Internal(q)) => {
                    into[(q, e)] = 1.0 / s;
                    out[(e, q)] = s;
                }
                (Port::External(e), Port::External(f)) => {
                    direct[(e, f)] = s;
                    direct[(f, e)] = 1.0 / s;
                }
            }
        }
        let mut m = direct;
        if internals > 0 {
            let system = DMatrix::<f64>::identity(internals, internals) + &m0 * &c;
            let reduced = system.lu().solve(&m0).ok_or_else(|| {
                TreeError::Indeterminate("the wave tableau is singular".to_string())
            })?;
            m += &out * reduced * &into;
        }
        let root = Root::new(
            &topology.root.element,
            coefficients.root_resistance,
            sample_rate,
        );
        let delays = (0..topology.unit_delays.len())
            .map(|j| (delay_up(j), delay_down(j), 0.0, 0.0))
            .collect();
        Ok(Self {
            leaves: LeafBank::new(&elements, &leaf_r),
            root,
            m,
            t: DVector::zeros(externals),
            b: DVector::zeros(externals),
            root_port,
            delays,
            topology,
        })
    }

    /// The explicit scattering matrix of the macro-adaptor over its external ports.
    pub fn scattering_matrix(&self) -> &DMatrix<f64> {
        &self.m
    }

    /// The leaf called `name`.
    pub fn leaf(&self, name: &str) -> Result<LeafId, TreeError> {
        self.topology.leaf_index(name).map(LeafId)
    }

    /// The source leaf called `name`.
    pub fn source(&self, name: &str) -> Result<SourceId, TreeError> {
        SourceId::resolve(&self.topology, &self.leaves, name)
    }

    /// Sets a source's EMF (V) or current (A).
    pub fn set_source(&mut self, source: SourceId, value: f64) {
        source.apply(&mut self.leaves, value);
    }

    /// Evaluates one sample.
    pub fn tick(&mut self) {
        let t = self.t.as_mut_slice();
        self.leaves.reflect(t);
        for &(up, down, s_up, s_down) in &self.delays {
            t[up] = s_up;
            t[down] = s_down;
        }
        // The root port is adapted: its outgoing wave does not depend on its input.
        t[self.root_port] = 0.0;
        let to_root = self.m.row(self.root_port).dot(&self.t.transpose());
        self.t[self.root_port] = self.root.reflect(to_root);
        self.b.gemv(1.0, &self.m, &self.t, 0.0);
        for (up, down, s_up, s_down) in &mut self.delays {
            *s_down = self.b[*up];
            *s_up = self.b[*down];
        }
        self.leaves.absorb(self.b.as_slice());
    }

    /// Voltage across a leaf at the last sample.
    pub fn voltage(&self, leaf: LeafId) -> f64 {
        0.5 * (self.t[leaf.0] + self.b[leaf.0])
    }

    /// Voltage across the root at the last sample.
    pub fn root_voltage(&self) -> f64 {
        0.5 * (self.root.incident + self.root.reflected)
    }
}
