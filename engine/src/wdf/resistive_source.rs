//! The wave-digital resistive voltage source.

/// A voltage source `e` in series with a resistance `R`, adapted so that it reflects
/// exactly its EMF: `v = e + R·i`, hence `b = v − R·i = e`.
///
/// A digital waveguide seen from one of its points is such a source: `R` is the
/// admittance-side impedance of the line and `e` comes from the waves arriving there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResistiveSource {
    port_resistance: f64,
    /// EMF (V, or m/s in the mobility analogy).
    pub emf: f64,
}

impl ResistiveSource {
    /// A source of internal resistance `resistance` (Ω, or s/kg) and zero EMF.
    pub fn new(resistance: f64) -> Self {
        Self {
            port_resistance: resistance,
            emf: 0.0,
        }
    }

    /// The internal resistance, used as the port resistance.
    pub fn port_resistance(&self) -> f64 {
        self.port_resistance
    }

    /// The wave this element sends into the tree: its EMF.
    #[inline]
    pub fn reflected(&self) -> f64 {
        self.emf
    }

    /// The current into the element (A, or N) when the tree sends `incident` back:
    /// `i = (a − b)/(2R)`.
    #[inline]
    pub fn current(&self, incident: f64) -> f64 {
        (incident - self.emf) / (2.0 * self.port_resistance)
    }
}
