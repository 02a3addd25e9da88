//! Checking a description against the rules of macro-adaptors and flattening it
//! into post-order arrays.

use std::collections::HashSet;
use std::fmt;

use super::description::{Connection, Named, TreeDescription};

/// Why a tree could not be built. Every variant names what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub enum TreeError {
    /// A nonlinear or non-adaptable element placed below the root.
    NotAdaptable {
        /// The element's name.
        name: String,
        /// Its kind.
        kind: &'static str,
    },
    /// The root is an element that only works as a leaf.
    BadRoot {
        /// The root's name.
        name: String,
        /// Its kind.
        kind: &'static str,
    },
    /// An element's value is out of range.
    BadValue {
        /// The element's name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// Two elements share a name (an element connected twice would close a loop).
    DuplicateName(String),
    /// A series or parallel connection with fewer than two children.
    TooFewChildren {
        /// "series" or "parallel".
        connection: &'static str,
        /// The first element inside it, for orientation (or "nothing").
        near: String,
    },
    /// A transformer ratio that is zero or not finite.
    BadTransformer {
        /// The ratio.
        ratio: f64,
        /// The first element below it.
        near: String,
    },
    /// The sample rate is not a positive finite number.
    SampleRate(f64),
    /// No element of that name in the tree.
    UnknownElement(String),
    /// The operation does not apply to this element (e.g. setting a voltage on a
    /// capacitor).
    WrongKind {
        /// The element's name.
        name: String,
        /// What was attempted.
        operation: &'static str,
    },
    /// The DC operating point is not unique (e.g. two open circuits in series).
    Indeterminate(String),
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotAdaptable { name, kind } => write!(
                f,
                "element '{name}' ({kind}) cannot sit below the root: a macro-adaptor holds \
                 one nonlinear or non-adaptable element, at its root"
            ),
            Self::BadRoot { name, kind } => write!(
                f,
                "element '{name}' ({kind}) cannot be the root; place it in the tree below an \
                 open or short root"
            ),
            Self::BadValue { name, reason } => write!(f, "element '{name}': {reason}"),
            Self::DuplicateName(name) => write!(
                f,
                "element '{name}' appears twice; an element is connected once (adaptors may \
                 not form loops)"
            ),
            Self::TooFewChildren { connection, near } => {
                write!(
                    f,
                    "a {connection} connection near '{near}' needs at least two children"
                )
            }
            Self::BadTransformer { ratio, near } => {
                write!(
                    f,
                    "the transformer above '{near}' has ratio {ratio}; it must be non-zero and finite"
                )
            }
            Self::SampleRate(rate) => write!(f, "sample rate {rate} Hz is not positive and finite"),
            Self::UnknownElement(name) => write!(f, "no element named '{name}' in the tree"),
            Self::WrongKind { name, operation } => {
                write!(f, "element '{name}' does not support {operation}")
            }
            Self::Indeterminate(what) => write!(f, "the DC operating point is not unique: {what}"),
        }
    }
}

impl std::error::Error for TreeError {}

/// Series or parallel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Junction {
    Series,
    Parallel,
}

/// A connection from a child slot to its parent. Waves and voltages on the parent
/// side are `scale` times those on the child side; currents are divided by it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Edge {
    pub slot: usize,
    pub scale: f64,
}

/// A three-port adaptor: two children below, its adapted port up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct AdaptorNode {
    pub junction: Junction,
    pub children: [Edge; 2],
    pub slot: usize,
}

/// A unit element between `child` and the port at `slot`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct UnitDelayNode {
    pub child: Edge,
    pub slot: usize,
}

/// A checked tree in flat form. Slots `0..leaves.len()` are the leaves, then the
/// unit delays, then the adaptors; adaptors and unit delays are in post-order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Topology {
    pub leaves: Vec<Named>,
    pub unit_delays: Vec<UnitDelayNode>,
    pub adaptors: Vec<AdaptorNode>,
    /// The edge from the top of the tree to the root.
    pub top: Edge,
    pub root: Named,
    /// Unit delays and adaptors together, in post-order.
    pub order: Vec<Internal>,
    /// For every slot, the node it hangs from (`None` for the top).
    pub parent: Vec<Option<Internal>>,
}

/// An internal node: a unit delay or an adaptor, by index into its list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Internal {
    Delay(usize),
    Adaptor(usize),
}

impl Topology {
    /// Number of slots.
    pub fn slots(&self) -> usize {
        self.leaves.len() + self.unit_delays.len() + self.adaptors.len()
    }

    /// The leaf called `name`.
    pub fn leaf_index(&self, name: &str) -> Result<usize, TreeError> {
        self.leaves
            .iter()
            .position(|leaf| leaf.name == name)
            .ok_or_else(|| TreeError::UnknownElement(name.to_string()))
    }
}

/// Provisional reference while the tree is walked: leaves and internal nodes are
/// numbered separately and merged into slots at the end.
#[derive(Debug, Clone, Copy)]
enum Ref {
    Leaf(usize),
    Delay(usize),
    Adaptor(usize),
}

struct Walk {
    leaves: Vec<Named>,
    order: Vec<Internal>,
    delays: Vec<(Ref, f64)>,
    adaptors: Vec<(Junction, [(Ref, f64); 2])>,
    names: HashSet<String>,
}

fn first_leaf_name(connection: &Connection) -> String {
    match connection {
        Connection::Element(named) => named.name.clone(),
        Connection::Series(children) | Connection::Parallel(children) => children
            .first()
            .map_or_else(|| "nothing".to_string(), first_leaf_name),
        Connection::Inverted(child) | Connection::UnitDelay(child) => first_leaf_name(child),
        Connection::Transformer { child, .. } => first_leaf_name(child),
    }
}

impl Walk {
    fn visit(&mut self, connection: &Connection) -> Result<(Ref, f64), TreeError> {
        match connection {
            Connection::Element(named) => {
                if !self.names.insert(named.name.clone()) {
                    return Err(TreeError::DuplicateName(named.name.clone()));
                }
                if !named.element.is_adaptable() {
                    return Err(TreeError::NotAdaptable {
                        name: named.name.clone(),
                        kind: named.element.kind_name(),
                    });
                }
                named
                    .element
                    .check_values()
                    .map_err(|reason| TreeError::BadValue {
                        name: named.name.clone(),
                        reason,
                    })?;
                self.leaves.push(named.clone());
                Ok((Ref::Leaf(self.leaves.len() - 1), 1.0))
            }
            Connection::Inverted(child) => {
                let (r, scale) = self.visit(child)?;
                Ok((r, -scale))
            }
            Connection::Transformer { ratio, child } => {
                if !(ratio.is_finite() && *ratio != 0.0) {
                    return Err(TreeError::BadTransformer {
                        ratio: *ratio,
                        near: first_leaf_name(child),
                    });
                }
                let (r, scale) = self.visit(child)?;
                Ok((r, scale * ratio))
            }
            Connection::UnitDelay(child) => {
                let edge = self.visit(child)?;
                self.delays.push(edge);
                self.order.push(Internal::Delay(self.delays.len() - 1));
                Ok((Ref::Delay(self.delays.len() - 1), 1.0))
            }
            Connection::Series(children) | Connection::Parallel(children) => {
                let (junction, word) = match connection {
                    Connection::Series(_) => (Junction::Series, "series"),
                    _ => (Junction::Parallel, "parallel"),
                };
                if children.len() < 2 {
                    return Err(TreeError::TooFewChildren {
                        connection: word,
                        near: first_leaf_name(connection),
                    });
                }
                // An N-port junction is a chain of N − 2 three-ports (De Sanctis et al.
                // 2003, Fig. 1). A series adaptor's adapted port has the opposite
                // orientation to its children's, so each link carries an inversion: then
                // the chain is a true N-port series junction, and a series subtree's
                // voltage is the sum of its children's.
                let up_scale = match junction {
                    Junction::Series => -1.0,
                    Junction::Parallel => 1.0,
                };
                let mut accumulated = self.visit(&children[0])?;
                for child in &children[1..] {
                    let edge = self.visit(child)?;
                    self.adaptors.push((junction, [accumulated, edge]));
                    self.order.push(Internal::Adaptor(self.adaptors.len() - 1));
                    accumulated = (Ref::Adaptor(self.adaptors.len() - 1), up_scale);
                }
                Ok(accumulated)
            }
        }
    }
}

/// Checks `description` and flattens it.
pub(crate) fn flatten(description: &TreeDescription) -> Result<Topology, TreeError> {
    let root = &description.root;
    if root.element.is_reactive() {
        return Err(TreeError::BadRoot {
            name: root.name.clone(),
            kind: root.element.kind_name(),
        });
    }
    root.element
        .check_values()
        .map_err(|reason| TreeError::BadValue {
            name: root.name.clone(),
            reason,
        })?;
    let mut walk = Walk {
        leaves: Vec::new(),
        order: Vec::new(),
        delays: Vec::new(),
        adaptors: Vec::new(),
        names: HashSet::from([root.name.clone()]),
    };
    let top = walk.visit(&description.tree)?;

    let (n_leaves, n_delays) = (walk.leaves.len(), walk.delays.len());
    let slot_of = |r: Ref| match r {
        Ref::Leaf(i) => i,
        Ref::Delay(i) => n_leaves + i,
        Ref::Adaptor(i) => n_leaves + n_delays + i,
    };
    let edge = |(r, scale): (Ref, f64)| Edge {
        slot: slot_of(r),
        scale,
    };
    let unit_delays: Vec<UnitDelayNode> = walk
        .delays
        .iter()
        .enumerate()
        .map(|(i, &child)| UnitDelayNode {
            child: edge(child),
            slot: n_leaves + i,
        })
        .collect();
    let adaptors: Vec<AdaptorNode> = walk
        .adaptors
        .iter()
        .enumerate()
        .map(|(i, &(junction, [a, b]))| AdaptorNode {
            junction,
            children: [edge(a), edge(b)],
            slot: n_leaves + n_delays + i,
        })
        .collect();
    let mut parent = vec![None; n_leaves + n_delays + adaptors.len()];
    for (index, node) in adaptors.iter().enumerate() {
        for child in node.children {
            parent[child.slot] = Some(Internal::Adaptor(index));
        }
    }
    for (index, node) in unit_delays.iter().enumerate() {
        parent[node.child.slot] = Some(Internal::Delay(index));
    }
    Ok(Topology {
        leaves: walk.leaves,
        unit_delays,
        adaptors,
        top: edge(top),
        root: root.clone(),
        order: walk.order,
        parent,
    })
}
