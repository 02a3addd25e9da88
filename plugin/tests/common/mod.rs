//! What the command-line tests share: scratch directories and running `orchard`.

use std::path::PathBuf;
use std::process::{Command, Output};

/// A scratch directory unique to this test process and `name`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("orchard-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the `orchard` binary with `args`.
pub fn orchard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_orchard"))
        .args(args)
        .output()
        .unwrap()
}
