//! Values given at anchor keys and interpolated across the keyboard.
//!
//! Every field of an anchor is optional. At a key, a field is *explicit* if an
//! anchor at that key gives it, and otherwise *inherited*: interpolated
//! geometrically between the nearest anchors on either side that give it, and
//! beyond the outermost of them, equal to its value.

/// A set of values given at one key.
pub trait Anchored {
    /// The MIDI key the values belong to.
    fn key(&self) -> u8;
}

/// Geometric interpolation from `x` (at `t` = 0) to `y` (at 1), linear where
/// either is not positive.
fn interpolate(x: f64, y: f64, t: f64) -> f64 {
    if x > 0.0 && y > 0.0 {
        x * (y / x).powf(t)
    } else {
        x + (y - x) * t
    }
}

/// The value of `field` at `key`, from the anchors (in ascending key order)
/// that give it: interpolated geometrically between the nearest of them on
/// either side, their value outside them. `None` if no anchor gives it.
///
/// At the key of an anchor that follows another, the value is where the
/// interpolation from the one before ends (`x·(y/x)`), which may differ from
/// the anchor's own value in the last bit: the instruments have always been
/// built so, and keep sounding bit for bit as they did.
pub fn value_at<A: Anchored>(
    anchors: &[A],
    key: u8,
    field: impl Fn(&A) -> Option<f64>,
) -> Option<f64> {
    let mut below: Option<(u8, f64)> = None;
    for anchor in anchors {
        let Some(value) = field(anchor) else {
            continue;
        };
        if anchor.key() >= key {
            return Some(match below {
                None => value,
                Some((from, start)) => {
                    let fraction = f64::from(key - from) / f64::from(anchor.key() - from);
                    interpolate(start, value, fraction)
                }
            });
        }
        below = Some((anchor.key(), value));
    }
    below.map(|(_, value)| value)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct At(u8, Option<f64>);

    impl Anchored for At {
        fn key(&self) -> u8 {
            self.0
        }
    }

    #[test]
    fn fields_interpolate_between_the_anchors_that_give_them() {
        let anchors = [At(10, Some(1.0)), At(20, None), At(30, Some(4.0))];
        let at = |key| value_at(&anchors, key, |a| a.1);
        assert_eq!(at(0), Some(1.0));
        assert_eq!(at(10), Some(1.0));
        // Halfway from 10 to 30 (at the anchor that does not give it): the
        // geometric mean.
        assert_eq!(at(20), Some(2.0));
        assert_eq!(at(40), Some(4.0));
        // Linear where a value is not positive.
        let signed = [At(0, Some(-1.0)), At(4, Some(1.0))];
        assert_eq!(value_at(&signed, 2, |a| a.1), Some(0.0));
        assert_eq!(value_at(&anchors[1..2], 20, |a| a.1), None);
    }
}
