//! Orchard's VST3 entry point, written out instead of `nice_export_vst3!`
//! so that each instance can be wrapped ([`component`]): the host is
//! offered the MIDI controller proxies of the controllers Orchard plays
//! ([`controllers`]) instead of all 2080 nice-plug registers, and loads
//! the plugin in a fraction of the time, and the editor is Orchard's own
//! view ([`view`]), which nice-plug's wrapper never sees
//! ([`crate::editor::handoff`]).
//! The factory is otherwise nice-plug's: one class, Orchard, described by
//! nice-plug's [`PluginInfo`].

mod component;
mod controllers;
#[cfg(feature = "editor")]
mod gui_context;
#[cfg(feature = "editor")]
mod stream;
#[cfg(feature = "editor")]
mod view;
#[cfg(all(feature = "editor", target_family = "unix", not(target_os = "macos")))]
mod wakeup;

#[cfg(all(test, feature = "editor"))]
mod editor_tests;

use std::ffi::c_void;
use std::sync::OnceLock;

use nice_plug::wrapper::vst3::PluginInfo;
use nice_plug::wrapper::vst3::vst3::Steinberg::{
    FIDString, FUnknown, IPluginFactory, IPluginFactory2, IPluginFactory2Trait, IPluginFactory3,
    IPluginFactory3Trait, IPluginFactoryTrait, PClassInfo, PClassInfo2, PClassInfoW, PFactoryInfo,
    TUID, int32, kInvalidArgument, kResultOk, tresult,
};
use nice_plug::wrapper::vst3::vst3::{Class, ComWrapper};

use crate::plugin::Orchard;
use component::Component;

/// Orchard's class description, made once.
fn info() -> &'static PluginInfo {
    static INFO: OnceLock<PluginInfo> = OnceLock::new();
    INFO.get_or_init(PluginInfo::for_plugin::<Orchard>)
}

/// The factory the host asks for Orchard's class and its instances.
pub struct Factory;

impl Class for Factory {
    type Interfaces = (IPluginFactory, IPluginFactory2, IPluginFactory3);
}

/// Writes `value` to the host's `out`, unless it is null.
///
/// # Safety
/// `out` is null or valid for a write of `T`.
unsafe fn answer<T>(out: *mut T, value: impl FnOnce() -> T) -> tresult {
    if out.is_null() {
        return kInvalidArgument;
    }
    // SAFETY: not null, and valid by the caller's word.
    unsafe { out.write(value()) };
    kResultOk
}

/// Whether `index` names the factory's one class.
fn is_orchard(index: int32) -> bool {
    index == 0
}

impl IPluginFactoryTrait for Factory {
    unsafe fn getFactoryInfo(&self, info: *mut PFactoryInfo) -> tresult {
        // SAFETY: the host's pointer, checked for null.
        unsafe { answer(info, || self::info().create_factory_info()) }
    }

    unsafe fn countClasses(&self) -> int32 {
        1
    }

    unsafe fn getClassInfo(&self, index: int32, info: *mut PClassInfo) -> tresult {
        if !is_orchard(index) {
            return kInvalidArgument;
        }
        // SAFETY: the host's pointer, checked for null.
        unsafe { answer(info, || self::info().create_class_info()) }
    }

    unsafe fn createInstance(
        &self,
        cid: FIDString,
        iid: FIDString,
        obj: *mut *mut c_void,
    ) -> tresult {
        if cid.is_null() || obj.is_null() {
            return kInvalidArgument;
        }
        // SAFETY: a class id is 16 bytes.
        let cid = unsafe { &*(cid as *const [u8; 16]) };
        if cid != info().cid {
            return kInvalidArgument;
        }
        let instance = ComWrapper::new(Component::new());
        let Some(unknown) = instance.as_com_ref::<FUnknown>() else {
            return kInvalidArgument;
        };
        let ptr = unknown.as_ptr();
        // SAFETY: a live object's own `queryInterface`, with the host's
        // interface id and out pointer (checked for null); it takes the
        // reference the host keeps.
        unsafe { ((*(*ptr).vtbl).queryInterface)(ptr, iid as *const TUID, obj) }
    }
}

impl IPluginFactory2Trait for Factory {
    unsafe fn getClassInfo2(&self, index: int32, info: *mut PClassInfo2) -> tresult {
        if !is_orchard(index) {
            return kInvalidArgument;
        }
        // SAFETY: the host's pointer, checked for null.
        unsafe { answer(info, || self::info().create_class_info_2()) }
    }
}

impl IPluginFactory3Trait for Factory {
    unsafe fn getClassInfoUnicode(&self, index: int32, info: *mut PClassInfoW) -> tresult {
        if !is_orchard(index) {
            return kInvalidArgument;
        }
        // SAFETY: the host's pointer, checked for null.
        unsafe { answer(info, || self::info().create_class_info_unicode()) }
    }

    unsafe fn setHostContext(&self, _context: *mut FUnknown) -> tresult {
        kResultOk
    }
}

/// The VST3 module's factory, a new reference for the host.
#[unsafe(no_mangle)]
pub extern "system" fn GetPluginFactory() -> *mut c_void {
    ComWrapper::new(Factory)
        .to_com_ptr::<IPluginFactory>()
        .map_or(std::ptr::null_mut(), |factory| {
            factory.into_raw() as *mut c_void
        })
}

/// Called by Linux hosts when they load the module.
#[unsafe(no_mangle)]
#[cfg(all(target_family = "unix", not(target_os = "macos")))]
pub extern "C" fn ModuleEntry(_library: *mut c_void) -> bool {
    nice_plug::wrapper::setup_logger::<Orchard>();
    true
}

/// Called by Linux hosts when they unload the module.
#[unsafe(no_mangle)]
#[cfg(all(target_family = "unix", not(target_os = "macos")))]
pub extern "C" fn ModuleExit() -> bool {
    true
}

/// Called by macOS hosts when they load the bundle.
#[unsafe(no_mangle)]
#[cfg(target_os = "macos")]
pub extern "C" fn bundleEntry(_bundle: *mut c_void) -> bool {
    nice_plug::wrapper::setup_logger::<Orchard>();
    true
}

/// Called by macOS hosts when they unload the bundle.
#[unsafe(no_mangle)]
#[cfg(target_os = "macos")]
pub extern "C" fn bundleExit() -> bool {
    true
}

/// Called by Windows hosts when they load the DLL.
#[unsafe(no_mangle)]
#[cfg(target_os = "windows")]
pub extern "system" fn InitDll() -> bool {
    nice_plug::wrapper::setup_logger::<Orchard>();
    true
}

/// Called by Windows hosts when they unload the DLL.
#[unsafe(no_mangle)]
#[cfg(target_os = "windows")]
pub extern "system" fn ExitDll() -> bool {
    true
}
