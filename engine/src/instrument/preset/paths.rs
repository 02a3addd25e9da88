//! Every numeric value of a preset by property path, to read and to set:
//! `tuning:a4_hz`, `hammers:start_gap_m`, `hammers/anchor/60:felt_stiffness`,
//! `strike/anchor/96:position` — the same paths its errors name.

use super::objects::{
    ActionSpec, BarSet, DamperSet, HammerAnchor, HammerSet, SoundboardSpec, StringAnchor, StringSet,
};
use super::topology::{StrikeAnchor, StrikeSpec};
use super::{Keyboard, OutputSpec, Preset, PresetError};
use crate::instrument::StretchedTuning;
use crate::mech::action::VelocityCurve;

/// A numeric field, whatever its type.
pub(super) enum Field<'a> {
    Real(&'a mut f64),
    Key(&'a mut u8),
    Count(&'a mut u32),
    Switch(&'a mut bool),
}

impl Field<'_> {
    fn get(&self) -> f64 {
        match self {
            Self::Real(x) => **x,
            Self::Key(x) => f64::from(**x),
            Self::Count(x) => f64::from(**x),
            Self::Switch(x) => f64::from(u8::from(**x)),
        }
    }

    /// Stores `value`, which must suit the field's type: a whole MIDI key, a
    /// whole count, 0 or 1 for a switch.
    fn set(&mut self, value: f64) -> Result<(), &'static str> {
        let whole = value.fract() == 0.0;
        match self {
            Self::Real(x) => **x = value,
            Self::Key(x) if whole && (0.0..=127.0).contains(&value) => **x = value as u8,
            Self::Key(_) => return Err("a MIDI key, 0 to 127"),
            Self::Count(x) if whole && (0.0..=f64::from(u32::MAX)).contains(&value) => {
                **x = value as u32;
            }
            Self::Count(_) => return Err("a whole number"),
            Self::Switch(x) if value == 0.0 || value == 1.0 => **x = value == 1.0,
            Self::Switch(_) => return Err("0 or 1"),
        }
        Ok(())
    }
}

/// The numeric fields of a part of a preset, by name.
pub(super) trait Fields {
    /// The names of the numeric fields.
    fn names(&self) -> &'static [&'static str];
    /// One field.
    fn field(&mut self, name: &str) -> Option<Field<'_>>;
}

macro_rules! fields {
    ($ty:ty { $($field:ident: $kind:ident),* $(,)? }) => {
        impl Fields for $ty {
            fn names(&self) -> &'static [&'static str] {
                &[$(stringify!($field)),*]
            }

            fn field(&mut self, name: &str) -> Option<Field<'_>> {
                match name {
                    $(stringify!($field) => Some(Field::$kind(&mut self.$field)),)*
                    _ => None,
                }
            }
        }
    };
}

fields!(StretchedTuning {
    a4_hz: Real,
    stretch: Real
});
fields!(Keyboard {
    lowest_key: Key,
    highest_key: Key
});
fields!(VelocityCurve {
    softest_speed_m_s: Real,
    hardest_speed_m_s: Real,
    curve: Real
});
fields!(OutputSpec {
    gain_per_newton: Real,
    stereo_width: Real
});
fields!(StringSet {
    pairs_from_key: Key,
    triples_from_key: Key,
    detune_cents: Real
});
fields!(StringAnchor {
    length_m: Real,
    string_mass_kg: Real,
    loss_b1: Real,
    loss_b2: Real,
    inharmonicity: Real,
    bridge_impedance_kg_s: Real,
});
fields!(BarSet {
    mass_kg: Real,
    pickup_position: Real
});
fields!(HammerSet { start_gap_m: Real });
fields!(HammerAnchor {
    mass_kg: Real,
    felt_stiffness: Real,
    felt_exponent: Real,
    felt_hysteresis_s_per_m: Real,
});
fields!(DamperSet {
    t60_s: Real,
    travel_s: Real
});
fields!(ActionSpec {
    blow_distance_m: Real,
    check_drop_m: Real,
    restitution: Real,
    key_return_s: Real,
    repetition_rise: Real,
    realistic_travel: Switch,
});
fields!(SoundboardSpec {
    modes: Count,
    lowest_mode_hz: Real,
    highest_mode_hz: Real,
    lowest_mode_t60_s: Real,
    body_gain: Real,
    seed: Count,
});
fields!(StrikeSpec {});
fields!(StrikeAnchor { position: Real });

/// The part of `preset` a component path names (`tuning`, an object's name,
/// `NAME/anchor/KEY`, `strike`, `strike/anchor/KEY`).
fn component<'a>(preset: &'a mut Preset, component: &str) -> Option<&'a mut dyn Fields> {
    let (head, anchor) = match component.split_once("/anchor/") {
        Some((head, key)) => (head, Some(key.parse::<u8>().ok()?)),
        None => (component, None),
    };
    macro_rules! anchored {
        ($set:expr) => {
            match anchor {
                None => Some($set as &mut dyn Fields),
                Some(key) => $set
                    .anchor
                    .iter_mut()
                    .find(|a| a.key == key)
                    .map(|a| a as &mut dyn Fields),
            }
        };
    }
    if anchor.is_none() {
        match head {
            "tuning" => return Some(&mut preset.tuning),
            "keyboard" => return Some(&mut preset.keyboard),
            "velocity" => return Some(&mut preset.velocity),
            "output" => return Some(&mut preset.output),
            _ => {}
        }
    }
    if head == "strike" {
        let strike = preset.strikes.first_mut()?;
        return anchored!(strike);
    }
    if let Some(set) = preset.stiff_strings.get_mut(head) {
        return anchored!(set);
    }
    if let Some(set) = preset.felt_hammers.get_mut(head) {
        return anchored!(set);
    }
    if anchor.is_some() {
        return None;
    }
    let found: Option<&mut dyn Fields> = if let Some(x) = preset.free_free_bars.get_mut(head) {
        Some(x)
    } else if let Some(x) = preset.dampers.get_mut(head) {
        Some(x)
    } else if let Some(x) = preset.grand_action.get_mut(head) {
        Some(x)
    } else if let Some(x) = preset.soundboard.get_mut(head) {
        Some(x)
    } else {
        None
    };
    found
}

impl Preset {
    /// The value at property path `path` (e.g. `hammers/anchor/60:felt_stiffness`),
    /// if the preset has it.
    pub fn get(&self, path: &str) -> Option<f64> {
        let (head, name) = path.split_once(':')?;
        // Reading goes through the same resolution as writing, on a copy of the
        // one part it needs.
        let mut copy = self.clone();
        let part = component(&mut copy, head)?;
        part.field(name).map(|f| f.get())
    }

    /// Sets the value at property path `path` and checks the whole preset
    /// again; on any error nothing changes, and the error names the path.
    pub fn set(&mut self, path: &str, value: f64) -> Result<(), PresetError> {
        let unknown = || PresetError::UnknownPath(path.to_string());
        let (head, name) = path.split_once(':').ok_or_else(unknown)?;
        let mut changed = self.clone();
        let part = component(&mut changed, head).ok_or_else(unknown)?;
        let mut field = part.field(name).ok_or_else(unknown)?;
        field.set(value).map_err(|range| PresetError::OutOfRange {
            path: path.to_string(),
            value,
            range,
        })?;
        changed.validate()?;
        *self = changed;
        Ok(())
    }

    /// Seeds everything random in the instrument (the soundboards' modes) with
    /// `seed`.
    pub fn reseed(&mut self, seed: u32) {
        for board in self.soundboard.values_mut() {
            board.seed = seed;
        }
    }

    /// Every numeric property path of the preset, in a stable order.
    pub fn paths(&self) -> Vec<String> {
        let mut copy = self.clone();
        let mut components: Vec<String> = ["tuning", "keyboard", "velocity", "output"]
            .map(String::from)
            .to_vec();
        let anchored = |name: &str, keys: Vec<u8>| {
            std::iter::once(name.to_string())
                .chain(keys.into_iter().map(move |k| format!("{name}/anchor/{k}")))
                .collect::<Vec<_>>()
        };
        for (name, set) in &self.stiff_strings {
            components.extend(anchored(name, set.anchor.iter().map(|a| a.key).collect()));
        }
        for (name, set) in &self.felt_hammers {
            components.extend(anchored(name, set.anchor.iter().map(|a| a.key).collect()));
        }
        components.extend(self.free_free_bars.keys().cloned());
        components.extend(self.dampers.keys().cloned());
        components.extend(self.grand_action.keys().cloned());
        components.extend(self.soundboard.keys().cloned());
        if let Some(strike) = self.strikes.first() {
            components.extend(anchored(
                "strike",
                strike.anchor.iter().map(|a| a.key).collect(),
            ));
        }
        let mut paths = Vec::new();
        for head in components {
            if let Some(part) = component(&mut copy, &head) {
                paths.extend(part.names().iter().map(|name| format!("{head}:{name}")));
            }
        }
        paths
    }
}
