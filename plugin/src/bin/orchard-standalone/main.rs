//! Orchard as a standalone app: audio through JACK or ALSA, notes from a MIDI
//! input, takes recorded to WAV and MIDI files, MIDI files played through it.
//!
//! The audio and MIDI plumbing is nice-plug's standalone wrapper; this program
//! chooses the instrument (`--preset`, the tuning flags), checks that the
//! chosen backend has a device before starting it (no device: one line and a
//! non-zero exit, where the wrapper alone would fall back to a silent dummy
//! backend), turns on what only the standalone has ([`orchard::standalone`]:
//! the recorder, the MIDI file player, the devices and the state kept between
//! runs), and prints the wrapper's warnings and errors one per line. Run with
//! `--help` for every option.

mod devices;
mod keeper;

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use nice_plug::prelude::nice_export_standalone_with_args;
use nice_plug::tracing;
use orchard::Orchard;
use orchard::standalone::state_file::{self, Devices};
use orchard::standalone::{self, Session};
use orchard::user_preset;
use orchard_engine::instrument::{Preset, tuning_files};

use keeper::Keeper;

const PROGRAM: &str = "orchard-standalone";

/// Set by a restart to the id of the process being replaced: the new one
/// waits for it to end before it opens the devices.
const WAIT_FOR_PID: &str = "ORCHARD_RESTART_AFTER_PID";

/// Orchard, the physically modelled piano, played live from a MIDI keyboard.
///
/// Sound goes out through JACK or ALSA; notes come in from a MIDI input. Quit
/// with Ctrl-C. With JACK the app is the client `orchard`: its ports are
/// `orchard:midi_input`, `orchard:output_1` and `orchard:output_2`, and the
/// outputs are connected to `system:playback_1` and `system:playback_2`. If the
/// chosen backend has no audio device (no JACK server running, no ALSA sound
/// card) it says so in one line and exits with status 1.
///
/// The instrument, its edits, the devices, the record folder and the MIDI
/// file opened last are kept between runs in
/// `$XDG_CONFIG_HOME/orchard/standalone.json` (or the file
/// `$ORCHARD_STANDALONE_STATE` names); options given here override them.
#[derive(Debug, Parser)]
#[command(name = PROGRAM, version, about, long_about)]
struct Args {
    /// The audio and MIDI backend: `auto` uses JACK if a JACK server is
    /// running, else ALSA; `dummy` plays nothing and reads no MIDI (it only
    /// checks that the instrument loads) [default: the saved choice, else
    /// auto].
    #[arg(short, long, value_enum)]
    backend: Option<BackendChoice>,

    /// The instrument: a built-in preset's name (`orchard presets` lists them)
    /// or the path of a preset file [default: the saved instrument, else
    /// grand-piano]. Given, it replaces the saved instrument and edits.
    #[arg(long, value_name = "NAME|FILE")]
    preset: Option<String>,

    /// Tune to a historical temperament laid from KEY, as `orchard render
    /// --temperament` does (`vallotti:Eb`).
    #[arg(long, value_name = "NAME[:KEY]")]
    temperament: Option<String>,

    /// Tune to a Scala scale file or a built-in example, as `orchard render
    /// --tuning` does; the instrument is then the one chosen here.
    #[arg(long = "tuning", value_name = "FILE.scl")]
    scale: Option<PathBuf>,

    /// Lay the --tuning scale on the keys with a Scala keyboard mapping, as
    /// `orchard render --keymap` does.
    #[arg(long, value_name = "FILE.kbm", requires = "scale")]
    keymap: Option<PathBuf>,

    /// Record from the start into DIR: the output as heard to a WAV file and
    /// every note and pedal played to a MIDI file, named by the take's start
    /// (UTC); the take ends at quit. File → Record starts and ends takes too.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,

    /// Play a Standard MIDI File through the instrument from the start (the
    /// window's transport pauses, stops and rewinds it).
    #[arg(long, value_name = "FILE.mid")]
    play: Option<PathBuf>,

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

    /// ALSA only: the sample rate in Hz, 1000 to 2000000 as the device allows
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

impl BackendChoice {
    /// Its name as `--backend` takes it.
    fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Jack => "jack",
            Self::Alsa => "alsa",
            Self::Dummy => "dummy",
        }
    }
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

/// Starts the app and plays until Ctrl-C or the window closes; `Ok(false)`
/// when the wrapper stopped with an error it has already printed.
fn run(args: &Args) -> Result<bool, Fail> {
    let restarted = wait_for_replaced_process();
    // Everything that can fail for a reason the user can fix is checked before
    // any audio device is opened.
    let state_path = state_file::state_path();
    let saved = match &state_path {
        Some(path) => {
            let (saved, warning) = state_file::load(path);
            if let Some(warning) = warning {
                eprintln!("{PROGRAM}: warning: {warning}");
            }
            saved
        }
        None => state_file::StandaloneState::default(),
    };
    let sound = choose_sound(args, &saved, restarted)?;
    let playing = args
        .preset
        .clone()
        .or_else(|| sound.as_ref().map(|s| s.instrument.clone()))
        .unwrap_or_else(|| "grand-piano".into());
    let devices = Devices {
        backend: args
            .backend
            .map(|b| b.name().to_string())
            .or(saved.devices.backend.clone()),
        output_device: args
            .output_device
            .clone()
            .or(saved.devices.output_device.clone()),
        midi_input: args.midi_input.clone().or(saved.devices.midi_input.clone()),
        sample_rate: args.sample_rate.or(saved.devices.sample_rate),
        period_size: args.period_size.or(saved.devices.period_size),
    };
    let record_folder = args
        .record
        .clone()
        .or(saved.record_folder.clone())
        .unwrap_or_else(default_record_folder);
    let session = standalone::enable(record_folder, sound, devices.clone())
        .ok_or_else(|| Fail("the standalone session was started twice".into()))?;
    if let Some(path) = &args.play {
        session.transport.open(path, true).map_err(Fail)?;
    } else if let Some(path) = saved.midi_file.as_deref().filter(|p| p.exists())
        && let Err(error) = session.transport.open(path, false)
    {
        eprintln!("{PROGRAM}: warning: the last MIDI file is not opened: {error}");
    }
    if args.record.is_some() {
        session.recorder.set_recording(true);
    }
    let keeper: &'static Keeper = Box::leak(Box::new(Keeper::new(state_path, saved)));
    session.set_device_lister(Box::new(devices::list));
    let restart_args = restart_args(args);
    session.set_restarter(Box::new(move || restart(session, keeper, &restart_args)));

    // nice-plug reports through `tracing`; without a subscriber its errors
    // would vanish.
    let _ = tracing::subscriber::set_global_default(Messages {
        verbose: args.verbose,
    });
    let chosen = devices
        .backend
        .as_deref()
        .map(|name| {
            BackendChoice::from_str(name, true).map_err(|_| {
                Fail(format!(
                    "the saved backend `{name}` is not one of auto, jack, alsa, dummy"
                ))
            })
        })
        .transpose()?
        .unwrap_or(BackendChoice::Auto);
    let (wrapper_args, name) = wrapper_args(chosen, &devices)?;

    quit_on_signals(session, keeper)?;
    keeper.keep(session);
    eprintln!(
        "{PROGRAM}: playing `{}` through {name}; Ctrl-C quits",
        playing
    );
    if cfg!(feature = "editor") && !has_display() {
        eprintln!("{PROGRAM}: no display (DISPLAY is not set): playing without the editor");
    }
    let ran = nice_export_standalone_with_args::<Orchard, _>(wrapper_args);
    keeper.finish(session);
    Ok(ran)
}

/// The sound to start with: the saved one, unless `--preset` is given (and
/// this is not a restart, which keeps the sound), then that instrument at its
/// defaults; with `--temperament` set on it. A built-in instrument is chosen
/// through the instrument parameter (the window can change it); a preset
/// file, or a scale from `--tuning` (with `--keymap`), makes the base preset
/// every instrument choice plays.
fn choose_sound(
    args: &Args,
    saved: &state_file::StandaloneState,
    restarted: bool,
) -> Result<Option<user_preset::UserPreset>, Fail> {
    let mut sound = match &args.preset {
        Some(name) if !restarted => {
            Preset::load(name).map_err(|e| Fail(e.to_string()))?;
            orchard::Instrument::named(name).map(|_| user_preset::UserPreset {
                format: user_preset::PRESET_FORMAT,
                instrument: name.clone(),
                parameters: Default::default(),
                edits: Vec::new(),
            })
        }
        _ => saved.sound.clone(),
    };
    let is_file = args
        .preset
        .as_deref()
        .is_some_and(|name| orchard::Instrument::named(name).is_none());
    if is_file || args.scale.is_some() {
        let name = args
            .preset
            .clone()
            .or_else(|| sound.as_ref().map(|s| s.instrument.clone()))
            .unwrap_or_else(|| "grand-piano".into());
        let mut preset = Preset::load(&name).map_err(|e| Fail(e.to_string()))?;
        tuning_files::apply(
            &mut preset,
            None,
            args.scale.as_deref(),
            args.keymap.as_deref(),
        )
        .map_err(Fail)?;
        Orchard::set_default_preset(preset);
    }
    if let Some(text) = &args.temperament {
        let (temperament, key) = tuning_files::parse_temperament(text).map_err(Fail)?;
        let mut with =
            sound.unwrap_or_else(|| user_preset::capture(&orchard::OrchardParams::default()));
        user_preset::set_temperament(&mut with, temperament, key);
        sound = Some(with);
    }
    Ok(sound)
}

/// Where takes go unless chosen: `~/Music/Orchard` (the current folder's
/// `Orchard recordings` without a home folder).
fn default_record_folder() -> PathBuf {
    std::env::var_os("HOME")
        .filter(|home| !home.is_empty())
        .map_or_else(
            || PathBuf::from("Orchard recordings"),
            |home| Path::new(&home).join("Music").join("Orchard"),
        )
}

/// The wrapper's arguments for `backend` with `devices`, and the backend's
/// name for people; fails (one line) when the backend has no device.
fn wrapper_args(
    backend: BackendChoice,
    devices: &Devices,
) -> Result<(Vec<String>, &'static str), Fail> {
    let backend = match backend {
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
                ("--sample-rate", devices.sample_rate.is_some()),
                ("--period-size", devices.period_size.is_some()),
                ("--output-device", devices.output_device.is_some()),
            ] {
                if given {
                    eprintln!("{PROGRAM}: {flag} is ignored with JACK: the server sets it");
                }
            }
            pass("--backend", "jack");
            if let Some(port) = &devices.midi_input {
                check_jack_midi_port(&client, port)?;
                pass("--connect-jack-midi-input", port);
            }
            // The check's client leaves the server before the app's joins.
            drop(client);
            "JACK"
        }
        BackendChoice::Alsa => {
            if devices.output_device.is_none() && !alsa_has_sound_card() {
                return Err(Fail(
                    "no audio device: ALSA finds no sound card (or use --backend jack with a \
                     running JACK server)"
                        .into(),
                ));
            }
            pass("--backend", "alsa");
            if let Some(device) = &devices.output_device {
                pass("--output-device", device);
            }
            if let Some(device) = &devices.midi_input {
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
        &devices.sample_rate.unwrap_or(48_000).to_string(),
    );
    pass(
        "--period-size",
        &devices.period_size.unwrap_or(512).to_string(),
    );
    Ok((wrapper_args, name))
}

/// The arguments a restart runs with: the instrument's and the tuning's as
/// given, not the devices (the saved ones apply), the MIDI file or the
/// recording.
fn restart_args(args: &Args) -> Vec<OsString> {
    let mut again = Vec::new();
    let mut pass = |flag: &str, value: Option<OsString>| {
        if let Some(value) = value {
            again.push(OsString::from(flag));
            again.push(value);
        }
    };
    pass("--preset", args.preset.clone().map(OsString::from));
    pass("--tuning", args.scale.clone().map(OsString::from));
    pass("--keymap", args.keymap.clone().map(OsString::from));
    if args.verbose {
        again.push("--verbose".into());
    }
    again
}

/// Restarts the app with the devices chosen in the window: finishes the
/// take, saves the state, starts the program again (it waits for this
/// process to end) and ends this one.
fn restart(session: &Session, keeper: &Keeper, args: &[OsString]) {
    let program = match std::env::current_exe() {
        Ok(program) => program,
        Err(error) => {
            eprintln!("{PROGRAM}: cannot restart: {error}");
            return;
        }
    };
    keeper.finish(session);
    match std::process::Command::new(program)
        .args(args)
        .env(WAIT_FOR_PID, std::process::id().to_string())
        .spawn()
    {
        Ok(_) => {
            eprintln!("{PROGRAM}: restarting with the chosen devices");
            // SAFETY: `_exit` ends the process without unwinding or running
            // handlers (see `quit_on_signals`); nothing after it runs.
            unsafe { libc::_exit(0) }
        }
        Err(error) => eprintln!("{PROGRAM}: cannot restart: {error}"),
    }
}

/// After a restart: waits (10 s at most) for the process it replaces to
/// end, so that its devices are free; whether this is a restart.
fn wait_for_replaced_process() -> bool {
    let Some(pid) = std::env::var(WAIT_FOR_PID)
        .ok()
        .and_then(|pid| pid.parse::<libc::pid_t>().ok())
    else {
        return false;
    };
    // SAFETY: the variable is read once, before any other thread starts.
    unsafe { std::env::remove_var(WAIT_FOR_PID) };
    let step = Duration::from_millis(50);
    for _ in 0..200 {
        // SAFETY: signal 0 only asks whether the process exists.
        if unsafe { libc::kill(pid, 0) } != 0 {
            break;
        }
        std::thread::sleep(step);
    }
    true
}

/// Whether there is a display to open the editor on (X11, or Wayland with
/// XWayland).
fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()))
}

/// Quits on Ctrl-C (SIGINT), SIGTERM or SIGHUP, with status 0, once the
/// running take's files are complete and the state is saved.
///
/// The wrapper's own Ctrl-C handling deactivates the JACK client while the
/// client's process thread, told to stop, deactivates it too; the two share
/// one socket to the server and can wait on each other's reply for ever. Exiting
/// without running exit handlers closes every device and connection just as
/// well. Registered first, this handler keeps the wrapper's from being
/// installed; the wrapper's complaint about that is not shown (see
/// [`Messages`]).
fn quit_on_signals(session: &'static Session, keeper: &'static Keeper) -> Result<(), Fail> {
    ctrlc::set_handler(move || {
        keeper.finish(session);
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
