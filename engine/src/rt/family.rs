//! What makes an instrument family: how its presets are recognised, and how
//! its audio-rate voices and its mechanics are built from one. The
//! synthesiser plays any family through this seam; the families themselves
//! and the registry of them live in [`crate::families`].

use super::error::SynthError;
use super::mechanics::Mechanics;
use super::voices::Voices;
use crate::instrument::{ObjectKind, Preset};

/// An instrument family: a grand piano, mallets and bars, a music box…
///
/// Building allocates (it runs off the audio thread).
pub trait Family: Sync {
    /// The name presets give in `family = "…"` (`grand-piano`).
    fn name(&self) -> &'static str;

    /// Its built-in presets: (name, TOML text).
    fn presets(&self) -> &'static [(&'static str, &'static str)];

    /// The object kinds only this family plays (a grand's action, a
    /// clock's movement), read from presets under their tables; the kinds
    /// several families share are [`crate::instrument::SHARED_KINDS`].
    fn object_kinds(&self) -> &'static [ObjectKind] {
        &[]
    }

    /// Whether a preset that names no family is one of this family's, by
    /// its objects.
    fn fits(&self, preset: &Preset) -> bool;

    /// Whether it can play `preset`, which names it: what validation checks,
    /// so that a preset that validates builds. By default, whether it
    /// [`fits`](Family::fits) it.
    fn plays(&self, preset: &Preset) -> bool {
        self.fits(preset)
    }

    /// The kinds of object (`soundboard`, `grand-action`, `clock`…) it
    /// plays beside the strike's hammers and target. A preset of the
    /// family holding another kind is refused: the family would render it
    /// as if it were absent. By default, none.
    fn companions(&self) -> &'static [&'static str] {
        &[]
    }

    /// Every key's voice of `preset` at `sample_rate` (Hz, already checked to
    /// lie in [`super::SAMPLE_RATES_HZ`]).
    fn voices(&self, preset: &Preset, sample_rate: f64) -> Result<Box<dyn Voices>, SynthError>;

    /// The mechanics of `preset`, for the worker. They run in lock-step on
    /// the audio thread: they allocate nothing and have a bounded cost per
    /// control step, so that what sounds never depends on how fast a host
    /// calls `process`.
    fn mechanics(&self, preset: &Preset) -> Box<dyn Mechanics>;
}

impl std::fmt::Debug for dyn Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Family")
            .field("name", &self.name())
            .finish_non_exhaustive()
    }
}
