//! Shared by the circuit examples: drive a circuit file and print CSV.

use std::f64::consts::PI;

use orchard_engine::wdf::{Bct, TreeDescription};

/// Builds the circuit described by `toml_text`, drives its source `Vin` with
/// x[n] = 2·sin(2π·100·n/48000) at 48 kHz, and prints `n,x,y` for 2000 samples,
/// y being the voltage across `C` after each backward scan.
pub fn print_driven(toml_text: &str) -> Result<(), Box<dyn std::error::Error>> {
    let description: TreeDescription = toml::from_str(toml_text)?;
    let mut tree = Bct::new(&description, 48_000.0)?;
    let (input, output) = (tree.source("Vin")?, tree.leaf("C")?);
    println!("n,x,y");
    for n in 0..2000 {
        let x = 2.0 * (2.0 * PI * 100.0 * n as f64 / 48_000.0).sin();
        tree.set_source(input, x);
        tree.tick();
        println!("{n},{x},{}", tree.voltage(output));
    }
    Ok(())
}
