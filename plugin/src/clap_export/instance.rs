//! A plugin instance as hosts see it: nice-plug's `clap_plugin` with the
//! `preset-load` extension added.
//!
//! The host holds a pointer to [`Instance`], whose first field is a copy of
//! the wrapper's `clap_plugin`: the same `plugin_data` (the nice-plug
//! wrapper) and the same functions, which read nothing of the pointer they
//! are given but its `plugin_data`. Only `destroy` (which also frees the
//! copy) and `get_extension` (which adds `preset-load`) are Orchard's.
//!
//! Loading a preset works out what it sets exactly as the editor's browser
//! does ([`user_preset::plan`]) and hands the result to the wrapper as a state to
//! restore, the way the wrapper restores a project the host loads; the host
//! is told the parameters changed.

use std::ffi::{CStr, c_char, c_void};
use std::path::Path;

use clap_sys::ext::preset_load::{
    CLAP_EXT_PRESET_LOAD, CLAP_EXT_PRESET_LOAD_COMPAT, clap_host_preset_load,
    clap_plugin_preset_load,
};
use clap_sys::factory::preset_discovery::{
    CLAP_PRESET_DISCOVERY_LOCATION_FILE, CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN,
    clap_preset_discovery_location_kind,
};
use nice_plug::wrapper::clap::{Wrapper, clap_host, clap_plugin};

use super::text::{c_string, str_at};
use crate::params::OrchardParams;
use crate::plugin::Orchard;
use crate::user_preset::{self, UserPreset};

/// What the host's pointer points to.
#[repr(C)]
struct Instance {
    /// The wrapper's `clap_plugin`, with two functions replaced. First, so a
    /// pointer to it is a pointer to the instance.
    plugin: clap_plugin,
    /// The wrapper's own `clap_plugin`.
    inner: *const clap_plugin,
    /// The host that created the instance.
    host: *const clap_host,
}

/// The `preset-load` extension's table.
static PRESET_LOAD: clap_plugin_preset_load = clap_plugin_preset_load {
    from_location: Some(from_location),
};

/// Wraps nice-plug's instance `inner`, created for `host`.
///
/// # Safety
/// `inner` is a valid instance from `Wrapper::new` that nothing else
/// destroys; `host` is the host's valid `clap_host`.
pub unsafe fn wrap(inner: *const clap_plugin, host: *const clap_host) -> *const clap_plugin {
    // SAFETY: `inner` is valid, as the caller promises.
    let mut plugin = unsafe { *inner };
    plugin.destroy = Some(destroy);
    plugin.get_extension = Some(get_extension);
    let instance = Box::new(Instance {
        plugin,
        inner,
        host,
    });
    Box::into_raw(instance).cast()
}

/// The instance behind the host's pointer.
///
/// # Safety
/// `plugin` came from [`wrap`] and is not yet destroyed.
unsafe fn instance<'a>(plugin: *const clap_plugin) -> &'a Instance {
    // SAFETY: `Instance` is `repr(C)` with the `clap_plugin` first.
    unsafe { &*plugin.cast::<Instance>() }
}

unsafe extern "C" fn destroy(plugin: *const clap_plugin) {
    if plugin.is_null() {
        return;
    }
    // SAFETY: the host destroys each instance it created once.
    let instance = unsafe { Box::from_raw(plugin.cast::<Instance>().cast_mut()) };
    // SAFETY: the wrapper's own instance, destroyed once, here.
    if let Some(inner_destroy) = unsafe { (*instance.inner).destroy } {
        unsafe { inner_destroy(instance.inner) };
    }
}

unsafe extern "C" fn get_extension(plugin: *const clap_plugin, id: *const c_char) -> *const c_void {
    if plugin.is_null() || id.is_null() {
        return std::ptr::null();
    }
    // SAFETY: a non-null NUL-terminated id from the host.
    let wanted = unsafe { CStr::from_ptr(id) };
    if wanted == CLAP_EXT_PRESET_LOAD || wanted == CLAP_EXT_PRESET_LOAD_COMPAT {
        return (&raw const PRESET_LOAD).cast();
    }
    // SAFETY: `plugin` came from `wrap`; the wrapper's functions are valid.
    let inner = unsafe { instance(plugin).inner };
    match unsafe { (*inner).get_extension } {
        Some(inner_get) => unsafe { inner_get(inner, id) },
        None => std::ptr::null(),
    }
}

/// The preset at a location a host found by preset discovery.
///
/// # Safety
/// `location` and `load_key` are null or NUL-terminated strings.
unsafe fn preset_at(
    kind: clap_preset_discovery_location_kind,
    location: *const c_char,
    load_key: *const c_char,
) -> Result<UserPreset, String> {
    match kind {
        CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN => {
            // SAFETY: as the caller promises.
            let key = unsafe { str_at(load_key) }.ok_or("a factory preset needs a load key")?;
            crate::factory::named(key)
                .map(|preset| preset.preset.clone())
                .ok_or_else(|| {
                    format!(
                        "no factory preset \"{}\"",
                        orchard_engine::input::excerpt(key)
                    )
                })
        }
        CLAP_PRESET_DISCOVERY_LOCATION_FILE => {
            // SAFETY: as the caller promises.
            let path = unsafe { str_at(location) }.ok_or("a preset file location needs a path")?;
            // A factory preset's file stands for the preset compiled in.
            match super::factory_files::preset_of(Path::new(path)) {
                Some(preset) => Ok(preset.preset.clone()),
                None => user_preset::read(Path::new(path)),
            }
        }
        other => Err(format!("unknown preset location kind {other}")),
    }
}

/// Loads `preset` into the wrapper: worked out as the editor does, set as a
/// restored state.
fn load(wrapper: &Wrapper<Orchard>, preset: &UserPreset) -> Result<(), String> {
    // The plan needs the parameters' ranges and defaults, which a fresh
    // set has as the instance's does.
    let params = OrchardParams::default();
    let plan = user_preset::plan(preset, &params)?;
    for warning in &plan.loaded.warnings {
        nice_plug::nice_warn!("Orchard preset: {warning}");
    }
    let mut state = wrapper.get_state_object();
    user_preset::write_state(preset, &plan, &params, &mut state);
    // As the wrapper restores a state the host loads (`clap.state`), on this
    // (the main) thread: nothing waits for, or allocates on, the audio
    // thread, which picks the new values up at its next block.
    if wrapper.set_state_inner(&mut state) {
        Ok(())
    } else {
        Err("the plugin refused the preset's state".into())
    }
}

/// The host's `preset-load` extension, if it has one.
///
/// # Safety
/// `host` is the host's valid `clap_host`.
unsafe fn host_preset_load<'a>(host: *const clap_host) -> Option<&'a clap_host_preset_load> {
    // SAFETY: a valid host, as the caller promises.
    let get = unsafe { (*host).get_extension }?;
    [CLAP_EXT_PRESET_LOAD, CLAP_EXT_PRESET_LOAD_COMPAT]
        .into_iter()
        // SAFETY: the host returns null or a pointer to its extension table.
        .map(|id| unsafe { get(host, id.as_ptr()) })
        .find(|pointer| !pointer.is_null())
        .map(|pointer| unsafe { &*pointer.cast::<clap_host_preset_load>() })
}

/// `clap_plugin_preset_load::from_location` (main thread): loads the
/// preset and tells the host it did (`loaded`), or why not (`on_error`).
unsafe extern "C" fn from_location(
    plugin: *const clap_plugin,
    kind: clap_preset_discovery_location_kind,
    location: *const c_char,
    load_key: *const c_char,
) -> bool {
    if plugin.is_null() {
        return false;
    }
    // SAFETY: `plugin` came from `wrap`; its `plugin_data` is nice-plug's
    // `Wrapper<Orchard>`, alive until `destroy`.
    let instance = unsafe { instance(plugin) };
    let wrapper = unsafe { &*(*instance.inner).plugin_data.cast::<Wrapper<Orchard>>() };
    // SAFETY: the host passes null or NUL-terminated strings.
    let result = unsafe { preset_at(kind, location, load_key) }.and_then(|p| load(wrapper, &p));
    // SAFETY: the host that created the instance is valid while it lives.
    let host_ext = unsafe { host_preset_load(instance.host) };
    match result {
        Ok(()) => {
            if let Some(loaded) = host_ext.and_then(|ext| ext.loaded) {
                // SAFETY: the host's own function, with the host's arguments.
                unsafe { loaded(instance.host, kind, location, load_key) };
            }
            true
        }
        Err(error) => {
            nice_plug::nice_error!("Orchard cannot load the preset: {error}");
            if let Some(on_error) = host_ext.and_then(|ext| ext.on_error) {
                let message = c_string(&error);
                // SAFETY: the host's own function, with the host's arguments.
                unsafe { on_error(instance.host, kind, location, load_key, 0, message.as_ptr()) };
            }
            false
        }
    }
}
