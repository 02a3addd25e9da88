//! Output probes for `orchard render --probe PATH --probe-out FILE.csv`: values
//! sampled at a fixed interval over a render, written as CSV (`time_s`, then one
//! column per probe, named by its path).
//!
//! What a probe path can name (declared once, in [`PROBES`]): the live mechanics of the
//! grand action (pedals, and per key the hammer, damper and key), the audio
//! side's per-key telemetry (string energy, the last strike's peak force), the
//! output level, and any preset property (constant over a render).

use std::io::{BufWriter, Write};
use std::path::Path;

use orchard_engine::props::{PROBES, Probe, ProbeQuantity};
use orchard_engine::rt::{Mechanics, MeterView, Subscriber, Synth};

use crate::destination::{Destination, Output};

/// The probe paths, for `--help`: every declared probe ([`PROBES`]), then
/// the properties a probe may also name.
pub fn probe_help() -> String {
    let mut help =
        String::from("Probe paths (each a CSV column; sampled every --probe-interval):\n");
    for declaration in PROBES {
        let unit = match declaration.property.unit {
            "" => String::new(),
            unit => format!(", {unit}"),
        };
        help.push_str(&format!(
            "  {:<34} {}{unit}\n",
            declaration.pattern(),
            declaration.property.description
        ));
    }
    help.push_str(
        "  any preset path                    e.g. tuning:a4_hz; the action's settings by their preset paths\n\
         \x20                                    (action:blow_distance_m, hammers:start_gap_m, velocity:curve) as in use\n\
         N is a MIDI key (60 is middle C). Probes of the action need an instrument with one (grand-piano).",
    );
    help
}

/// Where a probe's values come from.
#[derive(Debug, Clone, PartialEq)]
enum Source {
    /// Something watched while playing, as declared in [`PROBES`].
    Watched(Probe),
    /// A live property of the mechanics (the action's settings, by their
    /// preset paths).
    Mechanics(String),
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
        if let Some(parsed) = Probe::parse(path) {
            let probe = parsed.map_err(|reason| format!("--probe {path}: {reason}"))?;
            let keyboard = synth.preset().keyboard;
            if let Probe::Key(key, _) = probe
                && !(keyboard.lowest_key..=keyboard.highest_key).contains(&key)
            {
                return Err(format!(
                    "--probe {path}: key {key} is outside the {} preset's keyboard ({} to {})",
                    synth.preset().name,
                    keyboard.lowest_key,
                    keyboard.highest_key
                ));
            }
            let source = Source::Watched(probe);
            return if probe.declaration().needs_mechanics {
                needs_action(source)
            } else {
                Ok(source)
            };
        }
        if action.is_some_and(|a| a.property(path).is_some()) {
            return Ok(Source::Mechanics(path.to_string()));
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
    writer: Option<BufWriter<Output>>,
    destination: Destination,
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
        let destination = Destination::new(destination)?;
        let output = destination.open()?;
        let meters = synth.take_views().map(|v| v.meters);
        let mut recorder = Self {
            sources,
            meters,
            level: Level::default(),
            writer: Some(BufWriter::new(output)),
            destination,
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
        if let Output::File(file) = writer.into_inner().map_err(|e| fail(e.into_error()))? {
            file.sync_all().map_err(fail)?;
        }
        self.destination.commit()
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
    let from_action_switch = |f: &dyn Fn(&dyn Mechanics) -> Option<bool>| {
        from_action(&|a| f(a).map(|on| f64::from(u8::from(on))))
    };
    match source {
        Source::Mechanics(path) => from_action(&|a| a.property(path)),
        Source::Watched(probe) => match *probe {
            Probe::Sustain => from_action(&|a| Some(a.pedals().sustain)),
            Probe::UnaCorda => from_action(&|a| Some(a.pedals().una_corda)),
            Probe::Sostenuto => from_action_switch(&|a| Some(a.pedals().sostenuto)),
            Probe::Key(key, ProbeQuantity::StrikerTravel) => {
                from_action(&|a| a.striker_travel(key))
            }
            Probe::Key(key, ProbeQuantity::Damper) => from_action(&|a| a.damper(key)),
            Probe::Key(key, ProbeQuantity::Down) => from_action_switch(&|a| a.key_down(key)),
            Probe::Key(key, ProbeQuantity::ResonatorEnergy) => meters.map_or(f64::NAN, |m| {
                f64::from(m.resonator_energy_j[usize::from(key)])
            }),
            Probe::Key(key, ProbeQuantity::PeakForce) => {
                synth.strike_report(key).map_or(0.0, |r| r.peak_force_n)
            }
            Probe::OutputPeak => level.peak,
            Probe::OutputRms => level.rms(),
        },
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
