//! The interaction topology: which hammers strike which resonator, where, and
//! which dampers, action and body belong to them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::PresetError;
use super::anchored::{Anchored, value_at};
use super::celesta_spec::CelestaSpec;
use super::check::Checker;
use super::clock_spec::ClockSpec;
use super::music_box_spec::MusicBoxSpec;
use super::objects::{
    ActionSpec, BarEnds, BarSet, DamperSet, HammerSet, Object, SoundboardSpec, StringSet,
};

/// The nearest a music box's pin may meet its tine to the clamp, as a
/// fraction of the tine's length (see [`resolve`]).
pub const MIN_PIN_POSITION: f64 = 0.5;

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

/// What the hammers strike.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Resonators<'a> {
    /// Strings on a bridge.
    Strings(&'a StringSet),
    /// Bars: free at both ends, or clamped at one.
    Bars(&'a BarSet, BarEnds),
    /// A music box's comb of tines, plucked by its pins.
    Comb(&'a MusicBoxSpec),
}

/// A preset's objects resolved through its interactions: what the engine builds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Topology<'a> {
    /// The struck resonators.
    pub resonators: Resonators<'a>,
    /// The hammers that strike them.
    pub hammers: &'a HammerSet,
    /// Where.
    pub strike: &'a StrikeSpec,
    /// The dampers on the resonators, if any.
    pub dampers: Option<&'a DamperSet>,
    /// The action that throws the hammers, if any (otherwise a note-on throws
    /// the hammer itself, as a player throws a mallet).
    pub action: Option<&'a ActionSpec>,
    /// The body the resonators drive, if any.
    pub soundboard: Option<&'a SoundboardSpec>,
    /// The clock whose trains lift the hammers, if any.
    pub clock: Option<&'a ClockSpec>,
    /// The celesta action, dampers and boxes that serve them, if any.
    pub celesta: Option<&'a CelestaSpec>,
}

/// Resolves the interactions among `objects`, checking the strike's anchors
/// with `root` (the checker at the preset's root).
///
/// The engine plays one hammer set striking one resonator set; dampers, an
/// action and a soundboard may each join them once. Every object must take part.
pub(super) fn resolve<'a>(
    objects: BTreeMap<&'a str, Object<'a>>,
    strikes: &'a [StrikeSpec],
    root: &Checker,
) -> Result<Topology<'a>, PresetError> {
    let topology = |message: String| PresetError::Topology(message);
    let [strike] = strikes else {
        return Err(topology(format!(
            "the engine plays one hammer set striking one resonator, so exactly one \
             [[strike]] is needed (found {})",
            strikes.len()
        )));
    };
    let object = |role: &str, name: &str| {
        objects.get(name).copied().ok_or_else(|| {
            topology(format!(
                "{role} names `{name}`, but no object has that name"
            ))
        })
    };
    let hammers = match object("strike:hammers", &strike.hammers)? {
        Object::FeltHammers(set) => set,
        other => {
            return Err(topology(format!(
                "strike:hammers `{}` is a {}, not felt-hammers",
                strike.hammers,
                other.kind()
            )));
        }
    };
    let string = (0.01, 0.5, "0.01 to 0.5 of a string");
    let bar = (0.01, 0.99, "0.01 to 0.99 of a bar");
    let (resonators, (min_position, max_position, positions)) =
        match object("strike:target", &strike.target)? {
            Object::StiffStrings(set) => (Resonators::Strings(set), string),
            Object::FreeFreeBars(set) => (Resonators::Bars(set, BarEnds::FreeFree), bar),
            Object::ClampedFreeBars(set) => (Resonators::Bars(set, BarEnds::ClampedFree), bar),
            // A pin bends its tine by the lift where it meets it, and the tip
            // swings by that bend times the length's ratio to the pin's distance
            // from the clamp, cubed and more: met nearer the clamp than half its
            // length, a tine would be bent far past what steel bears (and swing
            // at tens of metres per second).
            Object::MusicBox(spec) => (
                Resonators::Comb(spec),
                (
                    MIN_PIN_POSITION,
                    0.99,
                    "0.5 to 0.99 of a tine: pins pluck near the tip",
                ),
            ),
            other => {
                return Err(topology(format!(
                    "strike:target `{}` is a {}, which cannot be struck",
                    strike.target,
                    other.kind()
                )));
            }
        };
    root.child("strike").each_anchor(&strike.anchor, |c, a| {
        c.range(
            "position",
            a.position,
            min_position,
            max_position,
            positions,
        )
    })?;

    let mut found = Topology {
        resonators,
        hammers,
        strike,
        dampers: None,
        action: None,
        soundboard: None,
        clock: None,
        celesta: None,
    };
    for (name, object) in objects {
        let (role, link, target) = match object {
            Object::Dampers(set) => ("on", &set.on, &strike.target),
            Object::GrandAction(spec) => ("drives", &spec.drives, &strike.hammers),
            Object::Soundboard(spec) => ("driven_by", &spec.driven_by, &strike.target),
            Object::Clock(spec) => ("drives", &spec.drives, &strike.hammers),
            Object::Celesta(spec) => ("drives", &spec.drives, &strike.hammers),
            _ if name == strike.hammers || name == strike.target => continue,
            other => {
                return Err(topology(format!(
                    "[{}.{name}] takes part in no [[strike]]",
                    other.kind()
                )));
            }
        };
        if link != target {
            return Err(topology(format!(
                "{name}:{role} names `{link}`, but it must be `{target}`, \
                 the strike's {}",
                if target == &strike.target {
                    "target"
                } else {
                    "hammers"
                }
            )));
        }
        let slot_taken = match object {
            Object::Dampers(set) => {
                if matches!(resonators, Resonators::Bars(..)) {
                    return Err(topology(format!(
                        "[dampers.{name}] can only press on stiff-strings"
                    )));
                }
                found.dampers.replace(set).is_some()
            }
            Object::GrandAction(spec) => found.action.replace(spec).is_some(),
            Object::Soundboard(spec) => found.soundboard.replace(spec).is_some(),
            Object::Clock(spec) => found.clock.replace(spec).is_some(),
            Object::Celesta(spec) => {
                if !matches!(resonators, Resonators::Bars(_, BarEnds::FreeFree)) {
                    return Err(topology(format!(
                        "[celesta.{name}] plays free-free-bars only"
                    )));
                }
                found.celesta.replace(spec).is_some()
            }
            _ => false,
        };
        if slot_taken {
            return Err(topology(format!(
                "[{}.{name}]: only one {} may join a strike",
                object.kind(),
                object.kind()
            )));
        }
    }
    Ok(found)
}
