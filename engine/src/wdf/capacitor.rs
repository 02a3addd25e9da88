//! The wave-digital capacitor (a mass, in the mobility analogy).

/// A linear capacitor discretised by the bilinear transform: `b[n] = a[n−1]` with
/// port resistance `R = 1/(2·fs·C)`.
///
/// In Orchard's mechanical circuits a capacitor is a point mass `m = C` (kg) whose
/// across quantity is its velocity (m/s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capacitor {
    port_resistance: f64,
    /// The incident wave of the previous sample: this sample's reflected wave.
    state: f64,
}

impl Capacitor {
    /// A capacitor of `capacitance` (F, or kg for a mass) at `sample_rate` (Hz),
    /// initially at across quantity `initial_voltage` with no current through it.
    pub fn new(capacitance: f64, sample_rate: f64, initial_voltage: f64) -> Self {
        Self {
            port_resistance: 1.0 / (2.0 * sample_rate * capacitance),
            // v = (a + b)/2 and i = (a − b)/(2R) = 0 give a = b = v.
            state: initial_voltage,
        }
    }

    /// The port resistance `1/(2·fs·C)`.
    pub fn port_resistance(&self) -> f64 {
        self.port_resistance
    }

    /// The wave this element sends into the tree this sample.
    #[inline]
    pub fn reflected(&self) -> f64 {
        self.state
    }

    /// Accepts the wave the tree sends into this element and returns the across
    /// quantity (voltage, or velocity) `v = (a + b)/2` at this sample.
    #[inline]
    pub fn accept(&mut self, incident: f64) -> f64 {
        let voltage = 0.5 * (incident + self.state);
        self.state = incident;
        voltage
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A capacitor charged through a resistor from a step follows the bilinear
    /// transform of `RC·dv/dt = E − v`.
    #[test]
    fn charges_like_the_bilinear_rc_recursion() {
        let (fs, r, c, e) = (48_000.0, 1_000.0, 1e-6, 1.0);
        let mut cap = Capacitor::new(c, fs, 0.0);
        let rc = cap.port_resistance();
        // Series loop: source (E, R) and capacitor; adaptor waves for two ports of
        // resistances R and Rc joined in series.
        let k = 2.0 * fs * r * c;
        let mut v_ref = 0.0;
        let mut x_prev = 0.0;
        for _ in 0..2000 {
            let a_src = e; // resistive source reflects its EMF
            let a_cap = cap.reflected();
            let sum = a_src + a_cap;
            let b_cap = a_cap - 2.0 * rc / (r + rc) * sum;
            let v = cap.accept(b_cap);
            v_ref = ((k - 1.0) * v_ref + e + x_prev) / (k + 1.0);
            x_prev = e;
            // Around the series loop the source and capacitor voltages cancel, so the
            // capacitor's port voltage is the charging voltage with the loop's sign.
            assert!((v + v_ref).abs() < 1e-12, "{v} vs {v_ref}");
        }
    }
}
