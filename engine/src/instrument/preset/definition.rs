//! The preset itself: its core (name, family, tuning, keyboard, velocity,
//! output, room), its objects and its strike, and the checks that run over
//! them all.

use super::check::Checker;
use super::error::PresetError;
use super::keyboard::Keyboard;
use super::object::{Instrument, Topology};
use super::objects::Objects;
use super::output::OutputSpec;
use super::strike::StrikeSpec;
use super::strings::fundamental_hz;
use super::topology;
use super::tuning_check::check_scale;
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
    /// Checks every value against its declaration (its range and the field
    /// it may not fall below), resolves the topology and checks the
    /// instrument's rules: the ranges they give ([`Preset::bounds`]) and each
    /// object's own checks against the others. Which family plays it the
    /// registry checks (`Preset::validate`, with the families).
    pub fn check_values(&self) -> Result<(), PresetError> {
        let root = Checker::checking();
        root.child("tuning").declared(&self.tuning)?;
        root.child("velocity").declared(&self.velocity)?;
        root.child("output").declared(&self.output)?;
        if let Some(room) = &self.room {
            room.validate(&root.child("room"))?;
        }
        root.child("keyboard").declared(&self.keyboard)?;
        for (name, object) in self.objects.iter() {
            object.validate(&root.child(name))?;
        }
        let instrument = self.instrument()?;
        check_scale(&self.tuning, self.keyboard, |key| {
            instrument.fundamental_hz(key)
        })?;
        self.check_bounds(&self.bounds(&instrument))?;
        for (name, object) in self.objects.iter() {
            object.check_in(name, &instrument, &root)?;
        }
        Ok(())
    }

    /// The preset resolved as an instrument: keyboard, tuning and topology
    /// (see [`Preset::topology`]).
    pub fn instrument(&self) -> Result<Instrument<'_>, PresetError> {
        Ok(Instrument {
            keyboard: self.keyboard,
            tuning: &self.tuning,
            topology: self.topology()?,
        })
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
