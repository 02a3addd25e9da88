//! Mechanisms from geometry (Gelsey 1995, Section 2): parts made of blocks and
//! discs, revolute and prismatic pairs with the frame, gear pairs binding parts
//! into one degree of freedom (Algorithm 7), linear springs, viscous friction,
//! and intermittent contact by the penalty model of Eq. (4) turned into
//! generalized forces by the force multiplier of Algorithm 8. Integrated by an
//! L-stable implicit method with adaptive steps.
//!
//! Angles in descriptions are degrees; the running [`Mechanism`], its state
//! and its properties use radians. Lengths are in the drawing's unit "u".
//!
//! - [`description`]: the serde (TOML) description.
//! - [`geometry`]: primitives and placements.
//! - [`structure`]: parts, subsystems, springs, contact constants.
//! - [`build`]: validation and Algorithm 7.
//! - [`dynamics`]: Algorithm 8, contact detection with parry, Jacobians.
//! - [`integrator`]: SDIRK2 with error control, step limits.
//! - [`linear`]: small dense solves.
//! - [`runtime`]: [`Mechanism`] and its [`Model`](crate::mech::Model) impl.
//! - [`impacts`]: where parts strike each other, and the mass each blow meets.
//! - [`properties`]: property paths, ranges and units.
//! - [`shapes`]: every primitive's world placement, for drawing.
//! - [`driver`]: a tiny adaptive loop for tests, benchmarks and the editor.
//! - [`record`]: a run recorded as a long-term [`Trace`](crate::mech::long_term::Trace).

pub mod build;
pub mod description;
pub mod driver;
pub mod dynamics;
pub mod geometry;
pub mod impacts;
pub mod integrator;
pub mod linear;
pub mod properties;
pub mod record;
pub mod runtime;
pub mod shapes;
pub mod structure;

pub use build::BuildError;
pub use description::MechanismDescription;
pub use driver::{RunStats, StepFailure, Stepper, run};
pub use impacts::ContactSite;
pub use integrator::IntegrationParameters;
pub use properties::{MechanismProperty, PROPERTIES};
pub use runtime::Mechanism;
pub use shapes::PlacedShape;

/// Gelsey's escapement (Figs. 12–13), embedded at build time.
pub const ESCAPEMENT_TOML: &str = include_str!("../../../../presets/clockwork/escapement.toml");
/// The going train of the chiming bracket clock, in SI units, embedded at
/// build time. Not among [`BUILTIN_NAMES`]: it runs at its own scale
/// (metres, a 0.4 s swing; see
/// [`crate::families::chiming_clock::movement`]), and `orchard analyze
/// chiming-clock` reports on it.
pub const BRACKET_MOVEMENT_TOML: &str =
    include_str!("../../../../presets/clockwork/bracket-movement.toml");
/// Gelsey's ratchet (Fig. 18), embedded at build time.
pub const RATCHET_TOML: &str = include_str!("../../../../presets/clockwork/ratchet.toml");

/// Gelsey's chiming clock (Fig. 26): the escapement, a large gear and a
/// clapper, embedded at build time.
pub const GELSEY_CHIME_TOML: &str = include_str!("../../../../presets/clockwork/gelsey-chime.toml");
/// Gelsey's escapement with a missing tooth (Fig. 27), embedded at build time.
pub const ESCAPEMENT_MISSING_TOOTH_TOML: &str =
    include_str!("../../../../presets/clockwork/escapement-missing-tooth.toml");
/// Gelsey's escapement with an extra-large tooth (Fig. 28), embedded at build
/// time.
pub const ESCAPEMENT_LARGE_TOOTH_TOML: &str =
    include_str!("../../../../presets/clockwork/escapement-large-tooth.toml");

/// The text of a built-in mechanism preset by name (one of
/// [`BUILTIN_NAMES`]), or `None`.
pub fn builtin(name: &str) -> Option<&'static str> {
    match name {
        "escapement" => Some(ESCAPEMENT_TOML),
        "ratchet" => Some(RATCHET_TOML),
        "gelsey-chime" => Some(GELSEY_CHIME_TOML),
        "escapement-missing-tooth" => Some(ESCAPEMENT_MISSING_TOOTH_TOML),
        "escapement-large-tooth" => Some(ESCAPEMENT_LARGE_TOOTH_TOML),
        _ => None,
    }
}

/// Names accepted by [`builtin`].
pub const BUILTIN_NAMES: &[&str] = &[
    "escapement",
    "ratchet",
    "gelsey-chime",
    "escapement-missing-tooth",
    "escapement-large-tooth",
];
