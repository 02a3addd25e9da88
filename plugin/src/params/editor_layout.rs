//! The editor window's size and zoom, saved with the plugin's state so the
//! window opens as the musician left it.

use serde::{Deserialize, Serialize};

/// Smallest window, logical pixels: every panel still fits.
pub const MIN_SIZE: [f32; 2] = [760.0, 520.0];
/// Largest window, logical pixels.
pub const MAX_SIZE: [f32; 2] = [3840.0, 2400.0];
/// Zoom factors the editor accepts.
pub const ZOOM_RANGE: (f32, f32) = (0.5, 3.0);

/// Size and zoom of the editor window.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EditorLayout {
    /// Width, logical pixels.
    pub width: f32,
    /// Height, logical pixels.
    pub height: f32,
    /// egui's zoom factor (1 = 100 %).
    pub zoom: f32,
}

impl Default for EditorLayout {
    fn default() -> Self {
        Self {
            width: 1180.0,
            height: 760.0,
            zoom: 1.0,
        }
    }
}

impl EditorLayout {
    /// The layout with every value made usable: sizes within
    /// `MIN_SIZE` to `MAX_SIZE`, zoom within `ZOOM_RANGE`; a non-finite
    /// value (from a damaged state) takes the default's.
    pub fn clamped(self) -> Self {
        let default = Self::default();
        let fit = |x: f32, lo: f32, hi: f32, fallback: f32| {
            if x.is_finite() {
                x.clamp(lo, hi)
            } else {
                fallback
            }
        };
        Self {
            width: fit(self.width, MIN_SIZE[0], MAX_SIZE[0], default.width),
            height: fit(self.height, MIN_SIZE[1], MAX_SIZE[1], default.height),
            zoom: fit(self.zoom, ZOOM_RANGE.0, ZOOM_RANGE.1, default.zoom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damaged_layouts_open_usable_windows() {
        let layout = EditorLayout {
            width: f32::NAN,
            height: 1e9,
            zoom: 0.0,
        }
        .clamped();
        assert_eq!(layout.width, EditorLayout::default().width);
        assert_eq!(layout.height, MAX_SIZE[1]);
        assert_eq!(layout.zoom, ZOOM_RANGE.0);
        let fine = EditorLayout::default();
        assert_eq!(fine.clamped(), fine);
    }
}
