//! A preset's objects by name, in the order a preset lists and an editor
//! shows them: by kind (in the order the registry declares the kinds), by
//! name within a kind. Names are unique across kinds: a property path
//! (`hammers/anchor/60:mass_kg`) starts with one.

use super::error::PresetError;
use super::object::ObjectSpec;

/// An object with its name.
pub type NamedObject = (String, Box<dyn ObjectSpec>);

/// The objects of one kind, in order: the kind's table, then each object
/// with its name.
pub type KindGroup<'a> = (&'static str, Vec<(&'a str, &'a dyn ObjectSpec)>);

/// The objects of an instrument, by name.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Objects(Vec<NamedObject>);

impl Objects {
    /// No objects.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every object with its name, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &dyn ObjectSpec)> {
        self.0
            .iter()
            .map(|(name, object)| (name.as_str(), object.as_ref()))
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The object called `name`.
    pub fn get(&self, name: &str) -> Option<&dyn ObjectSpec> {
        let (_, object) = self.0.iter().find(|(n, _)| n == name)?;
        Some(object.as_ref())
    }

    /// The object called `name`, to change.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut dyn ObjectSpec> {
        let (_, object) = self.0.iter_mut().find(|(n, _)| n == name)?;
        Some(object.as_mut())
    }

    /// The object called `name` as a `T`, if it is one.
    pub fn get_as<T: 'static>(&self, name: &str) -> Option<&T> {
        self.get(name)?.downcast_ref()
    }

    /// The object called `name` as a `T` to change, if it is one.
    pub fn get_as_mut<T: 'static>(&mut self, name: &str) -> Option<&mut T> {
        self.get_mut(name)?.downcast_mut()
    }

    /// Every object that is a `T`, with its name, in order.
    pub fn of<T: 'static>(&self) -> impl Iterator<Item = (&str, &T)> {
        self.iter()
            .filter_map(|(name, object)| Some((name, object.downcast_ref::<T>()?)))
    }

    /// Every object that is a `T`, to change.
    pub fn of_mut<T: 'static>(&mut self) -> impl Iterator<Item = &mut T> {
        self.0
            .iter_mut()
            .filter_map(|(_, object)| object.downcast_mut::<T>())
    }

    /// Every object, to change.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut dyn ObjectSpec> {
        self.0.iter_mut().map(|(_, object)| object.as_mut())
    }

    /// Adds `object` as `name`: after the objects of its kind whose names
    /// come before, or last if it is the first of its kind. A name taken
    /// already (by an object of any kind) is refused.
    pub fn insert(
        &mut self,
        name: impl Into<String>,
        object: Box<dyn ObjectSpec>,
    ) -> Result<(), PresetError> {
        let name = name.into();
        if let Some(other) = self.get(&name) {
            return Err(PresetError::Topology(format!(
                "two objects are named `{}`: a {} and a {}",
                crate::input::name(&name),
                other.kind(),
                object.kind()
            )));
        }
        let kind = object.kind();
        let same_kind = |(_, o): &NamedObject| o.kind() == kind;
        let at = match self.0.iter().rposition(same_kind) {
            Some(last) => {
                let first = self.0.iter().position(same_kind).unwrap_or(last);
                first + self.0[first..=last].partition_point(|(n, _)| *n < name)
            }
            None => self.0.len(),
        };
        self.0.insert(at, (name, object));
        Ok(())
    }

    /// Takes the object called `name` out.
    pub fn remove(&mut self, name: &str) -> Option<Box<dyn ObjectSpec>> {
        let at = self.0.iter().position(|(n, _)| n == name)?;
        Some(self.0.remove(at).1)
    }

    /// The objects grouped by kind, in order: (kind, objects of that kind).
    pub fn by_kind(&self) -> Vec<KindGroup<'_>> {
        let mut groups: Vec<KindGroup<'_>> = Vec::new();
        for (name, object) in self.iter() {
            match groups.last_mut() {
                Some((kind, group)) if *kind == object.kind() => group.push((name, object)),
                _ => groups.push((object.kind(), vec![(name, object)])),
            }
        }
        groups
    }
}
