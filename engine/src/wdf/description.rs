//! The syntactic description of a macro-adaptor: which elements are connected how.
//!
//! A description is data (serde) or built in code with the functions of this
//! module; [`super::Bct::new`] turns it into a runnable tree, checking the rules of
//! De Sanctis et al. (2003), Section 2 on the way.

use serde::{Deserialize, Serialize};

use super::Element;

/// A named element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Named {
    /// Unique within the tree; used in messages and to address the element.
    pub name: String,
    /// What it is.
    pub element: Element,
}

/// How the elements below the root are connected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Connection {
    /// A leaf element.
    Element(Named),
    /// Elements sharing one current whose voltages add (two or more).
    Series(Vec<Connection>),
    /// Elements sharing one voltage whose currents add (two or more).
    Parallel(Vec<Connection>),
    /// The child with its terminals swapped (a polarity inverter).
    Inverted(Box<Connection>),
    /// An ideal transformer: the parent sees `v = n·v_child`, `i = i_child/n`.
    Transformer {
        /// Turns ratio `n` (non-zero, finite).
        ratio: f64,
        /// The winding's load.
        child: Box<Connection>,
    },
    /// A unit element: a lossless line one sample long whose characteristic
    /// resistance matches its child. A two-port with memory that decouples the
    /// subtree below it instantaneously.
    UnitDelay(Box<Connection>),
}

/// A whole macro-adaptor: the root element and the tree hanging from it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TreeDescription {
    /// The root: the one element that need not be adaptable (e.g. the nonlinearity).
    pub root: Named,
    /// Everything else.
    pub tree: Connection,
}

fn named(name: &str, element: Element) -> Connection {
    Connection::Element(Named {
        name: name.to_string(),
        element,
    })
}

/// A leaf element.
pub fn element(name: &str, element: Element) -> Connection {
    named(name, element)
}

/// A resistor of `ohms`.
pub fn resistor(name: &str, ohms: f64) -> Connection {
    named(name, Element::Resistor { ohms })
}

/// A capacitor of `farads`.
pub fn capacitor(name: &str, farads: f64) -> Connection {
    named(name, Element::Capacitor { farads })
}

/// An inductor of `henries`.
pub fn inductor(name: &str, henries: f64) -> Connection {
    named(name, Element::Inductor { henries })
}

/// A voltage source with internal resistance `ohms`, initially at 0 V.
pub fn voltage_source(name: &str, ohms: f64) -> Connection {
    named(name, Element::ResistiveVoltageSource { volts: 0.0, ohms })
}

/// Children in series.
pub fn series(children: impl IntoIterator<Item = Connection>) -> Connection {
    Connection::Series(children.into_iter().collect())
}

/// Children in parallel.
pub fn parallel(children: impl IntoIterator<Item = Connection>) -> Connection {
    Connection::Parallel(children.into_iter().collect())
}

impl Connection {
    /// This connection with its terminals swapped.
    pub fn inverted(self) -> Self {
        Self::Inverted(Box::new(self))
    }

    /// This connection seen through an ideal transformer of turns ratio `ratio`.
    pub fn through_transformer(self, ratio: f64) -> Self {
        Self::Transformer {
            ratio,
            child: Box::new(self),
        }
    }

    /// This connection behind a one-sample lossless line.
    pub fn delayed(self) -> Self {
        Self::UnitDelay(Box::new(self))
    }
}

impl TreeDescription {
    /// A tree with root `root_name` of kind `root`.
    pub fn new(root_name: &str, root: Element, tree: Connection) -> Self {
        Self {
            root: Named {
                name: root_name.to_string(),
                element: root,
            },
            tree,
        }
    }
}
