//! Spectrogram PNGs: a short-time Fourier transform of a recording drawn as a
//! time–frequency image in dB, with labelled axes and a colour bar.

use std::path::Path;

use orchard_engine::analysis::{Spectrogram, spectrogram};
use plotters::coord::ReverseCoordTranslate;
use plotters::prelude::*;

use crate::plot::{FONT, register_font};

/// Levels shown, dB below the loudest cell; quieter cells are drawn black.
pub const RANGE_DB: f64 = 90.0;
/// Image size, px.
const WIDTH_PX: u32 = 1200;
const HEIGHT_PX: u32 = 700;
/// Width of the colour bar's panel, px.
const BAR_PANEL_PX: u32 = 110;

/// What to draw.
#[derive(Debug, Clone, Copy)]
pub struct SpectrogramSpec<'a> {
    /// The recording, full scale 1.
    pub signal: &'a [f32],
    /// Its sample rate, Hz.
    pub sample_rate: f64,
    /// Its lowest partial, Hz: sets the window (at least four periods, so
    /// neighbouring partials are resolved) and the frequency axis (about 24
    /// partials, at least 2 kHz, at most the Nyquist frequency).
    pub lowest_hz: f64,
    /// The title.
    pub title: &'a str,
}

/// Writes the spectrogram of `spec` as a PNG to `path`: Hann-windowed frames
/// of at least 85 ms (and four periods of the lowest partial) every quarter
/// window, levels in dB relative to the loudest cell over [`RANGE_DB`].
/// Errors are one line naming the file.
pub fn write_png(spec: &SpectrogramSpec<'_>, path: &Path) -> Result<(), String> {
    let fail = |why: String| format!("cannot write spectrogram {}: {why}", path.display());
    let seconds = (0.085f64).max(4.0 / spec.lowest_hz.max(1.0));
    let window = ((seconds * spec.sample_rate) as usize).next_power_of_two();
    let stft = spectrogram(spec.signal, spec.sample_rate, window, window / 4);
    if stft.magnitudes.is_empty() {
        return Err(fail(format!(
            "the recording is shorter than one {window}-sample window"
        )));
    }
    register_font().map_err(&fail)?;
    let top_hz = (24.0 * spec.lowest_hz).clamp(2000.0, spec.sample_rate / 2.0);
    let duration_s = spec.signal.len() as f64 / spec.sample_rate;
    draw(
        spec.title,
        &stft,
        window as f64 / spec.sample_rate,
        duration_s,
        top_hz,
        path,
    )
    .map_err(fail)
}

fn draw(
    title: &str,
    stft: &Spectrogram,
    window_s: f64,
    duration_s: f64,
    top_hz: f64,
    path: &Path,
) -> Result<(), String> {
    let text = |e: &dyn std::fmt::Display| e.to_string();
    let root = BitMapBackend::new(path, (WIDTH_PX, HEIGHT_PX)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| text(&e))?;
    let (image_area, bar_area) = root.split_horizontally(WIDTH_PX - BAR_PANEL_PX);

    let mut chart = ChartBuilder::on(&image_area)
        .margin(10)
        .caption(title, (FONT, 18))
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..duration_s, 0.0..top_hz)
        .map_err(|e| text(&e))?;
    chart
        .configure_mesh()
        .disable_mesh()
        .label_style((FONT, 13))
        .y_label_formatter(&|f| format!("{f:.0}"))
        .x_desc("time (s)")
        .y_desc("frequency (Hz)")
        .draw()
        .map_err(|e| text(&e))?;

    let loudest = stft
        .magnitudes
        .iter()
        .flatten()
        .fold(f64::MIN_POSITIVE, |m, &v| m.max(v));
    let hop_s = stft
        .frame_times_s
        .get(1)
        .map_or(window_s, |t| t - stft.frame_times_s[0]);
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let coords = chart.as_coord_spec().clone();
    for px in xs {
        for py in ys.clone() {
            let Some((t, f)) = coords.reverse_translate((px, py)) else {
                continue;
            };
            // The frame whose centre is nearest, and the nearest bin.
            let frame = ((t - window_s / 2.0) / hop_s).round().max(0.0) as usize;
            let Some(bins) = stft.magnitudes.get(frame.min(stft.magnitudes.len() - 1)) else {
                continue;
            };
            let bin = ((f / stft.bin_hz).round() as usize).min(bins.len() - 1);
            let db = 20.0 * (bins[bin].max(f64::MIN_POSITIVE) / loudest).log10();
            root.draw_pixel((px, py), &colour((db + RANGE_DB) / RANGE_DB))
                .map_err(|e| text(&e))?;
        }
    }

    let mut bar = ChartBuilder::on(&bar_area)
        .margin_top(40)
        .margin_bottom(50)
        .margin_right(10)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..1.0, -RANGE_DB..0.0)
        .map_err(|e| text(&e))?;
    bar.configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .label_style((FONT, 13))
        .y_label_formatter(&|db| format!("{db:.0}"))
        .y_desc("level (dB)")
        .draw()
        .map_err(|e| text(&e))?;
    let steps = 180;
    bar.draw_series((0..steps).map(|i| {
        let lo = -RANGE_DB + RANGE_DB * f64::from(i) / f64::from(steps);
        let hi = lo + RANGE_DB / f64::from(steps);
        Rectangle::new(
            [(0.0, lo), (1.0, hi)],
            colour(f64::from(i) / f64::from(steps)).filled(),
        )
    }))
    .map_err(|e| text(&e))?;
    root.present().map_err(|e| text(&e))
}

/// The colour of level `x` (0 quietest to 1 loudest, clamped): black through
/// violet, red and orange to pale yellow, brighter with level.
fn colour(x: f64) -> RGBColor {
    const STOPS: [(f64, [f64; 3]); 5] = [
        (0.0, [0.0, 0.0, 0.0]),
        (0.3, [60.0, 15.0, 110.0]),
        (0.6, [190.0, 40.0, 80.0]),
        (0.85, [250.0, 150.0, 30.0]),
        (1.0, [255.0, 250.0, 190.0]),
    ];
    let x = x.clamp(0.0, 1.0);
    let upper = STOPS
        .iter()
        .position(|s| s.0 >= x)
        .unwrap_or(STOPS.len() - 1)
        .max(1);
    let ((x0, c0), (x1, c1)) = (STOPS[upper - 1], STOPS[upper]);
    let u = (x - x0) / (x1 - x0);
    let channel = |i: usize| (c0[i] + u * (c1[i] - c0[i])).round() as u8;
    RGBColor(channel(0), channel(1), channel(2))
}

#[cfg(test)]
mod tests {
    use super::colour;

    #[test]
    fn colours_run_from_black_to_pale_yellow_and_brighten() {
        assert_eq!(colour(-1.0), colour(0.0));
        assert_eq!(colour(0.0), plotters::style::RGBColor(0, 0, 0));
        assert_eq!(colour(1.0), plotters::style::RGBColor(255, 250, 190));
        let brightness = |x: f64| {
            let c = colour(x);
            u32::from(c.0) + u32::from(c.1) + u32::from(c.2)
        };
        assert!(
            (0..100)
                .all(|i| brightness(f64::from(i) / 100.0) <= brightness(f64::from(i + 1) / 100.0))
        );
    }
}
