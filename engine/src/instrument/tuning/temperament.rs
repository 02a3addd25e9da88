//! Historical temperaments of the twelve-note keyboard, laid from a chosen key
//! (the tonic), each described as its chain of eleven fifths and how much each
//! is narrowed from a pure 3:2, in fractions of a comma: the way tuners and
//! the treatises describe them. The twelfth fifth closes the circle with
//! whatever is left (pure in the circulating temperaments, the wolf in
//! meantone and Pythagorean tuning).

/// A pure fifth, 3:2, in cents.
fn pure_fifth_cents() -> f64 {
    1200.0 * 1.5f64.log2()
}

/// The Pythagorean comma, twelve pure fifths over seven octaves
/// (3¹²/2¹⁹), in cents: about 23.460.
fn pythagorean_comma_cents() -> f64 {
    12.0 * pure_fifth_cents() - 7.0 * 1200.0
}

/// The syntonic comma, four pure fifths over a pure major third and two
/// octaves (81/80), in cents: about 21.506.
fn syntonic_comma_cents() -> f64 {
    1200.0 * (81.0f64 / 80.0).log2()
}

/// The schisma, the Pythagorean comma less the syntonic, in cents: about 1.954.
fn schisma_cents() -> f64 {
    pythagorean_comma_cents() - syntonic_comma_cents()
}

/// A temperament of the twelve-note keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Temperament {
    /// Equal temperament: every fifth narrowed by 1/12 Pythagorean comma.
    Equal,
    /// Werckmeister III (1691): C–G, G–D, D–A and B–F♯ narrowed by 1/4
    /// Pythagorean comma, the other fifths pure.
    WerckmeisterIii,
    /// Vallotti: the six fifths F–C–G–D–A–E–B narrowed by 1/6 Pythagorean
    /// comma, the other six pure.
    Vallotti,
    /// Kirnberger III (1779): C–G–D–A–E narrowed by 1/4 syntonic comma (a pure
    /// third C–E), F♯–C♯ by the schisma, the others pure.
    KirnbergerIii,
    /// Quarter-comma meantone: the eleven fifths from E♭ to G♯ narrowed by 1/4
    /// syntonic comma (pure major thirds), the wolf G♯–E♭.
    QuarterCommaMeantone,
    /// Pythagorean: the eleven fifths from E♭ to G♯ pure, the wolf G♯–E♭.
    Pythagorean,
}

impl Temperament {
    /// Every temperament, in the order of their property index
    /// (`tuning:temperament`).
    pub const ALL: [Self; 6] = [
        Self::Equal,
        Self::WerckmeisterIii,
        Self::Vallotti,
        Self::KirnbergerIii,
        Self::QuarterCommaMeantone,
        Self::Pythagorean,
    ];

    /// Its name in presets and on the command line: `equal`,
    /// `werckmeister-iii`, `vallotti`, `kirnberger-iii`,
    /// `quarter-comma-meantone`, `pythagorean`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Equal => "equal",
            Self::WerckmeisterIii => "werckmeister-iii",
            Self::Vallotti => "vallotti",
            Self::KirnbergerIii => "kirnberger-iii",
            Self::QuarterCommaMeantone => "quarter-comma-meantone",
            Self::Pythagorean => "pythagorean",
        }
    }

    /// Its name for people: `Werckmeister III`.
    pub fn label(self) -> &'static str {
        match self {
            Self::Equal => "Equal",
            Self::WerckmeisterIii => "Werckmeister III",
            Self::Vallotti => "Vallotti",
            Self::KirnbergerIii => "Kirnberger III",
            Self::QuarterCommaMeantone => "1/4-comma meantone",
            Self::Pythagorean => "Pythagorean",
        }
    }

    /// The temperament called `name` (see [`Temperament::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Its property index, 0 to 5 (see [`Temperament::ALL`]).
    pub fn index(self) -> u32 {
        Self::ALL.iter().position(|&t| t == self).unwrap_or(0) as u32
    }

    /// The temperament of property index `index`, if there is one.
    pub fn from_index(index: u32) -> Option<Self> {
        Self::ALL.get(usize::try_from(index).ok()?).copied()
    }

    /// The chain of fifths it is laid along: the first note's place in the
    /// circle of fifths from the tonic (-3: E♭ from C), and how far each of
    /// the eleven fifths up the chain is narrowed from pure, cents.
    fn chain(self) -> (i32, [f64; 11]) {
        let pc = pythagorean_comma_cents();
        let sc = syntonic_comma_cents();
        let mut narrowing = [0.0; 11];
        let start = match self {
            Self::Equal => {
                narrowing = [pc / 12.0; 11];
                0
            }
            // C–G, G–D, D–A, then A–E and E–B pure, B–F♯.
            Self::WerckmeisterIii => {
                for fifth in [0, 1, 2, 5] {
                    narrowing[fifth] = pc / 4.0;
                }
                0
            }
            // From F: F–C, C–G, G–D, D–A, A–E, E–B.
            Self::Vallotti => {
                narrowing[..6].fill(pc / 6.0);
                -1
            }
            // C–G, G–D, D–A, A–E; E–B, B–F♯ pure; F♯–C♯.
            Self::KirnbergerIii => {
                narrowing[..4].fill(sc / 4.0);
                narrowing[6] = schisma_cents();
                0
            }
            // From E♭ to G♯.
            Self::QuarterCommaMeantone => {
                narrowing = [sc / 4.0; 11];
                -3
            }
            Self::Pythagorean => -3,
        };
        (start, narrowing)
    }

    /// Each pitch class's pitch above the tonic, cents, 0 to 1200: index 0 is
    /// the tonic, 7 its fifth.
    pub fn pitches_cents(self) -> [f64; 12] {
        let (start, narrowing) = self.chain();
        let mut pitches = [0.0; 12];
        let mut cents = 0.0;
        let mut place = start;
        let class = |place: i32| (7 * place).rem_euclid(12) as usize;
        pitches[class(place)] = cents;
        for narrowed in narrowing {
            cents += pure_fifth_cents() - narrowed;
            place += 1;
            pitches[class(place)] = cents;
        }
        let tonic = pitches[0];
        pitches.map(|p| (p - tonic).rem_euclid(1200.0))
    }

    /// Each pitch class's departure from equal temperament, cents, with the
    /// tonic at 0: index 0 is the tonic.
    pub fn offsets_cents(self) -> [f64; 12] {
        let pitches = self.pitches_cents();
        std::array::from_fn(|class| {
            let offset = pitches[class] - 100.0 * class as f64;
            // Pitches just below the octave are a hair below the tonic's.
            if offset > 600.0 {
                offset - 1200.0
            } else {
                offset
            }
        })
    }

    /// How far MIDI key `key` lies from equal temperament (cents) with the
    /// temperament laid from pitch class `tonic` (0 C to 11 B) and A held
    /// where equal temperament has it: exactly 0 for [`Temperament::Equal`].
    pub fn key_offset_cents(self, key: u8, tonic: u8) -> f64 {
        if self == Self::Equal {
            return 0.0;
        }
        let offsets = self.offsets_cents();
        let from_tonic = |key: i32| (key - i32::from(tonic)).rem_euclid(12) as usize;
        offsets[from_tonic(i32::from(key))] - offsets[from_tonic(9)]
    }
}

/// The pitch class named `name`, 0 (C) to 11 (B): a letter `A`–`G` (either
/// case) and any sharps (`#`, `♯`) or flats (`b`, `♭`): `E♭`, `Eb`, `D#`
/// are all 3.
pub fn parse_pitch_class(name: &str) -> Option<u8> {
    semitones_from_c(name).map(|s| s.rem_euclid(12) as u8)
}

/// Semitones above C of a letter `A`–`G` (either case) followed by any sharps
/// (`#`, `♯`) and flats (`b`, `♭`): `Cb` is -1, `B#` 12; `None` for anything
/// else.
pub(super) fn semitones_from_c(name: &str) -> Option<i32> {
    let mut chars = name.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    let step = [0, 2, 4, 5, 7, 9, 11][("CDEFGAB".find(letter))?];
    let mut semitones: i32 = step;
    for c in chars {
        semitones += match c {
            '#' | '♯' => 1,
            'b' | '♭' => -1,
            _ => return None,
        };
    }
    Some(semitones)
}

/// The name of pitch class `class` (0 C to 11 B), flats for the black keys
/// but F♯ and C♯, as temperaments' keys are usually named: `C`, `E♭`, `F♯`.
pub fn pitch_class_name(class: u8) -> &'static str {
    const NAMES: [&str; 12] = [
        "C", "C♯", "D", "E♭", "E", "F", "F♯", "G", "A♭", "A", "B♭", "B",
    ];
    NAMES[usize::from(class % 12)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Published pitches above C, cents (Barbour, *Tuning and Temperament*,
    /// 1951; the tables of Lindley's "Temperaments" in Grove), to the
    /// thousandth of a cent the comma arithmetic gives.
    #[test]
    fn pitches_match_the_published_tables() {
        let cases: [(Temperament, [(usize, f64); 4]); 5] = [
            (
                Temperament::WerckmeisterIii,
                [(4, 390.225), (7, 696.090), (1, 90.225), (11, 1092.180)],
            ),
            (
                Temperament::Vallotti,
                [(4, 392.180), (5, 501.955), (10, 1000.0), (1, 94.135)],
            ),
            (
                Temperament::KirnbergerIii,
                [(4, 386.314), (9, 889.735), (6, 590.224), (1, 90.225)],
            ),
            (
                Temperament::QuarterCommaMeantone,
                [(4, 386.314), (7, 696.578), (8, 772.627), (3, 310.265)],
            ),
            (
                Temperament::Pythagorean,
                [(7, 701.955), (4, 407.820), (3, 294.135), (8, 815.640)],
            ),
        ];
        for (temperament, pitches) in cases {
            let computed = temperament.pitches_cents();
            for (class, cents) in pitches {
                assert!(
                    (computed[class] - cents).abs() < 1e-3,
                    "{temperament:?} {class}: {} not {cents}",
                    computed[class]
                );
            }
        }
        let equal = Temperament::Equal.pitches_cents();
        for (class, cents) in equal.iter().enumerate() {
            assert!((cents - 100.0 * class as f64).abs() < 1e-9);
        }
    }

    /// The circulating temperaments close the circle of fifths with pure
    /// fifths (all the comma is spent); meantone and Pythagorean leave the wolf.
    #[test]
    fn circles_close_as_the_treatises_say() {
        let fifth = |t: Temperament, class: usize| {
            let p = t.pitches_cents();
            (p[(class + 7) % 12] - p[class]).rem_euclid(1200.0)
        };
        // F–C, the fifth that closes Werckmeister III and Kirnberger III; B♭–F
        // closes Vallotti.
        assert!((fifth(Temperament::WerckmeisterIii, 5) - pure_fifth_cents()).abs() < 1e-9);
        assert!((fifth(Temperament::KirnbergerIii, 5) - pure_fifth_cents()).abs() < 1e-9);
        assert!((fifth(Temperament::Vallotti, 10) - pure_fifth_cents()).abs() < 1e-9);
        // The meantone wolf G♯–E♭: 737.637 cents.
        assert!((fifth(Temperament::QuarterCommaMeantone, 8) - 737.637).abs() < 1e-3);
        // The Pythagorean wolf: a pure fifth less the comma.
        let wolf = pure_fifth_cents() - pythagorean_comma_cents();
        assert!((fifth(Temperament::Pythagorean, 8) - wolf).abs() < 1e-9);
    }

    /// A is held: with any tonic, A's offset is 0; and a temperament laid from
    /// E♭ is the one laid from C, moved up three semitones.
    #[test]
    fn a_is_held_and_keys_transpose() {
        for temperament in Temperament::ALL {
            for tonic in 0..12 {
                assert_eq!(temperament.key_offset_cents(69, tonic), 0.0);
                assert_eq!(temperament.key_offset_cents(57, tonic), 0.0);
            }
            for key in 60..72u8 {
                let from_c = temperament.key_offset_cents(key, 0) + temperament.offsets_cents()[9];
                // A lies 6 semitones above E♭.
                let from_eb =
                    temperament.key_offset_cents(key + 3, 3) + temperament.offsets_cents()[6];
                assert!((from_c - from_eb).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn names_read_back() {
        for t in Temperament::ALL {
            assert_eq!(Temperament::from_name(t.name()), Some(t));
            assert_eq!(Temperament::from_index(t.index()), Some(t));
        }
        for class in 0..12 {
            assert_eq!(parse_pitch_class(pitch_class_name(class)), Some(class));
        }
        assert_eq!(parse_pitch_class("Eb"), Some(3));
        assert_eq!(parse_pitch_class("d#"), Some(3));
        assert_eq!(parse_pitch_class("H"), None);
        assert_eq!(parse_pitch_class("E4"), None);
    }
}
