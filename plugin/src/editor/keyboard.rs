//! The on-screen keyboard: plays the instrument with the mouse (the nearer the
//! front of the key, the harder the blow) and shows which keys are down.

use egui::{Color32, CornerRadius, Pos2, Rect, Sense, Stroke, StrokeKind, Ui, Vec2};
use orchard_engine::rt::SynthEvent;

/// The keys an instrument has, lowest and highest MIDI key (from its
/// preset's keyboard): what the keyboard and the mechanism above it draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keys {
    /// Lowest MIDI key.
    pub lowest: u8,
    /// Highest MIDI key.
    pub highest: u8,
}

impl Keys {
    /// The keys of `keyboard`.
    pub fn of(keyboard: &orchard_engine::instrument::Keyboard) -> Self {
        Self {
            lowest: keyboard.lowest_key,
            highest: keyboard.highest_key,
        }
    }

    /// Every key, lowest first.
    pub fn iter(self) -> std::ops::RangeInclusive<u8> {
        self.lowest..=self.highest
    }
}
/// Velocity at the back edge of a key (MIDI 16 of 127); the front edge gives 1.
const SOFTEST_VELOCITY: f32 = 16.0 / 127.0;

/// Whether `key` is a black key.
pub fn is_black(key: u8) -> bool {
    matches!(key % 12, 1 | 3 | 6 | 8 | 10)
}

/// Where the keys lie in a strip `rect` wide: white keys side by side, black
/// keys narrower, between them. Shared by the keyboard and the mechanism view
/// above it, so each key's hammer is drawn over its key.
#[derive(Debug, Clone, Copy)]
pub struct KeyGeometry {
    rect: Rect,
    keys: Keys,
    white_width: f32,
}

impl KeyGeometry {
    /// `keys` laid out across `rect`.
    pub fn new(rect: Rect, keys: Keys) -> Self {
        let whites = keys.iter().filter(|&k| !is_black(k)).count().max(1);
        Self {
            rect,
            keys,
            white_width: rect.width() / whites as f32,
        }
    }

    /// The horizontal span of `key`: `(left, right)`, in points.
    pub fn span(&self, key: u8) -> (f32, f32) {
        let whites_before = (self.keys.lowest..key).filter(|&k| !is_black(k)).count() as f32;
        let left = self.rect.left() + whites_before * self.white_width;
        if is_black(key) {
            let half = 0.3 * self.white_width;
            (left - half, left + half)
        } else {
            (left, left + self.white_width)
        }
    }

    /// The key's full-height rectangle in the strip (black keys reach 62 % down).
    pub fn key_rect(&self, key: u8) -> Rect {
        let (left, right) = self.span(key);
        let bottom = if is_black(key) {
            self.rect.top() + 0.62 * self.rect.height()
        } else {
            self.rect.bottom()
        };
        Rect::from_min_max(Pos2::new(left, self.rect.top()), Pos2::new(right, bottom))
    }

    /// The key under `pos`: black keys lie on top of white ones.
    pub fn key_at(&self, pos: Pos2) -> Option<u8> {
        if !self.rect.contains(pos) {
            return None;
        }
        let keys = self.keys.iter();
        keys.clone()
            .filter(|&k| is_black(k))
            .chain(keys.filter(|&k| !is_black(k)))
            .find(|&k| self.key_rect(k).contains(pos))
    }

    /// The velocity (0 to 1) of a press at `pos` on `key`: soft at the back,
    /// hard at the front edge.
    pub fn velocity_at(&self, key: u8, pos: Pos2) -> f32 {
        let rect = self.key_rect(key);
        let depth = ((pos.y - rect.top()) / rect.height()).clamp(0.0, 1.0);
        SOFTEST_VELOCITY + (1.0 - SOFTEST_VELOCITY) * depth
    }
}

/// The key the mouse holds down.
#[derive(Debug, Default)]
pub struct Keyboard {
    held: Option<u8>,
}

impl Keyboard {
    /// Draws `keys` into `height` points of `ui`; `down` says which keys the
    /// instrument has down (by MIDI key). Returns the notes to play.
    pub fn show(
        &mut self,
        ui: &mut Ui,
        height: f32,
        keys: Keys,
        down: &dyn Fn(u8) -> bool,
    ) -> Vec<SynthEvent> {
        let (rect, response) = ui.allocate_exact_size(
            Vec2::new(ui.available_width(), height),
            Sense::click_and_drag(),
        );
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Group, true, "On-screen keyboard")
        });
        let geometry = KeyGeometry::new(rect, keys);
        let painter = ui.painter_at(rect);
        let pressed = |key: u8| self.held == Some(key) || down(key);
        for black in [false, true] {
            for key in keys.iter().filter(|&k| is_black(k) == black) {
                let fill = match (black, pressed(key)) {
                    (_, true) => Color32::from_rgb(230, 160, 70),
                    (false, false) => Color32::from_gray(245),
                    (true, false) => Color32::from_gray(25),
                };
                let r = geometry.key_rect(key);
                painter.rect(
                    r,
                    CornerRadius::same(2),
                    fill,
                    Stroke::new(1.0, Color32::from_gray(60)),
                    StrokeKind::Inside,
                );
            }
        }

        let mut events = Vec::new();
        let pointer = response.interact_pointer_pos();
        let target = pointer
            .filter(|_| response.is_pointer_button_down_on())
            .and_then(|pos| geometry.key_at(pos).map(|key| (key, pos)));
        match (self.held, target) {
            (Some(held), Some((key, _))) if held == key => {}
            (held, target) => {
                if let Some(key) = held {
                    events.push(SynthEvent::NoteOff { key, velocity: 0.5 });
                }
                self.held = target.map(|(key, pos)| {
                    events.push(SynthEvent::NoteOn {
                        key,
                        velocity: geometry.velocity_at(key, pos),
                    });
                    key
                });
            }
        }
        events
    }

    /// Lets go of the key the mouse held (the editor is closing).
    pub fn release(&mut self) -> Option<SynthEvent> {
        self.held
            .take()
            .map(|key| SynthEvent::NoteOff { key, velocity: 0.5 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grand's 88 keys, A0 to C8.
    const GRAND: Keys = Keys {
        lowest: 21,
        highest: 108,
    };

    fn geometry() -> KeyGeometry {
        KeyGeometry::new(
            Rect::from_min_size(Pos2::ZERO, Vec2::new(520.0, 100.0)),
            GRAND,
        )
    }

    #[test]
    fn every_key_is_found_where_it_is_drawn() {
        let g = geometry();
        for key in GRAND.iter() {
            let r = g.key_rect(key);
            // Low on a white key, below the black keys' ends.
            let probe = Pos2::new(r.center().x, r.top() + 0.9 * r.height());
            assert_eq!(g.key_at(probe), Some(key), "key {key}");
        }
        assert_eq!(g.key_at(Pos2::new(-1.0, 50.0)), None);
    }

    #[test]
    fn the_front_of_a_key_plays_harder() {
        let g = geometry();
        let r = g.key_rect(60);
        let back = g.velocity_at(60, Pos2::new(r.center().x, r.top()));
        let front = g.velocity_at(60, Pos2::new(r.center().x, r.bottom()));
        assert!((back - SOFTEST_VELOCITY).abs() < 1e-6);
        assert!((front - 1.0).abs() < 1e-6);
        let middle = g.velocity_at(60, r.center());
        assert!(back < middle && middle < front);
    }
}
