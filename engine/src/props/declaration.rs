//! A property declared once (Lloyd & Stavness, "ArtiSynth Description and
//! Design Overview", 2014, Section 2.4: a property says what it is): its
//! name, unit, kind of number, range, default, description, whether it is
//! inherited and whether it changes while the instrument plays. Preset
//! fields (`fields!`, `anchor_fields!`), a mechanism's parts and springs,
//! and the properties a family's mechanics change live all declare
//! themselves with a [`Declaration`]; what an editor, a host parameter, MIDI
//! learn or a probe needs to know about one property in one instrument is a
//! [`PropertyInfo`]: its declaration and the range it has there.

use std::ops::Deref;

use super::access::PropertyError;

/// What kind of number a property holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// A real number.
    Real,
    /// A MIDI key: a whole number, 0 to 127.
    MidiKey,
    /// A whole count, 0 to 4 294 967 295.
    Count,
    /// A switch: 0 (off) or 1 (on).
    Switch,
}

impl ValueKind {
    /// The values the type holds, whatever its declaration says.
    pub fn range(self) -> (f64, f64) {
        match self {
            Self::Real => (f64::NEG_INFINITY, f64::INFINITY),
            Self::MidiKey => (0.0, 127.0),
            Self::Count => (0.0, f64::from(u32::MAX)),
            Self::Switch => (0.0, 1.0),
        }
    }

    /// Whether its values are whole numbers (a slider steps by 1).
    pub fn is_whole(self) -> bool {
        self != Self::Real
    }
}

/// The values a property may take by itself: `min` to `max` in its unit,
/// and the same in words for an error (`"0.01 to 3 m"`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeclaredRange {
    /// Least value.
    pub min: f64,
    /// Greatest value.
    pub max: f64,
    /// The range in words.
    pub text: &'static str,
}

impl DeclaredRange {
    /// Whether `value` is finite and lies within the range.
    pub fn holds(&self, value: f64) -> bool {
        value.is_finite() && value >= self.min && value <= self.max
    }
}

/// A property, declared once, where its owner is defined.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Declaration {
    /// The name after the `:` of a path.
    pub name: &'static str,
    /// SI unit (`"Hz"`, `"m"`, `"kg"`, `"1/s"`, `"s/m"`, `"cents"`…), or `""`
    /// for a ratio, a count, a MIDI key or a switch.
    pub unit: &'static str,
    /// What kind of number it holds.
    pub kind: ValueKind,
    /// The values it may take, where the property alone bounds them.
    pub range: Option<DeclaredRange>,
    /// The property of the same owner it may not fall below (`highest_key`
    /// is at least `lowest_key`), by name.
    pub at_least: Option<&'static str>,
    /// Its value where its owner does not give it (an anchor field no anchor
    /// gives, a field a preset file leaves out), if it has one.
    pub default: Option<f64>,
    /// One line for a musician or sound designer.
    pub description: &'static str,
    /// Whether its value may come from elsewhere: given at some keys and
    /// interpolated along the keyboard between them (a preset's anchor
    /// fields), or taken from the nearest ancestor component that sets it
    /// (a [`super::PropertyTree`]).
    pub inheritable: bool,
    /// Whether it changes while the instrument plays, without a rebuild: the
    /// worker's mechanics take it as an edit (a grand action's let-off, a
    /// clock's time).
    pub live: bool,
}

impl Declaration {
    /// A real property called `name` in `unit`, described by `description`,
    /// with no range, default, order, inheritance or live edit: the start of
    /// a declaration written out by hand (the macros write the others).
    pub const fn real(name: &'static str, unit: &'static str, description: &'static str) -> Self {
        Self {
            name,
            unit,
            kind: ValueKind::Real,
            range: None,
            at_least: None,
            default: None,
            description,
            inheritable: false,
            live: false,
        }
    }

    /// The same declaration with `range`.
    pub const fn within(mut self, range: DeclaredRange) -> Self {
        self.range = Some(range);
        self
    }

    /// The same declaration, changed while playing.
    pub const fn changed_live(mut self) -> Self {
        self.live = true;
        self
    }

    /// The same declaration, inheritable.
    pub const fn inherited(mut self) -> Self {
        self.inheritable = true;
        self
    }

    /// The declaration called `name` in `declarations`.
    pub fn find<'a>(declarations: &'a [Self], name: &str) -> Option<&'a Self> {
        declarations.iter().find(|d| d.name == name)
    }
}

/// The default `declarations` give field `name`: what a preset that leaves
/// the field out reads (serde's `default = "…"` functions return it). NaN,
/// which validation refuses by name, if it declares none.
pub fn declared_default(declarations: &[Declaration], name: &str) -> f64 {
    Declaration::find(declarations, name)
        .and_then(|field| field.default)
        .unwrap_or(f64::NAN)
}

/// How far a slider reaches from the end of a range that is bounded when
/// the other end is left open: a soundboard's `seed`, which may be any whole
/// number, offers 0 to 1000.
const OPEN_SLIDER_SPAN: f64 = 1000.0;

/// A slider is logarithmic when its range is positive and its ends lie at
/// least this far apart (a factor of 100: two decades).
const LOGARITHMIC_SPAN: f64 = 100.0;

/// What one property is in one instrument, for a property panel, a host
/// parameter, MIDI learn or an edit check: its [`Declaration`] (reached
/// through `Deref`: `info.unit`, `info.kind`…) and the range it has there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PropertyInfo {
    /// The property's declaration.
    pub declaration: Declaration,
    /// The lowest and highest values an edit may give it, with the rest of
    /// the instrument as it is: its declared range, narrowed by the
    /// properties it is ordered with and by the rules of the instrument it
    /// is part of (a rod's key is one of the keyboard's), and by what its
    /// kind of number holds.
    pub range: (f64, f64),
    /// The span a slider should offer: `range`, except where an end is left
    /// open (a count, a seed) it stops 1000 from the other end. Always
    /// finite.
    pub slider: (f64, f64),
    /// Whether a slider should be logarithmic: a real, positive range
    /// spanning two decades or more.
    pub logarithmic: bool,
}

impl PropertyInfo {
    /// `declaration` bounded to `bounds` in its instrument (infinite where
    /// nothing bounds it), besides its declared range and its kind's.
    pub fn new(declaration: Declaration, bounds: (f64, f64)) -> Self {
        let declared = declaration
            .range
            .map_or((f64::NEG_INFINITY, f64::INFINITY), |r| (r.min, r.max));
        let bounded = (declared.0.max(bounds.0), declared.1.min(bounds.1));
        let kind = declaration.kind;
        let typed = kind.range();
        let range = (bounded.0.max(typed.0), bounded.1.min(typed.1));
        let slider = slider(kind, bounded, range);
        Self {
            declaration,
            range,
            slider,
            logarithmic: kind == ValueKind::Real
                && slider.0 > 0.0
                && slider.1 >= LOGARITHMIC_SPAN * slider.0,
        }
    }

    /// `declaration` with its declared range only.
    pub fn declared(declaration: Declaration) -> Self {
        Self::new(declaration, (f64::NEG_INFINITY, f64::INFINITY))
    }

    /// Whether `value` lies in the range (so is not NaN).
    pub fn accepts(&self, value: f64) -> bool {
        value >= self.range.0 && value <= self.range.1
    }

    /// `Ok` if `value` lies in the range, else the error naming `path`,
    /// the value and the range.
    pub fn check(&self, path: &str, value: f64) -> Result<(), PropertyError> {
        if self.accepts(value) {
            return Ok(());
        }
        let (min, max) = self.range;
        Err(PropertyError::OutOfRange {
            path: path.to_string(),
            value,
            min,
            max,
        })
    }
}

impl Deref for PropertyInfo {
    type Target = Declaration;

    fn deref(&self) -> &Declaration {
        &self.declaration
    }
}

/// The span a slider offers over `range`, given the `bounded` range
/// (infinite where nothing bounds an end); see [`PropertyInfo::slider`].
fn slider(kind: ValueKind, bounded: (f64, f64), range: (f64, f64)) -> (f64, f64) {
    let open_below = kind == ValueKind::Real && bounded.0.is_infinite();
    let open_above = matches!(kind, ValueKind::Real | ValueKind::Count) && bounded.1.is_infinite();
    match (open_below, open_above) {
        (false, false) => range,
        (false, true) => (range.0, range.0 + OPEN_SLIDER_SPAN),
        (true, false) => (range.1 - OPEN_SLIDER_SPAN, range.1),
        (true, true) => (-OPEN_SLIDER_SPAN, OPEN_SLIDER_SPAN),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STIFFNESS: Declaration =
        Declaration::real("stiffness", "N/m", "spring constant").within(DeclaredRange {
            min: 1e3,
            max: 1e9,
            text: "1e3 to 1e9 N/m",
        });

    #[test]
    fn the_range_is_the_declared_one_narrowed_by_the_instrument() {
        let info = PropertyInfo::new(STIFFNESS, (0.0, 1e6));
        assert_eq!(info.range, (1e3, 1e6));
        assert_eq!(info.slider, (1e3, 1e6));
        assert!(info.logarithmic);
        assert!(info.accepts(1e6) && !info.accepts(1.1e6) && !info.accepts(f64::NAN));
        assert_eq!(info.unit, "N/m");
    }

    #[test]
    fn an_open_end_gets_a_finite_slider_and_a_kind_bounds_the_range() {
        let seed = Declaration {
            kind: ValueKind::Count,
            ..Declaration::real("seed", "", "random seed")
        };
        let info = PropertyInfo::declared(seed);
        assert_eq!(info.range, (0.0, f64::from(u32::MAX)));
        assert_eq!(info.slider, (0.0, OPEN_SLIDER_SPAN));
        assert!(!info.logarithmic);
        let free = PropertyInfo::declared(Declaration::real("x", "m", "position"));
        assert_eq!(free.slider, (-OPEN_SLIDER_SPAN, OPEN_SLIDER_SPAN));
    }
}
