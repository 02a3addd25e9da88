//! What sounds under one key: a hammer and strings, or a mallet and a bar.

use super::{ContactTrace, HammerPool, MalletBar, Rebound, StrikeReport, StringKey};

/// One key's voice, built from the preset's topology.
///
/// Strings strike with hammers shared through a [`HammerPool`], passed in by
/// whoever plays the keys; a bar keeps its own mallet tree (one per key, built
/// with the bar: mallets are not shared).
// An instrument's keys are all of one variant, so boxing the larger one would
// save no memory and add an indirection on the audio path.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum KeyVoice {
    /// One to three stiff strings struck by a felt hammer; the output is the
    /// bridge force, N.
    Strings(StringKey),
    /// A mallet and a free-free bar; the output is the pickup velocity, m/s.
    Bar(MalletBar),
}

impl KeyVoice {
    /// Sets how hard the damper presses, 0 (lifted) to 1 (down); a bar has none.
    pub fn set_damper_amount(&mut self, amount: f64) {
        if let Self::Strings(voice) = self {
            voice.set_damper_amount(amount);
        }
    }

    /// Shifts the hammer for the next strike as the una corda pedal does: off
    /// the last string of a pair or triple (`shifted`), or back onto all. A
    /// single string and a bar are struck either way.
    pub fn shift_hammer(&mut self, shifted: bool) {
        if let Self::Strings(voice) = self {
            let strings = voice.string().len();
            // No bits selects every string.
            let mask = if shifted {
                (1u8 << (strings - 1)) - 1
            } else {
                0
            };
            voice.set_struck_strings(mask);
        }
    }

    /// The strings the current (or last) strike hit, bit `i` for string `i`
    /// (strings only).
    pub fn struck_strings(&self) -> Option<u8> {
        match self {
            Self::Strings(voice) => Some(voice.struck_strings()),
            Self::Bar(_) => None,
        }
    }

    /// Whether anything is moving.
    pub fn is_active(&self) -> bool {
        match self {
            Self::Strings(voice) => voice.is_active(),
            Self::Bar(voice) => voice.is_active(),
        }
    }

    /// Whether `other` is the same kind of voice with the same parts (as many
    /// strings; the same bar modes), so its sounding state can carry over.
    pub fn same_shape(&self, other: &KeyVoice) -> bool {
        match (self, other) {
            (Self::Strings(a), Self::Strings(b)) => a.same_shape(b),
            (Self::Bar(a), Self::Bar(b)) => a.same_shape(b),
            _ => false,
        }
    }

    /// Carries on what `old` (this key of a same-shaped instrument, see
    /// [`KeyVoice::same_shape`]) was doing, with this voice's values. A
    /// hammer in flight carries on in `hammers`, whose bookkeeping has taken
    /// over `old_hammers`'. A voice of another shape stays as it is.
    ///
    /// Allocates nothing.
    pub(crate) fn continue_from(
        &mut self,
        old: &KeyVoice,
        hammers: &mut HammerPool,
        old_hammers: &HammerPool,
    ) {
        match (self, old) {
            (Self::Strings(key), Self::Strings(old_key)) if key.same_shape(old_key) => {
                key.continue_from(old_key, hammers, old_hammers);
            }
            (Self::Bar(bar), Self::Bar(old_bar)) => bar.continue_from(old_bar),
            _ => {}
        }
    }

    /// Brings everything to rest; a hammer in flight returns to `hammers`.
    pub fn reset(&mut self, hammers: &mut HammerPool) {
        match self {
            Self::Strings(voice) => voice.reset(hammers),
            Self::Bar(voice) => voice.reset(),
        }
    }

    /// Renders `out.len()` samples, adding `gains[c]` times the voice's output to
    /// channel `c` of each frame. Returns the frame at which a hammer let go of
    /// its strings after a strike, and how, if one did.
    pub fn mix_into(
        &mut self,
        out: &mut [[f64; 2]],
        gains: [f64; 2],
        hammers: &mut HammerPool,
    ) -> Option<(usize, Rebound)> {
        match self {
            Self::Strings(voice) => {
                let mut rebound = None;
                mix(out, gains, |i| {
                    let y = voice.tick(hammers);
                    if let Some(how) = voice.take_rebound() {
                        rebound = Some((i, how));
                    }
                    y
                });
                rebound
            }
            Self::Bar(voice) => {
                mix(out, gains, |_| voice.tick());
                None
            }
        }
    }

    /// Energy of the waves on the key's strings, J (0 for a bar).
    pub fn string_energy_j(&self) -> f64 {
        match self {
            Self::Strings(voice) => voice.string_energy_j(),
            Self::Bar(_) => 0.0,
        }
    }

    /// What the last strike did (strings only).
    pub fn report(&self) -> Option<&StrikeReport> {
        match self {
            Self::Strings(voice) => Some(voice.report()),
            Self::Bar(_) => None,
        }
    }

    /// The contact force and felt compression of the last strike (strings only).
    pub fn contact_trace(&self) -> Option<&ContactTrace> {
        match self {
            Self::Strings(voice) => Some(voice.contact_trace()),
            Self::Bar(_) => None,
        }
    }

    /// How many times the simulation went non-finite and was silenced.
    pub fn non_finite_resets(&self) -> u32 {
        match self {
            Self::Strings(voice) => voice.non_finite_resets(),
            Self::Bar(voice) => voice.non_finite_resets(),
        }
    }
}

/// Adds `gains` times `tick(frame index)` to each frame of `out`.
#[inline]
fn mix(out: &mut [[f64; 2]], [left, right]: [f64; 2], mut tick: impl FnMut(usize) -> f64) {
    for (i, frame) in out.iter_mut().enumerate() {
        let y = tick(i);
        frame[0] += left * y;
        frame[1] += right * y;
    }
}
