//! The rc lowpass of `engine/circuits/rc_lowpass.toml` as a Binary Connection Tree,
//! driven by a 100 Hz sine of 2 V: prints `n,x,y` (sample, input volts,
//! capacitor volts) for one period.
//!
//! `cargo run --release -p orchard-engine --example rc_lowpass`

#[path = "common/circuit_csv.rs"]
mod circuit_csv;

fn main() {
    circuit_csv::print_response(include_str!("../circuits/rc_lowpass.toml"));
}
