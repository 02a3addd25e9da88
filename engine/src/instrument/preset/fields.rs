//! The numeric fields of every part of a preset, by name, with their units and
//! what they do to the sound: what property paths reach and editors show.

use super::anchored::Anchored;
use crate::props::{Declaration, ValueKind};

/// `Some(range)` for a field declared with `[min, max, "text"]` or with
/// `[= RANGE]` (a [`DeclaredRange`](crate::props::DeclaredRange) constant
/// several kinds share), `None` without: what the `fields!` and
/// `anchor_fields!` macros expand a field's optional range to.
#[doc(hidden)]
#[macro_export]
macro_rules! declared_range {
    () => {
        None
    };
    ([= $range:expr]) => {
        Some($range)
    };
    ([$min:expr, $max:expr, $text:literal]) => {
        Some($crate::props::DeclaredRange {
            min: $min,
            max: $max,
            text: $text,
        })
    };
}

/// `Some(value)` for a field declared with `= value`, `None` without.
#[doc(hidden)]
#[macro_export]
macro_rules! declared_default {
    () => {
        None
    };
    ($value:expr) => {
        Some($value)
    };
}

/// `Some("name")` for a field declared with `at_least name`, `None` without.
#[doc(hidden)]
#[macro_export]
macro_rules! declared_order {
    () => {
        None
    };
    ($low:ident) => {
        Some(stringify!($low))
    };
}

/// Whether a field is declared `live` (the worker changes it while the
/// instrument plays).
#[doc(hidden)]
#[macro_export]
macro_rules! declared_live {
    () => {
        false
    };
    (live) => {
        true
    };
}

/// The [`ValueKind`] of a field of [`Field`] variant `Real`, `Key`, `Count`
/// or `Switch`.
#[doc(hidden)]
#[macro_export]
macro_rules! declared_kind {
    (Real) => {
        $crate::props::ValueKind::Real
    };
    (Key) => {
        $crate::props::ValueKind::MidiKey
    };
    (Count) => {
        $crate::props::ValueKind::Count
    };
    (Switch) => {
        $crate::props::ValueKind::Switch
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
    /// Every numeric field's declaration, in the order the preset lists them.
    fn declarations(&self) -> &'static [Declaration];
    /// One field.
    fn field(&mut self, name: &str) -> Option<Field<'_>>;
    /// The value of one field, as a number.
    fn value(&self, name: &str) -> Option<f64>;
}

/// Declares the numeric fields of a part of a preset (`Fields`), each once
/// with everything said about it ([`Declaration`]): its type (`Real`,
/// `Key`, `Count`, `Switch`) and, if a file may leave it out, `= DEFAULT`;
/// its SI unit; where the field alone bounds its values, its range
/// (`[min, max, "in words"]`, or `[= RANGE]` for a shared constant); where
/// it may not fall below another field of the part, `at_least OTHER`; one
/// line on what it does; and `, live` if the worker changes it while the
/// instrument plays:
/// `fields!(Spec { mass_kg: Real, "kg", [1e-4, 100.0, "0.1 g to 100 kg"], "Mass of each bar"; })`.
/// [`crate::instrument::Checker::declared`] checks the ranges and orders,
/// and editors offer them.
#[macro_export]
macro_rules! fields {
    ($ty:ty { $($field:ident: $kind:ident $(= $default:expr)?, $unit:literal, $([$($range:tt)*],)? $(at_least $low:ident,)? $description:literal $(, $live:ident)?;)* }) => {
        impl $ty {
            /// Every numeric field's declaration, in the order the preset
            /// lists them.
            pub const FIELDS: &'static [$crate::props::Declaration] = &[$($crate::props::Declaration {
                name: stringify!($field),
                unit: $unit,
                kind: $crate::declared_kind!($kind),
                range: $crate::declared_range!($([$($range)*])?),
                at_least: $crate::declared_order!($($low)?),
                default: $crate::declared_default!($($default)?),
                description: $description,
                inheritable: false,
                live: $crate::declared_live!($($live)?),
            }),*];
        }

        impl $crate::instrument::Fields for $ty {
            fn declarations(&self) -> &'static [$crate::props::Declaration] {
                Self::FIELDS
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
    /// Every field's declaration, in the order presets list them.
    const DECLARATIONS: &'static [Declaration];

    /// An anchor at `key` that gives no field.
    fn empty(key: u8) -> Self;

    /// The field called `name`: `Some(value)` if the anchor gives it, `Some(None)`
    /// if not, `None` if there is no such field.
    fn slot(&self, name: &str) -> Option<Option<f64>>;

    /// The field called `name`, to give or take away.
    fn slot_mut(&mut self, name: &str) -> Option<&mut Option<f64>>;

    /// The value of field `name` where no anchor gives it, if it has one
    /// (its declared default); the other fields must be given by at least
    /// one anchor.
    fn ungiven(name: &str) -> Option<f64> {
        Declaration::find(Self::DECLARATIONS, name)?.default
    }

    /// Whether the anchors have a field called `name`.
    fn has_field(name: &str) -> bool {
        Declaration::find(Self::DECLARATIONS, name).is_some()
    }

    /// Whether the anchor gives field `name`.
    fn gives(&self, name: &str) -> bool {
        self.slot(name).flatten().is_some()
    }

    /// Whether the anchor gives no field at all.
    fn gives_nothing(&self) -> bool {
        Self::DECLARATIONS
            .iter()
            .all(|field| !self.gives(field.name))
    }
}

/// Declares the optional fields of an anchor (`AnchorFields`), all real
/// numbers inherited along the keyboard, each once ([`Declaration`]): for a
/// field not every preset gives, `= VALUE` where no anchor gives it; its SI
/// unit; its range (`[min, max, "text"]`) if the field alone bounds it; one
/// line on what it does.
#[macro_export]
macro_rules! anchor_fields {
    ($ty:ident { $($field:ident $(= $ungiven:expr)?, $unit:literal, $([$($range:tt)*],)? $description:literal;)* }) => {
        impl $crate::instrument::AnchorFields for $ty {
            const DECLARATIONS: &'static [$crate::props::Declaration] = &[$($crate::props::Declaration {
                name: stringify!($field),
                unit: $unit,
                kind: $crate::props::ValueKind::Real,
                range: $crate::declared_range!($([$($range)*])?),
                at_least: None,
                default: $crate::declared_default!($($ungiven)?),
                description: $description,
                inheritable: true,
                live: false,
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
        }
    };
}
