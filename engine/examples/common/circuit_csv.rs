//! Runs a wave-digital circuit from `engine/circuits/` and prints what it does
//! as CSV, for the examples that show one circuit each.

use std::f64::consts::PI;

use orchard_engine::wdf::{Bct, TreeDescription};

/// Sample rate, Hz.
const FS: f64 = 48_000.0;
/// Samples printed: one period of the 100 Hz input.
const SAMPLES: usize = 480;

/// Builds the circuit described by `text` (a tree with a source `Vin` and a
/// capacitor `C`) as a Binary Connection Tree, drives it with
/// `2·sin(2π·100·n/48000)` V and prints `n,x,y` (sample, input volts,
/// capacitor volts) for one period.
pub fn print_response(text: &str) {
    let description: TreeDescription = match toml::from_str(text) {
        Ok(description) => description,
        Err(e) => {
            eprintln!("the circuit file is not valid: {e}");
            std::process::exit(1);
        }
    };
    let mut tree = match Bct::new(&description, FS) {
        Ok(tree) => tree,
        Err(e) => {
            eprintln!("the circuit cannot be built: {e}");
            std::process::exit(1);
        }
    };
    let (Ok(source), Ok(probe)) = (tree.source("Vin"), tree.leaf("C")) else {
        eprintln!("the circuit has no source Vin or no capacitor C");
        std::process::exit(1);
    };
    let x: Vec<f64> = (0..SAMPLES)
        .map(|n| 2.0 * (2.0 * PI * 100.0 * n as f64 / FS).sin())
        .collect();
    let mut y = vec![0.0; SAMPLES];
    tree.process(source, &x, probe, &mut y);
    println!("n,x,y");
    for (n, (x, y)) in x.iter().zip(&y).enumerate() {
        println!("{n},{x},{y}");
    }
}
