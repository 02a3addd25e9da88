//! The object kinds every family may use: stiff strings, felt hammers and
//! bars (free at both ends, or clamped at one), as objects of a preset.

use super::anchor_list::AnchorList;
use super::bars::{BarEnds, BarSet, strikes_a_mode};
use super::check::Checker;
use super::error::PresetError;
use super::hammers::HammerSet;
use super::object::{Instrument, ObjectKind, ObjectSpec};
use super::strings::StringSet;
use crate::props::DeclaredRange;

/// The object kinds every family may use: strings, felt hammers and bars.
/// A family's own kinds come with it ([`crate::rt::Family::object_kinds`]).
pub const SHARED_KINDS: &[ObjectKind] = &[
    ObjectKind::of::<StringSet>("stiff-strings"),
    ObjectKind::of::<HammerSet>("felt-hammers"),
    FREE_FREE_BARS,
    CLAMPED_FREE_BARS,
];

/// `[free-free-bars.NAME]`: bars free at both ends.
const FREE_FREE_BARS: ObjectKind = ObjectKind {
    table: "free-free-bars",
    read: |value| read_bars(value, BarEnds::FreeFree),
};

/// `[clamped-free-bars.NAME]`: bars clamped at one end.
const CLAMPED_FREE_BARS: ObjectKind = ObjectKind {
    table: "clamped-free-bars",
    read: |value| read_bars(value, BarEnds::ClampedFree),
};

fn read_bars(
    deserializer: &mut dyn erased_serde::Deserializer<'_>,
    ends: BarEnds,
) -> Result<Box<dyn ObjectSpec>, erased_serde::Error> {
    let bars = BarSet {
        ends,
        ..erased_serde::deserialize::<BarSet>(deserializer)?
    };
    Ok(Box::new(bars))
}

impl ObjectSpec for StringSet {
    fn kind(&self) -> &'static str {
        "stiff-strings"
    }

    fn anchors(&mut self) -> Option<&mut dyn AnchorList> {
        Some(&mut self.anchor)
    }

    fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        self.check(c)
    }

    fn struck(&self) -> Option<DeclaredRange> {
        Some(DeclaredRange {
            min: 0.01,
            max: 0.5,
            text: "0.01 to 0.5 of a string",
        })
    }

    fn reseed(&mut self, seed: u32) {
        self.unison_seed = seed;
    }
}

impl ObjectSpec for HammerSet {
    fn kind(&self) -> &'static str {
        "felt-hammers"
    }

    fn anchors(&mut self) -> Option<&mut dyn AnchorList> {
        Some(&mut self.anchor)
    }

    fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        self.check(c)
    }
}

impl ObjectSpec for BarSet {
    fn kind(&self) -> &'static str {
        match self.ends {
            BarEnds::FreeFree => FREE_FREE_BARS.table,
            BarEnds::ClampedFree => CLAMPED_FREE_BARS.table,
        }
    }

    fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        self.check(c)
    }

    fn struck(&self) -> Option<DeclaredRange> {
        Some(DeclaredRange {
            min: 0.01,
            max: 0.99,
            text: "0.01 to 0.99 of a bar",
        })
    }

    /// Struck, every key's mallet must strike its bar off a node of at
    /// least one of the bar's modes (a strike at nodes only would excite
    /// nothing): checked at each key's strike position, named
    /// `strike/key/KEY:position`.
    fn check_in(
        &self,
        name: &str,
        instrument: &Instrument<'_>,
        root: &Checker,
    ) -> Result<(), PresetError> {
        if name != instrument.topology.strike.target {
            return Ok(());
        }
        for key in instrument.keyboard.lowest_key..=instrument.keyboard.highest_key {
            if let Some(position) = instrument.topology.strike.position(key) {
                root.child(&format!("strike/key/{key}")).require(
                    strikes_a_mode(self.ends, position, self.t60_s.len()),
                    "position",
                    position,
                    "off a node of at least one mode of the bar",
                )?;
            }
        }
        Ok(())
    }
}
