//! The mechanism the instrument runs (the chiming clock's movement), as the
//! worker publishes it: a copy built once from the same description, for its
//! shapes, put each frame where the worker's parts are. Nothing is
//! simulated here: what is drawn moves with what is heard.

use orchard_engine::mech::mechanism::Mechanism;
use orchard_engine::rt::{ClockTrains, MechanicsView};

use super::drawing::{self, Extent};
use super::live::{MovingPart, moving_parts};

/// The instrument's mechanism, following the worker's.
pub struct Follower {
    /// The description it was built from (the published one).
    description: &'static str,
    mechanism: Mechanism,
    parts: Vec<MovingPart>,
    /// Indices of the parts that move (drawn in colour).
    moving: Vec<usize>,
    extent: Option<Extent>,
    /// The worker's time of the positions shown, s; `None` until a view
    /// of this mechanism has arrived.
    time_s: Option<f64>,
    dial_time_s: Option<f64>,
    trains: Option<ClockTrains>,
}

impl Follower {
    /// A copy of the mechanism `description` describes, at rest where it is
    /// drawn, until the worker's positions arrive. Allocates.
    pub fn new(description: &'static str) -> Result<Self, String> {
        let mut mechanism = Mechanism::from_toml(description).map_err(|e| e.to_string())?;
        let parts = moving_parts(&mechanism);
        let moving = parts.iter().map(|p| p.index).collect();
        let extent = drawing::reach(&mut mechanism);
        Ok(Self {
            description,
            mechanism,
            parts,
            moving,
            extent,
            time_s: None,
            dial_time_s: None,
            trains: None,
        })
    }

    /// Takes the positions, dial and trains of `view` if it is of this
    /// mechanism; otherwise keeps what it shows. Allocates nothing.
    pub fn follow(&mut self, view: &MechanicsView) {
        let snapshot = &view.mechanism;
        if snapshot.description != Some(self.description)
            || !self.mechanism.set_positions(snapshot.positions())
        {
            return;
        }
        self.time_s = Some(view.time_s);
        self.dial_time_s = snapshot.dial_time_s;
        self.trains = snapshot.trains;
    }

    /// The mechanism's name.
    pub fn name(&self) -> &str {
        self.mechanism.name()
    }

    /// The mechanism where the worker's is.
    pub fn mechanism(&self) -> &Mechanism {
        &self.mechanism
    }

    /// The mechanism, to place its shapes for drawing.
    pub fn mechanism_mut(&mut self) -> &mut Mechanism {
        &mut self.mechanism
    }

    /// The moving parts, in description order.
    pub fn parts(&self) -> &[MovingPart] {
        &self.parts
    }

    /// Indices of the moving parts.
    pub fn moving(&self) -> &[usize] {
        &self.moving
    }

    /// Everywhere its parts can be.
    pub fn extent(&self) -> Option<Extent> {
        self.extent
    }

    /// The worker's time of what is shown, s; `None` before the first view.
    pub fn time_s(&self) -> Option<f64> {
        self.time_s
    }

    /// The time the dial shows, s after midnight.
    pub fn dial_time_s(&self) -> Option<f64> {
        self.dial_time_s
    }

    /// What the chime and strike trains are doing.
    pub fn trains(&self) -> Option<ClockTrains> {
        self.trains
    }
}

/// `time_s` (s after midnight) as a clock face reads it: `h:mm:ss`, 1 to 12
/// o'clock.
pub fn dial_text(time_s: f64) -> String {
    let seconds = time_s.rem_euclid(43_200.0).floor() as u64;
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let h = if h == 0 { 12 } else { h };
    format!("{h}:{m:02}:{s:02}")
}

/// The angles of the hour, minute and second hands, rad clockwise from 12.
pub fn hand_angles(time_s: f64) -> [f64; 3] {
    use std::f64::consts::TAU;
    [
        TAU * time_s.rem_euclid(43_200.0) / 43_200.0,
        TAU * time_s.rem_euclid(3_600.0) / 3_600.0,
        TAU * time_s.rem_euclid(60.0) / 60.0,
    ]
}

/// What the trains are doing, in words.
pub fn trains_text(trains: ClockTrains) -> String {
    let chime = match trains.chime_quarter {
        0 => "locked".to_string(),
        4 => "ringing the hour's quarters".to_string(),
        q => format!(
            "ringing the {} quarter",
            ["first", "second", "third"][usize::from(q - 1).min(2)]
        ),
    };
    let strike = match (trains.strike_hour, trains.striking) {
        (0, _) => "locked".to_string(),
        (hour, false) => format!("waiting to strike {hour}"),
        (hour, true) => format!("striking {hour}, {} to go", trains.strokes_left),
    };
    format!("Chime: {chime} · Strike: {strike}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dial_reads_twelve_hour_time_and_the_hands_turn_clockwise() {
        assert_eq!(dial_text(0.0), "12:00:00");
        assert_eq!(dial_text(43_199.5), "11:59:59");
        assert_eq!(dial_text(13.0 * 3600.0 + 5.0 * 60.0 + 7.0), "1:05:07");
        let [h, m, s] = hand_angles(3.0 * 3600.0 + 30.0 * 60.0 + 15.0);
        let quarter = std::f64::consts::FRAC_PI_2;
        assert!((h - (quarter + quarter / 6.0 + quarter * 15.0 / 10_800.0)).abs() < 1e-12);
        assert!((m - (2.0 * quarter + quarter * 15.0 / 900.0)).abs() < 1e-12);
        assert!((s - quarter).abs() < 1e-12);
    }

    #[test]
    fn the_trains_in_words() {
        let idle = ClockTrains::default();
        assert_eq!(trains_text(idle), "Chime: locked · Strike: locked");
        let hour = ClockTrains {
            chime_quarter: 4,
            strike_hour: 12,
            striking: false,
            strokes_left: 12,
        };
        assert_eq!(
            trains_text(hour),
            "Chime: ringing the hour's quarters · Strike: waiting to strike 12"
        );
        let striking = ClockTrains {
            chime_quarter: 0,
            striking: true,
            strokes_left: 3,
            ..hour
        };
        assert_eq!(
            trains_text(striking),
            "Chime: locked · Strike: striking 12, 3 to go"
        );
    }
}
