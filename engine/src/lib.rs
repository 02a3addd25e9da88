//! Orchard's engine: physically modelled mechanical instruments, free of any plugin,
//! GUI or audio-IO framework.
//!
//! Every sound comes from simulated physics. The first instrument is a felt
//! hammer striking a string: the string is a digital waveguide, the hammer a
//! mass, and the felt a nonlinear spring that sits at the root of a wave-digital
//! tree joining them (De Sanctis, Sarti & Tubaro, "Automatic synthesis strategies
//! for object-based dynamical physical models in musical acoustics", DAFx 2003,
//! Section 4).
//!
//! Layout:
//! - [`wdf`]: wave-digital elements, adaptors and nonlinear roots.
//! - [`resonators`]: waveguide strings and the filters inside them.
//! - [`instrument`]: instrument descriptions (presets as data) and struck-string voices.
//! - [`rt`]: the audio-thread synthesiser that plays any instrument family from
//!   note events, and the seams a family fills ([`rt::Family`], [`rt::Voices`],
//!   [`rt::Mechanics`]).
//! - [`families`]: the instrument families (grand piano, mallets and bars) and
//!   the registry of them.
//! - [`room`]: the room the instrument is heard in (early reflections, late
//!   reverb, the dry/room mix), after every family's output.
//! - [`analysis`]: measurements on rendered audio (pitch, level).
//! - [`midi`]: Standard MIDI Files read and written, performances in seconds.
//! - [`props`]: the one property system: paths, declarations, the property
//!   tree, what can be probed.
//! - [`mech`]: the mechanical scheduler (models, agents, mechanisms, long-term
//!   behaviour).
//! - [`air`] and [`signal`]: what the layers share: the air's constants, the
//!   silence level and denormal flushing.
//!
//! The modules form layers, each importing only from its own and those below
//! (`engine/tests/layers.rs` holds the order and checks it).
#![warn(missing_docs)]

pub mod air;
pub mod analysis;
mod capacity;
pub mod families;
pub mod input;
pub mod instrument;
pub mod mech;
pub mod midi;
pub mod props;
pub mod random;
pub mod resonators;
pub mod room;
pub mod rt;
pub mod signal;
pub mod wdf;

/// The arithmetic this processor runs the audio in: `"fused-multiply-add"`
/// where it fuses multiplies and adds (x86-64 with AVX2 and FMA), otherwise
/// `"separate-multiply-add"`. Renders are bit-identical from run to run on the
/// same arithmetic; on the other they differ by rounding.
pub fn arithmetic() -> &'static str {
    if wdf::fused::available() {
        "fused-multiply-add"
    } else {
        "separate-multiply-add"
    }
}
