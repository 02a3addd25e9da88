//! A mechanism described as data (Gelsey, Section 2): parts built from blocks and
//! discs in 2.5-D, their pairs with the frame, gears, springs and contact
//! constants. Read from TOML with serde.
//!
//! Units: lengths in the description's own length unit (Gelsey's drawings use an
//! unnamed unit; call it "u"), inertia in mass·u² (revolute) or mass (prismatic),
//! time in seconds. **Angles in the description are degrees** (`*_deg` fields, and
//! the `position` and `relaxed` values of revolute parts), as in Gelsey's
//! Figs. 12–13. The running mechanism and its properties use radians.
//!
//! A description may name a built-in mechanism as its `base` (`base =
//! "escapement"`) and give only what it changes: see
//! [`MechanismDescription::from_toml`].

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};

/// A whole mechanism.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MechanismDescription {
    /// Display name.
    pub name: String,
    /// One line on what it is.
    #[serde(default)]
    pub description: String,
    /// Gelsey's penalty contact constants (Eq. 4).
    pub contact: ContactDescription,
    /// The parts, fixed (frame) or moving.
    #[serde(rename = "part")]
    pub parts: Vec<PartDescription>,
    /// Gear pairs binding two moving parts into one degree of freedom.
    #[serde(rename = "gear", default)]
    pub gears: Vec<GearDescription>,
    /// Linear springs between a moving part and the frame.
    #[serde(rename = "spring", default)]
    pub springs: Vec<SpringDescription>,
    /// How long a run must be to show the mechanism's long-term behaviour
    /// (s): `orchard analyze` simulates this long unless told otherwise. A
    /// clock that chimes every few minutes needs several minutes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis_duration_s: Option<f64>,
}

/// The penalty model of Eq. (4): `l = E·o + D·ȯ·M·o` for overlap `o > 0`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContactDescription {
    /// `E`, force per unit overlap (force/u).
    pub stiffness: f64,
    /// `D`, damping coefficient (force·s/u² once multiplied by `M`).
    pub damping: f64,
    /// `M`, the factor that scales damping with overlap (1/u).
    pub damping_scale: f64,
}

/// One part: its shape, its pair with the frame and its physical data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartDescription {
    /// Unique name; also the property path component `parts/<name>`.
    pub name: String,
    /// How the part is held by the frame.
    pub pair: PairDescription,
    /// Moment of inertia about the pivot (mass·u², revolute) or mass (prismatic).
    /// Ignored for frame parts.
    #[serde(default)]
    pub inertia: f64,
    /// Viscous friction with the frame: torque per rad/s (revolute) or force per
    /// u/s (prismatic).
    #[serde(default)]
    pub friction: f64,
    /// Initial position relative to the drawn pose: degrees (revolute) or u
    /// (prismatic). Ignored for a part driven by a gear: it follows its driver.
    #[serde(default)]
    pub position: f64,
    /// Initial velocity: degrees/s (revolute) or u/s (prismatic).
    #[serde(default)]
    pub velocity: f64,
    /// Rectangles (PADL-2 `blo`), each with its corner at the origin before its
    /// transform.
    #[serde(rename = "block", default)]
    pub blocks: Vec<BlockDescription>,
    /// Discs (PADL-2 `cyl`), centred on the origin before their transform.
    #[serde(rename = "disc", default)]
    pub discs: Vec<DiscDescription>,
}

/// The lower pair a part forms with the frame (one degree of freedom), or none.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, tag = "kind", rename_all = "snake_case")]
pub enum PairDescription {
    /// Part of the frame: never moves.
    Frame,
    /// Turns about a fixed axis through `pivot` (u).
    Revolute {
        /// The axis' position in the drawing (u).
        #[serde(deserialize_with = "pair")]
        pivot: [f64; 2],
    },
    /// Slides along a fixed direction.
    Prismatic {
        /// Direction of positive motion, degrees from the x axis.
        axis_deg: f64,
    },
}

/// A transform step, applied in order like PADL-2's `at (...)` lists.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub enum Step {
    /// Rotate about the origin, degrees counter-clockwise (`degz`).
    RotateDeg(f64),
    /// Translate by (x, y) in u (`movx`, `movy`).
    Move(#[serde(deserialize_with = "pair")] [f64; 2]),
}

/// A rectangle from (0, 0) to `size`, then transformed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockDescription {
    /// Side lengths along x and y (u).
    #[serde(deserialize_with = "pair")]
    pub size: [f64; 2],
    /// Extent along z (u): parts interact only where these overlap.
    #[serde(default = "default_z", deserialize_with = "pair")]
    pub z: [f64; 2],
    /// Transform steps, in order.
    #[serde(default)]
    pub at: Vec<Step>,
    /// Copies rotated about the origin after `at` (teeth of a wheel).
    #[serde(default)]
    pub pattern: Option<Pattern>,
}

/// A disc of diameter `diameter`, centred on the origin, then transformed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiscDescription {
    /// Diameter (u).
    pub diameter: f64,
    /// Extent along z (u).
    #[serde(default = "default_z", deserialize_with = "pair")]
    pub z: [f64; 2],
    /// Transform steps, in order.
    #[serde(default)]
    pub at: Vec<Step>,
    /// Copies rotated about the origin after `at`.
    #[serde(default)]
    pub pattern: Option<Pattern>,
}

/// `count` copies, the k-th rotated by `k·step_deg` about the origin.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pattern {
    /// Number of copies, including the first.
    pub count: usize,
    /// Angle between copies, degrees.
    pub step_deg: f64,
}

/// Reads exactly two numbers, `[x, y]`: more or fewer are an error naming
/// how many there were.
fn pair<'de, D: Deserializer<'de>>(deserializer: D) -> Result<[f64; 2], D::Error> {
    let values = Vec::<f64>::deserialize(deserializer)?;
    <[f64; 2]>::try_from(values.as_slice())
        .map_err(|_| D::Error::invalid_length(values.len(), &"two numbers"))
}

fn default_z() -> [f64; 2] {
    [0.0, 1.0]
}

/// A gear pair (Gelsey's Algorithm 7): `driven`'s position is `ratio` times
/// `driver`'s (both measured from their drawn poses).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GearDescription {
    /// A moving part.
    pub driver: String,
    /// Another moving part, bound to `driver`.
    pub driven: String,
    /// d(driven)/d(driver), dimensionless; negative for an external mesh
    /// (−r_driver/r_driven).
    pub ratio: f64,
}

/// A linear spring between a moving part and the frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpringDescription {
    /// Unique name; the property path component `springs/<name>`.
    pub name: String,
    /// The moving part it acts on.
    pub part: String,
    /// Torque per radian (revolute) or force per u (prismatic).
    pub stiffness: f64,
    /// Position where it exerts no force: degrees (revolute) or u (prismatic).
    pub relaxed: f64,
}

/// Most `base` links followed from one description (a base may have a base).
const MAX_BASE_DEPTH: usize = 4;

impl MechanismDescription {
    /// Parses a TOML description; the error names the offending field.
    ///
    /// A description with `base = "NAME"` (a built-in mechanism, see
    /// [`super::builtin`]) is that mechanism changed by what it gives: a
    /// `[[part]]` or `[[spring]]` with the name of one of the base's
    /// replaces it whole, in its place, and a new name is added after the
    /// base's; `[[gear]]`s are added; `contact` and the other top-level
    /// values replace the base's. So a variant of Gelsey's escapement with
    /// another escape wheel holds only its wheel.
    pub fn from_toml(text: &str) -> Result<Self, String> {
        let table = match toml::from_str::<toml::Table>(text) {
            Ok(table) if table.contains_key("base") => table,
            _ => return toml::from_str(text).map_err(|e| crate::input::toml_error(text, &e)),
        };
        let merged = resolve(table, MAX_BASE_DEPTH)?;
        toml::Value::Table(merged)
            .try_into()
            .map_err(|e: toml::de::Error| crate::input::toml_error("", &e))
    }
}

/// `table` with its `base` chain merged in, `depth` links at most.
fn resolve(mut table: toml::Table, depth: usize) -> Result<toml::Table, String> {
    let Some(base) = table.remove("base") else {
        return Ok(table);
    };
    let Some(name) = base.as_str() else {
        return Err(format!(
            "`base` must be the name of a built-in mechanism, not a {}",
            base.type_str()
        ));
    };
    let Some(text) = super::builtin(name) else {
        return Err(format!(
            "`base` = \"{}\" is not a built-in mechanism (built in: {})",
            crate::input::name(name),
            super::BUILTIN_NAMES.join(", ")
        ));
    };
    if depth == 0 {
        return Err(format!(
            "`base` = \"{}\": more than {MAX_BASE_DEPTH} bases in a chain",
            crate::input::name(name)
        ));
    }
    let base = toml::from_str::<toml::Table>(text)
        .map_err(|e| format!("base `{name}`: {}", crate::input::toml_error(text, &e)))?;
    let mut merged = resolve(base, depth - 1)?;
    for (key, value) in table {
        match (key.as_str(), value) {
            ("part" | "spring", toml::Value::Array(items)) => {
                let list = merged
                    .entry(key.clone())
                    .or_insert_with(|| toml::Value::Array(Vec::new()));
                let Some(list) = list.as_array_mut() else {
                    return Err(format!("`{key}` of base `{name}` is not a list"));
                };
                for item in items {
                    let named = item.get("name").cloned();
                    let same = |other: &&mut toml::Value| {
                        named.is_some() && other.get("name") == named.as_ref()
                    };
                    match list.iter_mut().find(same) {
                        Some(slot) => *slot = item,
                        None => list.push(item),
                    }
                }
            }
            ("gear", toml::Value::Array(items)) => {
                match merged
                    .entry(key)
                    .or_insert_with(|| toml::Value::Array(Vec::new()))
                {
                    toml::Value::Array(list) => list.extend(items),
                    _ => return Err(format!("`gear` of base `{name}` is not a list")),
                }
            }
            (_, value) => {
                merged.insert(key, value);
            }
        }
    }
    Ok(merged)
}
