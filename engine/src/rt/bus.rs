//! The stereo bus the voices are mixed into: a voice's place between the
//! speakers, its samples added to the bus, the bus written to the output.

use std::f64::consts::FRAC_PI_4;

use crate::instrument::OutputSpec;

/// The left and right gains of a voice at `position` along the keyboard, 0
/// (lowest key) to 1 (highest): bass to the left, treble to the right, as
/// the player hears it, panned at equal power over the output's stereo
/// width, times its gain.
pub fn stereo_gains(output: &OutputSpec, position: f64) -> [f64; 2] {
    let angle = FRAC_PI_4 * (1.0 + output.stereo_width * (2.0 * position - 1.0));
    [
        output.gain_per_newton * angle.cos(),
        output.gain_per_newton * angle.sin(),
    ]
}

/// Adds `gains` times `tick(frame index)` to each frame of `out`: a voice
/// rendered on its own into a stereo bus.
#[inline]
pub fn mix(out: &mut [[f64; 2]], [left, right]: [f64; 2], mut tick: impl FnMut(usize) -> f64) {
    for (i, frame) in out.iter_mut().enumerate() {
        let y = tick(i);
        frame[0] += left * y;
        frame[1] += right * y;
    }
}

/// Writes a stereo bus to the output channels `left` and `right` (as many
/// frames as the shortest of the three).
#[inline]
pub fn write_bus(bus: &[[f64; 2]], left: &mut [f32], right: &mut [f32]) {
    for ((l, r), &[bus_left, bus_right]) in left.iter_mut().zip(right.iter_mut()).zip(bus) {
        *l = bus_left as f32;
        *r = bus_right as f32;
    }
}
