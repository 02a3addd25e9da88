//! The body a clock's ticks ring in: the movement's brass back plate (a
//! simply supported rectangular plate) and the wooden case it is screwed
//! into, seen at the place on the plate where two parts strike.

use crate::instrument::{ClockSpec, PointMode};

/// Brass: Young's modulus (Pa), density (kg/m³), Poisson's ratio.
const BRASS_E_PA: f64 = 100e9;
const BRASS_DENSITY: f64 = 8500.0;
const BRASS_POISSON: f64 = 0.34;

/// Where the escapement's drawing origin (the escape wheel's arbor) sits on
/// the plate, as fractions of its width and height: a platform escapement
/// above the centre of the back plate.
const MOVEMENT_ORIGIN: [f64; 2] = [0.45, 0.62];

/// Where the ear hears the plate (fractions of width and height): off every
/// low mode's nodal lines.
const PICKUP: [f64; 2] = [0.31, 0.23];

/// Plate modes kept along each side.
const PLATE_ORDERS: usize = 6;

/// The highest plate mode kept, Hz.
const HIGHEST_PLATE_MODE_HZ: f64 = 16_000.0;

/// Shape of a plate mode, smaller than which the point is on a nodal line.
const NODAL: f64 = 0.05;

/// The modes of plate and case seen at `point` (m, in the movement's
/// drawing), each weighted for the ear.
pub fn modes_at(spec: &ClockSpec, point: [f64; 2]) -> Vec<PointMode> {
    let (a, b, h) = (
        spec.plate_width_m,
        spec.plate_height_m,
        spec.plate_thickness_m,
    );
    let x = (MOVEMENT_ORIGIN[0] + point[0] / a).clamp(0.02, 0.98);
    let y = (MOVEMENT_ORIGIN[1] + point[1] / b).clamp(0.02, 0.98);
    let rigidity = BRASS_E_PA * h.powi(3) / (12.0 * (1.0 - BRASS_POISSON * BRASS_POISSON));
    let areal_density = BRASS_DENSITY * h;
    let wave = (rigidity / areal_density).sqrt();
    // Each mode of a simply supported plate carries a quarter of its mass.
    let modal_mass = 0.25 * areal_density * a * b;
    let mut modes = Vec::new();
    for m in 1..=PLATE_ORDERS {
        for n in 1..=PLATE_ORDERS {
            let (kx, ky) = (m as f64 / a, n as f64 / b);
            let f = 0.5 * std::f64::consts::PI * wave * (kx * kx + ky * ky);
            if f > HIGHEST_PLATE_MODE_HZ {
                continue;
            }
            let shape = |u: f64, v: f64| {
                (m as f64 * std::f64::consts::PI * u).sin()
                    * (n as f64 * std::f64::consts::PI * v).sin()
            };
            let here = shape(x, y);
            if here.abs() < NODAL {
                continue;
            }
            modes.push(PointMode {
                frequency_hz: f,
                t60_s: 3.0 * 10f64.ln() / (std::f64::consts::PI * f * spec.plate_loss_factor),
                mass_kg: modal_mass / (here * here),
                pickup: shape(PICKUP[0], PICKUP[1]) / here,
            });
        }
    }
    modes.extend(case_modes(spec));
    modes
}

/// The wooden case's modes, spread evenly in log frequency, each as heavy
/// at the movement's seat and heard alike.
fn case_modes(spec: &ClockSpec) -> impl Iterator<Item = PointMode> + '_ {
    let count = spec.case_modes;
    let (low, high) = (spec.case_lowest_mode_hz, spec.case_highest_mode_hz);
    (0..count).map(move |i| {
        let fraction = if count > 1 {
            f64::from(i) / f64::from(count - 1)
        } else {
            0.0
        };
        PointMode {
            frequency_hz: low * (high / low).powf(fraction),
            t60_s: spec.case_t60_s,
            mass_kg: spec.case_modal_mass_kg,
            pickup: 1.0,
        }
    })
}
