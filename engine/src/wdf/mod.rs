//! Wave-digital building blocks.
//!
//! Conventions, used by every element and adaptor in this module (Fettweis):
//! a port has a reference resistance `R` (> 0); with `v` the across quantity and `i`
//! the through quantity flowing *into the element*, the wave travelling into the
//! element is `a = v + R·i` and the wave it sends back is `b = v − R·i`. An adaptor
//! sees the same two waves with the roles swapped: an element's reflected wave is
//! the adaptor's incident wave.
//!
//! Mechanical systems use the mobility analogy: force is the through quantity
//! ("current", N) and velocity the across quantity ("voltage", m/s). A mass is then a
//! capacitor of capacitance `m` (kg), a spring an inductor, and parts that carry the
//! same force are connected in series. Port resistances are in s/kg.

mod capacitor;
mod felt;
mod resistive_source;
mod series_adaptor;

pub use capacitor::Capacitor;
pub use felt::{FeltLaw, FeltRoot};
pub use resistive_source::ResistiveSource;
pub use series_adaptor::SeriesAdaptor3;
