//! Waves at a port seen through another port resistance: what a tree keeps of
//! its waves when its resistances change (an edit, a new sample rate).

/// The waves `(a, b)` of a port of resistance `from_ohms` as waves of a port of
/// resistance `to_ohms` with the same voltage `(a + b)/2` and current
/// `(a − b)/(2R)`; exactly `(a, b)` when the resistances are equal.
pub(crate) fn rematched((a, b): (f64, f64), from_ohms: f64, to_ohms: f64) -> (f64, f64) {
    if from_ohms == to_ohms {
        return (a, b);
    }
    let voltage = 0.5 * (a + b);
    let current_times_r = 0.5 * (a - b) * (to_ohms / from_ohms);
    (voltage + current_times_r, voltage - current_times_r)
}
