//! Replays every input the fuzzer kept (`fuzz/corpus/TARGET/`) and every
//! input that once broke a parser (`fuzz/regressions/TARGET/`) through the
//! fuzz targets' bodies ([`orchard_tests::fuzzing`]), on stable, on every
//! test run. A panic names the file.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use orchard_tests::fuzzing::TARGETS;

/// The fuzz crate's folder.
fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// The files in `dir`, by name (none if it does not exist).
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .map(|entry| entry.expect("a readable folder entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

/// Runs `target`'s body on every file of its corpus and regressions; the
/// corpus must not be empty.
fn replay(target: &str) {
    let (_, body) = TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .unwrap_or_else(|| panic!("no fuzz target {target}"));
    let corpus = files_in(&fuzz_dir().join("corpus").join(target));
    assert!(!corpus.is_empty(), "the corpus of {target} is empty");
    let regressions = files_in(&fuzz_dir().join("regressions").join(target));
    for file in corpus.iter().chain(&regressions) {
        let data = std::fs::read(file).expect("a readable input");
        if catch_unwind(AssertUnwindSafe(|| body(&data))).is_err() {
            panic!("{target} fails on {}", file.display());
        }
    }
}

#[test]
fn preset_toml() {
    replay("preset_toml");
}

#[test]
fn mechanism_toml() {
    replay("mechanism_toml");
}

#[test]
fn midi_file() {
    replay("midi_file");
}

#[test]
fn saved_state() {
    replay("saved_state");
}

#[test]
fn user_preset_json() {
    replay("user_preset_json");
}

#[test]
fn set_strings() {
    replay("set_strings");
}

/// Every target has a test above and a binary in `fuzz/`.
#[test]
fn every_target_is_replayed_and_fuzzed() {
    let this = include_str!("fuzz_corpus.rs");
    for (target, _) in TARGETS {
        assert!(
            this.contains(&format!("fn {target}()")),
            "{target} is not replayed"
        );
        let binary = fuzz_dir().join("fuzz_targets").join(format!("{target}.rs"));
        assert!(binary.is_file(), "{target} has no fuzz target in fuzz/");
    }
}
