//! Orchard's CLAP entry point, written out instead of `nice_export_clap!`
//! because hosts find presets through factories and extensions that macro
//! does not offer:
//!
//! - the plugin factory, as nice-plug's (one plugin, Orchard), except that
//!   each instance is wrapped ([`instance`]) to add the `preset-load`
//!   extension;
//! - the preset discovery factory ([`discovery`]), which lists the factory
//!   presets (as files: [`factory_files`]) and the user preset folder.
//!
//! Both factories answer the CLAP 1.2 ids and the draft ids older hosts ask for.

mod discovery;
mod factory_files;
mod instance;
mod text;

use std::ffi::{CStr, c_char, c_void};
use std::sync::{Arc, OnceLock};

use clap_sys::factory::preset_discovery::{
    CLAP_PRESET_DISCOVERY_FACTORY_ID, CLAP_PRESET_DISCOVERY_FACTORY_ID_COMPAT,
};
use nice_plug::wrapper::clap::{
    CLAP_PLUGIN_FACTORY_ID, CLAP_VERSION, PluginDescriptor, Wrapper, clap_host, clap_plugin,
    clap_plugin_descriptor, clap_plugin_entry, clap_plugin_factory,
};

use crate::plugin::Orchard;

/// The entry point's table, exported as `clap_entry` by the crate root.
pub const ENTRY: clap_plugin_entry = clap_plugin_entry {
    clap_version: CLAP_VERSION,
    init: Some(init),
    deinit: Some(deinit),
    get_factory: Some(get_factory),
};

/// The plugin factory: one plugin.
static PLUGIN_FACTORY: clap_plugin_factory = clap_plugin_factory {
    get_plugin_count: Some(plugin_count),
    get_plugin_descriptor: Some(plugin_descriptor),
    create_plugin: Some(create_plugin),
};

/// Orchard's descriptor, made once.
fn descriptor() -> &'static PluginDescriptor {
    static DESCRIPTOR: OnceLock<PluginDescriptor> = OnceLock::new();
    DESCRIPTOR.get_or_init(PluginDescriptor::for_plugin::<Orchard>)
}

extern "C" fn init(_plugin_path: *const c_char) -> bool {
    nice_plug::wrapper::setup_logger::<Orchard>();
    true
}

extern "C" fn deinit() {}

extern "C" fn get_factory(factory_id: *const c_char) -> *const c_void {
    if factory_id.is_null() {
        return std::ptr::null();
    }
    // SAFETY: the host passes a NUL-terminated string (checked non-null above).
    let id = unsafe { CStr::from_ptr(factory_id) };
    if id == CLAP_PLUGIN_FACTORY_ID {
        (&raw const PLUGIN_FACTORY).cast()
    } else if id == CLAP_PRESET_DISCOVERY_FACTORY_ID
        || id == CLAP_PRESET_DISCOVERY_FACTORY_ID_COMPAT
    {
        discovery::factory().cast()
    } else {
        std::ptr::null()
    }
}

unsafe extern "C" fn plugin_count(_factory: *const clap_plugin_factory) -> u32 {
    1
}

unsafe extern "C" fn plugin_descriptor(
    _factory: *const clap_plugin_factory,
    index: u32,
) -> *const clap_plugin_descriptor {
    match index {
        0 => descriptor().clap_plugin_descriptor(),
        _ => std::ptr::null(),
    }
}

unsafe extern "C" fn create_plugin(
    _factory: *const clap_plugin_factory,
    host: *const clap_host,
    plugin_id: *const c_char,
) -> *const clap_plugin {
    if plugin_id.is_null() || host.is_null() {
        return std::ptr::null();
    }
    // SAFETY: the host passes a NUL-terminated string (checked non-null above).
    if unsafe { CStr::from_ptr(plugin_id) } != descriptor().clap_id() {
        return std::ptr::null();
    }
    // SAFETY: `host` is the host's valid `clap_host`, as nice-plug's own
    // factory passes it. The `Arc` is given up here and taken back by the
    // wrapper's `destroy`, which the instance's `destroy` calls.
    let inner = unsafe {
        (*Arc::into_raw(Wrapper::<Orchard>::new(host)))
            .clap_plugin
            .as_ptr()
    };
    // SAFETY: `inner` is fresh from `Wrapper::new`; only the instance destroys it.
    unsafe { instance::wrap(inner, host) }
}
