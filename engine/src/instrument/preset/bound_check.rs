//! Finding and checking the ranges an instrument's rules give its
//! properties ([`Bound`]).

use super::bound::Bound;
use super::check::Checker;
use super::definition::Preset;
use super::error::PresetError;
use super::object::Instrument;
use super::paths::{Part, anchor_list, part};

impl Preset {
    /// Every range the rules of `instrument` (this preset, resolved) give
    /// its properties: the strike positions its target allows, then each
    /// object's ([`super::ObjectSpec::bounds_in`]).
    pub fn bounds(&self, instrument: &Instrument<'_>) -> Vec<Bound> {
        let strike = instrument
            .topology
            .target
            .struck()
            .map(|positions| Bound::new("strike", "position", positions));
        let objects = self
            .objects
            .iter()
            .flat_map(|(name, object)| object.bounds_in(name, instrument));
        strike.into_iter().chain(objects).collect()
    }

    /// Checks every value `bounds` cover: an own field's value, or the value
    /// each anchor of a set gives (`SET/anchor/KEY:field`).
    pub(super) fn check_bounds(&self, bounds: &[Bound]) -> Result<(), PresetError> {
        let mut copy = self.clone();
        for bound in bounds {
            let root = Checker::checking();
            let component = root.child(&bound.component);
            if let Some(Part::Fields(fields)) = part(&mut copy, &bound.component)
                && let Some(value) = fields.value(bound.field)
            {
                component.bound(bound.field, value, bound)?;
                continue;
            }
            let Some(anchors) = anchor_list(&mut copy, &bound.component) else {
                continue;
            };
            for key in anchors.keys() {
                if anchors.explicit(key, bound.field) == Some(true) {
                    let value = anchors.value(key, bound.field).unwrap_or(f64::NAN);
                    let anchor = root.child(&format!("{}/anchor/{key}", bound.component));
                    anchor.bound(bound.field, value, bound)?;
                }
            }
        }
        Ok(())
    }
}
