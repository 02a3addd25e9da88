//! The numeric fields of every part of a preset, by name, with their units and
//! what they do to the sound: what property paths reach and editors show.

use super::anchored::Anchored;

/// What a field is, for a musician: its name, SI unit (`""` for a ratio or a
/// count), the range its values must lie in and one line on what it does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct About {
    /// The name after the `:` of a path.
    pub name: &'static str,
    /// SI unit.
    pub unit: &'static str,
    /// The values it may take, if the field itself bounds them (a range that
    /// depends on other fields or on the rest of the instrument is checked by
    /// the object's own rules instead).
    pub range: Option<DeclaredRange>,
    /// One line for a musician or sound designer.
    pub description: &'static str,
}

/// The values a field may take: `min` to `max` in its unit, and the same in
/// words for an error (`"0.01 to 3 m"`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeclaredRange {
    /// Least value.
    pub min: f64,
    /// Greatest value.
    pub max: f64,
    /// The range in words.
    pub text: &'static str,
}

/// `Some(range)` for a field declared with `[min, max, "text"]`, `None`
/// without: what the `fields!` and `anchor_fields!` macros expand a field's
/// optional range to.
#[doc(hidden)]
#[macro_export]
macro_rules! declared_range {
    () => {
        None
    };
    ([$min:expr, $max:expr, $text:literal]) => {
        Some($crate::instrument::DeclaredRange {
            min: $min,
            max: $max,
            text: $text,
        })
    };
}

/// A numeric field, whatever its type.
pub enum Field<'a> {
    /// A real number.
    Real(&'a mut f64),
    /// A MIDI key, 0 to 127.
    Key(&'a mut u8),
    /// A whole number.
    Count(&'a mut u32),
    /// A switch, 0 or 1.
    Switch(&'a mut bool),
}

impl Field<'_> {
    /// Its value as a number.
    pub fn get(&self) -> f64 {
        match self {
            Self::Real(x) => **x,
            Self::Key(x) => f64::from(**x),
            Self::Count(x) => f64::from(**x),
            Self::Switch(x) => f64::from(u8::from(**x)),
        }
    }

    /// What kind of number it holds.
    pub fn kind(&self) -> ValueKind {
        match self {
            Self::Real(_) => ValueKind::Real,
            Self::Key(_) => ValueKind::MidiKey,
            Self::Count(_) => ValueKind::Count,
            Self::Switch(_) => ValueKind::Switch,
        }
    }

    /// Stores `value`, which must suit the field's type: a whole MIDI key, a
    /// whole count, 0 or 1 for a switch.
    pub fn set(&mut self, value: f64) -> Result<(), &'static str> {
        let whole = value.fract() == 0.0;
        match self {
            Self::Real(x) => **x = value,
            Self::Key(x) if whole && (0.0..=127.0).contains(&value) => **x = value as u8,
            Self::Key(_) => return Err("a MIDI key, 0 to 127"),
            Self::Count(x) if whole && (0.0..=f64::from(u32::MAX)).contains(&value) => {
                **x = value as u32;
            }
            Self::Count(_) => return Err("a whole number"),
            Self::Switch(x) if value == 0.0 || value == 1.0 => **x = value == 1.0,
            Self::Switch(_) => return Err("0 or 1"),
        }
        Ok(())
    }
}

/// The numeric fields of a part of a preset, by name.
pub trait Fields {
    /// Every numeric field, in the order the preset lists them.
    fn about(&self) -> &'static [About];
    /// One field.
    fn field(&mut self, name: &str) -> Option<Field<'_>>;
    /// The value of one field, as a number.
    fn value(&self, name: &str) -> Option<f64>;
}

/// Declares the numeric fields of a part of a preset (`Fields`): each field
/// with its type (`Real`, `Key`, `Count`, `Switch`), SI unit and one line on
/// what it does, and where the field alone bounds its values, its range:
/// `fields!(Spec { mass_kg: Real, "kg", [1e-4, 100.0, "0.1 g to 100 kg"], "Mass of each bar"; })`.
/// [`crate::instrument::Checker::declared`] checks the ranges, and editors
/// offer them.
#[macro_export]
macro_rules! fields {
    ($ty:ty { $($field:ident: $kind:ident, $unit:literal, $([$($range:tt)*],)? $description:literal;)* }) => {
        impl $crate::instrument::Fields for $ty {
            fn about(&self) -> &'static [$crate::instrument::About] {
                &[$($crate::instrument::About {
                    name: stringify!($field),
                    unit: $unit,
                    range: $crate::declared_range!($([$($range)*])?),
                    description: $description,
                }),*]
            }

            #[allow(clippy::match_single_binding)] // a part without fields
            fn value(&self, name: &str) -> Option<f64> {
                match name {
                    $(stringify!($field) => {
                        Some($crate::instrument::Field::$kind(&mut self.$field.clone()).get())
                    })*
                    _ => None,
                }
            }

            #[allow(clippy::match_single_binding)] // a part without fields
            fn field(&mut self, name: &str) -> Option<$crate::instrument::Field<'_>> {
                match name {
                    $(stringify!($field) => Some($crate::instrument::Field::$kind(&mut self.$field)),)*
                    _ => None,
                }
            }
        }
    };
}

/// The optional fields of one anchor (all real numbers), by name.
pub trait AnchorFields: Anchored + Sized {
    /// Every field, in the order presets list them.
    const ABOUT: &'static [About];

    /// An anchor at `key` that gives no field.
    fn empty(key: u8) -> Self;

    /// The field called `name`: `Some(value)` if the anchor gives it, `Some(None)`
    /// if not, `None` if there is no such field.
    fn slot(&self, name: &str) -> Option<Option<f64>>;

    /// The field called `name`, to give or take away.
    fn slot_mut(&mut self, name: &str) -> Option<&mut Option<f64>>;

    /// The value of field `name` where no anchor gives it, if it has one; the
    /// other fields must be given by at least one anchor.
    fn ungiven(name: &str) -> Option<f64>;

    /// Whether the anchors have a field called `name`.
    fn has_field(name: &str) -> bool {
        Self::ABOUT.iter().any(|field| field.name == name)
    }

    /// Whether the anchor gives field `name`.
    fn gives(&self, name: &str) -> bool {
        self.slot(name).flatten().is_some()
    }

    /// Whether the anchor gives no field at all.
    fn gives_nothing(&self) -> bool {
        Self::ABOUT.iter().all(|field| !self.gives(field.name))
    }
}

/// Declares the optional fields of an anchor (`AnchorFields`), all real
/// numbers: each with its SI unit, its range (`[min, max, "text"]`) if the
/// field alone bounds it, one line on what it does and, for a field not
/// every preset gives, `= VALUE` where no anchor gives it.
#[macro_export]
macro_rules! anchor_fields {
    ($ty:ident { $($field:ident $(= $ungiven:expr)?, $unit:literal, $([$($range:tt)*],)? $description:literal;)* }) => {
        impl $crate::instrument::AnchorFields for $ty {
            const ABOUT: &'static [$crate::instrument::About] = &[$($crate::instrument::About {
                name: stringify!($field),
                unit: $unit,
                range: $crate::declared_range!($([$($range)*])?),
                description: $description,
            }),*];

            fn empty(key: u8) -> Self {
                Self { key, $($field: None),* }
            }

            fn slot(&self, name: &str) -> Option<Option<f64>> {
                match name {
                    $(stringify!($field) => Some(self.$field),)*
                    _ => None,
                }
            }

            fn slot_mut(&mut self, name: &str) -> Option<&mut Option<f64>> {
                match name {
                    $(stringify!($field) => Some(&mut self.$field),)*
                    _ => None,
                }
            }

            fn ungiven(name: &str) -> Option<f64> {
                match name {
                    $(stringify!($field) => {
                        let fallback: &[f64] = &[$($ungiven)?];
                        fallback.first().copied()
                    })*
                    _ => None,
                }
            }
        }
    };
}

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
    /// The values the type holds, whatever validation says.
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
