//! Orchard's one property system (Lloyd & Stavness, "ArtiSynth Description and
//! Design Overview", 2014, Sections 2.2 and 2.4): every component has a path,
//! every property a full path `COMPONENT:NAME`, declared once, where its
//! owner is defined, by a [`Declaration`]: unit, kind, range, the property it
//! is ordered after, default, description, whether it is inherited and
//! whether it changes live. What a property is in one instrument (its
//! declaration and the range it has there) is a [`PropertyInfo`].
//!
//! - A preset's properties (`tuning:a4_hz`, `hammers/anchor/60:felt_stiffness`,
//!   `strings/key/61:loss_b1`) are declared by the preset's objects' field
//!   tables (`fields!`, `anchor_fields!`); the rules of an instrument that
//!   bound a property further (a rod's key is one of the keyboard's) are
//!   declared by the objects as ranges too
//!   ([`crate::instrument::Preset::property_info`]). Presets, `render --set`,
//!   the editor's panels, MIDI learn and the host's parameters all go
//!   through these paths.
//! - The mechanics' properties live in a [`PropertyTree`]: the clockwork's
//!   parts and springs declare their own; a family's mechanics declare the
//!   preset properties they change while playing, with the preset's
//!   declarations (the grand action's `action:blow_distance_m`,
//!   `hammers:start_gap_m`, `velocity:curve`), so an edit has one path
//!   whether it goes to the preset or to the running worker.
//! - What can be watched while playing (a key's hammer travel, its strings'
//!   energy, the pedals, the output's level) is declared in [`PROBES`].
//!
//! [`PropertyAccess`] reads and writes a model's properties by path;
//! [`PropertyError`] says why an edit was refused.

mod access;
mod declaration;
mod probes;
mod tree;

pub use access::{PropertyAccess, PropertyError};
pub use declaration::{Declaration, DeclaredRange, PropertyInfo, ValueKind, declared_default};
pub use probes::{PROBES, Probe, ProbeDeclaration, ProbeQuantity};
pub use tree::{ExplicitValues, Mode, PropertyPath, PropertyTree, SavedProperties};
