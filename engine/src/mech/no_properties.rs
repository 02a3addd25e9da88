//! Models that have no properties for agents, edits or probes to reach.

use crate::props::{PropertyAccess, PropertyError};

/// A model with no properties (a striker thrown straight from the velocity):
/// every path is unknown to it, to read or to set. Implementing it gives the
/// [`PropertyAccess`], written once here.
pub trait NoProperties {}

impl<T: NoProperties> PropertyAccess for T {
    fn property(&self, _path: &str) -> Option<f64> {
        None
    }

    fn set_property(&mut self, path: &str, _value: f64) -> Result<(), PropertyError> {
        Err(PropertyError::UnknownPath(path.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Plain;

    impl NoProperties for Plain {}

    /// Every path is unknown: reading gives nothing, setting is refused
    /// naming the path.
    #[test]
    fn every_path_is_unknown() {
        let mut plain = Plain;
        assert_eq!(plain.property("pedals:sustain"), None);
        assert_eq!(
            plain.set_property("pedals:sustain", 1.0),
            Err(PropertyError::UnknownPath("pedals:sustain".to_string()))
        );
    }
}
