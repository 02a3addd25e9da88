//! The checker on made-up crates, and on its own.

use std::collections::BTreeMap;
use std::path::Path;

use orchard_layers::{Violation, check, check_crate, report};

/// A made-up crate: (path, text) pairs.
fn sources(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

/// Two layers: `low` below `high`.
const TWO_LAYERS: &[&[&str]] = &[&["low"], &["high"]];

/// One layer, for crates of one module, `low`.
const ONE_LAYER: &[&[&str]] = &[&["low"]];

fn keys(found: &[Violation]) -> Vec<&str> {
    found.iter().map(|v| v.key.as_str()).collect()
}

#[test]
fn an_upward_import_is_reported_with_its_file_and_line() {
    let files = sources(&[
        ("lib.rs", "pub mod high;\npub mod low;\n"),
        ("high/mod.rs", "pub struct Synth;\npub fn play() {}\n"),
        ("low/mod.rs", "mod a;\nmod b;\nmod c;\n"),
        ("low/a.rs", "use std::fmt;\n\nuse crate::high::Synth;\n"),
        ("low/b.rs", "use crate::{low::a, high::{Synth, play}};\n"),
        ("low/c.rs", "fn f() {\n    crate::high::play();\n}\n"),
    ]);
    let found = check(&files, TWO_LAYERS);
    assert_eq!(
        keys(&found),
        [
            "low/a.rs: low imports high",
            "low/b.rs: low imports high",
            "low/c.rs: low imports high"
        ]
    );
    assert!(
        found[0].detail.contains("low/a.rs:3: high::Synth"),
        "{found:?}"
    );
    assert!(
        found[1].detail.contains("low/b.rs:1: high::play"),
        "{found:?}"
    );
    assert!(
        found[2].detail.contains("low/c.rs:2: high::play"),
        "{found:?}"
    );
}

#[test]
fn a_downward_import_and_imports_in_comments_strings_and_tests_are_not_reported() {
    let files = sources(&[
        ("lib.rs", "pub mod high;\npub mod low;\n"),
        ("high/mod.rs", "use crate::low::Filter;\n"),
        (
            "low/mod.rs",
            concat!(
                "//! [`crate::high::Synth`] plays it.\n",
                "/* use crate::high::X; /* nested */ crate::high::Y */\n",
                "pub struct Filter; // crate::high::Z\n",
                "const PATH: &str = \"crate::high::Synth\";\n",
                "const RAW: &str = r#\"use crate::high::Synth;\"#;\n",
                "fn f<'a>(x: &'a str) -> char { '\"' }\n",
                "#[cfg(test)]\n",
                "mod tests {\n",
                "    use crate::high::Synth;\n",
                "}\n",
            ),
        ),
    ]);
    assert_eq!(check(&files, TWO_LAYERS), []);
}

#[test]
fn a_module_in_no_layer_a_missing_one_and_an_import_of_the_crate_root_are_reported() {
    let files = sources(&[
        (
            "lib.rs",
            "pub mod low;\npub mod stray;\npub fn arithmetic() {}\n",
        ),
        ("low/mod.rs", "fn f() { crate::arithmetic(); }\n"),
        ("stray.rs", "\n"),
    ]);
    assert_eq!(
        keys(&check(&files, TWO_LAYERS)),
        [
            "high of LAYERS is no module of the crate",
            "low/mod.rs: low imports arithmetic",
            "stray is in no layer of LAYERS"
        ]
    );
}

#[test]
fn files_that_import_each_other_are_reported_as_one_circle() {
    let files = sources(&[
        ("lib.rs", "pub mod low;\n"),
        ("low/mod.rs", "mod a;\nmod b;\nmod c;\nmod d;\n"),
        ("low/a.rs", "use super::b::B;\npub struct A;\n"),
        ("low/b.rs", "pub struct B(super::c::C);\n"),
        ("low/c.rs", "use self::super::a::A;\npub struct C;\n"),
        ("low/d.rs", "use super::a::A;\n"),
    ]);
    let found = check(&files, ONE_LAYER);
    assert_eq!(keys(&found), ["circle: low/a.rs low/b.rs low/c.rs"]);
    assert!(
        found[0].detail.contains("low/b.rs:1 uses low/c.rs"),
        "{found:?}"
    );
}

#[test]
fn a_mod_rs_re_exporting_its_children_imports_them_only_if_it_uses_them() {
    let child = ("low/child.rs", "use super::Shared;\npub struct Item;\n");
    let only_re_exports = sources(&[
        ("lib.rs", "pub mod low;\n"),
        (
            "low/mod.rs",
            "mod child;\npub use child::Item;\npub struct Shared;\n",
        ),
        child,
    ]);
    assert_eq!(check(&only_re_exports, ONE_LAYER), []);
    let uses_it = sources(&[
        ("lib.rs", "pub mod low;\n"),
        (
            "low/mod.rs",
            "mod child;\npub use child::Item;\npub struct Shared(Item);\n",
        ),
        child,
    ]);
    assert_eq!(
        keys(&check(&uses_it, ONE_LAYER)),
        ["circle: low/child.rs low/mod.rs"]
    );
}

#[test]
fn an_imported_name_is_followed_through_re_exports_to_its_defining_file() {
    // `a` imports `Bee` through `mod.rs`, which re-exports it from `b`; `b`
    // imports `a`: a circle of `a` and `b`, not involving `mod.rs`.
    let files = sources(&[
        ("lib.rs", "pub mod low;\n"),
        (
            "low/mod.rs",
            "mod a;\nmod b;\npub use b::Bee as Renamed;\npub use a::*;\n",
        ),
        ("low/a.rs", "use super::Renamed;\npub fn ay() {}\n"),
        ("low/b.rs", "pub struct Bee;\nfn f() { super::ay() }\n"),
    ]);
    assert_eq!(
        keys(&check(&files, ONE_LAYER)),
        ["circle: low/a.rs low/b.rs"]
    );
}

#[test]
fn an_exported_macro_belongs_to_the_module_that_defines_it() {
    let files = sources(&[
        ("lib.rs", "pub mod high;\npub mod low;\n"),
        (
            "low/mod.rs",
            "#[macro_export]\nmacro_rules! declare { () => {} }\nuse crate::shout;\n",
        ),
        (
            "high/mod.rs",
            "use crate::declare;\n#[macro_export]\nmacro_rules! shout { () => {} }\n",
        ),
    ]);
    // `declare` from below is fine; `shout` from above runs up, and the two
    // files, each using the other's macro, import each other.
    assert_eq!(
        keys(&check(&files, TWO_LAYERS)),
        [
            "low/mod.rs: low imports high",
            "circle: high/mod.rs low/mod.rs"
        ]
    );
}

#[test]
fn test_modules_are_left_out_wherever_they_are_and_the_rest_is_read() {
    let files = sources(&[
        (
            "lib.rs",
            concat!(
                "#[cfg(test)]\n",
                "#[path = \"../tests/helpers.rs\"]\n",
                "mod helpers;\n",
                "pub mod high;\n",
                "pub mod low;\n",
            ),
        ),
        ("high/mod.rs", "pub struct Synth;\n"),
        (
            "low/mod.rs",
            concat!(
                "mod inner {\n",
                "    #[cfg(all(test, feature = \"x\"))]\n",
                "    pub(crate) mod tests {\n",
                "        use crate::high::Synth;\n",
                "        fn f() { if true { crate::high::Synth; } }\n",
                "    }\n",
                "    fn g() {}\n",
                "}\n",
                "#[cfg(test)]\n",
                "mod more_tests;\n",
                "use crate::high::Synth;\n",
            ),
        ),
        ("low/more_tests.rs", "use crate::high::Synth;\n"),
        ("helpers.rs", "use crate::high::Synth;\n"),
    ]);
    let found = check(&files, TWO_LAYERS);
    assert_eq!(keys(&found), ["low/mod.rs: low imports high"]);
    assert!(
        found[0].detail.contains("low/mod.rs:11: high::Synth"),
        "{}",
        report(&found)
    );
}

#[test]
fn a_name_in_the_table_that_is_no_module_is_reported() {
    let files = sources(&[("lib.rs", "pub mod low;\n"), ("low.rs", "\n")]);
    assert_eq!(
        keys(&check(&files, TWO_LAYERS)),
        ["high of LAYERS is no module of the crate"]
    );
}

/// The checker's own modules: the text and the graph at the bottom, the
/// modules read from the text above them, the rules on top.
#[test]
fn the_checker_itself_has_layers_and_no_circles() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let layers: &[&[&str]] = &[&["components", "text"], &["modules"], &["rules"]];
    let found = check_crate(&src, layers);
    assert!(found.is_empty(), "\n{}", report(&found));
}
