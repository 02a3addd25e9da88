//! `orchard`: the command-line front end. `orchard --help` lists what it does.

use std::process::ExitCode;

use clap::Parser;
use orchard::cli::analyze::run_analyze;
use orchard::cli::bench::run_bench;
use orchard::cli::{Cli, Command, run_presets, run_render};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Render(args) => run_render(args),
        Command::Analyze(args) => run_analyze(args),
        Command::Presets => run_presets(),
        Command::Bench(args) => run_bench(args),
    };
    match result {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(reason) => {
            eprintln!("orchard: error: {reason}");
            ExitCode::FAILURE
        }
    }
}
