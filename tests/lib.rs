//! Cross-crate integration tests for Orchard: each `*.rs` beside this file is a
//! test target exercising the engine through the front ends.
