//! The anchors of one set (a set of strings', of hammers', the strike's),
//! seen through their fields' names: what property paths read, set and
//! inherit at a key.

use super::anchored::value_at;
use super::fields::AnchorFields;
use crate::props::Declaration;

/// The anchors of one set, seen through their fields' names.
pub trait AnchorList {
    /// The fields of every anchor.
    fn declarations(&self) -> &'static [Declaration];
    /// The keys of the anchors, ascending.
    fn keys(&self) -> Vec<u8>;
    /// Whether there is an anchor at `key`.
    fn has_anchor(&self, key: u8) -> bool;
    /// Whether the anchor at `key` gives field `name`; `None` if there is no
    /// such field.
    fn explicit(&self, key: u8, name: &str) -> Option<bool>;
    /// The value of field `name` at `key`: the anchor's if it gives it, else
    /// interpolated, else the field's fallback.
    fn value(&self, key: u8, name: &str) -> Option<f64>;
    /// Gives field `name` the value `value` at `key`, creating the anchor
    /// there if need be (in key order). `name` must be a field.
    fn give(&mut self, key: u8, name: &str, value: f64);
    /// Takes field `name` away from the anchor at `key` (and the anchor, if it
    /// gives nothing more); `Err` says why it cannot be.
    fn inherit(&mut self, key: u8, name: &str) -> Result<(), &'static str>;
}

impl<A: AnchorFields> AnchorList for Vec<A> {
    fn declarations(&self) -> &'static [Declaration] {
        A::DECLARATIONS
    }

    fn keys(&self) -> Vec<u8> {
        self.iter().map(|a| a.key()).collect()
    }

    fn has_anchor(&self, key: u8) -> bool {
        self.iter().any(|a| a.key() == key)
    }

    fn explicit(&self, key: u8, name: &str) -> Option<bool> {
        A::has_field(name).then(|| self.iter().any(|a| a.key() == key && a.gives(name)))
    }

    fn value(&self, key: u8, name: &str) -> Option<f64> {
        if !A::has_field(name) {
            return None;
        }
        let given = self.iter().find(|a| a.key() == key);
        given
            .and_then(|a| a.slot(name).flatten())
            .or_else(|| value_at(self, key, |a| a.slot(name).flatten()))
            .or_else(|| A::ungiven(name))
    }

    fn give(&mut self, key: u8, name: &str, value: f64) {
        let index = match self.iter().position(|a| a.key() == key) {
            Some(index) => index,
            None => {
                let index = self.partition_point(|a| a.key() < key);
                self.insert(index, A::empty(key));
                index
            }
        };
        if let Some(slot) = self[index].slot_mut(name) {
            *slot = Some(value);
        }
    }

    fn inherit(&mut self, key: u8, name: &str) -> Result<(), &'static str> {
        let Some(index) = self.iter().position(|a| a.key() == key && a.gives(name)) else {
            return Ok(());
        };
        let givers = self.iter().filter(|a| a.gives(name)).count();
        if givers == 1 && A::ungiven(name).is_none() {
            return Err("no other anchor gives it, so there is nothing to inherit from");
        }
        if let Some(slot) = self[index].slot_mut(name) {
            *slot = None;
        }
        if self[index].gives_nothing() {
            self.remove(index);
        }
        Ok(())
    }
}
