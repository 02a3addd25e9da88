//! Wave-digital structures: macro-adaptors as Binary Connection Trees (De Sanctis,
//! Sarti & Tubaro, "Automatic synthesis strategies for object-based dynamical
//! physical models in musical acoustics", DAFx 2003, Sections 2–4) and, as a second
//! engine and the reference that checks the first, the Wave Tableau.
//!
//! A tree is described as data ([`TreeDescription`]: elements joined in series and
//! parallel, polarity inverters, transformers and unit delays, with one root) and
//! built into a flat runtime ([`Bct`]) that evaluates it per sample without
//! allocation or dynamic dispatch. The rules of macro-adaptors are checked when a
//! tree is built: one nonlinear or non-adaptable element, at the root; no loops;
//! every adaptor's up port adapted. A tree with several nonlinear elements is a
//! [`MultiportTree`]: they become the ports of one multiport root, solved
//! jointly each sample.
//!
//! Conventions, used by every element and adaptor in this module (Fettweis): a port
//! has a reference resistance `R` (> 0); with `v` the across quantity and `i` the
//! through quantity flowing *into the element*, the wave travelling into the
//! element is `a = v + R·i` and the wave it sends back is `b = v − R·i`.
//!
//! Mechanical systems use the mobility analogy: force is the through quantity
//! ("current", N) and velocity the across quantity ("voltage", m/s). A mass is then a
//! capacitor of capacitance `m` (kg), a spring an inductor, and parts that carry the
//! same force are connected in series. Port resistances are in s/kg.

mod bct;
mod coefficients;
mod compression;
mod dc;
pub mod description;
mod diode_lanes;
mod element;
mod felt;
mod felt_law;
pub(crate) mod fused;
mod leaves;
pub mod multiport;
mod omega_table;
mod pair_table;
mod poly;
mod rematch;
mod root;
mod tableau;
mod topology;

pub use bct::{Bct, CoefficientPlanner, LeafId, SourceId};
pub use coefficients::Patch;
pub use description::{Connection, Named, TreeDescription};
pub use element::Element;
pub use felt::FeltRoot;
pub use felt_law::{FeltLaw, UNUSED_RELAXATION_S};
pub use multiport::{MultiportTree, PortId};
pub use poly::PolyTableau;
pub use root::{solve_diode, solve_diode_pair, wright_omega};
pub use tableau::WaveTableau;
pub use topology::TreeError;
