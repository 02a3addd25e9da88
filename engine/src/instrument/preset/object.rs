//! What every object of a preset is, whatever its kind: the contract an
//! object kind fulfils to be listed, read, edited, checked and joined to a
//! strike.
//!
//! The preset knows no kind by name. The kinds that several families share
//! (stiff strings, felt hammers, bars) are [`super::SHARED_KINDS`];
//! each family declares its own (a grand's action, a clock's movement) in its
//! folder, and the family registry (`crate::families`) gathers them all to
//! read a preset's tables. A family defined outside the engine brings its own
//! kinds the same way.

use std::any::Any;
use std::fmt;

use serde::de::DeserializeOwned;

use super::anchor_list::AnchorList;
use super::bars::{BarEnds, BarSet};
use super::bound::Bound;
use super::check::Checker;
use super::error::PresetError;
use super::fields::Fields;
use super::hammers::HammerSet;
use super::keyboard::Keyboard;
use super::strike::StrikeSpec;
use super::strings::{StringSet, fundamental_hz};
use crate::instrument::StretchedTuning;
use crate::props::DeclaredRange;

/// A kind of object: the table a preset lists such objects under
/// (`[TABLE.NAME]`), and how one is read from its table.
#[derive(Clone, Copy)]
pub struct ObjectKind {
    /// The table's name, e.g. `felt-hammers`.
    pub table: &'static str,
    /// Reads one object of the kind from the value of its `[TABLE.NAME]`
    /// (from any serde format: a preset file's TOML, an editor's JSON).
    pub read: Read,
}

impl ObjectKind {
    /// The kind listed under `table` whose objects are `T`s, read as serde
    /// reads them.
    pub const fn of<T: ObjectSpec + DeserializeOwned>(table: &'static str) -> Self {
        Self {
            table,
            read: read_as::<T>,
        }
    }
}

impl fmt::Debug for ObjectKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ObjectKind")
            .field("table", &self.table)
            .finish_non_exhaustive()
    }
}

/// How an object kind reads one of its objects.
pub type Read = for<'de> fn(
    &mut dyn erased_serde::Deserializer<'de>,
) -> Result<Box<dyn ObjectSpec>, erased_serde::Error>;

fn read_as<T: ObjectSpec + DeserializeOwned>(
    deserializer: &mut dyn erased_serde::Deserializer<'_>,
) -> Result<Box<dyn ObjectSpec>, erased_serde::Error> {
    erased_serde::deserialize::<T>(deserializer)
        .map(|object| Box::new(object) as Box<dyn ObjectSpec>)
}

/// Which part of the strike an object acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrikePart {
    /// The hammers (an action throws them, a clock's trains lift them).
    Hammers,
    /// What the hammers strike (dampers press on it, a board is driven by it).
    Target,
}

/// How an object joins the strike: its field `role` names `name`, which must
/// be the strike's `part`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link<'a> {
    /// The field that names it (`drives`, `on`, `driven_by`).
    pub role: &'static str,
    /// The object it names.
    pub name: &'a str,
    /// Which of the strike's objects it must be.
    pub part: StrikePart,
}

impl<'a> Link<'a> {
    /// The object's field `role` names the strike's hammers, `name`.
    pub fn to_hammers(role: &'static str, name: &'a str) -> Self {
        Self {
            role,
            name,
            part: StrikePart::Hammers,
        }
    }

    /// The object's field `role` names the strike's target, `name`.
    pub fn to_target(role: &'static str, name: &'a str) -> Self {
        Self {
            role,
            name,
            part: StrikePart::Target,
        }
    }
}

/// One object of an instrument: its values by name, its checks, and how it
/// joins the others. Implemented by each object kind's spec (serde data);
/// [`ObjectData`] gives the object-safe copies and comparisons.
pub trait ObjectSpec: ObjectData + fmt::Debug + erased_serde::Serialize + Send + Sync {
    /// Its kind's table (`stiff-strings`, `music-box`).
    fn kind(&self) -> &'static str;

    /// Its values at anchor keys, if it has any (`NAME/anchor/KEY:field`,
    /// `NAME/key/KEY:field`).
    fn anchors(&mut self) -> Option<&mut dyn AnchorList> {
        None
    }

    /// Checks its own values with `c`, the checker of its path (its name):
    /// by default, each field against the range it is declared with
    /// (`fields!`); a kind with rules across its fields adds them.
    fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        c.declared(self.fields())
    }

    /// How it joins the strike; `None` for the strike's own hammers and
    /// target, which join through `[[strike]]`.
    fn link(&self) -> Option<Link<'_>> {
        None
    }

    /// Where hammers may strike it, if it can be struck: the strike's
    /// positions, as fractions of its length.
    fn struck(&self) -> Option<DeclaredRange> {
        None
    }

    /// The ranges its rules give properties of the instrument once the
    /// strike is resolved (its own, or another part's: a grand action
    /// bounds the keyboard); `name` is its name. Validation checks them and
    /// editors offer them ([`Bound`]).
    fn bounds_in(&self, _name: &str, _instrument: &Instrument<'_>) -> Vec<Bound> {
        Vec::new()
    }

    /// Checks it against the rest of the instrument, once the strike is
    /// resolved, where a rule is no range of one property (which keys a
    /// list names): `name` is its name, `c` the checker at the preset's
    /// root.
    fn check_in(
        &self,
        _name: &str,
        _instrument: &Instrument<'_>,
        _c: &Checker,
    ) -> Result<(), PresetError> {
        Ok(())
    }

    /// Seeds whatever it places at random (a board's modes) with `seed`.
    fn reseed(&mut self, _seed: u32) {}
}

erased_serde::serialize_trait_object!(ObjectSpec);

/// What every object gives without writing it: its fields, a typed view, a
/// copy and a comparison. Implemented for every `Clone + PartialEq` object
/// spec whose fields are declared (`fields!`).
pub trait ObjectData: Any {
    /// Its numeric fields, by name (what property paths `NAME:field` reach).
    fn fields(&self) -> &dyn Fields;
    /// Its numeric fields, to change.
    fn fields_mut(&mut self) -> &mut dyn Fields;
    /// The spec, to downcast to its type.
    fn as_any(&self) -> &dyn Any;
    /// The spec, to downcast to its type and change.
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// A copy.
    fn clone_object(&self) -> Box<dyn ObjectSpec>;
    /// Whether `other` is an equal object of the same type.
    fn same_as(&self, other: &dyn ObjectSpec) -> bool;
}

impl<T: ObjectSpec + Fields + Clone + PartialEq> ObjectData for T {
    fn fields(&self) -> &dyn Fields {
        self
    }

    fn fields_mut(&mut self) -> &mut dyn Fields {
        self
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn clone_object(&self) -> Box<dyn ObjectSpec> {
        Box::new(self.clone())
    }

    fn same_as(&self, other: &dyn ObjectSpec) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
}

impl dyn ObjectSpec {
    /// The spec as a `T`, if it is one.
    pub fn downcast_ref<T: 'static>(&self) -> Option<&T> {
        self.as_any().downcast_ref()
    }

    /// The spec as a `T` to change, if it is one.
    pub fn downcast_mut<T: 'static>(&mut self) -> Option<&mut T> {
        self.as_any_mut().downcast_mut()
    }
}

impl Clone for Box<dyn ObjectSpec> {
    fn clone(&self) -> Self {
        self.clone_object()
    }
}

impl PartialEq for Box<dyn ObjectSpec> {
    fn eq(&self, other: &Self) -> bool {
        self.same_as(other.as_ref())
    }
}

/// A preset's objects resolved through its interactions: what the engine builds.
#[derive(Debug, Clone)]
pub struct Topology<'a> {
    /// The hammers that strike.
    pub hammers: &'a HammerSet,
    /// Where.
    pub strike: &'a StrikeSpec,
    /// What they strike (strings, bars, a comb of tines).
    pub target: &'a dyn ObjectSpec,
    /// Every other object, each joined to the hammers or the target, by
    /// name (at most one of each kind).
    pub joined: Vec<(&'a str, &'a dyn ObjectSpec)>,
}

impl<'a> Topology<'a> {
    /// The struck object as a `T`, if it is one.
    pub fn target_as<T: 'static>(&self) -> Option<&'a T> {
        self.target.downcast_ref()
    }

    /// The joined object that is a `T`, if there is one.
    pub fn joined<T: 'static>(&self) -> Option<&'a T> {
        self.joined
            .iter()
            .find_map(|(_, object)| object.downcast_ref::<T>())
    }

    /// The struck strings, if strings are struck.
    pub fn strings(&self) -> Option<&'a StringSet> {
        self.target_as()
    }

    /// The struck bars and how they are held, if bars are struck.
    pub fn bars(&self) -> Option<(&'a BarSet, BarEnds)> {
        self.target_as::<BarSet>().map(|bars| (bars, bars.ends))
    }
}

/// What an object sees of the instrument it is part of, to check itself
/// against ([`ObjectSpec::check_in`]): the keyboard, the tuning and the
/// resolved strike.
#[derive(Debug, Clone)]
pub struct Instrument<'a> {
    /// Which keys exist.
    pub keyboard: Keyboard,
    /// How they are tuned.
    pub tuning: &'a StretchedTuning,
    /// The strike and what joins it.
    pub topology: Topology<'a>,
}

impl Instrument<'_> {
    /// Target frequency of `key`'s first partial, Hz (see
    /// [`fundamental_hz`]).
    pub fn fundamental_hz(&self, key: u8) -> f64 {
        fundamental_hz(self.tuning, self.topology.strings(), key)
    }
}
