//! The mechanism as it moves: above each key its string (glowing with the
//! energy on it), its damper resting on the string or lifted, and its hammer
//! rising towards the string; a contact lights up with its force. Drawn from
//! the worker's and the audio thread's latest snapshots at the GUI's frame
//! rate.

use egui::{Color32, Pos2, Rect, Sense, Stroke, Ui, Vec2, pos2};
use orchard_engine::rt::{MechanicsView, MeterView};

use super::keyboard::{HIGHEST_KEY, KeyGeometry, LOWEST_KEY};

/// Energy on a key's strings drawn at full brightness, J (a loud bass note).
const FULL_GLOW_J: f32 = 0.05;
/// Decades of energy below full glow that still show.
const GLOW_DECADES: f32 = 5.0;
/// Contact force drawn at full brightness, N.
const FULL_FORCE_N: f32 = 60.0;

/// 0 to 1: how bright to draw `energy` (logarithmic, as loudness is heard).
fn glow(energy_j: f32) -> f32 {
    if energy_j <= 0.0 || !energy_j.is_finite() {
        return 0.0;
    }
    (1.0 + (energy_j / FULL_GLOW_J).log10() / GLOW_DECADES).clamp(0.0, 1.0)
}

/// Draws the mechanism into `height` points of `ui`, keys laid out as the
/// keyboard below it lays them out.
pub fn show(ui: &mut Ui, height: f32, mechanics: &MechanicsView, meters: &MeterView) {
    let (rect, _) = ui.allocate_exact_size(Vec2::new(ui.available_width(), height), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 4.0, Color32::from_gray(22));
    let geometry = KeyGeometry::new(rect);
    let string_y = rect.top() + 0.18 * rect.height();
    let rest_y = rect.bottom() - 0.08 * rect.height();
    for key in LOWEST_KEY..=HIGHEST_KEY {
        let index = usize::from(key - LOWEST_KEY);
        let (left, right) = geometry.span(key);
        let x = 0.5 * (left + right);
        let width = (right - left).max(2.0);

        // The string, brighter the more energy it carries.
        let energy = meters.string_energy_j[usize::from(key)];
        let light = glow(energy);
        let string_colour = Color32::from_rgb(
            (90.0 + 165.0 * light) as u8,
            (90.0 + 130.0 * light) as u8,
            (100.0 + 40.0 * light) as u8,
        );
        painter.line_segment(
            [pos2(x, rect.top() + 2.0), pos2(x, string_y + 6.0)],
            Stroke::new(1.0 + 2.0 * light, string_colour),
        );

        // The damper: on the string when 1, lifted clear when 0.
        let damper = mechanics
            .damper
            .get(index)
            .copied()
            .unwrap_or(1.0)
            .clamp(0.0, 1.0);
        let damper_top = rect.top() + 2.0 + (1.0 - damper) * 0.6 * (string_y - rect.top());
        let felt = Rect::from_min_size(
            pos2(x - 0.35 * width, damper_top - 6.0),
            Vec2::new(0.7 * width, 6.0),
        );
        painter.rect_filled(felt, 1.0, Color32::from_rgb(120, 150, 210));

        // The hammer, from rest (travel 0) up to the string (travel 1).
        let travel = mechanics
            .hammer_travel
            .get(index)
            .copied()
            .unwrap_or(0.0)
            .clamp(0.0, 1.0);
        let head_y = rest_y + (string_y + 8.0 - rest_y) * travel;
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
        painter.circle_filled(Pos2::new(x, head_y), (0.45 * width).clamp(1.5, 5.0), head);

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
    pedals(ui, rect, mechanics);
}

/// The pedals' depths, in the mechanism view's corner.
fn pedals(ui: &Ui, rect: Rect, mechanics: &MechanicsView) {
    let painter = ui.painter_at(rect);
    let pedals = [
        ("una corda", mechanics.una_corda),
        ("sostenuto", if mechanics.sostenuto { 1.0 } else { 0.0 }),
        ("sustain", mechanics.sustain),
    ];
    for (i, (name, depth)) in pedals.into_iter().enumerate() {
        let top_left = pos2(rect.right() - 250.0 + 82.0 * i as f32, rect.bottom() - 18.0);
        let bar = Rect::from_min_size(top_left, Vec2::new(70.0, 5.0));
        painter.rect_filled(bar, 2.0, Color32::from_gray(50));
        let filled = Rect::from_min_size(top_left, Vec2::new(70.0 * depth.clamp(0.0, 1.0), 5.0));
        painter.rect_filled(filled, 2.0, Color32::from_rgb(230, 160, 70));
        painter.text(
            top_left + Vec2::new(0.0, 6.0),
            egui::Align2::LEFT_TOP,
            name,
            egui::FontId::proportional(10.0),
            Color32::from_gray(160),
        );
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
