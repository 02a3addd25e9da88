//! The CLAP preset discovery factory: one provider, which declares Orchard's
//! factory presets and the user preset folder (files `NAME.orchard.json`,
//! when the folder exists), and describes each preset: name, plugin,
//! creator, description, keywords, factory or user content.
//!
//! The factory presets are declared as a folder of files, one preset per
//! file ([`factory_files`]), so that no location a host crawls is a
//! container of several presets (clap-validator 0.4.1 hangs on those:
//! docs/clap-validator-limits.md). Only when that folder cannot be written
//! are they declared inside the plugin instead, as one container, each
//! under its id as load key; loading by that key always works, for hosts
//! that indexed them so.

use std::ffi::{CStr, c_char, c_void};
use std::path::{Path, PathBuf};

use clap_sys::factory::preset_discovery::{
    CLAP_PRESET_DISCOVERY_IS_FACTORY_CONTENT, CLAP_PRESET_DISCOVERY_IS_USER_CONTENT,
    CLAP_PRESET_DISCOVERY_LOCATION_FILE, CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN,
    clap_preset_discovery_factory, clap_preset_discovery_filetype, clap_preset_discovery_indexer,
    clap_preset_discovery_location, clap_preset_discovery_location_kind,
    clap_preset_discovery_metadata_receiver, clap_preset_discovery_provider,
    clap_preset_discovery_provider_descriptor,
};
use clap_sys::timestamp::CLAP_TIMESTAMP_UNKNOWN;
use clap_sys::universal_plugin_id::clap_universal_plugin_id;
use clap_sys::version::CLAP_VERSION;
use nice_plug::prelude::ClapPlugin;

use super::factory_files;
use super::text::{c_string, str_at};
use crate::editor::presets::PresetSource;
use crate::params::OrchardParams;
use crate::plugin::Orchard;
use crate::user_preset::{self, UserPreset};

/// The provider's descriptor.
static DESCRIPTOR: clap_preset_discovery_provider_descriptor =
    clap_preset_discovery_provider_descriptor {
        clap_version: CLAP_VERSION,
        id: c"org.orchard-instruments.orchard.presets".as_ptr(),
        name: c"Orchard presets".as_ptr(),
        vendor: c"Orchard".as_ptr(),
    };

/// The factory.
static FACTORY: clap_preset_discovery_factory = clap_preset_discovery_factory {
    count: Some(count),
    get_descriptor: Some(get_descriptor),
    create: Some(create),
};

/// The factory, for the entry point.
pub fn factory() -> *const c_void {
    (&raw const FACTORY).cast()
}

/// The file type of user presets. CLAP names a type by its last extension
/// (`json`); [`get_metadata`] passes over JSON files that are not Orchard's.
static FILE_TYPE: clap_preset_discovery_filetype = clap_preset_discovery_filetype {
    name: c"Orchard preset".as_ptr(),
    description: c"An instrument, its parameters and property edits (NAME.orchard.json)".as_ptr(),
    file_extension: c"json".as_ptr(),
};

/// A provider: the host's table first, so a pointer to it is a pointer to
/// the provider.
#[repr(C)]
struct Provider {
    raw: clap_preset_discovery_provider,
    /// The host's indexer, for `init`.
    indexer: *const clap_preset_discovery_indexer,
}

unsafe extern "C" fn count(_factory: *const clap_preset_discovery_factory) -> u32 {
    1
}

unsafe extern "C" fn get_descriptor(
    _factory: *const clap_preset_discovery_factory,
    index: u32,
) -> *const clap_preset_discovery_provider_descriptor {
    match index {
        0 => &raw const DESCRIPTOR,
        _ => std::ptr::null(),
    }
}

unsafe extern "C" fn create(
    _factory: *const clap_preset_discovery_factory,
    indexer: *const clap_preset_discovery_indexer,
    provider_id: *const c_char,
) -> *const clap_preset_discovery_provider {
    // SAFETY: the host passes null or a NUL-terminated id.
    let wanted = unsafe { str_at(provider_id) };
    // SAFETY: the descriptor's id is a static C string.
    let ours = unsafe { CStr::from_ptr(DESCRIPTOR.id) }.to_str().ok();
    if indexer.is_null() || wanted.is_none() || wanted != ours {
        return std::ptr::null();
    }
    let provider = Box::new(Provider {
        raw: clap_preset_discovery_provider {
            desc: &raw const DESCRIPTOR,
            provider_data: std::ptr::null_mut(),
            init: Some(init),
            destroy: Some(destroy),
            get_metadata: Some(get_metadata),
            get_extension: Some(get_extension),
        },
        indexer,
    });
    Box::into_raw(provider).cast()
}

/// The user preset folder as an absolute path, if it exists.
fn user_folder() -> Option<PathBuf> {
    user_preset::user_folder()
        .and_then(|folder| folder.canonicalize().ok())
        .filter(|folder| folder.is_dir())
}

unsafe extern "C" fn init(provider: *const clap_preset_discovery_provider) -> bool {
    if provider.is_null() {
        return false;
    }
    // SAFETY: `provider` came from `create` (its first field).
    let indexer = unsafe { (*provider.cast::<Provider>()).indexer };
    // SAFETY: the host's indexer, valid while the provider lives.
    let (Some(declare_filetype), Some(declare_location)) =
        (unsafe { ((*indexer).declare_filetype, (*indexer).declare_location) })
    else {
        return false;
    };
    let factory_folder = factory_files::folder()
        .and_then(|folder| factory_files::write_all(&folder).ok())
        .and_then(|folder| folder.to_str().map(c_string));
    let (kind, location) = match &factory_folder {
        Some(folder) => (CLAP_PRESET_DISCOVERY_LOCATION_FILE, folder.as_ptr()),
        None => (CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN, std::ptr::null()),
    };
    let factory_location = clap_preset_discovery_location {
        flags: CLAP_PRESET_DISCOVERY_IS_FACTORY_CONTENT,
        name: c"Orchard factory presets".as_ptr(),
        kind,
        location,
    };
    // SAFETY: the host's functions with its indexer and tables that live
    // through the calls.
    let mut declared = unsafe {
        declare_filetype(indexer, &raw const FILE_TYPE)
            && declare_location(indexer, &raw const factory_location)
    };
    if let Some(folder) = user_folder().and_then(|f| f.to_str().map(c_string)) {
        let user_location = clap_preset_discovery_location {
            flags: CLAP_PRESET_DISCOVERY_IS_USER_CONTENT,
            name: c"User presets".as_ptr(),
            kind: CLAP_PRESET_DISCOVERY_LOCATION_FILE,
            location: folder.as_ptr(),
        };
        // SAFETY: as above.
        declared &= unsafe { declare_location(indexer, &raw const user_location) };
    }
    declared
}

unsafe extern "C" fn destroy(provider: *const clap_preset_discovery_provider) {
    if !provider.is_null() {
        // SAFETY: made by `create`, destroyed once by the host.
        drop(unsafe { Box::from_raw(provider.cast::<Provider>().cast_mut()) });
    }
}

unsafe extern "C" fn get_extension(
    _provider: *const clap_preset_discovery_provider,
    _extension_id: *const c_char,
) -> *const c_void {
    std::ptr::null()
}

/// One preset's metadata, as it goes to the host.
struct Metadata<'a> {
    name: &'a str,
    /// For presets inside the plugin.
    load_key: Option<&'a str>,
    flags: u32,
    description: &'a str,
    features: &'a [&'a str],
    /// Seconds since 1970, or `CLAP_TIMESTAMP_UNKNOWN`.
    modified_s: u64,
}

/// The metadata of a factory preset, with `load_key` inside the plugin and
/// none as a file of its own.
fn factory_metadata<'a>(
    preset: &'a crate::factory::FactoryPreset,
    load_key: Option<&'a str>,
) -> Metadata<'a> {
    Metadata {
        name: &preset.name,
        load_key,
        flags: CLAP_PRESET_DISCOVERY_IS_FACTORY_CONTENT,
        description: &preset.description,
        features: preset.features,
        modified_s: CLAP_TIMESTAMP_UNKNOWN,
    }
}

/// Sends `preset` to the host's receiver. Returns false if the host wants
/// no more.
///
/// # Safety
/// `receiver` is the host's valid receiver.
unsafe fn send(receiver: &clap_preset_discovery_metadata_receiver, preset: &Metadata) -> bool {
    let name = c_string(preset.name);
    let load_key = preset.load_key.map(c_string);
    let key_pointer = load_key.as_ref().map_or(std::ptr::null(), |k| k.as_ptr());
    // SAFETY: the host's functions, each called with its own receiver and
    // strings that live through the call.
    unsafe {
        let Some(begin) = receiver.begin_preset else {
            return false;
        };
        if !begin(receiver, name.as_ptr(), key_pointer) {
            return false;
        }
        let plugin_id = c_string(Orchard::CLAP_ID);
        let id = clap_universal_plugin_id {
            abi: c"clap".as_ptr(),
            id: plugin_id.as_ptr(),
        };
        if let Some(add_plugin_id) = receiver.add_plugin_id {
            add_plugin_id(receiver, &raw const id);
        }
        if let Some(set_flags) = receiver.set_flags {
            set_flags(receiver, preset.flags);
        }
        if let Some(add_creator) = receiver.add_creator {
            add_creator(receiver, c"Orchard".as_ptr());
        }
        if let Some(set_description) = receiver.set_description {
            set_description(receiver, c_string(preset.description).as_ptr());
        }
        if let Some(set_timestamps) = receiver.set_timestamps
            && preset.modified_s != CLAP_TIMESTAMP_UNKNOWN
        {
            set_timestamps(receiver, CLAP_TIMESTAMP_UNKNOWN, preset.modified_s);
        }
        if let Some(add_feature) = receiver.add_feature {
            for feature in preset.features {
                add_feature(receiver, c_string(feature).as_ptr());
            }
        }
    }
    true
}

/// The metadata of the user preset file at `path`: its name, and what it is
/// built on. Errors (unreadable, malformed, unknown instrument) in one line.
fn user_preset(path: &Path) -> Result<(UserPreset, String, String), String> {
    let preset = user_preset::read(path)?;
    user_preset::plan(&preset, &OrchardParams::default())
        .map_err(|error| format!("{}: {error}", path.display()))?;
    let name = PresetSource::File(path.to_path_buf()).name();
    let base = crate::factory::named(&preset.instrument)
        .map_or_else(|| preset.instrument.clone(), |base| base.name.clone());
    Ok((preset, name, format!("User preset on the {base}")))
}

/// Seconds since 1970 of the file's last change, if known.
fn modified_s(path: &Path) -> u64 {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(CLAP_TIMESTAMP_UNKNOWN, |d| d.as_secs())
}

unsafe extern "C" fn get_metadata(
    _provider: *const clap_preset_discovery_provider,
    kind: clap_preset_discovery_location_kind,
    location: *const c_char,
    receiver: *const clap_preset_discovery_metadata_receiver,
) -> bool {
    if receiver.is_null() {
        return false;
    }
    // SAFETY: the host's receiver, valid through this call.
    let receiver = unsafe { &*receiver };
    match kind {
        CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN => {
            for preset in crate::factory::all() {
                // SAFETY: the host's receiver.
                if !unsafe { send(receiver, &factory_metadata(preset, Some(preset.id))) } {
                    break;
                }
            }
            true
        }
        CLAP_PRESET_DISCOVERY_LOCATION_FILE => {
            // SAFETY: the host passes a NUL-terminated path.
            let Some(path) = (unsafe { str_at(location) }).map(Path::new) else {
                return false;
            };
            // Another program's JSON file: not a preset, and no error.
            if !path
                .to_str()
                .is_some_and(|p| p.ends_with(user_preset::EXTENSION))
            {
                return true;
            }
            // A factory preset's file: one preset, no load key. Other files
            // in that folder (left by another version) are passed over.
            if factory_files::in_folder(path) {
                if let Some(preset) = factory_files::preset_of(path) {
                    // SAFETY: the host's receiver.
                    unsafe { send(receiver, &factory_metadata(preset, None)) };
                }
                return true;
            }
            match user_preset(path) {
                Ok((preset, name, description)) => {
                    let features = crate::factory::named(&preset.instrument)
                        .map_or(&["instrument"][..], |base| base.features);
                    let metadata = Metadata {
                        name: &name,
                        load_key: None,
                        flags: CLAP_PRESET_DISCOVERY_IS_USER_CONTENT,
                        description: &description,
                        features,
                        modified_s: modified_s(path),
                    };
                    // SAFETY: the host's receiver.
                    unsafe { send(receiver, &metadata) };
                    true
                }
                Err(error) => {
                    if let Some(on_error) = receiver.on_error {
                        let message = c_string(&error);
                        // SAFETY: the host's function and receiver.
                        unsafe { on_error(receiver, 0, message.as_ptr()) };
                    }
                    false
                }
            }
        }
        _ => false,
    }
}
