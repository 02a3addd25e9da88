//! Orchard as a standalone app: audio through JACK or ALSA, notes from a MIDI input.
//!
//! The audio and MIDI plumbing is nice-plug's standalone wrapper; this program
//! chooses the instrument (`--preset`), checks that the chosen backend has a
//! device before starting it (no device: one line and a non-zero exit, where the
//! wrapper alone would fall back to a silent dummy backend), and prints the
//! wrapper's warnings and errors one per line. Run with `--help` for every option.

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use nice_plug::prelude::nice_export_standalone_with_args;
use nice_plug::tracing;
use orchard::Orchard;
use orchard_engine::instrument::Preset;

const PROGRAM: &str = "orchard-standalone";

/// Orchard, the physically modelled piano, played live from a MIDI keyboard.
///
/// Sound goes out through JACK or ALSA; notes come in from a MIDI input. Quit
/// with Ctrl-C. With JACK the app is the client `orchard`: its ports are
/// `orchard:midi_input`, `orchard:output_1` and `orchard:output_2`, and the
/// outputs are connected to `system:playback_1` and `system:playback_2`. If the
/// chosen backend has no audio device (no JACK server running, no ALSA sound
/// card) it says so in one line and exits with status 1.
#[derive(Debug, Parser)]
#[command(name = PROGRAM, version, about, long_about)]
struct Args {
    /// The audio and MIDI backend: `auto` uses JACK if a JACK server is
    /// running, else ALSA; `dummy` plays nothing and reads no MIDI (it only
    /// checks that the instrument loads).
    #[arg(short, long, value_enum, default_value_t = BackendChoice::Auto)]
    backend: BackendChoice,

    /// The instrument: a built-in preset's name (`orchard presets` lists them)
    /// or the path of a preset file.
    #[arg(long, value_name = "NAME|FILE", default_value = "grand-piano")]
    preset: String,

    /// The MIDI input. ALSA: a MIDI device's name (an empty or unknown name
    /// lists them). JACK: the JACK MIDI output port to connect to
    /// `orchard:midi_input`, e.g. `a2j:Keyboard [24] (capture): Keyboard MIDI 1`
    /// (an empty or unknown name lists them); without it, connect a port
    /// yourself.
    #[arg(short, long, value_name = "DEVICE|PORT")]
    midi_input: Option<String>,

    /// ALSA only: the audio output device (default: the system's default
    /// device; an empty or unknown name lists them).
    #[arg(short, long, value_name = "DEVICE")]
    output_device: Option<String>,

    /// ALSA only: the sample rate in Hz, 1000 to 768000 as the device allows
    /// [default: 48000]. JACK plays at its server's rate.
    #[arg(short = 'r', long, value_name = "HZ",
          value_parser = orchard_engine::rt::parse_sample_rate)]
    sample_rate: Option<u32>,

    /// ALSA only: the buffer (period) size in frames, 16 to 8192 [default:
    /// 512]. JACK uses its server's buffer size.
    #[arg(short = 'p', long, visible_alias = "buffer-size", value_name = "FRAMES",
          value_parser = clap::value_parser!(u32).range(16..=8192))]
    period_size: Option<u32>,

    /// Also print the audio backend's informational messages.
    #[arg(short, long)]
    verbose: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BackendChoice {
    /// JACK if a server is running, else ALSA.
    Auto,
    /// A running JACK server (audio and MIDI).
    Jack,
    /// ALSA audio and ALSA sequencer MIDI.
    Alsa,
    /// No audio, no MIDI.
    Dummy,
}

/// Why the app does not start: one line for the user.
struct Fail(String);

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(Fail(message)) => {
            eprintln!("{PROGRAM}: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Starts the app and plays until Ctrl-C; `Ok(false)` when the wrapper stopped
/// with an error it has already printed.
fn run(args: &Args) -> Result<bool, Fail> {
    // Everything that can fail for a reason the user can fix is checked before
    // any audio device is opened.
    let preset = Preset::load(&args.preset).map_err(|e| Fail(e.to_string()))?;
    Orchard::set_default_preset(preset);
    // nice-plug reports through `tracing`; without a subscriber its errors
    // would vanish.
    let _ = tracing::subscriber::set_global_default(Messages {
        verbose: args.verbose,
    });

    let backend = match args.backend {
        BackendChoice::Auto => {
            if jack_server().is_ok() {
                BackendChoice::Jack
            } else if alsa_has_sound_card() {
                BackendChoice::Alsa
            } else {
                return Err(Fail(
                    "no audio device: no JACK server is running and ALSA finds no sound card"
                        .into(),
                ));
            }
        }
        chosen => chosen,
    };

    let mut wrapper_args = vec![PROGRAM.to_string()];
    let mut pass = |flag: &str, value: &str| {
        wrapper_args.push(flag.to_string());
        wrapper_args.push(value.to_string());
    };
    let name = match backend {
        BackendChoice::Jack => {
            let client = jack_server().map_err(|reason| {
                Fail(format!(
                    "no audio device: {reason} (start one, e.g. `jackd -d alsa`, or use \
                     --backend alsa)"
                ))
            })?;
            for (flag, given) in [
                ("--sample-rate", args.sample_rate.is_some()),
                ("--period-size", args.period_size.is_some()),
                ("--output-device", args.output_device.is_some()),
            ] {
                if given {
                    eprintln!("{PROGRAM}: {flag} is ignored with JACK: the server sets it");
                }
            }
            pass("--backend", "jack");
            if let Some(port) = &args.midi_input {
                check_jack_midi_port(&client, port)?;
                pass("--connect-jack-midi-input", port);
            }
            // The check's client leaves the server before the app's joins.
            drop(client);
            "JACK"
        }
        BackendChoice::Alsa => {
            if args.output_device.is_none() && !alsa_has_sound_card() {
                return Err(Fail(
                    "no audio device: ALSA finds no sound card (or use --backend jack with a \
                     running JACK server)"
                        .into(),
                ));
            }
            pass("--backend", "alsa");
            if let Some(device) = &args.output_device {
                pass("--output-device", device);
            }
            if let Some(device) = &args.midi_input {
                pass("--midi-input", device);
            }
            "ALSA"
        }
        BackendChoice::Dummy | BackendChoice::Auto => {
            pass("--backend", "dummy");
            "the dummy backend (no audio, no MIDI)"
        }
    };
    pass(
        "--sample-rate",
        &args.sample_rate.unwrap_or(48_000).to_string(),
    );
    pass(
        "--period-size",
        &args.period_size.unwrap_or(512).to_string(),
    );

    quit_on_signals()?;
    eprintln!(
        "{PROGRAM}: playing `{}` through {name}; Ctrl-C quits",
        args.preset
    );
    if cfg!(feature = "editor") && !has_display() {
        eprintln!("{PROGRAM}: no display (DISPLAY is not set): playing without the editor");
    }
    Ok(nice_export_standalone_with_args::<Orchard, _>(wrapper_args))
}

/// Whether there is a display to open the editor on (X11, or Wayland with
/// XWayland).
fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()))
}

/// Quits at once on Ctrl-C (SIGINT), SIGTERM or SIGHUP, with status 0.
///
/// The wrapper's own Ctrl-C handling deactivates the JACK client while the
/// client's process thread, told to stop, deactivates it too; the two share
/// one socket to the server and can wait on each other's reply for ever. Exiting
/// without running exit handlers closes every device and connection just as
/// well (nothing of Orchard's needs saving). Registered first, this handler
/// keeps the wrapper's from being installed; the wrapper's complaint about
/// that is not shown (see [`Messages`]).
fn quit_on_signals() -> Result<(), Fail> {
    ctrlc::set_handler(|| {
        eprintln!("{PROGRAM}: stopped");
        // SAFETY: `_exit` ends the process without unwinding or running
        // handlers; nothing after it runs.
        unsafe { libc::_exit(0) }
    })
    .map_err(|e| Fail(format!("cannot handle Ctrl-C: {e}")))
}

/// The wrapper's message when it cannot install its Ctrl-C handler, which is
/// expected: [`quit_on_signals`] installed the app's first.
const WRAPPER_SIGNAL_MESSAGE: &str = "Error setting close signal callback";

/// A client of the running JACK server, or why there is none. (libjack's own
/// messages go to the `log` crate, which nothing here prints.)
fn jack_server() -> Result<jack::Client, String> {
    match jack::Client::new("orchard-check", jack::ClientOptions::NO_START_SERVER) {
        Ok((client, _status)) => Ok(client),
        Err(jack::Error::ClientError(status))
            if status.contains(jack::ClientStatus::SERVER_FAILED) =>
        {
            Err("no JACK server is running".into())
        }
        Err(error) => Err(format!("no JACK server is running ({error})")),
    }
}

/// Checks that `port` is a JACK MIDI output the app can connect its input to;
/// otherwise the message lists the ones there are.
fn check_jack_midi_port(client: &jack::Client, port: &str) -> Result<(), Fail> {
    let outputs = client.ports(None, Some("8 bit raw midi"), jack::PortFlags::IS_OUTPUT);
    if !port.is_empty() && outputs.iter().any(|p| p == port) {
        return Ok(());
    }
    let mut message = if port.is_empty() {
        "JACK MIDI outputs:".to_string()
    } else {
        format!("no JACK MIDI output `{port}`; there are:")
    };
    if outputs.is_empty() {
        message.push_str(" none");
    }
    for output in outputs {
        let _ = write!(message, "\n  {output}");
    }
    Err(Fail(message))
}

/// Whether ALSA sees at least one sound card. Asking only for the cards, not
/// for a PCM, keeps alsa-lib from printing its configuration errors.
fn alsa_has_sound_card() -> bool {
    alsa::card::Iter::new().any(|card| card.is_ok())
}

/// Prints nice-plug's warnings and errors (and with `--verbose` its other
/// messages) to stderr, one line each.
struct Messages {
    verbose: bool,
}

impl tracing::Subscriber for Messages {
    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        let most_verbose = if self.verbose {
            tracing::Level::INFO
        } else {
            tracing::Level::WARN
        };
        *metadata.level() <= most_verbose
    }

    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }

    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}

    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}

    fn event(&self, event: &tracing::Event<'_>) {
        let mut text = MessageText(String::new());
        event.record(&mut text);
        if text.0.starts_with(WRAPPER_SIGNAL_MESSAGE) {
            return;
        }
        let level = match *event.metadata().level() {
            tracing::Level::ERROR => "error: ",
            tracing::Level::WARN => "warning: ",
            _ => "",
        };
        eprintln!("{PROGRAM}: {level}{}", text.0);
    }

    fn enter(&self, _: &tracing::span::Id) {}

    fn exit(&self, _: &tracing::span::Id) {}
}

/// An event's message and any other fields, as text.
struct MessageText(String);

impl tracing::field::Visit for MessageText {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.0, "{value:?}");
        } else {
            let _ = write!(self.0, " {}={value:?}", field.name());
        }
    }
}
