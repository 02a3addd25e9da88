//! The leaves of a tree at run time, grouped by behaviour so that each group is a
//! plain loop without dispatch.

use super::Element;

/// All leaves of one tree. Leaf `i` owns slot `i` of the engine's wave arrays.
///
/// Memoryless leaves (resistors, resistive sources) reflect a constant; reactive
/// leaves (capacitors, inductors) reflect their state, `±a[n−1]`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LeafBank {
    constant_slots: Vec<usize>,
    constant_values: Vec<f64>,
    reactive_slots: Vec<usize>,
    /// +1 for a capacitor, −1 for an inductor.
    reactive_signs: Vec<f64>,
    reactive_states: Vec<f64>,
    /// Where each leaf lives within its group.
    position: Vec<usize>,
    /// Port resistance of each leaf.
    pub resistance: Vec<f64>,
    /// The elements, with their current values.
    pub elements: Vec<Element>,
}

impl LeafBank {
    pub fn new(elements: &[Element], resistance: &[f64]) -> Self {
        let mut bank = Self {
            constant_slots: Vec::new(),
            constant_values: Vec::new(),
            reactive_slots: Vec::new(),
            reactive_signs: Vec::new(),
            reactive_states: Vec::new(),
            position: Vec::with_capacity(elements.len()),
            resistance: resistance.to_vec(),
            elements: elements.to_vec(),
        };
        for (slot, element) in elements.iter().enumerate() {
            match element {
                Element::Capacitor { .. } | Element::Inductor { .. } => {
                    bank.position.push(bank.reactive_slots.len());
                    bank.reactive_slots.push(slot);
                    let sign = if matches!(element, Element::Inductor { .. }) {
                        -1.0
                    } else {
                        1.0
                    };
                    bank.reactive_signs.push(sign);
                    bank.reactive_states.push(0.0);
                }
                _ => {
                    bank.position.push(bank.constant_slots.len());
                    bank.constant_slots.push(slot);
                    bank.constant_values
                        .push(element.constant_reflection().unwrap_or(0.0));
                }
            }
        }
        bank
    }

    /// Writes every leaf's reflected wave into `up`.
    #[inline]
    pub fn reflect(&self, up: &mut [f64]) {
        for (&slot, &value) in self.constant_slots.iter().zip(&self.constant_values) {
            up[slot] = value;
        }
        for ((&slot, &sign), &state) in self
            .reactive_slots
            .iter()
            .zip(&self.reactive_signs)
            .zip(&self.reactive_states)
        {
            up[slot] = sign * state;
        }
    }

    /// Takes in the waves the tree sent down to the leaves.
    #[inline]
    pub fn absorb(&mut self, down: &[f64]) {
        for (&slot, state) in self
            .reactive_slots
            .iter()
            .zip(self.reactive_states.iter_mut())
        {
            *state = down[slot];
        }
    }

    /// The sign a reactive leaf reflects its state with: +1 for a capacitor
    /// (`b[n] = a[n−1]`), −1 for an inductor.
    pub fn reactive_sign(&self, leaf: usize) -> f64 {
        self.reactive_signs[self.position[leaf]]
    }

    /// Whether `other` has the same leaves in the same slots, reactive and
    /// memoryless alike (their values may differ).
    pub fn same_layout(&self, other: &LeafBank) -> bool {
        self.reactive_slots == other.reactive_slots
            && self.reactive_signs == other.reactive_signs
            && self.constant_slots == other.constant_slots
    }

    /// Number of leaves.
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// Whether leaf `leaf` is reactive.
    pub fn is_reactive(&self, leaf: usize) -> bool {
        self.elements[leaf].is_reactive()
    }

    /// Sets the constant a memoryless leaf reflects.
    pub fn set_constant(&mut self, leaf: usize, value: f64) {
        self.constant_values[self.position[leaf]] = value;
    }

    /// The constant a memoryless leaf reflects.
    pub fn constant(&self, leaf: usize) -> f64 {
        self.constant_values[self.position[leaf]]
    }

    /// Sets the state of a reactive leaf (the incident wave of the previous sample).
    pub fn set_state(&mut self, leaf: usize, state: f64) {
        self.reactive_states[self.position[leaf]] = state;
    }

    /// Energy held by the reactive leaves, in wave units: `Σ state²/(4R)` (J for
    /// electrical circuits; it changes by exactly the power the tree delivers).
    pub fn stored_energy(&self) -> f64 {
        self.reactive_slots
            .iter()
            .zip(&self.reactive_states)
            .map(|(&slot, &state)| state * state / (4.0 * self.resistance[slot]))
            .sum()
    }

    /// Brings every reactive leaf to rest.
    pub fn clear_states(&mut self) {
        self.reactive_states.fill(0.0);
    }
}
