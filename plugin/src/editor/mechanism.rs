//! The mechanism as it moves: above each key its string (glowing with the
//! energy on it), its damper resting on the string or lifted, and its hammer
//! rising towards the string; a contact lights up with its force. Drawn from
//! the worker's and the audio thread's latest snapshots at the GUI's frame
//! rate.

use egui::{Color32, Pos2, Rect, Sense, Stroke, Ui, Vec2, pos2};
use orchard_engine::rt::{MechanicsView, MeterView};

use super::keyboard::{KeyGeometry, Keys};

/// Energy on a key's strings drawn at full brightness, J (a loud bass note).
const FULL_GLOW_J: f32 = 0.05;
/// Decades of energy below full glow that still show.
const GLOW_DECADES: f32 = 5.0;
/// Height of the band the pedals are drawn in, points.
const PEDAL_BAND: f32 = 16.0;
/// Contact force drawn at full brightness, N.
const FULL_FORCE_N: f32 = 60.0;

/// 0 to 1: how bright to draw `energy` (logarithmic, as loudness is heard).
fn glow(energy_j: f32) -> f32 {
    if energy_j <= 0.0 || !energy_j.is_finite() {
        return 0.0;
    }
    (1.0 + (energy_j / FULL_GLOW_J).log10() / GLOW_DECADES).clamp(0.0, 1.0)
}

/// Draws the mechanism of `keys` into `height` points of `ui`, laid out as
/// the keyboard below it lays them out.
pub fn show(ui: &mut Ui, height: f32, keys: Keys, mechanics: &MechanicsView, meters: &MeterView) {
    let (whole, _) =
        ui.allocate_exact_size(Vec2::new(ui.available_width(), height), Sense::hover());
    let painter = ui.painter_at(whole);
    painter.rect_filled(whole, 4.0, Color32::from_gray(22));
    let band = Rect::from_min_size(whole.min, Vec2::new(whole.width(), PEDAL_BAND));
    pedals(ui, band, mechanics);
    let rect = Rect::from_min_max(pos2(whole.left(), band.bottom()), whole.max);
    let geometry = KeyGeometry::new(rect, keys);
    // A side view of each key's strings: the string across the top, the
    // damper resting on it from above, the hammer rising to it from below.
    let string_y = rect.top() + 0.3 * rect.height();
    let rest_y = rect.bottom() - 0.08 * rect.height();
    let damper_lift = 0.2 * rect.height();
    for key in keys.iter() {
        let index = usize::from(key);
        let (left, right) = geometry.span(key);
        let x = 0.5 * (left + right);
        let width = (right - left).max(2.0);

        // The string, brighter and thicker the more energy it carries.
        let light = glow(meters.resonator_energy_j[usize::from(key)]);
        let string_colour = Color32::from_rgb(
            (90.0 + 165.0 * light) as u8,
            (90.0 + 130.0 * light) as u8,
            (100.0 + 40.0 * light) as u8,
        );
        painter.line_segment(
            [pos2(left + 1.0, string_y), pos2(right - 1.0, string_y)],
            Stroke::new(1.0 + 2.5 * light, string_colour),
        );

        // The damper: on the string when 1, lifted clear when 0.
        let damper = mechanics
            .damper
            .get(index)
            .copied()
            .unwrap_or(1.0)
            .clamp(0.0, 1.0);
        let felt_bottom = string_y - 1.5 - (1.0 - damper) * damper_lift;
        let felt = Rect::from_min_max(
            pos2(x - 0.35 * width, felt_bottom - 6.0),
            pos2(x + 0.35 * width, felt_bottom),
        );
        painter.rect_filled(felt, 1.0, Color32::from_rgb(120, 150, 210));

        // The hammer, from rest (travel 0) up to the string (travel 1).
        let travel = mechanics
            .striker_travel
            .get(index)
            .copied()
            .unwrap_or(0.0)
            .clamp(0.0, 1.0);
        let radius = (0.45 * width).clamp(1.5, 5.0);
        let head_y = rest_y + (string_y + radius + 1.0 - rest_y) * travel;
        painter.line_segment(
            [pos2(x, rest_y + 4.0), pos2(x, head_y)],
            Stroke::new(1.0, Color32::from_gray(110)),
        );
        let force = mechanics
            .last_contact_force_n
            .get(index)
            .copied()
            .unwrap_or(0.0);
        let hit = if travel > 0.97 {
            (force / FULL_FORCE_N).clamp(0.2, 1.0)
        } else {
            0.0
        };
        let head = Color32::from_rgb(
            (200.0 + 55.0 * hit) as u8,
            (190.0 - 120.0 * hit) as u8,
            (170.0 - 140.0 * hit) as u8,
        );
        painter.circle_filled(Pos2::new(x, head_y), radius, head);

        if mechanics.key_down.get(index).copied().unwrap_or(false) {
            painter.line_segment(
                [
                    pos2(left, rect.bottom() - 1.0),
                    pos2(right, rect.bottom() - 1.0),
                ],
                Stroke::new(2.0, Color32::from_rgb(230, 160, 70)),
            );
        }
    }
}

/// The pedals' depths, each a name and a bar, along the top band.
fn pedals(ui: &Ui, band: Rect, mechanics: &MechanicsView) {
    let painter = ui.painter_at(band);
    let pedals = [
        ("una corda", mechanics.una_corda),
        ("sostenuto", if mechanics.sostenuto { 1.0 } else { 0.0 }),
        ("sustain", mechanics.sustain),
    ];
    let mut x = band.left() + 8.0;
    for (name, depth) in pedals {
        let text = painter.text(
            pos2(x, band.center().y),
            egui::Align2::LEFT_CENTER,
            name,
            egui::FontId::proportional(11.0),
            Color32::from_gray(170),
        );
        let bar = Rect::from_min_size(
            pos2(text.right() + 6.0, band.center().y - 3.0),
            Vec2::new(60.0, 6.0),
        );
        painter.rect_filled(bar, 2.0, Color32::from_gray(50));
        let filled = Rect::from_min_size(bar.min, Vec2::new(60.0 * depth.clamp(0.0, 1.0), 6.0));
        painter.rect_filled(filled, 2.0, Color32::from_rgb(230, 160, 70));
        x = bar.right() + 18.0;
    }
}

#[cfg(test)]
mod tests {
    use super::glow;

    #[test]
    fn glow_is_logarithmic_in_energy() {
        assert_eq!(glow(0.0), 0.0);
        assert_eq!(glow(f32::NAN), 0.0);
        assert!((glow(0.05) - 1.0).abs() < 1e-6);
        assert!((glow(0.05e-5) - 0.0).abs() < 1e-6);
        // Each decade is a fifth of the range.
        assert!((glow(0.005) - 0.8).abs() < 1e-5);
    }
}
