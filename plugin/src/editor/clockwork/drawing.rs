//! Draws a mechanism's parts where its state puts them: blocks as rotated
//! rectangles, discs as circles with a spoke that turns with the part, each
//! part in its own colour, pivots marked, higher layers over lower ones. The
//! drawing's y axis points up; the view is scaled to hold every place a part
//! can reach, so it neither jumps nor clips as the parts turn.

use egui::{Color32, Painter, Pos2, Rect, Stroke, pos2};
use orchard_engine::mech::mechanism::geometry::Section;
use orchard_engine::mech::mechanism::{Mechanism, PlacedShape};

/// Colours of moving parts, by part index.
const PALETTE: [Color32; 6] = [
    Color32::from_rgb(222, 170, 70),
    Color32::from_rgb(110, 170, 230),
    Color32::from_rgb(210, 110, 120),
    Color32::from_rgb(130, 200, 130),
    Color32::from_rgb(190, 140, 220),
    Color32::from_rgb(90, 200, 200),
];
/// Colour of frame parts.
const FRAME: Color32 = Color32::from_gray(120);
/// Margin kept free around the mechanism, points.
const MARGIN: f32 = 10.0;
/// Radius of a pivot's mark, points.
const PIVOT_RADIUS: f32 = 3.5;

/// The colour of part `index`; frame parts (`moving` false) are grey.
pub fn part_colour(index: usize, moving: bool) -> Color32 {
    if moving {
        PALETTE[index % PALETTE.len()]
    } else {
        FRAME
    }
}

/// A box in the drawing (u).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Extent {
    /// Smallest x and y (u).
    pub min: [f64; 2],
    /// Largest x and y (u).
    pub max: [f64; 2],
}

impl Extent {
    fn around(centre: [f64; 2], radius: f64) -> Self {
        Self {
            min: [centre[0] - radius, centre[1] - radius],
            max: [centre[0] + radius, centre[1] + radius],
        }
    }

    fn union(self, other: Self) -> Self {
        Self {
            min: [self.min[0].min(other.min[0]), self.min[1].min(other.min[1])],
            max: [self.max[0].max(other.max[0]), self.max[1].max(other.max[1])],
        }
    }
}

/// Everywhere `m`'s shapes can be: a turning part's shape sweeps a circle
/// about its pivot, any other stays within its bounding circle where it is
/// now (a sliding part, of which no built-in mechanism has one, is framed
/// where it starts). `None` for a mechanism without shapes.
pub fn reach(m: &mut Mechanism) -> Option<Extent> {
    let shapes: Vec<PlacedShape> = m.shapes().collect();
    shapes
        .iter()
        .map(|s| {
            let centre = s.placement.offset;
            let radius = s.section.bounding_radius();
            match m.pivot(s.part) {
                Some(p) => Extent::around([p.x, p.y], (centre - p).length() + radius),
                None => Extent::around([centre.x, centre.y], radius),
            }
        })
        .reduce(Extent::union)
}

/// The map from the drawing (u, y up) to the screen (points, y down) that
/// fits an extent in a rectangle, centred, at one scale for x and y.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    /// Points per u.
    scale: f32,
    /// The drawing's point at the rectangle's centre (u).
    centre: [f64; 2],
    /// The rectangle's centre (points).
    origin: Pos2,
}

impl Fit {
    /// Fits `extent` in `rect` less a margin.
    pub fn new(extent: Extent, rect: Rect) -> Self {
        let width = (extent.max[0] - extent.min[0]).max(1e-9) as f32;
        let height = (extent.max[1] - extent.min[1]).max(1e-9) as f32;
        let room = (rect.size() - egui::vec2(2.0 * MARGIN, 2.0 * MARGIN)).max(egui::Vec2::ZERO);
        Self {
            scale: (room.x / width).min(room.y / height),
            centre: [
                0.5 * (extent.min[0] + extent.max[0]),
                0.5 * (extent.min[1] + extent.max[1]),
            ],
            origin: rect.center(),
        }
    }

    /// Where the drawing's point `(x, y)` (u) is on the screen.
    pub fn screen(&self, x: f64, y: f64) -> Pos2 {
        pos2(
            self.origin.x + self.scale * (x - self.centre[0]) as f32,
            self.origin.y - self.scale * (y - self.centre[1]) as f32,
        )
    }

    /// A length in the drawing (u) on the screen (points).
    pub fn length(&self, u: f64) -> f32 {
        self.scale * u as f32
    }
}

/// Paints every shape of `m` at its present state with `fit`, the parts
/// whose indices are in `moving` in their colours, the frame in grey; then
/// the pivots of the parts that turn.
pub fn paint(painter: &Painter, fit: &Fit, m: &mut Mechanism, moving: &[usize]) {
    let mut shapes: Vec<PlacedShape> = m.shapes().collect();
    // Lower layers first; description order within a layer.
    shapes.sort_by(|a, b| a.z[1].total_cmp(&b.z[1]));
    // A state gone non-finite has no place to draw.
    let finite = |s: &&PlacedShape| s.placement.offset.is_finite() && s.placement.angle.is_finite();
    for s in shapes.iter().filter(finite) {
        let moves = moving.contains(&s.part);
        paint_shape(painter, fit, s, part_colour(s.part, moves), moves);
    }
    for part in 0..m.part_names().count() {
        if let Some(p) = m.pivot(part) {
            paint_pivot(painter, fit.screen(p.x, p.y), part_colour(part, true));
        }
    }
}

/// One shape: a filled outline in `colour`; a moving disc also gets a spoke
/// along its part's angle so its turning shows.
fn paint_shape(painter: &Painter, fit: &Fit, s: &PlacedShape, colour: Color32, moving: bool) {
    let outline = Stroke::new(1.0, colour.gamma_multiply(0.5));
    let fill = colour.gamma_multiply(0.8);
    match s.section {
        Section::Block(_) => {
            let corners = s.corners().into_iter().flatten();
            let corners = corners.map(|c| fit.screen(c.x, c.y)).collect();
            painter.add(egui::Shape::convex_polygon(corners, fill, outline));
        }
        Section::Disc(ball) => {
            let centre = fit.screen(s.placement.offset.x, s.placement.offset.y);
            let radius = fit.length(ball.radius);
            painter.circle(centre, radius, fill, outline);
            if moving && radius > 2.0 * PIVOT_RADIUS {
                let rim = s.point(ball.radius, 0.0);
                painter.line_segment(
                    [centre, fit.screen(rim.x, rim.y)],
                    Stroke::new(1.5, colour.gamma_multiply(0.4)),
                );
            }
        }
    }
}

/// A pivot: a dark ring with a dot of its part's colour.
fn paint_pivot(painter: &Painter, at: Pos2, colour: Color32) {
    painter.circle(
        at,
        PIVOT_RADIUS,
        Color32::from_gray(20),
        Stroke::new(1.0, Color32::WHITE),
    );
    painter.circle_filled(at, 1.5, colour);
}

#[cfg(test)]
mod tests {
    use super::super::live::LiveMechanism;
    use super::*;

    #[test]
    fn the_parts_stay_inside_the_drawing_as_they_move() {
        let rect = egui::Rect::from_min_size(egui::pos2(10.0, 20.0), egui::vec2(400.0, 300.0));
        for name in ["escapement", "ratchet"] {
            let mut live = LiveMechanism::load(name).unwrap();
            let extent = reach(live.mechanism_mut()).unwrap();
            let fit = Fit::new(extent, rect);
            // 15 s: the escape wheel drops teeth, the ratchet spins up.
            for _ in 0..300 {
                live.frame(0.05);
                for s in live.mechanism_mut().shapes() {
                    let c = s.placement.offset;
                    let r = fit.length(s.section.bounding_radius());
                    let at = fit.screen(c.x, c.y);
                    assert!(
                        rect.shrink(r - 1e-3).contains(at),
                        "{name}: {s:?} at {at:?} ± {r}"
                    );
                }
            }
            // Fitted to the width or the height, less the margins.
            let corners = [
                fit.screen(extent.min[0], extent.min[1]),
                fit.screen(extent.max[0], extent.max[1]),
            ];
            let size = (corners[1] - corners[0]).abs();
            let fills = (size.x - 380.0).abs() < 1e-3 || (size.y - 280.0).abs() < 1e-3;
            assert!(fills && size.x <= 380.001 && size.y <= 280.001, "{size:?}");
        }
    }
}
