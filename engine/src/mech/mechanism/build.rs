//! From description to structure: validation (every error names what is wrong),
//! primitives, kinematic subsystems bound by gears (Gelsey's Algorithm 7) and
//! interaction pairs.

use std::fmt;

use parry2d_f64::math::Vector;

use super::description::{MechanismDescription, PairDescription, Pattern, Step};
use super::geometry::{Placement, Primitive};
use super::structure::{ContactConstants, Motion, Part, Spring, Structure, Subsystem};

/// Why a description could not be built.
#[derive(Debug, Clone, PartialEq)]
pub enum BuildError {
    /// The TOML did not parse; the message names the field.
    Parse(String),
    /// Two parts or two springs share a name.
    Duplicate(String),
    /// A spring or gear names a part that does not exist.
    MissingPart {
        /// The spring or gear (`springs/<name>` or `gears/<i>`).
        by: String,
        /// The name it used.
        part: String,
    },
    /// A spring or gear is attached to a frame part.
    FrameAttachment {
        /// The spring or gear.
        by: String,
        /// The frame part.
        part: String,
    },
    /// A value outside its allowed range.
    OutOfRange {
        /// Property path of the value (`parts/lever:inertia`).
        path: String,
        /// The value given.
        value: f64,
        /// What is allowed.
        allowed: &'static str,
    },
    /// A gear would bind two parts already bound (a loop), or a part to itself.
    GearLoop(String),
    /// A moving part without any primitive.
    NoShape(String),
}

/// Names and paths come from the description: each is quoted whole up to a
/// length ([`crate::input::name`]), so that an error stays one short line.
impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::input::{name as excerpt, number};
        match self {
            Self::Parse(m) => write!(f, "cannot read mechanism: {m}"),
            Self::Duplicate(n) => write!(f, "`{}` is defined twice", excerpt(n)),
            Self::MissingPart { by, part } => {
                let (by, part) = (excerpt(by), excerpt(part));
                write!(
                    f,
                    "`{by}` is attached to part `{part}`, which does not exist"
                )
            }
            Self::FrameAttachment { by, part } => {
                let (by, part) = (excerpt(by), excerpt(part));
                write!(
                    f,
                    "`{by}` is attached to `{part}`, which is part of the frame"
                )
            }
            Self::OutOfRange {
                path,
                value,
                allowed,
            } => {
                let (path, value) = (excerpt(path), number(*value));
                write!(f, "`{path}` = {value} is out of range (allowed: {allowed})")
            }
            Self::GearLoop(m) => write!(f, "gear loop: {m}"),
            Self::NoShape(n) => write!(f, "part `{}` has no block or disc", excerpt(n)),
        }
    }
}

impl std::error::Error for BuildError {}

fn check(path: String, value: f64, ok: bool, allowed: &'static str) -> Result<(), BuildError> {
    if ok && value.is_finite() {
        Ok(())
    } else {
        Err(BuildError::OutOfRange {
            path,
            value,
            allowed,
        })
    }
}

/// Most parts a mechanism may have (a clock has tens).
const MAX_PARTS: usize = 1000;
/// Most copies one pattern may make (a wheel's teeth).
const MAX_PATTERN_COPIES: usize = 1000;
/// Most blocks and discs a mechanism may have in all, after patterns.
const MAX_PRIMITIVES: usize = 20_000;

/// Checks a shape's transform steps (finite) and pattern (1 to
/// [`MAX_PATTERN_COPIES`] copies at a finite angle), before any copy is made;
/// `path` names the shape's property.
fn check_placement(
    path: &dyn Fn(&str) -> String,
    at: &[Step],
    pattern: Option<Pattern>,
) -> Result<(), BuildError> {
    for step in at {
        let (value, finite) = match *step {
            Step::RotateDeg(deg) => (deg, deg.is_finite()),
            Step::Move([x, y]) => (
                if x.is_finite() { y } else { x },
                x.is_finite() && y.is_finite(),
            ),
        };
        check(path("at"), value, finite, "finite steps")?;
    }
    if let Some(p) = pattern {
        check(
            path("pattern.count"),
            p.count as f64,
            (1..=MAX_PATTERN_COPIES).contains(&p.count),
            "1 to 1000 copies",
        )?;
        check(path("pattern.step_deg"), p.step_deg, true, "finite")?;
    }
    Ok(())
}

/// Checks that `pattern`'s copies, added to the `so_far` shapes made, stay
/// within [`MAX_PRIMITIVES`].
fn check_primitives(so_far: usize, pattern: Option<Pattern>) -> Result<(), BuildError> {
    let total = so_far + pattern.map_or(1, |p| p.count);
    check(
        "parts".into(),
        total as f64,
        total <= MAX_PRIMITIVES,
        "at most 20000 blocks and discs in all",
    )
}

fn copies(pattern: Option<Pattern>, base: Placement) -> Vec<Placement> {
    match pattern {
        None => vec![base],
        Some(p) => (0..p.count)
            .map(|k| base.then_rotate((k as f64 * p.step_deg).to_radians()))
            .collect(),
    }
}

/// Builds the structure and the initial subsystem positions and velocities.
pub fn build(d: &MechanismDescription) -> Result<(Structure, Vec<f64>, Vec<f64>), BuildError> {
    let c = &d.contact;
    check(
        "contact:stiffness".into(),
        c.stiffness,
        c.stiffness > 0.0,
        "> 0",
    )?;
    check(
        "contact:damping".into(),
        c.damping,
        c.damping >= 0.0,
        ">= 0",
    )?;
    let dm = c.damping_scale;
    check("contact:damping_scale".into(), dm, dm >= 0.0, ">= 0")?;
    if let Some(duration) = d.analysis_duration_s {
        check(
            "analysis_duration_s".into(),
            duration,
            duration > 0.0,
            "> 0",
        )?;
    }

    let count = d.parts.len();
    check(
        "parts".into(),
        count as f64,
        count <= MAX_PARTS,
        "at most 1000 parts",
    )?;
    let mut parts = Vec::with_capacity(count);
    let mut primitives = Vec::new();
    for (i, pd) in d.parts.iter().enumerate() {
        if d.parts[..i].iter().any(|o| o.name == pd.name) {
            return Err(BuildError::Duplicate(format!("parts/{}", pd.name)));
        }
        let path = |prop: &str| format!("parts/{}:{prop}", pd.name);
        let motion = match pd.pair {
            PairDescription::Frame => Motion::Frame,
            PairDescription::Revolute { pivot } => {
                check(path("pivot"), pivot[0] + pivot[1], true, "finite")?;
                Motion::Revolute {
                    pivot: Vector::new(pivot[0], pivot[1]),
                }
            }
            PairDescription::Prismatic { axis_deg } => {
                check(path("axis_deg"), axis_deg, true, "finite")?;
                let a = axis_deg.to_radians();
                Motion::Prismatic {
                    axis: Vector::new(a.cos(), a.sin()),
                }
            }
        };
        let moving = motion != Motion::Frame;
        if moving {
            check(path("inertia"), pd.inertia, pd.inertia > 0.0, "> 0")?;
            check(path("friction"), pd.friction, pd.friction >= 0.0, ">= 0")?;
            check(path("position"), pd.position, true, "finite")?;
            check(path("velocity"), pd.velocity, true, "finite")?;
        }
        let start = primitives.len();
        for (k, b) in pd.blocks.iter().enumerate() {
            let bp = |prop: &str| format!("parts/{}/blocks/{k}:{prop}", pd.name);
            check(bp("size"), b.size[0], b.size[0] > 0.0, "> 0")?;
            check(bp("size"), b.size[1], b.size[1] > 0.0, "> 0")?;
            check(bp("z"), b.z[1] - b.z[0], b.z[1] > b.z[0], "z[1] > z[0]")?;
            check_placement(&bp, &b.at, b.pattern)?;
            check_primitives(primitives.len(), b.pattern)?;
            for pl in copies(b.pattern, Placement::from_steps(&b.at)) {
                primitives.push(Primitive::block(i, b.size, b.z, pl));
            }
        }
        for (k, disc) in pd.discs.iter().enumerate() {
            let dp = |prop: &str| format!("parts/{}/discs/{k}:{prop}", pd.name);
            check(dp("diameter"), disc.diameter, disc.diameter > 0.0, "> 0")?;
            let dz = disc.z[1] - disc.z[0];
            check(dp("z"), dz, disc.z[1] > disc.z[0], "z[1] > z[0]")?;
            check_placement(&dp, &disc.at, disc.pattern)?;
            check_primitives(primitives.len(), disc.pattern)?;
            for pl in copies(disc.pattern, Placement::from_steps(&disc.at)) {
                primitives.push(Primitive::disc(i, disc.diameter, disc.z, pl));
            }
        }
        if moving && primitives.len() == start {
            return Err(BuildError::NoShape(pd.name.clone()));
        }
        let reach = match motion {
            Motion::Revolute { pivot } => primitives[start..]
                .iter()
                .map(|p| (p.placement.offset - pivot).length() + p.section.bounding_radius())
                .fold(0.0, f64::max),
            _ => 1.0,
        };
        parts.push(Part {
            name: pd.name.clone(),
            motion,
            inertia: pd.inertia,
            friction: pd.friction,
            subsystem: None,
            primitives: start..primitives.len(),
            reach,
        });
    }

    fn find(parts: &[Part], by: String, name: &str) -> Result<usize, BuildError> {
        let i =
            parts
                .iter()
                .position(|p| p.name == name)
                .ok_or_else(|| BuildError::MissingPart {
                    by: by.clone(),
                    part: name.to_owned(),
                })?;
        if parts[i].motion == Motion::Frame {
            return Err(BuildError::FrameAttachment {
                by,
                part: name.to_owned(),
            });
        }
        Ok(i)
    }

    // Algorithm 7, step 1: one elementary subsystem per part paired with the frame.
    let mut subsystems: Vec<Subsystem> = Vec::new();
    for (i, p) in parts.iter_mut().enumerate() {
        if p.motion != Motion::Frame {
            p.subsystem = Some((subsystems.len(), 1.0));
            subsystems.push(Subsystem {
                members: vec![(i, 1.0)],
                inertia: 0.0,
                friction: 0.0,
            });
        }
    }
    // Step 2: each gear pair makes the driven part's subsystem a child of the
    // driver's (the tree is flattened to factors relative to the root).
    for (g, gear) in d.gears.iter().enumerate() {
        let by = format!("gears/{g}");
        let a = find(&parts, by.clone(), &gear.driver)?;
        let b = find(&parts, by.clone(), &gear.driven)?;
        check(
            format!("{by}:ratio"),
            gear.ratio,
            gear.ratio != 0.0,
            "nonzero",
        )?;
        let (sa, fa) = parts[a].subsystem.unwrap_or((0, 1.0));
        let (sb, fb) = parts[b].subsystem.unwrap_or((0, 1.0));
        if sa == sb {
            return Err(BuildError::GearLoop(format!(
                "{by} binds `{}` and `{}`, already bound",
                crate::input::name(&gear.driver),
                crate::input::name(&gear.driven)
            )));
        }
        // x_b = ratio·x_a, x_a = fa·q_a, x_b = fb·q_b ⇒ q_b = (ratio·fa/fb)·q_a.
        let scale = gear.ratio * fa / fb;
        let moved = std::mem::take(&mut subsystems[sb].members);
        for &(p, f) in &moved {
            parts[p].subsystem = Some((sa, f * scale));
            subsystems[sa].members.push((p, f * scale));
        }
    }
    // Drop emptied subsystems and renumber.
    let mut renumber = vec![usize::MAX; subsystems.len()];
    let mut kept = Vec::new();
    for (s, sub) in subsystems.into_iter().enumerate() {
        if !sub.members.is_empty() {
            renumber[s] = kept.len();
            kept.push(sub);
        }
    }
    for p in &mut parts {
        if let Some((s, f)) = p.subsystem {
            p.subsystem = Some((renumber[s], f));
        }
    }

    let mut springs = Vec::with_capacity(d.springs.len());
    for (i, sd) in d.springs.iter().enumerate() {
        if d.springs[..i].iter().any(|o| o.name == sd.name) {
            return Err(BuildError::Duplicate(format!("springs/{}", sd.name)));
        }
        let by = format!("springs/{}", sd.name);
        let part = find(&parts, by.clone(), &sd.part)?;
        check(
            format!("{by}:stiffness"),
            sd.stiffness,
            sd.stiffness >= 0.0,
            ">= 0",
        )?;
        check(format!("{by}:relaxed"), sd.relaxed, true, "finite")?;
        let relaxed = match parts[part].motion {
            Motion::Revolute { .. } => sd.relaxed.to_radians(),
            _ => sd.relaxed,
        };
        springs.push(Spring {
            name: sd.name.clone(),
            part,
            stiffness: sd.stiffness,
            relaxed,
        });
    }

    let mut pairs = Vec::new();
    for i in 0..primitives.len() {
        for j in i + 1..primitives.len() {
            let (pi, pj) = (&primitives[i], &primitives[j]);
            let (si, sj) = (parts[pi.part].subsystem, parts[pj.part].subsystem);
            let related = match (si, sj) {
                (None, None) => false,
                (Some((a, _)), Some((b, _))) => a != b,
                _ => true,
            };
            if related && pi.z_overlaps(pj) {
                pairs.push((i, j));
            }
        }
    }
    let min_thickness = primitives
        .iter()
        .filter(|p| parts[p.part].subsystem.is_some())
        .map(|p| p.section.thickness())
        .fold(f64::INFINITY, f64::min);

    // Initial state from each subsystem's root part (a driven gear's own
    // position and velocity follow from its driver's).
    let mut q = vec![0.0; kept.len()];
    let mut v = vec![0.0; kept.len()];
    for (k, sub) in kept.iter().enumerate() {
        let root = sub.members[0].0;
        let unit = match parts[root].motion {
            Motion::Revolute { .. } => 1f64.to_radians(),
            _ => 1.0,
        };
        q[k] = d.parts[root].position * unit;
        v[k] = d.parts[root].velocity * unit;
    }
    let mut structure = Structure {
        name: d.name.clone(),
        parts,
        primitives,
        subsystems: kept,
        springs,
        contact: ContactConstants {
            stiffness: c.stiffness,
            damping: c.damping,
            damping_scale: c.damping_scale,
        },
        pairs,
        min_thickness,
    };
    structure.refresh_subsystems();
    Ok((structure, q, v))
}
