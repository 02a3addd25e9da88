//! Orchard's presets as a host finds and loads them: the built CLAP plugin's
//! preset discovery factory crawled as clap-validator's preset-discovery
//! tests crawl it (providers, declared file types and locations, every
//! location's metadata, one plugin id throughout), then every preset found
//! loaded through the `preset-load` extension into one instance, whose
//! parameters and saved state must then be that preset's.

mod common;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ffi::{CStr, CString};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use clack_extensions::params::{ParamInfoBuffer, PluginParams};
use clack_extensions::preset_discovery::prelude::*;
use clack_extensions::preset_discovery::{HostPresetLoadImpl, PresetLoadError};
use clack_extensions::state::PluginState;
use clack_host::prelude::*;
use orchard::editor::presets::{self, PRESET_FORMAT, UserPreset};
use orchard_engine::instrument::PropertyEdit;

use common::{TestHostShared, host_info, with_plugin};

/// Orchard's CLAP id.
const PLUGIN_ID: &str = "org.orchard-instruments.orchard";

/// What the provider declared at `init`.
#[derive(Debug, Default)]
struct Declared {
    /// Extensions, without the dot.
    file_types: Vec<String>,
    /// (name, flags, path; `None` for inside the plugin).
    locations: Vec<(String, Flags, Option<PathBuf>)>,
    soundpacks: usize,
}

impl IndexerImpl for Declared {
    fn declare_filetype(&mut self, file_type: FileType) -> Result<(), HostError> {
        let extension = file_type.file_extension.map(text).unwrap_or_default();
        if extension.starts_with('.') {
            return Err(HostError::Message("a file extension starts with a dot"));
        }
        self.file_types.push(extension);
        Ok(())
    }

    fn declare_location(&mut self, location: LocationInfo) -> Result<(), HostError> {
        let path = match location.location {
            Location::Plugin => None,
            Location::File { path } => Some(PathBuf::from(text(path))),
        };
        if path.as_ref().is_some_and(|p| !p.is_absolute()) {
            return Err(HostError::Message("a file location is not absolute"));
        }
        self.locations
            .push((text(location.name), location.flags, path));
        Ok(())
    }

    fn declare_soundpack(&mut self, _soundpack: Soundpack) -> Result<(), HostError> {
        self.soundpacks += 1;
        Ok(())
    }
}

/// One preset as the provider described it.
#[derive(Debug, Clone, Default, PartialEq)]
struct Found {
    name: String,
    load_key: Option<String>,
    /// (abi, id).
    plugin_ids: Vec<(String, String)>,
    flags: Option<Flags>,
    creators: Vec<String>,
    description: String,
    features: Vec<String>,
}

/// The presets of one location, and the errors reported.
#[derive(Debug, Default)]
struct Receiver {
    presets: Vec<Found>,
    errors: Vec<String>,
}

impl Receiver {
    fn current(&mut self) -> &mut Found {
        self.presets
            .last_mut()
            .expect("metadata only after begin_preset")
    }
}

fn text(c: &CStr) -> String {
    c.to_str().expect("UTF-8").to_string()
}

impl MetadataReceiverImpl for Receiver {
    fn on_error(&mut self, _error_code: i32, error_message: Option<&CStr>) {
        self.errors
            .push(error_message.map(text).unwrap_or_default());
    }

    fn begin_preset(
        &mut self,
        name: Option<&CStr>,
        load_key: Option<&CStr>,
    ) -> Result<(), HostError> {
        self.presets.push(Found {
            name: name
                .map(text)
                .ok_or(HostError::Message("a preset without a name"))?,
            load_key: load_key.map(text),
            ..Found::default()
        });
        Ok(())
    }

    fn add_plugin_id(&mut self, plugin_id: UniversalPluginId) {
        let id = (text(plugin_id.abi), text(plugin_id.id));
        self.current().plugin_ids.push(id);
    }

    fn set_soundpack_id(&mut self, _soundpack_id: &CStr) {}

    fn set_flags(&mut self, flags: Flags) {
        self.current().flags = Some(flags);
    }

    fn add_creator(&mut self, creator: &CStr) {
        self.current().creators.push(text(creator));
    }

    fn set_description(&mut self, description: &CStr) {
        self.current().description = text(description);
    }

    fn set_timestamps(&mut self, _created: Option<Timestamp>, _modified: Option<Timestamp>) {}

    fn add_feature(&mut self, feature: &CStr) {
        self.current().features.push(text(feature));
    }

    fn add_extra_info(&mut self, _key: &CStr, _value: &CStr) {}
}

/// What the plugin told the host about preset loads: `loaded KEY-OR-PATH`
/// or `error KEY-OR-PATH: MESSAGE`.
#[derive(Clone, Default)]
struct LoadLog(Rc<RefCell<Vec<String>>>);

fn where_from(location: Location, load_key: Option<&CStr>) -> String {
    match (location, load_key) {
        (_, Some(key)) => text(key),
        (Location::File { path }, None) => text(path),
        (Location::Plugin, None) => "(plugin, no key)".into(),
    }
}

impl HostPresetLoadImpl for LoadLog {
    fn on_error(&self, location: Location, key: Option<&CStr>, _os: i32, message: Option<&CStr>) {
        let message = message.map(text).unwrap_or_default();
        let entry = format!("error {}: {message}", where_from(location, key));
        self.0.borrow_mut().push(entry);
    }

    fn loaded(&self, location: Location, load_key: Option<&CStr>) {
        let entry = format!("loaded {}", where_from(location, load_key));
        self.0.borrow_mut().push(entry);
    }
}

impl<'a> MainThreadHandler<'a> for LoadLog {}

struct PresetHost;

impl HostHandlers for PresetHost {
    type Shared<'a> = TestHostShared;
    type MainThread<'a> = LoadLog;
    type AudioProcessor<'a> = ();

    fn declare_extensions(builder: &mut HostExtensions<Self>, _shared: &Self::Shared<'_>) {
        builder.register::<HostPresetLoad>();
    }
}

/// The user preset folder of these tests, with one preset of each kind a
/// folder may hold: a good one, a broken one and another program's JSON.
fn user_folder() -> PathBuf {
    let folder = std::env::temp_dir().join(format!("orchard-clap-presets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    let preset = UserPreset {
        format: PRESET_FORMAT,
        instrument: "music-box".into(),
        parameters: BTreeMap::from([("a4".to_string(), 442.0), ("width".to_string(), 0.25)]),
        edits: vec![PropertyEdit::Set {
            path: "tuning:stretch".into(),
            value: 0.5,
        }],
    };
    presets::write(&folder.join("Parlour box.orchard.json"), &preset).unwrap();
    std::fs::write(folder.join("Broken.orchard.json"), "{\"format\": 1,").unwrap();
    std::fs::write(folder.join("notes.json"), "{\"not\": \"a preset\"}").unwrap();
    folder.canonicalize().unwrap()
}

/// The files a host crawling `folder` asks about: those with a declared
/// extension, in name order.
fn crawl(folder: &Path, extensions: &[String]) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| extensions.iter().any(|x| x == e))
        })
        .collect();
    files.sort();
    files
}

/// A parameter's value by name, normalized (nice-plug gives hosts
/// normalized values: hardness −1 to 1 as 0 to 1).
fn value_of(instance: &mut PluginInstance<PresetHost>, name: &str) -> f64 {
    let params: PluginParams = instance.plugin_shared_handle().get_extension().unwrap();
    let handle = &mut instance.plugin_handle();
    let id = (0..params.count(handle))
        .find_map(|i| {
            let mut buffer = ParamInfoBuffer::new();
            let info = params.get_info(handle, i, &mut buffer)?;
            (info.name == name.as_bytes()).then_some(info.id)
        })
        .unwrap_or_else(|| panic!("no parameter {name}"));
    params.get_value(handle, id).unwrap()
}

/// The state a host would save now, as text.
fn saved_state(instance: &mut PluginInstance<PresetHost>) -> String {
    let state: PluginState = instance.plugin_shared_handle().get_extension().unwrap();
    let mut bytes = Vec::new();
    state.save(&instance.plugin_handle(), &mut bytes).unwrap();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Loads the preset at `location` (with `key`) through `preset-load`.
fn load(
    instance: &mut PluginInstance<PresetHost>,
    location: Location,
    key: Option<&str>,
) -> Result<(), PresetLoadError> {
    let preset_load: PluginPresetLoad = instance
        .plugin_shared_handle()
        .get_extension()
        .expect("the preset-load extension");
    let key = key.map(|k| CString::new(k).unwrap());
    preset_load.load_from_location(&instance.plugin_handle(), location, key.as_deref())
}

#[test]
fn hosts_find_every_preset_and_load_each_into_the_plugin() {
    let folder = user_folder();
    // SAFETY: set before the plugin is loaded, under the host lock, and
    // read by no other test of this file.
    unsafe { std::env::set_var("ORCHARD_PRESET_DIR", &folder) };
    with_plugin(|entry| {
        let factory: PresetDiscoveryFactory =
            entry.get_factory().expect("the preset discovery factory");
        let descriptors: Vec<_> = factory.provider_descriptors().collect();
        assert_eq!(descriptors.len(), 1, "one provider");
        let id = descriptors[0].id().expect("the provider has an id");
        let mut provider = Provider::instantiate(Declared::default(), entry, id, &host_info())
            .expect("the provider initialises");
        // The descriptor stored on the provider is the factory's.
        let (stored, listed) = (provider.descriptor(), descriptors[0]);
        assert_eq!(stored.id(), listed.id());
        assert_eq!(stored.name(), listed.name());
        assert_eq!(stored.vendor(), listed.vendor());

        let declared = provider.indexer();
        assert_eq!(declared.file_types, ["json"]);
        assert_eq!(declared.soundpacks, 0);
        let locations = declared.locations.clone();
        assert_eq!(locations.len(), 2, "{locations:?}");
        assert_eq!(locations[0].1, Flags::IS_FACTORY_CONTENT);
        assert_eq!(
            locations[0].2, None,
            "factory presets are inside the plugin"
        );
        assert_eq!(locations[1].1, Flags::IS_USER_CONTENT);
        assert_eq!(locations[1].2.as_deref(), Some(folder.as_path()));
        let extensions = declared.file_types.clone();

        // The factory presets: every one named, for Orchard, with a load key
        // of its own, marked factory content, described and given keywords.
        let mut factory_presets = Receiver::default();
        provider.get_metadata(Location::Plugin, &mut factory_presets);
        assert!(
            factory_presets.errors.is_empty(),
            "{:?}",
            factory_presets.errors
        );
        let found = factory_presets.presets;
        let names: Vec<_> = found.iter().map(|p| p.name.as_str()).collect();
        for wanted in [
            "Grand piano",
            "Bright grand",
            "Mellow grand",
            "Mallet and bar",
            "Music box",
        ] {
            assert!(names.contains(&wanted), "{wanted} missing from {names:?}");
        }
        let ours = ("clap".to_string(), PLUGIN_ID.to_string());
        for preset in &found {
            assert_eq!(
                preset.plugin_ids,
                std::slice::from_ref(&ours),
                "{}",
                preset.name
            );
            assert_eq!(preset.flags, Some(Flags::IS_FACTORY_CONTENT));
            assert_eq!(preset.creators, ["Orchard"]);
            assert!(
                !preset.description.is_empty(),
                "{} undescribed",
                preset.name
            );
            assert!(preset.features.iter().any(|f| f == "instrument"));
            let key = preset.load_key.as_deref().expect("a load key");
            assert_eq!(
                found
                    .iter()
                    .filter(|p| p.load_key.as_deref() == Some(key))
                    .count(),
                1
            );
        }
        let grand = found.iter().find(|p| p.name == "Bright grand").unwrap();
        assert!(grand.features.iter().any(|f| f == "piano"), "{grand:?}");

        // The user folder, crawled file by file: the preset described as the
        // user's, the broken file reported in a line that names it, the other
        // program's JSON passed over without a word.
        let files = crawl(&folder, &extensions);
        assert_eq!(files.len(), 3, "{files:?}");
        let mut user = Vec::new();
        for file in &files {
            let path = CString::new(file.to_str().unwrap()).unwrap();
            let mut receiver = Receiver::default();
            provider.get_metadata(Location::File { path: &path }, &mut receiver);
            let name = file.file_name().unwrap().to_str().unwrap();
            match name {
                "Broken.orchard.json" => {
                    assert!(receiver.presets.is_empty());
                    assert_eq!(receiver.errors.len(), 1);
                    let error = &receiver.errors[0];
                    assert!(error.contains(name) && !error.contains('\n'), "{error}");
                }
                "notes.json" => {
                    assert!(receiver.presets.is_empty() && receiver.errors.is_empty());
                }
                _ => {
                    assert!(receiver.errors.is_empty(), "{:?}", receiver.errors);
                    let [preset] = &receiver.presets[..] else {
                        panic!("one preset in {name}: {:?}", receiver.presets);
                    };
                    assert_eq!(preset.name, "Parlour box");
                    assert_eq!(preset.load_key, None);
                    assert_eq!(preset.plugin_ids, std::slice::from_ref(&ours));
                    assert_eq!(preset.flags, Some(Flags::IS_USER_CONTENT));
                    assert!(preset.description.contains("Music box"), "{preset:?}");
                    user.push(path);
                }
            }
        }
        assert_eq!(user.len(), 1);
        drop(provider);

        // Every preset found loads into one instance, and the host hears
        // of each; the parameters and the saved state are then the preset's.
        let log = LoadLog::default();
        let main_thread = log.clone();
        let plugin_factory = entry.get_plugin_factory().unwrap();
        let plugin_id = plugin_factory
            .plugin_descriptors()
            .next()
            .unwrap()
            .id()
            .unwrap();
        let mut instance = PluginInstance::<PresetHost>::new(
            |_| TestHostShared,
            move |_| main_thread,
            entry,
            plugin_id,
            &host_info(),
        )
        .unwrap();
        for preset in &found {
            let key = preset.load_key.as_deref();
            load(&mut instance, Location::Plugin, key).expect("the factory preset loads");
            let state = saved_state(&mut instance);
            let instrument = orchard::factory::named(key.unwrap())
                .unwrap()
                .preset
                .instrument
                .clone();
            assert!(
                state.contains(&format!("\"{instrument}\"")),
                "{key:?}: {state}"
            );
        }
        assert_eq!(log.0.borrow().len(), found.len());
        assert!(
            log.0
                .borrow()
                .iter()
                .all(|entry| entry.starts_with("loaded "))
        );

        // Voicings: the bright grand's felt is harder and its strings
        // brighter than the defaults, the mellow grand's softer and duller.
        // Both parameters run from −1 to 1.
        let close = |normalized: f64, plain: f64| (normalized - (plain + 1.0) / 2.0).abs() < 1e-6;
        load(&mut instance, Location::Plugin, Some("bright-grand")).unwrap();
        assert!(close(value_of(&mut instance, "Hammer hardness"), 1.0));
        assert!(close(value_of(&mut instance, "Brightness"), 0.5));
        load(&mut instance, Location::Plugin, Some("mellow-grand")).unwrap();
        assert!(close(value_of(&mut instance, "Hammer hardness"), -1.0));
        assert!(close(value_of(&mut instance, "Brightness"), -0.5));

        // The user's preset: its instrument, its parameters (the others at
        // their defaults again) and its property edit in the saved state.
        load(&mut instance, Location::File { path: &user[0] }, None).unwrap();
        assert!(close(value_of(&mut instance, "Hammer hardness"), 0.0));
        // A4 runs from 415 to 466 Hz.
        let a4 = 415.0 + 51.0 * value_of(&mut instance, "A4 tuning");
        assert!((a4 - 442.0).abs() < 1e-3, "{a4}");
        assert!((value_of(&mut instance, "Stereo width") - 0.25).abs() < 1e-6);
        let state = saved_state(&mut instance);
        assert!(
            state.contains("\"music-box\"") && state.contains("tuning:stretch"),
            "{state}"
        );
        assert_eq!(
            log.0.borrow().last().unwrap(),
            &format!("loaded {}", user[0].to_str().unwrap())
        );

        // What cannot load says why, and changes nothing.
        let before = saved_state(&mut instance);
        assert!(load(&mut instance, Location::Plugin, Some("no-such-preset")).is_err());
        let broken = CString::new(folder.join("Broken.orchard.json").to_str().unwrap()).unwrap();
        assert!(load(&mut instance, Location::File { path: &broken }, None).is_err());
        assert_eq!(saved_state(&mut instance), before);
        let log = log.0.borrow();
        let errors = &log[log.len() - 2..];
        assert!(
            errors[0].starts_with("error no-such-preset: ")
                && errors[0].contains("no factory preset"),
            "{errors:?}"
        );
        assert!(
            errors[1].contains("Broken.orchard.json") && errors[1].contains("line"),
            "{errors:?}"
        );
    });
    let _ = std::fs::remove_dir_all(&folder);
}
