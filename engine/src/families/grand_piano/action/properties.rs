//! The action's property table: each numeric setting under `action:NAME` with
//! its range, unit and description, and property access by path (the pedals
//! under `pedals:`).

use crate::mech::model::{PropertyAccess, PropertyError};
use crate::mech::property::{PropertyInfo, PropertyTree};

use super::Action;

/// One of the action's numeric properties (path `action:NAME`).
struct ActionProperty {
    name: &'static str,
    min: f64,
    max: f64,
    unit: &'static str,
    description: &'static str,
}

const fn property(
    name: &'static str,
    min: f64,
    max: f64,
    unit: &'static str,
    description: &'static str,
) -> ActionProperty {
    ActionProperty {
        name,
        min,
        max,
        unit,
        description,
    }
}

/// The action's numeric properties.
const PROPERTIES: &[ActionProperty] = &[
    property(
        "blow_distance",
        0.01,
        0.1,
        "m",
        "hammer travel from rest to string",
    ),
    property(
        "let_off",
        0.0005,
        0.01,
        "m",
        "distance from the string where the jack lets go",
    ),
    property(
        "check_drop",
        0.002,
        0.04,
        "m",
        "how far below the string the check catches the hammer",
    ),
    property(
        "softest_speed",
        0.05,
        10.0,
        "m/s",
        "hammer speed at velocity 1",
    ),
    property(
        "hardest_speed",
        0.1,
        20.0,
        "m/s",
        "hammer speed at velocity 127",
    ),
    property(
        "curve",
        0.2,
        5.0,
        "",
        "velocity curve exponent (1: geometric)",
    ),
    property(
        "restitution",
        0.0,
        0.95,
        "",
        "rebound speed over strike speed when the strings report none",
    ),
    property(
        "key_return_s",
        0.005,
        0.5,
        "s",
        "time for a released key to rise",
    ),
    property(
        "repetition_rise",
        0.0,
        1.0,
        "",
        "fraction of the dip a key must rise to repeat",
    ),
    property(
        "damper_travel_s",
        0.0005,
        0.1,
        "s",
        "time a damper takes to travel fully",
    ),
    property(
        "realistic_travel",
        0.0,
        1.0,
        "",
        "1: simulate the whole key stroke; 0: throw from let-off",
    ),
];

impl Action {
    /// The range (min, max) of the numeric property at `path` (`action:NAME`),
    /// if there is one.
    pub fn property_range(path: &str) -> Option<(f64, f64)> {
        let name = path.strip_prefix("action:")?;
        let p = PROPERTIES.iter().find(|p| p.name == name)?;
        Some((p.min, p.max))
    }

    /// Declares the action's properties under component `action` of `tree`,
    /// with their present values as defaults.
    pub fn declare_properties(&self, tree: &mut PropertyTree) {
        tree.add_component("action");
        for p in PROPERTIES {
            let path = format!("action:{}", p.name);
            let default = self.property(&path).unwrap_or(p.min);
            tree.declare(
                "action",
                PropertyInfo::new(p.name, p.description, p.unit, p.min, p.max, default),
            );
        }
    }
}

impl PropertyAccess for Action {
    fn property(&self, path: &str) -> Option<f64> {
        let s = &self.settings;
        match path {
            "pedals:sustain" => return Some(self.pedals.sustain),
            "pedals:una_corda" => return Some(self.pedals.una_corda),
            _ => {}
        }
        Some(match path.strip_prefix("action:")? {
            "blow_distance" => s.blow_distance,
            "let_off" => s.let_off,
            "check_drop" => s.check_drop,
            "softest_speed" => s.velocity.softest_speed_m_s,
            "hardest_speed" => s.velocity.hardest_speed_m_s,
            "curve" => s.velocity.curve,
            "restitution" => s.restitution,
            "key_return_s" => s.key_return_s,
            "repetition_rise" => s.repetition_rise,
            "damper_travel_s" => s.damper_travel_s,
            "realistic_travel" => f64::from(u8::from(s.realistic_travel)),
            _ => return None,
        })
    }

    fn set_property(&mut self, path: &str, value: f64) -> Result<(), PropertyError> {
        let (min, max) = Self::property_range(path)
            .ok_or_else(|| PropertyError::UnknownPath(path.to_string()))?;
        let name = path.strip_prefix("action:").unwrap_or(path);
        if !(value >= min && value <= max) {
            return Err(PropertyError::OutOfRange {
                path: path.to_string(),
                value,
                min,
                max,
            });
        }
        let s = &mut self.settings;
        match name {
            "blow_distance" => s.blow_distance = value,
            "let_off" => s.let_off = value,
            "check_drop" => s.check_drop = value,
            "softest_speed" => s.velocity.softest_speed_m_s = value,
            "hardest_speed" => s.velocity.hardest_speed_m_s = value,
            "curve" => s.velocity.curve = value,
            "restitution" => s.restitution = value,
            "key_return_s" => s.key_return_s = value,
            "repetition_rise" => s.repetition_rise = value,
            "damper_travel_s" => s.damper_travel_s = value,
            _ => s.realistic_travel = value >= 0.5,
        }
        Ok(())
    }
}
