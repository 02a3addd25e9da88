//! A tine's wave-digital tree, of the kind its contacts need: a binary
//! connection tree when the pin is its only contact (its felt root the
//! fastest solve there is), a multiport tree when a damper's pad is a
//! second contact on the same tip.

use crate::instrument::ModalTree;
use crate::wdf::multiport::Contact;
use crate::wdf::{Bct, LeafId, MultiportTree, PortId, SourceId, TreeDescription, TreeError};

/// The root's name in a tine's tree: the pin's contact with the tip.
pub(super) const PIN_CONTACT: &str = "contact";

/// A tine's tree.
#[derive(Debug, Clone)]
pub(super) enum TineTree {
    /// The pin's contact at the root, alone (boxed, as the other: both
    /// trees are large).
    Pin(Box<Bct>),
    /// The pin's contact at the root and the pad's at a leaf, solved jointly.
    PinAndPad {
        tree: Box<MultiportTree>,
        /// The pin's contact.
        pin: PortId,
    },
}

impl TineTree {
    /// The tree of `description` at `sample_rate` (Hz): a multiport tree
    /// if it holds more than its root's contact.
    pub fn new(
        description: &TreeDescription,
        sample_rate: f64,
        several_contacts: bool,
    ) -> Result<Self, TreeError> {
        Ok(if several_contacts {
            let tree = Box::new(MultiportTree::new(description, sample_rate)?);
            Self::PinAndPad {
                pin: tree.port(PIN_CONTACT)?,
                tree,
            }
        } else {
            Self::Pin(Box::new(Bct::new(description, sample_rate)?))
        })
    }

    /// The source leaf called `name`.
    pub fn source(&self, name: &str) -> Result<SourceId, TreeError> {
        match self {
            Self::Pin(tree) => tree.source(name),
            Self::PinAndPad { tree, .. } => tree.source(name),
        }
    }

    /// The second contact called `name` (a multiport tree's).
    pub fn port(&self, name: &str) -> Result<PortId, TreeError> {
        match self {
            Self::Pin(_) => Err(TreeError::UnknownElement(name.to_string())),
            Self::PinAndPad { tree, .. } => tree.port(name),
        }
    }

    /// Sets a source's value (a velocity, m/s).
    pub fn set_source(&mut self, source: SourceId, value: f64) {
        match self {
            Self::Pin(tree) => tree.set_source(source, value),
            Self::PinAndPad { tree, .. } => tree.set_source(source, value),
        }
    }

    /// Places the pin at `compression` (m, negative for a gap), closing at
    /// `rate` (m/s).
    pub fn set_pin(&mut self, compression: f64, rate: f64) {
        match self {
            Self::Pin(tree) => {
                if let Some(felt) = tree.felt_mut() {
                    felt.set_state(compression, rate);
                }
            }
            Self::PinAndPad { tree, pin } => {
                if let Some(contact) = tree.contact_mut(*pin) {
                    contact.set_state(compression, rate);
                }
            }
        }
    }

    /// The pin's force (N) and compression (m) at the last sample.
    pub fn pin(&self) -> (f64, f64) {
        match self {
            Self::Pin(tree) => tree
                .felt()
                .map_or((0.0, 0.0), |felt| (felt.force(), felt.compression())),
            Self::PinAndPad { tree, pin } => tree
                .contact(*pin)
                .map_or((0.0, 0.0), |c| (c.force(), c.compression())),
        }
    }

    /// The second contact `port`.
    pub fn pad(&self, port: PortId) -> Option<&Contact> {
        match self {
            Self::Pin(_) => None,
            Self::PinAndPad { tree, .. } => tree.contact(port),
        }
    }

    /// The second contact `port`, to place it.
    pub fn pad_mut(&mut self, port: PortId) -> Option<&mut Contact> {
        match self {
            Self::Pin(_) => None,
            Self::PinAndPad { tree, .. } => tree.contact_mut(port),
        }
    }
}

impl ModalTree for TineTree {
    /// The linear leaf called `name`.
    fn leaf(&self, name: &str) -> Result<LeafId, TreeError> {
        match self {
            Self::Pin(tree) => tree.leaf(name),
            Self::PinAndPad { tree, .. } => tree.leaf(name),
        }
    }

    /// Velocity across a leaf at the last sample, m/s.
    fn voltage(&self, leaf: LeafId) -> f64 {
        match self {
            Self::Pin(tree) => tree.voltage(leaf),
            Self::PinAndPad { tree, .. } => tree.voltage(leaf),
        }
    }

    /// Force through a leaf at the last sample, N.
    fn current(&self, leaf: LeafId) -> f64 {
        match self {
            Self::Pin(tree) => tree.current(leaf),
            Self::PinAndPad { tree, .. } => tree.current(leaf),
        }
    }

    /// Advances one sample.
    #[inline]
    fn tick(&mut self) {
        match self {
            Self::Pin(tree) => tree.tick(),
            Self::PinAndPad { tree, .. } => tree.tick(),
        }
    }

    /// Everything at rest.
    fn reset(&mut self) {
        match self {
            Self::Pin(tree) => tree.reset(),
            Self::PinAndPad { tree, .. } => tree.reset(),
        }
    }

    /// Whether `other` is the same kind of tree with the same structure.
    fn same_structure(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Pin(a), Self::Pin(b)) => a.same_structure(b),
            (Self::PinAndPad { tree: a, .. }, Self::PinAndPad { tree: b, .. }) => {
                a.same_structure(b)
            }
            _ => false,
        }
    }

    /// Carries on `old`'s state (see [`Bct::continue_from`]); false, changing
    /// nothing, for another structure.
    fn continue_from(&mut self, old: &Self) -> bool {
        match (self, old) {
            (Self::Pin(a), Self::Pin(b)) => a.continue_from(b),
            (Self::PinAndPad { tree: a, .. }, Self::PinAndPad { tree: b, .. }) => {
                a.continue_from(b)
            }
            _ => false,
        }
    }
}
