//! Reading and writing properties by path, and why an edit is refused: what
//! every model, mechanism and family's mechanics offer to probes, editors and
//! edits.

/// Reading and writing a model's properties by path, as probes and property
/// edits do (Lloyd & Stavness, "ArtiSynth Description and Design Overview",
/// 2014, Section 2.4). Paths look like `parts/balance:inertia`: components
/// separated by `/`, then `:` and the property's name, relative to the model.
pub trait PropertyAccess {
    /// The present value of a numeric property (parameters and state such as
    /// `parts/balance:position`), or `None` if there is no such path.
    fn property(&self, path: &str) -> Option<f64>;
    /// Sets a numeric property; an unknown path or a value outside the
    /// property's range is an error naming both.
    fn set_property(&mut self, path: &str, value: f64) -> Result<(), PropertyError>;
}

/// Why a property could not be read or set.
#[derive(Debug, Clone, PartialEq)]
pub enum PropertyError {
    /// No component or property at this path.
    UnknownPath(String),
    /// The value lies outside the property's range.
    OutOfRange {
        /// The property's path.
        path: String,
        /// The value given.
        value: f64,
        /// Smallest allowed value.
        min: f64,
        /// Largest allowed value.
        max: f64,
    },
    /// A property that exists but cannot be set (a derived quantity).
    ReadOnly(String),
}

impl std::fmt::Display for PropertyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::UnknownPath(path) => write!(f, "no property at `{path}`"),
            Self::OutOfRange {
                path,
                value,
                min,
                max,
            } => write!(f, "`{path}` = {value} is outside its range [{min}, {max}]"),
            Self::ReadOnly(path) => write!(f, "`{path}` cannot be set"),
        }
    }
}

impl std::error::Error for PropertyError {}
