//! What can be watched while an instrument plays, declared once: each probe
//! path's component and its property's [`Declaration`] (unit, meaning). The
//! renderer's `--probe` reads these declarations to parse paths and to list
//! them in its help.

use super::declaration::Declaration;

/// What a probe measures at one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeQuantity {
    /// The striker's travel towards what it strikes, 0 (at rest) to 1.
    StrikerTravel,
    /// The damper, 0 (lifted) to 1 (down).
    Damper,
    /// 1 while the key is held.
    Down,
    /// Energy of the waves on the key's resonator, J.
    ResonatorEnergy,
    /// Largest contact force of the key's last strike, N.
    PeakForce,
}

/// Something a probe can watch while the instrument plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    /// A quantity of one MIDI key.
    Key(u8, ProbeQuantity),
    /// Sustain pedal depth.
    Sustain,
    /// Una corda pedal depth.
    UnaCorda,
    /// Sostenuto pedal down.
    Sostenuto,
    /// Peak output level over an interval.
    OutputPeak,
    /// RMS output level over an interval.
    OutputRms,
}

/// A probe path as declared: its component (`N` stands for a MIDI key), its
/// property's declaration (name, unit, meaning), and whether it watches the
/// instrument's moving mechanics (an action: keys, hammers, dampers and
/// pedals).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProbeDeclaration {
    /// The component, `N` for a key: `key/N`, `pedals`, `output`.
    pub component: &'static str,
    /// What it watches, as a property: name, SI unit (`""` for a ratio or a
    /// switch) and one line on what it shows.
    pub property: Declaration,
    /// Whether only an instrument with moving mechanics has it.
    pub needs_mechanics: bool,
    /// What it watches (the key's number set to 0 for key probes).
    pub probe: Probe,
}

impl ProbeDeclaration {
    /// Its path, `N` for a key: `key/N:hammer_travel`.
    pub fn pattern(&self) -> String {
        format!("{}:{}", self.component, self.property.name)
    }

    /// Whether `path` is its pattern.
    fn is(&self, path: &str) -> bool {
        path.split_once(':') == Some((self.component, self.property.name))
    }
}

/// A probe of the whole instrument (`component:name`), for the table.
const fn whole(
    component: &'static str,
    name: &'static str,
    description: &'static str,
    needs_mechanics: bool,
    probe: Probe,
) -> ProbeDeclaration {
    ProbeDeclaration {
        component,
        property: Declaration::real(name, "", description),
        needs_mechanics,
        probe,
    }
}

/// The probe of a key quantity (`key/N:name`), for the table.
const fn key(
    name: &'static str,
    unit: &'static str,
    description: &'static str,
    needs_mechanics: bool,
    quantity: ProbeQuantity,
) -> ProbeDeclaration {
    ProbeDeclaration {
        component: "key/N",
        property: Declaration::real(name, unit, description),
        needs_mechanics,
        probe: Probe::Key(0, quantity),
    }
}

/// Every probe path.
pub const PROBES: &[ProbeDeclaration] = &[
    whole(
        "pedals",
        "sustain",
        "sustain pedal depth, 0 (up) to 1 (down)",
        true,
        Probe::Sustain,
    ),
    whole(
        "pedals",
        "una_corda",
        "una corda pedal depth, 0 (up) to 1 (down)",
        true,
        Probe::UnaCorda,
    ),
    whole(
        "pedals",
        "sostenuto",
        "1 while the sostenuto pedal is down",
        true,
        Probe::Sostenuto,
    ),
    key(
        "hammer_travel",
        "",
        "key N's hammer, 0 (at rest) to 1 (at the string)",
        true,
        ProbeQuantity::StrikerTravel,
    ),
    key(
        "damper",
        "",
        "key N's damper, 0 (lifted) to 1 (on the strings)",
        true,
        ProbeQuantity::Damper,
    ),
    key(
        "down",
        "",
        "1 while key N is held",
        true,
        ProbeQuantity::Down,
    ),
    key(
        "string_energy_j",
        "J",
        "energy of key N's strings (measured ~60 times a second)",
        false,
        ProbeQuantity::ResonatorEnergy,
    ),
    key(
        "peak_force_n",
        "N",
        "largest felt force of key N's last strike",
        false,
        ProbeQuantity::PeakForce,
    ),
    whole(
        "output",
        "peak",
        "peak output level over the interval, full scale 1 (both channels)",
        false,
        Probe::OutputPeak,
    ),
    whole(
        "output",
        "rms",
        "RMS output level over the interval, full scale 1 (both channels)",
        false,
        Probe::OutputRms,
    ),
];

impl Probe {
    /// The probe at `path`: `None` if `path` is no probe path (it may be a
    /// property), `Some(Err(reason))` for a key probe that names no key or
    /// no quantity.
    pub fn parse(path: &str) -> Option<Result<Self, String>> {
        if let Some(rest) = path.strip_prefix("key/") {
            return Some(Self::parse_key(rest));
        }
        PROBES.iter().find(|d| d.is(path)).map(|d| Ok(d.probe))
    }

    /// A key probe from what follows `key/`: `N:QUANTITY`.
    fn parse_key(rest: &str) -> Result<Self, String> {
        let (key, quantity) = rest
            .split_once(':')
            .ok_or_else(|| "expected key/N:QUANTITY".to_string())?;
        let key: u8 = key
            .parse()
            .ok()
            .filter(|&k| k < 128)
            .ok_or_else(|| format!("`{key}` is not a MIDI key (0 to 127)"))?;
        let pattern = format!("key/N:{quantity}");
        match PROBES.iter().find(|d| d.is(&pattern)) {
            Some(ProbeDeclaration {
                probe: Probe::Key(_, quantity),
                ..
            }) => Ok(Self::Key(key, *quantity)),
            _ => {
                let known: Vec<&str> = PROBES
                    .iter()
                    .filter(|d| d.component == "key/N")
                    .map(|d| d.property.name)
                    .collect();
                Err(format!(
                    "no key quantity `{quantity}` ({})",
                    known.join(", ")
                ))
            }
        }
    }

    /// Its declaration.
    pub fn declaration(self) -> &'static ProbeDeclaration {
        let same = |d: &&ProbeDeclaration| match (d.probe, self) {
            (Probe::Key(_, a), Probe::Key(_, b)) => a == b,
            (a, b) => a == b,
        };
        PROBES.iter().find(same).expect("every probe is declared")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every declared pattern parses back to its own probe (N read as key
    /// 60), and every probe has one declaration.
    #[test]
    fn every_declared_probe_parses_to_itself() {
        for declaration in PROBES {
            let path = declaration.pattern().replace("key/N:", "key/60:");
            let probe = Probe::parse(&path).unwrap().unwrap();
            assert_eq!(probe.declaration(), declaration, "{path}");
            if let Probe::Key(key, _) = probe {
                assert_eq!(key, 60);
            }
        }
    }

    #[test]
    fn bad_key_probes_say_why() {
        assert!(Probe::parse("tuning:a4_hz").is_none());
        let reason = Probe::parse("key/60:colour").unwrap().unwrap_err();
        assert!(
            reason.contains("colour") && reason.contains("hammer_travel"),
            "{reason}"
        );
        assert!(Probe::parse("key/200:down").unwrap().is_err());
        assert!(Probe::parse("key/60").unwrap().is_err());
    }
}
