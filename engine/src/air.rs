//! The air the instruments sound in and the room carries (20 °C): the
//! constants a string's radiation and the room's reflections share.

/// Speed of sound in air at 20 °C, m/s.
pub const SPEED_OF_SOUND_M_S: f64 = 343.0;

/// Density of air at 20 °C, kg/m³.
pub const AIR_DENSITY_KG_M3: f64 = 1.204;
