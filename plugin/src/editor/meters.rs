//! Output meters (peak and RMS per channel, in dBFS) and a scope of the
//! output waveform, triggered on a rising zero crossing so a steady note
//! stands still.

use std::collections::VecDeque;

use egui::{Color32, Rect, Sense, Stroke, Ui, Vec2, pos2};
use orchard_engine::rt::MeterView;

/// Frames the scope keeps (and shows at most).
const SCOPE_HISTORY: usize = 4096;
/// Frames the scope shows (about 20 ms at 48 kHz).
const SCOPE_WINDOW: usize = 960;
/// Bottom of the meters' scale, dBFS.
const FLOOR_DB: f32 = -72.0;

/// dBFS of a linear level (at least [`FLOOR_DB`]).
pub fn dbfs(level: f32) -> f32 {
    if level > 0.0 && level.is_finite() {
        (20.0 * level.log10()).max(FLOOR_DB)
    } else {
        FLOOR_DB
    }
}

/// The scope's memory of the output.
#[derive(Debug, Default)]
pub struct Scope {
    frames: VecDeque<[f32; 2]>,
}

impl Scope {
    /// Adds a frame of output, forgetting the oldest beyond the history.
    pub fn push(&mut self, frame: [f32; 2]) {
        if self.frames.len() == SCOPE_HISTORY {
            self.frames.pop_front();
        }
        self.frames.push_back(frame);
    }

    /// The mono frames to show: [`SCOPE_WINDOW`] of them from the last rising
    /// zero crossing that leaves a whole window (the newest if none).
    pub fn window(&self) -> Vec<f32> {
        let mono: Vec<f32> = self.frames.iter().map(|[l, r]| 0.5 * (l + r)).collect();
        if mono.len() <= SCOPE_WINDOW {
            return mono;
        }
        let last_start = mono.len() - SCOPE_WINDOW;
        let start = (1..=last_start)
            .rev()
            .find(|&i| mono[i - 1] < 0.0 && mono[i] >= 0.0)
            .unwrap_or(last_start);
        mono[start..start + SCOPE_WINDOW].to_vec()
    }
}

/// Draws the meters and the scope.
pub fn show(ui: &mut Ui, meters: &MeterView, scope: &Scope) {
    ui.horizontal(|ui| {
        for (channel, name) in ["L", "R"].into_iter().enumerate() {
            meter(ui, name, meters.peak[channel], meters.rms[channel]);
        }
        ui.vertical(|ui| {
            let peak = meters.peak[0].max(meters.peak[1]);
            ui.label(format!("peak {:.1} dBFS", dbfs(peak)));
            ui.label(format!("sounding keys {}", meters.sounding_keys));
            if meters.late_operations > 0 {
                ui.label(format!("late operations {}", meters.late_operations));
            }
            if meters.non_finite_resets > 0 {
                ui.colored_label(
                    Color32::from_rgb(230, 90, 70),
                    format!(
                        "voices reset after blowing up: {}",
                        meters.non_finite_resets
                    ),
                );
            }
        });
        waveform(ui, &scope.window());
    });
}

/// One channel's meter: RMS as a bar, peak as a line.
fn meter(ui: &mut Ui, name: &str, peak: f32, rms: f32) {
    ui.vertical(|ui| {
        let (rect, _) = ui.allocate_exact_size(Vec2::new(14.0, 90.0), Sense::hover());
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 2.0, Color32::from_gray(30));
        let height = |db: f32| rect.height() * (db - FLOOR_DB) / -FLOOR_DB;
        let rms_top = rect.bottom() - height(dbfs(rms));
        painter.rect_filled(
            Rect::from_min_max(pos2(rect.left(), rms_top), rect.max),
            2.0,
            Color32::from_rgb(90, 180, 120),
        );
        let peak_y = rect.bottom() - height(dbfs(peak));
        let colour = if peak >= 1.0 {
            Color32::RED
        } else {
            Color32::from_rgb(230, 200, 90)
        };
        painter.line_segment(
            [pos2(rect.left(), peak_y), pos2(rect.right(), peak_y)],
            Stroke::new(2.0, colour),
        );
        ui.label(name);
    });
}

/// The waveform, full scale ±1 over the height.
fn waveform(ui: &mut Ui, samples: &[f32]) {
    let size = Vec2::new(ui.available_width().max(120.0), 100.0);
    let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, Color32::from_gray(18));
    painter.line_segment(
        [
            pos2(rect.left(), rect.center().y),
            pos2(rect.right(), rect.center().y),
        ],
        Stroke::new(1.0, Color32::from_gray(45)),
    );
    if samples.len() < 2 {
        return;
    }
    let points = samples
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let x = rect.left() + rect.width() * i as f32 / (samples.len() - 1) as f32;
            let s = if s.is_finite() {
                s.clamp(-1.0, 1.0)
            } else {
                0.0
            };
            pos2(x, rect.center().y - 0.5 * rect.height() * s)
        })
        .collect();
    painter.add(egui::Shape::line(
        points,
        Stroke::new(1.2, Color32::from_rgb(120, 200, 230)),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scope_starts_at_a_rising_zero_crossing() {
        let mut scope = Scope::default();
        // 100 frames per period, started at a phase of a quarter period.
        for n in 0..3000 {
            let x = (std::f32::consts::TAU * (n as f32 + 25.0) / 100.0).sin();
            scope.push([x, x]);
        }
        let window = scope.window();
        assert_eq!(window.len(), SCOPE_WINDOW);
        assert!(
            window[0] >= 0.0 && window[0] < 0.07,
            "starts near zero: {}",
            window[0]
        );
        assert!(window[1] > window[0], "rising");
    }

    #[test]
    fn meters_read_in_dbfs_with_a_floor() {
        assert!((dbfs(1.0)).abs() < 1e-6);
        assert!((dbfs(0.5) + 6.02).abs() < 0.01);
        assert_eq!(dbfs(0.0), FLOOR_DB);
        assert_eq!(dbfs(f32::NAN), FLOOR_DB);
    }
}
