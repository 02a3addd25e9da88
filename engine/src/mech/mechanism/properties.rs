//! Property access by path (ArtiSynth style) for a mechanism, with a static
//! table of every property's declaration: range, unit and meaning.
//!
//! Paths: `parts/<part>:<property>`, `springs/<spring>:<property>`,
//! `contact:<property>`. Only moving parts have properties.

use super::runtime::Mechanism;
use crate::props::{
    Declaration, DeclaredRange, PropertyAccess, PropertyError, PropertyInfo, PropertyTree,
};

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

/// One property a mechanism's components have: which kind of component,
/// and its declaration. Every one changes live (the worker edits the
/// running mechanism), except the derived energy, which is read-only.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MechanismProperty {
    /// The component kind.
    pub component: Component,
    /// What it is: name after `:`, unit, range, description.
    pub declaration: Declaration,
}

const INF: f64 = f64::INFINITY;

/// A property of `component` kinds, changed live, within `min..=max`.
const fn property(
    component: Component,
    name: &'static str,
    unit: &'static str,
    description: &'static str,
    (min, max, text): (f64, f64, &'static str),
) -> MechanismProperty {
    MechanismProperty {
        component,
        declaration: Declaration::real(name, unit, description)
            .within(DeclaredRange { min, max, text })
            .changed_live(),
    }
}

/// Every property a mechanism has.
pub const PROPERTIES: &[MechanismProperty] = &[
    property(
        Component::Part,
        "position",
        "rad (revolute) or u (prismatic)",
        "position relative to the drawn pose",
        (-1e9, 1e9, "-1e9 to 1e9"),
    ),
    property(
        Component::Part,
        "velocity",
        "rad/s or u/s",
        "rate of change of position",
        (-1e9, 1e9, "-1e9 to 1e9"),
    ),
    property(
        Component::Part,
        "inertia",
        "mass·u² (revolute) or mass (prismatic)",
        "moment of inertia about the pivot, or mass",
        (1e-12, INF, "at least 1e-12"),
    ),
    property(
        Component::Part,
        "friction",
        "torque per rad/s or force per u/s",
        "viscous friction with the frame",
        (0.0, INF, "at least 0"),
    ),
    property(
        Component::Spring,
        "stiffness",
        "torque per rad or force per u",
        "spring constant k",
        (0.0, INF, "at least 0"),
    ),
    property(
        Component::Spring,
        "relaxed",
        "rad or u",
        "position where the spring exerts no force",
        (-1e9, 1e9, "-1e9 to 1e9"),
    ),
    property(
        Component::Contact,
        "stiffness",
        "force/u",
        "E of Eq. (4): force per unit overlap",
        (1e-12, INF, "at least 1e-12"),
    ),
    property(
        Component::Contact,
        "damping",
        "force·s/u² per M",
        "D of Eq. (4)",
        (0.0, INF, "at least 0"),
    ),
    property(
        Component::Contact,
        "damping_scale",
        "1/u",
        "M of Eq. (4): damping grows with overlap",
        (0.0, INF, "at least 0"),
    ),
    property(
        Component::Energy,
        "kinetic",
        "inertia·rad²/s² (J in SI units)",
        "kinetic energy of all moving parts (read-only)",
        (0.0, INF, "at least 0"),
    ),
];

/// The table entry for a component kind and property name.
pub fn info(component: Component, name: &str) -> Option<&'static Declaration> {
    PROPERTIES
        .iter()
        .find(|p| p.component == component && p.declaration.name == name)
        .map(|p| &p.declaration)
}

/// The properties of `component` kinds.
fn of_kind(component: Component) -> impl Iterator<Item = &'static Declaration> {
    PROPERTIES
        .iter()
        .filter(move |p| p.component == component)
        .map(|p| &p.declaration)
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
    fn resolve(&self, path: &str) -> Option<(PropertyOwner, &'static Declaration)> {
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
            for i in of_kind(Component::Part) {
                out.push(format!("parts/{}:{}", p.name, i.name));
            }
        }
        for sp in &s.springs {
            for i in of_kind(Component::Spring) {
                out.push(format!("springs/{}:{}", sp.name, i.name));
            }
        }
        for i in of_kind(Component::Contact) {
            out.push(format!("contact:{}", i.name));
        }
        for i in of_kind(Component::Energy) {
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
            let (component, _) = path.split_once(':').unwrap_or((&path, ""));
            let value = self.property(&path).unwrap_or(f64::NAN);
            let declared = PropertyInfo::declared(*info);
            tree.declare(&format!("{root}/{component}"), declared, value);
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
        PropertyInfo::declared(*info).check(path, value)?;
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
