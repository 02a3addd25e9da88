//! Runs the diode clipper of `circuits/diode_clipper.toml` at 48 kHz, driven by
//! x[n] = 2·sin(2π·100·n/48000), and prints `n,x,y` for 2000 samples, y being the
//! capacitor voltage after each backward scan.

#[path = "common/drive.rs"]
mod drive;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    drive::print_driven(include_str!("../circuits/diode_clipper.toml"))
}
