//! Why a preset was rejected.

use std::borrow::Cow;
use std::fmt;

/// Why a preset was rejected.
#[derive(Debug, Clone, PartialEq)]
pub enum PresetError {
    /// The text is not valid TOML for a preset (with the parser's location and
    /// the table it was reading).
    Syntax(String),
    /// A value is outside its range; names the property path.
    OutOfRange {
        /// Property path, e.g. `hammers/anchor/60:felt_exponent`.
        path: String,
        /// The offending value.
        value: f64,
        /// The allowed range, in words.
        range: Cow<'static, str>,
    },
    /// Anchors are missing, out of order or not MIDI keys.
    Anchors(String),
    /// The objects do not fit together.
    Topology(String),
    /// The tuning's scale and keyboard mapping do not fit together, or put
    /// a key out of reach.
    Tuning(String),
    /// The preset file could not be read, or failed to load (names the file).
    File {
        /// The file.
        path: String,
        /// Why.
        reason: Box<PresetError>,
    },
    /// The file could not be read.
    Io(String),
    /// No built-in preset has this name and no file has this path.
    Unknown {
        /// The name or path asked for.
        name: String,
        /// The built-in presets' names.
        builtin: Vec<&'static str>,
    },
    /// No property has this path.
    UnknownPath(String),
    /// No instrument family plays the preset: the one it names is unknown or
    /// does not play its objects, or it names none and none fits (see
    /// `crate::families::family_of`).
    Family(String),
    /// The property cannot inherit its value (names the path and why).
    CannotInherit {
        /// The property path.
        path: String,
        /// Why, in words.
        reason: &'static str,
    },
}

/// Paths and names an error quotes come from the user (an edit's path, a
/// preset's name): each is quoted whole up to a length
/// ([`crate::input::name`]), so that an error stays one short line.
impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::input::{name as excerpt, number};
        match self {
            Self::Syntax(message) => write!(f, "preset is not valid: {message}"),
            Self::OutOfRange { path, value, range } => {
                let (path, value) = (excerpt(path), number(*value));
                write!(f, "{path} = {value} is outside its range ({range})")
            }
            Self::Anchors(message) => write!(f, "preset anchors: {message}"),
            Self::Topology(message) => write!(f, "preset objects: {message}"),
            Self::Tuning(message) => write!(f, "tuning: {message}"),
            Self::Family(message) => write!(f, "family: {message}"),
            Self::File { path, reason } => write!(f, "{path}: {reason}"),
            Self::Io(message) => write!(f, "cannot read preset: {message}"),
            Self::UnknownPath(path) => {
                write!(f, "the preset has no property `{}`", excerpt(path))
            }
            Self::CannotInherit { path, reason } => {
                write!(f, "{} cannot inherit: {reason}", excerpt(path))
            }
            Self::Unknown { name, builtin } => write!(
                f,
                "no preset `{}`: neither a file nor a built-in preset ({})",
                excerpt(name),
                builtin.join(", ")
            ),
        }
    }
}

impl std::error::Error for PresetError {}
