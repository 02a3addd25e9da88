//! Ranges an instrument's rules give its properties, beyond what each field
//! declares about itself: a strike position within what its target allows,
//! a clock's rod on a key of the keyboard, a grand action's keys. Each rule
//! declares its range as data ([`Bound`]); validation checks the values
//! against it and editors offer it, so the two agree.

use crate::props::DeclaredRange;

/// The range a rule of the instrument gives the field `field` of the
/// component `component`: an object's own field (`clock:bell_1_key`), the
/// same field at every anchor of a set (`strike:position`,
/// `pins:felt_hysteresis_s_per_m`), or a field of the core
/// (`keyboard:lowest_key`).
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    /// The component: a part of the core, or an object's name.
    pub component: String,
    /// The field's name.
    pub field: &'static str,
    /// Its range, in words for an error.
    pub range: DeclaredRange,
}

impl Bound {
    /// `component:field` lies within `range`.
    pub fn new(component: impl Into<String>, field: &'static str, range: DeclaredRange) -> Self {
        Self {
            component: component.into(),
            field,
            range,
        }
    }
}

/// The range `bounds` give `field` of `component`: the intersection of
/// theirs (unbounded if none does).
pub(super) fn bounds_of(bounds: &[Bound], component: &str, field: &str) -> (f64, f64) {
    bounds
        .iter()
        .filter(|b| b.component == component && b.field == field)
        .fold((f64::NEG_INFINITY, f64::INFINITY), |(lo, hi), b| {
            (lo.max(b.range.min), hi.min(b.range.max))
        })
}
