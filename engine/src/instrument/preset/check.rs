//! Range checks that name the property path of the offending value.
//!
//! The same checks serve twice: [`Preset::validate`](super::Preset::validate)
//! runs them to fail at the first bad value, and the editor's
//! [`property_info`](super::Preset::property_info) runs them in *recording*
//! mode, where every check notes its range instead of failing. The ranges an
//! editor offers are so exactly those validation accepts.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use super::error::PresetError;
use super::fields::{About, AnchorFields, Fields};

/// The ranges recorded by a recording [`Checker`]: property path → (lowest,
/// highest) allowed value, the intersection of every check of that path. The
/// fields of anchors are recorded once per set, under `every_key`.
pub(super) type Ranges = BTreeMap<String, (f64, f64)>;

/// The component under which the ranges of a set's anchor fields are
/// recorded: they are the same at every key.
pub(super) fn every_key(set: &str) -> String {
    format!("{set}/key/*")
}

/// Checks the values of one component of a preset, naming them by property path
/// (`component:property`, e.g. `hammers/anchor/60:felt_exponent`).
#[derive(Debug, Clone)]
pub struct Checker {
    component: String,
    /// Where ranges are recorded, in recording mode.
    recorded: Option<Rc<RefCell<Ranges>>>,
}

impl Checker {
    /// Checks at the preset's root that fail at the first bad value.
    pub fn checking() -> Self {
        Self {
            component: String::new(),
            recorded: None,
        }
    }

    /// Checks at the preset's root that record every range and never fail on
    /// a value (see [`Checker::ranges`]).
    pub fn recording() -> Self {
        Self {
            component: String::new(),
            recorded: Some(Rc::default()),
        }
    }

    /// The ranges recorded so far (none when checking).
    pub fn ranges(&self) -> Ranges {
        self.recorded
            .as_ref()
            .map(|r| r.borrow().clone())
            .unwrap_or_default()
    }

    /// Checks, in the same mode, for the component at `component` (e.g.
    /// `tuning`, `hammers`).
    pub fn child(&self, component: &str) -> Self {
        Self {
            component: component.to_string(),
            recorded: self.recorded.clone(),
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
    pub fn out_of_range(&self, property: &str, value: f64, range: &'static str) -> PresetError {
        PresetError::OutOfRange {
            path: self.path(property),
            value,
            range,
        }
    }

    /// Notes that `property` lies within `lo..=hi`, when recording.
    fn record(&self, property: &str, lo: f64, hi: f64) {
        if let Some(recorded) = &self.recorded {
            recorded
                .borrow_mut()
                .entry(self.path(property))
                .and_modify(|(l, h)| {
                    *l = l.max(lo);
                    *h = h.min(hi);
                })
                .or_insert((lo, hi));
        }
    }

    /// `value` must be finite and within `lo..=hi`, described as `range`; a
    /// value not given (an anchor's inherited field) passes.
    pub fn range(
        &self,
        property: &str,
        value: impl Into<Option<f64>>,
        lo: f64,
        hi: f64,
        range: &'static str,
    ) -> Result<(), PresetError> {
        self.record(property, lo, hi);
        match value.into() {
            Some(v) if self.recorded.is_none() && !(v.is_finite() && v >= lo && v <= hi) => {
                Err(self.out_of_range(property, v, range))
            }
            _ => Ok(()),
        }
    }

    /// Two properties that bound each other: `low` may not exceed `high`
    /// (each a name and value). Fails naming `high`, with `range`.
    pub fn ordered(
        &self,
        (low_name, low): (&str, f64),
        (high_name, high): (&str, f64),
        range: &'static str,
    ) -> Result<(), PresetError> {
        self.record(low_name, f64::NEG_INFINITY, high);
        self.record(high_name, low, f64::INFINITY);
        if self.recorded.is_none() && low > high {
            return Err(self.out_of_range(high_name, high, range));
        }
        Ok(())
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
        if ok || self.recorded.is_some() {
            Ok(())
        } else {
            Err(self.out_of_range(property, value, range))
        }
    }

    /// Checks every field of `fields` declared with a range against it
    /// (see `fields!`), in the order they are declared.
    pub fn declared(&self, fields: &dyn Fields) -> Result<(), PresetError> {
        self.declared_ranges(fields.about(), |name| fields.value(name))
    }

    /// Checks every field `anchor` gives against its declared range (see
    /// `anchor_fields!`).
    pub fn declared_anchor<A: AnchorFields>(&self, anchor: &A) -> Result<(), PresetError> {
        self.declared_ranges(A::ABOUT, |name| anchor.slot(name).flatten())
    }

    /// Checks each of `about`'s fields that has a range: its value, as
    /// `value` reads it by name (`None`: not given, only recorded).
    fn declared_ranges(
        &self,
        about: &[About],
        value: impl Fn(&str) -> Option<f64>,
    ) -> Result<(), PresetError> {
        for field in about {
            if let Some(range) = field.range {
                self.range(
                    field.name,
                    value(field.name),
                    range.min,
                    range.max,
                    range.text,
                )?;
            }
        }
        Ok(())
    }

    /// Checks a set's anchors: they exist, are MIDI keys, rise strictly, each
    /// gives a value, and every field without a fallback is given by at least
    /// one; then `check` runs on each anchor with a checker for its path
    /// (`NAME/anchor/KEY`). When recording, `check` runs once, on an anchor
    /// that gives nothing, under `every_key`.
    pub fn each_anchor<A: AnchorFields>(
        &self,
        anchors: &[A],
        check: impl Fn(&Self, &A) -> Result<(), PresetError>,
    ) -> Result<(), PresetError> {
        if self.recorded.is_some() {
            return check(&self.child(&every_key(&self.component)), &A::empty(0));
        }
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
        let missing = A::ABOUT.iter().find(|field| {
            A::ungiven(field.name).is_none() && anchors.iter().all(|a| !a.gives(field.name))
        });
        match missing {
            Some(field) => error(format!("{} is given by no anchor", field.name)),
            None => Ok(()),
        }
    }
}
