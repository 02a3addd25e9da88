//! How the host parameters show their values as text and read text back:
//! rounded decimals, and times of day.

use std::sync::Arc;

/// A parameter's value-to-text function, as nice-plug takes it.
pub(super) type ToText = Arc<dyn Fn(f32) -> String + Send + Sync>;

/// Shows a value with `digits` decimals (and no minus sign on a zero), so
/// that text read back gives the same text again: value → text → value →
/// text is stable, as hosts and validators expect.
pub(super) fn rounded(digits: usize) -> ToText {
    Arc::new(move |value| {
        let text = format!("{value:.digits$}");
        match text.strip_prefix('-') {
            Some(magnitude) if magnitude.chars().all(|c| c == '0' || c == '.') => {
                magnitude.to_string()
            }
            _ => text,
        }
    })
}

/// `hours` after midnight as `HH:MM:SS`, to the nearest second.
pub(super) fn time_of_day(hours: f32) -> String {
    let seconds = (f64::from(hours).clamp(0.0, 24.0) * 3600.0).round() as u32;
    format!(
        "{:02}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// Hours after midnight of `HH:MM` or `HH:MM:SS` (00:00 to 24:00).
pub(super) fn parse_time_of_day(text: &str) -> Option<f32> {
    orchard_engine::input::time_of_day_h(text).map(|hours| hours as f32)
}
