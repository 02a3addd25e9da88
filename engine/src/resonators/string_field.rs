//! How a microphone near a piano string hears its standing wave: a string
//! of finite length whose parts move in opposite directions, not the
//! infinitely long cylinder moving as one that the line dipole's law
//! ([`radiation_gain`]) describes.
//!
//! Each element `dx` of a thin string moving across its axis with velocity
//! `v(x)` is a small dipole pointing along its motion. Its pressure at a
//! point is `∝ v(x)·∂G/∂h·dx`, with `G = e^(jkR)/(4πR)` the free field's
//! Green's function, `R` the distance from the element and `h` the height
//! of the point over the string along the motion:
//! `∂G/∂h = (h/R)·(jk − 1/R)·e^(jkR)/(4πR)`. Summed over an infinitely long
//! string moving uniformly this is the line dipole, `−(j/4)·k·H1(kρ)·h/ρ`
//! at distance `ρ` (the derivative of `∫G dx = (j/4)·H0(kρ)`); summed over
//! the standing wave of a string of length `L` it is what a microphone
//! hears of that string ([`standing_wave_share`], integrated numerically).
//!
//! Two things make the standing wave quieter than the line dipole's law:
//!
//! - A piano's microphones stand over one end of the strings (a close pair
//!   over the bridge, the pianist by the keyboard), where a string's
//!   velocity falls to zero at its termination: the fundamental comes out
//!   9 to 20 dB under the law at a close pair's 0.15 m, most in the bass,
//!   whose long strings move little within a metre of their ends.
//! - Above `kh` of about 1, where the wavelength in air becomes shorter
//!   than `2π` times the height over the string, a partial's segments (half
//!   its wavelength along the string, `L/n`) alternate in sign faster than
//!   the height resolves, and their sound cancels but for about one
//!   segment's worth: the share falls as `1/(kh)`, 6 dB an octave
//!   ([`segment_share`], from `kh = 2`, [`SEGMENT_CORNER_KH`]). A string's waves are slower than sound (its wave
//!   speed `2·L·f0` is 110 m/s at A0 and about 330 m/s from the middle up)
//!   so the segments never radiate as a long line does.
//!
//! Integrated for each fourth key of the grand at both microphones, the
//! partials 2 to 10 fall from the fundamental as [`segment_share`] does
//! within 0.3 dB on average at the close pair and 1.6 dB at the pianist's
//! seat (the corner `kh = 2` fitted so); single partials stray from it by
//! up to about 15 dB, where a microphone happens to sit at a null of their
//! pattern, which no smooth law follows.

use std::f64::consts::PI;

use crate::air::SPEED_OF_SOUND_M_S;

/// Steps of the integral along the string (even, for Simpson's rule): a
/// step at most a hundredth of a string's length, and at most 2 cm on the
/// grand's longest (2 m) string, a fraction of both the height of the
/// microphones (0.15 m and more) and a wavelength in air up to 4 kHz.
const STEPS: usize = 128;

/// The pressure of a string's standing wave, heard at `height_m` (m) over
/// and `lateral_m` (m) beside the end of the string nearest the listener,
/// over the pressure of an infinitely long string moving uniformly at the
/// same distance (the line dipole's law), at `frequency_hz` (Hz). The
/// string is `length_m` (m) long and its velocity along it is
/// `sin(wavenumber·x)`, `x` from that end (`wavenumber = n·π/L`, rad/m, for
/// partial `n`).
pub fn standing_wave_share(
    frequency_hz: f64,
    wavenumber: f64,
    length_m: f64,
    height_m: f64,
    lateral_m: f64,
) -> f64 {
    let k = 2.0 * PI * frequency_hz / SPEED_OF_SOUND_M_S;
    let across = height_m.hypot(lateral_m);
    if !(k > 0.0 && length_m > 0.0 && height_m > 0.0) {
        return 0.0;
    }
    let field = line_field(k, height_m, across, length_m, STEPS, |x| {
        (wavenumber * x).sin()
    });
    field / line_dipole(frequency_hz, across)
}

/// `|∫ v(x)·∂G/∂h dx|` over `x` from 0 to `length_m` (m) for a listener
/// `height_m` (m) over the line along the motion and `across_m` (m) from it
/// in all, at the wavenumber in air `k` (rad/m), in `steps` (even) steps of
/// Simpson's rule: the field of the elements (see the module's notes), in
/// units of the velocity `v` times 1/m.
fn line_field(
    k: f64,
    height_m: f64,
    across_m: f64,
    length_m: f64,
    steps: usize,
    velocity: impl Fn(f64) -> f64,
) -> f64 {
    let step = length_m / steps as f64;
    let (mut re, mut im) = (0.0, 0.0);
    for i in 0..=steps {
        let x = i as f64 * step;
        let weight = if i == 0 || i == steps {
            1.0
        } else if i % 2 == 1 {
            4.0
        } else {
            2.0
        };
        let r = x.hypot(across_m);
        let (sin, cos) = (k * r).sin_cos();
        let scale = weight * velocity(x) * height_m / (4.0 * PI * r * r);
        // (jk − 1/R)·e^(jkR), real and imaginary parts.
        re += scale * (-cos / r - k * sin);
        im += scale * (k * cos - sin / r);
    }
    re.hypot(im) * step / 3.0
}

/// The line dipole's field at `across_m` (m) at `frequency_hz` (Hz),
/// `(k/4)·|H1(kρ)|` in the units of [`line_field`], with the modulus that
/// [`radiation_gain`] takes.
fn line_dipole(frequency_hz: f64, across_m: f64) -> f64 {
    let k = 2.0 * PI * frequency_hz / SPEED_OF_SOUND_M_S;
    radiation_gain(frequency_hz, across_m) / (4.0 * k)
}

/// The strings' radiation to a listener at `distance_m`, as a function of
/// frequency: `(ω/c0)²·|H1(ωr/c0)|`, 1/m², an infinitely long string's (the
/// line dipole's, see [`super::string_radiation`]), with the modulus
/// approximated as `|H1(x)|² ≈ 4/(π²x²) + 2/(πx)` (its near- and far-field
/// limits; within 1.2 dB of the exact modulus, worst at `x ≈ 1`).
pub fn radiation_gain(frequency_hz: f64, distance_m: f64) -> f64 {
    let k = 2.0 * PI * frequency_hz / SPEED_OF_SOUND_M_S;
    let x = k * distance_m;
    k * k * (4.0 / (PI * PI * x * x) + 2.0 / (PI * x)).sqrt()
}

/// The law the strings' sound follows with frequency at `distance_m` (m)
/// over them: [`radiation_gain`] times the standing wave's
/// [`segment_share`], 1/m².
pub fn heard_law(frequency_hz: f64, distance_m: f64) -> f64 {
    radiation_gain(frequency_hz, distance_m) * segment_share(frequency_hz, distance_m)
}

/// Where the partials of a standing wave start to fall as one segment's
/// worth, in `kh` (fitted: see the module's notes).
pub const SEGMENT_CORNER_KH: f64 = 2.0;

/// How the partials of a string's standing wave fall under the line
/// dipole's law heard from `height_m` (m) over the string: by
/// `1/√(1 + (kh/2)²)` at `frequency_hz` (Hz), `k` its wavenumber in air,
/// about one segment's worth of the string above `kh = 2` (see the
/// module's notes).
pub fn segment_share(frequency_hz: f64, height_m: f64) -> f64 {
    let omega = 2.0 * PI * frequency_hz;
    1.0 / (1.0 + (omega / segment_corner(height_m)).powi(2)).sqrt()
}

/// The angular frequency at which [`segment_share`] starts to fall for a
/// listener `height_m` (m) over the strings, `kh = 2`, rad/s.
pub fn segment_corner(height_m: f64) -> f64 {
    SEGMENT_CORNER_KH * SPEED_OF_SOUND_M_S / height_m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Simpson's rule for `f` over `[a, b]` in `n` (even) steps.
    fn simpson(f: impl Fn(f64) -> f64, a: f64, b: f64, n: usize) -> f64 {
        let h = (b - a) / n as f64;
        let inner: f64 = (1..n)
            .map(|i| f(a + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 })
            .sum();
        (f(a) + inner + f(b)) * h / 3.0
    }

    /// `|H1(x)|` from Bessel's integrals for `J1` and `Y1`.
    fn hankel_modulus(x: f64) -> f64 {
        let j1 = simpson(|t| (t - x * t.sin()).cos(), 0.0, PI, 4000) / PI;
        let end = (40.0 / x).asinh();
        let y1 = simpson(|t| (x * t.sin() - t).sin(), 0.0, PI, 4000) / PI
            - simpson(|t| 2.0 * t.sinh() * (-x * t.sinh()).exp(), 0.0, end, 20_000) / PI;
        j1.hypot(y1)
    }

    /// The modulus approximation in [`radiation_gain`] is within 1.2 dB of
    /// the Hankel function's from the near field (`kr` = 0.005) to the far
    /// (`kr` = 200), and within 0.1 dB where either limit holds alone.
    #[test]
    fn the_modulus_approximation_holds_near_and_far() {
        // Tabulated: J1(1) = 0.440051, Y1(1) = −0.781213.
        assert!((hankel_modulus(1.0) - 0.440051f64.hypot(0.781213)).abs() < 1e-5);
        let approx = |x: f64| (4.0 / (PI * PI * x * x) + 2.0 / (PI * x)).sqrt();
        for i in 0..=80 {
            let x = 0.005 * 40_000f64.powf(f64::from(i) / 80.0);
            let db = 20.0 * (approx(x) / hankel_modulus(x)).log10();
            assert!(db.abs() < 1.2, "{db} dB at kr = {x}");
            if !(0.012..=100.0).contains(&x) {
                assert!(db.abs() < 0.1, "{db} dB at kr = {x}");
            }
        }
    }

    /// A long string moving as one, heard over its middle, is the line
    /// dipole: the elements' fields sum to `(k/4)·|H1(kh)|` within 2 %
    /// (against the Bessel functions themselves). The line is 40 m long,
    /// its ends tapered over 10 m so that they add nothing.
    #[test]
    fn a_long_string_moving_as_one_is_the_line_dipole() {
        let height = 0.15;
        let taper = |x: f64| {
            if x < 10.0 {
                1.0
            } else {
                (0.5 * PI * (x - 10.0) / 10.0).cos().powi(2)
            }
        };
        for f in [100.0, 500.0, 2_000.0] {
            let k = 2.0 * PI * f / SPEED_OF_SOUND_M_S;
            // Both halves, each from the point under the listener.
            let field = 2.0 * line_field(k, height, height, 20.0, 200_000, taper);
            let exact = 0.25 * k * hankel_modulus(k * height);
            assert!(
                (field / exact - 1.0).abs() < 0.02,
                "{f} Hz: {field} against {exact}"
            );
        }
    }

    /// The end of a string moves little: its fundamental, heard 0.15 m
    /// over the end, is about 12 dB under the line dipole's law for middle
    /// C (0.62 m) and about 20 dB for A0's 2 m string, which moves less
    /// within the listener's reach. Against an independent integration
    /// (NumPy, with SciPy's exact Hankel function: −12.0 and −20.0 dB),
    /// within 1.5 dB: the law's approximate modulus of `H1` accounts for up
    /// to 1.2 dB of it.
    #[test]
    fn a_string_heard_over_its_end_is_heard_less() {
        let db = |f: f64, length: f64| {
            20.0 * standing_wave_share(f, PI / length, length, 0.15, 0.0).log10()
        };
        let (middle_c, a0) = (db(261.6, 0.62), db(27.5, 2.0));
        assert!((middle_c + 12.0).abs() < 1.5, "C4 {middle_c} dB");
        assert!((a0 + 20.0).abs() < 1.5, "A0 {a0} dB");
    }

    /// Beyond `kh = 2` a standing wave's partials fall from its fundamental
    /// as [`segment_share`] says, on average over the strings of the grand
    /// (C2, C4, A5 and C7, with their inharmonicity) heard from 0.15 and
    /// 0.7 m over them and 0, 0.3 and 0.6 m beside them: partials 2 to 10
    /// within 3 dB of it, where the line dipole's law alone would put them
    /// more than 5 dB too loud.
    #[test]
    fn partials_fall_by_one_segments_worth() {
        // (length m, fundamental Hz, inharmonicity)
        let strings = [
            (1.9, 65.4, 1.5e-4),
            (0.62, 261.6, 3.8e-4),
            (0.2, 880.0, 2.0e-3),
            (0.09, 2093.0, 8.0e-3),
        ];
        let (mut with_fall, mut without, mut count) = (0.0, 0.0, 0.0);
        for (length, f0, b) in strings {
            for height in [0.15, 0.7] {
                for lateral in [0.0, 0.3, 0.6] {
                    let share = |n: f64| {
                        let f = n * f0 * (1.0 + b * n * n).sqrt();
                        let db = 20.0
                            * standing_wave_share(f, n * PI / length, length, height, lateral)
                                .log10();
                        (f, db)
                    };
                    let (f1, first) = share(1.0);
                    for n in 2..=10 {
                        let (f, db) = share(f64::from(n));
                        let fall =
                            20.0 * (segment_share(f, height) / segment_share(f1, height)).log10();
                        with_fall += db - first - fall;
                        without += db - first;
                        count += 1.0;
                    }
                }
            }
        }
        let (with_fall, without) = (with_fall / count, without / count);
        assert!(
            with_fall.abs() < 3.0,
            "{with_fall} dB off the segments' fall"
        );
        assert!(without < -5.0, "{without} dB off the law alone");
    }
}
