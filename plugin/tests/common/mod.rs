//! What the tests that load the built CLAP plugin share: the bundle, one
//! host thread at a time, the host's description.

use std::path::PathBuf;

use clack_host::prelude::*;

/// nice-plug's instances in one process share one background thread, which
/// the last instance to go shuts down; instances torn down on several test
/// threads at once race for that. A host creates and destroys instances on its
/// main thread, one at a time: so do these tests.
static ONE_HOST_THREAD: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `test` with the freshly bundled plugin loaded, while no other test
/// has plugin instances, and removes the bundle afterwards.
pub fn with_plugin(test: impl FnOnce(&PluginEntry)) {
    let _main_thread = ONE_HOST_THREAD.lock().unwrap_or_else(|e| e.into_inner());
    let bundle = clap_bundle();
    // SAFETY: loading a shared library runs its initialisers; this is our own plugin.
    let entry = unsafe { PluginEntry::load(&bundle) }.expect("the bundle loads");
    test(&entry);
    std::fs::remove_dir_all(bundle.parent().unwrap()).ok();
}

/// Bundles the cdylib the way the bundler does on Linux (a `.clap` is the shared
/// library renamed) into a fresh directory, and returns the bundle's path.
pub fn clap_bundle() -> PathBuf {
    // Cargo leaves the library built for this test run beside the test executable,
    // in `deps/`; the copy one level up belongs to whatever plain build came last.
    let test_exe = std::env::current_exe().unwrap();
    let library = test_exe.with_file_name("liborchard.so");
    assert!(
        library.exists(),
        "the plugin library {} was not built",
        library.display()
    );
    let dir = std::env::temp_dir().join(format!("orchard-clap-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bundle = dir.join("Orchard.clap");
    std::fs::copy(&library, &bundle).unwrap();
    bundle
}

/// The test hosts' thread-safe side: requests are ignored (the tests call
/// the plugin when they need to).
pub struct TestHostShared;

impl SharedHandler<'_> for TestHostShared {
    fn request_restart(&self) {}
    fn request_process(&self) {}
    fn request_callback(&self) {}
}

/// The test host's description.
pub fn host_info() -> HostInfo {
    HostInfo::new(
        "Orchard tests",
        "Orchard",
        "https://example.invalid",
        "0.1.0",
    )
    .unwrap()
}
