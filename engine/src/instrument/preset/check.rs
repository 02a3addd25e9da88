//! Range checks that name the property path of the offending value.
//!
//! What a value may be is declared, not found by running code: each field's
//! own range and the field it may not fall below ([`Declaration`]), and the
//! ranges an instrument's rules give its properties ([`Bound`]). Validation
//! ([`Preset::check_values`](super::Preset::check_values)) checks values
//! against those declarations, and the editor's
//! [`property_info`](super::Preset::property_info) offers the same ranges,
//! so the two agree by construction. Conditions that are no range of one
//! property (how many values a list holds) are checked with
//! [`Checker::require`].

use std::borrow::Cow;

use super::bound::Bound;
use super::error::PresetError;
use super::fields::{AnchorFields, Fields};
use crate::props::DeclaredRange;

/// Checks the values of one component of a preset, naming them by property path
/// (`component:property`, e.g. `hammers/anchor/60:felt_exponent`).
#[derive(Debug, Clone, Default)]
pub struct Checker {
    component: String,
}

impl Checker {
    /// Checks at the preset's root, failing at the first bad value.
    pub fn checking() -> Self {
        Self::default()
    }

    /// Checks for the component at `component` (e.g. `tuning`, `hammers`).
    pub fn child(&self, component: &str) -> Self {
        Self {
            component: component.to_string(),
        }
    }

    /// Checks for the anchor at `key` below this component.
    fn anchor(&self, key: u8) -> Self {
        self.child(&format!("{}/anchor/{key}", self.component))
    }

    /// The component it checks (`hammers`, `strings/anchor/60`).
    pub fn component(&self) -> &str {
        &self.component
    }

    /// The path of `property` of this component.
    pub fn path(&self, property: &str) -> String {
        format!("{}:{property}", self.component)
    }

    /// The error for `property` = `value` outside `range` (in words).
    pub fn out_of_range(
        &self,
        property: &str,
        value: f64,
        range: impl Into<Cow<'static, str>>,
    ) -> PresetError {
        PresetError::OutOfRange {
            path: self.path(property),
            value,
            range: range.into(),
        }
    }

    /// `value` must be finite and within `range`; a value not given (an
    /// anchor's inherited field) passes.
    pub fn within(
        &self,
        property: &str,
        value: impl Into<Option<f64>>,
        range: DeclaredRange,
    ) -> Result<(), PresetError> {
        match value.into() {
            Some(v) if !range.holds(v) => Err(self.out_of_range(property, v, range.text)),
            _ => Ok(()),
        }
    }

    /// A condition on `property` that is not a range (how many values a list
    /// holds): fails unless `ok`, when checking.
    pub fn require(
        &self,
        ok: bool,
        property: &str,
        value: f64,
        range: &'static str,
    ) -> Result<(), PresetError> {
        if ok {
            Ok(())
        } else {
            Err(self.out_of_range(property, value, range))
        }
    }

    /// Checks every field of `fields` against its declaration (see
    /// `fields!`): its range, and the field it may not fall below, in the
    /// order they are declared.
    pub fn declared(&self, fields: &dyn Fields) -> Result<(), PresetError> {
        let declarations = fields.declarations();
        for field in declarations {
            let value = fields.value(field.name);
            if let Some(range) = field.range {
                self.within(field.name, value, range)?;
            }
            let low = field.at_least.and_then(|low| fields.value(low));
            if let (Some(value), Some(low)) = (value, low)
                && value < low
            {
                let text = format!("at least {}", field.at_least.unwrap_or_default());
                return Err(self.out_of_range(field.name, value, text));
            }
        }
        Ok(())
    }

    /// Checks every field `anchor` gives against its declared range (see
    /// `anchor_fields!`).
    pub fn declared_anchor<A: AnchorFields>(&self, anchor: &A) -> Result<(), PresetError> {
        for field in A::DECLARATIONS {
            if let Some(range) = field.range {
                self.within(field.name, anchor.slot(field.name).flatten(), range)?;
            }
        }
        Ok(())
    }

    /// Checks `value` of `property` against `bound`, a range a rule of the
    /// instrument gives it.
    pub(super) fn bound(
        &self,
        property: &str,
        value: f64,
        bound: &Bound,
    ) -> Result<(), PresetError> {
        self.within(property, value, bound.range)
    }

    /// Checks a set's anchors: they exist, are MIDI keys, rise strictly, each
    /// gives a value, and every field without a fallback is given by at least
    /// one; then `check` runs on each anchor with a checker for its path
    /// (`NAME/anchor/KEY`).
    pub fn each_anchor<A: AnchorFields>(
        &self,
        anchors: &[A],
        check: impl Fn(&Self, &A) -> Result<(), PresetError>,
    ) -> Result<(), PresetError> {
        self.anchors(anchors)?;
        for anchor in anchors {
            check(&self.anchor(anchor.key()), anchor)?;
        }
        Ok(())
    }

    /// The structure of a set's anchors (see [`Checker::each_anchor`]).
    fn anchors<A: AnchorFields>(&self, anchors: &[A]) -> Result<(), PresetError> {
        let path = self.path("anchor");
        let error = |message: String| Err(PresetError::Anchors(format!("{path}: {message}")));
        if anchors.is_empty() {
            return error("at least one anchor is needed".into());
        }
        if let Some(a) = anchors.iter().find(|a| a.key() > 127) {
            return error(format!("key {} is not a MIDI key", a.key()));
        }
        if let Some(pair) = anchors
            .windows(2)
            .find(|pair| pair[0].key() >= pair[1].key())
        {
            return error(format!(
                "keys must rise strictly, but {} is followed by {}",
                pair[0].key(),
                pair[1].key()
            ));
        }
        if let Some(a) = anchors.iter().find(|a| a.gives_nothing()) {
            return error(format!("the anchor at key {} gives no value", a.key()));
        }
        let missing = A::DECLARATIONS.iter().find(|field| {
            A::ungiven(field.name).is_none() && anchors.iter().all(|a| !a.gives(field.name))
        });
        match missing {
            Some(field) => error(format!("{} is given by no anchor", field.name)),
            None => Ok(()),
        }
    }
}
