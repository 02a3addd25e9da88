//! The layer check of the workspace's crates: a crate's modules form
//! layers, and no files import each other in a circle. The engine's
//! (`engine/tests/layers.rs`), the command line's
//! (`cli/tests/module_imports.rs`) and the plugin's
//! (`plugin/tests/module_imports.rs`) tests each give it their crate's
//! layer table.
//!
//! The check reads every source file of a crate (`src/**/*.rs`, the files
//! `lib.rs` declares with `mod`), leaves out comments, string contents and
//! the test-only modules, and finds every import and path to another
//! module: `use` declarations (grouped or not, at any depth), and `crate::`,
//! `super::`, `self::` and child-module paths in the code. It reports
//!
//! - an import from a top-level module to a module of a higher layer, or
//!   to an item of the crate root (which is above every layer), naming the
//!   file and the line; a top-level module in no layer, and a name in the
//!   table that is no module of the crate;
//! - files that import each other in a circle: each imported name is
//!   followed to the file that defines it (through `use` re-exports, an
//!   exported macro to the file that declares it), and every strongly
//!   connected component of more than one file is reported. A `mod x;`
//!   declaration is no import, and neither is a `pub use` that only
//!   re-exports (a `mod.rs` re-exporting its children's items imports them
//!   only if it uses them itself).
//!
//! It has no exceptions: every violation is reported.

mod components;
mod modules;
mod rules;
mod text;

use std::collections::BTreeMap;
use std::path::Path;

use modules::Crate;
pub use rules::Violation;

/// The layer and circle violations of the crate whose sources are `files`
/// (path relative to `src`, with `/` between components → text), for the
/// layer table `layers`: the crate's top-level modules from the lowest
/// layer to the highest; a module may import from its own layer and the
/// layers below.
pub fn check(files: &BTreeMap<String, String>, layers: &[&[&str]]) -> Vec<Violation> {
    let crate_ = Crate::parse(files);
    let mut found = crate_.upward_imports(layers);
    found.extend(crate_.circles());
    found
}

/// The violations of the crate whose sources are in the folder `src` (it
/// holds `lib.rs`), for the layer table `layers` (see [`check`]).
///
/// # Panics
/// If `src` or a file in it cannot be read, or `src` has no `lib.rs`.
pub fn check_crate(src: &Path, layers: &[&[&str]]) -> Vec<Violation> {
    let files = read_sources(src);
    assert!(files.contains_key("lib.rs"), "{}: no lib.rs", src.display());
    check(&files, layers)
}

/// The violations as a test failure shows them: each one's key, then where.
pub fn report(found: &[Violation]) -> String {
    found
        .iter()
        .map(|v| format!("{}\n{}\n", v.key, v.detail))
        .collect()
}

/// Every `.rs` file below `src`, keyed by its path relative to `src` with
/// `/` between components.
///
/// # Panics
/// If a folder or a file cannot be read.
pub fn read_sources(src: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    read_folder(src, src, &mut files);
    files
}

fn read_folder(root: &Path, dir: &Path, files: &mut BTreeMap<String, String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_folder(root, &path, files);
        } else if path.extension().is_some_and(|x| x == "rs") {
            let relative = path.strip_prefix(root).expect("below the root");
            let key = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            files.insert(key, text);
        }
    }
}
