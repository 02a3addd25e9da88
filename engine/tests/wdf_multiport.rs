//! A multiport root in use: a tine with two contacts on it (a pin that
//! pushes it and a damper pad that holds it), solved jointly each sample.

use nice_assert_no_alloc::{AllocDisabler, assert_no_alloc};

use orchard_engine::wdf::description::{capacitor, element, inductor, parallel, resistor, series};
use orchard_engine::wdf::{Element, FeltLaw, MultiportTree, TreeDescription};

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

const RATE: f64 = 48_000.0;

/// A 1 kHz tine mode of 1 g at its tip; a pin (a velocity source behind a
/// Hertzian steel contact) and a damper pad (a soft, lossy contact on a
/// small mass and spring) both touch the tip.
fn tine() -> TreeDescription {
    let mode_mass = 1e-3;
    let omega = 2.0 * std::f64::consts::PI * 1_000.0;
    let steel = FeltLaw::elastic(5e9, 1.5).with_hysteresis(0.5);
    let pad = FeltLaw::elastic(2e5, 1.0).with_hysteresis(20.0);
    TreeDescription::new(
        "pin",
        Element::Felt { law: steel },
        series([
            element(
                "drive",
                Element::ResistiveVoltageSource {
                    volts: 0.0,
                    ohms: 1e-3,
                },
            ),
            parallel([
                capacitor("mode", mode_mass),
                inductor("spring", 1.0 / (mode_mass * omega * omega)),
                resistor("loss", 1.0 / (2.0 * mode_mass * 1000f64.ln() / 2.0)),
                // Turned so that the tip pushed by the pin presses on it.
                series([
                    element("pad", Element::Felt { law: pad }),
                    parallel([
                        capacitor("damper", 5e-4),
                        inductor("damper_spring", 1.0 / 5e4),
                    ]),
                ])
                .inverted(),
            ]),
        ]),
    )
}

/// The pin pushes the tip 0.3 mm at 5 cm/s while the pad presses on it,
/// then leaves: every sample's joint solve converges in a few steps, and
/// none allocates.
#[test]
fn pin_and_damper_are_solved_jointly_without_allocating() {
    let mut tree = MultiportTree::new(&tine(), RATE).unwrap();
    assert_eq!(tree.port_count(), 2);
    let (pin, pad) = (tree.port("pin").unwrap(), tree.port("pad").unwrap());
    let drive = tree.source("drive").unwrap();
    // The pad starts just touching the tip; the pin 0.1 mm from it.
    tree.contact_mut(pad).unwrap().set_state(0.0, 0.0);
    tree.contact_mut(pin).unwrap().set_state(-1e-4, 0.0);
    let speed = 0.05;
    let lift_samples = ((4e-4 / speed) * RATE) as usize;
    let mut both = 0;
    let mut peak = 0.0_f64;
    assert_no_alloc(|| {
        for n in 0..lift_samples + 4_800 {
            if n == lift_samples {
                // The tip slips off the pin's end.
                tree.contact_mut(pin).unwrap().set_state(-1e-3, 0.0);
                tree.set_source(drive, 0.0);
            } else if n < lift_samples {
                tree.set_source(drive, speed);
            }
            tree.tick();
            let outcome = tree.last_outcome();
            assert!(
                outcome.converged && outcome.steps <= 12,
                "sample {n}: {outcome:?}"
            );
            let (f_pin, f_pad) = (tree.port_current(pin), tree.port_current(pad));
            if f_pin > 0.0 && f_pad > 0.0 {
                both += 1;
            }
            peak = peak.max(f_pin);
        }
    });
    assert!(
        both > 100,
        "the two contacts pushed together for {both} samples"
    );
    // Quasi-static: the pin holds the tine's spring (m·ω² ≈ 39.5 N/mm) and
    // the damper's (50 N/mm) over about 0.3 mm, less the contacts' own
    // compression.
    let tine_stiffness = 1e-3 * (2.0 * std::f64::consts::PI * 1_000.0_f64).powi(2);
    assert!(
        peak > 0.5 * tine_stiffness * 3e-4 && peak < (tine_stiffness + 5e4) * 4e-4,
        "peak pin force {peak} N"
    );
}

/// Adversarial drives (a pin hurled at 1 km/s, reversed every sample, and
/// tiny ones) stay finite and within the step bound.
#[test]
fn absurd_drives_stay_finite_and_bounded() {
    let mut tree = MultiportTree::new(&tine(), RATE).unwrap();
    let drive = tree.source("drive").unwrap();
    let pin = tree.port("pin").unwrap();
    for n in 0..20_000 {
        let value = match n % 4 {
            0 => 1e3,
            1 => -1e3,
            2 => 1e-12,
            _ => 37.0,
        };
        tree.set_source(drive, value);
        tree.tick();
        assert!(tree.port_current(pin).is_finite(), "sample {n}");
    }
    assert!(tree.most_steps() <= 40);
}
