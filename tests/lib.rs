//! Cross-crate integration tests for Orchard: each `*.rs` beside this file is a
//! test target exercising the engine through the front ends.
//!
//! The library itself holds what the tests and the fuzzer share: the bodies
//! of the fuzz targets ([`fuzzing`]), run on stable by `fuzz_corpus.rs` and
//! under libFuzzer by the cargo-fuzz crate in `fuzz/`.

pub mod fuzzing;
