//! The mechanical scheduler: everything slower than a contact (keys, actions,
//! hammers in flight, escapements) simulated at control rate.
//!
//! Built from ArtiSynth's model/agent/scheduler design (Lloyd et al., ArtiSynth
//! Reference Manual, Sections 2.1–2.5; Lloyd & Stavness, "ArtiSynth Description
//! and Design Overview", 2014, Sections 2.2–2.4) and Gelsey's automated
//! reasoning about clockwork (Gelsey, "Automated reasoning about machines",
//! Artificial Intelligence 74, 1995).
//!
//! - [`model`]: the [`Model`] trait, its state and step adjustments.
//! - [`forward_model`]: [`ForwardModel`], the [`Model`] of everything that
//!   only runs forwards, saving no state; [`no_properties`]:
//!   [`NoProperties`], the property access of a model that has none.
//! - The grand piano's action and pedals are a model of the grand piano's
//!   family ([`crate::families::grand_piano::action`]).
//! - [`agents`]: input and output probes, controllers and monitors.
//! - [`scheduler`]: the root model's advance loop, adaptive stepping, waypoints.
//! - Properties by path (the property tree, access, errors) are the one
//!   property system of [`crate::props`].
//! - [`mechanism`]: Gelsey's mechanisms from geometry — parts, pairs, gears,
//!   springs, penalty contact, an implicit adaptive integrator, presets.
//! - [`long_term`]: long-term behaviour from a recorded run: the cycle of `M`
//!   kinetic-energy minima, its period `D`, the change `A` of every state
//!   variable per cycle, and gradual effects (Gelsey's Section 3).

pub mod agents;
pub mod forward_model;
pub mod long_term;
pub mod mechanism;
pub mod model;
pub mod no_properties;
pub mod scheduler;

pub use agents::{Agents, Controller, InputProbe, Interpolation, Monitor, OutputProbe, Slot};
pub use forward_model::ForwardModel;
pub use model::{Model, ModelState, StepAdjustment};
pub use no_properties::NoProperties;
pub use scheduler::{ModelId, RootModel, SchedulerError, Simulated};
