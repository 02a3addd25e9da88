//! A hammer as a wave-digital contact tree, and the values that fit it to one
//! key and one set of struck strings.
//!
//! Every hammer tree has the same shape: the felt is the root; below it, in
//! series (the same force acts on both), the hammer mass (a capacitor of `m`
//! kg, its voltage the hammer velocity) and the strings' contact point (a
//! resistive source of `1/Σ 2·Z0` s/kg over the struck strings, whose EMF is
//! minus the velocity the arriving waves would give the point). Only three
//! values differ from key to key: the mass, the contact port's resistance and
//! the felt law. So one tree can serve any key: a [`ContactShape`] holds, per
//! key and struck subset, the coefficient patches (De Sanctis et al. 2003,
//! Section 4: a leaf's new port resistance and the adaptors on its path to the
//! root) and the felt law, planned once when the key is built;
//! [`Contact::launch`] applies them between two samples without allocating.
//!
//! Why patches rather than prebuilt trees per parameter shape: prebuilt trees
//! are what each key used to own, one per struck subset (488 for the grand's
//! 88 keys, 1,552 bytes each: 757 KB). A shape is 296 bytes (144 KB for the
//! grand), and the shared pool of 16 trees 23 KB. Applying the two patches
//! and the felt costs a few dozen stores at a strike, and the patched tree's
//! coefficients are bit for bit those of a tree built with the values.

use crate::wdf::description::{capacitor, element, series};
use crate::wdf::{
    Bct, Element, FeltLaw, FeltRoot, LeafId, Patch, SourceId, TreeDescription, TreeError,
};

/// Leaf names of the hammer tree.
const MASS: &str = "hammer";
const PORT: &str = "string";

/// The three values that fit a hammer tree to a key and its struck strings.
#[derive(Debug, Clone, Copy, PartialEq)]
struct HammerValues {
    /// Mass of the whole hammer, kg.
    mass_kg: f64,
    /// The felt's compression law.
    law: FeltLaw,
    /// Port resistance of the struck strings' contact point, s/kg.
    contact_resistance: f64,
}

impl HammerValues {
    /// Values an idle pool tree is built with; every strike replaces them all.
    const IDLE: Self = Self {
        mass_kg: 1.0,
        law: FeltLaw::elastic(1.0, 1.0),
        contact_resistance: 1.0,
    };

    fn description(&self) -> TreeDescription {
        TreeDescription::new(
            "felt",
            Element::Felt { law: self.law },
            series([
                capacitor(MASS, self.mass_kg),
                element(
                    PORT,
                    Element::ResistiveVoltageSource {
                        volts: 0.0,
                        ohms: self.contact_resistance,
                    },
                ),
            ]),
        )
    }

    fn mass_leaf(&self) -> Element {
        Element::Capacitor {
            farads: self.mass_kg,
        }
    }

    fn port_leaf(&self) -> Element {
        Element::ResistiveVoltageSource {
            volts: 0.0,
            ohms: self.contact_resistance,
        }
    }
}

/// A hammer fitted to one key and one subset of its strings: the coefficient
/// patches and felt law a [`Contact`] takes at a strike.
///
/// Allocates: in [`ContactShape::new`] only (two patches of one adaptor each,
/// about 300 bytes in all).
#[derive(Debug, Clone)]
pub(crate) struct ContactShape {
    law: FeltLaw,
    /// The hammer-mass leaf, applied first.
    mass: Patch,
    /// The contact-port leaf and, computed with the new mass, every adaptor to
    /// the root: after both, the tree's coefficients are those of a tree built
    /// with these values.
    port: Patch,
}

impl ContactShape {
    /// The hammer of a note with `strings` strings, striking `struck` of them
    /// through a port of resistance `contact_resistance` (s/kg), at
    /// `sample_rate` (Hz).
    ///
    /// Preset anchors give the hammer's mass and the felt's stiffness per
    /// string, as in Chaigne & Askenfelt's single-string model (the 2.97 g at
    /// C4 of `docs/reference-measurements.md` is a third of a real C4 hammer):
    /// the whole hammer weighs `strings` times as much, and its felt, pressing
    /// on `struck` strings side by side, is `struck` times as stiff. Each
    /// struck string then meets the same hammer as in the single-string model.
    ///
    /// Fails, naming the value, when the mass, felt or resistance is out of
    /// range.
    pub fn new(
        hammer_mass_kg: f64,
        felt: FeltLaw,
        strings: usize,
        struck: usize,
        contact_resistance: f64,
        sample_rate: f64,
    ) -> Result<Self, TreeError> {
        let mut law = felt;
        law.stiffness *= struck as f64;
        let values = HammerValues {
            mass_kg: hammer_mass_kg * strings as f64,
            law,
            contact_resistance,
        };
        // Building the tree checks every value as the rules of De Sanctis et al.
        // (2003) ask.
        let mut planner = Bct::new(&values.description(), sample_rate)?.planner();
        // Clones hold exactly the one adaptor each patch touches (the planner's
        // patches keep spare capacity: four adaptors, a few hundred bytes).
        Ok(Self {
            law,
            mass: planner.set_element(MASS, values.mass_leaf())?.clone(),
            port: planner.set_element(PORT, values.port_leaf())?.clone(),
        })
    }
}

/// One hammer's wave-digital tree, grafted onto whatever strings it strikes.
///
/// Allocates: in [`Contact::new`] only.
#[derive(Debug, Clone)]
pub(crate) struct Contact {
    tree: Bct,
    mass: LeafId,
    port_leaf: LeafId,
    port: SourceId,
    /// Whether the felt has pushed on the strings since the launch.
    touched: bool,
}

impl Contact {
    /// An idle hammer tree at `sample_rate` (Hz).
    pub fn new(sample_rate: f64) -> Result<Self, TreeError> {
        let tree = Bct::new(&HammerValues::IDLE.description(), sample_rate)?;
        Ok(Self {
            mass: tree.leaf(MASS)?,
            port_leaf: tree.leaf(PORT)?,
            port: tree.source(PORT)?,
            tree,
            touched: false,
        })
    }

    /// Takes `shape` and releases the hammer at `speed_m_s` (towards the
    /// strings), its felt `gap_m` (m) from them and closing at
    /// `closing_rate_m_s`. Everything else starts at rest, as in a new tree.
    pub fn launch(
        &mut self,
        shape: &ContactShape,
        speed_m_s: f64,
        gap_m: f64,
        closing_rate_m_s: f64,
    ) {
        self.fit(shape);
        let tree = &mut self.tree;
        tree.reset();
        tree.set_reactive_state(self.mass, speed_m_s);
        if let Some(felt) = tree.felt_mut() {
            felt.set_state(-gap_m, closing_rate_m_s);
        }
        self.touched = false;
    }

    /// Takes `shape`'s coefficients and felt law (the felt at rest).
    fn fit(&mut self, shape: &ContactShape) {
        let tree = &mut self.tree;
        tree.apply_patch(&shape.mass);
        tree.apply_patch(&shape.port);
        let felt = FeltRoot::new(
            shape.law,
            tree.root_resistance(),
            tree.sample_rate(),
            0.0,
            0.0,
        );
        if let Some(root) = tree.felt_mut() {
            *root = felt;
        }
    }

    /// Takes `shape` (the same key's hammer as `old`'s, perhaps with other
    /// values) and carries on `old`'s flight: the hammer's velocity, the felt's
    /// compression and the force of the last sample go on in this tree.
    ///
    /// Allocates nothing.
    pub fn continue_from(&mut self, old: &Contact, shape: &ContactShape) {
        self.fit(shape);
        // Every contact tree is built from one description: the structures match.
        self.tree.continue_from(&old.tree);
        self.touched = old.touched;
    }

    /// Advances one sample with the strings' contact point moving at
    /// `free_velocity_m_s` (as the arriving waves alone would move it); returns
    /// the force into the strings' port, N (minus the felt force).
    #[inline]
    pub fn tick(&mut self, free_velocity_m_s: f64) -> f64 {
        self.tree.set_source(self.port, -free_velocity_m_s);
        self.tree.tick();
        let touching = self.force() > 0.0;
        self.touched |= touching;
        // The same force acts on hammer and string; into the string's port
        // flows −F. Across a gap it is exactly none: the port's current would
        // be rounding noise (~1e-16 N), enough for the strings to take it for
        // a hammer's push (their longitudinal stretch wakes on any force).
        if touching {
            -self.tree.current(self.port_leaf)
        } else {
            0.0
        }
    }

    /// Felt force of the last sample, N.
    pub fn force(&self) -> f64 {
        self.tree.felt().map_or(0.0, FeltRoot::force)
    }

    /// Felt compression of the last sample, m (negative for a gap).
    pub fn compression(&self) -> f64 {
        self.tree.felt().map_or(0.0, FeltRoot::compression)
    }

    /// Hammer velocity, m/s towards the strings.
    pub fn hammer_velocity(&self) -> f64 {
        self.tree.voltage(self.mass)
    }

    /// Whether the hammer has struck and is now apart from the strings: taking
    /// it away changes nothing the strings feel.
    pub fn has_let_go(&self) -> bool {
        self.touched && self.force() == 0.0
    }

    /// Brings the tree to rest.
    pub fn reset(&mut self) {
        self.tree.reset();
        self.touched = false;
    }
}
