//! The crate's modules: what each defines, imports and re-exports, read
//! from the tokens of its files.

use std::collections::{BTreeMap, BTreeSet};

use crate::text::{Tok, Token, strip, tokens};

/// A module's path from the crate root (`[]` for the root).
pub(crate) type ModPath = Vec<String>;

/// One name a `use` declaration brings in: `path` as written (relative to
/// `module`), under `name` (`*` for a glob).
#[derive(Debug, Clone)]
pub(crate) struct UseEntry {
    pub(crate) module: ModPath,
    pub(crate) path: Vec<String>,
    pub(crate) name: String,
    pub(crate) line: usize,
    /// `pub`, `pub(crate)`, … at the module's item level: a re-export.
    pub(crate) public: bool,
    /// At the module's item level (not in a function body).
    pub(crate) module_level: bool,
}

/// A path written in the code (not in a `use`): `crate::a::b`, `super::x`,
/// `self::y`, `child::z`.
#[derive(Debug, Clone)]
pub(crate) struct InlinePath {
    pub(crate) module: ModPath,
    pub(crate) path: Vec<String>,
    pub(crate) line: usize,
}

#[derive(Debug, Default)]
pub(crate) struct Module {
    pub(crate) file: String,
    /// Child modules, by name (declared `mod x;` or inline `mod x { … }`).
    pub(crate) children: BTreeSet<String>,
    /// Names of the items it defines.
    pub(crate) items: BTreeSet<String>,
    /// Names its module-level `use` declarations bring in → their paths as
    /// written, relative to it.
    pub(crate) imports: BTreeMap<String, Vec<String>>,
    /// Its glob `use` declarations.
    pub(crate) globs: Vec<Vec<String>>,
}

#[derive(Debug, Default)]
pub(crate) struct SourceFile {
    pub(crate) module: ModPath,
    pub(crate) uses: Vec<UseEntry>,
    pub(crate) paths: Vec<InlinePath>,
    /// Identifiers used outside `use` declarations.
    pub(crate) used_names: BTreeSet<String>,
}

#[derive(Debug, Default)]
pub(crate) struct Crate {
    pub(crate) modules: BTreeMap<ModPath, Module>,
    pub(crate) files: BTreeMap<String, SourceFile>,
    /// `#[macro_export]` macros, reached as `crate::NAME` → the module that
    /// defines them.
    pub(crate) exported_macros: BTreeMap<String, ModPath>,
}

/// Item keywords whose next identifier is the item's name.
const ITEM_KEYWORDS: &[&str] = &[
    "struct", "enum", "trait", "union", "type", "fn", "const", "static",
];

impl Crate {
    /// The modules reachable from `lib.rs` through `mod` declarations.
    pub(crate) fn parse(sources: &BTreeMap<String, String>) -> Self {
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
    pub(crate) fn absolute(&self, module: &ModPath, path: &[String]) -> Option<ModPath> {
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
    pub(crate) fn defining_file(&self, path: &[String], hops: usize) -> Option<String> {
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
    pub(crate) fn imports(&self) -> Vec<(String, usize, ModPath, bool)> {
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
