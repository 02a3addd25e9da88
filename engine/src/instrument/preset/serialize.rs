//! Writing a preset as serde data (a preset file's TOML, an editor's JSON):
//! its core, then each kind's table of objects (`[KIND.NAME]`), then
//! `[[strike]]`, as preset files list them. Reading it needs the object
//! kinds of every family, and lives with the registry (`crate::families`).

use std::collections::BTreeMap;

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::definition::Preset;
use super::object::ObjectSpec;

impl Serialize for Preset {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("name", &self.name)?;
        map.serialize_entry("description", &self.description)?;
        if let Some(family) = &self.family {
            map.serialize_entry("family", family)?;
        }
        map.serialize_entry("tuning", &self.tuning)?;
        map.serialize_entry("keyboard", &self.keyboard)?;
        map.serialize_entry("velocity", &self.velocity)?;
        map.serialize_entry("output", &self.output)?;
        if let Some(room) = &self.room {
            map.serialize_entry("room", room)?;
        }
        for (kind, objects) in self.objects.by_kind() {
            let table: BTreeMap<&str, &dyn ObjectSpec> = objects.into_iter().collect();
            map.serialize_entry(kind, &table)?;
        }
        map.serialize_entry("strike", &self.strikes)?;
        map.end()
    }
}
