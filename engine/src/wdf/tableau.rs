//! The Wave Tableau method (De Sanctis et al. 2003, Section 3.1): the
//! macro-adaptor as one explicit scattering matrix.

use nalgebra::{DMatrix, DVector};

use super::bct::{LeafId, SourceId, prepare};
use super::description::TreeDescription;
use super::fused::{self, Fused, MulAdd, Separate};
use super::leaves::LeafBank;
use super::root::Root;
use super::topology::{Junction, Topology, TreeError};

/// A small macro-adaptor reduced to what a block of samples needs, in kernel
/// order (root, probe, the other active ports, the driven source last): the root's
/// row, and the transition giving each port's next outgoing wave.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Kernel {
    /// Active-port index of each kernel position.
    pub order: Vec<usize>,
    pub to_root: Vec<f64>,
    /// Row-major, `n × n`.
    pub transition: Vec<f64>,
    /// +1 if the probe is a capacitor, −1 for an inductor.
    pub probe_sign: f64,
    pub source_scale: f64,
    /// The source leaf and the probe leaf it was built for.
    pub source: usize,
    pub probe: usize,
}

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
    /// External ports whose incoming wave can be non-zero (root first): the only
    /// columns of `m` a sample needs.
    active: Vec<usize>,
    /// External ports whose outgoing wave a sample needs (root first): reactive
    /// leaves and unit delays. The rest are computed when read.
    rows: Vec<usize>,
    /// `m` restricted to `rows` × `active`, row-major.
    dense: Vec<f64>,
    /// This sample's incoming waves at the `active` ports.
    gathered: Vec<f64>,
    /// The block kernel of the last (source, probe) pair processed.
    block_kernel: Option<Kernel>,
    /// For each unit delay: (port on its parent side, port on its child side,
    /// delayed wave going up, delayed wave going down).
    delays: Vec<(usize, usize, f64, f64)>,
    /// Whether block kernels run with fused multiply-adds (detected at build).
    fused: bool,
}

impl WaveTableau {
    /// Builds the tableau of `description` at `sample_rate` (Hz).
    pub fn new(description: &TreeDescription, sample_rate: f64) -> Result<Self, TreeError> {
        let (topology, elements, leaf_r, coefficients) = prepare(description, sample_rate)?;
        let n_leaves = topology.leaves.len();
        let root_port = n_leaves;
        let m = external_scattering(&topology, &coefficients)?;
        let root = Root::new(
            &topology.root.element,
            coefficients.root_resistance,
            sample_rate,
        );
        let delays: Vec<(usize, usize, f64, f64)> = (0..topology.unit_delays.len())
            .map(|j| {
                let (up, down) = delay_ports(n_leaves, j);
                (up, down, 0.0, 0.0)
            })
            .collect();
        let externals = m.nrows();
        let delay_ports = delays.iter().flat_map(|&(up, down, _, _)| [up, down]);
        let reactive = (0..n_leaves).filter(|&i| elements[i].is_reactive());
        let sources = (0..n_leaves).filter(|&i| {
            elements[i].constant_reflection().is_some()
                && !matches!(elements[i], super::Element::Resistor { .. })
        });
        let active: Vec<usize> = std::iter::once(root_port)
            .chain(reactive.clone())
            .chain(sources)
            .chain(delay_ports.clone())
            .collect();
        let rows: Vec<usize> = std::iter::once(root_port)
            .chain(reactive)
            .chain(delay_ports)
            .collect();
        let dense = rows
            .iter()
            .flat_map(|&r| active.iter().map(move |&c| (r, c)))
            .map(|(r, c)| m[(r, c)])
            .collect();
        Ok(Self {
            gathered: vec![0.0; active.len()],
            block_kernel: None,
            active,
            rows,
            dense,
            leaves: LeafBank::new(&elements, &leaf_r),
            root,
            m,
            t: DVector::zeros(externals),
            b: DVector::zeros(externals),
            root_port,
            delays,
            topology,
            fused: fused::available(),
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

    /// Evaluates one sample: the root's row first (its port is adapted, so its
    /// outgoing wave does not depend on its own input), the root's reflection, then
    /// the rows of the ports that carry state.
    pub fn tick(&mut self) {
        self.refresh_outgoing();
        let t = self.t.as_mut_slice();
        for (g, &port) in self.gathered.iter_mut().zip(&self.active) {
            *g = t[port];
        }
        let width = self.active.len();
        let dot = |row: &[f64], x: &[f64]| row.iter().zip(x).map(|(m, x)| m * x).sum::<f64>();
        let to_root = dot(&self.dense[..width], &self.gathered);
        let from_root = self.root.reflect(to_root);
        t[self.root_port] = from_root;
        self.gathered[0] = from_root;
        let b = self.b.as_mut_slice();
        b[self.root_port] = to_root;
        for (row, &port) in self.dense.chunks_exact(width).zip(&self.rows).skip(1) {
            b[port] = dot(row, &self.gathered);
        }
        for (up, down, s_up, s_down) in &mut self.delays {
            *s_down = b[*up];
            *s_up = b[*down];
        }
        self.leaves.absorb(b);
    }

    /// Runs a block: drives `source` with `input` and writes the voltage across
    /// `probe` after each sample into `output`.
    ///
    /// Small macro-adaptors (up to six ports carrying waves, with a reactive probe)
    /// run through a kernel whose matrices and state live in registers for the
    /// whole block; larger ones sample by sample.
    ///
    /// The first block for a (source, probe) pair builds that pair's kernel, which
    /// allocates: on a realtime thread, call [`WaveTableau::prepare_block`] first.
    pub fn process(&mut self, source: SourceId, input: &[f64], probe: LeafId, output: &mut [f64]) {
        let cached = self
            .block_kernel
            .as_ref()
            .is_some_and(|k| k.source == source.leaf() && k.probe == probe.0);
        if !cached {
            self.prepare_block(source, probe);
        }
        let fast = self.block_kernel.is_some();
        match (fast, self.active.len()) {
            (true, 2) => self.process_fast::<2>(input, output),
            (true, 3) => self.process_fast::<3>(input, output),
            (true, 4) => self.process_fast::<4>(input, output),
            (true, 5) => self.process_fast::<5>(input, output),
            (true, 6) => self.process_fast::<6>(input, output),
            _ => {
                for (&x, y) in input.iter().zip(output.iter_mut()) {
                    self.set_source(source, x);
                    self.tick();
                    *y = self.voltage(probe);
                }
            }
        }
    }

    /// Builds the block kernel for driving `source` and reading `probe`, so that
    /// [`WaveTableau::process`] allocates nothing afterwards.
    ///
    /// Allocates: the kernel's matrices.
    pub fn prepare_block(&mut self, source: SourceId, probe: LeafId) {
        self.block_kernel = self.kernel(source, probe);
    }

    /// The outgoing waves at the kernel's ports (in kernel `order`) in the present
    /// state, written into `out`.
    pub(crate) fn current_waves(&mut self, order: &[usize], out: &mut [f64]) {
        self.refresh_outgoing();
        for (value, &j) in out.iter_mut().zip(order) {
            *value = self.t[self.active[j]];
        }
    }

    /// Writes the waves the elements send into the macro-adaptor this sample into
    /// `t`: leaves, both sides of every unit delay, and zero for the root (whose
    /// wave comes after its row is evaluated).
    fn refresh_outgoing(&mut self) {
        let t = self.t.as_mut_slice();
        self.leaves.reflect(t);
        for &(up, down, s_up, s_down) in &self.delays {
            t[up] = s_up;
            t[down] = s_down;
        }
        t[self.root_port] = 0.0;
    }

    /// The block kernel's matrices for driving `source` and reading `probe` (a
    /// reactive leaf), in kernel order: root, probe, the other ports, source last.
    pub(crate) fn kernel(&self, source: SourceId, probe: LeafId) -> Option<Kernel> {
        let n = self.active.len();
        let column = |port: usize| self.active.iter().position(|&p| p == port);
        let row_of = |port: usize| self.rows.iter().position(|&p| p == port);
        let dense_row = |r: usize| &self.dense[r * n..(r + 1) * n];
        let (source_column, probe_column) = (column(source.leaf())?, column(probe.0)?);
        if !self.leaves.is_reactive(probe.0) || n < 2 {
            return None;
        }
        let mut transition = vec![0.0; n * n];
        for (j, &port) in self.active.iter().enumerate().skip(1) {
            let delay = self.delays.iter().find(|d| d.0 == port || d.1 == port);
            let (row, sign) = match delay {
                // The wave leaving a delay's side next sample is what entered the other.
                Some(&(up, down, _, _)) => (row_of(if port == up { down } else { up }), 1.0),
                None if self.leaves.is_reactive(port) => {
                    (row_of(port), self.leaves.reactive_sign(port))
                }
                None => (None, 0.0),
            };
            match row {
                Some(r) => {
                    for (t, &m) in transition[j * n..(j + 1) * n].iter_mut().zip(dense_row(r)) {
                        *t = sign * m;
                    }
                }
                None => transition[j * n + j] = 1.0,
            }
        }
        let mut rest = (1..n).filter(|&j| j != probe_column && j != source_column);
        let order: Vec<usize> = (0..n)
            .map(|k| match k {
                0 => 0,
                1 => probe_column,
                k if k == n - 1 => source_column,
                _ => rest.next().unwrap_or(0),
            })
            .collect();
        Some(Kernel {
            source: source.leaf(),
            probe: probe.0,
            to_root: order.iter().map(|&i| self.dense[i]).collect(),
            transition: order
                .iter()
                .flat_map(|&j| order.iter().map(move |&i| (j, i)))
                .map(|(j, i)| transition[j * n + i])
                .collect(),
            order,
            probe_sign: self.leaves.reactive_sign(probe.0),
            source_scale: source.scale(),
        })
    }

    /// The root element, for kernels that run it themselves.
    pub(crate) fn root(&self) -> &Root {
        &self.root
    }

    /// The block kernel for `N` active ports, with fused multiply-adds where the
    /// processor has them.
    fn process_fast<const N: usize>(&mut self, input: &[f64], output: &mut [f64]) {
        #[cfg(target_arch = "x86_64")]
        if self.fused {
            // SAFETY: `fused` is set only when FMA and AVX2 were detected.
            unsafe { self.process_small_fused::<N>(input, output) };
            return;
        }
        self.process_small::<N, Separate>(input, output);
    }

    /// [`WaveTableau::process_small`] compiled with FMA and AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn process_small_fused<const N: usize>(&mut self, input: &[f64], output: &mut [f64]) {
        self.process_small::<N, Fused>(input, output);
    }

    /// The block kernel for `N` active ports. The waves leaving the elements at
    /// the active ports, `g` (root first), evolve as: root wave from the root's row,
    /// the root's reflection, then every state column's next wave from its row of
    /// the transition matrix (element reflections folded in: a capacitor returns
    /// what it received, an inductor its negative, a unit delay swaps its two
    /// sides); source columns keep their value.
    #[inline(always)]
    fn process_small<const N: usize, M: MulAdd>(&mut self, input: &[f64], output: &mut [f64]) {
        let Some(kernel) = self.block_kernel.take() else {
            return;
        };
        let order: [usize; N] = std::array::from_fn(|i| kernel.order[i]);
        let to_root: [f64; N] = std::array::from_fn(|i| kernel.to_root[i]);
        let transition: [[f64; N]; N] =
            std::array::from_fn(|j| std::array::from_fn(|i| kernel.transition[j * N + i]));
        let (source_column, probe_column, probe_sign) = (N - 1, 1, kernel.probe_sign);

        // Current waves at the active ports.
        let mut g = [0.0; N];
        self.current_waves(&order, &mut g);
        let mut last = g;
        if let Some((rho, offset)) = self.root.affine() {
            // A linear root folds into the transition: the whole block is then one
            // small matrix-vector product per sample.
            let mut folded = transition;
            let mut constant = [0.0; N];
            for j in 1..N {
                for i in 1..N {
                    folded[j][i] += transition[j][0] * rho * to_root[i];
                }
                folded[j][0] = 0.0;
                constant[j] = transition[j][0] * offset;
            }
            for (&x, y) in input.iter().zip(output.iter_mut()) {
                let drive = kernel.source_scale * x;
                g[source_column] = drive;
                let mut next = g;
                for j in 1..source_column {
                    next[j] = state_step::<N, M>(&folded[j], &g, constant[j], drive);
                }
                *y = 0.5 * (g[probe_column] + probe_sign * next[probe_column]);
                last = g;
                g = next;
            }
            last[0] = 0.0;
            let a: f64 = to_root.iter().zip(&last).map(|(m, v)| m * v).sum();
            last[0] = rho * a + offset;
            self.root.record(a, last[0]);
        } else {
            let rows = KernelRows {
                to_root,
                transition,
                source_scale: kernel.source_scale,
                probe_sign,
            };
            // A tabulated diode pair is solved inline; other roots reflect
            // through their own dispatch.
            let (a, b) = match self.root.tabulated_pair() {
                Some(pair) => {
                    rows.scan::<M>(&mut g, &mut last, input, output, |a| pair.reflect::<M>(a))
                }
                None => {
                    let root = &mut self.root;
                    rows.scan::<M>(&mut g, &mut last, input, output, |a| root.reflect(a))
                }
            };
            self.root.record(a, b);
        }
        // Hand the state back, as if the block had run through `tick`.
        for (k, &j) in order.iter().enumerate().skip(1) {
            let port = self.active[j];
            if port < self.leaves.len() {
                if self.leaves.is_reactive(port) {
                    self.leaves
                        .set_state(port, self.leaves.reactive_sign(port) * g[k]);
                } else {
                    self.leaves.set_constant(port, g[k]);
                }
            }
            for delay in &mut self.delays {
                if delay.0 == port {
                    delay.2 = g[k];
                }
                if delay.1 == port {
                    delay.3 = g[k];
                }
            }
        }
        // The last sample's outgoing waves, for `voltage`.
        let t = self.t.as_mut_slice();
        for (&value, &j) in last.iter().zip(&order) {
            t[self.active[j]] = value;
        }
        self.block_kernel = Some(kernel);
    }

    /// Voltage across a leaf at the last sample.
    pub fn voltage(&self, leaf: LeafId) -> f64 {
        let outgoing: f64 = self
            .m
            .row(leaf.0)
            .iter()
            .zip(self.t.iter())
            .map(|(m, t)| m * t)
            .sum();
        0.5 * (self.t[leaf.0] + outgoing)
    }

    /// Voltage across the root at the last sample.
    pub fn root_voltage(&self) -> f64 {
        0.5 * (self.root.incident + self.root.reflected)
    }
}

/// The external ports' numbering of a tree with `n_leaves` leaves: the leaves
/// first, then the root, then both sides of each unit delay. Returns unit
/// delay `j`'s (parent side, child side).
pub(super) fn delay_ports(n_leaves: usize, j: usize) -> (usize, usize) {
    (n_leaves + 1 + 2 * j, n_leaves + 2 + 2 * j)
}

/// The explicit scattering matrix `M = Q·(I + M0·C)⁻¹·M0·Qᵀ` of the
/// macro-adaptor of `topology` with port resistances `coefficients`, over its
/// external ports (numbered as [`delay_ports`] says): `b = M·t`, with `t` the
/// waves the elements send in and `b` those the adaptor sends out.
pub(super) fn external_scattering(
    topology: &Topology,
    coefficients: &super::coefficients::Coefficients,
) -> Result<DMatrix<f64>, TreeError> {
    let n_leaves = topology.leaves.len();
    let root_port = n_leaves;
    let delay_up = |j: usize| delay_ports(n_leaves, j).0;
    let delay_down = |j: usize| delay_ports(n_leaves, j).1;
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
        let reduced = system
            .lu()
            .solve(&m0)
            .ok_or_else(|| TreeError::Indeterminate("the wave tableau is singular".to_string()))?;
        m += &out * reduced * &into;
    }
    Ok(m)
}

/// A kernel's root row and transition for a block with a nonlinear root.
struct KernelRows<const N: usize> {
    to_root: [f64; N],
    transition: [[f64; N]; N],
    source_scale: f64,
    probe_sign: f64,
}

impl<const N: usize> KernelRows<N> {
    /// Runs `input` through the kernel from the waves `g`, the root reflecting
    /// through `reflect`; leaves the next waves in `g` and the last sample's in
    /// `last`, and returns the last sample's waves at the root (incident,
    /// reflected).
    #[inline(always)]
    #[expect(
        clippy::needless_range_loop,
        reason = "ports index the waves and the transition in step"
    )]
    fn scan<M: MulAdd>(
        &self,
        g: &mut [f64; N],
        last: &mut [f64; N],
        input: &[f64],
        output: &mut [f64],
        mut reflect: impl FnMut(f64) -> f64,
    ) -> (f64, f64) {
        let (source_column, probe_column) = (N - 1, 1);
        let mut root_waves = (0.0, 0.0);
        for (&x, y) in input.iter().zip(output.iter_mut()) {
            let drive = self.source_scale * x;
            g[source_column] = drive;
            let a = state_step::<N, M>(&self.to_root, g, 0.0, drive);
            g[0] = reflect(a);
            root_waves = (a, g[0]);
            let mut next = *g;
            for j in 1..source_column {
                // The root's fresh reflection enters last.
                let row = &self.transition[j];
                next[j] = M::mul_add(row[0], g[0], state_step::<N, M>(row, g, 0.0, drive));
            }
            // The probe's incoming wave is its next reflected wave, up to sign.
            *y = 0.5 * (g[probe_column] + self.probe_sign * next[probe_column]);
            *last = *g;
            *g = next;
        }
        root_waves
    }
}

/// One row of a kernel applied to the waves `g` without the root's (position 0)
/// and with the driven source's (position N−1) given as `drive`:
/// `constant + row[N−1]·drive + Σ row[i]·g[i]`. The drive's share comes first,
/// so that the state's terms, which the previous sample just produced, come last
/// and the sample-to-sample dependency is as short as the row allows.
#[inline(always)]
fn state_step<const N: usize, M: MulAdd>(
    row: &[f64; N],
    g: &[f64; N],
    constant: f64,
    drive: f64,
) -> f64 {
    let mut sum = M::mul_add(row[N - 1], drive, constant);
    for i in 1..N - 1 {
        sum = M::mul_add(row[i], g[i], sum);
    }
    sum
}
