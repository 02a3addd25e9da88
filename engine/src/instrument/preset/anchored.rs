//! Values given at anchor keys and interpolated across the keyboard.

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

/// Where a key lies among anchors: the anchors on either side and the fraction of
/// the way from the first to the second.
#[derive(Debug, Clone, Copy)]
pub struct Between<'a, A> {
    below: &'a A,
    above: &'a A,
    fraction: f64,
}

impl<'a, A: Anchored> Between<'a, A> {
    /// The anchors around `key` (ascending, at least one); outside them, the
    /// nearest anchor on both sides. `None` only if `anchors` is empty.
    pub fn find(anchors: &'a [A], key: u8) -> Option<Self> {
        let last = anchors.last()?;
        let (below, above, fraction) = match anchors.iter().position(|a| a.key() >= key) {
            None => (last, last, 0.0),
            Some(0) => (&anchors[0], &anchors[0], 0.0),
            Some(i) => {
                let (a, b) = (&anchors[i - 1], &anchors[i]);
                (
                    a,
                    b,
                    f64::from(key - a.key()) / f64::from(b.key() - a.key()),
                )
            }
        };
        Some(Self {
            below,
            above,
            fraction,
        })
    }

    /// The value of `field` at the key: geometric interpolation between the two
    /// anchors' values.
    pub fn value(&self, field: impl Fn(&A) -> f64) -> f64 {
        interpolate(field(self.below), field(self.above), self.fraction)
    }
}
