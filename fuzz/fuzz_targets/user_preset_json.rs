//! Fuzzes `orchard_tests::fuzzing::user_preset_json` (see there for what it checks).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| orchard_tests::fuzzing::user_preset_json(data));
