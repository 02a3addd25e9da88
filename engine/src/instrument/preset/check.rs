//! Range checks that name the property path of the offending value.

use super::PresetError;
use super::anchored::Anchored;

/// Checks the values of one component of a preset, naming them by property path
/// (`component:property`, e.g. `hammers/anchor/60:felt_exponent`).
#[derive(Debug, Clone)]
pub(super) struct Checker {
    component: String,
}

impl Checker {
    /// Checks for the component at `component` (e.g. `tuning`, `hammers`).
    pub fn new(component: &str) -> Self {
        Self {
            component: component.to_string(),
        }
    }

    /// Checks for the anchor at `key` below this component.
    pub fn anchor(&self, key: u8) -> Self {
        Self {
            component: format!("{}/anchor/{key}", self.component),
        }
    }

    /// The path of `property` of this component.
    pub fn path(&self, property: &str) -> String {
        format!("{}:{property}", self.component)
    }

    /// The error for `property` = `value` outside `range` (in words).
    pub fn out_of_range(&self, property: &str, value: f64, range: &'static str) -> PresetError {
        PresetError::OutOfRange {
            path: self.path(property),
            value,
            range,
        }
    }

    /// `value` must be finite and within `lo..=hi`, described as `range`.
    pub fn range(
        &self,
        property: &str,
        value: f64,
        lo: f64,
        hi: f64,
        range: &'static str,
    ) -> Result<(), PresetError> {
        if value.is_finite() && value >= lo && value <= hi {
            Ok(())
        } else {
            Err(self.out_of_range(property, value, range))
        }
    }

    /// Anchors must exist, be MIDI keys, and rise strictly.
    pub fn anchors<A: Anchored>(&self, anchors: &[A]) -> Result<(), PresetError> {
        let path = self.path("anchor");
        if anchors.is_empty() {
            return Err(PresetError::Anchors(format!(
                "{path}: at least one anchor is needed"
            )));
        }
        if let Some(a) = anchors.iter().find(|a| a.key() > 127) {
            return Err(PresetError::Anchors(format!(
                "{path}: key {} is not a MIDI key",
                a.key()
            )));
        }
        match anchors
            .windows(2)
            .find(|pair| pair[0].key() >= pair[1].key())
        {
            Some(pair) => Err(PresetError::Anchors(format!(
                "{path}: keys must rise strictly, but {} is followed by {}",
                pair[0].key(),
                pair[1].key()
            ))),
            None => Ok(()),
        }
    }
}
