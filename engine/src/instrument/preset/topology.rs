//! The interaction topology: which hammers strike which resonator, where, and
//! which other objects (dampers, an action, a body, a clock's trains) join
//! them. Resolved for any object kinds: each object says whether it can be
//! struck ([`ObjectSpec::struck`]) and what it acts on ([`ObjectSpec::link`]).

use super::check::Checker;
use super::error::PresetError;
use super::hammers::HammerSet;
use super::object::{ObjectSpec, StrikePart, Topology};
use super::objects::Objects;
use super::strike::StrikeSpec;

/// Resolves the strike and what joins it, checking the strike's anchors
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
    if target.struck().is_none() {
        return Err(topology(format!(
            "strike:target `{}` is a {}, which cannot be struck",
            strike.target,
            target.kind()
        )));
    }
    // The positions' range is the target's rule: a bound (`Preset::bounds`).
    root.child("strike")
        .each_anchor(&strike.anchor, |c, a| c.declared_anchor(a))?;

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
