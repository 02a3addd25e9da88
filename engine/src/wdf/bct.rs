//! The Binary Connection Tree runtime (De Sanctis et al. 2003, Section 3.2).

use super::coefficients::{AdaptorCoefficients, Coefficients, Patch};
use super::description::TreeDescription;
use super::leaves::LeafBank;
use super::rematch::rematched;
use super::root::{Root, RootKind};
use super::topology::{Topology, TreeError, flatten};
use super::{Element, FeltRoot};

/// A leaf of a tree, resolved by name once, used without lookup afterwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafId(pub(crate) usize);

/// A source leaf whose value can be driven every sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SourceId {
    leaf: usize,
    /// Voltage sources reflect their EMF; current sources `R·I`.
    scale: f64,
}

impl SourceId {
    /// Finds the source leaf called `name`.
    pub(crate) fn resolve(
        topology: &Topology,
        leaves: &LeafBank,
        name: &str,
    ) -> Result<Self, TreeError> {
        let leaf = topology.leaf_index(name)?;
        match leaves.elements[leaf] {
            Element::ResistiveVoltageSource { .. } => Ok(Self { leaf, scale: 1.0 }),
            Element::ResistiveCurrentSource { ohms, .. } => Ok(Self { leaf, scale: ohms }),
            _ => Err(TreeError::WrongKind {
                name: name.to_string(),
                operation: "being driven as a source",
            }),
        }
    }

    /// The leaf the source drives.
    pub(crate) fn leaf(self) -> usize {
        self.leaf
    }

    /// What the leaf reflects per unit of source value (1 for a voltage source,
    /// `R` for a current source).
    pub(crate) fn scale(self) -> f64 {
        self.scale
    }

    /// Writes a source value into the leaf bank.
    #[inline]
    pub(crate) fn apply(self, leaves: &mut LeafBank, value: f64) {
        leaves.set_constant(self.leaf, self.scale * value);
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct AdaptorRun {
    children: [usize; 2],
    slot: usize,
    c: AdaptorCoefficients,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct DelayRun {
    slot: usize,
    child: usize,
    scale: f64,
    /// Wave travelling up, parent side, delayed by one sample.
    s_up: f64,
    /// Wave travelling down, parent side, delayed by one sample.
    s_down: f64,
}

/// A macro-adaptor evaluated as a binary connection tree: per sample, a forward
/// scan from the leaves to the root, the root's reflection, and a backward scan to
/// the leaves.
///
/// The tree is stored flat: adaptors in post-order with their coefficients and
/// child indices, leaves grouped by behaviour, waves in two arrays indexed by slot.
/// A sample costs a fixed number of multiply-adds per adaptor and no dispatch
/// except the root's. Cost and memory grow linearly with the number of elements.
///
/// Allocates: in [`Bct::new`] only. [`Bct::tick`], [`Bct::set_source`],
/// [`Bct::apply_patch`] and [`Bct::reset`] never allocate.
#[derive(Debug, Clone)]
pub struct Bct {
    topology: Topology,
    sample_rate: f64,
    coefficients: Coefficients,
    pub(crate) leaves: LeafBank,
    adaptors: Vec<AdaptorRun>,
    delays: Vec<DelayRun>,
    up: Vec<f64>,
    down: Vec<f64>,
    top: usize,
    top_scale: f64,
    pub(crate) root: Root,
}

impl Bct {
    /// Builds the tree `description` for `sample_rate` (Hz), checking the rules of
    /// macro-adaptors. All states start at zero.
    pub fn new(description: &TreeDescription, sample_rate: f64) -> Result<Self, TreeError> {
        let (topology, elements, leaf_r, coefficients) = prepare(description, sample_rate)?;
        let adaptors = topology
            .adaptors
            .iter()
            .zip(&coefficients.adaptors)
            .map(|(node, &c)| AdaptorRun {
                children: [node.children[0].slot, node.children[1].slot],
                slot: node.slot,
                c,
            })
            .collect();
        let delays = topology
            .unit_delays
            .iter()
            .map(|node| DelayRun {
                slot: node.slot,
                child: node.child.slot,
                scale: node.child.scale,
                s_up: 0.0,
                s_down: 0.0,
            })
            .collect();
        let slots = topology.slots();
        let root = Root::new(
            &topology.root.element,
            coefficients.root_resistance,
            sample_rate,
        );
        Ok(Self {
            leaves: LeafBank::new(&elements, &leaf_r),
            adaptors,
            delays,
            up: vec![0.0; slots],
            down: vec![0.0; slots],
            top: topology.top.slot,
            top_scale: topology.top.scale,
            root,
            coefficients,
            sample_rate,
            topology,
        })
    }

    /// The sample rate the tree was built for, Hz.
    pub fn sample_rate(&self) -> f64 {
        self.sample_rate
    }

    /// Number of three-port adaptors.
    pub fn adaptor_count(&self) -> usize {
        self.adaptors.len()
    }

    /// Number of leaves.
    pub fn leaf_count(&self) -> usize {
        self.leaves.elements.len()
    }

    /// The leaf called `name`.
    pub fn leaf(&self, name: &str) -> Result<LeafId, TreeError> {
        self.topology.leaf_index(name).map(LeafId)
    }

    /// The source leaf called `name`, for [`Bct::set_source`].
    pub fn source(&self, name: &str) -> Result<SourceId, TreeError> {
        SourceId::resolve(&self.topology, &self.leaves, name)
    }

    /// Sets a source's EMF (V) or current (A) from this sample on.
    #[inline]
    pub fn set_source(&mut self, source: SourceId, value: f64) {
        source.apply(&mut self.leaves, value);
    }

    /// Evaluates one sample: forward scan, root, backward scan, leaf updates.
    #[inline]
    pub fn tick(&mut self) {
        let (up, down) = (&mut self.up[..], &mut self.down[..]);
        self.leaves.reflect(up);
        for d in &self.delays {
            up[d.slot] = d.s_up;
        }
        // SAFETY (all unchecked accesses below): every slot index stored in
        // `adaptors` comes from the flattened topology, whose slots number exactly
        // `up.len() == down.len()`; `Bct::new` sized both arrays from it.
        for a in &self.adaptors {
            unsafe {
                let value = a.c.forward[0] * *up.get_unchecked(a.children[0])
                    + a.c.forward[1] * *up.get_unchecked(a.children[1]);
                *up.get_unchecked_mut(a.slot) = value;
            }
        }
        let b = self.root.reflect(self.top_scale * up[self.top]);
        down[self.top] = b / self.top_scale;
        for d in &self.delays {
            down[d.child] = d.s_down / d.scale;
        }
        for a in self.adaptors.iter().rev() {
            unsafe {
                let (a3, b3) = (*down.get_unchecked(a.slot), *up.get_unchecked(a.slot));
                let [c0, c1] = a.children;
                let (u0, u1) = (*up.get_unchecked(c0), *up.get_unchecked(c1));
                *down.get_unchecked_mut(c0) =
                    a.c.alpha[0] * u0 + a.c.beta[0] * a3 + a.c.delta[0] * b3;
                *down.get_unchecked_mut(c1) =
                    a.c.alpha[1] * u1 + a.c.beta[1] * a3 + a.c.delta[1] * b3;
            }
        }
        for d in &mut self.delays {
            d.s_up = d.scale * up[d.child];
            d.s_down = down[d.slot];
        }
        self.leaves.absorb(down);
    }

    /// Runs a block: drives `source` with `input`, one value per sample, and writes
    /// the voltage across `probe` after each sample's backward scan into `output`
    /// (the shorter of the two slices sets the length).
    pub fn process(&mut self, source: SourceId, input: &[f64], probe: LeafId, output: &mut [f64]) {
        for (&x, y) in input.iter().zip(output.iter_mut()) {
            self.set_source(source, x);
            self.tick();
            *y = self.voltage(probe);
        }
    }

    /// Voltage across a leaf at the last sample, `(a + b)/2`.
    #[inline]
    pub fn voltage(&self, leaf: LeafId) -> f64 {
        0.5 * (self.down[leaf.0] + self.up[leaf.0])
    }

    /// Current into a leaf at the last sample, `(a − b)/(2R)`.
    #[inline]
    pub fn current(&self, leaf: LeafId) -> f64 {
        (self.down[leaf.0] - self.up[leaf.0]) / (2.0 * self.leaves.resistance[leaf.0])
    }

    /// Opens or closes the root switch from the next sample on. Returns false (and
    /// changes nothing) if the root is not a switch.
    pub fn set_switch(&mut self, closed: bool) -> bool {
        self.root.set_switch(closed)
    }

    /// Drives an ideal source at the root: its voltage (V) or current (A) from the
    /// next sample on. Returns false if the root is not an ideal source.
    pub fn set_root_source(&mut self, value: f64) -> bool {
        self.root.set_source(value)
    }

    /// Voltage across the root at the last sample.
    pub fn root_voltage(&self) -> f64 {
        0.5 * (self.root.incident + self.root.reflected)
    }

    /// Current into the root at the last sample.
    pub fn root_current(&self) -> f64 {
        (self.root.incident - self.root.reflected) / (2.0 * self.root.port_resistance)
    }

    /// The port resistance the root sees.
    pub fn root_resistance(&self) -> f64 {
        self.root.port_resistance
    }

    /// The felt at the root, if the root is a felt.
    pub fn felt(&self) -> Option<&FeltRoot> {
        match &self.root.kind {
            RootKind::Felt(felt) => Some(felt),
            _ => None,
        }
    }

    /// The felt at the root, mutably, if the root is a felt.
    pub fn felt_mut(&mut self) -> Option<&mut FeltRoot> {
        match &mut self.root.kind {
            RootKind::Felt(felt) => Some(felt),
            _ => None,
        }
    }

    /// Puts a capacitor at `volts` with no current flowing (or an inductor at
    /// `amps` with no voltage across it): its state becomes the wave it would have
    /// received in that condition.
    ///
    /// The leaf's waves of the last sample are set to match, so
    /// [`Bct::voltage`] and [`Bct::current`] read the condition at once.
    pub fn set_reactive_state(&mut self, leaf: LeafId, value: f64) {
        let state = match self.leaves.elements[leaf.0] {
            Element::Inductor { .. } => self.leaves.resistance[leaf.0] * value,
            _ => value,
        };
        if self.leaves.is_reactive(leaf.0) {
            self.leaves.set_state(leaf.0, state);
            self.down[leaf.0] = state;
            self.up[leaf.0] = self.leaves.reactive_sign(leaf.0) * state;
        }
    }

    /// Whether `other` is built from the same flattened tree (the same leaves,
    /// adaptors and unit delays in the same places), whatever its values:
    /// what [`Bct::continue_from`] needs.
    pub fn same_structure(&self, other: &Bct) -> bool {
        self.adaptors.len() == other.adaptors.len()
            && self.delays.len() == other.delays.len()
            && self.leaves.same_layout(&other.leaves)
            && std::mem::discriminant(&self.root.kind) == std::mem::discriminant(&other.root.kind)
    }

    /// Takes over the state of `old`, a tree of the same structure whose values
    /// (port resistances, felt law) may differ: every reactive leaf, unit delay
    /// and the felt carry on with the voltage and current (velocity and force)
    /// they had at the last sample, so the trapezoidal integration continues
    /// where `old` stopped, with this tree's values. Where a port resistance is
    /// unchanged the waves are copied exactly. Sources and switches are inputs
    /// their owner sets; they keep this tree's values. Returns false, changing
    /// nothing, if the structures differ.
    ///
    /// Allocates nothing.
    pub fn continue_from(&mut self, old: &Bct) -> bool {
        if !self.same_structure(old) {
            return false;
        }
        for leaf in 0..self.leaves.len() {
            let (a, b) = rematched(
                (old.down[leaf], old.up[leaf]),
                old.leaves.resistance[leaf],
                self.leaves.resistance[leaf],
            );
            (self.down[leaf], self.up[leaf]) = (a, b);
            if self.leaves.is_reactive(leaf) {
                // A reactive leaf's state is the wave it received last sample.
                self.leaves.set_state(leaf, a);
            }
        }
        for (index, old_delay) in old.delays.iter().enumerate() {
            let (s_up, s_down) = rematched(
                (old_delay.s_up, old_delay.s_down),
                old.delay_resistance(index),
                self.delay_resistance(index),
            );
            (self.delays[index].s_up, self.delays[index].s_down) = (s_up, s_down);
        }
        self.root.continue_from(&old.root);
        true
    }

    /// Energy stored in the tree, in wave units: `Σ state²/(4R)` over reactive
    /// leaves and both waves inside each unit delay. It changes by exactly the
    /// power flowing in from sources and out into resistors and the root.
    pub fn stored_energy(&self) -> f64 {
        let lines: f64 = self
            .delays
            .iter()
            .map(|d| {
                (d.s_up * d.s_up + d.s_down * d.s_down)
                    / (4.0 * self.coefficients.resistance[d.slot])
            })
            .sum();
        self.leaves.stored_energy() + lines
    }

    /// A planner for parameter changes, to be used off the audio thread.
    pub fn planner(&self) -> CoefficientPlanner {
        CoefficientPlanner {
            topology: self.topology.clone(),
            coefficients: self.coefficients.clone(),
            elements: self.leaves.elements.clone(),
            sample_rate: self.sample_rate,
        }
    }

    /// Applies a patch from this tree's planner between two samples.
    pub fn apply_patch(&mut self, patch: &Patch) {
        self.leaves.resistance[patch.leaf] = patch.leaf_resistance;
        self.coefficients.resistance[patch.leaf] = patch.leaf_resistance;
        if let Some(value) = patch.leaf_constant {
            self.leaves.set_constant(patch.leaf, value);
        }
        for &(index, c) in &patch.adaptors {
            self.adaptors[index].c = c;
        }
        self.root.set_port_resistance(patch.root_resistance);
    }

    /// Brings every state to zero, as in a fresh tree.
    pub fn reset(&mut self) {
        self.leaves.clear_states();
        for d in &mut self.delays {
            d.s_up = 0.0;
            d.s_down = 0.0;
        }
        self.up.fill(0.0);
        self.down.fill(0.0);
        self.root.reset();
    }

    pub(crate) fn topology(&self) -> &Topology {
        &self.topology
    }

    pub(crate) fn set_delay_states(&mut self, states: &[(f64, f64)]) {
        for (d, &(s_up, s_down)) in self.delays.iter_mut().zip(states) {
            d.s_up = s_up;
            d.s_down = s_down;
        }
    }

    pub(crate) fn delay_resistance(&self, index: usize) -> f64 {
        self.coefficients.resistance[self.delays[index].slot]
    }
}

/// Checks and flattens a description and computes its port resistances: the part
/// of building that both engines share.
pub(crate) fn prepare(
    description: &TreeDescription,
    sample_rate: f64,
) -> Result<(Topology, Vec<Element>, Vec<f64>, Coefficients), TreeError> {
    if !(sample_rate.is_finite() && sample_rate > 0.0) {
        return Err(TreeError::SampleRate(sample_rate));
    }
    let topology = flatten(description)?;
    let elements: Vec<Element> = topology.leaves.iter().map(|l| l.element).collect();
    let leaf_r: Vec<f64> = elements
        .iter()
        .map(|e| e.port_resistance(sample_rate).unwrap_or(1.0))
        .collect();
    let coefficients = Coefficients::full(&topology, &leaf_r);
    Ok((topology, elements, leaf_r, coefficients))
}

/// Computes coefficient patches for a tree off the audio thread (De Sanctis et al.
/// 2003, Section 4: a process parallel to the simulator).
#[derive(Debug, Clone)]
pub struct CoefficientPlanner {
    topology: Topology,
    coefficients: Coefficients,
    elements: Vec<Element>,
    sample_rate: f64,
}

impl CoefficientPlanner {
    /// Replaces the leaf called `name` with `element` (same kind, new values) and
    /// returns the patch: the leaf and the adaptors on its path to the root.
    pub fn set_element(&mut self, name: &str, element: Element) -> Result<Patch, TreeError> {
        let leaf = self.topology.leaf_index(name)?;
        if std::mem::discriminant(&self.elements[leaf]) != std::mem::discriminant(&element) {
            return Err(TreeError::WrongKind {
                name: name.to_string(),
                operation: "a change to another kind of element",
            });
        }
        element
            .check_values()
            .map_err(|reason| TreeError::BadValue {
                name: name.to_string(),
                reason,
            })?;
        let r = element
            .port_resistance(self.sample_rate)
            .ok_or(TreeError::WrongKind {
                name: name.to_string(),
                operation: "a value change",
            })?;
        self.elements[leaf] = element;
        let mut patch = self
            .coefficients
            .set_leaf_resistance(&self.topology, leaf, r);
        patch.leaf_constant = element.constant_reflection();
        Ok(patch)
    }

    /// Whether the coefficients kept incrementally equal a full recomputation.
    pub fn matches_full_rebuild(&self) -> bool {
        let leaf_r: Vec<f64> = self
            .elements
            .iter()
            .map(|e| e.port_resistance(self.sample_rate).unwrap_or(1.0))
            .collect();
        Coefficients::full(&self.topology, &leaf_r) == self.coefficients
    }
}
