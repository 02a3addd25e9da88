//! `orchard compare`: a render and a recording of the same note measured side
//! by side with the engine's own analysis (partial levels, inharmonicity,
//! two-stage decay and each partial's decay time, brightness, the attack's
//! noise, dips in the partials' decay, the stereo image), or a whole keyboard rendered with a preset and
//! compared key by key with a folder of recordings.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use orchard_engine::analysis::{
    ATTACK_SPAN_S, ATTACK_TOP_HZ, AttackNoise, BELOW_FIRST_FRACTION, CENTROID_SPAN_S,
    COMPARED_PARTIALS, FIT_PARTIALS, LATER_S, LevelDifference, StereoImage, estimate_f0,
};
use orchard_engine::instrument::{StretchedTuning, note_name, parse_note_name};

use crate::args::compare::CompareArgs;
use crate::audio_file::{MonoAudio, read_mono};
use crate::note::{self, PARTIALS, show_t60};

mod channels;
mod measures;
mod pair_spread;

use measures::DIP_PARTIALS;
pub use measures::{
    DECAY_PARTIALS, NoteMeasures, late_t60_over, partial_decay_ratio, read_and_measure,
};
pub use pair_spread::PairSpread;

/// Keys rendered at once in keyboard mode.
const THREADS: usize = 2;
/// Keyboard mode: every this many keys unless `--every` says otherwise.
const DEFAULT_EVERY: u8 = 4;
/// Keyboard mode: the lowest key compared unless `--from` says otherwise (A0).
const DEFAULT_FROM: u8 = 21;
/// Keyboard mode: the highest key compared unless `--to` says otherwise (C8).
const DEFAULT_TO: u8 = 108;

/// Runs `orchard compare`: two files side by side, or with `--keyboard` a
/// table of keys. Returns the report, or a one-line reason for failing.
pub fn run_compare(args: &CompareArgs) -> Result<String, String> {
    match (&args.keyboard, &args.render, &args.recording) {
        (Some(dir), _, _) => keyboard(args, dir),
        (None, Some(render), Some(recording)) => {
            let keyboard_only = args.every.is_some()
                || args.from.is_some()
                || args.to.is_some()
                || args.held.any_given();
            if keyboard_only {
                return Err(
                    "--every, --from, --to, --velocity, --duration, --sample-rate, \
                     --preset, --set, --seed, --temperament and --tuning are for --keyboard renders"
                        .into(),
                );
            }
            two_files(render, recording, args.note.as_deref())
        }
        _ => Err("give RENDER and RECORDING, or --keyboard DIR".into()),
    }
}

/// The MIDI key given with `flag` as a number (0–127) or a note name (C4,
/// Db4, C#4).
pub fn parse_key(flag: &str, text: &str) -> Result<u8, String> {
    let number = text.parse::<u8>().ok().filter(|&k| k <= 127);
    number.or_else(|| parse_note_name(text)).ok_or_else(|| {
        format!(
            "{flag} {text}: give a MIDI number (0 to 127) or a note name such as C4, Db4 or C#4"
        )
    })
}

/// The key a file name names, as `Piano.ff.Db4.ogg` names D♭4: the last part
/// of the name before the extension, split at dots, underscores and spaces,
/// that is a note name.
pub fn key_of_file_name(path: &Path) -> Option<u8> {
    let stem = path.file_stem()?.to_str()?;
    stem.rsplit(['.', '_', ' ']).find_map(parse_note_name)
}

/// Frequency of `key` in equal temperament at A4 = 440 Hz, Hz: where a
/// recording's first partial is looked for.
fn equal_tempered_hz(key: u8) -> f64 {
    let equal = StretchedTuning {
        a4_hz: 440.0,
        stretch: 0.0,
        ..StretchedTuning::default()
    };
    equal.target(key, |_| 0.0)
}

/// Compares the files `render` and `recording`, playing `note` (or the note
/// their names or the recording's sound tell).
fn two_files(render: &Path, recording: &Path, note: Option<&str>) -> Result<String, String> {
    let recorded = read_mono(recording)?;
    let named = |path: &Path| {
        key_of_file_name(path).map(|key| {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            (key, format!("from the file name {name}"))
        })
    };
    let from_name = named(recording).or_else(|| named(render));
    let (first_hz, which) = match (note.map(|n| parse_key("--note", n)).transpose()?, from_name) {
        (Some(key), _) => (
            equal_tempered_hz(key),
            format!("{} (--note)", note_name(key)),
        ),
        (None, Some((key, why))) => (
            equal_tempered_hz(key),
            format!("{} ({why})", note_name(key)),
        ),
        (None, None) => {
            let hz = estimate_f0(&recorded.signal, recorded.sample_rate).ok_or_else(|| {
                format!(
                    "cannot tell the note of {}: give --note",
                    recording.display()
                )
            })?;
            (hz, format!("estimated from the recording at {hz:.1} Hz"))
        }
    };
    let (rendered, ours) = read_and_measure(render, first_hz)?;
    let theirs = NoteMeasures::of(&recorded, first_hz)
        .ok_or_else(|| format!("{} is silent", recording.display()))?;

    let mut text = format!("note: {which}\n");
    for (label, path, audio, m) in [
        ("render:   ", render, &rendered, &ours),
        ("recording:", recording, &recorded, &theirs),
    ] {
        let _ = writeln!(
            text,
            "{label} {}: {:.2} s from the onset at {} Hz",
            path.display(),
            m.from_onset_s,
            audio.sample_rate
        );
    }
    text.push_str(&side_by_side("", "render", "recording"));
    let row = |label: &str, show: &dyn Fn(&NoteMeasures) -> String| {
        side_by_side(label, &show(&ours), &show(&theirs))
    };
    let dash = || "–".to_string();
    text.push_str(&row("partial 1, Hz", &|m| {
        m.first_hz().map_or_else(dash, |f| format!("{f:.2}"))
    }));
    for n in 1..=PARTIALS {
        text.push_str(&row(&format!("partial {n}, dB re 1"), &|m| {
            m.level_db(n).map_or_else(dash, |db| format!("{db:.1}"))
        }));
    }
    text.push_str(&level_difference_line(&ours, &theirs));
    text.push_str(&row(&format!("B (partials 1-{FIT_PARTIALS})"), &|m| {
        m.fit.map_or_else(dash, |f| format!("{:.2e}", f.b))
    }));
    text.push_str(&row("early T60", &|m| show_t60(m.decay.early_t60_s)));
    text.push_str(&row("late T60", &|m| show_t60(m.decay.late_t60_s)));
    if ours.from_onset_s > theirs.from_onset_s {
        // The render measured as long as the recording, beside the whole.
        let seconds = theirs.from_onset_s;
        text.push_str(&side_by_side(
            &format!("late T60, first {seconds:.2} s"),
            &show_t60(late_t60_over(&rendered, seconds)),
            &show_t60(theirs.decay.late_t60_s),
        ));
    }
    // Each partial timed on its own, the render over the recording's length.
    let recording_s = theirs.from_onset_s;
    let timed = [
        ours.partial_t60s_over(&rendered, recording_s),
        theirs.partial_t60s_over(&recorded, recording_s),
    ];
    for (n, (o, t)) in (1..).zip(timed[0].iter().zip(&timed[1])) {
        text.push_str(&side_by_side(
            &format!("partial {n} T60"),
            &show_t60(*o),
            &show_t60(*t),
        ));
    }
    let _ = write!(
        text,
        "\npartials' T60s, render over recording: {}",
        show_decay_ratio(partial_decay_ratio(&timed[0], &timed[1]))
    );
    text.push_str(&row(
        &format!("centroid, first {CENTROID_SPAN_S} s"),
        &|m| show_centroid(m.centroid_hz),
    ));
    text.push_str(&row("between partials, dB", &|m| {
        show_db(m.attack.map(|a| a.between_db))
    }));
    text.push_str(&row("below partial 1, dB", &|m| {
        show_db(m.attack.map(|a| a.below_db))
    }));
    text.push_str(&row(
        &format!("below partial 1, {LATER_S:.0} s later, dB"),
        &|m| show_db(m.attack.and_then(|a| a.below_later_db)),
    ));
    for n in 1..=DIP_PARTIALS {
        text.push_str(&row(&format!("partial {n} deepest dip"), &|m| {
            m.dips[n as usize - 1]
                .map_or_else(dash, |d| format!("{:.1} @{:.1}s", d.depth_db, d.time_s))
        }));
    }
    text.push_str(&row("L/R correlation", &|m| show_correlation(m.stereo)));
    text.push_str(&row("side/mid, dB", &|m| {
        show_db(m.stereo.map(|s| s.side_to_mid_db))
    }));
    let _ = write!(text, "\n\n{}", legend());
    Ok(text)
}

/// A level in dB to one decimal (−∞ for no level at all), or a dash.
fn show_db(db: Option<f64>) -> String {
    match db {
        None => "–".into(),
        Some(f64::NEG_INFINITY) => "−∞".into(),
        Some(db) => format!("{db:.1}"),
    }
}

/// A centroid in whole hertz, or a dash.
fn show_centroid(hz: Option<f64>) -> String {
    hz.map_or_else(|| "–".into(), |c| format!("{c:.0} Hz"))
}

/// A correlation to two decimals, or a dash.
fn show_correlation(stereo: Option<StereoImage>) -> String {
    stereo.map_or_else(|| "–".into(), |s| format!("{:.2}", s.correlation))
}

/// The line under the partial levels: how the render's partials 2–10
/// (relative to its fundamental) differ from the recording's.
fn level_difference_line(ours: &NoteMeasures, theirs: &NoteMeasures) -> String {
    let (first, last) = (COMPARED_PARTIALS.start(), COMPARED_PARTIALS.end());
    let label = format!("\npartials {first}-{last} vs 1, render − recording: ");
    match ours.levels_against(theirs) {
        Some(d) => format!(
            "{label}mean {:+.1} dB, mean absolute {:.1} dB ({} of {} partials)",
            d.mean_db,
            d.mean_abs_db,
            d.compared,
            last - first + 1
        ),
        None => format!("{label}no partial found in both"),
    }
}

/// What the attack, dip and stereo figures are, in a few lines.
fn legend() -> String {
    let (below_fraction, top_hz) = (BELOW_FIRST_FRACTION, ATTACK_TOP_HZ);
    format!(
        "Between partials and below partial 1: energy in the first {:.0} ms from the onset, \
         dB re all of it, once the partials are fitted out (between: from {below_fraction} × \
         partial 1 to {top_hz:.0} Hz; below: under {below_fraction} × partial 1). Deepest dip: \
         how far the partial's level (in frames of 50 ms or six periods, whichever is longer) \
         falls below its smooth decay (dB, @ s from the onset). L/R correlation and side/mid: \
         the two channels from the onset to the end.",
        ATTACK_SPAN_S * 1e3
    )
}

/// A line of the side-by-side report: a newline, then `label` and two values
/// in columns.
fn side_by_side(label: &str, ours: &str, theirs: &str) -> String {
    format!("\n{label:<26}{ours:>12}{theirs:>12}")
}

/// One key of the keyboard comparison.
struct KeyRow {
    key: u8,
    recording: NoteMeasures,
    /// The render's measures.
    render: NoteMeasures,
    /// The render's late T60 over the recording's length from the onset, s.
    render_late_cut_s: Option<f64>,
    /// The recording's partials' T60s, s.
    recording_partial_t60s: Vec<Option<f64>>,
    /// The render's partials' T60s over the recording's length, s.
    render_partial_t60s: Vec<Option<f64>>,
    /// How far the recording's two channels differ, for a stereo one.
    recording_spread: Option<PairSpread>,
}

/// Renders the keys `--from`..=`--to`, every `--every`th, and compares each
/// with its recording in `dir`: a Markdown table.
fn keyboard(args: &CompareArgs, dir: &Path) -> Result<String, String> {
    let every = args.every.unwrap_or(DEFAULT_EVERY);
    let (from, to) = (
        args.from.unwrap_or(DEFAULT_FROM),
        args.to.unwrap_or(DEFAULT_TO),
    );
    let velocity = args.held.velocity();
    let duration_s = args.held.duration.unwrap_or(note::DEFAULT_DURATION_S);
    let sample_rate = args.held.sample_rate();
    note::check_held_note(duration_s, velocity)?;
    if from > to {
        return Err(format!(
            "--from {from} is above --to {to}: no keys to compare"
        ));
    }
    let preset = args.held.instrument.load()?;
    note::check_on_keyboard(&preset, "--from", from)?;
    note::check_on_keyboard(&preset, "--to", to)?;
    let keys: Vec<u8> = (from..=to).step_by(usize::from(every)).collect();
    let files = recordings_by_key(dir)?;
    // Every recording is read before anything is rendered, so that a bad file
    // stops the comparison at once.
    let mut recordings = Vec::with_capacity(keys.len());
    for &key in &keys {
        let path = files.get(&key).ok_or_else(|| {
            format!(
                "no recording of {} (key {key}) in {}",
                note_name(key),
                dir.display()
            )
        })?;
        let (audio, measures) = read_and_measure(path, equal_tempered_hz(key))?;
        let t60s = measures.partial_t60s_over(&audio, measures.from_onset_s);
        let spread = PairSpread::of(&audio, equal_tempered_hz(key));
        recordings.push((measures, t60s, spread));
    }
    let rendered = in_parallel(&keys, |key| {
        note::play(&preset, key, velocity, duration_s, sample_rate).and_then(|r| {
            let audio = MonoAudio {
                signal: r.signal,
                sample_rate: r.sample_rate,
                stereo: Some(r.stereo),
            };
            let measures = NoteMeasures::of(&audio, preset.fundamental_hz(key))
                .ok_or_else(|| format!("key {key} made no sound"))?;
            Ok((audio, measures))
        })
    });
    let mut rows = Vec::with_capacity(keys.len());
    for ((key, (recording, recording_partial_t60s, recording_spread)), result) in
        keys.iter().zip(recordings).zip(rendered)
    {
        let (audio, render) = result?;
        rows.push(KeyRow {
            key: *key,
            recording_partial_t60s,
            recording_spread,
            render_late_cut_s: late_t60_over(&audio, recording.from_onset_s),
            render_partial_t60s: render.partial_t60s_over(&audio, recording.from_onset_s),
            recording,
            render,
        });
    }
    let mut text = format!(
        "Orchard: {} preset, velocity {}, each key held for its whole {} s render at {} Hz; \
         recordings: {}. The first Orchard late T60 is measured over the recording's length \
         from the onset, as the recording is; the next column over the whole render. \
         B fitted to partials 1-{FIT_PARTIALS}; centroid over the first {CENTROID_SPAN_S} s.\n\n",
        preset.name,
        velocity,
        duration_s,
        sample_rate,
        dir.display()
    );
    text.push_str(&markdown_table(&rows));
    let _ = write!(
        text,
        "\n\nTone and attack: partials {}-{} relative to partial 1 over the first second, \
         Orchard − recording (the mean, the mean absolute difference, and how many partials \
         both have). Partial T60s: each of partials 1-{DECAY_PARTIALS} timed on its own \
         (its power averaged over its beats, down to 20 dB under its peak; Orchard's over the \
         recording's length), Orchard's over the recording's, the geometric mean over the \
         partials both have (and how many). {}\n\n{}",
        COMPARED_PARTIALS.start(),
        COMPARED_PARTIALS.end(),
        legend(),
        tone_table(&rows)
    );
    if rows.iter().any(|r| r.recording_spread.is_some()) {
        let _ = write!(
            text,
            "\n\n{}\n\n{}",
            pair_spread::legend(),
            pair_table(&rows)
        );
    }
    Ok(text)
}

/// The rows as a Markdown table.
fn markdown_table(rows: &[KeyRow]) -> String {
    let mut text = String::from(
        "| key | Orchard early / late T60 | recording early / late T60 | Orchard late T60, whole render | B ×10⁻⁴ Orchard / recording | centroid Orchard / recording |\n\
         |---|---|---|---|---|---|",
    );
    let b = |m: &NoteMeasures| {
        m.fit
            .map_or_else(|| "–".into(), |f| format!("{:.2}", f.b * 1e4))
    };
    for row in rows {
        let (ours, theirs) = (&row.render, &row.recording);
        let _ = write!(
            text,
            "\n| {} | {} / {} | {} / {} | {} | {} / {} | {} / {} |",
            note_name(row.key),
            show_t60(ours.decay.early_t60_s),
            show_t60(row.render_late_cut_s),
            show_t60(theirs.decay.early_t60_s),
            show_t60(theirs.decay.late_t60_s),
            show_t60(ours.decay.late_t60_s),
            b(ours),
            b(theirs),
            show_centroid(ours.centroid_hz),
            show_centroid(theirs.centroid_hz)
        );
    }
    text
}

/// The second table: partial levels against the recording's, the attack's
/// noise, the partials' deepest dips, and the render's stereo image.
fn tone_table(rows: &[KeyRow]) -> String {
    let mut text = format!(
        "| key | partials 2–10 O−R: mean / mean abs (dB), n | partial T60s O / R, n | \
         between partials O / R (dB) | \
         below partial 1 O / R (dB) | below partial 1, {LATER_S:.0} s later, O / R (dB) | \
         deepest dip, partials 1–{DIP_PARTIALS}, O (dB) | \
         deepest dip, partials 1–{DIP_PARTIALS}, R (dB) | L/R correlation O / R | side/mid O / R (dB) |\n\
         |---|---|---|---|---|---|---|---|---|---|",
    );
    let pair =
        |ours: Option<f64>, theirs: Option<f64>| format!("{} / {}", show_db(ours), show_db(theirs));
    let dips = |m: &NoteMeasures| {
        m.dips
            .iter()
            .map(|d| show_db(d.map(|d| d.depth_db)))
            .collect::<Vec<_>>()
            .join(" / ")
    };
    for row in rows {
        let (ours, theirs) = (&row.render, &row.recording);
        let levels = show_levels(ours.levels_against(theirs));
        let decays = show_decay_ratio(partial_decay_ratio(
            &row.render_partial_t60s,
            &row.recording_partial_t60s,
        ));
        let correlations = format!(
            "{} / {}",
            show_correlation(ours.stereo),
            show_correlation(theirs.stereo)
        );
        let _ = write!(
            text,
            "\n| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            note_name(row.key),
            levels,
            decays,
            pair(
                attack(ours, |a| a.between_db),
                attack(theirs, |a| a.between_db)
            ),
            pair(attack(ours, |a| a.below_db), attack(theirs, |a| a.below_db)),
            pair(later(ours), later(theirs)),
            dips(ours),
            dips(theirs),
            correlations,
            pair(
                ours.stereo.map(|s| s.side_to_mid_db),
                theirs.stereo.map(|s| s.side_to_mid_db)
            ),
        );
    }
    text
}

/// The third table: each stereo recording's left channel against its right
/// ([`PairSpread`]).
fn pair_table(rows: &[KeyRow]) -> String {
    let mut text = String::from(
        "| key | partials 2–10 L−R: mean / mean abs (dB), n | partial T60s L / R, n | \
         early T60 L / R | late T60 L / R | centroid L / R | between partials L / R (dB) | \
         below partial 1 L / R (dB) |\n\
         |---|---|---|---|---|---|---|---|",
    );
    for row in rows {
        let Some(spread) = &row.recording_spread else {
            continue;
        };
        let (left, right) = (&spread.left, &spread.right);
        let _ = write!(
            text,
            "\n| {} | {} | {} | {} / {} | {} / {} | {} / {} | {} / {} | {} / {} |",
            note_name(row.key),
            show_levels(spread.levels),
            show_decay_ratio(spread.partial_decay),
            show_t60(left.decay.early_t60_s),
            show_t60(right.decay.early_t60_s),
            show_t60(left.decay.late_t60_s),
            show_t60(right.decay.late_t60_s),
            show_centroid(left.centroid_hz),
            show_centroid(right.centroid_hz),
            show_db(attack(left, |a| a.between_db)),
            show_db(attack(right, |a| a.between_db)),
            show_db(attack(left, |a| a.below_db)),
            show_db(attack(right, |a| a.below_db)),
        );
    }
    text
}

/// One figure of a note's attack noise (`f` picks it), if measured.
fn attack(m: &NoteMeasures, f: fn(&AttackNoise) -> f64) -> Option<f64> {
    m.attack.as_ref().map(f)
}

/// The band below partial 1 a second after the onset, if measured.
fn later(m: &NoteMeasures) -> Option<f64> {
    m.attack.as_ref().and_then(|a| a.below_later_db)
}

/// Partials 2–10 of one sound against another's: mean / mean abs, count.
fn show_levels(levels: Option<LevelDifference>) -> String {
    levels.map_or_else(
        || "–".into(),
        |d| format!("{:+.1} / {:.1}, {}", d.mean_db, d.mean_abs_db, d.compared),
    )
}

/// A partial decay ratio and how many partials it is over.
fn show_decay_ratio(ratio: Option<(f64, usize)>) -> String {
    ratio.map_or_else(|| "–".into(), |(ratio, n)| format!("×{ratio:.2}, {n}"))
}

/// The WAV and Ogg Vorbis files in `dir` by the key their names name
/// ([`key_of_file_name`]); two files of one key are an error.
pub fn recordings_by_key(dir: &Path) -> Result<BTreeMap<u8, PathBuf>, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read the folder {}: {e}", dir.display()))?;
    let mut files = BTreeMap::new();
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read the folder {}: {e}", dir.display()))?
            .path();
        let sound = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("ogg") || e.eq_ignore_ascii_case("wav"));
        let Some(key) = key_of_file_name(&path).filter(|_| sound) else {
            continue;
        };
        if let Some(other) = files.insert(key, path.clone()) {
            return Err(format!(
                "two recordings of {} in {}: {} and {}",
                note_name(key),
                dir.display(),
                other.display(),
                path.display()
            ));
        }
    }
    Ok(files)
}

/// `work` applied to each of `keys` on `THREADS` threads, in the order of
/// `keys`.
pub fn in_parallel<T: Send>(keys: &[u8], work: impl Fn(u8) -> T + Sync) -> Vec<T> {
    let work = &work;
    let mut done: Vec<(usize, T)> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..THREADS)
            .map(|first| {
                scope.spawn(move || {
                    (first..keys.len())
                        .step_by(THREADS)
                        .map(|i| (i, work(keys[i])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        threads
            .into_iter()
            .flat_map(|t| t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, t)| t).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_from_numbers_names_and_file_names() {
        assert_eq!(parse_key("--note", "60"), Ok(60));
        assert_eq!(parse_key("--note", "Db4"), Ok(61));
        assert_eq!(parse_key("--note", "C#4"), Ok(61));
        assert!(
            parse_key("--note", "200")
                .unwrap_err()
                .contains("--note 200")
        );
        assert!(
            parse_key("--keys", "X9")
                .unwrap_err()
                .starts_with("--keys X9:")
        );
        assert!(parse_key("--note", "H2").is_err());
        let key = |name: &str| key_of_file_name(Path::new(name));
        assert_eq!(key("../recordings/Piano.ff.Db4.ogg"), Some(61));
        assert_eq!(key("Piano.ff.A0.ogg"), Some(21));
        assert_eq!(key("render_c4.wav"), Some(60));
        assert_eq!(key("render.wav"), None);
        assert!((equal_tempered_hz(69) - 440.0).abs() < 1e-9);
        assert!((equal_tempered_hz(60) - 261.625_565).abs() < 1e-5);
    }

    #[test]
    fn work_in_parallel_keeps_the_order() {
        let keys: Vec<u8> = (21..=30).collect();
        assert_eq!(
            in_parallel(&keys, |k| u32::from(k) * 2),
            keys.iter().map(|&k| u32::from(k) * 2).collect::<Vec<_>>()
        );
    }
}
