//! Reading presets: a preset's tables name object kinds that the families
//! declare, so reading one needs the registry. A preset is read from serde
//! data (a file's TOML, an editor's JSON): its core fields, then each
//! `[KIND.NAME]` by its kind ([`ObjectKind::read`]), then `[[strike]]`; and a
//! preset is valid when its values and topology check
//! ([`Preset::check_values`]) and a family plays it.

use std::fmt;
use std::path::Path;

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::registry::{builtin_presets, family_of, object_kinds};
use crate::instrument::{
    DEFAULT_PRESET_TOML, MAX_PRESET_BYTES, NamedObject, ObjectKind, ObjectSpec, Objects, Preset,
    PresetError, StrikeSpec,
};

impl Preset {
    /// The grand piano embedded in every build.
    pub fn default_grand() -> Self {
        Self::from_toml(DEFAULT_PRESET_TOML).expect("the embedded preset is tested to be valid")
    }

    /// A built-in preset of a registered family by name (see
    /// [`builtin_presets`]).
    pub fn builtin(name: &str) -> Option<Result<Self, PresetError>> {
        builtin_presets()
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, text)| Self::from_toml(text))
    }

    /// A built-in preset by name, or else the preset file at that path; errors
    /// name the file.
    pub fn load(name_or_path: &str) -> Result<Self, PresetError> {
        if let Some(preset) = Self::builtin(name_or_path) {
            return preset;
        }
        let path = Path::new(name_or_path);
        if !path.is_file() {
            return Err(PresetError::Unknown {
                name: name_or_path.to_string(),
                builtin: builtin_presets().iter().map(|(name, _)| *name).collect(),
            });
        }
        let in_file = |reason| PresetError::File {
            path: name_or_path.to_string(),
            reason: Box::new(reason),
        };
        let text = crate::input::read_capped_text(path, MAX_PRESET_BYTES)
            .map_err(|e| in_file(PresetError::Io(e)))?;
        Self::from_toml(&text).map_err(in_file)
    }

    /// Parses and validates a preset.
    pub fn from_toml(text: &str) -> Result<Self, PresetError> {
        let preset: Preset = toml::from_str(text)
            .map_err(|e| PresetError::Syntax(crate::input::toml_error(text, &e)))?;
        preset.validate()?;
        Ok(preset)
    }

    /// Checks every value against its physical range, resolves the topology
    /// ([`Preset::check_values`]), and checks that a family plays it.
    pub fn validate(&self) -> Result<(), PresetError> {
        self.check_values()?;
        check_family(self)
    }
}

/// A family must play the preset: the one it names, which must be known and
/// [play](crate::rt::Family::plays) its objects, or else the first that fits
/// them; and it must play every object the preset holds, so that none is
/// silently left out (a soundboard in a mallet preset): each object beside
/// the strike's hammers and target must be one of the family's
/// [companions](crate::rt::Family::companions).
fn check_family(preset: &Preset) -> Result<(), PresetError> {
    let family = family_of(preset).map_err(|e| PresetError::Family(e.to_string()))?;
    if let Some(strike) = preset.strikes.first() {
        let companions = family.companions();
        for (name, object) in preset.objects.iter() {
            let kind = object.kind();
            if name == strike.hammers || name == strike.target || companions.contains(&kind) {
                continue;
            }
            let plays = if companions.is_empty() {
                String::new()
            } else {
                format!(", {}", companions.join(", "))
            };
            return Err(PresetError::Family(format!(
                "[{kind}.{}]: the {} family plays no {kind} (it plays its hammers, their \
                 target{plays}) and would sound as if it were absent; take it out or name a \
                 family that plays it",
                crate::input::name(name),
                family.name()
            )));
        }
    }
    if preset.family.is_some() && !family.plays(preset) {
        return Err(PresetError::Family(format!(
            "`{}` does not play these objects",
            family.name()
        )));
    }
    Ok(())
}

/// The core fields of a preset, as its tables name them; every other table
/// is a kind of object.
const CORE_FIELDS: [&str; 9] = [
    "name",
    "description",
    "family",
    "tuning",
    "keyboard",
    "velocity",
    "output",
    "room",
    "strike",
];

impl<'de> Deserialize<'de> for Preset {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(PresetVisitor)
    }
}

struct PresetVisitor;

/// Stores a field read once; a second is an error.
fn once<T, E: de::Error>(slot: &mut Option<T>, value: T, field: &'static str) -> Result<(), E> {
    if slot.replace(value).is_some() {
        return Err(E::duplicate_field(field));
    }
    Ok(())
}

impl<'de> Visitor<'de> for PresetVisitor {
    type Value = Preset;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a preset")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Preset, A::Error> {
        let kinds = object_kinds();
        let (mut name, mut description, mut family) = (None, None, None);
        let (mut tuning, mut keyboard, mut velocity) = (None, None, None);
        let (mut output, mut room, mut strikes) = (None, None, None::<Vec<StrikeSpec>>);
        let mut tables: Vec<(usize, Vec<NamedObject>)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "name" => once(&mut name, map.next_value()?, "name")?,
                "description" => once(&mut description, map.next_value()?, "description")?,
                "family" => once(&mut family, map.next_value()?, "family")?,
                "tuning" => once(&mut tuning, map.next_value()?, "tuning")?,
                "keyboard" => once(&mut keyboard, map.next_value()?, "keyboard")?,
                "velocity" => once(&mut velocity, map.next_value()?, "velocity")?,
                "output" => once(&mut output, map.next_value()?, "output")?,
                "room" => once(&mut room, map.next_value()?, "room")?,
                "strike" => once(&mut strikes, map.next_value()?, "strike")?,
                table => {
                    let Some(index) = kinds.iter().position(|kind| kind.table == table) else {
                        return Err(de::Error::custom(unknown_table(table, &kinds)));
                    };
                    if tables.iter().any(|(known, _)| *known == index) {
                        return Err(de::Error::custom(format!("duplicate table `{table}`")));
                    }
                    tables.push((index, map.next_value_seed(KindTable(kinds[index]))?));
                }
            }
        }
        tables.sort_by_key(|(index, _)| *index);
        let mut objects = Objects::new();
        for (name, object) in tables.into_iter().flat_map(|(_, table)| table) {
            objects.insert(name, object).map_err(de::Error::custom)?;
        }
        let missing = de::Error::missing_field;
        Ok(Preset {
            name: name.ok_or_else(|| missing("name"))?,
            description: description.ok_or_else(|| missing("description"))?,
            family,
            tuning: tuning.ok_or_else(|| missing("tuning"))?,
            keyboard: keyboard.ok_or_else(|| missing("keyboard"))?,
            velocity: velocity.ok_or_else(|| missing("velocity"))?,
            output: output.ok_or_else(|| missing("output"))?,
            room,
            objects,
            strikes: strikes.ok_or_else(|| missing("strike"))?,
        })
    }
}

/// What a table no kind is called is refused with: the fields and kinds a
/// preset may have.
fn unknown_table(table: &str, kinds: &[ObjectKind]) -> String {
    let expected: Vec<String> = CORE_FIELDS
        .iter()
        .copied()
        .chain(kinds.iter().map(|kind| kind.table))
        .map(|name| format!("`{name}`"))
        .collect();
    format!(
        "unknown field `{}`, expected one of {}",
        crate::input::name(table),
        expected.join(", ")
    )
}

/// One kind's table: its objects by name.
struct KindTable(ObjectKind);

impl<'de> DeserializeSeed<'de> for KindTable {
    type Value = Vec<NamedObject>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for KindTable {
    type Value = Vec<NamedObject>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a table of {} by name", self.0.table)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut objects = Vec::new();
        while let Some(name) = map.next_key::<String>()? {
            objects.push((name, map.next_value_seed(ObjectSeed(self.0))?));
        }
        Ok(objects)
    }
}

/// One object of a kind, read by the kind.
struct ObjectSeed(ObjectKind);

impl<'de> DeserializeSeed<'de> for ObjectSeed {
    type Value = Box<dyn ObjectSpec>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let mut erased = <dyn erased_serde::Deserializer<'de>>::erase(deserializer);
        (self.0.read)(&mut erased).map_err(de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use crate::families::celesta::CelestaSpec;
    use crate::families::chiming_clock::ClockSpec;
    use crate::families::grand_piano::{ActionSpec, DamperSet, SoundboardSpec};
    use crate::families::music_box::MusicBoxSpec;
    use crate::instrument::{BarEnds, Preset};

    #[test]
    fn builtin_presets_are_valid_and_resolve() {
        let p = Preset::default_grand();
        assert_eq!((p.keyboard.lowest_key, p.keyboard.highest_key), (21, 108));
        let t = p.topology().unwrap();
        assert!(t.strings().is_some());
        assert!(t.joined::<ActionSpec>().is_some() && t.joined::<DamperSet>().is_some());
        assert!(t.joined::<SoundboardSpec>().is_some());
        let bars = Preset::builtin("mallet-bar").unwrap().unwrap();
        let t = bars.topology().unwrap();
        assert!(t.bars().is_some() && t.joined.is_empty());
        let celesta = Preset::builtin("celesta").unwrap().unwrap();
        let t = celesta.topology().unwrap();
        assert!(matches!(t.bars(), Some((_, BarEnds::FreeFree))));
        assert!(t.joined::<CelestaSpec>().is_some() && t.joined.len() == 1);
        assert!(Preset::builtin("harpsichord").is_none());
    }

    /// A soundboard or a grand action added to a mallet preset (and a
    /// clock's movement added to a music box) would be built into nothing:
    /// the preset is refused, naming the object's table and the family.
    #[test]
    fn objects_another_family_plays_are_refused() {
        let grand = Preset::default_grand();
        let mut board = grand
            .objects
            .get_as::<SoundboardSpec>("soundboard")
            .unwrap()
            .clone();
        board.driven_by = "bars".into();
        let mut action = grand
            .objects
            .get_as::<ActionSpec>("action")
            .unwrap()
            .clone();
        action.drives = "mallets".into();
        let mallets = Preset::builtin("mallet-bar").unwrap().unwrap();
        let mut with_board = mallets.clone();
        with_board.objects.insert("board", Box::new(board)).unwrap();
        let mut with_action = mallets.clone();
        with_action
            .objects
            .insert("action", Box::new(action))
            .unwrap();
        let clock = Preset::builtin("chiming-clock").unwrap().unwrap();
        let mut with_clock = Preset::builtin("music-box").unwrap().unwrap();
        let mut movement = clock.objects.get_as::<ClockSpec>("clock").unwrap().clone();
        movement.drives = "pins".into();
        // Its rods on the comb's keys, so that only the family refuses it.
        (movement.bell_1_key, movement.bell_2_key) = (79, 77);
        (movement.bell_3_key, movement.bell_4_key) = (76, 72);
        movement.hour_key = 60;
        with_clock
            .objects
            .insert("clock", Box::new(movement))
            .unwrap();
        for (preset, table, family) in [
            (&with_board, "[soundboard.board]", "the mallet-bar family"),
            (
                &with_action,
                "[grand-action.action]",
                "the mallet-bar family",
            ),
            (&with_clock, "[clock.clock]", "the music-box family"),
        ] {
            let message = preset.validate().unwrap_err().to_string();
            assert!(
                message.contains(table) && message.contains(family),
                "{message}"
            );
        }
        let mut unnamed = with_board.clone();
        unnamed.family = None;
        assert!(
            unnamed.validate().is_err(),
            "a mallet preset naming no family"
        );
    }

    /// A clock's hammer on a key that has no rod, or a comb's tine on a
    /// key off the keyboard, is refused by name (it used to validate and
    /// strike nothing); the range an editor offers is the rods'.
    #[test]
    fn rods_and_tines_off_the_keyboard_are_refused() {
        let clock = Preset::builtin("chiming-clock").unwrap().unwrap();
        let (lowest, highest) = (clock.keyboard.lowest_key, clock.keyboard.highest_key);
        for (path, key) in [
            ("clock:bell_1_key", 0),
            ("clock:bell_2_key", highest + 1),
            ("clock:bell_4_key", lowest - 1),
            ("clock:hour_key", 127),
        ] {
            let message = clock
                .clone()
                .set(path, f64::from(key))
                .unwrap_err()
                .to_string();
            assert_eq!(
                message,
                format!(
                    "{path} = {key} is outside its range (a key that has a rod: \
                     keyboard:lowest_key to keyboard:highest_key)"
                )
            );
        }
        assert!(
            clock
                .clone()
                .set("clock:bell_1_key", f64::from(lowest))
                .is_ok()
        );
        let range = clock.property_info("clock:bell_1_key").unwrap().range;
        assert_eq!(range, (f64::from(lowest), f64::from(highest)));
        let mut music_box = Preset::builtin("music-box").unwrap().unwrap();
        let highest = music_box.keyboard.highest_key;
        music_box
            .objects
            .get_as_mut::<MusicBoxSpec>("box")
            .unwrap()
            .keys
            .push(highest + 1);
        let message = music_box.validate().unwrap_err().to_string();
        assert!(message.starts_with("box:keys = 90 is outside"), "{message}");
    }

    /// Every object is written under the table its kind is read from (a
    /// spec's `kind()` and its `ObjectKind` name the same table): each
    /// built-in preset, written and read back through the registry, is the
    /// same preset.
    #[test]
    fn every_builtin_preset_reads_back_as_it_was_written() {
        for (name, _) in crate::families::builtin_presets() {
            let preset = Preset::load(name).unwrap();
            let json = serde_json::to_string(&preset).unwrap();
            let read: Preset =
                serde_json::from_str(&json).unwrap_or_else(|e| panic!("{name}: {e}\n{json}"));
            assert_eq!(read, preset, "{name}");
        }
    }
}
