//! Where the walls send the sound: the image sources of a shoebox room
//! (Allen and Berkley's image method) of first and second order, seen from
//! the listener's two ears.
//!
//! The room spans `0..width` (x, left to right as the listener faces the
//! instrument), `0..depth` (y, from the instrument's wall) and `0..height`
//! (z). Mirroring the source in a wall at 0 puts its image at `−s`, in the
//! wall at `L` at `2L − s`; mirroring those again gives `s ± 2L`. An image
//! behind `r` walls reaches an ear over the straight line from it, `r`
//! reflections and `d` metres: `d / c` seconds late, its amplitude
//! `(1 − absorption)^(r/2) / d`.

use super::RoomSpec;
use crate::air::SPEED_OF_SOUND_M_S;

/// Image sources of first and second order in a shoebox: 6 + 18.
pub const REFLECTIONS: usize = 24;

/// Distance between the listener's ears, m.
pub const EAR_SPACING_M: f64 = 0.18;

/// Where the instrument stands: fractions of the width and the depth, and
/// its height above the floor, m (a grand's soundboard).
const SOURCE: [f64; 3] = [0.42, 0.22, 0.75];

/// Where the listener sits: fractions of the width and the depth, and the
/// ears' height above the floor, m.
const LISTENER: [f64; 3] = [0.5, 0.58, 1.2];

/// A point in the room, m.
pub type Point = [f64; 3];

/// One early reflection at one ear.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reflection {
    /// Its delay after the direct sound at the same ear, s.
    pub delay_s: f64,
    /// Its amplitude relative to the direct sound at the same ear.
    pub gain: f64,
    /// Walls it met.
    pub bounces: u32,
}

/// The room's walls and who stands where in it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    /// Width, depth and height, m.
    pub size_m: [f64; 3],
    /// The instrument.
    pub source: Point,
    /// The left and right ears.
    pub ears: [Point; 2],
}

impl Geometry {
    /// The room of `spec`, with the instrument and the listener where they
    /// stand in every room (fractions of its floor).
    pub fn of(spec: &RoomSpec) -> Self {
        let size_m = [spec.width_m, spec.depth_m, spec.height_m];
        let place = |at: [f64; 3]| [at[0] * size_m[0], at[1] * size_m[1], at[2]];
        let listener = place(LISTENER);
        let ear = |side: f64| {
            [
                listener[0] + side * EAR_SPACING_M / 2.0,
                listener[1],
                listener[2],
            ]
        };
        Self {
            size_m,
            source: place(SOURCE),
            ears: [ear(-1.0), ear(1.0)],
        }
    }

    /// The distance from the instrument to `ear` (0 left, 1 right), m.
    pub fn direct_m(&self, ear: usize) -> f64 {
        distance(self.source, self.ears[ear])
    }

    /// The distance from the instrument to the middle of the listener's
    /// head, m.
    pub fn listener_distance_m(&self) -> f64 {
        let [l, r] = self.ears;
        distance(self.source, [(l[0] + r[0]) / 2.0, l[1], l[2]])
    }

    /// The room's volume, m³.
    pub fn volume_m3(&self) -> f64 {
        self.size_m.iter().product()
    }

    /// The mean free path between two reflections, `4V/S`, m.
    pub fn mean_free_path_m(&self) -> f64 {
        let [w, d, h] = self.size_m;
        4.0 * self.volume_m3() / (2.0 * (w * d + w * h + d * h))
    }

    /// Every image source of first and second order and how many walls it
    /// lies behind.
    pub fn images(&self) -> [(Point, u32); REFLECTIONS] {
        let axis = |a: usize| {
            let (s, l) = (self.source[a], self.size_m[a]);
            [
                (s, 0),
                (-s, 1),
                (2.0 * l - s, 1),
                (s + 2.0 * l, 2),
                (s - 2.0 * l, 2),
            ]
        };
        let (xs, ys, zs) = (axis(0), axis(1), axis(2));
        let mut images = [([0.0; 3], 0); REFLECTIONS];
        let mut n = 0;
        for &(x, bx) in &xs {
            for &(y, by) in &ys {
                for &(z, bz) in &zs {
                    let bounces = bx + by + bz;
                    if (1..=2).contains(&bounces) {
                        images[n] = ([x, y, z], bounces);
                        n += 1;
                    }
                }
            }
        }
        debug_assert_eq!(n, REFLECTIONS);
        images
    }

    /// The early reflections at `ear` (0 left, 1 right) off walls that
    /// absorb `absorption` of the energy at each bounce.
    pub fn reflections(&self, ear: usize, absorption: f64) -> [Reflection; REFLECTIONS] {
        let direct = self.direct_m(ear);
        let per_bounce = (1.0 - absorption).max(0.0).sqrt();
        self.images().map(|(image, bounces)| {
            let d = distance(image, self.ears[ear]);
            Reflection {
                delay_s: (d - direct) / SPEED_OF_SOUND_M_S,
                gain: per_bounce.powi(bounces as i32) * direct / d,
                bounces,
            }
        })
    }
}

/// The distance between two points, m.
fn distance(a: Point, b: Point) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt()
}
