//! The `orchard` command line: offline rendering of MIDI files and demos to WAV,
//! notes measured and compared with recordings, the long-term analysis of
//! mechanisms, and speed measurements.
//!
//! A crate of its own so that the plugin links none of what only the command
//! line needs (argument parsing, plots, progress bars, MIDI and audio files);
//! it plays the engine (`orchard-engine`) directly.
#![warn(missing_docs)]

pub mod analyze;
pub mod audio_file;
pub mod batch;
pub mod bench;
pub mod clock;
pub mod compare;
pub mod demo;
pub mod destination;
pub mod interrupt;
pub mod level;
pub mod limiter;
pub mod memory;
pub mod note;
pub mod outputs;
pub mod overrides;
pub mod pin;
pub mod plot;
pub mod print;
pub mod probe;
pub mod ranged;
pub mod render;
pub mod riff;
pub mod spectrogram;
pub mod wav;

/// `--temperament`, `--tuning` and `--keymap` (in the engine: the standalone
/// app takes them too).
pub use orchard_engine::instrument::tuning_files;
/// Standard MIDI Files to scores (in the engine: the standalone app reads
/// them too).
pub use orchard_engine::midi as midi_file;
/// Performances as timed events in seconds (in the engine, with the MIDI files).
pub use orchard_engine::midi as score;

use orchard_engine::families::chiming_clock::ClockSpec;
use orchard_engine::families::music_box::MusicBoxSpec;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};
use orchard_engine::instrument::Preset;
use orchard_engine::rt::{Synth, parse_sample_rate};

use destination::is_stdout;
use level::Stage;
use ranged::Ranged;

/// Orchard: physically modelled mechanical instruments.
#[derive(Debug, Parser)]
#[command(name = "orchard", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Render a Standard MIDI File (or the built-in demo) to a WAV file, with
    /// property overrides and output probes.
    #[command(after_help = probe::probe_help())]
    Render(RenderArgs),
    /// Report the long-term behaviour of a mechanism (cycle period,
    /// kinetic-energy minima per cycle, change of each part per cycle), or with
    /// --note measure one note of an instrument (hammer contact, partials and
    /// inharmonicity, decay times, spectrogram).
    Analyze(AnalyzeArgs),
    /// Measure a render and a recording of the same note side by side
    /// (partial levels, inharmonicity, early and late decay, brightness), or
    /// with --keyboard render keys with a preset and compare each with the
    /// recording of that key in a folder, one Markdown table row per key.
    Compare(CompareArgs),
    /// List the built-in instrument presets, one per line with what it is, or
    /// with --paths every property path of one preset and its value.
    Presets(PresetsArgs),
    /// Measure how fast an instrument (the grand piano unless --preset names
    /// another) plays: realtime factors for one note, a ten-note chord, a
    /// glissando over every key and a minute of dense playing, and peak memory.
    Bench(BenchArgs),
    /// Arrange a MIDI file's notes onto a music box's cylinder (transposed
    /// into its comb's range, pins at the cylinder's angles; notes the comb
    /// lacks are listed) and write the box as a preset file.
    Pin(pin::PinArgs),
}

/// Options of `orchard bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Run only this scenario (all four by default).
    #[arg(long, value_enum)]
    pub scenario: Option<bench::Scenario>,
    /// Seconds rendered after each scenario's last strike.
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0, value_parser = bench::TAIL)]
    pub tail: f64,
    /// Sample rate, Hz (1000 to 2000000).
    #[arg(long, default_value_t = 48_000, value_parser = parse_sample_rate)]
    pub sample_rate: u32,
    /// The instrument measured, changed as `render` changes it (e.g. with a
    /// room: `--set room:mix=0.3`).
    #[command(flatten)]
    pub instrument: InstrumentArgs,
}

/// Options of `orchard presets`.
#[derive(Debug, clap::Args)]
pub struct PresetsArgs {
    /// Instead of the list, print every property path of this preset (a name or
    /// a file) with its value: the paths `--set` and `--probe` take.
    #[arg(long, value_name = "PRESET")]
    pub paths: Option<String>,
}

/// The preset an instrument is played with unless `--preset` names another.
pub const DEFAULT_PRESET: &str = "grand-piano";

/// The instrument to play and how to change it: shared by `render`,
/// `analyze --note` and `compare --keyboard`.
#[derive(Debug, Clone, clap::Args)]
pub struct InstrumentArgs {
    /// The instrument: a built-in preset's name (see `orchard presets`) or the
    /// path of a preset file.
    #[arg(long, default_value = DEFAULT_PRESET)]
    pub preset: String,
    /// Set a preset property before playing, e.g. `tuning:a4_hz=442`,
    /// `hammers/anchor/60:felt_stiffness=2e9`, `strings:detune_cents=1`,
    /// `action:restitution=0.5` (repeatable; applied in order). `orchard
    /// presets --paths NAME` lists the paths and values.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub settings: Vec<String>,
    /// Seed for everything random in the instrument (the soundboard's modes);
    /// the preset's own seed if not given. The same seed gives the same sound.
    #[arg(long, value_name = "N")]
    pub seed: Option<u32>,
    /// Tune the keyboard to a historical temperament, laid from KEY (C if
    /// not given): equal, werckmeister-iii, vallotti, kirnberger-iii,
    /// quarter-comma-meantone or pythagorean, e.g. `vallotti:Eb`. A4 stays
    /// at the preset's `tuning:a4_hz`; the stretch applies on top.
    #[arg(long, value_name = "NAME[:KEY]")]
    pub temperament: Option<String>,
    /// Tune the keyboard to a Scala scale file (`.scl`), or a built-in
    /// example (`19-edo`), which replaces the temperament. Without --keymap,
    /// degree 0 lies on middle C (60) and A4 (69) sounds at `tuning:a4_hz`,
    /// one key a degree (Scala's standard).
    #[arg(long = "tuning", value_name = "FILE.scl")]
    pub scale: Option<std::path::PathBuf>,
    /// Lay the --tuning scale on the keys with a Scala keyboard mapping file
    /// (`.kbm`), or a built-in example's (`19-edo`: degree 0 on middle C at
    /// 256 Hz): its middle key, reference key and frequency (transposed by
    /// `tuning:a4_hz` / 440), and pattern; keys it leaves unmapped are silent.
    #[arg(long, value_name = "FILE.kbm", requires = "scale")]
    pub keymap: Option<std::path::PathBuf>,
}

impl InstrumentArgs {
    /// The files the instrument may be read from, with their options: the
    /// preset, the scale and the keyboard mapping (a built-in name among
    /// them is no file, and [`outputs::check`] passes over it).
    pub fn input_files(&self) -> Vec<outputs::Named<'_>> {
        let mut inputs = vec![("--preset", Path::new(&self.preset))];
        inputs.extend(self.scale.as_deref().map(|scale| ("--tuning", scale)));
        inputs.extend(self.keymap.as_deref().map(|keymap| ("--keymap", keymap)));
        inputs
    }

    /// Loads the preset and applies `--seed` and the `--set`s; errors are one
    /// line naming the preset or the setting.
    pub fn load(&self) -> Result<Preset, String> {
        self.load_then_set(|_| {})
    }

    /// The preset as [`InstrumentArgs::load`] gives it, with every music
    /// box's cylinder turning unless a `--set` holds it: what `render`
    /// plays without a MIDI file.
    pub fn load_turning_cylinders(&self) -> Result<Preset, String> {
        self.load_then_set(|preset| {
            for spec in preset.objects.of_mut::<MusicBoxSpec>() {
                spec.running = true;
            }
        })
    }

    /// Loads the preset and its tuning files, changes it with `change`,
    /// then applies the `--set` settings and the seed.
    fn load_then_set(&self, change: impl FnOnce(&mut Preset)) -> Result<Preset, String> {
        let mut preset = Preset::load(&self.preset).map_err(|e| e.to_string())?;
        change(&mut preset);
        tuning_files::apply(
            &mut preset,
            self.temperament.as_deref(),
            self.scale.as_deref(),
            self.keymap.as_deref(),
        )?;
        overrides::apply(&mut preset, self.seed, &self.settings)?;
        Ok(preset)
    }
}

/// Options of `orchard analyze`.
#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// The mechanism preset for the long-term report: a name (escapement,
    /// ratchet, ...) or a path to a mechanism file. Not with --note.
    #[arg(
        value_name = "MECHANISM",
        required_unless_present = "note",
        conflicts_with = "note"
    )]
    pub mechanism: Option<String>,
    /// Simulated time, s (default 31 for a mechanism unless its preset sets
    /// `analysis_duration_s`, 8 for a note).
    #[arg(long, value_name = "SECONDS")]
    pub duration: Option<f64>,
    /// Mechanism: also write a PNG plot of the state variables and kinetic
    /// energy over time.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    /// Play this MIDI key (60 is middle C) on the instrument and measure it:
    /// hammer contact duration, force pulses and peak force; partials 1-12 and
    /// the inharmonicity B fitted to partials 1-8 (f_n = n·f0·sqrt(1 + B·n²))
    /// against the preset's; T60 decay times, early (first 10 dB below the
    /// peak) and late (-15 to -45 dB), of the level (50 ms RMS windows) and the
    /// first six partials. The key is held throughout.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=127), conflicts_with = "plot")]
    pub note: Option<u8>,
    /// Note: MIDI velocity, 1 to 127.
    #[arg(long, value_name = "V", default_value_t = 80, requires = "note")]
    pub velocity: u8,
    /// Note: also write a spectrogram PNG (short-time Fourier transform, dB
    /// colour scale, time and frequency axes).
    #[arg(long, value_name = "FILE.png", requires = "note")]
    pub spectrogram: Option<PathBuf>,
    /// Note: also write the played note as a WAV file (32-bit float, both
    /// channels the note as measured), e.g. for `orchard compare`.
    #[arg(long, value_name = "FILE.wav", requires = "note")]
    pub wav: Option<PathBuf>,
    /// Note: sample rate, Hz (1000 to 2000000).
    #[arg(long, default_value_t = 48_000, requires = "note", value_parser = parse_sample_rate)]
    pub sample_rate: u32,
    /// Note: the instrument.
    #[command(flatten)]
    pub instrument: InstrumentArgs,
}

/// Options of `orchard compare`.
#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// The render: a WAV or Ogg Vorbis file of one note. Not with --keyboard.
    #[arg(
        value_name = "RENDER",
        required_unless_present = "keyboard",
        conflicts_with = "keyboard",
        requires = "recording"
    )]
    pub render: Option<PathBuf>,
    /// The recording to compare it with: a WAV or Ogg Vorbis file of the same
    /// note.
    #[arg(value_name = "RECORDING")]
    pub recording: Option<PathBuf>,
    /// The note both files play: a MIDI number (60 is middle C) or a name
    /// (C4, Db4, C#4). By default read from the recording's file name (as in
    /// Piano.ff.C4.ogg) or the render's, else estimated from the recording.
    #[arg(long, value_name = "N", conflicts_with = "keyboard")]
    pub note: Option<String>,
    /// Render keys with the instrument and compare each with the recording of
    /// that key in this folder (a WAV or Ogg Vorbis file whose name holds the
    /// note, as in Piano.ff.Db4.ogg); prints a Markdown table.
    #[arg(long, value_name = "DIR")]
    pub keyboard: Option<PathBuf>,
    /// Keyboard: compare every Nth key from --from (default 4).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=127))]
    pub every: Option<u8>,
    /// Keyboard: the lowest key compared, a MIDI number (default 21, A0).
    #[arg(long, value_name = "KEY", value_parser = clap::value_parser!(u8).range(0..=127))]
    pub from: Option<u8>,
    /// Keyboard: the highest key compared, a MIDI number (default 108, C8).
    #[arg(long, value_name = "KEY", value_parser = clap::value_parser!(u8).range(0..=127))]
    pub to: Option<u8>,
    /// Keyboard: MIDI velocity of each key, 1 to 127 (default 100).
    #[arg(long, value_name = "V")]
    pub velocity: Option<u8>,
    /// Keyboard: how long each key is held and rendered, s (default 8).
    #[arg(long, value_name = "SECONDS")]
    pub duration: Option<f64>,
    /// Keyboard: sample rate of the renders, Hz, 1000 to 2000000 (default 48000).
    #[arg(long, value_parser = parse_sample_rate)]
    pub sample_rate: Option<u32>,
    /// Keyboard: the instrument (--preset, --set, --seed).
    #[command(flatten)]
    pub instrument: InstrumentArgs,
}

/// Options of `orchard render`.
#[derive(Debug, Clone, clap::Args)]
pub struct RenderArgs {
    /// The Standard MIDI File to play (type 0, 1 or 2); without one (nor
    /// --demo nor --duration) a music box plays the tune on its cylinder.
    /// Several files, folders (searched for .mid and .midi files) or
    /// patterns (`songs/*.mid`) render them all into --out-dir, in parallel:
    /// a file that fails is reported in one line and the rest go on; the
    /// summary counts those rendered, failed and skipped, and the exit
    /// status is 1 if any failed.
    #[arg(value_name = "MIDI", conflicts_with = "demo")]
    pub midi: Vec<PathBuf>,
    /// Play the built-in demo phrase instead of a MIDI file.
    #[arg(long)]
    pub demo: bool,
    /// Play for this long, s: with no MIDI file, the instrument on its own (a
    /// clock runs, ticks and chimes; others stay silent); with one, at least
    /// this long. Then what runs by itself stops (a clock's balance is held)
    /// and the sound rings out.
    #[arg(long, value_name = "SECONDS", value_parser = DURATION)]
    pub duration: Option<f64>,
    /// Set a clock's hands to this time before it starts, `HH:MM` or
    /// `HH:MM:SS` (24-hour), e.g. `11:59:00` to hear it strike noon.
    #[arg(long, value_name = "HH:MM[:SS]", value_parser = parse_clock_time)]
    pub start: Option<f64>,
    /// The WAV file to write; `-` writes it to the standard output (and the
    /// summary to the standard error). With several inputs, the folder to
    /// write them to (as --out-dir).
    #[arg(short, long, required_unless_present_any = ["out_dir", "manifest"])]
    pub output: Option<PathBuf>,
    /// Render every input into this folder (created if missing), each as its
    /// name with `.wav` (`song.mid` -> `song.wav`), keeping the sub-folders
    /// of a folder given as input.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["output", "demo"])]
    pub out_dir: Option<PathBuf>,
    /// Render the files a CSV lists: a header naming the columns `input`,
    /// `output`, `preset` and optionally `set` (`PATH=VALUE` pairs joined by
    /// `;`), then one row per file. Paths are relative to the manifest's
    /// folder (outputs to --out-dir's if given); an empty preset is --preset's.
    #[arg(long, value_name = "FILE.csv", conflicts_with_all = ["midi", "demo"])]
    pub manifest: Option<PathBuf>,
    /// Renders at once when several files are rendered [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub jobs: Option<u32>,
    /// With several files: skip each whose output already exists (a
    /// finished render: one under way never has the output's name).
    #[arg(long)]
    pub resume: bool,
    /// Sample rate of the output, Hz (1000 to 2000000; below 44100 the
    /// instrument runs at a multiple of it and is filtered down).
    #[arg(long, default_value_t = 48_000, value_parser = parse_sample_rate)]
    pub sample_rate: u32,
    /// Sample format of the output.
    #[arg(long, value_enum, default_value_t = SampleFormat::Int24)]
    pub format: SampleFormat,
    /// Longest time to let the instrument ring after the last event before stopping, s.
    #[arg(long, default_value_t = 20.0, value_name = "SECONDS", value_parser = MAX_TAIL)]
    pub max_tail: f64,
    /// Longest score to render, s (a MIDI file lasting longer is refused).
    #[arg(long, default_value_t = 6.0 * 3600.0, value_name = "SECONDS", value_parser = MAX_DURATION)]
    pub max_duration: f64,
    /// Scale the whole render by one gain so that its peak is at --ceiling.
    /// The render is played twice: once to find its peak, once to write it
    /// (it is deterministic, so both are the same), which bounds memory and
    /// disk to those of a plain render.
    #[arg(long, conflicts_with = "limiter")]
    pub normalize: bool,
    /// Hold the output at or below --ceiling with a lookahead peak limiter
    /// (2 ms lookahead, 150 ms release); below the ceiling it leaves the
    /// sound as it is. Off by default.
    #[arg(long)]
    pub limiter: bool,
    /// The peak --normalize brings the render to, or the ceiling --limiter
    /// holds, dBFS [default: -1].
    #[arg(long, value_name = "DBFS", value_parser = CEILING, allow_negative_numbers = true)]
    pub ceiling: Option<f64>,
    /// The instrument.
    #[command(flatten)]
    pub instrument: InstrumentArgs,
    /// Sample this probe over the render (repeatable; one CSV column each, see
    /// the probe paths below). Needs --probe-out.
    #[arg(long = "probe", value_name = "PATH")]
    pub probes: Vec<String>,
    /// The CSV file the probes are written to: a header `time_s,PATH,...`, then
    /// one row per interval from time 0.
    #[arg(long, value_name = "FILE.csv")]
    pub probe_out: Option<PathBuf>,
    /// Time between two probe rows, s (rounded to whole samples, at least one).
    #[arg(long, value_name = "SECONDS", default_value_t = 0.001, value_parser = PROBE_INTERVAL)]
    pub probe_interval: f64,
    /// Rendered as one of a batch: no progress bar of its own.
    #[arg(skip)]
    pub in_batch: bool,
}

impl RenderArgs {
    /// Whether an output goes to the standard output (`-`), which the
    /// summary must then leave to the WAV or CSV.
    pub fn writes_to_stdout(&self) -> bool {
        self.output
            .as_deref()
            .is_some_and(destination::goes_to_stdout)
            || self
                .probe_out
                .as_deref()
                .is_some_and(destination::goes_to_stdout)
    }
}

/// `render --duration`, s: a week at most.
pub const DURATION: Ranged = Ranged::above(0.0, 7.0 * 24.0 * 3600.0, "s");

/// Hours after midnight of a time of day typed as `HH:MM` or `HH:MM:SS`.
pub fn parse_clock_time(text: &str) -> Result<f64, String> {
    orchard_engine::input::time_of_day_h(text).ok_or_else(|| {
        format!("'{text}' is not a time of day as HH:MM or HH:MM:SS (00:00 to 24:00)")
    })
}

/// `render --max-tail`, s.
pub const MAX_TAIL: Ranged = Ranged::closed(0.0, 600.0, "s");
/// `render --max-duration`, s: a week at most.
pub const MAX_DURATION: Ranged = Ranged::above(0.0, 7.0 * 24.0 * 3600.0, "s");
/// `render --ceiling`, dBFS.
pub const CEILING: Ranged = Ranged::closed(-40.0, 0.0, "dBFS");
/// `render --ceiling` unless given, dBFS.
pub const DEFAULT_CEILING_DB: f64 = -1.0;
/// `render --probe-interval`, s.
pub const PROBE_INTERVAL: Ranged = Ranged::above(0.0, 10.0, "s");

/// Sets the hands of `preset`'s clock (`name` names the preset in errors) to
/// `time_h`, hours after midnight.
fn set_clock(preset: &mut Preset, name: &str, time_h: f64) -> Result<(), String> {
    let Some(clock) = preset
        .objects
        .of::<ClockSpec>()
        .next()
        .map(|(name, _)| name.to_string())
    else {
        return Err(format!(
            "--start sets a clock's hands, and `{}` has no clock (try --preset chiming-clock)",
            orchard_engine::input::name(name)
        ));
    };
    preset
        .set(&format!("{clock}:time_h"), time_h)
        .map_err(|e| e.to_string())
}

/// Checks that `path`, given with `flag`, names a PNG file.
pub fn require_png(flag: &str, path: &Path) -> Result<(), String> {
    let is_png = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if is_png {
        Ok(())
    } else {
        Err(format!(
            "{flag} {}: images are written as PNG, so the name must end in .png",
            path.display()
        ))
    }
}

/// With no MIDI file, a music box plays its cylinder: until its last pin
/// has sounded (at the steady speed of its wind) and a second more; `None`
/// for a preset that has no pinned cylinder, an error for one that does
/// not load.
fn pinned_tune_s(instrument: &InstrumentArgs) -> Result<Option<f64>, String> {
    let preset = instrument.load_turning_cylinders()?;
    Ok(preset
        .objects
        .of::<MusicBoxSpec>()
        .next()
        .and_then(|(_, spec)| orchard_engine::families::music_box::arrange::tune_s(spec))
        .map(|s| s + 1.0))
}

/// Runs `orchard render`: one file as [`render_one`], several as a batch
/// ([`batch::run`]).
pub fn run_render(args: &RenderArgs) -> Result<String, String> {
    if batch::is_batch(args) {
        batch::run(args)
    } else {
        render_one(args)
    }
}

/// Renders one score: reads it, renders it, writes the WAV (and the probes'
/// CSV). Returns a one-line summary, or a one-line reason for failing.
/// Everything that can be checked is checked before any output is touched.
pub fn render_one(args: &RenderArgs) -> Result<String, String> {
    let output = args
        .output
        .as_deref()
        .ok_or("give the WAV file to write with -o")?;
    let mut score = match (args.midi.first(), args.demo) {
        (_, true) => demo::phrase(),
        (Some(path), false) => midi_file::read(path)?,
        (None, false) if args.duration.is_some() => score::Score::default(),
        (None, false) => match pinned_tune_s(&args.instrument)? {
            Some(end_s) => score::Score::new(Vec::new(), end_s),
            None => return Err("give a MIDI file, --demo or --duration".into()),
        },
    };
    if let Some(duration) = args.duration {
        score.end_s = score.end_s.max(duration);
    }
    render::check_length(&score, args.max_duration)?;
    if args.ceiling.is_some() && !(args.normalize || args.limiter) {
        return Err("--ceiling applies to --normalize or --limiter: give one of them".into());
    }
    let ceiling = level::db_to_gain(args.ceiling.unwrap_or(DEFAULT_CEILING_DB)) as f32;
    let rate = f64::from(args.sample_rate);
    let probe_every = probe_interval_frames(args, rate)?;
    let mut outputs = vec![("-o", output)];
    outputs.extend(args.probe_out.as_deref().map(|csv| ("--probe-out", csv)));
    let mut inputs = args.instrument.input_files();
    if !args.demo {
        inputs.extend(args.midi.iter().map(|midi| ("MIDI", midi.as_path())));
    }
    outputs::check(&outputs, &inputs)?;
    // Without a MIDI file a music box plays its cylinder; with one, the
    // file's notes alone (its cylinder held, as the preset has it).
    let mut preset = if args.midi.is_empty() && !args.demo {
        args.instrument.load_turning_cylinders()?
    } else {
        args.instrument.load()?
    };
    if let Some(time_h) = args.start {
        set_clock(&mut preset, &args.instrument.preset, time_h)?;
    }
    let mut synth = Synth::new(&preset, rate).map_err(|e| e.to_string())?;
    let mut recorder = match &args.probe_out {
        Some(path) => Some(probe::Recorder::new(&args.probes, &mut synth, path)?),
        None => None,
    };
    let mut wav = wav::StereoWav::create(output, args.sample_rate, args.format)?;
    let expected_frames = ((score.end_s + 1.0) * rate) as u64;
    let passes = if args.normalize { 2 } else { 1 };
    // Only long renders get a bar; it draws only when stderr is a terminal.
    let bar = if score.end_s > 10.0 && !args.in_batch {
        indicatif::ProgressBar::new(passes * expected_frames)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let progress = |pass: u64, synth: &Synth| {
        let frames = synth.samples_rendered().min(expected_frames);
        bar.set_position(pass * expected_frames + frames);
    };

    // --normalize: a first pass finds the peak.
    let first_peak = if args.normalize {
        let mut first = Synth::new(&preset, rate).map_err(|e| e.to_string())?;
        let mut peak = 0.0f32;
        render::render(
            &mut first,
            &score,
            args.max_tail,
            render::BLOCK,
            |synth, l, r| {
                interrupt::check()?;
                peak = level::peak(peak, l, r);
                progress(0, synth);
                Ok(())
            },
        )?;
        Some(peak)
    } else {
        None
    };
    let normalizing_gain = first_peak.and_then(|peak| level::normalizing_gain(peak, ceiling));
    let mut stage = match normalizing_gain {
        Some(gain) => Stage::gain(gain),
        None if args.limiter => Stage::limiter(ceiling, rate),
        None => Stage::unity(),
    };
    let mut write = |l: &[f32], r: &[f32]| wav.write(l, r);
    let mut instrument_peak = 0.0f32;
    let split = probe_every.unwrap_or(render::BLOCK);
    let summary = render::render(&mut synth, &score, args.max_tail, split, |synth, l, r| {
        interrupt::check()?;
        instrument_peak = level::peak(instrument_peak, l, r);
        stage.process(l, r, &mut write)?;
        // Probes hear the instrument, before --normalize or --limiter.
        if let Some(recorder) = recorder.as_mut() {
            recorder.listen(l, r);
            if synth.samples_rendered() % split as u64 == 0 {
                recorder.record(synth)?;
            }
        }
        progress(passes - 1, synth);
        Ok(())
    })?;
    stage.finish(&mut write)?;
    interrupt::check()?;
    bar.finish_and_clear();
    if first_peak.is_some_and(|peak| peak != instrument_peak) {
        return Err(format!(
            "--normalize: the second pass differed from the first (peak {} then {}); \
             render without --normalize",
            first_peak.unwrap_or_default(),
            instrument_peak
        ));
    }
    let (peak, over, clips) = (wav.peak, wav.over_full_scale, wav.clips());
    wav.finish()?;
    let shown = if is_stdout(output) {
        "the standard output".to_owned()
    } else {
        output.display().to_string()
    };
    let mut line = format!(
        "wrote {shown}: {:.2} s at {} Hz, peak {:.1} dBFS",
        summary.frames as f64 / rate,
        args.sample_rate,
        level::gain_to_db(f64::from(peak))
    );
    match (normalizing_gain, stage.deepest_reduction_db()) {
        (Some(gain), _) => line.push_str(&format!(
            ", normalised by {:+.1} dB",
            level::gain_to_db(f64::from(gain))
        )),
        (None, Some(reduction)) if reduction > 0.0 => {
            line.push_str(&format!(", limited by up to {reduction:.1} dB"));
        }
        (None, Some(_)) => line.push_str(", the limiter never acted"),
        (None, None) if args.normalize => line.push_str(", silent: nothing to normalise"),
        (None, None) => {}
    }
    match (over, clips) {
        (0, _) => {}
        (_, true) => line.push_str(&format!(
            ", {over} samples clipped (see --normalize and --limiter)"
        )),
        (_, false) => line.push_str(&format!(
            ", {over} samples beyond full scale (kept: float32)"
        )),
    }
    if !summary.rang_out {
        line.push_str(", cut off while still ringing (see --max-tail)");
    }
    if let (Some(recorder), Some(path)) = (recorder, &args.probe_out) {
        let rows = recorder.rows;
        recorder.finish()?;
        line.push_str(&format!(
            "; wrote {} probe{} to {} ({rows} rows)",
            args.probes.len(),
            if args.probes.len() == 1 { "" } else { "s" },
            path.display()
        ));
    }
    Ok(line)
}

/// Frames between probe rows (`--probe-interval`, rounded, at least one),
/// if probes are asked for; checks that `--probe` and `--probe-out` come
/// together.
fn probe_interval_frames(args: &RenderArgs, rate: f64) -> Result<Option<usize>, String> {
    match (args.probes.is_empty(), &args.probe_out) {
        (true, None) => Ok(None),
        (true, Some(path)) => Err(format!(
            "--probe-out {}: give at least one --probe PATH to record",
            path.display()
        )),
        (false, None) => Err(format!(
            "--probe {}: give --probe-out FILE.csv to write the probes to",
            args.probes[0]
        )),
        (false, Some(_)) => Ok(Some((args.probe_interval * rate).round().max(1.0) as usize)),
    }
}

/// Runs `orchard presets`: the built-in presets, one line each, or with
/// `--paths` every property path of one preset and its value.
pub fn run_presets(args: &PresetsArgs) -> Result<String, String> {
    if let Some(name) = &args.paths {
        let preset = Preset::load(name).map_err(|e| e.to_string())?;
        let lines: Vec<String> = property_values(&preset)
            .into_iter()
            .map(|(path, value)| format!("{path} = {value}"))
            .collect();
        return Ok(lines.join("\n"));
    }
    let lines: Vec<String> = builtin_preset_list()?
        .into_iter()
        .map(|(name, description)| format!("{name:<14}{description}"))
        .collect();
    Ok(lines.join("\n"))
}

/// Every property path of `preset` and its value, in the preset's order.
pub fn property_values(preset: &Preset) -> Vec<(String, f64)> {
    preset
        .paths()
        .into_iter()
        .map(|path| {
            let value = preset.get(&path).unwrap_or(f64::NAN);
            (path, value)
        })
        .collect()
}

/// The built-in presets, (name, description), in `orchard presets`' order.
pub fn builtin_preset_list() -> Result<Vec<(String, String)>, String> {
    orchard_engine::families::builtin_presets()
        .into_iter()
        .map(|(name, _)| {
            let preset = Preset::load(name).map_err(|e| format!("{name}: {e}"))?;
            Ok((name.to_owned(), preset.description))
        })
        .collect()
}

/// WAV sample formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SampleFormat {
    /// 24-bit integer PCM.
    Int24,
    /// 32-bit IEEE float.
    Float32,
}
