//! Port resistances and adaptor coefficients, computed off the audio thread.
//!
//! Changing one leaf changes the port resistances on its path to the root only, so
//! only the adaptors on that path need new coefficients (De Sanctis et al. 2003,
//! Section 4 and Fig. 4). [`Coefficients::set_leaf_resistance`] recomputes exactly
//! those and returns them as a [`Patch`] for the audio thread to apply between
//! samples.

use super::topology::{AdaptorNode, Internal, Junction, Topology};

/// What an adaptor does with waves, with the scales of its child edges folded in.
///
/// Forward (leaves to root): `up = forward[0]·up[c0] + forward[1]·up[c1]`.
/// Backward: `down[ck] = alpha[k]·up[ck] + beta[k]·down + delta[k]·up`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct AdaptorCoefficients {
    pub forward: [f64; 2],
    pub alpha: [f64; 2],
    pub beta: [f64; 2],
    pub delta: [f64; 2],
}

impl AdaptorCoefficients {
    /// Coefficients of `node` whose children have port resistances `child_r`.
    /// Returns them with the adaptor's adapted port resistance.
    pub fn compute(node: &AdaptorNode, child_r: [f64; 2]) -> (Self, f64) {
        let scales = [node.children[0].scale, node.children[1].scale];
        // Resistances seen from the adaptor, through each edge's transformer.
        let seen = [
            scales[0] * scales[0] * child_r[0],
            scales[1] * scales[1] * child_r[1],
        ];
        match node.junction {
            Junction::Series => {
                let up_r = seen[0] + seen[1];
                let gamma = [seen[0] / up_r, seen[1] / up_r];
                (
                    Self {
                        forward: [-scales[0], -scales[1]],
                        alpha: [1.0, 1.0],
                        beta: [-gamma[0] / scales[0], -gamma[1] / scales[1]],
                        delta: [gamma[0] / scales[0], gamma[1] / scales[1]],
                    },
                    up_r,
                )
            }
            Junction::Parallel => {
                let g = [1.0 / seen[0], 1.0 / seen[1]];
                let up_g = g[0] + g[1];
                (
                    Self {
                        forward: [g[0] / up_g * scales[0], g[1] / up_g * scales[1]],
                        alpha: [-1.0, -1.0],
                        beta: [1.0 / scales[0], 1.0 / scales[1]],
                        delta: [1.0 / scales[0], 1.0 / scales[1]],
                    },
                    1.0 / up_g,
                )
            }
        }
    }
}

/// New coefficients for the adaptors on one leaf's path, and the new port
/// resistances that go with them. Applying it is allocation-free.
#[derive(Debug, Clone, PartialEq)]
pub struct Patch {
    pub(crate) leaf: usize,
    pub(crate) leaf_resistance: f64,
    /// The new constant a memoryless leaf reflects (sources, resistors).
    pub(crate) leaf_constant: Option<f64>,
    pub(crate) adaptors: Vec<(usize, AdaptorCoefficients)>,
    pub(crate) root_resistance: f64,
}

impl Patch {
    /// Number of adaptors whose coefficients the patch replaces.
    pub fn adaptors_touched(&self) -> usize {
        self.adaptors.len()
    }
}

/// The port resistance of every slot and the coefficients of every adaptor.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Coefficients {
    /// Port resistance of each slot (child side).
    pub resistance: Vec<f64>,
    pub adaptors: Vec<AdaptorCoefficients>,
    /// Port resistance the root sees.
    pub root_resistance: f64,
}

impl Coefficients {
    /// Computes everything from the leaves' port resistances, in post-order.
    pub fn full(topology: &Topology, leaf_r: &[f64]) -> Self {
        let mut resistance = vec![0.0; topology.slots()];
        resistance[..leaf_r.len()].copy_from_slice(leaf_r);
        let mut adaptors = vec![
            AdaptorCoefficients {
                forward: [0.0; 2],
                alpha: [0.0; 2],
                beta: [0.0; 2],
                delta: [0.0; 2],
            };
            topology.adaptors.len()
        ];
        for &internal in &topology.order {
            Self::recompute(topology, &mut resistance, &mut adaptors, internal);
        }
        let top = topology.top;
        Self {
            root_resistance: top.scale * top.scale * resistance[top.slot],
            resistance,
            adaptors,
        }
    }

    /// Recomputes one internal node from its children's resistances.
    fn recompute(
        topology: &Topology,
        resistance: &mut [f64],
        adaptors: &mut [AdaptorCoefficients],
        internal: Internal,
    ) {
        match internal {
            Internal::Delay(i) => {
                let node = &topology.unit_delays[i];
                let s = node.child.scale;
                resistance[node.slot] = s * s * resistance[node.child.slot];
            }
            Internal::Adaptor(i) => {
                let node = &topology.adaptors[i];
                let child_r = [
                    resistance[node.children[0].slot],
                    resistance[node.children[1].slot],
                ];
                let (coefficients, up_r) = AdaptorCoefficients::compute(node, child_r);
                adaptors[i] = coefficients;
                resistance[node.slot] = up_r;
            }
        }
    }

    /// Sets leaf `leaf`'s port resistance and recomputes the nodes on its path to
    /// the root, and nothing else. Returns the patch for a runtime tree.
    pub fn set_leaf_resistance(&mut self, topology: &Topology, leaf: usize, r: f64) -> Patch {
        self.resistance[leaf] = r;
        let mut touched = Vec::new();
        let mut slot = leaf;
        while let Some(parent) = topology.parent[slot] {
            Self::recompute(topology, &mut self.resistance, &mut self.adaptors, parent);
            slot = match parent {
                Internal::Delay(i) => topology.unit_delays[i].slot,
                Internal::Adaptor(i) => {
                    touched.push((i, self.adaptors[i]));
                    topology.adaptors[i].slot
                }
            };
        }
        let top = topology.top;
        self.root_resistance = top.scale * top.scale * self.resistance[top.slot];
        Patch {
            leaf,
            leaf_resistance: r,
            leaf_constant: None,
            adaptors: touched,
            root_resistance: self.root_resistance,
        }
    }
}
