//! `orchard.Instrument`: a preset with its settings applied, as the command
//! line's `--preset`, `--set`, `--seed`, `--temperament`, `--tuning` and
//! `--keymap` make it; and the list of built-in presets.

use std::path::PathBuf;

use orchard_cli::{InstrumentArgs, builtin_preset_list, overrides, property_values};
use orchard_engine::families::family_of;
use orchard_engine::instrument::Preset;
use pyo3::prelude::*;

use crate::refused;

/// An instrument to play: a built-in preset or a preset file, with settings.
#[pyclass(frozen, module = "orchard._native")]
pub struct Instrument {
    pub(crate) preset: Preset,
}

/// `--set` arguments, `PATH=VALUE`, for (path, value) pairs: Rust writes an
/// `f64` so that it reads back as the same number.
fn setting_texts(settings: &[(String, f64)]) -> Vec<String> {
    settings
        .iter()
        .map(|(path, value)| format!("{path}={value}"))
        .collect()
}

#[pymethods]
impl Instrument {
    /// Loads `preset` (a built-in name or a file path), tunes it
    /// (`temperament` as `NAME[:KEY]`, or a Scala `tuning` file with an
    /// optional `keymap`), reseeds it with `seed` if given, and applies
    /// `settings`, (path, value) pairs, in order.
    #[new]
    #[pyo3(signature = (preset="grand-piano", settings=Vec::new(), seed=None, temperament=None, tuning=None, keymap=None))]
    fn new(
        preset: &str,
        settings: Vec<(String, f64)>,
        seed: Option<u32>,
        temperament: Option<String>,
        tuning: Option<PathBuf>,
        keymap: Option<PathBuf>,
    ) -> PyResult<Self> {
        if keymap.is_some() && tuning.is_none() {
            return Err(refused(
                "a keymap lays a tuning file on the keys: give the tuning too",
            ));
        }
        let args = InstrumentArgs {
            preset: preset.to_owned(),
            settings: setting_texts(&settings),
            seed,
            temperament,
            scale: tuning,
            keymap,
        };
        Ok(Self {
            preset: args.load().map_err(refused)?,
        })
    }

    /// A copy with more settings applied, (path, value) pairs in order.
    fn with_settings(&self, settings: Vec<(String, f64)>) -> PyResult<Self> {
        let mut preset = self.preset.clone();
        overrides::apply(&mut preset, None, &setting_texts(&settings)).map_err(refused)?;
        Ok(Self { preset })
    }

    /// The instrument's name, e.g. "Grand piano".
    #[getter]
    fn name(&self) -> &str {
        &self.preset.name
    }

    /// One line on what it is.
    #[getter]
    fn description(&self) -> &str {
        &self.preset.description
    }

    /// Its family's name, e.g. "grand-piano".
    #[getter]
    fn family(&self) -> PyResult<&'static str> {
        let family = family_of(&self.preset).map_err(|e| refused(e.to_string()))?;
        Ok(family.name())
    }

    /// The lowest and highest MIDI keys it has.
    #[getter]
    fn keys(&self) -> (u8, u8) {
        (
            self.preset.keyboard.lowest_key,
            self.preset.keyboard.highest_key,
        )
    }

    /// Every property path and its value, in the order `orchard presets
    /// --paths` lists them.
    fn paths(&self) -> Vec<(String, f64)> {
        property_values(&self.preset)
    }

    /// The value of the property at `path`.
    fn get(&self, path: &str) -> PyResult<f64> {
        property(&self.preset, path).map_err(refused)
    }

    fn __repr__(&self) -> String {
        format!("<orchard.Instrument {:?}>", self.preset.name)
    }
}

/// The value of `preset`'s property at `path`, or the reason it has none.
pub fn property(preset: &Preset, path: &str) -> Result<f64, String> {
    preset
        .get(path)
        .ok_or_else(|| format!("no property `{path}` on {}", preset.name))
}

/// The built-in presets, (name, description), as `orchard presets` lists them.
#[pyfunction]
pub fn presets() -> PyResult<Vec<(String, String)>> {
    builtin_preset_list().map_err(refused)
}
