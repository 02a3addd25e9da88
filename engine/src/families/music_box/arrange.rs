//! Arranging a tune onto a cylinder: what `orchard pin` does with a MIDI
//! file's notes for a given comb.
//!
//! The tune is transposed by the number of semitones (−48 to 48) that puts
//! most of its notes on the comb's tines; among equally good ones an
//! octave (or none) is preferred, then the smallest. Its notes are placed
//! at the angles the cylinder, turning at its governed speed when wound as
//! the preset says, reaches at their times, the first note a little after
//! the angle at which the first pin's pluck begins. A tune longer than one
//! turn is played faster, by the one factor that fits it on the turn (a
//! real cylinder holds one turn; the arranger says by how much). Notes the
//! comb lacks are left out and listed; notes on one tine at one angle are
//! one pin.

use super::mechanics::pluck_lead_rad;
use super::movement::Movement;
use super::spec::{MAX_PINS, MusicBoxSpec, PinSpec};

/// Angle left free after the first pin's pluck begins and before the
/// cylinder comes round to it again, degrees.
pub const MARGIN_DEG: f64 = 5.0;

/// A tune as pinned.
#[derive(Debug, Clone, PartialEq)]
pub struct Arrangement {
    /// Semitones the tune was moved by.
    pub transpose: i32,
    /// How much faster than written it plays (1: as written).
    pub speed_up: f64,
    /// The pins, in the order they play.
    pub pins: Vec<PinSpec>,
    /// The notes the comb lacks (time in s as written, key after the
    /// transposition).
    pub missing: Vec<(f64, i32)>,
    /// Notes beyond [`MAX_PINS`], left out.
    pub dropped: usize,
}

/// The cylinder's speed, turning steadily at `spec.wound`, rad/s.
pub fn nominal_speed_rad_s(spec: &MusicBoxSpec) -> f64 {
    Movement::new(spec).governed_speed_rad_s()
}

/// The transposition (semitones) that puts most of `keys` on the comb.
fn best_transposition(spec: &MusicBoxSpec, keys: &[u8]) -> i32 {
    let fits = |t: i32| {
        keys.iter()
            .filter(|&&k| u8::try_from(i32::from(k) + t).is_ok_and(|k| spec.has_tine(k)))
            .count()
    };
    (-48..=48)
        .max_by_key(|&t| (fits(t), t % 12 == 0, -t.abs()))
        .unwrap_or(0)
}

/// Pins `notes` (each its time in s and its MIDI key, as written) on
/// `spec`'s cylinder, whose pins start their plucks `lead_m` before the
/// tips.
pub fn arrange(spec: &MusicBoxSpec, lead_m: f64, notes: &[(f64, u8)]) -> Arrangement {
    let keys: Vec<u8> = notes.iter().map(|&(_, k)| k).collect();
    let transpose = best_transposition(spec, &keys);
    let first_s = notes.iter().map(|&(t, _)| t).fold(f64::INFINITY, f64::min);
    let last_s = notes
        .iter()
        .map(|&(t, _)| t)
        .fold(f64::NEG_INFINITY, f64::max);
    let speed = nominal_speed_rad_s(spec);
    let start_deg = pluck_lead_rad(spec, lead_m).to_degrees() + MARGIN_DEG;
    let room_deg = 360.0 - start_deg - MARGIN_DEG;
    let span_deg = (speed * (last_s - first_s).max(0.0)).to_degrees();
    let speed_up = if span_deg > room_deg {
        span_deg / room_deg
    } else {
        1.0
    };
    let mut pins = Vec::new();
    let mut missing = Vec::new();
    let mut dropped = 0;
    let mut sorted: Vec<(f64, u8)> = notes.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for (t, key) in sorted {
        let moved = i32::from(key) + transpose;
        let Some(tine) = u8::try_from(moved).ok().filter(|&k| spec.has_tine(k)) else {
            missing.push((t, moved));
            continue;
        };
        let angle_deg = (start_deg + (speed * (t - first_s) / speed_up).to_degrees()).min(360.0);
        let pin = PinSpec {
            key: tine,
            angle_deg,
        };
        if pins.contains(&pin) {
            continue;
        }
        if pins.len() == MAX_PINS {
            dropped += 1;
            continue;
        }
        pins.push(pin);
    }
    Arrangement {
        transpose,
        speed_up,
        pins,
        missing,
        dropped,
    }
}

/// `text`, a music box's preset, with the pins of its box `name` replaced
/// by `pins`: its own `[[music-box.NAME.pin]]` tables taken out (each up to
/// the next table), the new ones added at the end. Everything else, its
/// comments included, stays as it was.
pub fn with_pins(text: &str, name: &str, pins: &[PinSpec]) -> String {
    let header = format!("[[music-box.{name}.pin]]");
    let mut out = String::with_capacity(text.len() + 48 * pins.len());
    let mut skipping = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') {
            skipping = trimmed.starts_with(&header);
        }
        if !skipping {
            out.push_str(line);
            out.push('\n');
        }
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    for pin in pins {
        out.push_str(&format!(
            "\n{header}\nkey = {}\nangle_deg = {:.4}\n",
            pin.key, pin.angle_deg
        ));
    }
    out
}

/// How long `spec`'s cylinder takes to play its pins once, from rest, s:
/// until its last pin sounds, at the steady speed of its wind.
pub fn tune_s(spec: &MusicBoxSpec) -> Option<f64> {
    let last = spec
        .pins
        .iter()
        .map(|pin| pin.angle_deg)
        .fold(None, |m: Option<f64>, a| Some(m.map_or(a, |m| m.max(a))))?;
    let speed = nominal_speed_rad_s(spec);
    (speed > 0.0).then(|| last.to_radians() / speed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instrument::Preset;

    fn comb() -> MusicBoxSpec {
        let preset = Preset::builtin("music-box").unwrap().unwrap();
        preset
            .objects
            .get_as::<MusicBoxSpec>("box")
            .unwrap()
            .clone()
    }

    #[test]
    fn a_tune_an_octave_up_comes_down_an_octave() {
        let spec = comb();
        // C6 major triad and its scale, an octave above most of the comb.
        let notes: Vec<(f64, u8)> = [84u8, 86, 88, 89, 91, 93, 95, 96]
            .iter()
            .enumerate()
            .map(|(i, &k)| (0.5 * i as f64, k))
            .collect();
        let a = arrange(&spec, 5e-4, &notes);
        assert_eq!(a.transpose, -12);
        assert!(a.missing.is_empty(), "{:?}", a.missing);
        let keys: Vec<u8> = a.pins.iter().map(|p| p.key).collect();
        assert_eq!(keys, [72, 74, 76, 77, 79, 81, 83, 84]);
        assert_eq!(a.speed_up, 1.0);
    }

    #[test]
    fn a_long_tune_is_played_faster_to_fit_one_turn() {
        let spec = comb();
        let notes: Vec<(f64, u8)> = (0..200).map(|i| (f64::from(i), 72)).collect();
        let a = arrange(&spec, 5e-4, &notes);
        assert!(a.speed_up > 1.0);
        let last = a.pins.last().unwrap().angle_deg;
        assert!((last - (360.0 - MARGIN_DEG)).abs() < 1e-6, "{last}");
    }

    #[test]
    fn the_pins_replace_the_presets_own() {
        let text = crate::families::builtin_presets()
            .into_iter()
            .find(|(name, _)| *name == "music-box")
            .unwrap()
            .1;
        let pins = [
            PinSpec {
                key: 72,
                angle_deg: 20.0,
            },
            PinSpec {
                key: 76,
                angle_deg: 25.5,
            },
        ];
        let pinned = Preset::from_toml(&with_pins(text, "box", &pins)).unwrap();
        assert_eq!(
            pinned.objects.get_as::<MusicBoxSpec>("box").unwrap().pins,
            pins
        );
        let mut original = Preset::from_toml(text).unwrap();
        original
            .objects
            .get_as_mut::<MusicBoxSpec>("box")
            .unwrap()
            .pins = pins.to_vec();
        assert_eq!(pinned, original);
    }

    #[test]
    fn notes_the_comb_lacks_are_reported() {
        let spec = comb();
        let notes = [(0.0, 72), (0.5, 73), (1.0, 74)];
        let a = arrange(&spec, 5e-4, &notes);
        assert_eq!(a.transpose, 0);
        assert_eq!(a.missing, [(0.5, 73)]);
        assert_eq!(a.pins.len(), 2);
    }
}
