//! The physical parameters `orchard fit` may fit at a key, each with the
//! span published measurements give it, and their bounds in a preset: the
//! narrower of that span and the range the preset lets the property take
//! ([`Preset::property_info`]).

use orchard_engine::instrument::Preset;

/// Which of the preset's anchored sets holds a parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Set {
    /// The struck strings (the strike's target): `stiff-strings` anchors.
    Strings,
    /// The hammers that strike them: `felt-hammers` anchors.
    Hammers,
    /// The strike's own anchors (the position).
    Strike,
}

/// A parameter `orchard fit` can fit: a field of one set's anchors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Parameter {
    /// The field's name (`loss_b1`), as in the preset's property paths.
    pub name: &'static str,
    /// The set whose anchors hold it.
    pub set: Set,
    /// Its unit, as the preset declares it.
    pub unit: &'static str,
    /// The span published measurements of pianos give it, in its unit.
    pub published: (f64, f64),
}

/// Every parameter `orchard fit` can fit, in the order of the report.
///
/// The published spans:
/// - `loss_b1` (1/s), the loss of every partial alike (`σ = b1 + b2·k²`,
///   Bensa, Bilbao, Kronland-Martinet & Smith, "The simulation of piano
///   string vibration: from physical models to finite difference schemes and
///   digital waveguides", 2003): at most the decay rate `ln(1000) / T60` of
///   the shortest-lived piano partials (T60 ≈ 0.3 s in the top treble),
///   at least that of the longest (an aftersound T60 of about a minute in
///   the bass) divided by ten for what the bridge takes: 0.01 to 25 1/s
///   (decay times measured by Martin, "Decay rates of piano tones", 1947,
///   and Weinreich, "Coupled piano strings", 1977).
/// - `loss_b2` (m²/s), the loss growing with the wavenumber `k`: the
///   values fitted to piano strings from the bass to the treble by Bensa et
///   al. (2003), and Chaigne & Askenfelt's ("Numerical simulations of piano
///   strings. I", 1994) C2, C4 and C7 strings in that form, lie within about
///   1e-5 to 1e-3 m²/s; the span is a decade wider each side, 1e-6 to 1e-2.
/// - `bridge_impedance_kg_s` (kg/s), the bridge's resistance: the driving-
///   point impedance of grand-piano soundboards at the bridge measured by
///   Wogram ("Akustische Untersuchungen an Klavieren", 1980), Giordano
///   ("Mechanical impedance of a piano soundboard", 1998) and Conklin
///   ("Design and tone in the mechanoacoustic piano. Part II", 1996) is of
///   the order of 1e3 kg/s in the bass and middle, rising toward 1e4 kg/s in
///   the treble: 300 to 30 000 kg/s.
/// - `felt_stiffness` (N/m^p), K of the felt's law `F = K·x^p`: hammers
///   measured by Hall & Askenfelt ("Piano string excitation V: spectra for
///   real hammers and strings", 1988), Stulov ("Hysteretic model of the grand
///   piano hammer felt", 1995) and Chaigne & Askenfelt (1994) have K from
///   about 1e8 (bass, low p) to 1e13 N/m^p (treble, high p): 1e7 to 1e15.
/// - `felt_exponent`, p of the same law: those hammers and Giordano &
///   Winans ("Piano hammers and their force compression characteristics:
///   does a power law make sense?", 2000) give p from about 2 to 4: 1.5 to
///   4.5.
/// - `position`, the strike point as a fraction of the speaking length from
///   the agraffe: about 1/8 through the middle of a grand, nearer the
///   agraffe in the top treble (Conklin, "Design and tone in the
///   mechanoacoustic piano. Part I", 1996; Askenfelt & Jansson, "From touch
///   to string vibrations", 1990): 0.04 to 0.17.
pub const PARAMETERS: [Parameter; 6] = [
    Parameter {
        name: "loss_b1",
        set: Set::Strings,
        unit: "1/s",
        published: (0.01, 25.0),
    },
    Parameter {
        name: "loss_b2",
        set: Set::Strings,
        unit: "m²/s",
        published: (1e-6, 1e-2),
    },
    Parameter {
        name: "bridge_impedance_kg_s",
        set: Set::Strings,
        unit: "kg/s",
        published: (300.0, 30_000.0),
    },
    Parameter {
        name: "felt_stiffness",
        set: Set::Hammers,
        unit: "N/m^p",
        published: (1e7, 1e15),
    },
    Parameter {
        name: "felt_exponent",
        set: Set::Hammers,
        unit: "",
        published: (1.5, 4.5),
    },
    Parameter {
        name: "position",
        set: Set::Strike,
        unit: "",
        published: (0.04, 0.17),
    },
];

/// The parameters fitted unless `--params` names others: all but the
/// strike position.
pub const DEFAULT_PARAMETERS: [&str; 5] = [
    "loss_b1",
    "loss_b2",
    "bridge_impedance_kg_s",
    "felt_stiffness",
    "felt_exponent",
];

/// The parameters called `names`, in the order of [`PARAMETERS`]; an
/// unknown or repeated name is a one-line error listing the known ones.
pub fn by_names<S: AsRef<str>>(names: &[S]) -> Result<Vec<Parameter>, String> {
    let known = || {
        PARAMETERS
            .iter()
            .map(|p| p.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    for (i, name) in names.iter().enumerate() {
        let name = name.as_ref();
        if !PARAMETERS.iter().any(|p| p.name == name) {
            return Err(format!(
                "--params: `{name}` is not a parameter fit can fit ({})",
                known()
            ));
        }
        if names[..i].iter().any(|n| n.as_ref() == name) {
            return Err(format!("--params: `{name}` is given twice"));
        }
    }
    Ok(PARAMETERS
        .into_iter()
        .filter(|p| names.iter().any(|n| n.as_ref() == p.name))
        .collect())
}

/// One parameter at one key of one preset: where it is and what it may be.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// The parameter.
    pub parameter: Parameter,
    /// Its property path at the key (`strings/key/36:loss_b1`).
    pub path: String,
    /// Its value in the preset (explicit or interpolated), which may lie
    /// outside the bounds.
    pub preset_value: f64,
    /// The lowest and highest value it may take: the published span within
    /// the preset's range.
    pub bounds: (f64, f64),
}

impl Parameter {
    /// This parameter at `key` of `preset`; errors are one line (a preset
    /// with no struck strings, a parameter it does not have, bounds that
    /// leave nothing between them).
    pub fn at(&self, preset: &Preset, key: u8) -> Result<Placed, String> {
        let strike = preset.strikes.first().ok_or_else(|| {
            format!(
                "the {} preset strikes nothing: fit needs hammers and strings",
                preset.name
            )
        })?;
        let set = match self.set {
            Set::Strings => strike.target.as_str(),
            Set::Hammers => strike.hammers.as_str(),
            Set::Strike => "strike",
        };
        let path = format!("{set}/key/{key}:{}", self.name);
        let lacks = || format!("the {} preset has no {path}", preset.name);
        let preset_value = preset.get(&path).ok_or_else(lacks)?;
        let range = preset.property_info(&path).ok_or_else(lacks)?.range;
        let low = self.published.0.max(range.0);
        let high = self.published.1.min(range.1);
        // A bound of 0 has no logarithm: the search keeps to positive values.
        if !(low > 0.0 && low < high) {
            return Err(format!(
                "{path}: the published span {} to {} and the preset's range {} to {} leave nothing to fit",
                self.published.0, self.published.1, range.0, range.1
            ));
        }
        Ok(Placed {
            parameter: *self,
            path,
            preset_value,
            bounds: (low, high),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_and_kept_in_the_report_order() {
        let chosen = by_names(&["felt_stiffness", "loss_b1"]).unwrap();
        let names: Vec<_> = chosen.iter().map(|p| p.name).collect();
        assert_eq!(names, ["loss_b1", "felt_stiffness"]);
        let unknown = by_names(&["loss_b3"]).unwrap_err();
        assert!(unknown.contains("loss_b3") && unknown.contains("felt_exponent"));
        assert!(
            by_names(&["loss_b1", "loss_b1"])
                .unwrap_err()
                .contains("twice")
        );
        assert_eq!(by_names(&DEFAULT_PARAMETERS).unwrap().len(), 5);
    }

    #[test]
    fn every_parameter_is_placed_within_both_ranges_at_a_grand_key() {
        let preset = Preset::load("grand-piano").unwrap();
        for parameter in PARAMETERS {
            let placed = parameter.at(&preset, 45).unwrap();
            let info = preset.property_info(&placed.path).unwrap();
            let (low, high) = placed.bounds;
            assert!(low >= parameter.published.0 && high <= parameter.published.1);
            assert!(low >= info.range.0 && high <= info.range.1, "{placed:?}");
            assert!(low < high, "{placed:?}");
            assert_eq!(Some(placed.preset_value), preset.get(&placed.path));
        }
        let stiffness = PARAMETERS[3].at(&preset, 60).unwrap();
        assert_eq!(stiffness.path, "hammers/key/60:felt_stiffness");
        assert_eq!(
            PARAMETERS[5].at(&preset, 60).unwrap().path,
            "strike/key/60:position"
        );
    }

    #[test]
    fn a_preset_without_strings_has_no_string_parameters() {
        let preset = Preset::load("mallet-bar").unwrap();
        let error = PARAMETERS[0].at(&preset, 60).unwrap_err();
        assert!(error.contains("has no bars/key/60:loss_b1"), "{error}");
    }
}
