//! The body a clock's ticks ring in: the movement's brass back plate (a
//! simply supported rectangular plate) and the wooden case it is screwed
//! into, seen at the place on the plate where two parts strike.

use super::spec::ClockSpec;
use crate::instrument::PointMode;

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

/// One mode of the plate or the case.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyMode {
    /// Frequency, Hz.
    pub frequency_hz: f64,
    /// 60 dB decay time, s.
    pub t60_s: f64,
    /// Modal mass, kg.
    pub modal_mass_kg: f64,
    /// A plate mode's orders along the width and height; `None` for a case
    /// mode (felt alike wherever the movement is struck).
    pub orders: Option<(usize, usize)>,
}

impl BodyMode {
    /// The mode's shape at `(x, y)`, fractions of the plate's width and
    /// height (1 for a case mode).
    fn shape(&self, [x, y]: [f64; 2]) -> f64 {
        match self.orders {
            Some((m, n)) => {
                (m as f64 * std::f64::consts::PI * x).sin()
                    * (n as f64 * std::f64::consts::PI * y).sin()
            }
            None => 1.0,
        }
    }
}

/// Every mode of the plate (below 16 kHz) and the case.
pub fn body_modes(spec: &ClockSpec) -> Vec<BodyMode> {
    let (a, b, h) = (
        spec.plate_width_m,
        spec.plate_height_m,
        spec.plate_thickness_m,
    );
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
            modes.push(BodyMode {
                frequency_hz: f,
                t60_s: 3.0 * 10f64.ln() / (std::f64::consts::PI * f * spec.plate_loss_factor),
                modal_mass_kg: modal_mass,
                orders: Some((m, n)),
            });
        }
    }
    modes.extend(case_modes(spec));
    modes
}

/// The body's modes as a blow at `point` (m, in the movement's drawing)
/// meets them, each weighted for the ear, with its index in `modes`; modes
/// with a nodal line through the point are left out.
pub fn modes_at(spec: &ClockSpec, modes: &[BodyMode], point: [f64; 2]) -> Vec<(usize, PointMode)> {
    let at = [
        (MOVEMENT_ORIGIN[0] + point[0] / spec.plate_width_m).clamp(0.02, 0.98),
        (MOVEMENT_ORIGIN[1] + point[1] / spec.plate_height_m).clamp(0.02, 0.98),
    ];
    modes
        .iter()
        .enumerate()
        .filter_map(|(index, mode)| {
            let here = mode.shape(at);
            (here.abs() >= NODAL).then(|| {
                (
                    index,
                    PointMode {
                        frequency_hz: mode.frequency_hz,
                        t60_s: mode.t60_s,
                        mass_kg: mode.modal_mass_kg / (here * here),
                        pickup: mode.shape(PICKUP) / here,
                    },
                )
            })
        })
        .collect()
}

/// The wooden case's modes, spread evenly in log frequency, each as heavy
/// at the movement's seat and heard alike.
fn case_modes(spec: &ClockSpec) -> impl Iterator<Item = BodyMode> {
    spread_modes(
        spec.case_modes,
        (spec.case_lowest_mode_hz, spec.case_highest_mode_hz),
        spec.case_t60_s,
        spec.case_modal_mass_kg,
    )
}

/// `count` modes of a wooden case, from `low` to `high` (Hz) spread evenly
/// in log frequency, each decaying 60 dB in `t60_s` and of modal mass
/// `mass_kg` where it is driven, heard alike.
pub fn spread_modes(
    count: u32,
    (low, high): (f64, f64),
    t60_s: f64,
    mass_kg: f64,
) -> impl Iterator<Item = BodyMode> {
    (0..count).map(move |i| {
        let fraction = if count > 1 {
            f64::from(i) / f64::from(count - 1)
        } else {
            0.0
        };
        BodyMode {
            frequency_hz: low * (high / low).powf(fraction),
            t60_s,
            modal_mass_kg: mass_kg,
            orders: None,
        }
    })
}
