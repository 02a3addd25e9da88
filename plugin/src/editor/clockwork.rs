//! The clockwork view, in its own window. When the instrument runs a
//! mechanism (the chiming clock's movement), the window shows *that*
//! mechanism ([`follow`]): its parts where the worker last published them,
//! so what is seen moves with what is heard, beside a dial whose hands show
//! the time the movement's train keeps, and a line saying what the chime
//! and strike trains are doing. Nothing is simulated on the GUI thread for
//! it.
//!
//! Otherwise (and on request, for a clock too) it runs one of the engine's
//! built-in mechanisms (Gelsey's escapement, the ratchet) in real time, its
//! parts drawn where the simulation puts them, with play/pause, restart,
//! and a legend of the time, the speed against real time, and every moving
//! part's angle or position. That mechanism is stepped on the GUI thread
//! while the window is shown ([`live`]): the escapement costs tens of
//! microseconds per frame.

mod drawing;
mod follow;
mod live;

use egui::{Color32, Grid, Painter, Pos2, Rect, RichText, Sense, Stroke, Ui, Vec2};
use orchard_engine::families::chiming_clock::ChimingClock;
use orchard_engine::mech::mechanism::{BRACKET_MOVEMENT_TOML, BUILTIN_NAMES, Mechanism};
use orchard_engine::rt::{Family, MechanicsView};

use drawing::{Extent, Fit};
use follow::Follower;
use live::{LiveMechanism, Status};

/// Height of the drawing, points.
const DRAWING_HEIGHT: f32 = 360.0;

/// The clockwork window's state: whether it is open, the mechanism shown in
/// it, and what the instrument runs.
#[derive(Default)]
pub struct ClockworkView {
    /// Whether the window is shown (and so a built-in mechanism runs).
    open: bool,
    live: Option<Loaded>,
    /// The description of the mechanism the instrument runs, if any.
    instrument: Option<&'static str>,
    /// The worker's latest view.
    published: Option<Box<MechanicsView>>,
}

/// A loaded mechanism, or why it could not be.
enum Loaded {
    /// A built-in mechanism stepped here.
    Running(Box<LiveMechanism>, Option<Extent>),
    /// The instrument's mechanism, following the worker.
    Instrument(Box<Follower>),
    Broken(&'static str, String),
}

/// What the mechanism menu offers.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Choice {
    /// The instrument's own mechanism.
    Instrument,
    /// A built-in mechanism by name.
    Builtin(&'static str),
}

/// The description of the mechanism an instrument family runs and
/// publishes, if it runs one.
pub fn family_mechanism(family: &str) -> Option<&'static str> {
    (family == ChimingClock.name()).then_some(BRACKET_MOVEMENT_TOML)
}

impl ClockworkView {
    /// The top bar's button that shows and hides the window.
    pub fn toggle(&mut self, ui: &mut Ui) {
        ui.toggle_value(&mut self.open, "Clockwork")
            .on_hover_text("The instrument's clockwork, or a clockwork mechanism running live");
    }

    /// Takes what the instrument runs: `mechanism`, the description of the
    /// mechanism its family runs (`family_mechanism`), and `view`, the
    /// worker's latest view. An instrument that starts running a mechanism
    /// shows it; one that stops goes back to the built-in mechanisms.
    pub fn follow_instrument(&mut self, mechanism: Option<&'static str>, view: &MechanicsView) {
        if mechanism != self.instrument {
            self.instrument = mechanism;
            self.live = None;
        }
        match &mut self.published {
            Some(published) => **published = *view,
            None => self.published = Some(Box::new(*view)),
        }
    }

    /// Shows the window if it is open.
    pub fn window(&mut self, ctx: &egui::Context) {
        let mut open = self.open;
        egui::Window::new("Clockwork")
            .open(&mut open)
            .pivot(egui::Align2::CENTER_CENTER)
            .default_pos(ctx.content_rect().center())
            .default_size([460.0, 560.0])
            .show(ctx, |ui| self.show(ui));
        self.open = open;
    }

    /// The window's contents: a built-in mechanism advances by this frame's
    /// time, the instrument's takes the worker's positions; then the
    /// controls, the parts (and the dial) and the legend.
    pub fn show(&mut self, ui: &mut Ui) {
        let frame_s = f64::from(ui.input(|i| i.stable_dt));
        let instrument = self.instrument;
        let loaded = self.live.get_or_insert_with(|| match instrument {
            Some(description) => load_instrument(description),
            None => load(BUILTIN_NAMES[0]),
        });
        if let Some(choice) = controls(ui, loaded, instrument.is_some()) {
            *loaded = match (choice, instrument) {
                (Choice::Instrument, Some(description)) => load_instrument(description),
                (Choice::Builtin(name), _) => load(name),
                (Choice::Instrument, None) => load(BUILTIN_NAMES[0]),
            };
        }
        match loaded {
            Loaded::Running(live, extent) => {
                live.frame(frame_s);
                draw(ui, live, *extent);
                legend(ui, live);
                if *live.status() == Status::Playing {
                    ui.ctx().request_repaint();
                }
            }
            Loaded::Instrument(follower) => {
                if let Some(view) = &self.published {
                    follower.follow(view);
                }
                draw_instrument(ui, follower);
                instrument_legend(ui, follower);
                ui.ctx().request_repaint();
            }
            Loaded::Broken(_, reason) => {
                ui.colored_label(Color32::LIGHT_RED, reason.as_str());
            }
        }
    }

    /// The instrument's mechanism as drawn (its parts where the worker last
    /// published them), while the window shows it.
    pub fn followed(&self) -> Option<&Mechanism> {
        match self.live.as_ref()? {
            Loaded::Instrument(follower) => Some(follower.mechanism()),
            _ => None,
        }
    }

    /// The time the drawn dial shows, s after midnight, while the window
    /// shows the instrument's clock and the worker has published it.
    pub fn dial_time_s(&self) -> Option<f64> {
        match self.live.as_ref()? {
            Loaded::Instrument(follower) => follower.dial_time_s(),
            _ => None,
        }
    }

    /// The running mechanism, if one loaded.
    #[cfg(test)]
    fn live(&self) -> Option<&LiveMechanism> {
        match self.live.as_ref()? {
            Loaded::Running(live, _) => Some(live),
            Loaded::Instrument(_) | Loaded::Broken(..) => None,
        }
    }
}

/// Builds the built-in mechanism `name` and the frame its parts can reach.
fn load(name: &'static str) -> Loaded {
    match LiveMechanism::load(name) {
        Ok(mut live) => {
            let extent = drawing::reach(live.mechanism_mut());
            Loaded::Running(Box::new(live), extent)
        }
        Err(reason) => Loaded::Broken(name, reason),
    }
}

/// Builds the copy of the instrument's mechanism that follows the worker.
fn load_instrument(description: &'static str) -> Loaded {
    match Follower::new(description) {
        Ok(follower) => Loaded::Instrument(Box::new(follower)),
        Err(reason) => Loaded::Broken("instrument", reason),
    }
}

/// The label of the instrument's mechanism in the menu.
const INSTRUMENT_LABEL: &str = "the instrument's clock";

/// The mechanism's choice (the instrument's own first, when it runs one),
/// and for a built-in one play/pause and restart; returns a newly chosen
/// mechanism.
fn controls(ui: &mut Ui, loaded: &mut Loaded, offer_instrument: bool) -> Option<Choice> {
    let current = match loaded {
        Loaded::Running(live, _) => Choice::Builtin(live.name()),
        Loaded::Instrument(_) => Choice::Instrument,
        Loaded::Broken("instrument", _) => Choice::Instrument,
        Loaded::Broken(name, _) => Choice::Builtin(name),
    };
    let label = |choice: Choice| match choice {
        Choice::Instrument => INSTRUMENT_LABEL,
        Choice::Builtin(name) => name,
    };
    let mut chosen = None;
    ui.horizontal(|ui| {
        egui::ComboBox::from_label("Mechanism")
            .selected_text(label(current))
            .show_ui(ui, |ui| {
                let instrument = offer_instrument.then_some(Choice::Instrument);
                let builtins = BUILTIN_NAMES.iter().map(|&name| Choice::Builtin(name));
                for choice in instrument.into_iter().chain(builtins) {
                    if ui
                        .selectable_label(choice == current, label(choice))
                        .clicked()
                        && choice != current
                    {
                        chosen = Some(choice);
                    }
                }
            });
        let Loaded::Running(live, _) = loaded else {
            return;
        };
        let paused = *live.status() == Status::Paused;
        let failed = matches!(live.status(), Status::Failed(_));
        let label = if paused { "Play" } else { "Pause" };
        if ui.add_enabled(!failed, egui::Button::new(label)).clicked() {
            live.toggle_pause();
        }
        if ui
            .button("Restart")
            .on_hover_text("Back to rest at t = 0")
            .clicked()
        {
            live.restart();
        }
    });
    chosen
}

/// The parts at their present poses, in the whole width and
/// [`DRAWING_HEIGHT`], scaled so every place they can reach fits.
fn draw(ui: &mut Ui, live: &mut LiveMechanism, extent: Option<Extent>) {
    let size = Vec2::new(ui.available_width(), DRAWING_HEIGHT);
    let (response, painter) = ui.allocate_painter(size, Sense::hover());
    painter.rect_filled(response.rect, 4.0, Color32::from_gray(22));
    if let Some(extent) = extent {
        let moving: Vec<usize> = live.parts().iter().map(|p| p.index).collect();
        let fit = Fit::new(extent, response.rect);
        drawing::paint(&painter, &fit, live.mechanism_mut(), &moving);
    }
}

/// The instrument's mechanism where the worker put it, on the left, and
/// the clock's dial on the right.
fn draw_instrument(ui: &mut Ui, follower: &mut Follower) {
    let size = Vec2::new(ui.available_width(), DRAWING_HEIGHT);
    let (response, painter) = ui.allocate_painter(size, Sense::hover());
    let rect = response.rect;
    painter.rect_filled(rect, 4.0, Color32::from_gray(22));
    let split = rect.left() + 0.5 * rect.width();
    let (movement, dial) = (
        Rect::from_min_max(rect.min, egui::pos2(split, rect.max.y)),
        Rect::from_min_max(egui::pos2(split, rect.min.y), rect.max),
    );
    if let Some(extent) = follower.extent() {
        let fit = Fit::new(extent, movement);
        let moving = follower.moving().to_vec();
        drawing::paint(&painter, &fit, follower.mechanism_mut(), &moving);
    }
    if let Some(time_s) = follower.dial_time_s() {
        paint_dial(&painter, dial, time_s);
    }
}

/// A clock's dial in `rect`: twelve hour marks, the hour, minute and
/// second hands at `time_s` (s after midnight).
fn paint_dial(painter: &Painter, rect: Rect, time_s: f64) {
    let centre = rect.center();
    let radius = 0.45 * rect.width().min(rect.height());
    let brass = Color32::from_rgb(222, 190, 120);
    painter.circle(
        centre,
        radius,
        Color32::from_rgb(236, 230, 214),
        Stroke::new(3.0, brass),
    );
    // Clockwise from 12, y down on the screen.
    let at = |angle: f64, r: f32| {
        let (sin, cos) = (angle.sin() as f32, angle.cos() as f32);
        Pos2::new(centre.x + r * sin, centre.y - r * cos)
    };
    let ink = Color32::from_gray(30);
    for hour in 0..12 {
        let angle = f64::from(hour) * std::f64::consts::TAU / 12.0;
        let inner = if hour % 3 == 0 { 0.8 } else { 0.87 };
        painter.line_segment(
            [at(angle, inner * radius), at(angle, 0.95 * radius)],
            Stroke::new(if hour % 3 == 0 { 3.0 } else { 1.5 }, ink),
        );
    }
    let [hour, minute, second] = follow::hand_angles(time_s);
    painter.line_segment([centre, at(hour, 0.5 * radius)], Stroke::new(5.0, ink));
    painter.line_segment([centre, at(minute, 0.8 * radius)], Stroke::new(3.0, ink));
    painter.line_segment(
        [
            at(second + std::f64::consts::PI, 0.15 * radius),
            at(second, 0.85 * radius),
        ],
        Stroke::new(1.0, Color32::from_rgb(180, 40, 40)),
    );
    painter.circle_filled(centre, 4.0, ink);
}

/// The worker's time, the dial's time, the trains, and each moving part's
/// angle in its colour.
fn instrument_legend(ui: &mut Ui, follower: &Follower) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(follower.name()).strong());
        ui.separator();
        match follower.time_s() {
            Some(t) => ui
                .label(format!("t = {t:.2} s"))
                .on_hover_text("The instrument's time, as its worker last published it"),
            None => ui.label("waiting for the instrument"),
        };
        if let Some(dial) = follower.dial_time_s() {
            ui.separator();
            ui.label(format!("dial {}", follow::dial_text(dial)))
                .on_hover_text("The time the movement's train shows");
        }
    });
    if let Some(trains) = follower.trains() {
        ui.label(follow::trains_text(trains));
    }
    Grid::new("clockwork legend")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for part in follower.parts() {
                let colour = drawing::part_colour(part.index, true);
                ui.horizontal(|ui| {
                    let (swatch, _) = ui.allocate_exact_size(Vec2::splat(10.0), Sense::hover());
                    ui.painter().rect_filled(swatch, 2.0, colour);
                    ui.label(RichText::new(&part.name).color(colour));
                });
                let x = part.position_in(follower.mechanism());
                if part.turns {
                    ui.label(format!("{:.1}°", x.to_degrees()));
                } else {
                    ui.label(format!("{x:.4} m"));
                }
                ui.end_row();
            }
        });
}

/// Time, speed, status, and each moving part's position and velocity in its
/// colour.
fn legend(ui: &mut Ui, live: &LiveMechanism) {
    ui.horizontal(|ui| {
        ui.label(format!("t = {:.2} s", live.time_s()));
        ui.separator();
        match live.speed() {
            Some(speed) => ui.label(format!("{speed:.2}× real time")),
            None => ui.label("– × real time"),
        }
        .on_hover_text("Simulated seconds per second, over the last second or so of playing");
        ui.separator();
        ui.label(format!("{:.3} ms per frame", 1e3 * live.cost_per_frame_s()))
            .on_hover_text("Time spent stepping the mechanism in each frame");
    });
    match live.status() {
        Status::Playing => {}
        Status::Paused => {
            ui.label("Paused");
        }
        Status::Failed(reason) => {
            ui.colored_label(Color32::LIGHT_RED, format!("Stopped: {reason}"));
        }
    }
    Grid::new("clockwork legend")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            for part in live.parts() {
                let colour = drawing::part_colour(part.index, true);
                ui.horizontal(|ui| {
                    let (swatch, _) = ui.allocate_exact_size(Vec2::splat(10.0), Sense::hover());
                    ui.painter().rect_filled(swatch, 2.0, colour);
                    ui.label(RichText::new(&part.name).color(colour));
                });
                let (x, v) = live.motion(part);
                if part.turns {
                    ui.label(format!("{:.1}°", x.to_degrees()));
                    ui.label(format!("{:.1} °/s", v.to_degrees()));
                } else {
                    ui.label(format!("{x:.3} u"));
                    ui.label(format!("{v:.3} u/s"));
                }
                ui.end_row();
            }
        });
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use orchard_engine::mech::{Model, ModelState};

    use super::*;

    /// Frame time of the harness, s (30 frames per second).
    const FRAME_S: f32 = 1.0 / 30.0;

    fn open() -> Harness<'static, ClockworkView> {
        Harness::builder()
            .with_size(Vec2::new(480.0, 620.0))
            .with_step_dt(FRAME_S)
            .build_ui_state(
                |ui, view: &mut ClockworkView| view.show(ui),
                ClockworkView::default(),
            )
    }

    fn live<'h>(h: &'h Harness<'static, ClockworkView>) -> &'h LiveMechanism {
        h.state().live().expect("a built-in mechanism loads")
    }

    /// A moving part's angle (rad) and angular velocity (rad/s).
    fn part(h: &Harness<'static, ClockworkView>, name: &str) -> (f64, f64) {
        let live = live(h);
        let part = live.parts().iter().find(|p| p.name == name).unwrap();
        assert!(part.turns, "{name} turns");
        live.motion(part)
    }

    /// One tooth of the escape wheel, rad (ten teeth).
    const TOOTH: f64 = std::f64::consts::TAU / 10.0;

    /// Free damped period of the escapement's balance, s: ω = √(k/I − (h/2I)²)
    /// with the preset's hairspring k = 15, inertia I = 20, friction h = 6.
    fn balance_period_s() -> f64 {
        let (k, i, h) = (15.0f64, 20.0f64, 6.0f64);
        std::f64::consts::TAU / (k / i - (h / (2.0 * i)).powi(2)).sqrt()
    }

    /// How far the lever turns before its arm (half-width 0.5) rests on a
    /// banking pin (radius 0.5) at (±1.6, 14), 6.5 above its pivot, rad:
    /// 1.6·cos θ − 6.5·sin θ = 1.
    fn banking_rad() -> f64 {
        let (x, y) = (1.6f64, 6.5f64);
        (1.0 / x.hypot(y)).acos() - y.atan2(x)
    }

    #[test]
    fn playing_the_escape_wheel_advances_a_tooth_per_swing_of_the_balance() {
        let mut h = open();
        assert_eq!(live(&h).name(), "escapement");
        let t0 = live(&h).time_s();
        let (wheel0, _) = part(&h, "wheel");
        // About two and a half periods of the balance.
        let frames = 550;
        let mut wheel = vec![wheel0];
        let mut balance_speed = Vec::new();
        let mut lever = Vec::new();
        for _ in 0..frames {
            h.step();
            wheel.push(part(&h, "wheel").0);
            balance_speed.push(part(&h, "balance").1);
            lever.push(part(&h, "lever").0);
        }
        // Real time: every frame advanced the mechanism by its duration.
        let elapsed = live(&h).time_s() - t0;
        let expected = frames as f64 * f64::from(FRAME_S);
        assert!((elapsed - expected).abs() < 1e-9, "{elapsed} s");
        let speed = live(&h).speed().unwrap();
        assert!((speed - 1.0).abs() < 1e-6, "{speed}× real time");

        // The mainspring turns the wheel clockwise (negative) by drops, never
        // back by more than a recoil, one tooth per period of the balance.
        let recoil = wheel.windows(2).map(|w| w[1] - w[0]).fold(0.0, f64::max);
        let teeth = (wheel0 - wheel[frames]) / TOOTH;
        let periods = expected / balance_period_s();
        println!("{teeth:.3} teeth in {periods:.3} balance periods, recoil {recoil:.2e} rad");
        assert!(
            recoil < 1f64.to_radians(),
            "the wheel went back {recoil} rad"
        );
        assert!(
            (teeth - periods).abs() < 0.5,
            "{teeth} teeth in {periods} periods"
        );

        // The balance swings: its velocity changes sign every half period
        // (to within a frame, and the 1.5 % the escapement's impulses may
        // change it by; measured +0.4 %).
        let reversals: Vec<f64> = balance_speed
            .windows(2)
            .enumerate()
            .filter(|(_, w)| w[0].signum() != w[1].signum())
            .map(|(k, _)| k as f64 * f64::from(FRAME_S))
            .collect();
        println!("balance reversals at {reversals:?} s");
        assert!(reversals.len() >= 4, "{reversals:?}");
        let half = 0.5 * balance_period_s();
        for w in reversals.windows(2) {
            let swing = w[1] - w[0];
            assert!(
                (swing - half).abs() < 0.015 * half + f64::from(FRAME_S),
                "a swing of {swing} s, free {half} s"
            );
        }

        // The lever rocks from one banking pin to the other, and no farther
        // than the contact's small overlap allows.
        let (low, high) = lever
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, u), &x| (l.min(x), u.max(x)));
        let banking = banking_rad();
        println!("lever between {low} and {high} rad, banking at ±{banking} rad");
        assert!((high - banking).abs() < 0.005, "{high} rad");
        assert!((low + banking).abs() < 0.005, "{low} rad");
    }

    #[test]
    fn pause_stops_time_and_play_resumes_it() {
        let mut h = open();
        h.run_steps(30);
        h.get_by_label("Pause").click();
        h.step();
        let (time, state) = (live(&h).time_s(), live(&h).mechanism().save_state());
        h.run_steps(30);
        assert_eq!(live(&h).time_s(), time, "paused, time stands still");
        assert_eq!(
            live(&h).mechanism().save_state(),
            state,
            "and so do the parts"
        );
        assert!(h.query_by_label("Paused").is_some());

        h.get_by_label("Play").click();
        h.step();
        let resumed = live(&h).time_s();
        h.run_steps(30);
        let elapsed = live(&h).time_s() - resumed;
        assert!(
            (elapsed - 30.0 * f64::from(FRAME_S)).abs() < 1e-9,
            "{elapsed} s"
        );
        assert_ne!(live(&h).mechanism().save_state(), state);
    }

    #[test]
    fn restart_returns_to_rest_at_zero() {
        let mut h = open();
        h.run_steps(90);
        assert!(
            part(&h, "balance").0 > 0.5,
            "the balance swung towards its hairspring's rest"
        );
        h.get_by_label("Restart").click();
        h.step();
        // Restarted, then this frame played.
        assert!((live(&h).time_s() - f64::from(FRAME_S)).abs() < 1e-9);
        assert!(part(&h, "balance").0.abs() < 0.01);
    }

    #[test]
    fn the_ratchet_runs_clockwise() {
        let mut h = open();
        h.get_by_label("Mechanism").click();
        h.run_steps(3);
        h.get_by_label("ratchet").click();
        h.run_steps(2);
        assert_eq!(live(&h).name(), "ratchet");
        let (start, _) = part(&h, "wheel");
        let mut pawl = Vec::new();
        for _ in 0..90 {
            h.step();
            pawl.push(part(&h, "pawl").0.to_degrees());
        }
        let (end, speed) = part(&h, "wheel");
        // Driven by about 17.5 torque units against inertia 10 and friction 2:
        // clockwise, faster and faster, the pawl letting it go.
        assert!(end < start - 1.0, "{start} → {end} rad");
        assert!(speed < -1.0, "{speed} rad/s");
        // The pawl's spring holds it down on the wheel, which it cannot enter;
        // each passing tooth kicks it up.
        let lowest = pawl.iter().copied().fold(f64::MAX, f64::min);
        let highest = pawl.iter().copied().fold(f64::MIN, f64::max);
        assert!(lowest > -1.0, "the pawl went {lowest}° into the wheel");
        assert!(
            highest > 10.0,
            "the teeth lift the pawl: at most {highest}°"
        );
    }

    #[test]
    fn a_non_finite_state_stops_the_mechanism_and_says_so() {
        let mut h = open();
        let Some(Loaded::Running(running, _)) = h.state_mut().live.as_mut() else {
            panic!("the escapement loads");
        };
        let n = running.mechanism().save_state().0.len();
        running
            .mechanism_mut()
            .restore_state(&ModelState(vec![f64::NAN; n]));
        let time = running.time_s();
        h.run_steps(3);
        let stopped = h.query_by_label_contains("Stopped: parts/wheel:position became NaN");
        assert!(stopped.is_some(), "the view says why it stopped");
        assert!(matches!(live(&h).status(), Status::Failed(_)));
        assert_eq!(live(&h).time_s(), time, "and time stands still");

        h.get_by_label("Restart").click();
        h.run_steps(3);
        assert_eq!(*live(&h).status(), Status::Playing);
        assert!(part(&h, "wheel").0.is_finite(), "a restart recovers");
    }

    #[test]
    fn a_slow_frame_advances_at_most_the_cap() {
        let mut live = LiveMechanism::load("escapement").unwrap();
        live.frame(2.0);
        assert_eq!(live.time_s(), live::MAX_FRAME_S);
        let speed = live.speed().unwrap();
        assert!(
            (speed - live::MAX_FRAME_S / 2.0).abs() < 1e-12,
            "honest: {speed}×"
        );
        live.frame(f64::NAN);
        live.frame(-1.0);
        assert_eq!(live.time_s(), live::MAX_FRAME_S, "no time from a bad frame");
    }
}
