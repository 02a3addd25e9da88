//! Runs the RC lowpass of `circuits/rc_lowpass.toml` at 48 kHz, driven by
//! x[n] = 2·sin(2π·100·n/48000), and prints `n,x,y` for 2000 samples, y being the
//! capacitor voltage after each backward scan.

use std::f64::consts::PI;

use orchard_engine::wdf::{Bct, TreeDescription};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let description: TreeDescription = toml::from_str(include_str!("../circuits/rc_lowpass.toml"))?;
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
