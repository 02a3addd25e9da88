//! The editor's fonts: egui's own, with DejaVu Sans (embedded, the font the
//! CLI's plots use) behind them for what egui's lack: the sharps of note names
//! (C♯4), and the symbols of the property descriptions (√, β, ẋ, −).

use std::sync::Arc;

use egui::{FontData, FontDefinitions, FontFamily};

/// The fallback font's name in egui's font definitions.
const FALLBACK: &str = "DejaVu Sans";

/// egui's default fonts with DejaVu Sans as the last fallback of every family.
pub fn definitions() -> FontDefinitions {
    let mut fonts = FontDefinitions::default();
    fonts.font_data.insert(
        FALLBACK.to_owned(),
        Arc::new(FontData::from_static(dejavu::sans::regular())),
    );
    for family in [FontFamily::Proportional, FontFamily::Monospace] {
        fonts
            .families
            .entry(family)
            .or_default()
            .push(FALLBACK.to_owned());
    }
    fonts
}
