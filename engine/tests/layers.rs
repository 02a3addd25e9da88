//! The engine's modules form layers, and no files import each other in a
//! circle.
//!
//! The test reads every source file of the crate (`src/**/*.rs`, the files
//! `lib.rs` declares with `mod`), leaves out comments, string contents and
//! the unit-test modules, and finds every import and path to another module:
//! `use` declarations (grouped or not, at any depth), and `crate::`,
//! `super::`, `self::` and child-module paths in the code. It fails on
//!
//! - an import from a top-level module to a module of a higher layer
//!   ([`LAYERS`]), naming the file and the line;
//! - files that import each other in a circle: each imported name is
//!   followed to the file that defines it (through `use` re-exports), and
//!   every strongly connected component of more than one file is reported.
//!   A `mod x;` declaration is no import, and neither is a `pub use` that
//!   only re-exports (a `mod.rs` re-exporting its children's items imports
//!   them only if it uses them itself).
//!
//! There are no exceptions: every violation fails the test.

use std::collections::{BTreeMap, BTreeSet};
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
    let mut files = BTreeMap::new();
    read_sources(&src, &src, &mut files);
    let found = check(&files, LAYERS);
    let report: String = found
        .iter()
        .map(|v| format!("{}\n{}\n", v.key, v.detail))
        .collect();
    assert!(report.is_empty(), "\n{report}");
}

/// Every `.rs` file below `dir`, keyed by its path relative to `root` with
/// `/` between components.
fn read_sources(root: &Path, dir: &Path, files: &mut BTreeMap<String, String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_sources(root, &path, files);
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

/// One broken rule: `key` names it for [`STILL_BEING_REMOVED`] (stable
/// under edits that move lines), `detail` says where.
#[derive(Debug, Clone, PartialEq)]
struct Violation {
    key: String,
    detail: String,
}

/// The layer and circle violations of the crate whose sources are `files`
/// (path relative to `src` → text), for the layer table `layers`.
fn check(files: &BTreeMap<String, String>, layers: &[&[&str]]) -> Vec<Violation> {
    let crate_ = Crate::parse(files);
    let mut found = crate_.upward_imports(layers);
    found.extend(crate_.circles());
    found
}

// ---------------------------------------------------------------------------
// Reading source text: comments, strings and test modules left out.
// ---------------------------------------------------------------------------

/// `text` without comments (line, doc and nested block comments) and with
/// every string and character literal emptied; line breaks stay where they
/// were, so line numbers still hold. From the first unindented
/// `#[cfg(test)]` (or `#[cfg(all(test, …))]`) on a module, the rest of the
/// file is left out: the unit tests.
fn strip(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if c[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
            out.push(' ');
        } else if let Some(end) = raw_string_end(&c, i, &out) {
            for &x in &c[i..end] {
                if x == '\n' {
                    out.push('\n');
                }
            }
            out.push_str("\"\"");
            i = end;
        } else if ch == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                if c.get(i) == Some(&'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            out.push_str("\"\"");
            i += 1;
        } else if ch == '\'' && next == Some('\\') {
            // An escaped character literal: '\n', '\'', '\u{…}'.
            i += 3;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            out.push_str("' '");
            i += 1;
        } else if ch == '\'' && c.get(i + 2) == Some(&'\'') {
            out.push_str("' '");
            i += 3;
        } else {
            out.push(ch);
            i += 1;
        }
    }
    without_test_modules(&out)
}

/// Where the raw string starting at `i` (`r"…"`, `r#"…"#`, `br"…"`) ends,
/// if one starts there.
fn raw_string_end(c: &[char], i: usize, before: &str) -> Option<usize> {
    let after_ident = before
        .chars()
        .next_back()
        .is_some_and(|p| p.is_alphanumeric() || p == '_');
    if after_ident {
        return None;
    }
    let mut j = match (c[i], c.get(i + 1)) {
        ('r', _) => i + 1,
        ('b', Some('r')) => i + 2,
        _ => return None,
    };
    let mut hashes = 0;
    while c.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if c.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < c.len() {
        if c[j] == '"' && (0..hashes).all(|k| c.get(j + 1 + k) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(c.len())
}

/// `code` up to its first unindented test-only module attribute.
fn without_test_modules(code: &str) -> String {
    let lines: Vec<&str> = code.lines().collect();
    let is_test_cfg = |l: &str| l.starts_with("#[cfg(test)]") || l.starts_with("#[cfg(all(test,");
    for (n, line) in lines.iter().enumerate() {
        if !is_test_cfg(line) {
            continue;
        }
        let item = lines[n + 1..]
            .iter()
            .map(|l| l.trim())
            .find(|l| !l.is_empty() && !l.starts_with("#["));
        if item.is_some_and(|l| l.starts_with("mod ") || l.starts_with("pub mod ")) {
            return lines[..n].join("\n");
        }
    }
    code.to_string()
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Sep,
    Punct(char),
}

#[derive(Debug, Clone, PartialEq)]
struct Token {
    tok: Tok,
    line: usize,
}

/// The tokens of stripped code that matter here: identifiers (and numbers),
/// `::` and single punctuation; lifetimes are dropped.
fn tokens(code: &str) -> Vec<Token> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let is_ident = |x: char| x.is_alphanumeric() || x == '_';
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if is_ident(ch) {
            let start = i;
            while i < c.len() && is_ident(c[i]) {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(c[start..i].iter().collect()),
                line,
            });
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(Token {
                tok: Tok::Sep,
                line,
            });
            i += 2;
        } else if ch == '\'' && c.get(i + 1).is_some_and(|&x| is_ident(x)) {
            // A lifetime or a label: not an identifier of its own.
            i += 1;
            while i < c.len() && is_ident(c[i]) {
                i += 1;
            }
        } else {
            out.push(Token {
                tok: Tok::Punct(ch),
                line,
            });
            i += 1;
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The crate's modules, what each defines, imports and re-exports.
// ---------------------------------------------------------------------------

/// A module's path from the crate root (`[]` for the root).
type ModPath = Vec<String>;

/// One name a `use` declaration brings in: `path` as written (relative to
/// `module`), under `name` (`*` for a glob).
#[derive(Debug, Clone)]
struct UseEntry {
    module: ModPath,
    path: Vec<String>,
    name: String,
    line: usize,
    /// `pub`, `pub(crate)`, … at the module's item level: a re-export.
    public: bool,
    /// At the module's item level (not in a function body).
    module_level: bool,
}

/// A path written in the code (not in a `use`): `crate::a::b`, `super::x`,
/// `self::y`, `child::z`.
#[derive(Debug, Clone)]
struct InlinePath {
    module: ModPath,
    path: Vec<String>,
    line: usize,
}

#[derive(Debug, Default)]
struct Module {
    file: String,
    /// Child modules, by name (declared `mod x;` or inline `mod x { … }`).
    children: BTreeSet<String>,
    /// Names of the items it defines.
    items: BTreeSet<String>,
    /// Names its module-level `use` declarations bring in → their paths as
    /// written, relative to it.
    imports: BTreeMap<String, Vec<String>>,
    /// Its glob `use` declarations.
    globs: Vec<Vec<String>>,
}

#[derive(Debug, Default)]
struct SourceFile {
    module: ModPath,
    uses: Vec<UseEntry>,
    paths: Vec<InlinePath>,
    /// Identifiers used outside `use` declarations.
    used_names: BTreeSet<String>,
}

#[derive(Debug, Default)]
struct Crate {
    modules: BTreeMap<ModPath, Module>,
    files: BTreeMap<String, SourceFile>,
    /// `#[macro_export]` macros, reached as `crate::NAME` → the module that
    /// defines them.
    exported_macros: BTreeMap<String, ModPath>,
}

/// Item keywords whose next identifier is the item's name.
const ITEM_KEYWORDS: &[&str] = &[
    "struct", "enum", "trait", "union", "type", "fn", "const", "static",
];

impl Crate {
    /// The modules reachable from `lib.rs` through `mod` declarations.
    fn parse(sources: &BTreeMap<String, String>) -> Self {
        let mut crate_ = Crate::default();
        let mut queue = vec![("lib.rs".to_string(), ModPath::new())];
        while let Some((file, module)) = queue.pop() {
            let Some(text) = sources.get(&file) else {
                continue;
            };
            let declared = crate_.parse_file(&file, &module, &strip(text));
            for child in declared {
                let dir = match file.rsplit_once('/') {
                    _ if file == "lib.rs" => String::new(),
                    Some((dir, "mod.rs")) => format!("{dir}/"),
                    _ => format!("{}/", file.trim_end_matches(".rs")),
                };
                let flat = format!("{dir}{child}.rs");
                let nested = format!("{dir}{child}/mod.rs");
                let path = if sources.contains_key(&flat) {
                    flat
                } else {
                    nested
                };
                let mut child_module = module.clone();
                child_module.push(child);
                queue.push((path, child_module));
            }
        }
        crate_
    }

    /// Reads one file of module `module`; returns the child modules it
    /// declares with `mod x;`.
    fn parse_file(&mut self, file: &str, module: &ModPath, code: &str) -> Vec<String> {
        let toks = tokens(code);
        let ident = |i: usize| match toks.get(i).map(|t| &t.tok) {
            Some(Tok::Ident(s)) => Some(s.as_str()),
            _ => None,
        };
        let punct = |i: usize, p: char| toks.get(i).map(|t| &t.tok) == Some(&Tok::Punct(p));
        let sep = |i: usize| toks.get(i).map(|t| &t.tok) == Some(&Tok::Sep);
        let mut source = SourceFile {
            module: module.clone(),
            ..SourceFile::default()
        };
        let mut declared = Vec::new();
        // Open modules: the file's own and the inline ones in it, with the
        // brace depth of their items.
        let mut stack: Vec<(ModPath, usize)> = vec![(module.clone(), 0)];
        self.module_entry(module, file);
        let mut depth = 0;
        let mut i = 0;
        while i < toks.len() {
            let (current, item_depth) = stack.last().cloned().expect("the file's module");
            let at_items = depth == item_depth;
            match &toks[i].tok {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => {
                    depth = depth.saturating_sub(1);
                    if stack.len() > 1 && depth < item_depth {
                        stack.pop();
                    }
                }
                Tok::Ident(word) if word == "use" => {
                    let public = ident(i.wrapping_sub(1)) == Some("pub")
                        || (punct(i.wrapping_sub(1), ')') && {
                            let open = (0..i).rev().find(|&j| punct(j, '('));
                            open.is_some_and(|j| ident(j.wrapping_sub(1)) == Some("pub"))
                        });
                    let mut j = i + 1;
                    let mut entries = Vec::new();
                    parse_use_tree(&toks, &mut j, Vec::new(), &mut entries);
                    while j < toks.len() && !punct(j, ';') {
                        j += 1;
                    }
                    for (path, name, line) in entries {
                        if at_items {
                            let m = self.module_entry(&current, file);
                            if name == "*" {
                                m.globs.push(path.clone());
                            } else {
                                m.imports.insert(name.clone(), path.clone());
                            }
                        }
                        source.uses.push(UseEntry {
                            module: current.clone(),
                            path,
                            name,
                            line,
                            public: public && at_items,
                            module_level: at_items,
                        });
                    }
                    i = j + 1;
                    continue;
                }
                Tok::Ident(word) if word == "mod" && at_items => {
                    if let Some(name) = ident(i + 1) {
                        self.module_entry(&current, file)
                            .children
                            .insert(name.to_string());
                        let mut child = current.clone();
                        child.push(name.to_string());
                        if punct(i + 2, '{') {
                            self.module_entry(&child, file);
                            stack.push((child, depth + 1));
                        } else if current == *module {
                            declared.push(name.to_string());
                        }
                        i += 2;
                        continue;
                    }
                }
                Tok::Ident(word) if word == "macro_rules" && at_items && punct(i + 1, '!') => {
                    if let Some(name) = ident(i + 2) {
                        self.module_entry(&current, file)
                            .items
                            .insert(name.to_string());
                        let exported = punct(i.wrapping_sub(1), ']')
                            && ident(i.wrapping_sub(2)) == Some("macro_export");
                        if exported {
                            self.exported_macros
                                .insert(name.to_string(), current.clone());
                        }
                    }
                }
                Tok::Ident(word) if ITEM_KEYWORDS.contains(&word.as_str()) && at_items => {
                    let mut j = i + 1;
                    if word == "static" && ident(j) == Some("mut") {
                        j += 1;
                    }
                    if let Some(name) = ident(j).filter(|n| !ITEM_KEYWORDS.contains(n)) {
                        let qualifier = ["unsafe", "async", "extern", "_"].contains(&name);
                        if !qualifier {
                            self.module_entry(&current, file)
                                .items
                                .insert(name.to_string());
                        }
                    }
                }
                Tok::Ident(word) => {
                    source.used_names.insert(word.clone());
                    let starts_path = sep(i + 1) && !sep(i.wrapping_sub(1));
                    if starts_path {
                        let line = toks[i].line;
                        let mut path = vec![word.clone()];
                        let mut j = i + 1;
                        while sep(j) {
                            match ident(j + 1) {
                                Some(s) => path.push(s.to_string()),
                                None => break,
                            }
                            j += 2;
                        }
                        source.paths.push(InlinePath {
                            module: current.clone(),
                            path,
                            line,
                        });
                        for k in i + 1..j {
                            if let Some(s) = ident(k) {
                                source.used_names.insert(s.to_string());
                            }
                        }
                        i = j;
                        continue;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        self.files.insert(file.to_string(), source);
        declared
    }

    fn module_entry(&mut self, module: &ModPath, file: &str) -> &mut Module {
        self.modules
            .entry(module.clone())
            .or_insert_with(|| Module {
                file: file.to_string(),
                ..Module::default()
            })
    }

    /// `path` as written in `module`, from the crate root; `None` for a path
    /// into another crate (or a local name that is no module of this one).
    fn absolute(&self, module: &ModPath, path: &[String]) -> Option<ModPath> {
        let first = path.first()?;
        let (mut base, mut rest) = match first.as_str() {
            "crate" => (ModPath::new(), &path[1..]),
            "self" | "super" => (module.clone(), path),
            _ => {
                let here = self.modules.get(module)?;
                if !here.children.contains(first) {
                    return None;
                }
                (module.clone(), path)
            }
        };
        while let Some(segment) = rest.first() {
            match segment.as_str() {
                "self" => {}
                "super" => {
                    base.pop()?;
                }
                _ => break,
            }
            rest = &rest[1..];
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The file that defines what the absolute `path` names (a module's
    /// file for a module), following `use` declarations.
    fn defining_file(&self, path: &[String], hops: usize) -> Option<String> {
        if hops > 32 {
            return None;
        }
        if let [name] = path
            && let Some(defining) = self.exported_macros.get(name)
        {
            return self.modules.get(defining).map(|m| m.file.clone());
        }
        let mut module: ModPath = Vec::new();
        for (i, segment) in path.iter().enumerate() {
            let m = self.modules.get(&module)?;
            if m.children.contains(segment) {
                module.push(segment.clone());
                continue;
            }
            if m.items.contains(segment) {
                return Some(m.file.clone());
            }
            let via = |written: &[String]| {
                let mut target = self.absolute(&module, written)?;
                target.extend(path[i + 1..].iter().cloned());
                self.defining_file(&target, hops + 1)
            };
            if let Some(written) = m.imports.get(segment) {
                return via(written);
            }
            return m.globs.iter().find_map(|glob| {
                let mut written = glob.clone();
                written.extend(path[i..].iter().cloned());
                let target = self.absolute(&module, &written)?;
                self.defining_file(&target, hops + 1)
            });
        }
        self.modules.get(&module).map(|m| m.file.clone())
    }

    /// Every import of every file: (file, line, absolute path), and whether
    /// it counts as the file depending on what it names (a re-export the
    /// file does not use itself does not).
    fn imports(&self) -> Vec<(String, usize, ModPath, bool)> {
        let mut out = Vec::new();
        for (file, source) in &self.files {
            for u in &source.uses {
                let mut written = u.path.clone();
                if u.name == "*" {
                    // A glob imports from the module it names.
                } else if written.last().is_some_and(|s| s == "self") {
                    written.pop();
                }
                let Some(abs) = self.absolute(&u.module, &written) else {
                    continue;
                };
                let depends = !u.public || source.used_names.contains(&u.name);
                let depends = depends || !u.module_level;
                out.push((file.clone(), u.line, abs, depends));
            }
            for p in &source.paths {
                if let Some(abs) = self.absolute(&p.module, &p.path) {
                    out.push((file.clone(), p.line, abs, true));
                }
            }
        }
        out
    }

    /// Imports from a top-level module to a higher layer, one violation per
    /// file and module imported.
    fn upward_imports(&self, layers: &[&[&str]]) -> Vec<Violation> {
        let top_modules = &self.modules.get(&ModPath::new()).expect("lib.rs").children;
        let level = |name: &str| layers.iter().position(|layer| layer.contains(&name));
        let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for module in top_modules {
            if level(module).is_none() {
                found
                    .entry(format!("{module} is in no layer of LAYERS"))
                    .or_default();
            }
        }
        for (file, line, abs, _) in self.imports() {
            let source = &self.files[&file].module;
            let Some(from) = source.first() else {
                continue; // the crate root is above every layer
            };
            let Some(to) = abs.first() else {
                continue;
            };
            if to == from {
                continue;
            }
            // An exported macro is reached from the crate root but belongs
            // to the module that defines it.
            let to = match self.exported_macros.get(to) {
                Some(defining) if abs.len() == 1 => defining.first().unwrap_or(to),
                _ => to,
            };
            let upward = match (level(from), top_modules.contains(to)) {
                (Some(a), true) => level(to).is_some_and(|b| b > a),
                // An item of the crate root, above every layer.
                (Some(_), false) => true,
                (None, _) => false,
            };
            if upward {
                found
                    .entry(format!("{file}: {from} imports {to}"))
                    .or_default()
                    .push(format!("  {file}:{line}: {}", abs.join("::")));
            }
        }
        found
            .into_iter()
            .map(|(key, lines)| Violation {
                key,
                detail: lines.join("\n"),
            })
            .collect()
    }

    /// The file → file dependencies: each import resolved to the file that
    /// defines what it names.
    fn dependencies(&self) -> BTreeMap<String, BTreeMap<String, Vec<usize>>> {
        let mut edges: BTreeMap<String, BTreeMap<String, Vec<usize>>> = BTreeMap::new();
        for file in self.files.keys() {
            edges.entry(file.clone()).or_default();
        }
        for (file, line, abs, depends) in self.imports() {
            if !depends {
                continue;
            }
            if let Some(target) = self.defining_file(&abs, 0).filter(|t| *t != file) {
                edges
                    .entry(file)
                    .or_default()
                    .entry(target)
                    .or_default()
                    .push(line);
            }
        }
        edges
    }

    /// Every strongly connected component of more than one file.
    fn circles(&self) -> Vec<Violation> {
        let edges = self.dependencies();
        strongly_connected(&edges)
            .into_iter()
            .filter(|component| component.len() > 1)
            .map(|component| {
                let members: BTreeSet<&String> = component.iter().collect();
                let mut detail = Vec::new();
                for from in &component {
                    for (to, lines) in &edges[from] {
                        if members.contains(to) {
                            let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                            detail.push(format!("  {from}:{} uses {to}", lines.join(",")));
                        }
                    }
                }
                Violation {
                    key: format!("circle: {}", component.join(" ")),
                    detail: detail.join("\n"),
                }
            })
            .collect()
    }
}

/// Reads a use tree at `toks[*i]` below `prefix`: every (path, local name,
/// line) it imports, `*` as the name of a glob.
fn parse_use_tree(
    toks: &[Token],
    i: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, String, usize)>,
) {
    let mut path = prefix;
    if toks.get(*i).map(|t| &t.tok) == Some(&Tok::Sep) {
        *i += 1;
    }
    while let Some(token) = toks.get(*i) {
        match &token.tok {
            Tok::Ident(segment) => {
                path.push(segment.clone());
                *i += 1;
                if toks.get(*i).map(|t| &t.tok) == Some(&Tok::Sep) {
                    *i += 1;
                    continue;
                }
                let alias = match (toks.get(*i), toks.get(*i + 1)) {
                    (
                        Some(Token {
                            tok: Tok::Ident(kw),
                            ..
                        }),
                        Some(Token {
                            tok: Tok::Ident(a), ..
                        }),
                    ) if kw == "as" => {
                        *i += 2;
                        Some(a.clone())
                    }
                    _ => None,
                };
                let name = if segment == "self" {
                    path.len()
                        .checked_sub(2)
                        .map(|k| path[k].clone())
                        .unwrap_or_default()
                } else {
                    segment.clone()
                };
                out.push((path, alias.unwrap_or(name), token.line));
                return;
            }
            Tok::Punct('*') => {
                *i += 1;
                out.push((path, "*".to_string(), token.line));
                return;
            }
            Tok::Punct('{') => {
                *i += 1;
                while let Some(t) = toks.get(*i) {
                    match t.tok {
                        Tok::Punct('}') => {
                            *i += 1;
                            return;
                        }
                        Tok::Punct(',') => *i += 1,
                        _ => {
                            let before = *i;
                            parse_use_tree(toks, i, path.clone(), out);
                            if *i == before {
                                *i += 1;
                            }
                        }
                    }
                }
                return;
            }
            _ => return,
        }
    }
}

/// The strongly connected components of a directed graph (Tarjan, "Depth-first
/// search and linear graph algorithms", 1972), each sorted.
fn strongly_connected(edges: &BTreeMap<String, BTreeMap<String, Vec<usize>>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeMap<String, Vec<usize>>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        components: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        let edges = s.edges;
        for w in edges.get(v).into_iter().flat_map(|m| m.keys()) {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            component.sort();
            s.components.push(component);
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.components
}

// ---------------------------------------------------------------------------
// The checker itself, on made-up crates.
// ---------------------------------------------------------------------------

/// A made-up crate: (path, text) pairs.
fn sources(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

/// Two layers: `low` below `high`.
const TWO_LAYERS: &[&[&str]] = &[&["low"], &["high"]];

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
fn a_module_in_no_layer_and_an_import_of_the_crate_root_are_reported() {
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
    let found = check(&files, TWO_LAYERS);
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
    assert_eq!(check(&only_re_exports, TWO_LAYERS), []);
    let uses_it = sources(&[
        ("lib.rs", "pub mod low;\n"),
        (
            "low/mod.rs",
            "mod child;\npub use child::Item;\npub struct Shared(Item);\n",
        ),
        child,
    ]);
    assert_eq!(
        keys(&check(&uses_it, TWO_LAYERS)),
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
        keys(&check(&files, TWO_LAYERS)),
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
