//! The interaction topology: which hammers strike which resonator, where, and
//! which other objects (dampers, an action, a body, a clock's trains) join
//! them. Resolved for any object kinds: each object says whether it can be
//! struck ([`ObjectSpec::struck`]) and what it acts on ([`ObjectSpec::link`]).

use serde::{Deserialize, Serialize};

use super::PresetError;
use super::anchored::{Anchored, value_at};
use super::bars::{BarEnds, BarSet};
use super::check::Checker;
use super::hammers::HammerSet;
use super::object::{ObjectSpec, StrikePart};
use super::objects::Objects;
use super::strings::StringSet;

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

/// A preset's objects resolved through its interactions: what the engine builds.
#[derive(Debug, Clone)]
pub struct Topology<'a> {
    /// The hammers that strike.
    pub hammers: &'a HammerSet,
    /// Where.
    pub strike: &'a StrikeSpec,
    /// What they strike (strings, bars, a comb of tines).
    pub target: &'a dyn ObjectSpec,
    /// Every other object, each joined to the hammers or the target, by
    /// name (at most one of each kind).
    pub joined: Vec<(&'a str, &'a dyn ObjectSpec)>,
}

impl<'a> Topology<'a> {
    /// The struck object as a `T`, if it is one.
    pub fn target_as<T: 'static>(&self) -> Option<&'a T> {
        self.target.downcast_ref()
    }

    /// The joined object that is a `T`, if there is one.
    pub fn joined<T: 'static>(&self) -> Option<&'a T> {
        self.joined
            .iter()
            .find_map(|(_, object)| object.downcast_ref::<T>())
    }

    /// The struck strings, if strings are struck.
    pub fn strings(&self) -> Option<&'a StringSet> {
        self.target_as()
    }

    /// The struck bars and how they are held, if bars are struck.
    pub fn bars(&self) -> Option<(&'a BarSet, BarEnds)> {
        self.target_as::<BarSet>().map(|bars| (bars, bars.ends))
    }
}

/// Resolves the strike and what joins it, checking the strike positions
/// with `root` (the checker at the preset's root): exactly one strike, its
/// hammers felt hammers and its target an object that can be struck, and
/// every other object joined to one of them through its link, at most one
/// of each kind.
pub(super) fn resolve<'a>(
    objects: &'a Objects,
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
        objects.get(name).ok_or_else(|| {
            topology(format!(
                "{role} names `{name}`, but no object has that name"
            ))
        })
    };
    let hammer_object = object("strike:hammers", &strike.hammers)?;
    let hammers = hammer_object.downcast_ref::<HammerSet>().ok_or_else(|| {
        topology(format!(
            "strike:hammers `{}` is a {}, not felt-hammers",
            strike.hammers,
            hammer_object.kind()
        ))
    })?;
    let target = object("strike:target", &strike.target)?;
    let positions = target.struck().ok_or_else(|| {
        topology(format!(
            "strike:target `{}` is a {}, which cannot be struck",
            strike.target,
            target.kind()
        ))
    })?;
    root.child("strike").each_anchor(&strike.anchor, |c, a| {
        c.range(
            "position",
            a.position,
            positions.min,
            positions.max,
            positions.text,
        )
    })?;

    let mut joined: Vec<(&str, &dyn ObjectSpec)> = Vec::new();
    for (name, object) in objects.iter() {
        if name == strike.hammers || name == strike.target {
            continue;
        }
        let Some(link) = object.link() else {
            return Err(topology(format!(
                "[{}.{name}] takes part in no [[strike]]",
                object.kind()
            )));
        };
        let (must_name, part) = match link.part {
            StrikePart::Hammers => (&strike.hammers, "hammers"),
            StrikePart::Target => (&strike.target, "target"),
        };
        if link.name != must_name.as_str() {
            return Err(topology(format!(
                "{name}:{} names `{}`, but it must be `{must_name}`, the strike's {part}",
                link.role, link.name
            )));
        }
        if joined
            .iter()
            .any(|(_, other)| other.kind() == object.kind())
        {
            return Err(topology(format!(
                "[{}.{name}]: only one {} may join a strike",
                object.kind(),
                object.kind()
            )));
        }
        joined.push((name, object));
    }
    Ok(Topology {
        hammers,
        strike,
        target,
        joined,
    })
}
