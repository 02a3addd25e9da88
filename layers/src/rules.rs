//! The two rules: no import runs up a layer, and no files import each other
//! in a circle.

use std::collections::{BTreeMap, BTreeSet};

use crate::components::strongly_connected;
use crate::modules::{Crate, ModPath};

/// One broken rule: `key` names it (stable under edits that move lines),
/// `detail` says where (file and line).
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// What is wrong: `low/a.rs: low imports high`, `circle: a.rs b.rs`,
    /// `stray is in no layer of LAYERS`.
    pub key: String,
    /// Where: a line `file:line: path` for each import concerned.
    pub detail: String,
}

impl Crate {
    /// Imports from a top-level module to a higher layer, one violation per
    /// file and module imported.
    pub(crate) fn upward_imports(&self, layers: &[&[&str]]) -> Vec<Violation> {
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
        for name in layers.iter().flat_map(|layer| layer.iter()) {
            if !top_modules.contains(*name) {
                found
                    .entry(format!("{name} of LAYERS is no module of the crate"))
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
    pub(crate) fn circles(&self) -> Vec<Violation> {
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
