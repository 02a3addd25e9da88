//! What each nonlinear port of a multiport root does within one sample: its
//! through quantity as an increasing function of its across quantity.

use crate::wdf::compression::CompressionState;
use crate::wdf::root::{DiodeModel, newton_in_bracket};
use crate::wdf::{Element, FeltLaw};

/// A nonlinear element at one port of a multiport root, seen within one
/// sample as `i = g(v)`: the through quantity (A; N for a contact) as a
/// continuous, non-decreasing function of the across quantity (V; m/s for a
/// contact), with its slope. That monotonicity is what makes the joint solve
/// well posed: with the linear network's impedance matrix positive
/// semi-definite, `v = e − Z·g(v)` has exactly one solution.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PortLaw {
    /// `i = Is·(exp(v/Vt) − 1)`.
    Diode {
        /// Its closed-form solve at the port.
        model: DiodeModel,
        /// Saturation current, A.
        saturation_amps: f64,
        /// Thermal voltage times ideality, V.
        thermal_volts: f64,
    },
    /// `i = 2·Is·sinh(v/Vt)`.
    DiodePair {
        /// Its closed-form solve at the port.
        model: DiodeModel,
        /// Saturation current of each diode, A.
        saturation_amps: f64,
        /// Thermal voltage times ideality, V.
        thermal_volts: f64,
    },
    /// A contact between two bodies: a felt or a Hertzian steel contact.
    Contact(Contact),
}

impl PortLaw {
    /// The law of `element` at a port of resistance `port_resistance` (Ω)
    /// at `sample_rate` (Hz); `None` for a linear element.
    pub fn new(element: &Element, port_resistance: f64, sample_rate: f64) -> Option<Self> {
        Some(match *element {
            Element::Diode {
                saturation_amps,
                thermal_volts,
            } => Self::Diode {
                model: DiodeModel::new(saturation_amps, thermal_volts, port_resistance),
                saturation_amps,
                thermal_volts,
            },
            Element::DiodePair {
                saturation_amps,
                thermal_volts,
            } => Self::DiodePair {
                model: DiodeModel::new(saturation_amps, thermal_volts, port_resistance),
                saturation_amps,
                thermal_volts,
            },
            Element::Felt { law } => Self::Contact(Contact::new(law, sample_rate)),
            _ => return None,
        })
    }

    /// Fixes what the sample's law depends on from the element's past (a
    /// contact's predicted compression and relaxed stiffness).
    #[inline]
    pub fn begin_sample(&mut self) {
        if let Self::Contact(contact) = self {
            contact.begin_sample();
        }
    }

    /// The voltage with which the element answers the wave `a` arriving at
    /// its port (of resistance `r`, the one it was built for): the root of
    /// `v + r·g(v) = a`, exact to a few ulps; `seed` is a guess (the last
    /// answer). Diodes use their closed-form solve; a contact Newton's
    /// method in a bracket.
    #[inline]
    pub fn answer(&self, a: f64, r: f64, seed: f64) -> f64 {
        match self {
            Self::Diode { model, .. } => model.solve_single(a),
            Self::DiodePair { model, .. } => model.solve_pair(a),
            Self::Contact(contact) => {
                // The force is not negative, and zero at and below the rate
                // where the contact lets go: the answer lies between that
                // rate and `a`.
                let free = contact.free_rate();
                let (lo, hi) = (a.min(free), a.max(free));
                newton_in_bracket(seed, lo, hi, |x| {
                    let (g, dg) = self.current(x);
                    (x + r * g - a, 1.0 + r * dg)
                })
            }
        }
    }

    /// `(g(v), g'(v))` this sample.
    #[inline]
    pub fn current(&self, v: f64) -> (f64, f64) {
        match *self {
            Self::Diode {
                saturation_amps,
                thermal_volts,
                ..
            } => {
                let e = (v / thermal_volts).exp();
                (
                    saturation_amps * (e - 1.0),
                    saturation_amps * e / thermal_volts,
                )
            }
            Self::DiodePair {
                saturation_amps,
                thermal_volts,
                ..
            } => {
                let x = v / thermal_volts;
                (
                    2.0 * saturation_amps * x.sinh(),
                    2.0 * saturation_amps * x.cosh() / thermal_volts,
                )
            }
            Self::Contact(ref contact) => contact.force_at(v),
        }
    }

    /// Takes the sample's solution `(v, i)` into the element's state.
    #[inline]
    pub fn commit(&mut self, v: f64, i: f64) {
        if let Self::Contact(contact) = self {
            contact.commit(v, i);
        }
    }

    /// The contact at this port, if it is one.
    pub fn contact(&self) -> Option<&Contact> {
        match self {
            Self::Contact(contact) => Some(contact),
            _ => None,
        }
    }

    /// The contact at this port, if it is one, to set its state.
    pub fn contact_mut(&mut self) -> Option<&mut Contact> {
        match self {
            Self::Contact(contact) => Some(contact),
            _ => None,
        }
    }
}

/// A contact (the felt of a hammer, a steel pin on a tine) at a port of a
/// multiport root: `F = max(0, K·(x^p − ε·M)·(1 + β·ẋ))` (see [`FeltLaw`]).
///
/// In the mobility analogy its across quantity is the compression rate
/// `ẋ` (m/s) and its through quantity the force `F` (N). The compression is
/// integrated by the trapezoidal rule, as the felt root does: with
/// `h = T/2`, `x = s + h·ẋ` where `s = x[n−1] + h·ẋ[n−1]`, so within a
/// sample the force is a function of `ẋ` alone, and non-decreasing in it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// The contact's compression, its rate, force and memory.
    state: CompressionState,
    /// This sample's `s = x[n−1] + h·ẋ[n−1]`, m.
    predicted: f64,
    /// This sample's relaxed stiffness `K·(1 − ε·(1 − m))`, N/m^p.
    stiffness: f64,
    /// This sample's relaxation offset `K·ε·m·M[n−1]`, N.
    offset: f64,
}

impl Contact {
    /// A contact with `law` at `sample_rate` (Hz), apart and at rest.
    pub fn new(law: FeltLaw, sample_rate: f64) -> Self {
        Self {
            state: CompressionState::new(law, sample_rate, 0.0, 0.0),
            predicted: 0.0,
            stiffness: law.stiffness,
            offset: 0.0,
        }
    }

    /// Places the bodies at `compression` (m, negative for a gap) closing at
    /// `compression_rate` (m/s), the contact rested (no memory).
    pub fn set_state(&mut self, compression: f64, compression_rate: f64) {
        self.state.set_state(compression, compression_rate);
    }

    /// Carries on from `old`'s compression, rate and memory with this
    /// contact's law (the force is recomputed with it when the laws differ).
    pub fn continue_from(&mut self, old: &Contact) {
        self.state.continue_from(&old.state);
    }

    /// Compression, m (negative: the gap).
    pub fn compression(&self) -> f64 {
        self.state.compression()
    }

    /// Compression rate, m/s (positive while closing).
    pub fn compression_rate(&self) -> f64 {
        self.state.compression_rate()
    }

    /// Force of the last sample, N.
    pub fn force(&self) -> f64 {
        self.state.force()
    }

    /// The contact's law.
    pub fn law(&self) -> FeltLaw {
        self.state.law()
    }

    #[inline]
    fn begin_sample(&mut self) {
        let h = self.state.half_period();
        self.predicted = self.state.compression() + h * self.state.compression_rate();
        (self.stiffness, self.offset) = self.state.relaxed();
    }

    /// The rate below which the contact pushes no more this sample: where
    /// the bodies part (`x = 0`) or relax too fast for the law to follow
    /// (`1 + β·ẋ = 0`), whichever is higher.
    fn free_rate(&self) -> f64 {
        let parting = -self.predicted / self.state.half_period();
        let beta = self.state.law().hysteresis_s_per_m;
        if beta > 0.0 {
            parting.max(-1.0 / beta)
        } else {
            parting
        }
    }

    /// `(F(ẋ), dF/dẋ)` this sample.
    #[inline]
    fn force_at(&self, rate: f64) -> (f64, f64) {
        let law = self.state.law();
        let h = self.state.half_period();
        let x = self.predicted + h * rate;
        let factor = 1.0 + law.hysteresis_s_per_m * rate;
        if x <= 0.0 || factor <= 0.0 {
            return (0.0, 0.0);
        }
        let x_p = x.powf(law.exponent);
        let relaxed = self.stiffness * x_p - self.offset;
        if relaxed <= 0.0 {
            return (0.0, 0.0);
        }
        let slope_elastic = self.stiffness * law.exponent * x_p / x * h;
        (
            relaxed * factor,
            slope_elastic * factor + relaxed * law.hysteresis_s_per_m,
        )
    }

    #[inline]
    fn commit(&mut self, rate: f64, force: f64) {
        let x = self.predicted + self.state.half_period() * rate;
        let x_p = if x > 0.0 {
            x.powf(self.state.law().exponent)
        } else {
            0.0
        };
        self.state.advance(x, x_p, rate, force);
    }
}
