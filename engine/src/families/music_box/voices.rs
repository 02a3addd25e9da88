//! The music box's audio-rate side: every tine of the comb with the pin
//! that plucks it ([`Tine`]), and the case the comb is bolted to. Each
//! tine is heard at its pickup point; the forces the tines put on their
//! clamp drive the case's modes ([`BodyModes`]), which add their ring. The
//! case is driven one way: its motion, microns against the tines'
//! tenths of a millimetre, is not fed back to the tines.

use std::any::Any;

use super::comb::TineDesign;
use super::spec::MusicBoxSpec;
use super::tine::{Damper, Tine};
use crate::families::chiming_clock::body::BodyModes;
use crate::families::chiming_clock::case::spread_modes;
use crate::instrument::{Preset, PresetError, Rebound};
use crate::rt::{
    CHUNK, Operation, SILENCE_LEVEL, SynthError, Voices, mix, stereo_gains, write_bus,
};
use crate::wdf::FeltLaw;

/// The comb and the case.
///
/// Allocates in [`MusicBoxVoices::new`] only; playing allocates nothing.
#[derive(Debug)]
pub struct MusicBoxVoices {
    lowest_key: u8,
    /// Per key from the lowest: its tine, if the comb has one.
    tines: Vec<Option<Tine>>,
    key_gains: Vec<[f64; 2]>,
    pitches_hz: Vec<f64>,
    case: BodyModes,
    /// Each case mode's mass where the comb is bolted, kg.
    case_masses: Vec<f64>,
    /// Left and right gains of the case.
    case_gains: [f64; 2],
    period_s: f64,
    bus: Box<[[f64; 2]; CHUNK]>,
    /// The tines' clamp forces over one chunk, N.
    clamp: Box<[f64; CHUNK]>,
}

fn topology_error(message: String) -> SynthError {
    SynthError::Preset(PresetError::Topology(message))
}

impl MusicBoxVoices {
    /// The comb and case of `preset`'s box `spec` at `sample_rate` (Hz).
    pub fn new(preset: &Preset, spec: &MusicBoxSpec, sample_rate: f64) -> Result<Self, SynthError> {
        let topology = preset.topology().map_err(SynthError::Preset)?;
        let pins = topology.hammers;
        let (lowest, highest) = (preset.keyboard.lowest_key, preset.keyboard.highest_key);
        let gain = preset.output.gain_per_newton;
        let span = f64::from(highest - lowest).max(1.0);
        let mut tines = Vec::new();
        let mut key_gains = Vec::new();
        let mut pitches_hz = Vec::new();
        for key in lowest..=highest {
            let fundamental = preset.fundamental_hz(key);
            pitches_hz.push(fundamental);
            key_gains.push(stereo_gains(&preset.output, f64::from(key - lowest) / span));
            if !spec.has_tine(key) {
                tines.push(None);
                continue;
            }
            let design = TineDesign::new(spec, key, fundamental).map_err(topology_error)?;
            let at = topology
                .strike
                .position(key)
                .ok_or_else(|| topology_error(format!("key {key}: no pin position")))?;
            let law = pins
                .felt(key)
                .ok_or_else(|| topology_error(format!("key {key}: no pin contact")))?;
            let modes = design.point_modes(at, spec.pickup_position, spec.tine_loss_factor);
            let damper = (key < spec.damped_below_key)
                .then(|| damper_of(spec, key, pins.start_gap_m))
                .transpose()?;
            let tine = Tine::new(
                &modes,
                law,
                (pins.start_gap_m, spec.lift_m),
                damper,
                sample_rate,
                SILENCE_LEVEL / gain,
            )
            .map_err(|e| SynthError::Voice(format!("key {key}: {e}")))?;
            tines.push(tine);
        }
        let case_modes: Vec<_> = spread_modes(
            spec.case_modes,
            (spec.case_lowest_mode_hz, spec.case_highest_mode_hz),
            spec.case_t60_s,
            spec.case_modal_mass_kg,
        )
        .filter(|mode| mode.frequency_hz < 0.45 * sample_rate)
        .collect();
        let case = BodyModes::new(
            &case_modes
                .iter()
                .map(|mode| (mode.frequency_hz, mode.t60_s))
                .collect::<Vec<_>>(),
            sample_rate,
            SILENCE_LEVEL / gain,
        );
        Ok(Self {
            lowest_key: lowest,
            tines,
            key_gains,
            pitches_hz,
            case,
            case_masses: case_modes.iter().map(|mode| mode.modal_mass_kg).collect(),
            case_gains: stereo_gains(&preset.output, 0.5),
            period_s: 1.0 / sample_rate,
            bus: Box::new([[0.0; 2]; CHUNK]),
            clamp: Box::new([0.0; CHUNK]),
        })
    }

    fn tine_mut(&mut self, key: u8) -> Option<&mut Tine> {
        let index = usize::from(key.checked_sub(self.lowest_key)?);
        self.tines.get_mut(index)?.as_mut()
    }
}

impl Voices for MusicBoxVoices {
    fn apply(&mut self, operation: Operation) {
        if let Operation::Pluck { key, speed_m_s } = operation
            && let Some(tine) = self.tine_mut(key)
        {
            tine.pluck(speed_m_s);
        }
    }

    fn render(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        on_rebound: &mut dyn FnMut(u8, usize, Rebound),
    ) {
        let frames = left.len().min(right.len()).min(CHUNK);
        let bus = &mut self.bus[..frames];
        bus.fill([0.0; 2]);
        let clamp = &mut self.clamp[..frames];
        clamp.fill(0.0);
        let mut any = false;
        for (index, (tine, &gains)) in self.tines.iter_mut().zip(&self.key_gains).enumerate() {
            let Some(tine) = tine.as_mut().filter(|t| t.is_active()) else {
                continue;
            };
            any = true;
            let key = self.lowest_key + index as u8;
            let mut frame = 0;
            mix(bus, gains, |_| {
                let out = tine.tick();
                clamp[frame] += tine.clamp_force();
                if let Some(rebound) = tine.take_let_go() {
                    on_rebound(key, frame, rebound);
                }
                frame += 1;
                out
            });
        }
        if any || self.case.is_ringing() {
            let [gain_left, gain_right] = self.case_gains;
            for (out, &force) in bus.iter_mut().zip(clamp.iter()) {
                if any {
                    for (mode, &mass) in self.case_masses.iter().enumerate() {
                        self.case
                            .take(mode, force * self.period_s / mass, 0.0, mass, 1.0);
                    }
                }
                let y = self.case.tick();
                out[0] += gain_left * y;
                out[1] += gain_right * y;
            }
        }
        write_bus(bus, left, right);
    }

    fn reset(&mut self) {
        for tine in self.tines.iter_mut().flatten() {
            tine.reset();
        }
        self.case.reset();
    }

    fn continue_from(&mut self, old: &dyn Voices) -> bool {
        let Some(old) = old.as_any().downcast_ref::<MusicBoxVoices>() else {
            return false;
        };
        let same = self.lowest_key == old.lowest_key
            && self.tines.len() == old.tines.len()
            && self
                .tines
                .iter()
                .zip(&old.tines)
                .all(|(a, b)| match (a, b) {
                    (Some(a), Some(b)) => a.same_shape(b),
                    (None, None) => true,
                    _ => false,
                });
        if !same || !self.case.continue_from(&old.case) {
            return false;
        }
        for (tine, old_tine) in self.tines.iter_mut().zip(&old.tines) {
            if let (Some(tine), Some(old_tine)) = (tine, old_tine) {
                tine.continue_from(old_tine);
            }
        }
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn pitch_hz(&self, key: u8) -> Option<f64> {
        let index = usize::from(key.checked_sub(self.lowest_key)?);
        self.tines.get(index)?.as_ref()?;
        self.pitches_hz.get(index).copied()
    }

    fn is_active(&self) -> bool {
        self.case.is_ringing() || self.tines.iter().flatten().any(Tine::is_active)
    }

    fn sounding_keys(&self) -> u32 {
        self.tines
            .iter()
            .flatten()
            .filter(|t| t.is_active())
            .count() as u32
    }

    fn non_finite_resets(&self) -> u64 {
        self.tines
            .iter()
            .flatten()
            .map(|t| u64::from(t.non_finite_resets()))
            .sum()
    }
}

/// The damper of `key`'s tine: a linear pad with Hunt–Crossley loss,
/// pressed onto the tip while the pin, `lead_m` before the tip, lifts its
/// wire for twice the press.
fn damper_of(spec: &MusicBoxSpec, key: u8, lead_m: f64) -> Result<Damper, SynthError> {
    if 2.0 * spec.damper_press_m >= lead_m {
        return Err(topology_error(format!(
            "key {key}: the damper's press ({} m) must be under half the pins' start gap ({} m)",
            spec.damper_press_m, lead_m
        )));
    }
    Ok(Damper {
        pad: FeltLaw::elastic(spec.damper_stiffness_n_per_m, 1.0)
            .with_hysteresis(spec.damper_hysteresis_s_per_m),
        press_m: spec.damper_press_m,
    })
}
