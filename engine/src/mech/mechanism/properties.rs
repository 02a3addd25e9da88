//! Property access by path (ArtiSynth style) for a mechanism, with a static
//! table of every property's range, unit and meaning.
//!
//! Paths: `parts/<part>:<property>`, `springs/<spring>:<property>`,
//! `contact:<property>`. Only moving parts have properties.

use super::runtime::Mechanism;
use crate::props::{PropertyAccess, PropertyError};
use crate::props::{PropertyInfo as TreeInfo, PropertyTree};

/// Which component a property belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Component {
    /// `parts/<name>`.
    Part,
    /// `springs/<name>`.
    Spring,
    /// `contact`.
    Contact,
    /// `energy`: derived, read-only.
    Energy,
}

/// Static description of one property.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PropertyInfo {
    /// The component kind.
    pub component: Component,
    /// The name after `:`.
    pub name: &'static str,
    /// Unit.
    pub unit: &'static str,
    /// What it is.
    pub description: &'static str,
    /// Smallest allowed value.
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
}

const INF: f64 = f64::INFINITY;

/// Every property a mechanism has.
pub const PROPERTIES: &[PropertyInfo] = &[
    PropertyInfo {
        component: Component::Part,
        name: "position",
        unit: "rad (revolute) or u (prismatic)",
        description: "position relative to the drawn pose",
        min: -1e9,
        max: 1e9,
    },
    PropertyInfo {
        component: Component::Part,
        name: "velocity",
        unit: "rad/s or u/s",
        description: "rate of change of position",
        min: -1e9,
        max: 1e9,
    },
    PropertyInfo {
        component: Component::Part,
        name: "inertia",
        unit: "mass·u² (revolute) or mass (prismatic)",
        description: "moment of inertia about the pivot, or mass",
        min: 1e-12,
        max: INF,
    },
    PropertyInfo {
        component: Component::Part,
        name: "friction",
        unit: "torque per rad/s or force per u/s",
        description: "viscous friction with the frame",
        min: 0.0,
        max: INF,
    },
    PropertyInfo {
        component: Component::Spring,
        name: "stiffness",
        unit: "torque per rad or force per u",
        description: "spring constant k",
        min: 0.0,
        max: INF,
    },
    PropertyInfo {
        component: Component::Spring,
        name: "relaxed",
        unit: "rad or u",
        description: "position where the spring exerts no force",
        min: -1e9,
        max: 1e9,
    },
    PropertyInfo {
        component: Component::Contact,
        name: "stiffness",
        unit: "force/u",
        description: "E of Eq. (4): force per unit overlap",
        min: 1e-12,
        max: INF,
    },
    PropertyInfo {
        component: Component::Contact,
        name: "damping",
        unit: "force·s/u² per M",
        description: "D of Eq. (4)",
        min: 0.0,
        max: INF,
    },
    PropertyInfo {
        component: Component::Contact,
        name: "damping_scale",
        unit: "1/u",
        description: "M of Eq. (4): damping grows with overlap",
        min: 0.0,
        max: INF,
    },
    PropertyInfo {
        component: Component::Energy,
        name: "kinetic",
        unit: "inertia·rad²/s² (J in SI units)",
        description: "kinetic energy of all moving parts (read-only)",
        min: 0.0,
        max: INF,
    },
];

/// The table entry for a component kind and property name.
pub fn info(component: Component, name: &str) -> Option<&'static PropertyInfo> {
    PROPERTIES
        .iter()
        .find(|p| p.component == component && p.name == name)
}

/// What a resolved property path belongs to: a part or a spring (by index),
/// the contact model, or the whole mechanism's energy.
enum PropertyOwner {
    Part(usize),
    Spring(usize),
    Contact,
    Energy,
}

impl Mechanism {
    fn resolve(&self, path: &str) -> Option<(PropertyOwner, &'static PropertyInfo)> {
        let (component, name) = path.split_once(':')?;
        let s = &self.structure;
        let (target, kind) = if component == "contact" {
            (PropertyOwner::Contact, Component::Contact)
        } else if component == "energy" {
            (PropertyOwner::Energy, Component::Energy)
        } else if let Some(part) = component.strip_prefix("parts/") {
            let i = s
                .parts
                .iter()
                .position(|p| p.name == part && p.subsystem.is_some())?;
            (PropertyOwner::Part(i), Component::Part)
        } else if let Some(spring) = component.strip_prefix("springs/") {
            let i = s.springs.iter().position(|p| p.name == spring)?;
            (PropertyOwner::Spring(i), Component::Spring)
        } else {
            return None;
        };
        Some((target, info(kind, name)?))
    }

    /// Every property path of this mechanism, in a stable order.
    pub fn property_paths(&self) -> Vec<String> {
        let s = &self.structure;
        let mut out = Vec::new();
        for p in s.parts.iter().filter(|p| p.subsystem.is_some()) {
            for i in PROPERTIES.iter().filter(|i| i.component == Component::Part) {
                out.push(format!("parts/{}:{}", p.name, i.name));
            }
        }
        for sp in &s.springs {
            for i in PROPERTIES
                .iter()
                .filter(|i| i.component == Component::Spring)
            {
                out.push(format!("springs/{}:{}", sp.name, i.name));
            }
        }
        for i in PROPERTIES
            .iter()
            .filter(|i| i.component == Component::Contact)
        {
            out.push(format!("contact:{}", i.name));
        }
        for i in PROPERTIES
            .iter()
            .filter(|i| i.component == Component::Energy)
        {
            out.push(format!("energy:{}", i.name));
        }
        out
    }

    /// Declares this mechanism's settable properties in `tree` under the
    /// component `root` (e.g. `escapement/parts/balance:inertia`), each with its
    /// range, unit and description and its present value as an explicit value:
    /// the tree presets, the editor and host automation address.
    pub fn declare_properties(&self, root: &str, tree: &mut PropertyTree) {
        tree.add_component(root);
        for path in self.property_paths() {
            let Some((target, info)) = self.resolve(&path) else {
                continue;
            };
            if matches!(target, PropertyOwner::Energy) {
                continue;
            }
            let (component, name) = path.split_once(':').unwrap_or((&path, ""));
            let value = self.property(&path).unwrap_or(f64::NAN);
            let declared =
                TreeInfo::new(name, info.description, info.unit, info.min, info.max, value);
            tree.declare(&format!("{root}/{component}"), declared);
        }
    }

    /// Angle of part `p` in degrees if it turns, else its position in u.
    pub fn part_position_display(&self, p: &str) -> Option<f64> {
        let i = self.structure.parts.iter().position(|x| x.name == p)?;
        let x = self.property(&format!("parts/{p}:position"))?;
        Some(if self.is_revolute(i) {
            x.to_degrees()
        } else {
            x
        })
    }
}

impl PropertyAccess for Mechanism {
    fn property(&self, path: &str) -> Option<f64> {
        let (target, info) = self.resolve(path)?;
        let s = &self.structure;
        Some(match target {
            PropertyOwner::Part(i) => {
                let part = &s.parts[i];
                let (k, f) = part.subsystem?;
                match info.name {
                    "position" => f * self.q[k],
                    "velocity" => f * self.v[k],
                    "inertia" => part.inertia,
                    _ => part.friction,
                }
            }
            PropertyOwner::Spring(i) => match info.name {
                "stiffness" => s.springs[i].stiffness,
                _ => s.springs[i].relaxed,
            },
            PropertyOwner::Contact => match info.name {
                "stiffness" => s.contact.stiffness,
                "damping" => s.contact.damping,
                _ => s.contact.damping_scale,
            },
            PropertyOwner::Energy => self.kinetic_energy(),
        })
    }

    fn set_property(&mut self, path: &str, value: f64) -> Result<(), PropertyError> {
        let (target, info) = self
            .resolve(path)
            .ok_or_else(|| PropertyError::UnknownPath(path.to_owned()))?;
        if matches!(target, PropertyOwner::Energy) {
            return Err(PropertyError::ReadOnly(path.to_owned()));
        }
        if !(value >= info.min && value <= info.max) {
            return Err(PropertyError::OutOfRange {
                path: path.to_owned(),
                value,
                min: info.min,
                max: info.max,
            });
        }
        let s = &mut self.structure;
        match target {
            PropertyOwner::Part(i) => {
                let Some((k, f)) = s.parts[i].subsystem else {
                    return Err(PropertyError::UnknownPath(path.to_owned()));
                };
                match info.name {
                    "position" => self.q[k] = value / f,
                    "velocity" => self.v[k] = value / f,
                    "inertia" => s.parts[i].inertia = value,
                    _ => s.parts[i].friction = value,
                }
                s.refresh_subsystems();
            }
            PropertyOwner::Spring(i) => match info.name {
                "stiffness" => s.springs[i].stiffness = value,
                _ => s.springs[i].relaxed = value,
            },
            PropertyOwner::Contact => match info.name {
                "stiffness" => s.contact.stiffness = value,
                "damping" => s.contact.damping = value,
                _ => s.contact.damping_scale = value,
            },
            // Derived, refused above.
            PropertyOwner::Energy => {}
        }
        Ok(())
    }
}
