//! The command line's modules form layers, and no files import each other
//! in a circle: the workspace's layer check (`orchard-layers`, which the
//! engine's and the plugin's tests run too; its documentation says what it
//! reads and reports) on `cli/src`, with the layers `lib.rs` lists. No
//! module imports through the crate root: an import of a root item counts
//! as one up a layer. The binary's `main.rs` is not read.

use std::path::Path;

/// The layers of the top-level modules `lib` declares, the lowest first:
/// `lib.rs` lists them the top one first, and a comment line after a blank
/// line begins the next layer.
fn layers(lib: &str) -> Vec<Vec<&str>> {
    let mut layers: Vec<Vec<&str>> = vec![Vec::new()];
    let mut blank = false;
    for line in lib.lines().map(str::trim) {
        let current = layers.last_mut().expect("a layer");
        if blank && line.starts_with("// ") && !current.is_empty() {
            layers.push(Vec::new());
        }
        if let Some(name) = line.strip_prefix("pub mod ").or(line.strip_prefix("mod ")) {
            let current = layers.last_mut().expect("a layer");
            current.push(name.trim_end_matches(';'));
        }
        blank = line.is_empty();
    }
    layers.reverse();
    layers
}

#[test]
fn no_import_runs_up_the_layers_lib_rs_lists_and_no_files_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let layers = layers(&lib);
    assert!(
        layers.len() >= 4,
        "lib.rs lists its modules in layers: {layers:?}"
    );
    let table: Vec<&[&str]> = layers.iter().map(Vec::as_slice).collect();
    let found = orchard_layers::check_crate(&src, &table);
    assert!(found.is_empty(), "\n{}", orchard_layers::report(&found));
}

#[test]
fn the_layers_are_read_from_the_groups_of_lib_rs() {
    let lib = concat!(
        "//! The crate.\n",
        "// Top.\n",
        "pub mod a;\n",
        "mod b;\n",
        "\n",
        "// Bottom: a comment after a blank line begins a layer.\n",
        "pub mod c;\n",
        "// Still the bottom.\n",
        "pub mod d;\n",
        "\n",
        "pub use c::X;\n",
    );
    assert_eq!(layers(lib), [vec!["c", "d"], vec!["a", "b"]]);
}
