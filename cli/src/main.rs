//! `orchard`: the command-line front end. `orchard --help` lists what it does.

use std::process::ExitCode;

use clap::Parser;
use orchard_cli::analyze::run_analyze;
use orchard_cli::args::{Cli, Command};
use orchard_cli::bench::run_bench;
use orchard_cli::compare::run_compare;
use orchard_cli::fit::run_fit;
use orchard_cli::pin::run_pin;
use orchard_cli::presets::run_presets;
use orchard_cli::render_command::run_render;
use orchard_cli::{interrupt, print};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    // A render's summary goes to stderr when its WAV or CSV goes to stdout.
    let mut summary_to_stderr = false;
    let result = match &cli.command {
        Command::Render(args) => {
            summary_to_stderr = args.writes_to_stdout();
            // Signals stop a render between blocks, removing its partial files.
            interrupt::catch().and_then(|()| run_render(args))
        }
        Command::Analyze(args) => run_analyze(args),
        Command::Compare(args) => run_compare(args),
        Command::Fit(args) => run_fit(args),
        Command::Presets(args) => run_presets(args),
        Command::Bench(args) => run_bench(args),
        Command::Pin(args) => run_pin(args),
    };
    // Nothing is printed with `println!`, which panics on a closed pipe.
    let printed = match result {
        Ok(summary) if summary_to_stderr => {
            print::err(&summary);
            Ok(())
        }
        Ok(summary) => print::out(&summary),
        Err(reason) => Err(reason),
    };
    match printed {
        // The reader of the standard output (or of a pipe written to) has
        // gone: the output is not wanted, and ending is not an error.
        _ if print::reader_gone() => print::end_by_sigpipe(),
        Ok(()) => ExitCode::SUCCESS,
        Err(reason) => {
            print::err(&format!("orchard: error: {reason}"));
            ExitCode::FAILURE
        }
    }
}

/// Help and version go to stdout as usual; a usage error is one line on
/// stderr (clap's first line, with where to look for more) and exit code 2.
fn usage_error(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;

    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = error.print();
            return ExitCode::from(2);
        }
        _ => {}
    }
    // The message is the first paragraph (a list of missing arguments
    // included), without the tips and usage after it.
    let text = error.to_string();
    let message: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|line| !line.is_empty())
        .collect();
    let message = message.join(" ");
    let reason = message.strip_prefix("error: ").unwrap_or(&message);
    // Point at the subcommand's own help when there is one.
    let command = std::env::args()
        .nth(1)
        .filter(|a| {
            [
                "render", "analyze", "compare", "fit", "presets", "bench", "pin",
            ]
            .contains(&a.as_str())
        })
        .map_or_else(|| "orchard".to_owned(), |sub| format!("orchard {sub}"));
    print::err(&format!(
        "orchard: error: {reason} (see `{command} --help`)"
    ));
    ExitCode::from(2)
}
