//! The engine's modules form layers, and no files import each other in a
//! circle: the workspace's layer check (`orchard-layers`, which the
//! command line's and the plugin's tests run too; its documentation says
//! what it reads and reports) on `engine/src`, with the engine's layer
//! table. There are no exceptions: every violation fails the test.

use std::path::Path;

/// The engine's top-level modules from the lowest layer to the highest: a
/// module may import from its own layer and the layers below. The crate root
/// (`lib.rs`) is above every layer.
const LAYERS: &[&[&str]] = &[
    // Leaves: none of them imports another module of the crate today (a
    // module may import from its own layer, without a circle of files).
    &[
        "air", "analysis", "capacity", "input", "props", "random", "signal", "wdf",
    ],
    // Leaves built on other leaves: the resonators on the wave-digital
    // filters, the mechanics on the inputs and the properties.
    &["mech", "resonators"],
    &["room"],
    &["instrument"],
    &["rt"],
    &["midi"],
    &["families"],
];

#[test]
fn no_import_runs_up_a_layer_and_no_files_import_each_other_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = orchard_layers::check_crate(&src, LAYERS);
    assert!(found.is_empty(), "\n{}", orchard_layers::report(&found));
}
