//! Orchard's presets as a host finds and loads them: the built CLAP plugin's
//! preset discovery factory crawled as clap-validator's preset-discovery
//! tests crawl it (providers, declared file types and locations, every
//! location's metadata, one plugin id throughout), then every preset found
//! loaded through the `preset-load` extension into one instance, whose
//! parameters and saved state must then be that preset's.
//!
//! Every location holds two or more presets. Crawled normally, no single
//! `get_metadata` call declares more than one (clap-validator 0.4.1 hangs
//! on a container's second preset: docs/clap-validator-limits.md); where the
//! factory preset folder cannot be written, the factory presets come as one
//! container, which a host crawls and loads by load key.

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
use orchard::user_preset::{self, PRESET_FORMAT, UserPreset};
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

/// The user preset folder of these tests, with each kind of file a folder
/// may hold: two good presets, a broken one and another program's JSON.
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
    user_preset::write(&folder.join("Parlour box.orchard.json"), &preset).unwrap();
    let chimes = UserPreset {
        format: PRESET_FORMAT,
        instrument: "celesta".into(),
        parameters: BTreeMap::from([("a4".to_string(), 430.0)]),
        edits: Vec::new(),
    };
    user_preset::write(&folder.join("Studio celesta.orchard.json"), &chimes).unwrap();
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

/// Checks what the provider said of the factory preset `preset`: for
/// Orchard, factory content, by Orchard, described and with keywords.
fn check_factory(preset: &Found) {
    let ours = ("clap".to_string(), PLUGIN_ID.to_string());
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
}

/// The factory presets every crawl finds, by name.
const FACTORY_NAMES: [&str; 5] = [
    "Grand piano",
    "Bright grand",
    "Mellow grand",
    "Mallet and bar",
    "Music box",
];

/// A provider made and initialised as a host does, with its declarations.
fn provider(entry: &PluginEntry) -> Provider<Declared> {
    let factory: PresetDiscoveryFactory =
        entry.get_factory().expect("the preset discovery factory");
    let descriptors: Vec<_> = factory.provider_descriptors().collect();
    assert_eq!(descriptors.len(), 1, "one provider");
    let id = descriptors[0].id().expect("the provider has an id");
    let provider = Provider::instantiate(Declared::default(), entry, id, &host_info())
        .expect("the provider initialises");
    // The descriptor stored on the provider is the factory's.
    let (stored, listed) = (provider.descriptor(), descriptors[0]);
    assert_eq!(stored.id(), listed.id());
    assert_eq!(stored.name(), listed.name());
    assert_eq!(stored.vendor(), listed.vendor());
    provider
}

/// The presets of the file at `file`, crawled as clap-validator does: one
/// `get_metadata` call. Declaring a second preset in one call would hang
/// clap-validator 0.4.1, so a file here holds one preset at most.
fn file_metadata(provider: &mut Provider<Declared>, file: &Path) -> Receiver {
    let path = CString::new(file.to_str().unwrap()).unwrap();
    let mut receiver = Receiver::default();
    provider.get_metadata(Location::File { path: &path }, &mut receiver);
    assert!(
        receiver.presets.len() <= 1,
        "{}: {} presets in one call",
        file.display(),
        receiver.presets.len()
    );
    receiver
}

/// The id of the factory preset whose file is `file` (`ID.orchard.json`).
fn factory_id(file: &Path) -> String {
    let name = file.file_name().unwrap().to_str().unwrap();
    name.strip_suffix(".orchard.json").unwrap().to_string()
}

#[test]
fn hosts_find_every_preset_and_load_each_into_the_plugin() {
    let folder = user_folder();
    let factory_folder =
        std::env::temp_dir().join(format!("orchard-clap-factory-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&factory_folder);
    // SAFETY: set before the plugin is loaded, under the host lock, and
    // read by no other test of this file.
    unsafe {
        std::env::set_var("ORCHARD_PRESET_DIR", &folder);
        std::env::set_var("ORCHARD_FACTORY_PRESET_DIR", &factory_folder);
    }
    with_plugin(|entry| {
        let mut provider = provider(entry);
        let declared = provider.indexer();
        assert_eq!(declared.file_types, ["json"]);
        assert_eq!(declared.soundpacks, 0);
        let locations = declared.locations.clone();
        assert_eq!(locations.len(), 2, "{locations:?}");
        // The factory presets: a folder of files, written at `init`.
        assert_eq!(locations[0].1, Flags::IS_FACTORY_CONTENT);
        let factory_folder = factory_folder.canonicalize().expect("the folder was made");
        assert_eq!(locations[0].2.as_deref(), Some(factory_folder.as_path()));
        assert_eq!(locations[1].1, Flags::IS_USER_CONTENT);
        assert_eq!(locations[1].2.as_deref(), Some(folder.as_path()));
        let extensions = declared.file_types.clone();

        // Every factory preset: a file of its own, named by its id, holding
        // one preset without a load key, for Orchard, factory content,
        // described and given keywords.
        let factory_files = crawl(&factory_folder, &extensions);
        assert_eq!(factory_files.len(), orchard::factory::all().len());
        let mut found = Vec::new();
        for file in &factory_files {
            let receiver = file_metadata(&mut provider, file);
            assert!(receiver.errors.is_empty(), "{:?}", receiver.errors);
            let [preset] = &receiver.presets[..] else {
                panic!("one preset in {}", file.display());
            };
            check_factory(preset);
            assert_eq!(preset.load_key, None);
            let id = factory_id(file);
            assert_eq!(preset.name, orchard::factory::named(&id).unwrap().name);
            found.push((file.clone(), preset.clone()));
        }
        let names: Vec<_> = found.iter().map(|(_, p)| p.name.as_str()).collect();
        for wanted in FACTORY_NAMES {
            assert!(names.contains(&wanted), "{wanted} missing from {names:?}");
        }
        let grand = found
            .iter()
            .find(|(_, p)| p.name == "Bright grand")
            .unwrap();
        assert!(grand.1.features.iter().any(|f| f == "piano"), "{grand:?}");

        // The user folder, crawled file by file: the presets described as
        // the user's, the broken file reported in a line that names it, the
        // other program's JSON passed over without a word.
        let ours = ("clap".to_string(), PLUGIN_ID.to_string());
        let files = crawl(&folder, &extensions);
        assert_eq!(files.len(), 4, "{files:?}");
        let mut user = Vec::new();
        for file in &files {
            let receiver = file_metadata(&mut provider, file);
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
                    let preset = &receiver.presets[0];
                    let (wanted, instrument) = match name {
                        "Parlour box.orchard.json" => ("Parlour box", "Music box"),
                        _ => ("Studio celesta", "Celesta"),
                    };
                    assert_eq!(preset.name, wanted);
                    assert_eq!(preset.load_key, None);
                    assert_eq!(preset.plugin_ids, std::slice::from_ref(&ours));
                    assert_eq!(preset.flags, Some(Flags::IS_USER_CONTENT));
                    assert!(preset.description.contains(instrument), "{preset:?}");
                    user.push(CString::new(file.to_str().unwrap()).unwrap());
                }
            }
        }
        assert_eq!(user.len(), 2);
        drop(provider);

        // A second scan writes nothing: every file is left as it was.
        let modified = |file: &Path| std::fs::metadata(file).unwrap().modified().unwrap();
        let before: Vec<_> = factory_files.iter().map(|f| modified(f)).collect();
        drop(self::provider(entry));
        let after: Vec<_> = factory_files.iter().map(|f| modified(f)).collect();
        assert_eq!(before, after);

        // Where the folder cannot be made (here, below a file), the factory
        // presets are inside the plugin: one container, every preset named
        // and under a load key of its own.
        let blocked = folder.join("notes.json").join("factory");
        // SAFETY: as above; the plugin reads it in `init`, on this thread.
        unsafe { std::env::set_var("ORCHARD_FACTORY_PRESET_DIR", &blocked) };
        let mut provider = self::provider(entry);
        let locations = provider.indexer().locations.clone();
        assert_eq!(locations.len(), 2, "{locations:?}");
        assert_eq!(locations[0].1, Flags::IS_FACTORY_CONTENT);
        assert_eq!(locations[0].2, None, "factory presets inside the plugin");
        let mut container = Receiver::default();
        provider.get_metadata(Location::Plugin, &mut container);
        assert!(container.errors.is_empty(), "{:?}", container.errors);
        let contained = container.presets;
        assert_eq!(contained.len(), found.len());
        for preset in &contained {
            check_factory(preset);
            let key = preset.load_key.as_deref().expect("a load key");
            assert_eq!(
                contained
                    .iter()
                    .filter(|p| p.load_key.as_deref() == Some(key))
                    .count(),
                1
            );
            let file = factory_folder.join(format!("{key}.orchard.json"));
            let as_file = found.iter().find(|(f, _)| *f == file).expect("its file");
            assert_eq!(
                Found {
                    load_key: None,
                    ..preset.clone()
                },
                as_file.1
            );
        }
        drop(provider);
        // SAFETY: as above.
        unsafe { std::env::set_var("ORCHARD_FACTORY_PRESET_DIR", &factory_folder) };

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
        let instrument_of = |id: &str| {
            orchard::factory::named(id)
                .unwrap()
                .preset
                .instrument
                .clone()
        };
        for (file, _) in &found {
            let path = CString::new(file.to_str().unwrap()).unwrap();
            load(&mut instance, Location::File { path: &path }, None)
                .expect("the factory preset loads");
            let state = saved_state(&mut instance);
            let instrument = instrument_of(&factory_id(file));
            assert!(
                state.contains(&format!("\"{instrument}\"")),
                "{file:?}: {state}"
            );
        }
        for preset in &contained {
            let key = preset.load_key.as_deref();
            load(&mut instance, Location::Plugin, key).expect("the factory preset loads");
            let state = saved_state(&mut instance);
            let instrument = instrument_of(key.unwrap());
            assert!(
                state.contains(&format!("\"{instrument}\"")),
                "{key:?}: {state}"
            );
        }
        assert_eq!(log.0.borrow().len(), found.len() + contained.len());
        assert!(
            log.0
                .borrow()
                .iter()
                .all(|entry| entry.starts_with("loaded "))
        );

        // Voicings: the bright grand's felt is harder and its strings
        // brighter than the defaults, the mellow grand's softer and duller.
        // Both parameters run from −1 to 1. A factory preset's file stands
        // for the preset compiled in: gone or overwritten, it loads the same.
        let close = |normalized: f64, plain: f64| (normalized - (plain + 1.0) / 2.0).abs() < 1e-6;
        let bright = factory_folder.join("bright-grand.orchard.json");
        std::fs::remove_file(&bright).unwrap();
        let bright = CString::new(bright.to_str().unwrap()).unwrap();
        load(&mut instance, Location::File { path: &bright }, None).unwrap();
        assert!(close(value_of(&mut instance, "Hammer hardness"), 1.0));
        assert!(close(value_of(&mut instance, "Brightness"), 0.5));
        let mellow = factory_folder.join("mellow-grand.orchard.json");
        std::fs::write(&mellow, "not a preset").unwrap();
        let mellow = CString::new(mellow.to_str().unwrap()).unwrap();
        load(&mut instance, Location::File { path: &mellow }, None).unwrap();
        assert!(close(value_of(&mut instance, "Hammer hardness"), -1.0));
        assert!(close(value_of(&mut instance, "Brightness"), -0.5));
        load(&mut instance, Location::Plugin, Some("bright-grand")).unwrap();
        assert!(close(value_of(&mut instance, "Hammer hardness"), 1.0));
        // The next scan puts both files back.
        drop(self::provider(entry));
        for id in ["bright-grand", "mellow-grand"] {
            let file = factory_folder.join(format!("{id}.orchard.json"));
            let preset = user_preset::read(&file).unwrap();
            assert_eq!(preset, orchard::factory::named(id).unwrap().preset);
        }

        // The user's preset: its instrument, its parameters (the others at
        // their defaults again) and its property edit in the saved state.
        let parlour = &user[0];
        load(&mut instance, Location::File { path: parlour }, None).unwrap();
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
            &format!("loaded {}", parlour.to_str().unwrap())
        );
        load(&mut instance, Location::File { path: &user[1] }, None).unwrap();
        let a4 = 415.0 + 51.0 * value_of(&mut instance, "A4 tuning");
        assert!((a4 - 430.0).abs() < 1e-3, "{a4}");
        assert!(saved_state(&mut instance).contains("\"celesta\""));

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
    let _ = std::fs::remove_dir_all(&factory_folder);
}
