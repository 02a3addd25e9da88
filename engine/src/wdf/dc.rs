//! The DC operating point, found by a forward scan of characteristics from the
//! leaves to the root and a backward scan of (voltage, current) pairs back down
//! (De Sanctis et al. 2003, end of Section 3.2). Capacitors are open and
//! inductors short at DC.

use super::Element;
use super::bct::Bct;
use super::element::Line;
use super::topology::{Internal, Junction, Topology, TreeError};

/// The dual of a line: voltage and current swap roles, which turns a parallel
/// junction into a series one (and back).
fn dual(line: Line) -> Line {
    Line {
        alpha: line.beta,
        beta: line.alpha,
        gamma: line.gamma,
    }
}

/// Combines two children's lines (already seen through their edges) into the
/// junction's natural law: series children share a current and add voltages;
/// parallel children are the dual.
fn combine(lines: [Line; 2], junction: Junction, names: &str) -> Result<Line, TreeError> {
    match junction {
        Junction::Series => combine_series(lines).ok_or_else(|| {
            TreeError::Indeterminate(format!(
                "current sources or open circuits in series disagree near {names}"
            ))
        }),
        Junction::Parallel => combine_series(lines.map(dual)).map(dual).ok_or_else(|| {
            TreeError::Indeterminate(format!(
                "voltage sources or short circuits in parallel disagree near {names}"
            ))
        }),
    }
}

/// Series law `i_k = i`, `v = Σ v_k`; `None` when two children fix different
/// currents.
fn combine_series(lines: [Line; 2]) -> Option<Line> {
    let fixed: Vec<&Line> = lines.iter().filter(|l| l.alpha == 0.0).collect();
    match fixed.len() {
        0 => {
            let (beta, gamma) = lines.iter().fold((0.0, 0.0), |(b, g), l| {
                (b + l.beta / l.alpha, g + l.gamma / l.alpha)
            });
            Some(Line {
                alpha: 1.0,
                beta,
                gamma,
            })
        }
        // The current is fixed by one child; the line says only that.
        1 => Some(*fixed[0]),
        _ => {
            let (a, b) = (
                fixed[0].gamma / fixed[0].beta,
                fixed[1].gamma / fixed[1].beta,
            );
            ((a - b).abs() <= 1e-12 * a.abs().max(1e-30)).then_some(*fixed[0])
        }
    }
}

/// A line seen through an edge of `scale`: the parent side has `v = s·v_c`,
/// `i = i_c/s`.
fn through(line: Line, scale: f64) -> Line {
    Line {
        alpha: line.alpha / scale,
        beta: line.beta * scale,
        gamma: line.gamma,
    }
}

/// A junction's line on its own slot. `combine` gives the natural law (series:
/// voltages add); a series adaptor's port faces the other way, and the inversion on
/// its upward edge (see the topology) turns it back for the parent.
fn slot_side(natural: Line, junction: Junction) -> Line {
    match junction {
        Junction::Series => through(natural, -1.0),
        Junction::Parallel => natural,
    }
}

/// Voltage and current at one port.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Operating {
    v: f64,
    i: f64,
}

/// Solves the children of a junction given the junction's operating point
/// (natural law), the dual of the series case for a parallel junction.
fn split(lines: [Line; 2], junction: Junction, at: Operating) -> [Operating; 2] {
    let swap = |o: Operating| Operating { v: o.i, i: o.v };
    match junction {
        Junction::Series => split_series(lines, at),
        Junction::Parallel => split_series(lines.map(dual), swap(at)).map(swap),
    }
}

/// Series: every child carries the current; children whose line fixes the
/// current take the rest of the voltage (the first of them all of it).
fn split_series(lines: [Line; 2], at: Operating) -> [Operating; 2] {
    let mut out = [Operating { v: 0.0, i: at.i }; 2];
    let mut rest = at.v;
    let mut free = None;
    for (k, l) in lines.iter().enumerate() {
        if l.alpha != 0.0 {
            out[k].v = (l.gamma - l.beta * at.i) / l.alpha;
            rest -= out[k].v;
        } else if free.is_none() {
            free = Some(k);
        }
    }
    if let Some(k) = free {
        out[k].v = rest;
    }
    out
}

/// Solves the root element against the tree's line `α·v + β·i_tree = γ` seen at
/// the root side, where the root's current is `i_root = −i_tree`. Returns the
/// root's own voltage and current.
fn solve_root(element: &Element, tree: Line, root_name: &str) -> Result<Operating, TreeError> {
    // In root terms: α·v − β·i_root = γ.
    let (a1, b1, g1) = (tree.alpha, -tree.beta, tree.gamma);
    let nonlinear = |current: &dyn Fn(f64) -> (f64, f64)| -> Result<Operating, TreeError> {
        // h(v) = a1·v + b1·i(v) − g1 is monotone for a passive tree; bracket and bisect
        // with Newton steps.
        if b1 == 0.0 {
            let v = g1 / a1;
            return Ok(Operating {
                v,
                i: -current(v).0,
            });
        }
        let h = |v: f64| {
            let (i, di) = current(v);
            (a1 * v + b1 * i - g1, a1 + b1 * di)
        };
        let (mut lo, mut hi) = (-1e-3, 1e-3);
        while h(lo).0.signum() == h(hi).0.signum() {
            lo *= 2.0;
            hi *= 2.0;
            if hi > 1e9 {
                return Err(TreeError::Indeterminate(format!(
                    "no DC solution at root '{root_name}'"
                )));
            }
        }
        let increasing = h(hi).0 > h(lo).0;
        let mut v = 0.5 * (lo + hi);
        for _ in 0..200 {
            let (value, slope) = h(v);
            if (value > 0.0) == increasing {
                hi = v;
            } else {
                lo = v;
            }
            let newton = v - value / slope;
            let next = if newton > lo && newton < hi {
                newton
            } else {
                0.5 * (lo + hi)
            };
            if (next - v).abs() <= 1e-15 * v.abs().max(1e-300) {
                v = next;
                break;
            }
            v = next;
        }
        Ok(Operating {
            v,
            i: -current(v).0,
        })
    };
    match *element {
        Element::Diode {
            saturation_amps: is,
            thermal_volts: vt,
        } => nonlinear(&|v| {
            let e = (v / vt).exp();
            (is * (e - 1.0), is * e / vt)
        }),
        Element::DiodePair {
            saturation_amps: is,
            thermal_volts: vt,
        } => nonlinear(&|v| (2.0 * is * (v / vt).sinh(), 2.0 * is * (v / vt).cosh() / vt)),
        _ => {
            let root = element.dc_line().ok_or_else(|| {
                TreeError::Indeterminate(format!("root '{root_name}' has no DC characteristic"))
            })?;
            // Root line α_r·v + β_r·i_root = γ_r, tree line a1·v + b1·i_root = g1.
            let det = root.alpha * b1 - root.beta * a1;
            if det.abs() > 1e-300 {
                let v = (root.gamma * b1 - root.beta * g1) / det;
                let i = (root.alpha * g1 - a1 * root.gamma) / det;
                return Ok(Operating { v, i });
            }
            // Parallel lines: consistent ones leave one quantity free; take it as zero.
            let candidates = [Operating { v: 0.0, i: 0.0 }];
            for c in candidates {
                let on_root = (root.alpha * c.v - root.beta * c.i - root.gamma).abs() < 1e-12;
                let on_tree = (a1 * c.v - b1 * c.i - g1).abs() < 1e-12;
                if on_root && on_tree {
                    return Ok(c);
                }
            }
            if root.beta == 0.0 && a1 != 0.0 && b1 == 0.0 {
                return Err(TreeError::Indeterminate(format!(
                    "root '{root_name}' and the tree both fix the voltage"
                )));
            }
            // One of the two fixes a quantity that the other leaves free.
            if root.alpha == 0.0 || a1 == 0.0 {
                let i = if root.beta != 0.0 {
                    root.gamma / root.beta
                } else {
                    -g1 / b1
                };
                return Ok(Operating { v: 0.0, i: -i });
            }
            let v = if root.alpha != 0.0 {
                root.gamma / root.alpha
            } else {
                g1 / a1
            };
            Ok(Operating { v, i: 0.0 })
        }
    }
}

impl Bct {
    /// Starts the circuit at its DC operating point (sources at their present
    /// values), so that it begins in equilibrium instead of with a transient.
    ///
    /// Allocates: scratch tables. Call it off the audio thread.
    pub fn settle_to_dc(&mut self) -> Result<(), TreeError> {
        let topology: &Topology = self.topology();
        let elements = self.leaves.elements.clone();
        let n = topology.slots();
        let mut lines = vec![
            Line {
                alpha: 1.0,
                beta: 0.0,
                gamma: 0.0
            };
            n
        ];
        for (slot, element) in elements.iter().enumerate() {
            lines[slot] = if element.is_reactive() {
                element.dc_line().unwrap_or(lines[slot])
            } else {
                // Every memoryless leaf is `v = c + R·i`, with `c` the constant it
                // reflects now (0 for a resistor, a source's present value).
                Line {
                    alpha: 1.0,
                    beta: -self.leaves.resistance[slot],
                    gamma: self.leaves.constant(slot),
                }
            };
        }
        for &internal in &topology.order {
            match internal {
                Internal::Delay(i) => {
                    let node = &topology.unit_delays[i];
                    lines[node.slot] = through(lines[node.child.slot], node.child.scale);
                }
                Internal::Adaptor(i) => {
                    let node = &topology.adaptors[i];
                    let children = node.children.map(|e| through(lines[e.slot], e.scale));
                    let names = topology
                        .leaves
                        .get(node.children[0].slot)
                        .map_or_else(|| format!("adaptor {i}"), |l| format!("'{}'", l.name));
                    let natural = combine(children, node.junction, &names)?;
                    lines[node.slot] = slot_side(natural, node.junction);
                }
            }
        }
        let top = topology.top;
        let at_root = solve_root(
            &self.root.present_element(&topology.root.element),
            through(lines[top.slot], top.scale),
            &topology.root.name,
        )?;
        let mut operating = vec![Operating::default(); n];
        // Root side → child side of the top edge; the tree's current is −i_root.
        operating[top.slot] = Operating {
            v: at_root.v / top.scale,
            i: -at_root.i * top.scale,
        };
        for &internal in topology.order.iter().rev() {
            match internal {
                Internal::Delay(i) => {
                    let node = &topology.unit_delays[i];
                    let at = operating[node.slot];
                    operating[node.child.slot] = Operating {
                        v: at.v / node.child.scale,
                        i: at.i * node.child.scale,
                    };
                }
                Internal::Adaptor(i) => {
                    let node = &topology.adaptors[i];
                    let children = node.children.map(|e| through(lines[e.slot], e.scale));
                    let at = operating[node.slot];
                    let at = match node.junction {
                        Junction::Series => Operating { v: -at.v, i: -at.i },
                        Junction::Parallel => at,
                    };
                    let parts = split(children, node.junction, at);
                    for (edge, part) in node.children.iter().zip(parts) {
                        operating[edge.slot] = Operating {
                            v: part.v / edge.scale,
                            i: part.i * edge.scale,
                        };
                    }
                }
            }
        }
        let delay_states: Vec<(f64, f64)> = topology
            .unit_delays
            .iter()
            .enumerate()
            .map(|(i, node)| {
                let at = operating[node.slot];
                let r = self.delay_resistance(i);
                (at.v - r * at.i, at.v + r * at.i)
            })
            .collect();
        for (slot, element) in elements.iter().enumerate() {
            let at = operating[slot];
            if element.is_reactive() {
                // The wave the element received: a = v + R·i.
                self.leaves
                    .set_state(slot, at.v + self.leaves.resistance[slot] * at.i);
            }
        }
        self.set_delay_states(&delay_states);
        Ok(())
    }
}
