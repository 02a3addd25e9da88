//! Fuzzes `orchard_tests::fuzzing::midi_file` (see there for what it checks).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| orchard_tests::fuzzing::midi_file(data));
