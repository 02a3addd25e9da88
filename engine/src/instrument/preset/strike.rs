//! `[[strike]]`: a set of hammers striking a resonator, key by key, and
//! where along it.

use serde::{Deserialize, Serialize};

use super::anchored::{Anchored, value_at};
use crate::{anchor_fields, fields};

/// One `[[strike]]`: a set of hammers striking a resonator, key by key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrikeSpec {
    /// The striking object (`felt-hammers`).
    pub hammers: String,
    /// The struck object (`stiff-strings` or `free-free-bars`).
    pub target: String,
    /// Strike positions at anchor keys, in ascending key order.
    pub anchor: Vec<StrikeAnchor>,
}

/// Where a hammer meets its target at an anchor key.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrikeAnchor {
    /// MIDI key.
    pub key: u8,
    /// Strike point as a fraction of the target's length (from the agraffe for
    /// strings, from one end for bars); `None` (omitted in the preset): the
    /// interpolation between the nearest anchors that give it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<f64>,
}

impl StrikeSpec {
    /// The strike position at `key` (see [`value_at`]).
    pub fn position(&self, key: u8) -> Option<f64> {
        value_at(&self.anchor, key, |a| a.position)
    }
}

impl Anchored for StrikeAnchor {
    fn key(&self) -> u8 {
        self.key
    }
}

fields!(StrikeSpec {});
anchor_fields!(StrikeAnchor {
    position, "",
        "Strike point, as a fraction of the string's length from the agraffe (of a bar's from one end)";
});
