//! Orchard's editor: navigate the instrument's components, edit any property
//! while playing, watch the mechanism move, play it from the screen, and
//! watch a clockwork mechanism run.
//!
//! [`app::EditorApp`] draws everything into an [`egui::Ui`] and knows nothing
//! of windows, so tests drive it headless; [`window`] puts it in a plugin
//! window through nice-plug-egui. The editor talks to the audio thread only
//! through [`crate::link::EditorLink`] (atomics and wait-free queues) and to
//! the host through parameter gestures. In the standalone app it also has
//! a File menu and a transport ([`standalone_bar`]).

pub mod app;
mod browser;
mod clockwork;
mod controls;
pub mod file_chooser;
mod fonts;
#[cfg(feature = "editor")]
pub(crate) mod handoff;
mod history;
mod keyboard;
mod learn;
mod mechanism;
mod meters;
pub mod presets;
mod probes;
mod properties;
pub mod session;
pub mod standalone_bar;
mod tree;
pub mod tuning_files;
#[cfg(feature = "editor")]
pub mod window;

pub use crate::params::EditorLayout;
pub use clockwork::ClockworkView;
#[cfg(feature = "editor")]
pub use window::create;
