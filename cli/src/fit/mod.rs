//! `orchard fit`: a preset's physical parameters at chosen keys fitted to
//! recordings of those keys, so that the figures `orchard compare` measures
//! (early and late T60, centroid, partial levels) match; written as a preset
//! with the fitted values as anchors, and a report of the residuals.
//!
//! Only physical parameters are fitted (the strings' losses and bridge, the
//! felt's stiffness and exponent, the strike position), each bounded by the
//! span published measurements give it ([`parameters`]); nothing filters
//! the sound afterwards. Each key is fitted on its own (an anchor at a key
//! fixes that key's values whatever its neighbours hold), or with
//! `--anchors` all keys jointly: the values at a few anchor keys, between
//! which the preset interpolates, against every key's recording at once, so
//! that the keyboard stays smooth and no key's recording is matched alone.

pub mod figures;
pub mod key;
pub mod parameters;
pub mod report;
pub mod simplex;

use std::fmt::Write as _;
use std::path::Path;

use orchard_engine::instrument::{Preset, note_name};

use crate::args::fit::FitArgs;
use crate::compare::{in_parallel, parse_key, read_and_measure, recordings_by_key};
use crate::{destination, note, outputs, print};
use key::{Fit, Play, Recorded, fit, with_values};
use parameters::{DEFAULT_PARAMETERS, by_names};

/// Renders the search makes at each key unless `--iterations` says otherwise.
pub const DEFAULT_ITERATIONS: u32 = 60;

/// Runs `orchard fit`: the report, or a one-line reason for failing.
pub fn run_fit(args: &FitArgs) -> Result<String, String> {
    let play = Play {
        velocity: args.held.velocity(),
        duration_s: args.held.duration.unwrap_or(note::DEFAULT_DURATION_S),
        sample_rate: args.held.sample_rate(),
    };
    note::check_held_note(play.duration_s, play.velocity)?;
    let budget = args.iterations.unwrap_or(DEFAULT_ITERATIONS) as usize;
    let parameters = if args.params.is_empty() {
        by_names(&DEFAULT_PARAMETERS)?
    } else {
        by_names(&args.params)?
    };
    let mut outputs_named = vec![("--out", args.out.as_path())];
    outputs_named.extend(args.report.as_deref().map(|r| ("--report", r)));
    let mut inputs = args.held.instrument.input_files();
    inputs.push(("DIR", args.recordings.as_path()));
    outputs::check(&outputs_named, &inputs)?;
    let preset = args.held.instrument.load()?;
    let keys = parse_keys("--keys", &args.keys, &preset)?;
    let anchors = {
        let mut anchors = parse_keys("--anchors", &args.anchors, &preset)?;
        anchors.sort_unstable();
        anchors
    };
    // Every parameter is placed and every recording read before anything is
    // rendered, so that a bad one stops the fit at once.
    for &key in keys.iter().chain(&anchors) {
        for parameter in &parameters {
            parameter.at(&preset, key)?;
        }
    }
    let files = recordings_by_key(&args.recordings)?;
    let mut recorded = Vec::with_capacity(keys.len());
    for &key in &keys {
        let path = files.get(&key).ok_or_else(|| {
            format!(
                "no recording of {} (key {key}) in {}",
                note_name(key),
                args.recordings.display()
            )
        })?;
        // Measured around the preset's fundamental, as each render is: the
        // partials found depend on where the first is looked for.
        let first_hz = preset.fundamental_hz(key);
        let (audio, measures) = read_and_measure(path, first_hz)?;
        recorded.push((key, Recorded::of(&audio, &measures, first_hz)));
    }
    let report_progress = |fit: &Fit| {
        let anchors: Vec<String> = fit.anchors.iter().map(|&k| note_name(k)).collect();
        print::err(&format!(
            "orchard fit: {} cost {:.3} -> {:.3} in {} renders",
            anchors.join(", "),
            fit.cost_before,
            fit.cost_after,
            fit.renders
        ));
    };
    let fits = if anchors.is_empty() {
        in_parallel(&keys, |key| {
            let i = keys.iter().position(|&k| k == key).expect("a key fitted");
            let one = std::slice::from_ref(&recorded[i]);
            let fit = fit(&preset, &[key], one, &parameters, play, budget);
            if let Ok(fit) = &fit {
                report_progress(fit);
            }
            fit
        })
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?
    } else {
        let fit = fit(&preset, &anchors, &recorded, &parameters, play, budget)?;
        report_progress(&fit);
        vec![fit]
    };

    let fitted = fitted_preset(&preset, &fits, &args.recordings)?;
    let text = preset_toml(&fitted)?;
    let report = report(&preset, &fits, &args.recordings, play, budget);
    destination::write_whole(&args.out, text.as_bytes())?;
    if let Some(path) = &args.report {
        destination::write_whole(path, report.as_bytes())?;
    }
    Ok(format!("{report}\n\nwrote {}", args.out.display()))
}

/// The keys `option` names in `texts`, each on `preset`'s keyboard and
/// named once.
fn parse_keys(option: &str, texts: &[String], preset: &Preset) -> Result<Vec<u8>, String> {
    let mut keys = Vec::with_capacity(texts.len());
    for text in texts {
        let key = parse_key(option, text.trim())?;
        note::check_on_keyboard(preset, option, key)?;
        if keys.contains(&key) {
            return Err(format!("{option} names {} twice", note_name(key)));
        }
        keys.push(key);
    }
    Ok(keys)
}

/// `preset` with every fitted value set at its key, and its description
/// saying what was fitted to what.
fn fitted_preset(preset: &Preset, fits: &[Fit], recordings: &Path) -> Result<Preset, String> {
    let mut fitted = preset.clone();
    for fit in fits {
        fitted = with_values(&fitted, &fit.placed, &fit.fitted)?;
    }
    let mut names: Vec<&str> = fits
        .iter()
        .flat_map(|f| f.placed.iter().map(|p| p.parameter.name))
        .collect();
    names.dedup();
    let names_of = |keys: &mut dyn Iterator<Item = u8>| keys.map(note_name).collect::<Vec<_>>();
    let keys = names_of(&mut fits.iter().flat_map(|f| f.keys.iter().map(|k| k.key)));
    let anchors = names_of(&mut fits.iter().flat_map(|f| f.anchors.iter().copied()));
    let _ = write!(
        fitted.description,
        " Fitted by `orchard fit` to the recordings in {} of {} ({} at {}): the early and late \
         T60, the centroid of the first 0.3 s and partials 2-10 against the first.",
        recordings.display(),
        keys.join(", "),
        names.join(", "),
        anchors.join(", ")
    );
    Ok(fitted)
}

/// `preset` as a preset file's TOML, checked to read back as the same preset.
fn preset_toml(preset: &Preset) -> Result<String, String> {
    let text = toml::to_string(preset).map_err(|e| format!("cannot write the preset: {e}"))?;
    match Preset::from_toml(&text) {
        Ok(read) if read == *preset => Ok(text),
        Ok(_) => Err("the fitted preset does not read back as written".into()),
        Err(e) => Err(format!("the fitted preset does not load: {e}")),
    }
}

/// The report: how the fit was made, then each key's tables.
fn report(preset: &Preset, fits: &[Fit], recordings: &Path, play: Play, budget: usize) -> String {
    let mut text = format!(
        "# orchard fit: the {} preset against {}\n\n\
         Each key held at velocity {} for {} s at {} Hz, as `orchard compare --keyboard` plays \
         it; at most {budget} renders of the search per key. A residual is the render's figure \
         over the recording's (T60, centroid; the late T60 measured over the recording's length) \
         or its level minus the recording's (partials). The cost is the mean square of each \
         figure's miss in tolerances (T60 ×1.3, centroid ×1.15, partial levels 4 dB, the \
         partials together weighing as one figure).",
        preset.name,
        recordings.display(),
        play.velocity,
        play.duration_s,
        play.sample_rate
    );
    for fit in fits {
        text.push_str("\n\n");
        text.push_str(&report::fit_tables(fit));
    }
    text
}
