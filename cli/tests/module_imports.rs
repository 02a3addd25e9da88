//! The crate's modules and their imports, read from `cli/src`: no module
//! imports through the crate root, no two modules import each other (directly
//! or in a longer circle), and every import runs down the layers `lib.rs`
//! lists (a module imports modules of its own layer or of those below).
//!
//! An import is a path beginning `crate::` or `super::` outside comments and
//! the `#[cfg(test)]` module at a file's end; it names the module file that is
//! the longest known prefix of the path.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module: its path below the crate root (empty for the root).
type Module = Vec<String>;

/// Every module of the crate under `src` (the binary's `main.rs` aside),
/// with its file's text.
fn modules(src: &Path) -> BTreeMap<Module, String> {
    let mut found = BTreeMap::new();
    let mut folders = vec![src.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let relative = path.strip_prefix(src).unwrap().with_extension("");
            let mut module: Module = relative
                .iter()
                .map(|part| part.to_string_lossy().into_owned())
                .collect();
            if path.extension().is_none_or(|e| e != "rs") || module == ["main"] {
                continue;
            }
            if module
                .last()
                .is_some_and(|last| last == "mod" || last == "lib")
            {
                module.pop();
            }
            found.insert(module, std::fs::read_to_string(&path).unwrap());
        }
    }
    found
}

/// `text` without its `#[cfg(test)]` module and its comments.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths written in `code` that begin with `crate` or `super`, each use
/// tree (`crate::{a, b::{c, self}}`) expanded into its paths.
fn paths(code: &str) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    for start in 0..chars.len() {
        let before = start.checked_sub(1).map(|i| chars[i]);
        let begins_word = before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'));
        let rest: String = chars[start..chars.len().min(start + 7)].iter().collect();
        if begins_word && (rest.starts_with("crate::") || rest.starts_with("super::")) {
            tree(&chars, &mut start.clone(), Vec::new(), &mut found);
        }
    }
    found
}

/// Reads the use tree at `at` below `prefix` into `found`.
fn tree(chars: &[char], at: &mut usize, mut prefix: Vec<String>, found: &mut Vec<Vec<String>>) {
    let skip_space = |at: &mut usize| {
        while chars.get(*at).is_some_and(|c| c.is_whitespace()) {
            *at += 1;
        }
    };
    loop {
        skip_space(at);
        if chars.get(*at) == Some(&'{') {
            *at += 1;
            loop {
                tree(chars, at, prefix.clone(), found);
                skip_space(at);
                match chars.get(*at) {
                    Some(',') => *at += 1,
                    _ => break,
                }
                skip_space(at);
                if chars.get(*at) == Some(&'}') {
                    break;
                }
            }
            *at += 1;
            return;
        }
        let word: String = chars[*at..]
            .iter()
            .take_while(|c| c.is_alphanumeric() || **c == '_' || **c == '*')
            .collect();
        *at += word.chars().count();
        if !word.is_empty() && word != "self" && word != "*" {
            prefix.push(word);
        }
        if chars.get(*at..*at + 2) == Some(&[':', ':']) {
            *at += 2;
        } else {
            found.push(prefix);
            return;
        }
    }
}

/// The modules each module imports (itself and the ones it contains aside).
fn imports(modules: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    modules
        .iter()
        .map(|(module, text)| {
            let mut targets = BTreeSet::new();
            for path in paths(&code(text)) {
                let mut full = module.clone();
                let mut rest = path.as_slice();
                if rest[0] == "crate" {
                    full.clear();
                    rest = &rest[1..];
                }
                while rest.first().is_some_and(|s| s == "super") {
                    full.pop();
                    rest = &rest[1..];
                }
                full.extend(rest.iter().cloned());
                let target = (0..=full.len())
                    .rev()
                    .map(|n| full[..n].to_vec())
                    .find(|prefix| modules.contains_key(prefix));
                if let Some(target) = target.filter(|t| !t.starts_with(module)) {
                    targets.insert(target);
                }
            }
            (module.clone(), targets)
        })
        .collect()
}

/// A circle of imports, as the modules along it, if there is one.
fn circle(imports: &BTreeMap<Module, BTreeSet<Module>>) -> Option<Vec<Module>> {
    fn visit(
        module: &Module,
        imports: &BTreeMap<Module, BTreeSet<Module>>,
        path: &mut Vec<Module>,
        done: &mut BTreeSet<Module>,
    ) -> Option<Vec<Module>> {
        if let Some(at) = path.iter().position(|m| m == module) {
            return Some(path[at..].to_vec());
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.clone());
        for target in imports.get(module).into_iter().flatten() {
            if let Some(circle) = visit(target, imports, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(module.clone());
        None
    }
    let mut done = BTreeSet::new();
    imports
        .keys()
        .find_map(|module| visit(module, imports, &mut Vec::new(), &mut done))
}

/// The layer of each top-level module `lib` declares, 0 the top: a comment
/// line after a blank line begins the next layer.
fn layers(lib: &str) -> BTreeMap<String, usize> {
    let mut layer = 0;
    let mut layers = BTreeMap::new();
    let mut blank = false;
    for line in lib.lines().map(str::trim) {
        if blank && line.starts_with("// ") && !layers.is_empty() {
            layer += 1;
        }
        if let Some(name) = line.strip_prefix("pub mod ").or(line.strip_prefix("mod ")) {
            layers.insert(name.trim_end_matches(';').to_owned(), layer);
        }
        blank = line.is_empty();
    }
    layers
}

fn crate_imports() -> (BTreeMap<Module, String>, BTreeMap<Module, BTreeSet<Module>>) {
    let modules = modules(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let imports = imports(&modules);
    (modules, imports)
}

fn shown(module: &Module) -> String {
    if module.is_empty() {
        "the crate root".to_owned()
    } else {
        module.join("::")
    }
}

#[test]
fn no_module_imports_through_the_crate_root() {
    let (_, imports) = crate_imports();
    let through_root: Vec<String> = imports
        .iter()
        .filter(|(_, targets)| targets.contains(&Vec::new()))
        .map(|(module, _)| shown(module))
        .collect();
    assert!(
        through_root.is_empty(),
        "import from the module that defines the item, not the root: {through_root:?}"
    );
}

#[test]
fn no_modules_import_each_other() {
    let (_, imports) = crate_imports();
    assert!(imports.len() > 30, "{} modules read", imports.len());
    if let Some(circle) = circle(&imports) {
        let names: Vec<String> = circle.iter().map(shown).collect();
        panic!("these modules import each other: {}", names.join(" -> "));
    }
}

#[test]
fn imports_run_down_the_layers_lib_rs_lists() {
    let (modules, imports) = crate_imports();
    let layers = layers(&modules[&Vec::new()]);
    assert!(
        layers.values().max() >= Some(&3),
        "lib.rs lists its modules in layers: {layers:?}"
    );
    let layer = |module: &Module| layers[&module[0]];
    for (module, targets) in imports.iter().filter(|(m, _)| !m.is_empty()) {
        for target in targets.iter().filter(|t| !t.is_empty()) {
            assert!(
                layer(target) >= layer(module),
                "{} (layer {}) imports {} of a layer above it ({})",
                shown(module),
                layer(module),
                shown(target),
                layer(target)
            );
        }
    }
}

/// The reader itself: use trees, `super`, the module a path ends in,
/// comments and tests left out, and a circle found.
#[test]
fn the_reader_finds_imports_and_circles() {
    let text = |s: &str| s.to_owned();
    let modules: BTreeMap<Module, String> = [
        (vec![], text("pub mod a;\n\n// Low.\npub mod b;\n")),
        (
            vec![text("a")],
            text("use crate::{b::{self, X}, c::d::Y};\n// crate::e\nfn f() { super::e::g(); }"),
        ),
        (
            vec![text("b")],
            text("#[cfg(test)]\nmod tests { use crate::a; }"),
        ),
        (vec![text("c"), text("d")], text("use super::super::a::Z;")),
        (vec![text("e")], text("")),
    ]
    .into_iter()
    .collect();
    let imports = imports(&modules);
    let a = vec![text("a")];
    let (b, d, e) = (vec![text("b")], vec![text("c"), text("d")], vec![text("e")]);
    assert_eq!(imports[&a], [b.clone(), d.clone(), e].into_iter().collect());
    assert!(imports[&b].is_empty());
    assert_eq!(circle(&imports), Some(vec![a.clone(), d.clone()]));
    assert_eq!(
        layers(&modules[&vec![]]),
        [(text("a"), 0), (text("b"), 1)].into()
    );
}
