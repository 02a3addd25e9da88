//! The instrument options `render`, `analyze --note`, `compare --keyboard`
//! and `bench` share (`--preset`, `--set`, `--seed`, `--temperament`,
//! `--tuning`, `--keymap`), and the preset they load.

use orchard_engine::families::music_box::MusicBoxSpec;
use std::path::Path;

use orchard_engine::instrument::{Preset, tuning_files};

use crate::{outputs, overrides};

/// The preset an instrument is played with unless `--preset` names another.
pub const DEFAULT_PRESET: &str = "grand-piano";

/// The instrument to play and how to change it: shared by `render`,
/// `analyze --note` and `compare --keyboard`.
#[derive(Debug, Clone, clap::Args)]
pub struct InstrumentArgs {
    /// The instrument: a built-in preset's name (see `orchard presets`) or the
    /// path of a preset file.
    #[arg(long, default_value = DEFAULT_PRESET)]
    pub preset: String,
    /// Set a preset property before playing, e.g. `tuning:a4_hz=442`,
    /// `hammers/anchor/60:felt_stiffness=2e9`, `strings:detune_cents=1`,
    /// `action:restitution=0.5` (repeatable; applied in order). `orchard
    /// presets --paths NAME` lists the paths and values.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub settings: Vec<String>,
    /// Seed for everything random in the instrument (the soundboard's modes);
    /// the preset's own seed if not given. The same seed gives the same sound.
    #[arg(long, value_name = "N")]
    pub seed: Option<u32>,
    /// Tune the keyboard to a historical temperament, laid from KEY (C if
    /// not given): equal, werckmeister-iii, vallotti, kirnberger-iii,
    /// quarter-comma-meantone or pythagorean, e.g. `vallotti:Eb`. A4 stays
    /// at the preset's `tuning:a4_hz`; the stretch applies on top.
    #[arg(long, value_name = "NAME[:KEY]")]
    pub temperament: Option<String>,
    /// Tune the keyboard to a Scala scale file (`.scl`), or a built-in
    /// example (`19-edo`), which replaces the temperament. Without --keymap,
    /// degree 0 lies on middle C (60) and A4 (69) sounds at `tuning:a4_hz`,
    /// one key a degree (Scala's standard).
    #[arg(long = "tuning", value_name = "FILE.scl")]
    pub scale: Option<std::path::PathBuf>,
    /// Lay the --tuning scale on the keys with a Scala keyboard mapping file
    /// (`.kbm`), or a built-in example's (`19-edo`: degree 0 on middle C at
    /// 256 Hz): its middle key, reference key and frequency (transposed by
    /// `tuning:a4_hz` / 440), and pattern; keys it leaves unmapped are silent.
    #[arg(long, value_name = "FILE.kbm", requires = "scale")]
    pub keymap: Option<std::path::PathBuf>,
}

impl InstrumentArgs {
    /// Whether any option of the instrument was given (the preset other
    /// than the default, a setting, a seed, a temperament or a scale).
    pub fn any_given(&self) -> bool {
        self.preset != DEFAULT_PRESET
            || !self.settings.is_empty()
            || self.seed.is_some()
            || self.temperament.is_some()
            || self.scale.is_some()
    }

    /// The files the instrument may be read from, with their options: the
    /// preset, the scale and the keyboard mapping (a built-in name among
    /// them is no file, and [`outputs::check`] passes over it).
    pub fn input_files(&self) -> Vec<outputs::Named<'_>> {
        let mut inputs = vec![("--preset", Path::new(&self.preset))];
        inputs.extend(self.scale.as_deref().map(|scale| ("--tuning", scale)));
        inputs.extend(self.keymap.as_deref().map(|keymap| ("--keymap", keymap)));
        inputs
    }

    /// Loads the preset and applies `--seed` and the `--set`s; errors are one
    /// line naming the preset or the setting.
    pub fn load(&self) -> Result<Preset, String> {
        self.load_then_set(|_| {})
    }

    /// The preset as [`InstrumentArgs::load`] gives it, with every music
    /// box's cylinder turning unless a `--set` holds it: what `render`
    /// plays without a MIDI file.
    pub fn load_turning_cylinders(&self) -> Result<Preset, String> {
        self.load_then_set(|preset| {
            for spec in preset.objects.of_mut::<MusicBoxSpec>() {
                spec.running = true;
            }
        })
    }

    /// Loads the preset and its tuning files, changes it with `change`,
    /// then applies the `--set` settings and the seed.
    fn load_then_set(&self, change: impl FnOnce(&mut Preset)) -> Result<Preset, String> {
        let mut preset = Preset::load(&self.preset).map_err(|e| e.to_string())?;
        change(&mut preset);
        tuning_files::apply(
            &mut preset,
            self.temperament.as_deref(),
            self.scale.as_deref(),
            self.keymap.as_deref(),
        )?;
        overrides::apply(&mut preset, self.seed, &self.settings)?;
        Ok(preset)
    }
}
