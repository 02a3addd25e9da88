//! Output probes for `orchard render --probe PATH --probe-out FILE.csv`: values
//! sampled at a fixed interval over a render, written as CSV (`time_s`, then one
//! column per probe, named by its path).
//!
//! What a probe path can name (see [`PROBE_HELP`]): the live mechanics of the
//! grand action (pedals, and per key the hammer, damper and key), the audio
//! side's per-key telemetry (string energy, the last strike's peak force), the
//! output level, and any preset property (constant over a render).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use orchard_engine::rt::{Mechanics, MeterView, Subscriber, Synth};

use super::wav::partial_path;

/// The probe paths, for `--help`.
pub const PROBE_HELP: &str = "\
Probe paths (each a CSV column; sampled every --probe-interval):
  pedals:sustain, pedals:una_corda   pedal depth, 0 (up) to 1 (down)
  pedals:sostenuto                   1 while the sostenuto pedal is down
  key/N:hammer_travel                key N's hammer, 0 (at rest) to 1 (at the string)
  key/N:damper                       key N's damper, 0 (lifted) to 1 (on the strings)
  key/N:down                         1 while key N is held
  key/N:string_energy_j              energy of key N's strings, J (measured ~60 times a second)
  key/N:peak_force_n                 largest felt force of key N's last strike, N
  output:peak, output:rms            output level over the interval, full scale 1 (both channels)
  any preset path                    e.g. tuning:a4_hz; the action's settings by their preset paths
                                     (action:blow_distance_m, hammers:start_gap_m, velocity:curve) as in use
N is a MIDI key (60 is middle C). Probes of the action need an instrument with one (grand-piano).";

/// What one key probe measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KeyQuantity {
    HammerTravel,
    Damper,
    Down,
    StringEnergy,
    PeakForce,
}

/// Where a probe's values come from.
#[derive(Debug, Clone, PartialEq)]
enum Source {
    /// A live property of the action model (`pedals:*`, `action:*`).
    Action(String),
    Sostenuto,
    Key(u8, KeyQuantity),
    OutputPeak,
    OutputRms,
    /// A preset property: the same all through the render.
    Constant(f64),
}

impl Source {
    /// Resolves `path` against the instrument `synth` plays; the error is one
    /// line naming the path.
    fn resolve(path: &str, synth: &Synth) -> Result<Self, String> {
        let action = moving_mechanics(synth);
        let needs_action = |source: Source| match action {
            Some(_) => Ok(source),
            None => Err(format!(
                "--probe {path}: the {} preset has no action to probe",
                synth.preset().name
            )),
        };
        if let Some(rest) = path.strip_prefix("key/") {
            let (key, quantity) = rest
                .split_once(':')
                .ok_or_else(|| format!("--probe {path}: expected key/N:QUANTITY"))?;
            let key: u8 =
                key.parse().ok().filter(|&k| k < 128).ok_or_else(|| {
                    format!("--probe {path}: `{key}` is not a MIDI key (0 to 127)")
                })?;
            let quantity = match quantity {
                "hammer_travel" => KeyQuantity::HammerTravel,
                "damper" => KeyQuantity::Damper,
                "down" => KeyQuantity::Down,
                "string_energy_j" => KeyQuantity::StringEnergy,
                "peak_force_n" => KeyQuantity::PeakForce,
                other => {
                    return Err(format!(
                        "--probe {path}: no key quantity `{other}` (hammer_travel, damper, down, string_energy_j, peak_force_n)"
                    ));
                }
            };
            let keyboard = synth.preset().keyboard;
            if !(keyboard.lowest_key..=keyboard.highest_key).contains(&key) {
                return Err(format!(
                    "--probe {path}: key {key} is outside the {} preset's keyboard ({} to {})",
                    synth.preset().name,
                    keyboard.lowest_key,
                    keyboard.highest_key
                ));
            }
            let source = Source::Key(key, quantity);
            return match quantity {
                KeyQuantity::HammerTravel | KeyQuantity::Damper | KeyQuantity::Down => {
                    needs_action(source)
                }
                KeyQuantity::StringEnergy | KeyQuantity::PeakForce => Ok(source),
            };
        }
        match path {
            "output:peak" => return Ok(Source::OutputPeak),
            "output:rms" => return Ok(Source::OutputRms),
            "pedals:sostenuto" => return needs_action(Source::Sostenuto),
            _ => {}
        }
        if action.is_some_and(|a| a.property(path).is_some()) {
            return Ok(Source::Action(path.to_string()));
        }
        if let Some(value) = synth.preset().get(path) {
            return Ok(Source::Constant(value));
        }
        if path.starts_with("pedals:") || path.starts_with("action:") {
            needs_action(Source::Constant(0.0))?;
            return Err(format!(
                "--probe {path}: the action has no property `{path}`"
            ));
        }
        Err(format!(
            "--probe {path}: unknown probe path (see `orchard render --help`)"
        ))
    }
}

/// Level of the output over one probe interval.
#[derive(Debug, Clone, Copy, Default)]
struct Level {
    peak: f64,
    sum_squares: f64,
    samples: u64,
}

impl Level {
    fn add(&mut self, channels: [&[f32]; 2]) {
        for s in channels.into_iter().flatten() {
            let s = f64::from(*s);
            self.peak = self.peak.max(s.abs());
            self.sum_squares += s * s;
            self.samples += 1;
        }
    }

    fn rms(&self) -> f64 {
        (self.sum_squares / self.samples.max(1) as f64).sqrt()
    }
}

/// Records probes over a render into a CSV file that replaces its destination
/// only when [`Recorder::finish`] succeeds.
pub struct Recorder {
    sources: Vec<Source>,
    meters: Option<Subscriber<MeterView>>,
    level: Level,
    writer: Option<BufWriter<File>>,
    temporary: PathBuf,
    destination: PathBuf,
    /// Rows written.
    pub rows: u64,
}

impl Recorder {
    /// Resolves `paths` against the instrument `synth` plays (taking its meter
    /// view), creates the file beside `destination` and writes the header and
    /// the row at time 0. Errors are one line naming the path or the file.
    pub fn new(paths: &[String], synth: &mut Synth, destination: &Path) -> Result<Self, String> {
        let sources = paths
            .iter()
            .map(|p| Source::resolve(p, synth))
            .collect::<Result<Vec<_>, _>>()?;
        let temporary = partial_path(destination)?;
        let file = File::create(&temporary)
            .map_err(|e| format!("cannot write {}: {e}", destination.display()))?;
        let meters = synth.take_views().map(|v| v.meters);
        let mut recorder = Self {
            sources,
            meters,
            level: Level::default(),
            writer: Some(BufWriter::new(file)),
            temporary,
            destination: destination.to_path_buf(),
            rows: 0,
        };
        let header = std::iter::once("time_s")
            .chain(paths.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(",");
        recorder.write_line(&header)?;
        recorder.record(synth)?;
        Ok(recorder)
    }

    /// Adds a block of output to the present interval's level.
    pub fn listen(&mut self, left: &[f32], right: &[f32]) {
        self.level.add([left, right]);
    }

    /// Writes one row: the probes' values now (the synthesiser's time).
    pub fn record(&mut self, synth: &Synth) -> Result<(), String> {
        let meters = self.meters.as_mut().map(|m| *m.latest());
        let action = moving_mechanics(synth);
        let mut line = (synth.samples_rendered() as f64 / synth.sample_rate()).to_string();
        for source in &self.sources {
            let value = value(source, synth, action, meters.as_ref(), &self.level);
            line.push(',');
            line.push_str(&number(value));
        }
        self.level = Level::default();
        self.write_line(&line)?;
        self.rows += 1;
        Ok(())
    }

    fn write_line(&mut self, line: &str) -> Result<(), String> {
        let writer = self.writer.as_mut().expect("writer lives until finish");
        writeln!(writer, "{line}")
            .map_err(|e| format!("cannot write {}: {e}", self.destination.display()))
    }

    /// Completes the file and moves it into place.
    pub fn finish(mut self) -> Result<(), String> {
        let fail = |e: std::io::Error| format!("cannot write {}: {e}", self.destination.display());
        let writer = self.writer.take().expect("writer lives until finish");
        writer
            .into_inner()
            .map_err(|e| fail(e.into_error()))?
            .sync_all()
            .map_err(fail)?;
        std::fs::rename(&self.temporary, &self.destination).map_err(fail)
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        // Unfinished: remove the partial file, leaving any earlier destination intact.
        if self.writer.take().is_some() {
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}

/// The mechanics of `synth` if they have keys that move (an action), to
/// probe; `None` for strikers thrown straight from the velocity.
fn moving_mechanics(synth: &Synth) -> Option<&dyn Mechanics> {
    let lowest = synth.preset().keyboard.lowest_key;
    synth
        .lock_step_mechanics()
        .filter(|m| m.striker_travel(lowest).is_some())
}

/// The value of `source` now.
fn value(
    source: &Source,
    synth: &Synth,
    action: Option<&dyn Mechanics>,
    meters: Option<&MeterView>,
    level: &Level,
) -> f64 {
    let from_action =
        |f: &dyn Fn(&dyn Mechanics) -> Option<f64>| action.and_then(f).unwrap_or(f64::NAN);
    match source {
        Source::Action(path) => from_action(&|a| a.property(path)),
        Source::Sostenuto => from_action(&|a| Some(f64::from(u8::from(a.pedals().sostenuto)))),
        Source::Key(key, quantity) => match quantity {
            KeyQuantity::HammerTravel => from_action(&|a| a.striker_travel(*key)),
            KeyQuantity::Damper => from_action(&|a| a.damper(*key)),
            KeyQuantity::Down => from_action(&|a| a.key_down(*key).map(|d| f64::from(u8::from(d)))),
            KeyQuantity::StringEnergy => meters.map_or(f64::NAN, |m| {
                f64::from(m.string_energy_j[usize::from(*key)])
            }),
            KeyQuantity::PeakForce => synth.strike_report(*key).map_or(0.0, |r| r.peak_force_n),
        },
        Source::OutputPeak => level.peak,
        Source::OutputRms => level.rms(),
        Source::Constant(value) => *value,
    }
}

/// `value` to seven significant digits, as short as that allows: the meters
/// are single precision, and plots need no more.
fn number(value: f64) -> String {
    if !value.is_finite() {
        return "nan".into();
    }
    let rounded: f64 = format!("{value:.6e}").parse().unwrap_or(value);
    format!("{rounded}")
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn numbers_are_short() {
        assert_eq!(number(f64::from(0.1f32)), "0.1");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(261.625565), "261.6256");
        assert_eq!(number(1.5e-9), "0.0000000015");
        assert_eq!(number(f64::NAN), "nan");
    }
}
