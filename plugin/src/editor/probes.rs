//! The live probes: the same signals `orchard render --probe` records
//! (pedals, and per key the hammer's travel, the damper and the energy on the
//! strings), read from the running instrument.

use egui::{Grid, Ui};
use orchard_engine::rt::{MechanicsView, MeterView};

use super::keyboard::Keys;

/// Shows the pedals, and every key that is down or sounding.
pub fn show(ui: &mut Ui, keys: Keys, mechanics: &MechanicsView, meters: &MeterView) {
    ui.label(format!(
        "pedals: sustain {:.2}, sostenuto {}, una corda {:.2}",
        mechanics.sustain,
        if mechanics.sostenuto { "down" } else { "up" },
        mechanics.una_corda
    ));
    ui.label(format!("mechanism time {:.3} s", mechanics.time_s));
    Grid::new("probes")
        .striped(true)
        .num_columns(5)
        .show(ui, |ui| {
            for heading in [
                "key",
                "hammer travel",
                "damper",
                "last contact, N",
                "string energy, J",
            ] {
                ui.strong(heading);
            }
            ui.end_row();
            for key in keys.iter() {
                let index = usize::from(key);
                let energy = meters.resonator_energy_j[usize::from(key)];
                if !mechanics.key_down[index]
                    && energy <= 0.0
                    && mechanics.striker_travel[index] <= 0.0
                {
                    continue;
                }
                ui.label(format!("key/{key}"));
                ui.label(format!("{:.2}", mechanics.striker_travel[index]));
                ui.label(format!("{:.2}", mechanics.damper[index]));
                ui.label(format!("{:.1}", mechanics.last_contact_force_n[index]));
                ui.label(format!("{energy:.2e}"));
                ui.end_row();
            }
        });
}
