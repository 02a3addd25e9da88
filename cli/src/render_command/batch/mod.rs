//! `orchard render` of many files: each rendered as one file is (by
//! [`render_one`], with its atomic output), several at once on a pool of
//! threads, under one progress bar. A file that fails is reported and the
//! others go on.

pub mod jobs;
pub mod manifest;
pub mod pattern;

use std::path::Path;
use std::time::Instant;

use indicatif::ProgressBar;
use rayon::prelude::*;

use super::one::render_one;
use crate::args::render::RenderArgs;
use crate::destination::is_stdout;
use crate::{interrupt, outputs};
use jobs::Job;

/// Whether `args` ask for a batch: a manifest, --out-dir, several inputs,
/// or an input that is a folder or a pattern with -o naming a folder (given
/// -o FILE, a folder is a file that cannot be read, as ever).
pub fn is_batch(args: &RenderArgs) -> bool {
    let many = |path: &Path| {
        path.is_dir() || (!path.exists() && pattern::is_pattern(&path.to_string_lossy()))
    };
    args.manifest.is_some()
        || args.out_dir.is_some()
        || args.midi.len() > 1
        || (args.midi.iter().any(|path| many(path))
            && args.output.as_deref().is_some_and(names_folder))
}

/// Whether -o `path` names a folder: one that exists, or ends in `/`.
fn names_folder(path: &Path) -> bool {
    path.is_dir() || path.to_string_lossy().ends_with(std::path::MAIN_SEPARATOR)
}

/// How one file of a batch went.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    /// Written.
    Rendered,
    /// Not rendered, for this one-line reason.
    Failed(String),
    /// Its output was there already (`--resume`), or a signal stopped the
    /// batch before it began.
    Skipped,
}

/// Renders every file `args` name, `--jobs` at once. Returns the summary
/// line, or it as the error if any file failed (each failure has been
/// reported on the standard error as it happened) or a signal stopped the
/// batch (the files not begun are skipped, those under way fail).
pub fn run(args: &RenderArgs) -> Result<String, String> {
    if !args.probes.is_empty() || args.probe_out.is_some() {
        return Err(
            "--probe and --probe-out record one render: give them one MIDI file and -o FILE.wav"
                .into(),
        );
    }
    let out_dir = out_dir(args)?;
    let jobs = match (&args.manifest, out_dir) {
        (Some(manifest), _) => manifest::read(manifest, out_dir)?,
        (None, Some(out_dir)) => jobs::from_paths(&args.midi, out_dir)?,
        (None, None) => return Err("give the folder to render into with --out-dir DIR".into()),
    };
    if jobs.is_empty() {
        return Err("no MIDI files (.mid, .midi) to render".into());
    }
    check_inputs_kept(args, &jobs)?;
    // No more threads than files.
    let threads = match args.jobs {
        Some(n) => n as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
    .min(jobs.len());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let bar = ProgressBar::new(jobs.len() as u64);
    let started = Instant::now();
    let outcomes: Vec<Outcome> = pool.install(|| {
        jobs.par_iter()
            .with_max_len(1)
            .map(|job| {
                let outcome = render_job(args, job);
                if let Outcome::Failed(reason) = &outcome {
                    bar.suspend(|| {
                        crate::print::err(&format!("orchard: {}: {reason}", job.input.display()));
                    });
                }
                bar.inc(1);
                outcome
            })
            .collect()
    });
    bar.finish_and_clear();
    let count = |wanted: fn(&Outcome) -> bool| outcomes.iter().filter(|o| wanted(o)).count();
    let failed = count(|o| matches!(o, Outcome::Failed(_)));
    let line = format!(
        "{} file{}: {} rendered, {failed} failed, {} skipped, in {:.1} s with {threads} job{}{}",
        jobs.len(),
        if jobs.len() == 1 { "" } else { "s" },
        count(|o| *o == Outcome::Rendered),
        count(|o| *o == Outcome::Skipped),
        started.elapsed().as_secs_f64(),
        if threads == 1 { "" } else { "s" },
        memory(threads)
    );
    match interrupt::check() {
        Err(reason) => Err(format!("{line}; {reason}")),
        Ok(()) if failed > 0 => Err(line),
        Ok(()) => Ok(line),
    }
}

/// Refuses, before anything is rendered, a batch whose output would be
/// one of its inputs: any job's MIDI file or preset file, the manifest, or
/// the command line's preset, scale or keyboard mapping.
fn check_inputs_kept(args: &RenderArgs, jobs: &[Job]) -> Result<(), String> {
    let mut inputs: Vec<outputs::Named<'_>> = args.instrument.input_files();
    inputs.extend(args.manifest.as_deref().map(|m| ("--manifest", m)));
    for job in jobs {
        inputs.push(("input", &job.input));
        inputs.extend(job.preset.as_deref().map(|p| ("preset", Path::new(p))));
    }
    let outputs: Vec<outputs::Named<'_>> = jobs
        .iter()
        .map(|job| ("output", job.output.as_path()))
        .collect();
    outputs::check_apart(&outputs, &inputs)
}

/// The folder outputs go to: --out-dir, or -o naming a folder; created if
/// missing. `None` for a manifest without either.
fn out_dir(args: &RenderArgs) -> Result<Option<&Path>, String> {
    let dir = match (&args.out_dir, &args.output) {
        (Some(dir), _) => dir.as_path(),
        (None, Some(output)) if is_stdout(output) || !names_folder(output) => {
            return Err(format!(
                "-o {}: several renders go to a folder; give -o DIR/ or --out-dir DIR",
                output.display()
            ));
        }
        (None, Some(output)) => output.as_path(),
        (None, None) => return Ok(None),
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create the folder {}: {e}", dir.display()))?;
    Ok(Some(dir))
}

/// Renders one job as `orchard render INPUT -o OUTPUT` with the rest of
/// `args` would, or skips it (`--resume` and its output is there, or a
/// signal has come).
fn render_job(args: &RenderArgs, job: &Job) -> Outcome {
    if (args.resume && job.output.is_file()) || interrupt::check().is_err() {
        return Outcome::Skipped;
    }
    let render = || {
        if let Some(parent) = job.output.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create the folder {}: {e}", parent.display()))?;
        }
        let mut one = args.clone();
        one.midi = vec![job.input.clone()];
        one.output = Some(job.output.clone());
        one.out_dir = None;
        one.manifest = None;
        one.in_batch = true;
        if let Some(preset) = &job.preset {
            one.instrument.preset.clone_from(preset);
        }
        one.instrument.settings.extend(job.settings.iter().cloned());
        render_one(&one)
    };
    match render() {
        Ok(_) => Outcome::Rendered,
        Err(reason) => Outcome::Failed(reason),
    }
}

/// The summary's memory: peak resident memory of the whole batch, MB, and
/// that shared among the `threads` renders at once (empty where unknown).
fn memory(threads: usize) -> String {
    crate::memory::peak_resident_mb().map_or(String::new(), |mb| {
        format!(
            "; peak memory {mb:.0} MB, {:.0} MB a job",
            mb / threads as f64
        )
    })
}
