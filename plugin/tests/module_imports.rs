//! The plugin's modules form layers, and no files import each other in a
//! circle: the workspace's layer check (`orchard-layers`, which the engine's
//! and the command line's tests run too) on `plugin/src`, with the plugin's
//! layer table. The binary's files (`src/bin/`) and the unit tests are not
//! read.

use std::path::Path;

/// The plugin's top-level modules from the lowest layer to the highest
/// (`lib.rs` lists them the other way round): a module may import from its
/// own layer and the layers below. The crate root only declares modules and
/// re-exports; it is above every layer.
const LAYERS: &[&[&str]] = &[
    // Leaves: the choices some parameters offer, the output's guard.
    &["microphone_choice", "output_guard", "tuning_choices"],
    // The host parameters, each declared once: ids, ranges, defaults.
    &["host_params"],
    // MIDI learn: bindings of controllers to parameter ids and properties.
    &["learn"],
    // Everything the host saves (the parameters, the instrument state, the
    // editor's layout, the bindings); the editor's link to the audio thread.
    &["link", "params"],
    // The sound the parameters and the state describe.
    &["sound"],
    // Off and on the audio thread: rebuilds, the block's events, the
    // controllers' property moves; the factory and user presets.
    &[
        "background",
        "events",
        "factory",
        "property_moves",
        "user_preset",
    ],
    &["standalone"],
    &["editor"],
    // The plugin: the synthesiser, its lifecycle and `process`.
    &["plugin"],
    // The entry points the hosts call.
    &["clap_export", "vst3_export"],
];

#[test]
fn no_import_runs_up_a_layer_and_no_files_import_each_other_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = orchard_layers::check_crate(&src, LAYERS);
    assert!(found.is_empty(), "\n{}", orchard_layers::report(&found));
}
