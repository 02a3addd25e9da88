//! PNG plots of a recorded mechanism run: one panel per state variable and one
//! for the kinetic energy, stacked on a shared time axis.
//!
//! Drawn with `plotters`' bitmap backend. Text goes through its pure-Rust
//! `ab_glyph` renderer with DejaVu Sans (free licence) embedded by the `dejavu`
//! crate, so no system font library or installed font is needed.

use std::path::Path;
use std::sync::OnceLock;

use orchard_engine::mech::long_term::Trace;
use plotters::prelude::*;
use plotters::style::FontStyle;

/// Size of a plot, pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlotSize {
    /// Width, px.
    pub width_px: u32,
    /// Height, px.
    pub height_px: u32,
}

/// Smallest width a plot may have, px.
pub const MIN_WIDTH_PX: u32 = 200;
/// Smallest height per panel, px.
pub const MIN_PANEL_HEIGHT_PX: u32 = 80;

impl PlotSize {
    /// The default size for `trace`: 1200 px wide, 200 px per panel.
    pub fn for_trace(trace: &Trace) -> Self {
        Self {
            width_px: 1200,
            height_px: 200 * panels(trace),
        }
    }
}

/// Panels in a plot of `trace`: its variables and the kinetic energy.
fn panels(trace: &Trace) -> u32 {
    trace.variables().len() as u32 + 1
}

/// The font family name the plots use.
pub(super) const FONT: &str = "sans-serif";

/// Registers the embedded font with plotters once per process.
pub(super) fn register_font() -> Result<(), String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular())
                .map_err(|_| "the embedded plot font could not be read".to_owned())
        })
        .clone()
}

/// Writes `trace` as a PNG of `size` to `path`: each variable in its display
/// unit (degrees for angles, millimetres for lengths) against time in
/// seconds, then the kinetic energy in joules. Errors are one line naming
/// the file.
///
/// Allocates: the image and at most two points per pixel column per panel.
pub fn write_png(trace: &Trace, path: &Path, size: PlotSize) -> Result<(), String> {
    let fail = |why: String| format!("cannot plot to {}: {why}", path.display());
    if trace.is_empty() {
        return Err(fail("the trace has no samples".into()));
    }
    let n = panels(trace);
    if size.width_px < MIN_WIDTH_PX || size.height_px < MIN_PANEL_HEIGHT_PX * n {
        return Err(fail(format!(
            "{}×{} px is too small for {n} panels (at least {MIN_WIDTH_PX} px wide and {MIN_PANEL_HEIGHT_PX} px per panel)",
            size.width_px, size.height_px
        )));
    }
    register_font().map_err(&fail)?;
    draw(trace, path, size, n).map_err(fail)
}

fn draw(trace: &Trace, path: &Path, size: PlotSize, n: u32) -> Result<(), String> {
    let text = |e: &dyn std::fmt::Display| e.to_string();
    let root = BitMapBackend::new(path, (size.width_px, size.height_px)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| text(&e))?;
    let times = trace.times_s();
    let (t0, t1) = widen(times[0], times[times.len() - 1]);
    let areas = root.split_evenly((n as usize, 1));
    for (panel, area) in areas.iter().enumerate() {
        let bottom = panel + 1 == areas.len();
        let (title, values): (String, Vec<f64>) = match trace.variables().get(panel) {
            Some(v) => (
                format!("{} ({})", v.name, v.unit.display_symbol()),
                trace
                    .series(panel)
                    .map(|x| x * v.unit.display_scale())
                    .collect(),
            ),
            None => (
                "kinetic energy (J)".into(),
                trace.kinetic_energy_j().to_vec(),
            ),
        };
        let (lo, hi) = values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                (lo.min(v), hi.max(v))
            });
        let (lo, hi) = widen(lo, hi);
        let mut chart = ChartBuilder::on(area)
            .margin(6)
            .caption(title, (FONT, 16))
            .x_label_area_size(if bottom { 36 } else { 0 })
            .y_label_area_size(70)
            .build_cartesian_2d(t0..t1, lo..hi)
            .map_err(|e| text(&e))?;
        let decimals = tick_decimals(hi - lo);
        let label = |v: &f64| format!("{v:.decimals$}");
        let mut mesh = chart.configure_mesh();
        mesh.label_style((FONT, 12))
            .light_line_style(WHITE)
            .y_label_formatter(&label);
        if bottom {
            mesh.x_desc("time (s)");
        }
        mesh.draw().map_err(|e| text(&e))?;
        let points = envelope(times, &values, size.width_px as usize);
        chart
            .draw_series(LineSeries::new(points, BLUE.stroke_width(1)))
            .map_err(|e| text(&e))?;
    }
    root.present().map_err(|e| text(&e))
}

/// Decimals that tell apart the ticks of an axis spanning `span` (about ten
/// ticks).
fn tick_decimals(span: f64) -> usize {
    let step = span / 10.0;
    (-step.log10().floor()).clamp(0.0, 12.0) as usize
}

/// A range with room around it: 5 % each side, or ±1 (or ±10 % of the value)
/// around a constant.
fn widen(lo: f64, hi: f64) -> (f64, f64) {
    if hi > lo {
        let pad = 0.05 * (hi - lo);
        (lo - pad, hi + pad)
    } else {
        let pad = (0.1 * lo.abs()).max(1.0);
        (lo - pad, hi + pad)
    }
}

/// The points of `values` over `times` reduced to the lowest and highest of
/// each of `columns` equal slices (in time order), so a long trace draws
/// quickly and keeps its envelope.
fn envelope(times: &[f64], values: &[f64], columns: usize) -> Vec<(f64, f64)> {
    let per_column = values.len().div_ceil(columns.max(1)).max(1);
    if per_column <= 2 {
        return times.iter().copied().zip(values.iter().copied()).collect();
    }
    let mut points = Vec::with_capacity(2 * columns);
    for (c, slice) in values.chunks(per_column).enumerate() {
        let base = c * per_column;
        let (mut i_lo, mut i_hi) = (0, 0);
        for (i, &v) in slice.iter().enumerate() {
            if v < slice[i_lo] {
                i_lo = i;
            }
            if v > slice[i_hi] {
                i_hi = i;
            }
        }
        let (a, b) = (i_lo.min(i_hi), i_lo.max(i_hi));
        points.push((times[base + a], slice[a]));
        if b != a {
            points.push((times[base + b], slice[b]));
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::{envelope, widen};

    #[test]
    fn envelope_keeps_each_slices_extremes_in_time_order() {
        let times: Vec<f64> = (0..12).map(f64::from).collect();
        let values = [0.0, 5.0, -1.0, 2.0, 3.0, 1.0, 9.0, -4.0, 0.0, 1.0, 1.0, 1.0];
        // Three columns of four samples.
        let points = envelope(&times, &values, 3);
        assert_eq!(
            points,
            vec![
                (1.0, 5.0),
                (2.0, -1.0),
                (6.0, 9.0),
                (7.0, -4.0),
                (8.0, 0.0),
                (9.0, 1.0)
            ]
        );
        // Few samples: all of them.
        assert_eq!(envelope(&times[..3], &values[..3], 100).len(), 3);
    }

    #[test]
    fn tick_labels_have_enough_decimals() {
        assert_eq!(super::tick_decimals(95.0), 0);
        assert_eq!(super::tick_decimals(2.0), 1);
        assert_eq!(super::tick_decimals(5.5e-5), 6);
    }

    #[test]
    fn constant_ranges_are_widened() {
        assert_eq!(widen(2.0, 2.0), (1.0, 3.0));
        assert_eq!(widen(0.0, 10.0), (-0.5, 10.5));
    }
}
