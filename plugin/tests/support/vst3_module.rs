//! What the tests that load Orchard's VST3 share: the module built for the
//! tests (the plugin's library carries the VST3 factory), its entry and
//! exit, and a new instance's component and edit controller.

use std::ffi::c_void;
use std::path::PathBuf;

use vst3::ComPtr;
use vst3::Interface;
use vst3::Steinberg::Vst::{IComponent, IEditController};
use vst3::Steinberg::{
    FIDString, IPluginBaseTrait, IPluginFactory, IPluginFactoryTrait, PClassInfo, kResultOk,
};

/// The plugin library built for this test run, beside the test executable.
pub fn plugin_library() -> PathBuf {
    let library = std::env::current_exe()
        .unwrap()
        .with_file_name("liborchard.so");
    assert!(library.exists(), "{} is missing", library.display());
    library
}

/// The loaded module: its library (kept loaded until the process ends, as
/// hosts keep modules) and its factory.
pub struct Module {
    pub library: libloading::Library,
    pub factory: ComPtr<IPluginFactory>,
}

impl Module {
    /// Loads the module and calls its entry point.
    pub fn load() -> Self {
        // SAFETY: loading our own plugin library runs its initialisers; the
        // symbols have the VST3 module's documented signatures.
        unsafe {
            let library = libloading::Library::new(plugin_library()).unwrap();
            let entry: libloading::Symbol<unsafe extern "C" fn(*mut c_void) -> bool> =
                library.get(b"ModuleEntry").unwrap();
            assert!(entry(std::ptr::null_mut()));
            let get_factory: libloading::Symbol<unsafe extern "system" fn() -> *mut c_void> =
                library.get(b"GetPluginFactory").unwrap();
            let factory =
                ComPtr::from_raw(get_factory() as *mut IPluginFactory).expect("a factory");
            Self { library, factory }
        }
    }

    /// A new instance, initialised without a host context: its component
    /// and its edit controller (the same object).
    pub fn instance(&self) -> (ComPtr<IComponent>, ComPtr<IEditController>) {
        // SAFETY: VST3 calls on live objects with valid arguments.
        unsafe {
            let mut class: PClassInfo = std::mem::zeroed();
            assert_eq!(self.factory.getClassInfo(0, &mut class), kResultOk);
            let mut object: *mut c_void = std::ptr::null_mut();
            let created = self.factory.createInstance(
                class.cid.as_ptr(),
                IComponent::IID.as_ptr() as FIDString,
                &mut object,
            );
            assert_eq!(created, kResultOk);
            let component = ComPtr::from_raw(object as *mut IComponent).unwrap();
            assert_eq!(component.initialize(std::ptr::null_mut()), kResultOk);
            let controller = component.cast().expect("an edit controller");
            (component, controller)
        }
    }

    /// Calls the module's exit and leaves the library loaded: threads the
    /// plugin's framework started may still be winding down, and unloading
    /// their code under them crashed a run (SIGSEGV after the test had
    /// passed).
    pub fn exit(self) {
        // SAFETY: the documented signature of the module's exit.
        unsafe {
            let exit: libloading::Symbol<unsafe extern "C" fn() -> bool> =
                self.library.get(b"ModuleExit").unwrap();
            assert!(exit());
        }
        drop(self.factory);
        std::mem::forget(self.library);
    }
}
