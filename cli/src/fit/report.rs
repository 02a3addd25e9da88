//! The report of `orchard fit`: per key, a Markdown table of each fitted
//! value with the preset's value and the bounds, and one of each measured
//! figure of the recording beside the render's before and after the fit.

use std::fmt::Write as _;

use orchard_engine::instrument::note_name;

use super::figures::{Figures, LEVEL_PARTIALS, Residuals};
use super::key::{Fit, KeyOutcome, round_significant};
use crate::note::show_t60;

/// A row of the figures' table: its label, how a figure shows, and how its
/// residual shows.
type Row = (
    &'static str,
    fn(&Figures) -> String,
    fn(&Residuals) -> String,
);

/// The tables of `fit`: its parameters, then the figures of each key it
/// matched.
pub fn fit_tables(fit: &Fit) -> String {
    let anchors: Vec<String> = fit
        .anchors
        .iter()
        .map(|&k| format!("{} (key {k})", note_name(k)))
        .collect();
    let mut text = format!(
        "### {}\n\nCost {:.3} before, {:.3} after ({} renders).\n\n\
         | parameter | before | fitted | bounds |\n|---|---|---|---|",
        anchors.join(", "),
        fit.cost_before,
        fit.cost_after,
        fit.renders
    );
    for (placed, fitted) in fit.placed.iter().zip(&fit.fitted) {
        let unit = placed.parameter.unit;
        let unit = if unit.is_empty() {
            String::new()
        } else {
            format!(" {unit}")
        };
        let _ = write!(
            text,
            "\n| `{}` | {} | {} | {} to {}{unit} |",
            placed.path,
            number(placed.preset_value),
            number(*fitted),
            number(placed.bounds.0),
            number(placed.bounds.1)
        );
    }
    let alone = fit.keys.len() == 1 && fit.anchors == [fit.keys[0].key];
    for key in &fit.keys {
        if !alone {
            let _ = write!(
                text,
                "\n\n#### {} (key {}): cost {:.3} before, {:.3} after",
                note_name(key.key),
                key.key,
                key.before.residuals.cost,
                key.after.residuals.cost
            );
        }
        text.push_str(&figures_table(key));
    }
    text
}

/// The table of `key`'s figures: the recording's beside the render's before
/// and after the fit.
fn figures_table(fit: &KeyOutcome) -> String {
    let t = fit.tolerances;
    let mut text = format!(
        "\n\nAimed within ×{:.2} (early T60), ×{:.2} (late T60), ×{:.2} (centroid), \
         {:.1} dB (partial levels) and ×{:.2} (partials' T60s): each at least as far as \
         the recording's two channels lie apart.",
        t.early_t60, t.late_t60, t.centroid, t.levels_db, t.partial_t60
    );
    text.push_str(
        "\n\n| figure | recording | before (residual) | after (residual) |\n|---|---|---|---|",
    );
    let (before, after) = (&fit.before, &fit.after);
    let rows: [Row; 3] = [
        (
            "early T60",
            |f| show_t60(f.early_t60_s),
            |r| times(r.early_ratio),
        ),
        (
            "late T60",
            |f| show_t60(f.late_t60_s),
            |r| times(r.late_ratio),
        ),
        (
            "centroid, first 0.3 s",
            |f| hz(f.centroid_hz),
            |r| times(r.centroid_ratio),
        ),
    ];
    for (label, figure, residual) in rows {
        let _ = write!(
            text,
            "\n| {label} | {} | {} ({}) | {} ({}) |",
            figure(&fit.recording),
            figure(&before.figures),
            residual(&before.residuals),
            figure(&after.figures),
            residual(&after.residuals)
        );
    }
    for (i, n) in LEVEL_PARTIALS.enumerate() {
        let level = |f: &Figures| f.levels_db[i];
        let cell = |f: &Figures| {
            let miss = level(f)
                .zip(level(&fit.recording))
                .map_or_else(dash, |(ours, theirs)| format!("{:+.1} dB", ours - theirs));
            format!("{} ({miss})", db(level(f)))
        };
        let _ = write!(
            text,
            "\n| partial {n} re 1 | {} | {} | {} |",
            db(level(&fit.recording)),
            cell(&before.figures),
            cell(&after.figures)
        );
    }
    let mean = |r: &Residuals| {
        r.levels_mean_abs_db
            .map_or_else(dash, |m| format!("{m:.1} dB"))
    };
    let _ = write!(
        text,
        "\n| partials 2-10, mean abs. difference | | {} | {} |",
        mean(&before.residuals),
        mean(&after.residuals)
    );
    let _ = write!(
        text,
        "\n| partials 1-10, T60 over the recording's (geometric mean) | | {} | {} |",
        times(before.residuals.partial_decay_ratio),
        times(after.residuals.partial_decay_ratio)
    );
    text
}

/// A value to four significant figures.
fn number(value: f64) -> String {
    if (0.01..10_000.0).contains(&value.abs()) {
        format!("{}", round_significant(value, 4))
    } else {
        format!("{value:.3e}")
    }
}

/// A ratio as `×1.23`, or a dash.
fn times(ratio: Option<f64>) -> String {
    ratio.map_or_else(dash, |r| format!("×{r:.2}"))
}

/// A frequency in Hz, or a dash.
fn hz(value: Option<f64>) -> String {
    value.map_or_else(dash, |v| format!("{v:.0} Hz"))
}

/// A level in dB, or a dash.
fn db(value: Option<f64>) -> String {
    value.map_or_else(dash, |v| format!("{v:.1} dB"))
}

/// What a figure not measured shows.
fn dash() -> String {
    "–".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_four_figures_or_go_to_exponents() {
        assert_eq!(number(0.15), "0.15");
        assert_eq!(number(3500.0), "3500");
        assert_eq!(number(2.7e-4), "2.700e-4");
        assert_eq!(number(6.71e9), "6.710e9");
        assert_eq!(number(2.25), "2.25");
        assert_eq!(number(1234.5678), "1235");
        assert_eq!(number(0.0123456), "0.01235");
    }
}
