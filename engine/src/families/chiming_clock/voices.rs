//! The chiming clock's audio-rate side: its rods, each with its hammer (the
//! trains' blows and MIDI notes strike them), and the places where the
//! movement's parts strike each other, each a contact grafted onto the
//! plate and case that ring with the tick.
//!
//! Each site has a tree of its own holding the whole body's modes as seen
//! from there, for as long as its parts touch (a few samples). When they
//! let go, the modes' states pass to one bank of the body's modes
//! ([`BodyModes`]), where every blow rings on, and the tree rests. The body
//! is linear, so the blows' rings add up there as the one body's would;
//! what this leaves out is a blow feeling the body still ringing from the
//! blows before it, a fraction of a millinewton against newtons of contact
//! force.

use std::any::Any;

use super::body::BodyModes;
use super::case;
use super::movement::{Blow, Movement};
use super::spec::ClockSpec;
use crate::families::mallet_bar::BarVoices;
use crate::instrument::{MalletBar, PointMode, Preset, PresetError, Rebound, Striker};
use crate::rt::{CHUNK, IMPACT_SITE_KEYS, Operation, SILENCE_LEVEL, SynthError, Voices, write_bus};
use crate::wdf::FeltLaw;

/// Hertz's exponent for a steel tooth's tip on a steel pallet.
const HERTZ_EXPONENT: f64 = 1.5;

/// Hunt–Crossley loss of an oiled steel contact, s/m: a blow at `v` keeps
/// about `1 − (2/3)·β·v` of its speed (0.9 at the escapement's 0.3 m/s).
const STEEL_HYSTERESIS_S_PER_M: f64 = 0.5;

/// How long the movement is run, off the audio thread, to find where its
/// parts strike and the mass each blow meets, s of clock time: a few beats.
const SURVEY_S: f64 = 2.5;

/// A blow's contact tree starts its flight this far from contact, m: the
/// mechanism hands it over as the parts meet.
const IMPACT_GAP_M: f64 = 1e-6;

/// Rods and ticking sites.
#[derive(Debug)]
pub struct ClockVoices {
    rods: BarVoices,
    /// Each site's contact tree, if the survey saw a blow there.
    sites: Vec<Option<MalletBar>>,
    /// Per site, per mode of its tree: the body mode it is, the mode's mass
    /// at the site (kg) and its pickup weight.
    site_modes: Vec<Vec<(usize, f64, f64)>>,
    /// The plate and case ringing on after the blows.
    body: BodyModes,
    /// Left and right gains of the ticks.
    tick_gains: [f64; 2],
    bus: Box<[[f64; 2]; CHUNK]>,
    rod_left: Box<[f32; CHUNK]>,
    rod_right: Box<[f32; CHUNK]>,
}

impl ClockVoices {
    /// The rods and movement of `preset` at `sample_rate` (Hz).
    pub fn new(preset: &Preset, spec: &ClockSpec, sample_rate: f64) -> Result<Self, SynthError> {
        let rods = BarVoices::new(preset, sample_rate)?;
        let gain = preset.output.gain_per_newton;
        let law = FeltLaw::elastic(spec.pallet_stiffness, HERTZ_EXPONENT)
            .with_hysteresis(STEEL_HYSTERESIS_S_PER_M);
        let first_blows = survey(spec);
        let body_modes = case::body_modes(spec);
        let mut sites = Vec::with_capacity(first_blows.len());
        let mut site_modes = Vec::with_capacity(first_blows.len());
        for (site, blow) in first_blows.iter().enumerate() {
            // Sites are numbered as keys from IMPACT_SITE_KEYS up.
            let Some(blow) = blow.filter(|_| site < usize::from(IMPACT_SITE_KEYS)) else {
                sites.push(None);
                site_modes.push(Vec::new());
                continue;
            };
            let striker = Striker {
                mass_kg: blow.mass_kg,
                law,
                start_gap_m: IMPACT_GAP_M,
            };
            let (indices, modes): (Vec<usize>, Vec<PointMode>) =
                case::modes_at(spec, &body_modes, blow.point)
                    .into_iter()
                    .unzip();
            site_modes.push(
                indices
                    .iter()
                    .zip(&modes)
                    .map(|(&index, mode)| (index, mode.mass_kg, mode.pickup))
                    .collect(),
            );
            let tree = MalletBar::from_modes(
                site.min(255) as u8,
                &modes,
                &striker,
                spec.case_lowest_mode_hz,
                sample_rate,
                SILENCE_LEVEL / gain,
            )
            .map_err(|e| SynthError::Preset(PresetError::Topology(format!("clock: {e}"))))?;
            sites.push(Some(tree));
        }
        let centre = crate::rt::stereo_gains(&preset.output, 0.5);
        let body = BodyModes::new(
            &body_modes
                .iter()
                .filter(|mode| mode.frequency_hz < 0.45 * sample_rate)
                .map(|mode| (mode.frequency_hz, mode.t60_s))
                .collect::<Vec<_>>(),
            sample_rate,
            SILENCE_LEVEL / gain,
        );
        Ok(Self {
            rods,
            sites,
            site_modes,
            body,
            tick_gains: centre,
            bus: Box::new([[0.0; 2]; CHUNK]),
            rod_left: Box::new([0.0; CHUNK]),
            rod_right: Box::new([0.0; CHUNK]),
        })
    }
}

/// The first blow at each of the movement's sites in its first
/// [`SURVEY_S`] of running (`None` where none fell).
fn survey(spec: &ClockSpec) -> Vec<Option<Blow>> {
    let mut running = spec.clone();
    running.running = true;
    let mut movement = Movement::new(&running);
    let mut first: Vec<Option<Blow>> = vec![None; movement.sites().len()];
    movement.run_to(SURVEY_S, &mut |blow| {
        first[blow.site].get_or_insert(blow);
    });
    first
}

impl Voices for ClockVoices {
    fn apply(&mut self, operation: Operation) {
        match operation {
            Operation::Impact { site, speed_m_s } => {
                if let Some(Some(tree)) = self.sites.get_mut(usize::from(site)) {
                    tree.strike(speed_m_s);
                }
            }
            other => self.rods.apply(other),
        }
    }

    fn render(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        on_rebound: &mut dyn FnMut(u8, usize, Rebound),
    ) {
        let frames = left.len().min(right.len()).min(CHUNK);
        let (rod_left, rod_right) = (&mut self.rod_left[..frames], &mut self.rod_right[..frames]);
        self.rods.render(rod_left, rod_right, on_rebound);
        let bus = &mut self.bus[..frames];
        for ((frame, &l), &r) in bus.iter_mut().zip(rod_left.iter()).zip(rod_right.iter()) {
            *frame = [f64::from(l), f64::from(r)];
        }
        let [gain_left, gain_right] = self.tick_gains;
        let Self {
            sites,
            site_modes,
            body,
            ..
        } = self;
        if body.is_ringing() || sites.iter().flatten().any(MalletBar::is_active) {
            for (frame, out) in bus.iter_mut().enumerate() {
                // The body first: what blows handed it before this sample.
                let mut y = body.tick();
                for (site, tree) in sites.iter_mut().enumerate() {
                    let Some(tree) = tree.as_mut().filter(|tree| tree.is_active()) else {
                        continue;
                    };
                    y += tree.tick();
                    // The parts let go: the snapshot goes back to the
                    // mechanism, and the modes ring on in the body.
                    if let Some(rebound) = tree.take_let_go() {
                        on_rebound(IMPACT_SITE_KEYS + site as u8, frame, rebound);
                        let modes = &site_modes[site];
                        tree.mode_states(&mut |n, velocity, force| {
                            if let Some(&(index, mass, pickup)) = modes.get(n) {
                                body.take(index, velocity, force, mass, pickup);
                            }
                        });
                        tree.reset();
                    }
                }
                out[0] += gain_left * y;
                out[1] += gain_right * y;
            }
        }
        write_bus(bus, left, right);
    }

    fn reset(&mut self) {
        self.rods.reset();
        self.body.reset();
        for tree in self.sites.iter_mut().flatten() {
            tree.reset();
        }
    }

    fn continue_from(&mut self, old: &dyn Voices) -> bool {
        let Some(old) = old.as_any().downcast_ref::<ClockVoices>() else {
            return false;
        };
        if self.sites.len() != old.sites.len() || !self.rods.same_shape(&old.rods) {
            return false;
        }
        let same_sites = self
            .sites
            .iter()
            .zip(&old.sites)
            .all(|(a, b)| match (a, b) {
                (Some(a), Some(b)) => a.same_shape(b),
                (None, None) => true,
                _ => false,
            });
        if !same_sites {
            return false;
        }
        if !self.body.continue_from(&old.body) {
            return false;
        }
        self.rods.continue_from(&old.rods);
        for (tree, old_tree) in self.sites.iter_mut().zip(&old.sites) {
            if let (Some(tree), Some(old_tree)) = (tree, old_tree) {
                tree.continue_from(old_tree);
            }
        }
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn is_active(&self) -> bool {
        self.rods.is_active()
            || self.body.is_ringing()
            || self.sites.iter().flatten().any(MalletBar::is_active)
    }

    fn pitch_hz(&self, key: u8) -> Option<f64> {
        self.rods.pitch_hz(key)
    }

    fn sounding_keys(&self) -> u32 {
        self.rods.sounding_keys()
    }

    fn non_finite_resets(&self) -> u64 {
        self.rods.non_finite_resets()
            + self
                .sites
                .iter()
                .flatten()
                .map(|t| u64::from(t.non_finite_resets()))
                .sum::<u64>()
    }
}
