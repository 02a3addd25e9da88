//! The preset itself: its core (name, family, tuning, keyboard, velocity,
//! output, room), its objects and its strike, and the checks that run over
//! them all.

use super::check::{Checker, Ranges};
use super::error::PresetError;
use super::keyboard::Keyboard;
use super::object::{Instrument, Topology};
use super::objects::Objects;
use super::output::{MICROPHONES, OutputSpec};
use super::strike::StrikeSpec;
use super::strings::fundamental_hz;
use super::topology;
use super::tuning_check::check_temperament;
use crate::instrument::{StretchedTuning, VelocityCurve};
use crate::room::RoomSpec;

/// An instrument: its objects and how they interact, and how it is tuned, played
/// and heard. It is read and written as serde data (a preset file's TOML, an
/// editor's JSON); reading needs the object kinds of the registered families,
/// so it is implemented with the registry (`crate::families`).
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// Display name.
    pub name: String,
    /// One line on what it is.
    pub description: String,
    /// The instrument family that plays it (`grand-piano`, `mallet-bar`: see
    /// `crate::families`); a preset that names none is played by the first
    /// family that fits its objects.
    pub family: Option<String>,
    /// Reference pitch and stretch.
    pub tuning: StretchedTuning,
    /// Which MIDI keys exist.
    pub keyboard: Keyboard,
    /// How MIDI velocity becomes hammer speed.
    pub velocity: VelocityCurve,
    /// From bridge force to audio.
    pub output: OutputSpec,
    /// The room it is heard in; none: heard dry. Setting a `room:` property
    /// of a preset without one gives it the [`RoomSpec::default`] room first.
    pub room: Option<RoomSpec>,
    /// Its objects by name, each of a kind a family declares (strings, bars,
    /// hammers, a grand's action, a clock's movement).
    pub objects: Objects,
    /// Which hammers strike which resonator, where.
    pub strikes: Vec<StrikeSpec>,
}

impl Preset {
    /// Checks every value against its physical range, resolves the topology
    /// and checks each object against the others: everything but which
    /// family plays it, which the registry checks (`Preset::validate`, with
    /// the families).
    pub fn check_values(&self) -> Result<(), PresetError> {
        self.check(&Checker::checking())
    }

    /// Runs every check of the preset with `root`, the checker at its root:
    /// failing at the first bad value, or recording every range (see
    /// [`Checker`]).
    fn check(&self, root: &Checker) -> Result<(), PresetError> {
        let tuning = root.child("tuning");
        tuning.declared(&self.tuning)?;
        let resolved = self.topology().ok();
        let strings = resolved.as_ref().and_then(|t| t.strings());
        let fundamental = |key| fundamental_hz(&self.tuning, strings, key);
        check_temperament(&self.tuning, self.keyboard, fundamental, &tuning)?;
        check_velocity(&self.velocity, &root.child("velocity"))?;
        let output = root.child("output");
        output.declared(&self.output)?;
        output.range(
            "microphone",
            f64::from(self.output.microphone),
            0.0,
            (MICROPHONES.len() - 1) as f64,
            "0 (bridge), 1 (player) or 2 (close)",
        )?;
        // Without a room the default's ranges are recorded (and pass), for
        // the editor to offer.
        self.room
            .unwrap_or_default()
            .validate(&root.child("room"))?;
        let keyboard = root.child("keyboard");
        keyboard.declared(&self.keyboard)?;
        keyboard.ordered(
            ("lowest_key", f64::from(self.keyboard.lowest_key)),
            ("highest_key", f64::from(self.keyboard.highest_key)),
            "at least lowest_key",
        )?;
        for (name, object) in self.objects.iter() {
            object.validate(&root.child(name))?;
        }
        let instrument = Instrument {
            keyboard: self.keyboard,
            tuning: &self.tuning,
            topology: topology::resolve(&self.objects, &self.strikes, root)?,
        };
        for (name, object) in self.objects.iter() {
            object.check_in(name, &instrument, root)?;
        }
        Ok(())
    }

    /// The range of every property path, as [`Preset::check_values`] checks
    /// it: its checks run in recording mode. Anchor fields are recorded under
    /// `NAME/key/*` (see `check::every_key`). A preset that fails validation
    /// yields the ranges of the checks before the failure.
    pub(super) fn checked_ranges(&self) -> Ranges {
        let recorder = Checker::recording();
        // Recording never fails on a value; a structural error only ends the
        // recording early.
        let _ = self.check(&recorder);
        recorder.ranges()
    }

    /// The objects resolved through their interactions.
    pub fn topology(&self) -> Result<Topology<'_>, PresetError> {
        topology::resolve(&self.objects, &self.strikes, &Checker::checking())
    }

    /// Target frequency of `key`'s first partial, Hz: A4 at the preset's
    /// reference, octaves stretched to follow the strings' inharmonicity by the
    /// preset's stretch (bars are stiff beams with no such partials: plain equal
    /// temperament).
    pub fn fundamental_hz(&self, key: u8) -> f64 {
        let topology = self.topology().ok();
        fundamental_hz(
            &self.tuning,
            topology.as_ref().and_then(|t| t.strings()),
            key,
        )
    }

    /// Hammer speed (m/s) for a normalised velocity in [0, 1] (MIDI velocity / 127).
    pub fn hammer_speed(&self, velocity: f32) -> f64 {
        self.velocity.speed(f64::from(velocity))
    }
}

/// The velocity curve's declared ranges, and the softest speed at most the
/// hardest.
fn check_velocity(velocity: &VelocityCurve, c: &Checker) -> Result<(), PresetError> {
    c.declared(velocity)?;
    c.ordered(
        ("softest_speed_m_s", velocity.softest_speed_m_s),
        ("hardest_speed_m_s", velocity.hardest_speed_m_s),
        "at least softest_speed_m_s",
    )
}
